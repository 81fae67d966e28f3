"""The ASGI app: MCP over Streamable HTTP at `/api/mcp`, `/healthz`, CORS and request guards.

`create_app(site_dir, ...)` builds it; the module attribute `app` builds one from the
environment (`uvicorn mcp_server.app:app`):

- `MODELSCORES_SITE_DIR`: the built site (default `site_out`),
- `MODELSCORES_ALLOWED_HOSTS`: comma-separated `Host` values (`name`, `name:port`,
  `name:*`, or `*` for any); default: localhost on any port,
- `MODELSCORES_ALLOWED_ORIGINS`: comma-separated browser origins (`scheme://name[:port|:*]`,
  or `*` for any); default: http://localhost on any port,
- `MODELSCORES_MCP_FAST_PATH`: `0` (or `false`, `no`, `off`) sends every MCP request through
  the SDK instead of answering plain `tools/call` requests directly (`mcp_server.fastpath`).
"""

from __future__ import annotations

import os
import re
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path

from mcp.server.transport_security import TransportSecuritySettings
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from generator.api.urls import MCP_PATH
from mcp_server.fastpath import FastPath
from mcp_server.guards import ANY, BodyLimit, JsonRpcGuard, RebindingGuard
from mcp_server.server import create_server
from mcp_server.site import SiteError, SiteSnapshot, SnapshotStore

MAX_BODY_BYTES = 64 * 1024
"""Tool arguments are a few ids; anything much larger is not a request of ours (413)."""
LOCAL_NAMES = ("127.0.0.1", "localhost", "[::1]")
DEFAULT_ALLOWED_HOSTS = tuple(h for name in LOCAL_NAMES for h in (name, f"{name}:*"))
DEFAULT_ALLOWED_ORIGINS = tuple(
    o for name in LOCAL_NAMES for o in (f"http://{name}", f"http://{name}:*")
)
CORS_ALLOW_HEADERS = (
    "accept",
    "content-type",
    "last-event-id",
    "mcp-protocol-version",
    "mcp-session-id",
    "mcp-method",
    "mcp-name",
)
CORS_EXPOSE_HEADERS = ("mcp-session-id", "mcp-protocol-version")


def _origin_regex(origins: Sequence[str]) -> str:
    """One regex for CORS matching the same origins as the guard (`:*` = any port)."""
    parts = [
        re.escape(o[:-2]) + r":\d+" if o.endswith(":*") else re.escape(o)
        for o in origins
        if o != ANY
    ]
    return "|".join(parts) or "(?!)"


def _mcp_routes(mcp_app: Starlette, store: SnapshotStore | None) -> list[Route]:
    """The SDK's MCP route, POST only, at `/api/mcp` and `/api/mcp/` (no 307 between them).

    A stateless server has nothing to stream, so GET (which would open an SSE stream that
    never ends) and DELETE get 405, as the transport allows. With a `store`, `FastPath`
    answers plain `tools/call` requests before the SDK sees them.
    """
    (route,) = mcp_app.routes
    if not isinstance(route, Route) or route.path != MCP_PATH:  # pragma: no cover - SDK change
        raise RuntimeError(f"unexpected MCP route from the SDK: {route!r}")
    endpoint = route.endpoint if store is None else FastPath(route.endpoint, store)
    return [Route(path, endpoint, methods=["POST"]) for path in (MCP_PATH, MCP_PATH + "/")]


def create_app(
    site_dir: Path,
    allowed_hosts: Sequence[str] | None = None,
    allowed_origins: Sequence[str] | None = None,
    *,
    check_interval: float = 1.0,
    max_body_bytes: int = MAX_BODY_BYTES,
    fast_path: bool = True,
    first: SiteSnapshot | None = None,
) -> Starlette:
    """The sidecar for the build at `site_dir` (loaded at startup, reloaded when swapped).

    `first` is that build already loaded (the CLI's check), so it is not read twice.
    `fast_path=False` sends every MCP request through the SDK (`mcp_server.fastpath`).
    """
    store = SnapshotStore(site_dir, check_interval, first=first)
    server = create_server(store)
    hosts = list(allowed_hosts or DEFAULT_ALLOWED_HOSTS)
    origins = list(allowed_origins or DEFAULT_ALLOWED_ORIGINS)
    mcp_app = server.streamable_http_app(
        streamable_http_path=MCP_PATH,
        stateless_http=True,
        json_response=True,
        max_request_body_size=max_body_bytes,
        # Host and Origin are checked by RebindingGuard, which also understands `*`.
        transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False),
    )

    async def healthz(request: Request) -> Response:
        try:
            site = await run_in_threadpool(store.current)
        except SiteError as exc:
            return JSONResponse({"status": "unavailable", "error": str(exc)}, status_code=503)
        return JSONResponse(
            {"status": "ok", **site.envelope, "models": len(site.models.struct.models)}
        )

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await run_in_threadpool(store.current)  # fail at startup if there is no valid build
        async with server.session_manager.run():
            yield

    app = Starlette(
        routes=[
            *_mcp_routes(mcp_app, store if fast_path else None),
            *(Route(path, healthz, methods=["GET", "HEAD"]) for path in ("/healthz", "/healthz/")),
        ],
        middleware=[
            Middleware(
                CORSMiddleware,
                allow_origins=[ANY] if ANY in origins else [],
                allow_origin_regex=None if ANY in origins else _origin_regex(origins),
                allow_methods=["GET", "POST"],
                allow_headers=list(CORS_ALLOW_HEADERS),
                expose_headers=list(CORS_EXPOSE_HEADERS),
                max_age=86400,
            ),
            Middleware(BodyLimit, max_bytes=max_body_bytes),
            Middleware(
                RebindingGuard,
                settings=TransportSecuritySettings(allowed_hosts=hosts, allowed_origins=origins),
                path=MCP_PATH,
            ),
            Middleware(JsonRpcGuard, path=MCP_PATH),
        ],
        lifespan=lifespan,
    )
    # No slash redirect: Starlette's is an absolute URL built from the request's `Host`, so
    # `/healthz/` (or any path with a slash added) sent a client wherever `Host` named.
    app.router.redirect_slashes = False
    app.state.store = store
    app.state.server = server
    return app


def _env_list(name: str) -> list[str] | None:
    values = [v.strip() for v in os.environ.get(name, "").split(",") if v.strip()]
    return values or None


def create_app_from_env() -> Starlette:
    """`create_app` configured by the `MODELSCORES_*` environment variables."""
    return create_app(
        Path(os.environ.get("MODELSCORES_SITE_DIR", "site_out")),
        _env_list("MODELSCORES_ALLOWED_HOSTS"),
        _env_list("MODELSCORES_ALLOWED_ORIGINS"),
        fast_path=os.environ.get("MODELSCORES_MCP_FAST_PATH", "1").strip().lower()
        not in ("0", "false", "no", "off"),
    )


_app: Starlette | None = None


def __getattr__(name: str) -> Starlette:
    """`app`, built on first access so that importing this module has no side effects."""
    global _app
    if name != "app":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    if _app is None:
        _app = create_app_from_env()
    return _app
