"""Hostile MCP clients: fuzzed tool arguments and abusive HTTP never break the sidecar.

The sidecar runs in process (one app, one event loop in a background thread); requests go
through `httpx2.ASGITransport`, so every check sees the real Starlette + MCP stack and its
HTTP statuses. Every answer must be a valid tool result, a tool error (`isError: true`), or
a JSON-RPC / HTTP client error; never a 5xx, a JSON-RPC internal error, an unexpected
exception in the server log, a file read outside the site, or an internal path in a reply.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2
import pytest
from anyio.from_thread import BlockingPortal, start_blocking_portal
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.paths import FIXTURE_DATA, REPO

from mcp_server.app import MCP_PATH, create_app

BASE_URL = "http://127.0.0.1:8000"
HEADERS = {"content-type": "application/json", "accept": "application/json, text/event-stream"}
SECRET = "SECRET-OUTSIDE-THE-SITE-5d1c0a"
CLIENT_ERRORS = {-32700, -32600, -32601, -32602}
"""JSON-RPC codes that blame the client; -32603 (internal error) is never acceptable."""


# --- the sidecar under attack ------------------------------------------------


class OpenWatch:
    """Records every file the process opens while armed (a `sys.addaudithook` hook)."""

    def __init__(self) -> None:
        self.armed = False
        self.opened: list[str] = []
        self._lock = threading.Lock()

    def __call__(self, event: str, args: tuple[Any, ...]) -> None:
        if self.armed and event == "open" and args and isinstance(args[0], str | bytes):
            path = os.fsdecode(args[0])
            with self._lock:
                self.opened.append(path)

    @contextmanager
    def watching(self) -> Iterator[list[str]]:
        with self._lock:
            self.opened = []
        self.armed = True
        try:
            yield self.opened
        finally:
            self.armed = False


WATCH = OpenWatch()
sys.addaudithook(WATCH)


class ServerLog(logging.Handler):
    """Collects warnings, errors and exception tracebacks the server logs."""

    def __init__(self) -> None:
        super().__init__(level=logging.WARNING)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def failures(self) -> list[str]:
        return [
            record.getMessage()
            for record in self.records
            if record.exc_info or record.levelno >= logging.ERROR
        ]


@dataclass
class Sidecar:
    """One running app and an HTTP client bound to it, driven from synchronous tests."""

    portal: BlockingPortal
    client: httpx2.AsyncClient
    site_dir: Path
    log: ServerLog
    tools: dict[str, dict[str, Any]] = field(default_factory=dict)

    def post(self, body: bytes | str, headers: dict[str, str] | None = None) -> httpx2.Response:
        content = body.encode() if isinstance(body, str) else body
        return self.portal.call(
            lambda: self.client.post(MCP_PATH, content=content, headers=headers or HEADERS)
        )

    def request(self, method: str, headers: dict[str, str] | None = None) -> httpx2.Response:
        return self.portal.call(
            lambda: self.client.request(method, MCP_PATH, headers=headers or HEADERS)
        )

    def rpc(self, method: str, params: Any = None, **extra: Any) -> httpx2.Response:
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": 1, "method": method, **extra}
        if params is not None:
            message["params"] = params
        return self.post(json.dumps(message))

    def call_tool(self, name: str, arguments: Any) -> httpx2.Response:
        return self.rpc("tools/call", {"name": name, "arguments": arguments})


@pytest.fixture(scope="module")
def sidecar(tmp_path_factory: pytest.TempPathFactory, built_site: Path) -> Iterator[Sidecar]:
    root = tmp_path_factory.mktemp("hostile")
    site_dir = shutil.copytree(built_site, root / "site_out")  # secrets go beside it
    for name in ("secret.json", "secret", "passwd"):
        (root / name).write_text(f'{{"secret": "{SECRET}"}}', encoding="utf-8")
    log = ServerLog()
    logging.getLogger().addHandler(log)
    app = create_app(site_dir)
    try:
        with start_blocking_portal() as portal:
            lifespan = portal.wrap_async_context_manager(app.router.lifespan_context(app))
            with lifespan:
                client = httpx2.AsyncClient(
                    transport=httpx2.ASGITransport(app=app), base_url=BASE_URL
                )
                side = Sidecar(portal, client, site_dir, log)
                listed = side.rpc("tools/list").json()["result"]["tools"]
                side.tools = {tool["name"]: tool for tool in listed}
                yield side
                portal.call(client.aclose)
    finally:
        logging.getLogger().removeHandler(log)


# --- what every answer must look like ----------------------------------------


def _forbidden_texts(side: Sidecar) -> list[str]:
    return [SECRET, "Traceback", str(side.site_dir.parent), str(REPO), "root:x:0:0"]


def assert_sane(side: Sidecar, response: httpx2.Response) -> dict[str, Any] | None:
    """The answer is a client error or a valid result; returns the JSON-RPC message if any."""
    assert response.status_code < 500, (response.status_code, response.text[:500])
    for text in _forbidden_texts(side):
        assert text not in response.text, f"reply reveals {text!r}"
    if not response.headers.get("content-type", "").startswith("application/json"):
        assert response.status_code >= 400, response.text[:200]
        return None
    message = response.json()
    assert message.get("jsonrpc") == "2.0"
    if "error" in message:
        assert message["error"]["code"] in CLIENT_ERRORS, message
        assert response.status_code in (200, 400, 413), response.status_code
        error = json.dumps(message["error"])  # the request's id is echoed, whatever its size
        assert len(error) < 300, error[:400]
        return dict(message)
    assert response.status_code == 200
    result = message["result"]
    assert isinstance(result, dict)
    return dict(message)


def assert_tool_answer(side: Sidecar, name: str, response: httpx2.Response) -> bool:
    """A tools/call answer: a tool error, or structured content with the envelope."""
    message = assert_sane(side, response)
    assert message is not None, (response.status_code, response.text[:200])
    if "error" in message:  # a body over the size limit never reaches the tool
        expected = (413, -32600) if response.status_code == 413 else (400, -32602)
        assert (response.status_code, message["error"]["code"]) == expected, message
        return False
    result = message["result"]
    text = result["content"][0]["text"]
    if result.get("isError"):
        assert text != f"Error executing tool {name}", "an unexpected exception was hidden"
        assert len(response.text) < 300, response.text[:400]
        return False
    data = result["structuredContent"]
    assert data["apiVersion"] == "1" and data["methodologyVersion"], data.keys()
    return True


@contextmanager
def no_server_failures(side: Sidecar) -> Iterator[None]:
    """No unexpected exception logged, and no file opened outside the site."""
    side.log.records.clear()
    with WATCH.watching() as opened:
        yield
    assert side.log.failures() == []
    outside = [path for path in opened if not _inside_site(side.site_dir, path)]
    assert outside == [], f"opened outside the site: {outside[:5]}"


def _inside_site(site_dir: Path, path: str) -> bool:
    """A path relative to the site's directory descriptor, a site file, or Python code."""
    if not os.path.isabs(path):
        return ".." not in Path(path).parts and path.startswith("api/v1")
    resolved = Path(path).resolve()
    if resolved.is_relative_to(site_dir.resolve()):
        return True
    return resolved.suffix in {".py", ".pyc", ".so"} and not resolved.is_relative_to(
        site_dir.parent.resolve()
    )


