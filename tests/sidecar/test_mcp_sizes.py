"""bench/mcp_sizes.py: each tool's answer size at its default and smallest setting, both ways."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from support.paths import REPO

from bench import mcp_sizes
from generator.api.mcp_tools import MCP_TOOLS, TOOLS_BY_NAME
from mcp_server import tools
from mcp_server.arguments import check_arguments
from mcp_server.site import load_snapshot

TOLERANCE = 0.25
"""How far docs/MCP.md's figures may be from today's measure (data/ grows between rewrites)."""


def test_sizes_are_the_lengths_of_the_two_text_blocks(built_site: Path) -> None:
    site = load_snapshot(built_site)
    rows = {(r.tool, r.arguments): r for r in mcp_sizes.sizes(site)}
    json_text, summary = tools.get_ranking(site, "composite-iq").texts()
    row = rows[("get_ranking", "id=composite-iq")]
    assert (row.json_chars, row.summary_chars) == (len(json_text), len(summary))
    model = site.models.struct.models[0].id
    json_text, summary = tools.get_model(site, model, include_history=True).texts()
    row = rows[("get_model", f"id={model}, include_history=true")]
    assert (row.json_chars, row.summary_chars) == (len(json_text), len(summary))
    assert {tool for tool, _ in rows} == {tool.name for tool in MCP_TOOLS}


def test_a_setting_is_the_largest_answer_over_every_id(built_site: Path) -> None:
    site = load_snapshot(built_site)
    pairs = {default.tool: (default, small) for default, small in mcp_sizes.settings_sizes(site)}
    assert list(pairs) == [tool.name for tool in MCP_TOOLS]
    declaration = TOOLS_BY_NAME["get_model"]
    largest = max(
        sum(map(len, tools.call(site, declaration, check_arguments(declaration, a)).texts()))
        for a in ({"id": key, **mcp_sizes.SMALL_MODEL} for key in site.model_details)
    )
    default, small = pairs["get_model"]
    assert small.chars == largest and small.tokens == round(largest / 4)
    assert small.chars < default.chars


def test_main_prints_both_markdown_tables(
    built_site: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    mcp_sizes.main(["--site-dir", str(built_site)])
    settings, both = capsys.readouterr().out.strip().split("\n\n")
    assert settings.splitlines()[0].startswith("| tool | measured on | default (chars)")
    assert len(settings.splitlines()) == 2 + 9
    assert both.splitlines()[0].startswith("| tool | arguments | JSON text (chars)")
    assert len(both.splitlines()) == 2 + 15


def _documented(text: str) -> dict[str, tuple[int, int]]:
    """docs/MCP.md's size-controls table: tool to (default, smallest) characters."""
    rows = re.findall(
        r"^\| `(\w+)` \| [^|]+ \| ([\d,]+) \| [\d,]+ \| [^|]+ \| ([\d,]+) \|", text, re.M
    )
    return {tool: (int(d.replace(",", "")), int(s.replace(",", ""))) for tool, d, s in rows}


def test_every_tool_has_a_setting_under_the_budget_on_the_shipped_data(shipped_site: Path) -> None:
    """And docs/MCP.md's table says so, with figures near today's measure."""
    pairs = mcp_sizes.settings_sizes(load_snapshot(shipped_site))
    over = [(small.tool, small.chars) for _, small in pairs if small.chars >= mcp_sizes.BUDGET]
    assert over == []
    documented = _documented((REPO / "docs" / "MCP.md").read_text(encoding="utf-8"))
    assert list(documented) == [default.tool for default, _ in pairs]
    for default, small in pairs:
        shown_default, shown_small = documented[default.tool]
        assert shown_small < mcp_sizes.BUDGET
        assert abs(shown_default - default.chars) <= TOLERANCE * default.chars, default
        assert abs(shown_small - small.chars) <= TOLERANCE * small.chars, small
