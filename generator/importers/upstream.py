"""Reading upstream files as untrusted input: size and row limits first, one line per problem.

An upstream file is read only if it is a regular file (not a link) no larger than its
source's `max_bytes`; a table may hold at most `max_rows` rows. Every problem is one line
`<raw path>: <where>: <problem>` collected into `UpstreamError`, never a traceback.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import math
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import rtoml

from generator.errors import DataError
from generator.input.text import line_problem

MAX_CELL = 4000  # as a data file's text field (records.Text)
_DAY = re.compile(r"\A(\d{4})-(\d{2})-(\d{2})")
MAX_JSON_DEPTH = 32


class UpstreamError(DataError):
    """Problems with upstream files, one line each."""


@dataclass(frozen=True)
class UpstreamRow:
    """One row of an upstream table, as its adapter read it.

    `key` is the upstream's model key as written (`gpt-5.5_xhigh`); `values` the row's
    cells by column (an adapter may add derived columns, e.g. a category mean);
    `date` and `url` the row's own date and link where it has them.
    """

    file: str
    row_id: str
    key: str
    values: dict[str, str]
    date: dt.date | None = None
    url: str | None = None
    harness: str | None = None
    effort: str | None = None
    name: str = ""
    as_of_kind: str | None = None  # what `date` is when not the run's date (METHODOLOGY 1.2)


@dataclass
class Problems:
    """Problems found while reading, one line each."""

    lines: list[str] = field(default_factory=list)

    def add(self, where: str, field_name: str, problem: str) -> None:
        self.lines.append(f"{where}: {field_name}: {problem}")


def read_bounded(path: Path, label: str, max_bytes: int) -> bytes:
    """The bytes of a regular file of at most `max_bytes`, or `UpstreamError`."""
    try:
        info = path.lstat()
    except FileNotFoundError:
        raise UpstreamError([f"{label}: file: not found"]) from None
    except OSError as exc:
        raise UpstreamError([f"{label}: file: cannot read ({exc.strerror or exc})"]) from None
    if not stat.S_ISREG(info.st_mode):
        raise UpstreamError([f"{label}: file: not a regular file (links are not followed)"])
    if info.st_size > max_bytes:
        raise UpstreamError(
            [f"{label}: file: {info.st_size} bytes, more than the limit of {max_bytes}"]
        )
    with path.open("rb") as handle:
        data = handle.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise UpstreamError([f"{label}: file: more than the limit of {max_bytes} bytes"])
    return data


def decode_text(data: bytes, label: str) -> str:
    """UTF-8 text (a BOM is dropped) or `UpstreamError`."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UpstreamError([f"{label}: file: not UTF-8 (byte {exc.start})"]) from None
    return text.removeprefix("\ufeff")


def read_csv(
    data: bytes, label: str, max_rows: int, required: tuple[str, ...]
) -> list[dict[str, str]]:
    """The rows of a CSV table with a header naming every `required` column."""
    text = decode_text(data, label)
    if text and not text.endswith("\n"):
        raise UpstreamError([f"{label}: file: does not end with a line break (truncated?)"])
    try:
        reader = csv.reader(io.StringIO(text, newline=""), strict=True)
        header = next(reader, None)
        if header is None:
            raise UpstreamError([f"{label}: header: the file is empty"])
        missing = [name for name in required if name not in header]
        if missing:
            raise UpstreamError([f"{label}: header: missing column '{missing[0]}'"])
        rows: list[dict[str, str]] = []
        for number, cells in enumerate(reader, start=2):
            if len(rows) >= max_rows:
                raise UpstreamError([f"{label}: rows: more than the limit of {max_rows} rows"])
            if not any(cell.strip() for cell in cells):
                continue
            if len(cells) > len(header):
                raise UpstreamError(
                    [f"{label}: row {number}: {len(cells)} fields, the header has {len(header)}"]
                )
            # A short row leaves its last cells empty (as the site's own CSV reader does).
            cells += [""] * (len(header) - len(cells))
            rows.append(dict(zip(header, cells, strict=True)))
    except csv.Error as exc:
        raise UpstreamError([f"{label}: table: not valid CSV ({exc})"]) from None
    return rows


def read_json(data: bytes, label: str) -> Any:
    """A JSON document no deeper than `MAX_JSON_DEPTH`, or `UpstreamError`."""
    text = decode_text(data, label)
    try:
        value = json.loads(text, parse_constant=_no_constant)
    except (ValueError, RecursionError) as exc:
        raise UpstreamError([f"{label}: file: not valid JSON ({_first_line(exc)})"]) from None
    if _depth(value) > MAX_JSON_DEPTH:
        raise UpstreamError([f"{label}: file: nested deeper than {MAX_JSON_DEPTH}"])
    return value


def read_toml(data: bytes, label: str) -> dict[str, Any]:
    """A TOML document, or `UpstreamError`."""
    text = decode_text(data, label)
    try:
        value = rtoml.loads(text)
    except (rtoml.TomlParsingError, ValueError, RecursionError) as exc:
        raise UpstreamError([f"{label}: file: not valid TOML ({_first_line(exc)})"]) from None
    return value


def _no_constant(name: str) -> float:
    raise ValueError(f"{name} is not a number")


def _first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0][:200]


def _depth(value: Any) -> int:
    """How deep `value` nests, a scalar counting as a level (`[1]` is 2), or a figure past
    `MAX_JSON_DEPTH` once it gets there. Only containers are walked: a leaf's level is its
    container's plus one (pushing every leaf was most of an import's reading time)."""
    deepest = 1
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children = item.values() if isinstance(item, dict) else item
        if not isinstance(item, dict | list) or not children:
            continue
        deepest = max(deepest, depth + 1)
        if deepest > MAX_JSON_DEPTH:
            return deepest
        stack.extend((child, depth + 1) for child in children if isinstance(child, dict | list))
    return deepest


def text_problem(value: str) -> str | None:
    """Why a text cell cannot go into a data file (the loader's one-line rules), or None.
    An empty cell is an absent value (each importer decides what that means), not a blank."""
    if not value:
        return None
    if len(value) > MAX_CELL:
        return f"longer than {MAX_CELL} characters"
    return line_problem(value)


def clean_text(value: str) -> str:
    """`value` stripped, checked by `text_problem` (raising `ValueError`)."""
    value = value.strip()
    problem = text_problem(value)
    if problem is not None:
        raise ValueError(problem)
    return value


def parse_day(text: str) -> dt.date | None:
    """The date a cell starts with (`2026-04-24`, `2026-04-24 13:02:11+00:00`), or None."""
    match = _DAY.match(text.strip())
    if match is None:
        return None
    try:
        return dt.date(int(match[1]), int(match[2]), int(match[3]))
    except ValueError:
        return None


def parse_number(text: str) -> float | None:
    """A finite number in a cell (None for an empty cell); `ValueError` for anything else."""
    text = text.strip().removesuffix("%")
    if not text:
        return None
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"'{text}' is not a finite number")
    return value


def source_value(value: float) -> float:
    """A value at the precision its source meant, without binary float noise.

    `0.9500000000000001` (95.00% / 100 in floating point) becomes `0.95`: the shortest
    decimal of at most 12 significant digits within one unit in the last place; a value
    with real precision (`0.9400252525252525` = 372.25/396) is kept as it is.
    """
    for digits in range(1, 13):
        short = float(f"{value:.{digits}g}")
        if abs(short - value) <= math.ulp(value):
            return short
    return value
