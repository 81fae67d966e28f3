"""Recorded calls: a client written against AI IQ's connector gets the same JSON as before.

`tests/mcp_recorded/calls.json` holds the calls such a client makes (the nine tools with the
connector's arguments: no size controls) and the `result` of each, recorded over HTTP from
the sidecar before the size controls, strict arguments and resource links were added. Each
is replayed through both paths (the fast path and the SDK) and must give the same
`structuredContent`, the same two text blocks and the same `isError`; blocks after the two
text blocks (resource links) are the only addition allowed (docs/DECISIONS.md).

The site is `support.documents.write_site` (sample documents independent of scoring), so a
scoring change does not touch the recording. Re-record only on purpose: `--update-golden`.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
from anyio.from_thread import BlockingPortal, start_blocking_portal
from support.documents import PAGE_MODELS, write_site

from mcp_server.app import MCP_PATH, create_app

RECORDED = Path(__file__).parents[1] / "mcp_recorded" / "calls.json"
HEADERS = {"content-type": "application/json", "accept": "application/json, text/event-stream"}
CALLS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("list_models", {}),
    ("list_models", {"provider": "acme"}),
    ("list_models", {"open_source": True}),
    ("list_models", {"min_iq": 120}),
    ("list_models", {"sort": "cost", "limit": 3}),
    ("list_models", {"sort": "iq"}),
    ("list_models", {"limit": 2}),
    ("get_model", {"id": "alpha-1"}),
    ("get_model", {"id": "ALPHA-1"}),
    ("get_model", {"id": "beta-2", "include_history": True}),
    ("get_model", {"id": "beta-2", "include_history": False}),
    ("get_model", {"id": "omega-9"}),
    ("compare_models", {"ids": ["alpha-1", "gamma-3"]}),
    ("compare_models", {"ids": ["alpha-1", "nope", "Beta Two <b>", "alpha-1"]}),
    ("compare_models", {"ids": ["nope", "nada"]}),
    ("list_rankings", {}),
    ("get_ranking", {"id": "composite-iq"}),
    ("get_ranking", {"id": "no-such-ranking"}),
    ("list_benchmarks", {}),
    ("list_domains", {}),
    ("get_domain", {"slug": "finance"}),
    ("get_domain", {"slug": "cooking"}),
    ("get_methodology", {}),
)


@pytest.fixture(scope="module")
def site_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_site(tmp_path_factory.mktemp("recorded") / "site_out", models=PAGE_MODELS)


def _answers(site_dir: Path, *, fast_path: bool) -> Iterator[dict[str, Any]]:
    """The JSON-RPC `result` of each call in `CALLS`, over HTTP through the whole app."""
    app = create_app(site_dir, fast_path=fast_path)
    with start_blocking_portal() as portal:
        with portal.wrap_async_context_manager(app.router.lifespan_context(app)):
            client = httpx2.AsyncClient(
                transport=httpx2.ASGITransport(app=app), base_url="http://127.0.0.1:8000"
            )
            try:
                for number, (name, arguments) in enumerate(CALLS, start=1):
                    yield _post(portal, client, number, name, arguments)
            finally:
                portal.call(client.aclose)


def _post(
    portal: BlockingPortal, client: httpx2.AsyncClient, number: int, name: str, arguments: Any
) -> dict[str, Any]:
    body = {
        "jsonrpc": "2.0",
        "id": number,
        "method": "tools/call",
        "params": {"name": name, "arguments": arguments},
    }
    response = portal.call(lambda: client.post(MCP_PATH, json=body, headers=HEADERS))
    assert response.status_code == 200, response.text[:300]
    result: dict[str, Any] = response.json()["result"]
    return result


def _comparable(result: dict[str, Any]) -> dict[str, Any]:
    """What the connector reads: the structured content, the two text blocks, isError."""
    return {
        "structuredContent": result.get("structuredContent"),
        "texts": [block["text"] for block in result["content"][:2]],
        "isError": result.get("isError", False),
    }


def test_the_recording_covers_every_tool() -> None:
    recorded = json.loads(RECORDED.read_text(encoding="utf-8"))
    assert [(c["tool"], c["arguments"]) for c in recorded] == list(CALLS)
    assert {c["tool"] for c in recorded} == {
        "list_models", "get_model", "list_rankings", "get_ranking", "list_benchmarks",
        "list_domains", "get_domain", "get_methodology", "compare_models",
    }  # fmt: skip
    assert sum(c["result"]["isError"] for c in recorded) == 3  # the three unknown ids


@pytest.mark.parametrize("fast_path", [True, False], ids=["fast-path", "sdk"])
def test_recorded_calls_get_the_same_json(
    site_dir: Path, fast_path: bool, update_golden: bool
) -> None:
    answers = list(_answers(site_dir, fast_path=fast_path))
    if update_golden and fast_path:
        recording = [
            {"tool": name, "arguments": arguments, "result": _comparable(answer)}
            for (name, arguments), answer in zip(CALLS, answers, strict=True)
        ]
        RECORDED.parent.mkdir(exist_ok=True)
        RECORDED.write_text(json.dumps(recording, indent=1) + "\n", encoding="utf-8")
    recorded = json.loads(RECORDED.read_text(encoding="utf-8"))
    for call, answer in zip(recorded, answers, strict=True):
        assert _comparable(answer) == call["result"], (
            f"{call['tool']} {call['arguments']}: if the sample documents changed on purpose, "
            "re-record: pytest tests/sidecar/test_mcp_recorded.py --update-golden"
        )
        for block in answer["content"][2:]:
            assert block["type"] == "resource_link", block
