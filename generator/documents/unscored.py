"""The benchmarks in the catalogue that no score counts yet (docs/METHODOLOGY.md 1.3).

Their results are kept in the model files, checked like any other, and fitted by
`modelscores ladders fit` once enough models with a target have run them; until then
`/methodology` names them, so a reader sees what is measured but not yet scored.
"""

from __future__ import annotations

from generator.api.contract import UnscoredBenchmark
from generator.input.records import Dataset

REASON = (
    "No ladder yet: it is fitted (modelscores ladders fit) once enough published models with"
    " an estimate of its dimension have run it and the fit passes its held-out check."
)


def result_counts(dataset: Dataset) -> dict[str, int]:
    """Published models with at least one result on each benchmark id."""
    counts: dict[str, int] = {}
    for model in dataset.models:
        for benchmark_id in {r.benchmark for r in model.results}:
            counts[benchmark_id] = counts.get(benchmark_id, 0) + 1
    return counts


def unscored_benchmarks(dataset: Dataset) -> list[UnscoredBenchmark]:
    """Every unscored benchmark of the catalogue, by id."""
    counts = result_counts(dataset)
    return [
        UnscoredBenchmark(
            id=b.id,
            name=b.name,
            dimension=b.dimension,
            models=counts.get(b.id, 0),
            source_url=b.source_url,
            reason=REASON,
        )
        for b in sorted(dataset.unscored, key=lambda b: b.id)
    ]
