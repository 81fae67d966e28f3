"""`Content-Type` on a POST to the MCP endpoint, through `modelscores serve`'s app
(`generator/serve.py` mounts the sidecar at /api/mcp) and the standalone sidecar, on the fast
path and the SDK's: conflicting ones are a JSON-RPC Invalid Request (the SDK read only the
first, so `application/json` then `text/plain` was answered as JSON); a wrong or missing one
is a JSON-RPC 415 (the SDK's security layer answered it with a plain-text 400)."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest
from starlette.routing import Route
from starlette.testclient import TestClient
from starlette.types import ASGIApp
from support.mcp_live import serve

from generator.api.urls import MCP_PATH
from generator.serve import create_app
from mcp_server.app import create_app as create_mcp_app
from mcp_server.fastpath import FastPath

CALL = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "tools/call",
    "params": {"name": "list_models", "arguments": {}},
}
ACCEPT = ("accept", "application/json, text/event-stream")


def _apps(site: Path, fast_path: bool) -> dict[str, ASGIApp]:
    return {
        "serve": create_app(site, create_mcp_app(site, fast_path=fast_path)),
        "sidecar": create_mcp_app(site, fast_path=fast_path),
    }


def _post(app: ASGIApp, *types: str) -> tuple[int, str, bytes]:
    headers = [ACCEPT, *(("content-type", t) for t in types)]
    with TestClient(app, base_url="http://localhost") as client:
        response = client.post(MCP_PATH, content=json.dumps(CALL), headers=headers)
        return response.status_code, response.headers.get("content-type", ""), response.content


@pytest.mark.parametrize("fast_path", [True, False], ids=["fast-path", "sdk"])
@pytest.mark.parametrize(
    "types",
    [
        ("application/json", "text/plain"),
        ("text/plain", "application/json"),
        ("application/json", "application/json; charset=utf-8"),
        ("application/json", "application/json", "application/x-www-form-urlencoded"),
        # One header naming two media types (a proxy joins repeated lines so): the SDK and
        # the fast path split on `,` and took the first answer as JSON, the second a 400.
        ("application/json, text/plain",),
        ("text/plain, application/json",),
        ("application/json,application/json",),
        ("application/json; charset=utf-8, text/plain",),
        ("application/json", "application/json, text/plain"),
    ],
)
def test_conflicting_content_types_are_an_invalid_request(
    built_site: Path, fast_path: bool, types: tuple[str, ...]
) -> None:
    for name, app in _apps(built_site, fast_path).items():
        status, content_type, body = _post(app, *types)
        assert (status, content_type) == (400, "application/json"), (name, status, body[:200])
        assert json.loads(body) == {
            "jsonrpc": "2.0",
            "id": None,
            "error": {
                "code": -32600,
                "message": "Invalid Request: conflicting Content-Type headers",
            },
        }


@pytest.mark.parametrize("fast_path", [True, False], ids=["fast-path", "sdk"])
def test_one_or_the_same_content_type_twice_is_answered(built_site: Path, fast_path: bool) -> None:
    for types in (
        ("application/json",),
        ("application/json", "Application/JSON "),
        # Media types are case-insensitive (RFC 9110 8.3.1); the SDK compared them exactly.
        ("Application/JSON",),
        ("APPLICATION/json; charset=utf-8",),
        ("application/json ; charset=utf-8",),
        # The same parameters written with or without spaces, quoted or not, mean the same.
        ("application/json;charset=utf-8", "application/json; charset=utf-8"),
        ("application/json; charset=UTF-8", 'application/json ;charset="utf-8"'),
        ('application/json; charset="a,b"',),  # a comma inside a quoted value is no list
    ):
        for name, app in _apps(built_site, fast_path).items():  # an app runs once
            status, _, body = _post(app, *types)
            assert status == 200, (name, types, body[:200])
            assert "result" in json.loads(body)


def test_every_spelling_of_json_reaches_the_fast_path_with_the_sdks_answer(
    built_site: Path,
) -> None:
    """The guard hands on a plain `application/json`, so the fast path answers whatever
    spelling was accepted (it took only the lower-case type, without a listed parameter)."""
    fast_app = create_mcp_app(built_site)
    route = fast_app.routes[0]
    assert isinstance(route, Route) and isinstance(route.app, FastPath)
    base = "http://localhost"
    with (
        TestClient(fast_app, base_url=base) as fast,
        TestClient(create_mcp_app(built_site, fast_path=False), base_url=base) as sdk,
    ):
        for types in (
            ("Application/JSON",),
            ("application/json", "Application/JSON "),
            ('application/json; charset="a,b"',),
        ):
            headers = [ACCEPT, *(("content-type", t) for t in types)]
            before = route.app.answered
            answers = [
                client.post(MCP_PATH, content=json.dumps(CALL), headers=headers)
                for client in (fast, sdk)
            ]
            assert route.app.answered == before + 1, types
            assert [(a.status_code, a.headers["content-type"], a.json()) for a in answers] == [
                (200, "application/json", answers[1].json())
            ] * 2


UNSUPPORTED = {
    "jsonrpc": "2.0",
    "id": None,
    "error": {
        "code": -32600,
        "message": "Unsupported Media Type: Content-Type must be application/json",
    },
}
WRONG_TYPES = [
    ("text/plain",),
    (),  # none at all
    ("",),
    ("application/x-www-form-urlencoded",),
    ("multipart/form-data; boundary=x",),
    ("text/json",),
    ("application/jsonx",),  # the SDK's own transport check answered these two with a 415
    ("application/json-seq",),
    ("text/plain; charset=application/json",),
    ("text/plain", "text/plain"),  # the same wrong type twice: no conflict, still wrong
]


@pytest.mark.parametrize("fast_path", [True, False], ids=["fast-path", "sdk"])
@pytest.mark.parametrize("types", WRONG_TYPES, ids=lambda t: " + ".join(map(repr, t)) or "none")
def test_a_wrong_or_missing_content_type_is_a_json_rpc_415(
    built_site: Path, fast_path: bool, types: tuple[str, ...]
) -> None:
    for name, app in _apps(built_site, fast_path).items():
        status, content_type, body = _post(app, *types)
        assert (status, content_type) == (415, "application/json"), (name, status, body[:200])
        assert json.loads(body) == UNSUPPORTED


@pytest.mark.slow
@pytest.mark.parametrize("fast_path", [True, False], ids=["fast-path", "sdk"])
def test_a_wrong_content_type_over_real_http_is_a_json_rpc_415(
    built_site: Path, fast_path: bool
) -> None:
    with serve(create_mcp_app(built_site, fast_path=fast_path)) as live:
        for types in (("text/plain",), (), ("text/plain", "application/json")):
            headers = [ACCEPT, *(("content-type", t) for t in types)]
            response = httpx.post(live.mcp_url, content=json.dumps(CALL), headers=headers)
            expected = 400 if len(types) > 1 else 415
            assert response.status_code == expected, (types, response.content[:200])
            assert response.headers["content-type"] == "application/json"
            assert response.json()["error"]["code"] == -32600
        ok = httpx.post(
            live.mcp_url,
            content=json.dumps(CALL),
            headers=[ACCEPT, ("content-type", "Application/JSON; Charset=UTF-8")],
        )
        assert ok.status_code == 200 and "result" in ok.json(), ok.content[:200]
