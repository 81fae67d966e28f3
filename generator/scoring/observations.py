"""A model's projected results: one projection per benchmark, grouped by dimension."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import msgspec

from generator.input.records import BenchmarkRecord, BenchmarkResultRecord, ModelRecord
from generator.scoring.ladder import project
from generator.scoring.types import Projection, ScoredResult


def best_results(
    model: ModelRecord,
    benchmarks: Mapping[str, BenchmarkRecord],
    projected: dict[tuple[str, float], float] | None = None,
) -> dict[str, ScoredResult]:
    """One chosen row, projected, per known benchmark of `model`, in catalogue order.

    A model may carry several rows for one benchmark (one per harness); the
    highest projection wins, as for domains. Rows of unknown benchmarks are ignored.
    Offsets are not known yet (they depend on every model): `with_offsets` adds them.
    `projected` remembers `project`'s answer by (benchmark, raw value) across calls.
    """
    best: dict[str, ScoredResult] = {}
    known = {} if projected is None else projected
    for result in model.results:
        benchmark = benchmarks.get(result.benchmark)
        if benchmark is None:
            continue
        iq = known.get((result.benchmark, result.value))
        if iq is None:
            iq = project(benchmark.ladder, benchmark.direction, result.value)
            known[(result.benchmark, result.value)] = iq
        current = best.get(result.benchmark)
        if current is None or iq > current.projection.iq:
            projection = Projection(benchmark=result.benchmark, raw=result.value, iq=iq)
            best[result.benchmark] = ScoredResult(row=result, projection=projection)
    return {bid: best[bid] for bid in benchmarks if bid in best}


def projections(results: Mapping[str, ScoredResult]) -> dict[str, Projection]:
    """The projection of each chosen result, by benchmark id."""
    return {bid: result.projection for bid, result in results.items()}


def with_offsets(
    results: Mapping[str, ScoredResult],
    benchmarks: Mapping[str, BenchmarkRecord],
    offsets: Mapping[str, Mapping[str, float]],
) -> dict[str, ScoredResult]:
    """The results with each benchmark's offset in its dimension (`offsets`: slug -> id)."""
    out: dict[str, ScoredResult] = {}
    for bid, result in results.items():
        dimension = benchmarks[bid].dimension
        in_dimension = offsets.get(dimension or "", {}) if benchmarks[bid].category == "iq" else {}
        out[bid] = msgspec.structs.replace(result, offset=in_dimension.get(bid))
    return out


def group_by_dimension(
    projections: Mapping[str, Projection],
    benchmarks: Mapping[str, BenchmarkRecord],
    dimension_slugs: Sequence[str],
) -> dict[str, tuple[Projection, ...]]:
    """The model's projections per dimension slug (every slug present, maybe empty)."""
    grouped: dict[str, list[Projection]] = {slug: [] for slug in dimension_slugs}
    for benchmark_id, projection in projections.items():
        benchmark = benchmarks[benchmark_id]
        if benchmark.category == "iq" and benchmark.dimension in grouped:
            grouped[benchmark.dimension].append(projection)
    return {slug: tuple(items) for slug, items in grouped.items()}


def eq_projections(
    projections: Mapping[str, Projection], benchmarks: Mapping[str, BenchmarkRecord]
) -> tuple[Projection, ...]:
    """The model's projections on EQ benchmarks (category `eq`), in catalogue order."""
    return tuple(p for bid, p in projections.items() if benchmarks[bid].category == "eq")


class ModelResults(msgspec.Struct, frozen=True, kw_only=True):
    """A model's results as scoring starts from them (each a function of its results and
    the benchmark catalogue alone)."""

    chosen: dict[str, ScoredResult]  # `best_results`
    projected: dict[str, Projection]  # `projections` of those
    grouped: dict[str, tuple[Projection, ...]]  # `group_by_dimension` of those


class ResultMemo:
    """`ModelResults` of each model, remembered across the scorings of one run that share a
    benchmark catalogue (the history's months, where most models keep their results).

    A model whose results equal those remembered for its id gets the remembered answer;
    any other is projected afresh and replaces it. One entry per id, so the memo holds no
    more than one scoring does; scoring reads these, never changes them.
    """

    def __init__(self, benchmarks: tuple[BenchmarkRecord, ...], slugs: Sequence[str]) -> None:
        self.benchmarks = benchmarks
        self._by_id = {b.id: b for b in benchmarks}
        self._projected: dict[tuple[str, float], float] = {}  # (benchmark, raw) -> IQ
        self._slugs = tuple(slugs)
        self._known: dict[str, tuple[list[BenchmarkResultRecord], ModelResults]] = {}
        self.hits = 0  # answers remembered rather than computed

    def results(self, model: ModelRecord) -> ModelResults:
        """`model`'s `ModelResults` (the memo's benchmarks and dimension slugs)."""
        known = self._known.get(model.id)
        if known is not None and known[0] == model.results:
            self.hits += 1
            return known[1]
        chosen = best_results(model, self._by_id, self._projected)
        projected = projections(chosen)
        grouped = group_by_dimension(projected, self._by_id, self._slugs)
        found = ModelResults(chosen=chosen, projected=projected, grouped=grouped)
        self._known[model.id] = (list(model.results), found)
        return found