def assert_still_serving(side: Sidecar) -> None:
    response = side.call_tool("list_rankings", {})
    assert assert_tool_answer(side, "list_rankings", response)


# --- fuzzing every tool's arguments ------------------------------------------

TRAVERSALS = (
    "../secret.json",
    "../secret",
    "../../../../../../etc/passwd",
    "/etc/passwd",
    "..",
    ".",
    "",
    " ",
    "api/v1/models.json",
    "../site_out/api/v1/models.json",
    "models/../../secret",
    "%2e%2e%2fsecret",
    "..%2f..%2fsecret",
    "....//....//secret",
    "C:\\Windows\\win.ini",
    "\\\\server\\share",
    "file:///etc/passwd",
    "a\x00b",
    "\x00",
    "\u202e\u0000\ufeff",
    "\ud7ff\ue000\U0010ffff",
    "composite-iq\n",
    "COMPOSITE-IQ",
    "{id}",
    "*",
    "%s%s%s%n",
    "' OR '1'='1",
    "<script>alert(1)</script>",
)
KNOWN_IDS = sorted(
    [p.stem for p in (FIXTURE_DATA / "models").glob("*.toml")]
    + [p.stem for p in (FIXTURE_DATA / "domains").glob("*.toml")]
    + ["composite-iq", "effective-cost", "reliability-iq"]
)
AFFIXES = ("", "/", "/..", "../", "%00", "\x00", " ", "\n", ".json", "?x=1", "#", "/../../secret")
near_ids = st.builds(
    lambda before, known, after: before + known + after,
    st.sampled_from(AFFIXES),
    st.sampled_from(KNOWN_IDS).flatmap(lambda known: st.sampled_from([known, known.upper()])),
    st.sampled_from(AFFIXES),
)
hostile_text = st.one_of(
    st.sampled_from(TRAVERSALS),
    near_ids,
    st.text(max_size=64),
    st.text(st.characters(codec="utf-8", categories=("Cc", "Cf", "Zs", "So")), max_size=64),
    st.integers(1000, 60_000).map(lambda n: "x" * n),
    st.integers(1, 2000).map(lambda n: "\u00e9\U0001f600" * n),
)
short_text = st.one_of(st.sampled_from(TRAVERSALS), st.text(max_size=16))
json_scalar = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(-(10**30), 10**30),
    st.floats(allow_nan=False, allow_infinity=False),
    hostile_text,
)
json_value = st.recursive(
    json_scalar,
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5)
    ),
    max_leaves=12,
)


