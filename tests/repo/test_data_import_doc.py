"""docs/DATA_IMPORT.md is a guide, not a run's report: short, and it explains every section the
import report has (the report itself is printed, or written where `--report` says)."""

from __future__ import annotations

import re
from pathlib import Path

from generator.importers.report import render
from generator.importers.run import Outcome

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "DATA_IMPORT.md"
REPORT_SECTION = re.compile(r"^## (.+) \(\d+\)$", re.M)  # "## Changes (912)" in a report


def test_the_guide_is_at_most_400_lines_and_holds_no_report() -> None:
    text = GUIDE.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 400
    assert "# Import report" not in text
    assert REPORT_SECTION.findall(text) == []


def test_the_guide_explains_every_section_of_the_report() -> None:
    titles = REPORT_SECTION.findall(render(Outcome(), "markdown"))
    assert "Unmatched upstream keys" in titles  # the finder reads a real report
    table = GUIDE.read_text(encoding="utf-8")
    assert [t for t in titles if f"\n| {t} |" not in table] == []
