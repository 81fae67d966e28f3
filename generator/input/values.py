"""Checks of raw values: bounds per benchmark.

docs/METHODOLOGY.md section 1: every benchmark (scored, EQ, domain) declares the bounds of a
valid raw value; a result outside them is a data error, never clamped. Efforts are labels
(section 1.1, version 3): each benchmark takes the model's best published row at any
setting and carries that setting, so results of one benchmark family may differ in effort.
"""

from __future__ import annotations

import calendar
import datetime as dt
import math
import re
from collections.abc import Mapping
from typing import Protocol

from generator.input.loaded import Loaded, Records
from generator.input.records import CUTOFF_PATTERN, BenchmarkRecord, ModelRecord


class Bounded(Protocol):
    """A benchmark record with declared value bounds (scored, EQ or domain)."""

    @property
    def id(self) -> str: ...
    @property
    def min_value(self) -> float | None: ...
    @property
    def max_value(self) -> float | None: ...


def check_values(records: Records) -> list[str]:
    """Every bounds problem of `records`."""
    problems: list[str] = []
    for bench in records.benchmarks:
        problems += check_declared(bench.label, "", bench.record)
    for domain in records.domains:
        for index, domain_bench in enumerate(domain.record.benchmarks):
            problems += check_declared(domain.label, f"benchmarks[{index}].", domain_bench)
        by_id = {b.id: b for b in domain.record.benchmarks}
        for index, row in enumerate(domain.record.results):
            if row.benchmark in by_id:
                problems += check_value(
                    domain.label, f"results[{index}].score", row.score, by_id[row.benchmark]
                )
    benchmarks = {b.record.id: b.record for b in records.benchmarks}
    for model in records.models:
        problems += _check_model_values(model, benchmarks)
    return problems


def check_declared(label: str, prefix: str, bench: Bounded) -> list[str]:
    """A benchmark declares a lower bound, and its bounds are in order."""
    low, high = bench.min_value, bench.max_value
    if low is None:
        return [
            f"{label}: {prefix}min_value: missing (every benchmark declares the bounds of a"
            " valid raw value)"
        ]
    if high is not None and not low < high:
        return [f"{label}: {prefix}max_value: {high!r} must be above min_value {low!r}"]
    return []


def check_value(label: str, where: str, value: float, bench: Bounded) -> list[str]:
    """`value` lies within the bounds `bench` declares."""
    low, high = bench.min_value, bench.max_value
    if low is None or (high is not None and not low < high) or not math.isfinite(value):
        return []  # reported once, by check_declared or the loader's finite check
    upper = math.inf if high is None else high
    if low <= value <= upper:
        return []
    return [
        f"{label}: {where}: {value!r} is outside the bounds {describe_bounds(bench)}"
        f" of benchmark '{bench.id}'"
    ]


def describe_bounds(bench: Bounded) -> str:
    """`[0.0, 1.0]`, or `[0.0, no upper bound]` for a count or a time."""
    high = "no upper bound" if bench.max_value is None else repr(bench.max_value)
    return f"[{bench.min_value!r}, {high}]"


def _check_model_values(
    item: Loaded[ModelRecord], benchmarks: Mapping[str, BenchmarkRecord]
) -> list[str]:
    problems: list[str] = []
    cutoff = item.record.knowledge_cutoff
    if cutoff is not None and cutoff_day(cutoff) is None:
        problems.append(f"{item.label}: knowledge_cutoff: {cutoff!r} is not a calendar date")
    for index, result in enumerate(item.record.results):
        bench = benchmarks.get(result.benchmark)
        if bench is not None:
            problems += check_value(item.label, f"results[{index}].value", result.value, bench)
    by_field = {b.field: b for b in benchmarks.values()}
    for index, config in enumerate(item.record.reasoning_configurations):
        for key, value in config.values.items():
            if key in by_field:
                where = f"reasoning_configurations[{index}].values.{key}"
                problems += check_value(item.label, where, value, by_field[key])
    return problems


def cutoff_day(text: str | None) -> dt.date | None:
    """A knowledge cutoff (`2025-04` or `2025-04-15`) as a day: a month counts as its last
    day (docs/METHODOLOGY.md 1.4); None when absent or not a calendar date."""
    if text is None or re.match(CUTOFF_PATTERN, text) is None:
        return None
    parts = text.split("-")
    try:
        year, month = int(parts[0]), int(parts[1])
        day = int(parts[2]) if len(parts) == 3 else calendar.monthrange(year, month)[1]
        return dt.date(year, month, day)
    except (IndexError, ValueError):
        return None
