"""A model's projected results: one projection per benchmark, grouped by dimension."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from generator.input.records import BenchmarkRecord, ModelRecord
from generator.scoring.ladder import project
from generator.scoring.types import Projection


def best_projections(
    model: ModelRecord, benchmarks: Mapping[str, BenchmarkRecord]
) -> dict[str, Projection]:
    """One projection per known benchmark of `model`, in catalogue order.

    A model may carry several rows for one benchmark (one per harness); the
    highest projection wins, as for domains. Rows of unknown benchmarks are ignored.
    """
    best: dict[str, Projection] = {}
    for result in model.results:
        benchmark = benchmarks.get(result.benchmark)
        if benchmark is None:
            continue
        iq = project(benchmark.ladder, benchmark.direction, result.value)
        current = best.get(result.benchmark)
        if current is None or iq > current.iq:
            best[result.benchmark] = Projection(benchmark=result.benchmark, raw=result.value, iq=iq)
    return {bid: best[bid] for bid in benchmarks if bid in best}


def group_by_dimension(
    projections: Mapping[str, Projection],
    benchmarks: Mapping[str, BenchmarkRecord],
    dimension_slugs: Sequence[str],
) -> dict[str, tuple[Projection, ...]]:
    """The model's projections per dimension slug (every slug present, maybe empty)."""
    grouped: dict[str, list[Projection]] = {slug: [] for slug in dimension_slugs}
    for benchmark_id, projection in projections.items():
        dimension = benchmarks[benchmark_id].dimension
        if benchmarks[benchmark_id].category == "iq" and dimension in grouped:
            grouped[dimension].append(projection)
    return {slug: tuple(items) for slug, items in grouped.items()}


def eq_projections(
    projections: Mapping[str, Projection], benchmarks: Mapping[str, BenchmarkRecord]
) -> tuple[Projection, ...]:
    """The model's projections on EQ benchmarks (category `eq`), in catalogue order."""
    return tuple(p for bid, p in projections.items() if benchmarks[bid].category == "eq")
