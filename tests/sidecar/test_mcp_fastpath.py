"""The fast path replays the SDK's own answers, and hands everything else to the SDK.

Every request of a corpus goes through two apps over the same build, one with the fast path
and one without; status, `Content-Type` and the JSON body must be equal. The corpus also
checks which requests the fast path took (each is sent with several headers, so all but the
first are replayed from its cache), so the comparison is not vacuous.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.applications import Starlette
from starlette.routing import Route
from starlette.testclient import TestClient
from support.documents import swap_in, write_site

from mcp_server.app import create_app
from mcp_server.fastpath import Answer, FastPath, ResultCache

BASE = "http://localhost"
ACCEPT_BOTH = "application/json, text/event-stream"
VERSIONS = (None, "2025-11-25", "2025-06-18")


@pytest.fixture(scope="module")
def site_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_site(tmp_path_factory.mktemp("fastpath") / "site_out")


@pytest.fixture(scope="module")
def clients(site_dir: Path) -> Iterator[tuple[TestClient, TestClient]]:
    with (
        TestClient(create_app(site_dir), base_url=BASE) as fast,
        TestClient(create_app(site_dir, fast_path=False), base_url=BASE) as sdk,
    ):
        yield fast, sdk


def fast_path_of(client: TestClient) -> FastPath:
    app = client.app
    assert isinstance(app, Starlette)
    route = app.routes[0]
    assert isinstance(route, Route) and isinstance(route.app, FastPath)
    return route.app


def call(name: str, arguments: Any, id: Any = 1) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "id": id,
        "method": "tools/call",
        "params": {"name": name, "arguments": arguments},
    }


# (body, expected to be answered by the fast path)
ANSWERED: list[dict[str, Any]] = [
    call("get_model", {"id": "alpha-1"}),
    call("get_model", {"id": "ALPHA-1"}, id="str-id"),
    call("get_model", {"id": "Beta Two A"}),  # by name
    call("get_model", {"id": "  gamma-3 "}),
    call("get_model", {"id": "alpha-9"}),  # unknown: isError with suggestions
    call("get_model", {"id": "zzz"}, id=0),  # unknown, no suggestion
    call("get_model", {"id": "alpha-1", "include_history": True}),  # plus its history
    call("get_model", {"id": "Beta Two A", "include_history": False}),
    call("get_model", {"id": "gamma-3", "include_history": None}),
    call("get_model", {"id": "alpha-9", "include_history": True}),  # unknown: isError
    call("get_ranking", {"id": "composite-iq"}),
    call("get_ranking", {"id": "Composite-IQ"}),  # ids are exact: unknown
    call("get_domain", {"slug": "finance"}),
    call("get_domain", {"slug": "fin"}),
    call("list_rankings", {}),
    call("list_benchmarks", {}),
    call("list_domains", {}),
    call("get_methodology", {}),
    call("list_models", {}),
    call("list_models", {"provider": "acme"}),
    call("list_models", {"provider": " ACME "}),
    call("list_models", {"provider": "123"}),  # a string, taken as sent on both paths
    call("list_models", {"provider": "null"}),
    call("list_models", {"provider": "[1]"}),
    call("list_models", {"open_source": True, "sort": "iq", "limit": 1}),
    call("list_models", {"open_source": False, "min_iq": 70, "sort": "cost"}),
    call("list_models", {"min_iq": 160, "sort": "name", "limit": 1000}),
    call("list_models", {"provider": None, "open_source": None, "min_iq": None, "sort": None}),
    call("list_models", {"sort": "release_date"}),
    call("list_models", {"sort": "context_window"}),
    call("list_models", {"sort": "speed"}),
    call("list_models", {"sort": "rank", "limit": 2}),
    call("compare_models", {"ids": ["alpha-1", "beta-2"]}),
    call("compare_models", {"ids": ["alpha-1", "Beta Two A", "gamma-3", "alpha-1"]}),
    call("compare_models", {"ids": ["alpha-1", "alpah-1", "nothing"]}),  # with unknowns
    call("compare_models", {"ids": ["nope", "nada"]}),  # none known: isError
    call("get_model", {"id": "alpha-1"}, id=2**62),
]

FALLS_THROUGH: list[Any] = [
    {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}},
    {"jsonrpc": "2.0", "id": 1, "method": "ping"},
    {"jsonrpc": "2.0", "method": "notifications/initialized"},
    call("no_such_tool", {}),
    call("get_model", {"id": 5}),  # the SDK path answers the one-line argument error
    call("get_model", {}),
    call("get_model", {"id": "alpha-1", "extra": 1}),
    call("get_model", {"id": "alpha-1", "include_history": "true"}),
    call("get_model", {"id": "alpha-1", "include_history": 1}),
    call("list_models", {"open_source": "true"}),
    call("list_models", {"min_iq": 69}),
    call("list_models", {"min_iq": 100.0}),
    call("list_models", {"limit": 0}),
    call("list_models", {"limit": True}),
    call("list_models", {"sort": "bogus"}),
    call("compare_models", {"ids": ["alpha-1"]}),
    call("compare_models", {"ids": "alpha-1,beta-2"}),
    call("compare_models", {"ids": [f"m{i}" for i in range(21)]}),
    call("list_rankings", {"x": 1}),
    {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "list_domains"}},
    {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {
            "name": "get_model",
            "arguments": {"id": "alpha-1"},
            "_meta": {"progressToken": 1},
        },
    },
    {**call("get_model", {"id": "alpha-1"}), "extra": True},
    call("get_model", {"id": "alpha-1"}, id=2**64),
    [call("get_model", {"id": "alpha-1"})],  # a batch: the guard answers
    call("get_model", {"id": "alpha-1"}, id=None),  # the guard answers
]


def headers_for(version: str | None, accept: str | None) -> dict[str, str]:
    headers = {"content-type": "application/json"}
    if version is not None:
        headers["mcp-protocol-version"] = version
    if accept is not None:
        headers["accept"] = accept
    return headers


def post(client: TestClient, body: Any, headers: dict[str, str]) -> tuple[int, str, Any]:
    request = client.build_request("POST", "/api/mcp", content=json.dumps(body), headers=headers)
    if "accept" not in headers:
        del request.headers["accept"]  # httpx adds `*/*` by default
    response = client.send(request)
    is_json = response.headers.get("content-type") == "application/json"
    content = response.json() if is_json and response.content else response.text
    return response.status_code, response.headers.get("content-type", ""), content


def assert_same(
    clients: tuple[TestClient, TestClient], body: Any, headers: dict[str, str]
) -> tuple[int, Any]:
    fast, sdk = clients
    got, expected = post(fast, body, headers), post(sdk, body, headers)
    assert got == expected, (body, headers)
    return got[0], got[2]


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("accept", [ACCEPT_BOTH, "application/json", "*/*", None])
@pytest.mark.parametrize("body", ANSWERED, ids=lambda b: json.dumps(b)[50:110])
def test_answered_like_the_sdk(
    clients: tuple[TestClient, TestClient], body: Any, version: str | None, accept: str | None
) -> None:
    fast_path = fast_path_of(clients[0])
    before = fast_path.taken
    status, content = assert_same(clients, body, headers_for(version, accept))
    if accept is None:  # the SDK answers 406; so does the fast path, by handing it over
        assert status == 406 and fast_path.taken == before
        return
    assert status == 200 and content["id"] == body["id"]
    assert fast_path.taken == before + 1


@pytest.mark.parametrize("version", [*VERSIONS, "2026-07-28", "1999-01-01"])
@pytest.mark.parametrize("body", FALLS_THROUGH, ids=lambda b: json.dumps(b)[:90])
def test_everything_else_goes_to_the_sdk(
    clients: tuple[TestClient, TestClient], body: Any, version: str | None
) -> None:
    fast_path = fast_path_of(clients[0])
    before = fast_path.taken
    assert_same(clients, body, headers_for(version, ACCEPT_BOTH))
    assert fast_path.taken == before


@pytest.mark.parametrize(
    "headers",
    [
        headers_for("2026-07-28", ACCEPT_BOTH),
        {"content-type": "text/plain", "accept": ACCEPT_BOTH},
        {"content-type": "application/jsonx", "accept": ACCEPT_BOTH},
        {"content-type": "application/json; charset=utf-8", "accept": "text/event-stream"},
        {**headers_for(None, ACCEPT_BOTH), "mcp-session-id": "abc"},
        {"accept": ACCEPT_BOTH},
    ],
)
def test_headers_the_fast_path_leaves_to_the_sdk(
    clients: tuple[TestClient, TestClient], headers: dict[str, str]
) -> None:
    fast_path = fast_path_of(clients[0])
    before = fast_path.taken
    assert_same(clients, call("get_model", {"id": "alpha-1"}), headers)
    assert fast_path.taken == before


def test_charset_and_guards_still_apply(clients: tuple[TestClient, TestClient]) -> None:
    body = call("get_model", {"id": "alpha-1"})
    headers = {"content-type": "application/json; charset=utf-8", "accept": "application/json"}
    assert assert_same(clients, body, headers)[0] == 200
    fast, _ = clients
    assert post(fast, body, {**headers, "host": "evil.example"})[0] == 421
    assert post(fast, body, {**headers, "origin": "https://evil.example"})[0] == 403


def test_a_snapshot_switch_empties_the_cache(tmp_path: Path) -> None:
    site_dir = write_site(tmp_path / "site_out", "A")
    body = call("get_model", {"id": "alpha-1"})
    headers = headers_for(None, ACCEPT_BOTH)
    with TestClient(create_app(site_dir, check_interval=0), base_url=BASE) as client:
        first = post(client, body, headers)[2]
        assert first["result"]["structuredContent"]["name"] == "Alpha One A"
        assert post(client, body, headers)[2] == first
        swap_in(site_dir, write_site(tmp_path / "next", "B"))
        second = post(client, body, headers)[2]
        assert second["result"]["structuredContent"]["name"] == "Alpha One B"
        assert (fast_path_of(client).taken, fast_path_of(client).answered) == (3, 1)


def test_a_replayed_answer_is_the_sdks_byte_for_byte(
    clients: tuple[TestClient, TestClient],
) -> None:
    """The second call of a tool and arguments is answered from the cache, with the new
    request's id: the same bytes and headers as the SDK's answer to that request."""
    fast, sdk = clients
    headers = headers_for("2025-06-18", ACCEPT_BOTH)
    arguments = {"provider": "acme", "sort": "name"}
    fast.post("/api/mcp", json=call("list_models", arguments, id=1), headers=headers)
    before = fast_path_of(fast).answered
    for request_id in (7, 'a "quoted" id', -(2**63)):
        body = call("list_models", arguments, id=request_id)
        got = fast.post("/api/mcp", json=body, headers=headers)
        expected = sdk.post("/api/mcp", json=body, headers=headers)
        assert got.content == expected.content
        assert got.status_code == expected.status_code == 200
        assert got.headers == expected.headers
    assert fast_path_of(fast).answered == before + 3


def _answer(result: bytes) -> Answer:
    return Answer(200, (), result)


def test_the_cache_is_bounded() -> None:
    cache = ResultCache(max_entries=2, max_bytes=10)
    site: Any = object()
    cache.put(site, b"a", _answer(b"1234"))
    cache.put(site, b"b", _answer(b"1234"))
    assert cache.get(site, b"a") == _answer(b"1234")  # now the most recent
    cache.put(site, b"c", _answer(b"1234"))
    assert cache.get(site, b"b") is None and cache.get(site, b"a") == _answer(b"1234")
    cache.put(site, b"d", _answer(b"12345678"))  # over 10 bytes with the others: they go
    assert cache.get(site, b"a") is None and cache.get(site, b"d") == _answer(b"12345678")
    cache.put(site, b"e", _answer(b"12345678901"))  # larger than the whole cache: not kept
    assert cache.get(site, b"e") is None
    assert cache.get(object(), b"d") is None  # another snapshot
