"""Epoch AI Benchmarking Hub CSVs, as the hub's `benchmark_data.zip` holds them.

Two kinds of file: Epoch's own runs (`gpqa_diamond.csv`: a `Log viewer` link and a
`Started at` date per row) and external tables it compiles (`*_external.csv`, a
`Source link` per row and, in some, a `Run date`, `Date of evaluation` or `Date added`).
A model key is `Model version`, with the reasoning effort as a suffix (`gpt-5.5_xhigh`,
`claude-opus-4-5-20251101_16K`); the ARC tables name it in `Name` (`GPT-5.5 (xHigh)`).
"""

from __future__ import annotations

import re
from pathlib import Path

from generator.importers.upstream import (
    UpstreamError,
    UpstreamRow,
    clean_text,
    parse_day,
    read_bounded,
    read_csv,
)
from generator.input.urls import is_source_url

KEY = "Model version"
DATE_COLUMNS = (
    "Started at",
    "Run date",
    "Date run",
    "Date of evaluation",
    "Evaluation date",
    "Date added",
)
LINK_COLUMNS = (
    "Log viewer",
    "Source link",
    "Source Link",
    "Source link (site from table)",
    "Source",
)
HARNESS_COLUMNS = ("Agent", "Scaffold")
EFFORT = re.compile(r"_(?P<effort>xhigh|high|medium|low|minimal|none|max|\d+K|thinking|reasoning)$")
NAME_EFFORT = re.compile(r"\((?P<effort>xhigh|high|medium|low|minimal|none|max)\)$", re.IGNORECASE)
SUFFIX = re.compile(r"_(xhigh|high|medium|low|minimal|none|max|unknown|\d+K|thinking|reasoning)$")


def base_key(key: str) -> str:
    """`key` without its effort suffix (`gpt-5.5_xhigh` -> `gpt-5.5`)."""
    return SUFFIX.sub("", key)


def effort_of(key: str, name: str = "") -> str | None:
    """The effort a row names (None for none or `unknown`)."""
    match = EFFORT.search(key) or NAME_EFFORT.search(name.strip())
    if match is None:
        return None
    effort = match["effort"]
    return effort if effort[0].isdigit() else effort.lower()


def read_epoch(path: Path, label: str, max_bytes: int, max_rows: int) -> list[UpstreamRow]:
    """Every row of one Epoch AI CSV (own runs or an external table)."""
    rows = read_csv(read_bounded(path, label, max_bytes), label, max_rows, (KEY,))
    out: list[UpstreamRow] = []
    problems: list[str] = []
    for number, row in enumerate(rows, start=2):
        if not row[KEY].strip():
            continue  # a row Epoch keeps for a model it has no version key for
        try:
            out.append(_row(row, label))
        except ValueError as exc:
            problems.append(f"{label}: row {number}: {exc}")
    if problems:
        raise UpstreamError(problems)
    return out


def _row(row: dict[str, str], label: str) -> UpstreamRow:
    key = clean_text(row[KEY])
    name = clean_text(row.get("Name", ""))
    harness = next((clean_text(row[c]) for c in HARNESS_COLUMNS if row.get(c, "").strip()), None)
    row_id = clean_text(row.get("id") or row.get("ID") or "")
    if not row_id:  # tables without an id column: the key and harness name the row
        row_id = key if harness is None else f"{key}|{harness}"
    return UpstreamRow(
        file=label,
        row_id=row_id,
        key=key,
        values={column: cell.strip() for column, cell in row.items()},
        date=next((d for c in DATE_COLUMNS if (d := parse_day(row.get(c, ""))) is not None), None),
        url=_link(row),
        harness=harness,
        effort=effort_of(key, name),
        name=name,
    )


def _link(row: dict[str, str]) -> str | None:
    """The row's first link that data/ takes as a URL; None (the file's URL stands in)
    when it has none: `https://user@aider.chat/` reads as aider.chat but goes elsewhere."""
    for column in LINK_COLUMNS:
        text = row.get(column, "").strip()
        if is_source_url(text):
            return text
    return None
