"""The MCP request body is read and decoded once, by the guard, for the fast path too."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from support.documents import write_site

from mcp_server import fastpath, guards
from mcp_server.app import create_app

CALL = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "tools/call",
    "params": {"name": "get_model", "arguments": {"id": "alpha-1"}},
}
HEADERS = {"content-type": "application/json", "accept": "application/json"}


@pytest.mark.parametrize("fast_path", [True, False])
def test_one_decode_per_request_whichever_path_answers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fast_path: bool
) -> None:
    decoded: list[bytes] = []
    real = guards.decode

    def counting(body: bytes) -> tuple[Any, str | None]:
        decoded.append(body)
        return real(body)

    monkeypatch.setattr(guards, "decode", counting)
    monkeypatch.setattr(fastpath, "decode", counting)
    app = create_app(write_site(tmp_path / "site_out"), fast_path=fast_path)
    with TestClient(app, base_url="http://localhost") as client:  # the second: from the cache
        responses = [
            client.post("/api/mcp", content=json.dumps(CALL), headers=HEADERS) for _ in range(2)
        ]
    for response in responses:
        assert response.status_code == 200
        assert response.json()["result"]["structuredContent"]["id"] == "alpha-1"
    assert decoded == [json.dumps(CALL).encode()] * 2
    if fast_path:
        route = app.routes[0]
        assert isinstance(route.app, fastpath.FastPath)  # type: ignore[attr-defined]
        assert route.app.answered == 1  # type: ignore[attr-defined]
