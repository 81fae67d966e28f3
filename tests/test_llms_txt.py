"""llms.txt: the llms.txt format, every endpoint and tool, and only links that resolve."""

from __future__ import annotations

import re
from pathlib import Path

from generator.api.contract import ENDPOINTS
from generator.api.mcp_tools import MCP_TOOLS
from generator.api.urls import DEFAULT_BASE_URL, OPENAPI_FILE, api_file


def _site_file(site: Path, url: str) -> Path:
    """The file a URL under the default base is served from."""
    path = url.removeprefix(DEFAULT_BASE_URL)
    if path == "/api/v1":
        return site / "api" / "v1" / "index.json"
    if path.endswith(OPENAPI_FILE) or not path.startswith("/api/"):
        return site / path.lstrip("/") / ("index.html" if path.endswith("/") else "")
    return site / api_file(path.removeprefix("/api/v1"))


def test_llms_txt_has_the_format_agents_look_for(built_site: Path) -> None:
    text = (built_site / "llms.txt").read_text(encoding="utf-8")
    lines = text.splitlines()
    assert lines[0] == "# modelscores" and lines[2].startswith("> ")
    assert {"## API", "## Downloads", "## MCP"} <= set(lines)
    for kind in ENDPOINTS:
        assert f"GET {kind.path}]" in text or f"/api/v1{kind.path}`" in text, kind.path
    for tool in MCP_TOOLS:
        assert f"- `{tool.name}`: " in text
    assert f"{DEFAULT_BASE_URL}/api/mcp" in text


def test_every_link_in_llms_txt_resolves(built_site: Path) -> None:
    text = (built_site / "llms.txt").read_text(encoding="utf-8")
    urls = re.findall(r"\]\(([^)]+)\)", text)
    assert len(urls) >= 10
    missing = [u for u in urls if not _site_file(built_site, u).is_file()]
    assert missing == []
