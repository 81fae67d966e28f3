"""The diff report posted as a pull request comment (generator/diff/report.py) against hostile
data: its size is counted as posted."""

from __future__ import annotations

import re

from generator.diff.changes import Diff, ModelChange, Move, PlaceMove, RankingChange
from generator.diff.report import MAX_MARKDOWN, render

COMMENT_LIMIT = 65_536  # GitHub refuses a longer comment


def _changed(model_id: str, name: str, *, before: str = "old", after: str = "new") -> ModelChange:
    move = Move(before, after)
    return ModelChange(
        id=model_id, name=name, own_data_changed=True, fields={"cost.priceSourceUrl": move}
    )


def test_the_markdown_budget_counts_the_escaped_text() -> None:
    """3,000 changed models whose names escape to twice their length or more: the comment
    still fits (it was 103,688 characters when the budget counted the raw text)."""
    name = "@[*]#:" * 10
    models = [_changed(f"m-{n}", f"{name}{n}", before=name, after=name) for n in range(3000)]
    markdown = render(Diff(summary="3000 models changed", models_changed=models), "markdown")
    assert len(markdown) <= MAX_MARKDOWN < COMMENT_LIMIT
    assert "more rows: the whole report is" in markdown


def test_many_sections_still_fit_with_the_rest_counted() -> None:
    """2,000 rankings that each moved: every section cut to nothing cannot fit either, so the
    last sections are left out and counted."""
    name = "@[*]#:" * 10
    rankings = [
        RankingChange(
            id=f"r-{r}",
            name=f"{name} {r}",
            moves=[PlaceMove(id=f"m-{n}", name=f"{name}{n}", before=n, after=n + 1)
                   for n in range(1, 8)],
        )
        for r in range(2000)
    ]  # fmt: skip
    markdown = render(Diff(summary="2000 rankings changed", rankings=rankings), "markdown")
    assert len(markdown) <= MAX_MARKDOWN
    counted = re.findall(r"\.\.\. and (\d+) more rows", markdown)
    shown_rows = sum(1 for line in markdown.splitlines() if line.startswith("| ") and "#" in line)
    assert shown_rows + sum(map(int, counted)) == 2000 * 7
