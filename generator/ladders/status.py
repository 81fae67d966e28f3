"""Which ladder each benchmark has: set by hand, fitted by the project, or none (unscored)."""

from __future__ import annotations

from generator.documents.unscored import result_counts
from generator.input.records import BenchmarkRecord, Dataset
from generator.ladders.fit import MIN_MODELS


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
            f"{head} unscored: no ladder yet (`ladders fit` writes one once {MIN_MODELS} or more"
            " models with a target give a ladder that passes its checks; run it to see why not)"
        )
    if fit is None:
        return f"{head} hand-set ladder, confidence {benchmark.confidence}"
    return (
        f"{head} fitted ladder (round {fit.round}), {fit.method} on {fit.models} models as of"
        f" {fit.as_of},"
        f" confidence {benchmark.confidence}, held-out coverage {fit.coverage:.1%}"
    )
