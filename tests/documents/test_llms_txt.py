"""llms.txt: the llms.txt format as its reference parser reads it, every endpoint, download
and tool, and only links that resolve."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import urldefrag

from llms_txt import parse_llms_file

from generator.api.contract import ENDPOINTS
from generator.api.files import DOWNLOADS
from generator.api.mcp_tools import MCP_TOOLS
from generator.api.urls import DEFAULT_BASE_URL, OPENAPI_FILE, api_file
from generator.serve import StaticHost


def _site_file(site: Path, url: str) -> Path:
    """The file a URL under the default base is served from."""
    path = url.removeprefix(DEFAULT_BASE_URL)
    if path == "/api/v1":
        return site / "api" / "v1" / "index.json"
    if path.endswith(OPENAPI_FILE) or not path.startswith("/api/"):
        return site / path.lstrip("/") / ("index.html" if path.endswith("/") else "")
    return site / api_file(path.removeprefix("/api/v1"))


def _parsed(site: Path) -> Any:
    """The file as the llmstxt.org reference parser reads it (it fails on a list item
    that is not a `[name](url)` link)."""
    return parse_llms_file((site / "llms.txt").read_text(encoding="utf-8"))


def test_llms_txt_has_the_format_agents_look_for(built_site: Path) -> None:
    parsed = _parsed(built_site)
    assert parsed.title == "modelscores" and parsed.summary.startswith("Public, read-only")
    assert list(parsed.sections) == ["API", "Downloads", "MCP"]
    text = (built_site / "llms.txt").read_text(encoding="utf-8")
    items = [line for line in text.splitlines() if line.startswith("- ")]
    assert len(items) == sum(len(links) for links in parsed.sections.values())
    titles = {name: {link.title for link in links} for name, links in parsed.sections.items()}
    assert {f"GET {kind.path}" for kind in ENDPOINTS} <= titles["API"]
    assert {kind.pattern for kind in DOWNLOADS} == titles["Downloads"]
    assert {tool.name for tool in MCP_TOOLS} | {"MCP connector"} == titles["MCP"]
    connector = next(link for link in parsed.sections["MCP"] if link.title == "MCP connector")
    assert f"`{DEFAULT_BASE_URL}/api/mcp`" in connector.desc
    get_model = next(link for link in parsed.sections["MCP"] if link.title == "get_model")
    assert "include_history" in get_model.desc  # the sidecar's history, named for agents


def test_a_path_with_a_parameter_links_the_list_of_its_values(built_site: Path) -> None:
    links = {link.title: link for links in _parsed(built_site).sections.values() for link in links}
    model = links["GET /models/{id}"]
    assert model.url == f"{DEFAULT_BASE_URL}/api/v1/models"
    assert f"`{DEFAULT_BASE_URL}/api/v1/models/{{id}}`" in model.desc
    snapshot_csv = links["downloads/history/{date}.csv"]
    assert snapshot_csv.url == f"{DEFAULT_BASE_URL}/api/v1/history"
    assert f"`{DEFAULT_BASE_URL}/downloads/history/{{date}}.csv`" in snapshot_csv.desc


def test_every_link_in_llms_txt_resolves(built_site: Path) -> None:
    links = [link for links in _parsed(built_site).sections.values() for link in links]
    assert len(links) >= 30
    missing = []
    for link in links:
        url, fragment = urldefrag(link.url)
        file = _site_file(built_site, url)
        if not file.is_file() or (fragment and f'id="{fragment}"' not in file.read_text()):
            missing.append(link.url)
    assert missing == []


def test_feed_and_llms_txt_are_served_with_their_types_and_cors(built_site: Path) -> None:
    """Through the generated `_headers`, as `modelscores serve` applies them: readers that
    run in a browser (a web feed reader, an agent's page) may fetch them from any origin."""
    host = StaticHost(built_site)
    for path, media_type in (
        ("/llms.txt", "text/plain; charset=utf-8"),
        ("/feed.atom", "application/atom+xml; charset=utf-8"),
    ):
        response = host.respond(path)
        assert response.status_code == 200, path
        assert response.headers["content-type"] == media_type, path
        assert response.headers["access-control-allow-origin"] == "*", path
        assert response.headers["cache-control"].startswith("public, max-age=300"), path
