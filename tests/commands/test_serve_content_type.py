"""`Content-Type` on a POST to the MCP endpoint, through `modelscores serve`'s app
(`generator/serve.py` mounts the sidecar at /api/mcp) and the standalone sidecar, on the fast
path and the SDK's: conflicting ones are a JSON-RPC Invalid Request (the SDK read only the
first, so `application/json` then `text/plain` was answered as JSON); a wrong or missing one
is a JSON-RPC 415 (the SDK's security layer answered it with a plain-text 400).

Each of the four apps (serve's and the sidecar's, on either path) is made and started once for
the module and answers every request sent to it here, as a server does: making one costs
0.1 s (the tools' schemas), and 140 were made for one request each.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
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
from mcp_server.guards import MAX_CONTENT_TYPE_CHARS

ROOT = Path(__file__).resolve().parents[2]

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


Clients = dict[bool, dict[str, TestClient]]


@pytest.fixture(scope="module")
def clients(built_site: Path) -> Iterator[Clients]:
    """A started client of each app, by fast path (True, False) and name (serve, sidecar)."""
    opened = {
        fast_path: {
            name: TestClient(app, base_url="http://localhost")
            for name, app in _apps(built_site, fast_path).items()
        }
        for fast_path in (True, False)
    }
    for by_name in opened.values():
        for client in by_name.values():
            client.__enter__()  # the app's lifespan: the SDK's session manager runs
    yield opened
    for by_name in opened.values():
        for client in by_name.values():
            client.__exit__(None, None, None)


def _post(client: TestClient, *types: str) -> tuple[int, str, bytes]:
    headers = [ACCEPT, *(("content-type", t) for t in types)]
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
        ("application/json; charset=utf-8, text/plain",),
        ("application/json", "application/json, text/plain"),
    ],
)
def test_conflicting_content_types_are_an_invalid_request(
    clients: Clients, fast_path: bool, types: tuple[str, ...]
) -> None:
    for name, client in clients[fast_path].items():
        status, content_type, body = _post(client, *types)
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
def test_one_or_the_same_content_type_twice_is_answered(clients: Clients, fast_path: bool) -> None:
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
        # One line listing the same type twice is what a proxy makes of two identical lines.
        ("application/json,application/json",),
        ("application/json; charset=utf-8, Application/JSON;charset=UTF-8",),
        ("application/json;",),  # an empty parameter (RFC 9110 5.6.6)
    ):
        for name, client in clients[fast_path].items():
            status, _, body = _post(client, *types)
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
            before = route.app.taken
            answers = [
                client.post(MCP_PATH, content=json.dumps(CALL), headers=headers)
                for client in (fast, sdk)
            ]
            assert route.app.taken == before + 1, types
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


def _id(text: str) -> str:
    return repr(text) if len(text) <= 40 else f"{text[:20]!r}...({len(text)} chars)"


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
    # Not a media type (RFC 9110 8.3.1: type "/" subtype, each a token; a parameter is
    # token=token or token=quoted-string): both SDK checks refused these; an unmatched quote
    # was dropped and an empty type before ';' left out, so they were answered.
    ('application/js"on',),
    ('"application/json',),
    (";application/json",),
    ('app"lication/json; charset=utf-8',),
    ('application/json; charset="utf-8',),
    ("application/json; charset",),
    ("application/json; =utf-8",),
    ("application/json, ",),
    (", application/json",),
    ("application /json",),
    ("application/",),
    ("application/json", 'application/js"on'),
    # Over MAX_CONTENT_TYPE_CHARS (1,024): refused before it is read.
    ("application/json; x=" + "a" * 1005,),
]


@pytest.mark.parametrize("fast_path", [True, False], ids=["fast-path", "sdk"])
@pytest.mark.parametrize("types", WRONG_TYPES, ids=lambda t: " + ".join(map(_id, t)) or "none")
def test_a_wrong_or_missing_content_type_is_a_json_rpc_415(
    clients: Clients, fast_path: bool, types: tuple[str, ...]
) -> None:
    for name, client in clients[fast_path].items():
        status, content_type, body = _post(client, *types)
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


@pytest.mark.parametrize("fast_path", [True, False], ids=["fast-path", "sdk"])
def test_a_content_type_of_the_longest_length_is_read(clients: Clients, fast_path: bool) -> None:
    longest = "application/json; x=" + "a" * (MAX_CONTENT_TYPE_CHARS - 20)
    assert len(longest) == MAX_CONTENT_TYPE_CHARS
    for name, client in clients[fast_path].items():
        status, _, body = _post(client, longest)
        assert status == 200, (name, body[:200])


def test_reading_a_content_type_takes_linear_time() -> None:
    """A megabyte of `\\"` after a quote: each unmatched quote started a scan to the end
    (16 KB took 2 s, so 1 MB would take hours); read once from left to right it is
    refused at once. Run in a child process, so a quadratic reading fails by its timeout
    rather than by a wall-time bound in this one."""
    code = (
        "from mcp_server.guards import media_types\n"
        "for text in ('\"' + '\\\\\"' * 500_000, 'a/b; c=' + '\"\\\\' * 500_000):\n"
        "    assert media_types(text) is None\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr[-500:]
