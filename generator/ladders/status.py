"""Which ladder each benchmark has: set by hand, fitted by the project, or none (unscored)."""

from __future__ import annotations

from generator.input.records import BenchmarkRecord, Dataset
from generator.ladders.fit import MIN_MODELS


def result_counts(dataset: Dataset) -> dict[str, int]:
    """Published models with at least one result on each benchmark id."""
    counts: dict[str, int] = {}
    for model in dataset.models:
        for benchmark_id in {r.benchmark for r in model.results}:
            counts[benchmark_id] = counts.get(benchmark_id, 0) + 1
    return counts


def unscored_benchmarks(dataset: Dataset) -> list[str]:
    """One line per unscored benchmark and why (for a report): `id: unscored, N models ...`."""
    counts = result_counts(dataset)
    return [_line(b, counts.get(b.id, 0)) for b in dataset.unscored]


def ladder_status(dataset: Dataset) -> list[str]:
    """One line per benchmark, scored ones in catalogue order then the unscored ones."""
    counts = result_counts(dataset)
    return [_line(b, counts.get(b.id, 0)) for b in (*dataset.benchmarks, *dataset.unscored)]


def _line(benchmark: BenchmarkRecord, models: int) -> str:
    where = benchmark.dimension or benchmark.category
    head = f"{benchmark.id} ({where}, {models} models with a result):"
    fit = benchmark.ladder_fit
    if not benchmark.ladder:
        return (
            f"{head} unscored (no ladder until `ladders fit` finds {MIN_MODELS} models with a"
            " target and a ladder that passes its check)"
        )
    if fit is None:
        return f"{head} hand-set ladder, confidence {benchmark.confidence}"
    return (
        f"{head} fitted ladder (round {fit.round}), {fit.method} on {fit.models} models as of"
        f" {fit.as_of},"
        f" confidence {benchmark.confidence}, held-out coverage {fit.coverage:.1%}"
    )
