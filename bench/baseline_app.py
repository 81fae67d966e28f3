"""The sidecar benchmark's baseline: plain Starlette routes returning a built JSON file's bytes.

`uvicorn bench.baseline_app:app` with `MODELSCORES_SITE_DIR` set to a built site. Each
request reads the file from disk (as a static file server would) and returns its bytes
as `application/json`: the cost of uvicorn + Starlette + one file read, nothing else.
"""

from __future__ import annotations

import os
from pathlib import Path

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

SITE = Path(os.environ.get("MODELSCORES_SITE_DIR", "site_out")) / "api" / "v1"


def _file(rel: str) -> Response:
    path = SITE / rel
    if "/." in rel or not path.is_file():
        return Response(b'{"error":"No such API path.","code":"not_found"}', 404)
    return Response(path.read_bytes(), media_type="application/json")


async def model(request: Request) -> Response:
    """The bytes of `api/v1/models/{id}`."""
    return _file(f"models/{request.path_params['id']}")


async def ranking(request: Request) -> Response:
    """The bytes of `api/v1/rankings/{id}`."""
    return _file(f"rankings/{request.path_params['id']}")


async def models(request: Request) -> Response:
    """The bytes of `api/v1/models.json`."""
    return _file("models.json")


app = Starlette(
    routes=[
        Route("/api/v1/models", models),
        Route("/api/v1/models/{id}", model),
        Route("/api/v1/rankings/{id}", ranking),
    ]
)
