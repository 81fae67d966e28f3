"""LiveBench's leaderboard table (`table_<date>.csv`: one row per model configuration,
one column per task) and its categories (`categories_<date>.json`: category -> tasks).

Each row gains one derived column per category, `category:<name>`: the mean of that
category's task scores, as the LiveBench site shows it. The table has no date per row.
"""

from __future__ import annotations

import re
from pathlib import Path

from generator.importers.upstream import (
    UpstreamError,
    UpstreamRow,
    clean_text,
    parse_number,
    read_bounded,
    read_csv,
    read_json,
)

EFFORT = re.compile(r"-(?P<effort>xhigh|high|medium|low|minimal)(?:-effort|thinking)?$")
BUDGET = re.compile(r"-thinking-(?P<budget>\d+)k$")
MODE = re.compile(r"-(?P<effort>thinking|reasoning)$")


def effort_of(key: str) -> str | None:
    """The effort a LiveBench (or vals.ai) key ends with (`-xhigh`, `-thinking-64k`)."""
    if match := EFFORT.search(key):
        return match["effort"]
    if match := BUDGET.search(key):
        return f"{match['budget']}K"
    if match := MODE.search(key):
        return match["effort"]
    return None


def read_categories(path: Path, label: str, max_bytes: int) -> dict[str, list[str]]:
    """Category -> task columns."""
    doc = read_json(read_bounded(path, label, max_bytes), label)
    if not isinstance(doc, dict) or not all(
        isinstance(k, str) and isinstance(v, list) and all(isinstance(t, str) for t in v)
        for k, v in doc.items()
    ):
        raise UpstreamError([f"{label}: file: expected an object of category -> task names"])
    return {k: list(v) for k, v in doc.items()}


def read_livebench(
    path: Path, label: str, categories: dict[str, list[str]], max_bytes: int, max_rows: int
) -> list[UpstreamRow]:
    """Every model row, with `category:<name>` means added."""
    rows = read_csv(read_bounded(path, label, max_bytes), label, max_rows, ("model",))
    problems: list[str] = []
    out = []
    for number, row in enumerate(rows, start=2):
        try:
            key = clean_text(row["model"])
            values = {c: v.strip() for c, v in row.items()}
            for category, tasks in sorted(categories.items()):
                mean = _mean(row, tasks)
                values[f"category:{category}"] = "" if mean is None else repr(round(mean, 2))
        except ValueError as exc:
            problems.append(f"{label}: row {number}: {exc}")
            continue
        out.append(
            UpstreamRow(file=label, row_id=key, key=key, values=values, effort=effort_of(key))
        )
    if problems:
        raise UpstreamError(problems)
    return out


def _mean(row: dict[str, str], tasks: list[str]) -> float | None:
    """The mean of the row's task scores, None unless every task has one."""
    scores = []
    for task in tasks:
        if task not in row:
            raise ValueError(f"category task '{task}' is not a column")
        value = parse_number(row[task])
        if value is None:
            return None
        scores.append(value)
    return sum(scores) / len(scores) if scores else None