@st.composite
def tool_arguments(draw: st.DrawFn, schema: dict[str, Any]) -> Any:
    """Arguments for a tool: its own keys with hostile or wrong-typed values, plus extras."""
    if draw(st.integers(0, 19)) == 0:
        return draw(json_value)  # not even an object
    properties: dict[str, Any] = schema.get("properties", {})
    arguments: dict[str, Any] = {}
    for key in properties:
        if draw(st.booleans()):
            arguments[key] = draw(
                st.one_of(hostile_text, json_value, st.lists(short_text, max_size=25))
            )
    extras = draw(st.dictionaries(st.text(max_size=12), json_value, max_size=3))
    return {**extras, **arguments}


METHODS = (
    "initialize",
    "ping",
    "tools/list",
    "tools/call",
    "resources/list",
    "prompts/list",
    "server/discover",
    "notifications/initialized",
    "logging/setLevel",
    "completion/complete",
)
FUZZ = settings(
    max_examples=int(os.environ.get("MODELSCORES_FUZZ_EXAMPLES", "60")),
    deadline=None,
    database=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
TOOL_NAMES = (
    "list_models",
    "get_model",
    "list_rankings",
    "get_ranking",
    "list_benchmarks",
    "list_domains",
    "get_domain",
    "get_methodology",
    "compare_models",
)


def test_the_nine_tools_are_fuzzed(sidecar: Sidecar) -> None:
    assert set(sidecar.tools) == set(TOOL_NAMES)


@pytest.mark.parametrize("name", TOOL_NAMES)
def test_fuzzed_arguments_get_a_result_or_a_tool_error(sidecar: Sidecar, name: str) -> None:
    schema = sidecar.tools[name]["inputSchema"]

    @FUZZ
    @given(arguments=tool_arguments(schema))
    def check(arguments: Any) -> None:
        with no_server_failures(sidecar):
            response = sidecar.call_tool(name, arguments)
            assert_tool_answer(sidecar, name, response)

    check()
    assert_still_serving(sidecar)


@FUZZ
@given(name=st.one_of(hostile_text, json_value), arguments=json_value)
def test_fuzzed_tool_names_are_refused(sidecar: Sidecar, name: Any, arguments: Any) -> None:
    with no_server_failures(sidecar):
        response = sidecar.rpc("tools/call", {"name": name, "arguments": arguments})
        message = assert_sane(sidecar, response)
    if message is not None and "result" in message and name not in TOOL_NAMES:
        assert message["result"]["isError"] is True


@FUZZ
@given(
    body=st.one_of(
        st.binary(max_size=512),
        json_value.map(json.dumps),
        st.fixed_dictionaries(
            {"jsonrpc": st.sampled_from(["2.0", 2, None]), "id": json_scalar},
            optional={
                "method": st.one_of(st.sampled_from(METHODS), hostile_text),
                "params": json_value,
            },
        ).map(json.dumps),
    )
)
def test_fuzzed_bodies_get_an_answer_or_an_error(sidecar: Sidecar, body: bytes | str) -> None:
    with no_server_failures(sidecar):
        response = sidecar.post(body)
    if response.status_code == 202:  # a well-formed notification: accepted, nothing to say
        assert response.content == b""
        return
    assert_sane(sidecar, response)


@pytest.mark.parametrize("query", TRAVERSALS)
@pytest.mark.parametrize(
    ("name", "key"), [("get_model", "id"), ("get_ranking", "id"), ("get_domain", "slug")]
)
def test_traversal_ids_are_unknown_ids(sidecar: Sidecar, name: str, key: str, query: str) -> None:
    with no_server_failures(sidecar):
        response = sidecar.call_tool(name, {key: query})
    message = assert_sane(sidecar, response)
    assert message is not None and message["result"]["isError"] is True


# --- abusive HTTP and JSON-RPC ------------------------------------------------

REQUEST = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}


