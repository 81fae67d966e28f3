"""vals.ai results, as its public scores table lists them (the `dot-mike/vals-ai-scrape`
`data/scores.csv` layout): one row per benchmark, task and model, with the benchmark's
update date, the accuracy in percent, the cost per test and the reasoning effort."""

from __future__ import annotations

from pathlib import Path

from generator.importers.livebench import effort_of
from generator.importers.upstream import (
    UpstreamError,
    UpstreamRow,
    clean_text,
    parse_day,
    read_bounded,
    read_csv,
)
from generator.input.urls import is_source_url

COLUMNS = ("benchmark", "task", "model", "accuracy", "benchmark_updated")
PAGE = "https://www.vals.ai/benchmarks/"


def read_vals(path: Path, label: str, max_bytes: int, max_rows: int) -> list[UpstreamRow]:
    """Every row; its link is the benchmark's vals.ai page, its date `benchmark_updated`."""
    rows = read_csv(read_bounded(path, label, max_bytes), label, max_rows, COLUMNS)
    out = []
    problems = []
    for number, row in enumerate(rows, start=2):
        try:
            key, bench, task = (clean_text(row[c]) for c in ("model", "benchmark", "task"))
        except ValueError as exc:
            problems.append(f"{label}: row {number}: {exc}")
            continue
        effort = row.get("reasoning_effort", "").strip() or effort_of(key)
        out.append(
            UpstreamRow(
                file=label,
                row_id=f"{bench}/{task}/{key}",
                key=key,
                values={c: v.strip() for c, v in row.items()},
                date=parse_day(row["benchmark_updated"]),
                url=_page(bench),
                effort=effort if effort and effort != "none" else None,
            )
        )
    if problems:
        raise UpstreamError(problems)
    return out


def _page(bench: str) -> str | None:
    """The benchmark's page on vals.ai, when its name makes a URL data/ takes; else None
    (the file's URL stands in)."""
    page = PAGE + bench
    plain = bench.replace("-", "").replace("_", "").isalnum()
    return page if plain and is_source_url(page) else None
