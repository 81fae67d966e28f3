"""Hostile HTTP against `modelscores serve` (static host and MCP sidecar) in a bounded child.

The server runs as a child process under address-space and CPU-time limits, so a request
that made it balloon or spin would kill it (and fail every later test) rather than the test
run. Every answer here is checked over a real socket: status, body and headers.
"""

from __future__ import annotations

import http.client
import json
import resource
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support.servers import free_port, python_env, serve_command, wait_for_http

from generator.api.urls import MCP_PATH

MEMORY = 2 * 1024**3
CPU_SECONDS = 120
HEADERS = {"content-type": "application/json", "accept": "application/json, text/event-stream"}


def _limits() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
    resource.setrlimit(resource.RLIMIT_CPU, (CPU_SECONDS, CPU_SECONDS))


class Child:
    """The bounded `serve` child and plain HTTP requests to it."""

    def __init__(self, proc: subprocess.Popen[bytes], port: int) -> None:
        self.proc = proc
        self.port = port

    def request(
        self,
        method: str,
        path: str,
        body: bytes | None = None,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, dict[str, str], bytes]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            connection.putrequest(method, path, skip_accept_encoding=True)
            for name, value in (headers or {}).items():
                connection.putheader(name, value)
            if body is not None:
                connection.putheader("content-length", str(len(body)))
            connection.endheaders(body)
            response = connection.getresponse()
            return (
                response.status,
                {k.lower(): v for k, v in response.getheaders()},
                response.read(),
            )
        finally:
            connection.close()

    def post_mcp(self, body: bytes) -> tuple[int, dict[str, str], bytes]:
        return self.request("POST", MCP_PATH, body, HEADERS)


@pytest.fixture(scope="module")
def child(built_site: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Child]:
    port = free_port()
    log = tmp_path_factory.mktemp("serve-hostile") / "serve.log"
    with log.open("wb") as output:
        proc = subprocess.Popen(
            serve_command(built_site, port),
            env=python_env(),
            stdout=output,
            stderr=subprocess.STDOUT,
            preexec_fn=_limits,  # noqa: PLW1509 - the limits must apply before the server starts
            start_new_session=True,
        )
        try:
            wait_for_http(f"http://127.0.0.1:{port}/healthz", proc, timeout=60)
            yield Child(proc, port)
            assert proc.poll() is None, log.read_text(errors="replace")[-2000:]
        finally:
            proc.terminate()
            proc.wait(timeout=20)
    text = log.read_text(errors="replace")
    assert "Traceback" not in text, text[-3000:]


def _call(name: str, arguments: Any) -> bytes:
    message = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": name, "arguments": arguments},
    }
    return json.dumps(message).encode()


def _rpc_error(status: int, headers: dict[str, str], body: bytes) -> dict[str, Any]:
    """A JSON-RPC error answer: JSON, under 300 characters, no library text or link."""
    assert status < 500
    assert headers["content-type"].startswith("application/json"), (status, body[:200])
    assert len(body) < 300, body[:400]
    assert b"http" not in body and b"pydantic" not in body, body
    message = json.loads(body)
    assert message["jsonrpc"] == "2.0" and message["id"] is None
    error: dict[str, Any] = message["error"]
    return error


@pytest.mark.parametrize(
    "body",
    [
        b"\xff",
        b'"\xff"',
        b'{"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"\xff": 1}}',
        _call("get_model", {"id": "x"}).replace(b'"x"', b'"\xc3\x28"'),  # a broken sequence
        _call("get_model", {"id": "x"}).replace(b'"x"', b'"\xc0\xaf"'),  # an overlong "/"
        _call("get_model", {"id": "x"}).replace(b'"x"', b'"\xed\xa0\x80"'),  # a surrogate
        b"\xef\xbb\xbf\xfe",
    ],
    ids=["ff", "string", "key", "broken", "overlong", "surrogate", "bom-fe"],
)
def test_a_body_that_is_not_utf8_is_a_parse_error(child: Child, body: bytes) -> None:
    """Issue 23 item 7: the endpoint answered 500 to `"\\xff"`; now a 400 with -32700."""
    status, headers, answer = child.post_mcp(body)
    assert status == 400
    assert _rpc_error(status, headers, answer)["code"] == -32700


@pytest.mark.parametrize("size", [65 * 1024, 1024 * 1024, 8 * 1024 * 1024])
def test_an_oversized_body_is_a_json_rpc_error(child: Child, size: int) -> None:
    body = _call("get_model", {"id": "x" * size})
    status, headers, answer = child.post_mcp(body)
    assert status == 413
    error = _rpc_error(status, headers, answer)
    assert error == {
        "code": -32600,
        "message": "Invalid Request: the body is over the 65,536-byte limit",
    }


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        ({"id": "gpt-5", "colour": "x", "limt": 3}, "Unknown argument 'colour'"),
        ({"id": 5}, "Argument 'id' must be a string, not a number."),
        ({"id": "alpha-1", "include_history": "yes"}, "Argument 'include_history' must be true"),
        ({"id": "y" * 60_000}, "Argument 'id' must be at most 256 characters (got 60,000)."),
    ],
    ids=["unknown", "wrong-type", "coerced-bool", "long-string"],
)
def test_bad_arguments_are_short_tool_errors(
    child: Child, arguments: dict[str, Any], expected: str
) -> None:
    status, _, answer = child.post_mcp(_call("get_model", arguments))
    assert status == 200 and len(answer) < 300, answer[:400]
    result = json.loads(answer)["result"]
    assert result["isError"] is True
    assert expected in result["content"][0]["text"]


def test_a_100000_character_string_is_refused_briefly(child: Child) -> None:
    """Too big for the body limit: the refusal names the limit, not the string."""
    status, headers, answer = child.post_mcp(_call("compare_models", {"ids": ["z" * 100_000, "a"]}))
    assert status == 413 and _rpc_error(status, headers, answer)["code"] == -32600
