"""bench/mcp_sizes.py: the table of each tool's answer size, both ways."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench import mcp_sizes
from mcp_server import tools
from mcp_server.site import load_snapshot


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
    assert {tool for tool, _ in rows} == {
        "list_models", "get_model", "list_rankings", "get_ranking", "list_benchmarks",
        "list_domains", "get_domain", "get_methodology", "compare_models",
    }  # fmt: skip


def test_main_prints_a_markdown_table(built_site: Path, capsys: pytest.CaptureFixture[str]) -> None:
    mcp_sizes.main(["--site-dir", str(built_site)])
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("| tool | arguments | JSON text (chars)")
    assert len(lines) == 2 + 15