@pytest.mark.parametrize(
    ("body", "code"),
    [
        (b"{not json", -32700),
        (b"", -32700),
        (b"\xff\xfe\x00", -32700),
        (b'{"jsonrpc": "2.0", "id": 1, "method": "tools/list"', -32700),
        (b'{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": NaN}', None),
        (b"[" * 100_00 + b"]" * 100_00, None),
        (b"null", -32600),
        (b"42", -32600),
        (b'"tools/list"', -32600),
        (b'{"jsonrpc": "1.0", "id": 1, "method": "tools/list"}', -32600),
        (b'{"id": 1, "method": "tools/list"}', -32600),
        (b'{"jsonrpc": "2.0", "id": {"a": 1}, "method": "tools/list"}', -32600),
        (b'{"jsonrpc": "2.0", "id": 1, "method": 7}', -32600),
        (b'{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": "x"}', -32602),
        (
            b'{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"arguments": {}}}',
            -32602,
        ),
        (b'{"jsonrpc": "2.0", "id": 1}', None),
    ],
    ids=lambda value: repr(value)[:40],
)
def test_malformed_json_rpc_is_a_client_error(
    sidecar: Sidecar, body: bytes, code: int | None
) -> None:
    with no_server_failures(sidecar):
        response = sidecar.post(body)
    message = assert_sane(sidecar, response)
    assert message is not None and "error" in message, (response.status_code, response.text)
    if code is not None:
        assert message["error"]["code"] == code
    assert_still_serving(sidecar)


