"""EQ-Bench 3 and Spiral-Bench leaderboards, the CSV blocks the eqbench.com site embeds
(`leaderboardDataEQBench3`, `leaderboardDataDelusion`), one row per model (`model_name`).
The tables have no date per row. A leading `*` of a name is kept as the site writes it.
"""

from __future__ import annotations

from pathlib import Path

from generator.importers.upstream import (
    UpstreamError,
    UpstreamRow,
    clean_text,
    read_bounded,
    read_csv,
)

KEY = "model_name"


def read_eqbench(path: Path, label: str, max_bytes: int, max_rows: int) -> list[UpstreamRow]:
    """Every model row."""
    rows = read_csv(read_bounded(path, label, max_bytes), label, max_rows, (KEY,))
    out = []
    problems = []
    for number, row in enumerate(rows, start=2):
        try:
            key = clean_text(row[KEY])
        except ValueError as exc:
            problems.append(f"{label}: row {number}: {KEY}: {exc}")
            continue
        values = {c: v.strip() for c, v in row.items()}
        out.append(UpstreamRow(file=label, row_id=key, key=key, values=values))
    if problems:
        raise UpstreamError(problems)
    return out
