"""A fitted ladder written into its benchmark's TOML file, the rest of the file as it was.

The file is edited line by line (its comments, order and other fields kept): the top-level
`ladder`, `confidence` and `fitted_iq` lines are replaced or added, and the `[ladder_fit]`
table is replaced or added before a `[private]` table. A refused fit leaves the benchmark
unscored: no ladder, no fitted range, no fit.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from generator.ladders.fit import LadderFit

HEADER = re.compile(r"\A\[\[?\s*([A-Za-z0-9_.-]+)\s*\]\]?\s*(?:#.*)?\Z")
FIT_TABLE = "ladder_fit"


def unscored_text(text: str) -> str:
    """`text` (a benchmark file) without its ladder, fitted range and fit: unscored."""
    top, tables = _split(text.splitlines())
    for key in ("ladder", "fitted_iq"):
        top = _without(top, key)
    return _join(top, _without_table(tables, FIT_TABLE))


def fitted_text(text: str, fit: LadderFit) -> str:
    """`text` (a benchmark file) with `fit` as its ladder, or unscored if `fit` is refused."""
    if fit.refused is not None:
        return unscored_text(text)
    top, tables = _split(text.splitlines())
    top = _set(top, "ladder", _floats(fit.ladder), before="source_name")
    top = _set(top, "confidence", f'"{fit.confidence}"', before="source_name")
    top = _set(top, "fitted_iq", f"[{fit.fitted_iq[0]}, {fit.fitted_iq[1]}]", before=None)
    table = [f"[{FIT_TABLE}]", *(f"{k} = {v}" for k, v in fit_fields(fit))]
    return _join(top, _with_table(_without_table(tables, FIT_TABLE), table))


def fit_fields(fit: LadderFit) -> list[tuple[str, str]]:
    """The `[ladder_fit]` keys and their TOML values, in `LadderFitRecord`'s order."""
    check = fit.check
    return [
        ("method", f'"{fit.method}"'),
        ("parameters", _floats(fit.parameters)),
        ("as_of", fit.as_of.isoformat()),
        ("round", str(fit.round)),
        ("models", str(fit.models)),
        ("residual_sd", _float(fit.residual_sd)),
        ("check_models", str(check.models)),
        ("coverage", _float(check.coverage)),
        ("mean_log_predictive_density", _float(check.mean_log_predictive_density)),
        ("mean_absolute_error", _float(check.mean_absolute_error)),
    ]


def _float(value: float) -> str:
    text = repr(value)
    return text if ("e" in text or "." in text or "n" in text) else text + ".0"


def _floats(values: Sequence[float]) -> str:
    return "[" + ", ".join(_float(v) for v in values) + "]"


def _split(lines: list[str]) -> tuple[list[str], list[str]]:
    """The lines before the first table header (a `[name]` line at column 0), and the rest."""
    for index, line in enumerate(lines):
        if HEADER.match(line):
            return lines[:index], lines[index:]
    return lines, []


def _key_span(top: list[str], key: str) -> tuple[int, int] | None:
    """Where the top-level `key = ...` stands: its first line and one past its last."""
    pattern = re.compile(rf"\A{re.escape(key)}\s*=")
    for start, line in enumerate(top):
        if pattern.match(line):
            end = start + 1
            depth = line.count("[") - line.count("]")
            while depth > 0 and end < len(top):
                depth += top[end].count("[") - top[end].count("]")
                end += 1
            return start, end
    return None


def _set(top: list[str], key: str, value: str, before: str | None) -> list[str]:
    line = f"{key} = {value}"
    span = _key_span(top, key)
    if span is not None:
        return [*top[: span[0]], line, *top[span[1] :]]
    anchor = _key_span(top, before) if before is not None else None
    if anchor is None:
        end = len(top)
        while end > 0 and not top[end - 1].strip():
            end -= 1
        return [*top[:end], line, *top[end:]]
    return [*top[: anchor[0]], line, *top[anchor[0] :]]


def _without(top: list[str], key: str) -> list[str]:
    span = _key_span(top, key)
    return top if span is None else [*top[: span[0]], *top[span[1] :]]


def _table_spans(tables: list[str]) -> list[tuple[str, int, int]]:
    """Each table's name, first line and one past its last."""
    starts = [(i, m.group(1)) for i, line in enumerate(tables) if (m := HEADER.match(line))]
    ends = [i for i, _ in starts[1:]] + [len(tables)] if starts else []
    return [(name, start, end) for (start, name), end in zip(starts, ends, strict=True)]


def _without_table(tables: list[str], name: str) -> list[str]:
    for found, start, end in _table_spans(tables):
        if found == name:
            return [*tables[:start], *tables[end:]]
    return tables


def _with_table(tables: list[str], table: list[str]) -> list[str]:
    """`table` before a `[private]` table, else at the end, a blank line before each."""
    for found, start, _ in _table_spans(tables):
        if found == "private":
            return [*tables[:start], *table, "", *tables[start:]]
    body = list(tables)
    while body and not body[-1].strip():
        body.pop()
    return [*body, *([""] if body else []), *table]


def _join(top: list[str], tables: list[str]) -> str:
    body = list(top)
    while body and not body[-1].strip():
        body.pop()
    if tables:
        body += ["", *tables]
    while body and not body[-1].strip():
        body.pop()
    return "\n".join(body) + "\n"
