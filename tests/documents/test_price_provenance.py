"""Prices with provenance: a change of a price's source, link or date alone is reported by
`modelscores diff`, as a reviewer of a refresh pull request needs to see it."""

from __future__ import annotations

import shutil
from pathlib import Path

from click.testing import CliRunner

from generator.cli import cli

FIXTURE = Path(__file__).resolve().parents[1] / "data"


def test_diff_reports_a_price_source_change_without_a_price_change(tmp_path: Path) -> None:
    new = tmp_path / "data"
    shutil.copytree(FIXTURE, new)
    model = new / "models" / "alpha-1.toml"
    text = model.read_text(encoding="utf-8")
    for old, replacement in [
        ('source = "test price sheet"', 'source = "Alpha Labs pricing page"'),
        (
            'source_url = "https://example.org/alpha/pricing"',
            'source_url = "https://example.org/p"',
        ),
        ("as_of = 2026-01-12", "as_of = 2026-01-20"),
    ]:
        assert text.count(old + "\n") == 1, old
        text = text.replace(old + "\n", replacement + "\n")
    model.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(cli, ["diff", str(FIXTURE), str(new)])
    assert result.exit_code == 0, result.output
    lines = [line.strip() for line in result.output.splitlines()]
    assert "price source: test price sheet -> Alpha Labs pricing page" in lines
    assert "price source URL: https://example.org/alpha/pricing -> https://example.org/p" in lines
    assert "price as of: 2026-01-12 -> 2026-01-20" in lines
    assert not any(line.startswith(("input price", "effective cost")) for line in lines)