@pytest.mark.parametrize("before", [b"", b"\xc3\xa9" * 3, b"x" * 5000])
def test_a_body_not_utf_8_is_named_by_the_offset_of_its_bad_byte(
    sidecar: Sidecar, before: bytes
) -> None:
    """A Latin-1 `\xe9` inside a string: msgspec counted its offset from the string's start
    (`byte 0`); the error names its offset in the body."""
    body = b'{"x":"' + before + b'\xe9"}'
    with no_server_failures(sidecar):
        response = sidecar.post(body)
    message = assert_sane(sidecar, response)
    assert message is not None, response.text
    assert message["error"] == {
        "code": -32700,
        "message": f"Parse error: the body is not UTF-8 (byte {6 + len(before)})",
    }


def test_unknown_method_is_method_not_found(sidecar: Sidecar) -> None:
    for method in ("nope", "tools/delete", "resources/write", "rpc.discover", "", "x" * 5000):
        with no_server_failures(sidecar):
            message = assert_sane(sidecar, sidecar.rpc(method))
        assert message is not None and message["error"]["code"] == -32601, message
    assert_still_serving(sidecar)


@pytest.mark.parametrize(
    ("method", "params", "code"),
    [
        ("prompts/get", {"name": "x"}, -32602),  # was code 0 and a 129-line logged traceback
        ("prompts/get", {"name": "x" * 5000, "arguments": {"a": "1"}}, -32602),
        ("prompts/get", {"name": "../../etc/passwd"}, -32602),
        ("prompts/get", {}, -32602),
        ("resources/read", {"uri": "modelscores://nope"}, -32602),
        ("resources/read", {"uri": "modelscores://api/v1/models/zzz"}, -32602),
        ("resources/read", {"uri": "file:///etc/passwd"}, -32602),
        ("resources/read", {"uri": 7}, -32602),
        ("completion/complete", {"ref": {"type": "ref/prompt", "name": "x"}}, None),
        ("completion/complete", {"ref": {"type": "ref/resource", "uri": "x"}}, None),
        ("resources/subscribe", {"uri": "modelscores://x"}, None),
        ("logging/setLevel", {"level": "debug"}, None),
    ],
)
def test_prompts_resources_and_completions_answer_json_rpc_errors(
    sidecar: Sidecar, method: str, params: dict[str, Any], code: int | None
) -> None:
    """The sidecar declares no prompts: asking for one is Invalid params, like an unknown
    resource; every such answer carries a JSON-RPC client error code and logs nothing."""
    with no_server_failures(sidecar):
        message = assert_sane(sidecar, sidecar.rpc(method, params))
    assert message is not None and "error" in message, message
    if code is not None:
        assert message["error"]["code"] == code, message
    assert_still_serving(sidecar)


@pytest.mark.parametrize("size", [1, 3, 50, 1000])
def test_batches_are_refused(sidecar: Sidecar, size: int) -> None:
    batch = [{**REQUEST, "id": n} for n in range(size)]
    with no_server_failures(sidecar):
        response = sidecar.post(json.dumps(batch))
    if len(response.request.content) > 64 * 1024:
        assert response.status_code == 413
    else:
        message = assert_sane(sidecar, response)
        assert response.status_code == 400
        assert message is not None and message["error"]["code"] == -32600
    assert_still_serving(sidecar)


@pytest.mark.parametrize(
    "content_type",
    [
        "text/plain",
        "application/x-www-form-urlencoded",
        "multipart/form-data",
        "",
        "application/jsonx",
    ],
)
def test_wrong_content_type_is_refused(sidecar: Sidecar, content_type: str) -> None:
    headers = {**HEADERS, "content-type": content_type}
    with no_server_failures(sidecar):
        response = sidecar.post(json.dumps(REQUEST), headers)
    assert response.status_code == 415, response.status_code
    assert response.headers["content-type"] == "application/json"
    assert response.json()["error"]["code"] == -32600
    assert_still_serving(sidecar)


@pytest.mark.parametrize("size", [65 * 1024, 1024 * 1024, 16 * 1024 * 1024])
def test_oversized_body_is_413(sidecar: Sidecar, size: int) -> None:
    padding = "x" * size
    body = json.dumps({**REQUEST, "params": {"pad": padding}})
    with no_server_failures(sidecar):
        response = sidecar.post(body)
    assert response.status_code == 413
    assert_still_serving(sidecar)


