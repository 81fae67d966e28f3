"""The sidecar over real HTTP: SDK clients in both protocol eras, guards, CORS, health, reload."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from mcp import Client
from mcp_types.version import LATEST_HANDSHAKE_VERSION, LATEST_PROTOCOL_VERSION
from starlette.testclient import TestClient
from support.documents import swap_in, write_site
from support.mcp_live import Live, serve

import mcp_server.app as app_module
from mcp_server.app import create_app, create_app_from_env
from mcp_server.site import SiteError

JSON_HEADERS = {"content-type": "application/json", "accept": "application/json, text/event-stream"}


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
def site_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_site(tmp_path_factory.mktemp("http") / "site_out")


@pytest.fixture(scope="module")
def live(site_dir: Path) -> Iterator[Live]:
    with serve(create_app(site_dir)) as running:
        yield running


def rpc(method: str, params: dict[str, Any] | None = None, id: int = 1) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": id, "method": method, "params": params or {}}


INITIALIZE = rpc(
    "initialize",
    {
        "protocolVersion": LATEST_HANDSHAKE_VERSION,
        "capabilities": {},
        "clientInfo": {"name": "pytest", "version": "1"},
    },
)


def file_json(site_dir: Path, rel: str) -> Any:
    return json.loads((site_dir / "api/v1" / rel).read_bytes())


# --- the SDK's own client -------------------------------------------------------


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("mode", "version"), [("auto", LATEST_PROTOCOL_VERSION), ("legacy", LATEST_HANDSHAKE_VERSION)]
)
async def test_sdk_client_over_http(live: Live, site_dir: Path, mode: str, version: str) -> None:
    async with Client(live.mcp_url, mode=mode) as client:  # type: ignore[arg-type]
        assert client.protocol_version == version
        assert client.server_info is not None and client.server_info.name == "modelscores"
        assert len((await client.list_tools()).tools) == 9
        result = await client.call_tool("get_ranking", {"id": "composite-iq"})
        assert not result.is_error
        assert result.structured_content == file_json(site_dir, "rankings/composite-iq")
        listed = await client.call_tool("list_models", {})
        assert listed.structured_content == file_json(site_dir, "models.json")
        missing = await client.call_tool("get_domain", {"slug": "fnance"})
        assert missing.is_error and "Did you mean: finance" in str(missing.content[0])


# --- raw HTTP -------------------------------------------------------------------------


def test_initialize_answers_json_without_a_session(live: Live) -> None:
    response = httpx.post(live.mcp_url, json=INITIALIZE, headers=JSON_HEADERS)
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/json"
    assert "mcp-session-id" not in response.headers
    result = response.json()["result"]
    assert result["protocolVersion"] == LATEST_HANDSHAKE_VERSION
    assert result["serverInfo"]["name"] == "modelscores"


def test_tools_call_without_a_session_returns_the_file(live: Live, site_dir: Path) -> None:
    call = rpc("tools/call", {"name": "get_model", "arguments": {"id": "beta-2"}}, id=7)
    headers = JSON_HEADERS | {"mcp-protocol-version": LATEST_HANDSHAKE_VERSION}
    response = httpx.post(live.mcp_url, json=call, headers=headers)
    body = response.json()
    assert body["id"] == 7
    assert body["result"]["isError"] is False
    assert body["result"]["structuredContent"] == file_json(site_dir, "models/beta-2")


def test_trailing_slash_is_served_not_redirected(live: Live) -> None:
    response = httpx.post(live.mcp_url + "/", json=INITIALIZE, headers=JSON_HEADERS)
    assert response.status_code == 200 and response.json()["result"]


@pytest.mark.parametrize("method", ["GET", "DELETE", "PUT"])
def test_only_post_is_allowed(live: Live, method: str) -> None:
    headers = {"accept": "text/event-stream, application/json"}
    response = httpx.request(method, live.mcp_url, headers=headers, timeout=5)
    assert response.status_code == 405
    assert response.headers["allow"] == "POST"


def test_foreign_host_is_refused(live: Live) -> None:
    headers = JSON_HEADERS | {"host": "evil.example"}
    response = httpx.post(live.mcp_url, json=INITIALIZE, headers=headers)
    assert (response.status_code, response.text) == (421, "Invalid Host header")


def test_foreign_origin_is_refused(live: Live) -> None:
    headers = JSON_HEADERS | {"origin": "http://evil.example"}
    response = httpx.post(live.mcp_url, json=INITIALIZE, headers=headers)
    assert (response.status_code, response.text) == (403, "Invalid Origin header")
    assert "access-control-allow-origin" not in response.headers


def test_local_browser_origin_gets_cors_headers(live: Live) -> None:
    headers = JSON_HEADERS | {"origin": "http://localhost:5173"}
    response = httpx.post(live.mcp_url, json=INITIALIZE, headers=headers)
    assert response.status_code == 200
    assert response.headers["access-control-allow-origin"] == "http://localhost:5173"
    assert "mcp-session-id" in response.headers["access-control-expose-headers"]


def test_cors_preflight_allows_the_mcp_headers(live: Live) -> None:
    headers = {
        "origin": "http://127.0.0.1:6274",
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type, mcp-protocol-version, mcp-session-id",
    }
    response = httpx.options(live.mcp_url, headers=headers)
    assert response.status_code == 200
    assert response.headers["access-control-allow-origin"] == "http://127.0.0.1:6274"
    allowed = response.headers["access-control-allow-headers"].lower()
    assert {"content-type", "mcp-protocol-version", "mcp-session-id"} <= {
        h.strip() for h in allowed.split(",")
    }
    refused = httpx.options(live.mcp_url, headers=headers | {"origin": "https://evil.example"})
    assert refused.status_code == 400


def test_oversized_bodies_are_refused_early(live: Live) -> None:
    big = b'{"jsonrpc": "2.0", "pad": "' + b"x" * 70_000 + b'"}'
    response = httpx.post(live.mcp_url, content=big, headers=JSON_HEADERS)
    limit = "Invalid Request: the body is over the 65,536-byte limit"
    error = {"code": -32600, "message": limit}
    assert (response.status_code, response.json()) == (
        413,
        {"jsonrpc": "2.0", "id": None, "error": error},
    )

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it arrives
        for _ in range(10):
            yield b"x" * 10_000

    response = httpx.post(live.mcp_url, content=chunks(), headers=JSON_HEADERS)
    assert (response.status_code, response.json()["error"]) == (413, error)


@pytest.mark.parametrize(
    ("body", "problem"),
    [
        (b'{"jsonrpc": "2.0", "id": {"a": 1}, "method": "tools/list"}', "id must be"),
        (b'{"jsonrpc": "2.0", "id": true, "method": "tools/list"}', "id must be"),
        (b'{"jsonrpc": "2.0", "id": 1.5, "method": "tools/list"}', "id must be"),
        (b'{"jsonrpc": "2.0", "id": 1, "method": 7}', "method must be"),
        (b'{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {}}', "string name"),
        (
            b'{"jsonrpc": "2.0", "id": 1, "method": "tools/call", '
            b'"params": {"name": "list_models", "arguments": []}}',
            "must be an object",
        ),
    ],
)
def test_malformed_envelopes_are_invalid_requests(live: Live, body: bytes, problem: str) -> None:
    """The SDK would take these for notifications and answer 202 with nothing."""
    response = httpx.post(live.mcp_url, content=body, headers=JSON_HEADERS)
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] in (-32600, -32602) and problem in error["message"]


@pytest.mark.parametrize(
    "body", [b"", b"{", b'{"jsonrpc": "2.0", "id": 1e999, "method": "ping"}', b"[" * 5000]
)
def test_unparsable_bodies_are_parse_errors(live: Live, body: bytes) -> None:
    response = httpx.post(live.mcp_url, content=body, headers=JSON_HEADERS)
    assert response.status_code == 400
    assert response.json()["error"]["code"] == -32700


def test_healthz_reports_the_build(live: Live) -> None:
    response = httpx.get(live.base + "/healthz")
    assert response.json() == {
        "status": "ok",
        "apiVersion": "1",
        "methodologyVersion": "2026-01-15.A",
        "updatedAt": "2026-01-15T12:00:00Z",
        "models": 3,
    }


# --- configuration (in process) -----------------------------------------------------


def test_configured_hosts_and_origins(site_dir: Path) -> None:
    app = create_app(site_dir, ["mcp.example.org"], ["https://scores.example.org"])
    with TestClient(app, base_url="http://mcp.example.org") as client:
        ok = client.post(
            "/api/mcp", json=INITIALIZE, headers={"origin": "https://scores.example.org"}
        )
        assert ok.status_code == 200
        assert ok.headers["access-control-allow-origin"] == "https://scores.example.org"
        assert (
            client.post("/api/mcp", json=INITIALIZE, headers={"host": "localhost"}).status_code
            == 421
        )
        other = client.post("/api/mcp", json=INITIALIZE, headers={"origin": "http://localhost:1"})
        assert other.status_code == 403


def test_wildcard_origin_keeps_the_host_check(site_dir: Path) -> None:
    app = create_app(site_dir, ["mcp.example.org"], ["*"])
    with TestClient(app, base_url="http://mcp.example.org") as client:
        ok = client.post("/api/mcp", json=INITIALIZE, headers={"origin": "https://any.example"})
        assert ok.status_code == 200 and ok.headers["access-control-allow-origin"] == "*"
        assert (
            client.post("/api/mcp", json=INITIALIZE, headers={"host": "x.example"}).status_code
            == 421
        )


def test_app_from_environment(site_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MODELSCORES_SITE_DIR", str(site_dir))
    monkeypatch.setenv("MODELSCORES_ALLOWED_HOSTS", " mcp.example.org , other.example ")
    monkeypatch.setenv("MODELSCORES_ALLOWED_ORIGINS", "https://scores.example.org")
    monkeypatch.setattr(app_module, "_app", None)
    app = app_module.app  # what `uvicorn mcp_server.app:app` loads
    assert app is app_module.app
    with TestClient(app, base_url="http://other.example") as client:
        assert client.get("/healthz").json()["models"] == 3
        assert client.post("/api/mcp", json=INITIALIZE).status_code == 200
        assert (
            client.post("/api/mcp", json=INITIALIZE, headers={"host": "testserver"}).status_code
            == 421
        )
    with pytest.raises(AttributeError):
        app_module.nothing  # noqa: B018


def test_startup_fails_without_a_build(tmp_path: Path) -> None:
    with pytest.raises(SiteError, match="cannot open the built site"):
        with TestClient(create_app(tmp_path / "none")):
            pass


def test_default_app_reads_site_out(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in ("SITE_DIR", "ALLOWED_HOSTS", "ALLOWED_ORIGINS"):
        monkeypatch.delenv(f"MODELSCORES_{name}", raising=False)
    monkeypatch.chdir(tmp_path)
    write_site(tmp_path / "site_out")
    with TestClient(create_app_from_env(), base_url="http://localhost:8001") as client:
        assert client.get("/healthz").json()["status"] == "ok"


# --- reload while a client is calling ------------------------------------------------


@pytest.mark.slow
@pytest.mark.anyio
async def test_rebuild_while_a_client_calls_gives_wholly_old_or_new_answers(tmp_path: Path) -> None:
    site_dir = write_site(tmp_path / "site_out", "A")
    spare = write_site(tmp_path / "spare", "B")
    stop = threading.Event()

    def swap_builds() -> None:
        while not stop.is_set():
            swap_in(site_dir, spare)
            time.sleep(0.01)

    tags: list[str] = []
    with serve(create_app(site_dir, check_interval=0)) as running:
        swapper = threading.Thread(target=swap_builds)
        swapper.start()
        try:
            deadline = time.monotonic() + 30
            async with Client(running.mcp_url, cache=None) as client:
                while len(tags) < 45 or (set(tags) != {"A", "B"} and time.monotonic() < deadline):
                    for name, arguments in (
                        ("list_models", {}),
                        ("compare_models", {"ids": ["alpha-1", "gamma-3"]}),
                        ("get_model", {"id": "beta-2"}),
                    ):
                        result = await client.call_tool(name, arguments)
                        data = result.structured_content
                        assert data is not None
                        tag = data["methodologyVersion"].rsplit(".", 1)[1]
                        rows = data.get("models") or data.get("compared") or [data]
                        assert all(row["name"].endswith(f" {tag}") for row in rows), data
                        tags.append(tag)
        finally:
            stop.set()
            swapper.join()
    assert set(tags) == {"A", "B"}


# --- the CLI command --------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def test_modelscores_mcp_command_serves_the_site(site_dir: Path) -> None:
    port = _free_port()
    command = [sys.executable, "-m", "generator", "mcp", "--site-dir", str(site_dir)]
    command += ["--port", str(port), "--allowed-host", f"127.0.0.1:{port}"]
    env = os.environ | {"PYTHONUNBUFFERED": "1"}
    process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                health = httpx.get(f"http://127.0.0.1:{port}/healthz")
                break
            except httpx.TransportError:
                assert process.poll() is None, process.stdout.read() if process.stdout else ""
                assert time.monotonic() < deadline, "modelscores mcp did not start"
                time.sleep(0.1)
        assert health.json()["models"] == 3
        url = f"http://127.0.0.1:{port}/api/mcp"
        assert httpx.post(url, json=INITIALIZE, headers=JSON_HEADERS).status_code == 200
        refused = httpx.post(url, json=INITIALIZE, headers=JSON_HEADERS | {"host": "localhost"})
        assert refused.status_code == 421  # only the configured host is allowed
    finally:
        process.terminate()
        process.wait(timeout=10)
        if process.stdout:
            process.stdout.close()


@pytest.mark.parametrize("path", ["/healthz/", "/api/mcp/", "/nope/", "/healthz//", "/api/mcp//"])
def test_no_path_redirects_to_the_requests_host(site_dir: Path, path: str) -> None:
    """Starlette's slash redirect named the request's `Host` (`/healthz/` answered 307 to
    `http://evil.example/healthz`): a path answers itself or 404/405, never a redirect."""
    app = create_app(site_dir, ["*"], ["*"])
    with TestClient(app, base_url="http://evil.example", follow_redirects=False) as client:
        for method in ("GET", "HEAD", "POST"):
            response = client.request(method, path, json=INITIALIZE if method == "POST" else None)
            assert not 300 <= response.status_code < 400, (method, path, response.headers)
            assert "location" not in response.headers
        if path == "/healthz/":
            assert client.get(path).json()["status"] == "ok"
