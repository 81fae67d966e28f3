"""LMArena's leaderboard JSON (`lmarena/arena-catalog` `data/leaderboard-text*.json`):
category -> model -> {rating, rating_q025, rating_q975}. Each (category, model) is a row
with columns `category` and `rating`; the file has no date per row."""

from __future__ import annotations

import math
from pathlib import Path

from generator.importers.upstream import (
    UpstreamError,
    UpstreamRow,
    clean_text,
    read_bounded,
    read_json,
)


def read_lmarena(path: Path, label: str, max_bytes: int, max_rows: int) -> list[UpstreamRow]:
    """Every (category, model) rating."""
    doc = read_json(read_bounded(path, label, max_bytes), label)
    if not isinstance(doc, dict):
        raise UpstreamError([f"{label}: file: expected an object of category -> models"])
    out: list[UpstreamRow] = []
    problems = []
    for category, models in sorted(doc.items()):
        if not isinstance(models, dict):
            problems.append(f"{label}: {category}: expected an object of model -> rating")
            continue
        for key, entry in sorted(models.items()):
            rating = entry.get("rating") if isinstance(entry, dict) else None
            if (
                isinstance(rating, bool)
                or not isinstance(rating, int | float)
                or not math.isfinite(rating)
            ):
                problems.append(f"{label}: {category}.{key}.rating: not a finite number")
                continue
            try:
                name, cat = clean_text(key), clean_text(category)
            except ValueError as exc:
                problems.append(f"{label}: {category}: {exc}")
                continue
            if len(out) >= max_rows:
                raise UpstreamError([f"{label}: rows: more than the limit of {max_rows} rows"])
            out.append(
                UpstreamRow(
                    file=label,
                    row_id=f"{cat}/{name}",
                    key=name,
                    values={"category": cat, "rating": repr(float(rating))},
                )
            )
    if problems:
        raise UpstreamError(problems)
    return out
