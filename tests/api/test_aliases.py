"""Model aliases on the shipped data: declared by the conversion, redirected by the static
host's rules (applied by `serve`'s StaticHost), resolved by the MCP tools."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from generator.serve import create_static_app
from mcp_server import tools
from mcp_server.site import load_snapshot


@pytest.fixture(scope="module")
def http(shipped_site: Path) -> TestClient:
    return TestClient(create_static_app(shipped_site), follow_redirects=False)


def _detail(site: Path, model_id: str) -> bytes:
    return (site / "api/v1/models" / model_id).read_bytes()


def test_shipped_models_list_their_display_name_and_dated_revisions(shipped_site: Path) -> None:
    detail = json.loads(_detail(shipped_site, "gpt-5.5"))
    assert detail["aliases"] == ["GPT-5.5", "gpt-5.5-2026-04-23"]
    assert json.loads(_detail(shipped_site, "o3"))["aliases"] == ["o3-2025-04-16"]  # name == id


@pytest.mark.parametrize(
    ("path", "target"),
    [
        ("/api/v1/models/GPT-5.5", "/api/v1/models/gpt-5.5"),
        ("/api/models/GPT-5.5", "/api/models/gpt-5.5"),
        ("/api/v1/models/gpt-5.5-2026-04-23", "/api/v1/models/gpt-5.5"),
        ("/api/models/claude-opus-4-1-20250805", "/api/models/claude-opus-4.1"),
        # ids merged into one model (issue 43) keep answering as its aliases
        ("/api/v1/models/grok-3", "/api/v1/models/grok-3-beta"),
        ("/api/v1/models/grok-3-mini", "/api/v1/models/grok-3-mini-beta"),
        ("/api/v1/models/gemini-2.5-pro-preview-03-25", "/api/v1/models/gemini-2.5-pro-exp-03-25"),
        ("/api/v1/models/glm-5.1", None),  # an id: its own file, no redirect
    ],
)
def test_aliases_answer_the_canonical_json(
    http: TestClient, shipped_site: Path, path: str, target: str | None
) -> None:
    """A 200 rewrite with CORS and a canonical `Link`, not a redirect (docs/DECISIONS.md)."""
    response = http.get(path)
    assert response.status_code == 200
    assert response.headers["access-control-allow-origin"] == "*"
    if target is None:
        return
    assert response.headers["link"] == f'<{target}>; rel="canonical"'
    assert response.content == _detail(shipped_site, target.rsplit("/", 1)[1])


def test_unknown_names_still_get_the_json_404(http: TestClient, shipped_site: Path) -> None:
    body = (shipped_site / "api/_errors/model_not_found.json").read_bytes()
    for path in ("/api/v1/models/GPT-9", "/api/v1/models/Claude%20Opus%204.8"):
        response = http.get(path)
        assert (response.status_code, response.content) == (404, body), path


def test_mcp_resolves_aliases_and_names_in_any_case(shipped_site: Path) -> None:
    site = load_snapshot(shipped_site)
    for query in ("GPT-5.5", "gpt-5.5-2026-04-23", "GPT-5.5-2026-04-23", "claude opus 4.8"):
        assert tools.resolve_model(site, query) in ("gpt-5.5", "claude-opus-4.8"), query
    answer = tools.compare_models(site, ["GPT-5.5", "Claude Opus 4.8", "gpt-9"])
    assert [m["id"] for m in answer.data["compared"]] == ["gpt-5.5", "claude-opus-4.8"]
    assert answer.data["missing"] == ["gpt-9"]