@pytest.mark.parametrize(
    ("header", "value", "status"),
    [
        ("host", "evil.example", 421),
        ("host", "127.0.0.1.evil.example", 421),
        ("host", "localhost.evil.example:8000", 421),
        ("host", "", 421),
        ("origin", "http://evil.example", 403),
        ("origin", "http://127.0.0.1.evil.example", 403),
        ("origin", "null", 403),
        ("origin", "https://localhost:8000", 403),
    ],
)
def test_foreign_host_or_origin_is_refused(
    sidecar: Sidecar, header: str, value: str, status: int
) -> None:
    with no_server_failures(sidecar):
        response = sidecar.post(json.dumps(REQUEST), {**HEADERS, header: value})
    assert response.status_code == status
    assert "result" not in response.text
    assert_still_serving(sidecar)


def test_local_origin_is_allowed(sidecar: Sidecar) -> None:
    response = sidecar.post(json.dumps(REQUEST), {**HEADERS, "origin": "http://localhost:3000"})
    assert response.status_code == 200
    assert "tools" in response.json()["result"]


@pytest.mark.parametrize("method", ["GET", "PUT", "PATCH", "DELETE"])
def test_other_http_methods_are_refused(sidecar: Sidecar, method: str) -> None:
    headers = {"accept": "application/json"}
    with no_server_failures(sidecar):
        response = sidecar.request(method, headers)
    assert response.status_code in (405, 406), response.status_code
    assert_still_serving(sidecar)


def test_huge_integers_and_deep_nesting_in_arguments(sidecar: Sidecar) -> None:
    bodies = [
        '{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "list_models",'
        ' "arguments": {"limit": ' + "9" * 5000 + "}}}",
        '{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "get_model",'
        ' "arguments": {"id": ' + "[" * 3000 + "]" * 3000 + "}}}",
        '{"jsonrpc": "2.0", "id": ' + "9" * 5000 + ', "method": "tools/list"}',
        '{"jsonrpc": "2.0", "id": 1e999, "method": "tools/list"}',
    ]
    for body in bodies:
        with no_server_failures(sidecar):
            response = sidecar.post(body)
        message = assert_sane(sidecar, response)
        assert message is not None and "error" in message, (response.status_code, response.text)
    assert_still_serving(sidecar)


def test_open_watch_sees_a_read_outside_the_site(sidecar: Sidecar) -> None:
    """The file-access check itself works: a read next to the site is caught."""
    secret = sidecar.site_dir.parent / "secret.json"
    with WATCH.watching() as opened:
        secret.read_bytes()
    assert [path for path in opened if not _inside_site(sidecar.site_dir, path)] == [str(secret)]


@pytest.mark.parametrize(
    ("method", "params"),
    [
        ("resources/read", {"uri": "modelscores://api/v1/models/" + "z" * 40_000}),  # 80 kB once
        ("resources/read", {"uri": "modelscores://" + "z" * 40_000}),
        ("resources/read", {"uri": "x" * 40_000}),
        ("tools/call", {"name": "x" * 40_000, "arguments": {}}),  # 40 kB once
        ("prompts/get", {"name": "x" * 40_000}),
        ("x" * 40_000, {}),
    ],
)
def test_every_error_is_cut_short_whatever_its_size(
    sidecar: Sidecar, method: str, params: dict[str, Any]
) -> None:
    """An unknown id of 40,000 characters was quoted twice in full (an 80 kB answer); an
    unknown tool's name once. Every error or tool error is a few hundred bytes."""
    with no_server_failures(sidecar):
        response = sidecar.rpc(method, params)
        message = assert_sane(sidecar, response)
    assert message is not None
    assert "error" in message or message["result"]["isError"] is True, message
    assert len(response.content) < 600, (method, len(response.content))
