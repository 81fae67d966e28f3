"""What a ladder is fitted to (docs/METHODOLOGY.md 1.3): each model's best raw result on the
benchmark and its leave-benchmark-out direct estimate of the benchmark's dimension.

The estimates come from the scoring engine's own functions (`gather_results`,
`build_population`) over the data as of the fit's date with the ladders a fit of round `k`
may use: the hand-set ones and the fitted ones of rounds below `k`. Never the benchmark's
own ladder, never one of round `k` or above, so a ladder never fits its own projections,
the order of fitting within a round does not matter and a refit of the same data with the
same round gives the same ladder.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

import msgspec

from generator.input.records import BenchmarkRecord, BenchmarkResultRecord, Dataset, ModelRecord
from generator.scoring.engine import build_population, gather_results


class Target(msgspec.Struct, frozen=True, kw_only=True):
    """One model of a fit: its raw result on the benchmark and its target IQ."""

    model: str
    raw: float
    iq: float  # the model's direct estimate of the dimension without the benchmark
    others: int  # its results in the dimension that the estimate rests on


def newest_date(dataset: Dataset, benchmark: BenchmarkRecord) -> dt.date | None:
    """The newest date of a result on `benchmark` (published models): the default as-of."""
    dates = [r.as_of for m in dataset.models for r in m.results if r.benchmark == benchmark.id]
    return max(dates, default=None)


def fit_targets(
    dataset: Dataset, benchmark: BenchmarkRecord, as_of: dt.date, fit_round: int
) -> list[Target]:
    """Every published model with a result on `benchmark` dated on or before `as_of` and a
    direct estimate of its dimension from the results of that date on the ladders a fit of
    round `fit_round` may use (`usable_ladders`), by id."""
    slug = benchmark.dimension
    if benchmark.category != "iq" or slug is None:
        raise ValueError(f"{benchmark.id} is not a benchmark of a scored dimension")
    usable = usable_ladders(dataset, benchmark, fit_round)
    dated = tuple(_as_of(model, as_of) for model in dataset.models)
    restricted = msgspec.structs.replace(dataset, benchmarks=usable, models=dated)
    _, found = gather_results(restricted)
    grouped = {m: r.grouped for m, r in found.items()}
    population = build_population(restricted, grouped)
    targets = []
    for model in dated:
        raw = best_raw(benchmark, (r for r in model.results if r.benchmark == benchmark.id))
        iq = population.direct[model.id][slug]
        if raw is not None and iq is not None:
            others = len(grouped[model.id][slug])
            targets.append(Target(model=model.id, raw=raw, iq=iq, others=others))
    return targets


def usable_ladders(
    dataset: Dataset, benchmark: BenchmarkRecord, fit_round: int
) -> tuple[BenchmarkRecord, ...]:
    """The scored benchmarks whose ladders give a round-`fit_round` fit of `benchmark` its
    targets: the hand-set ones and the fitted ones of a lower round, never `benchmark`."""
    return tuple(
        b
        for b in dataset.benchmarks
        if b.id != benchmark.id and (b.ladder_fit is None or b.ladder_fit.round < fit_round)
    )


def best_raw(benchmark: BenchmarkRecord, rows: Iterable[BenchmarkResultRecord]) -> float | None:
    """The best raw value among a model's rows (METHODOLOGY 1.1), by the benchmark's direction
    alone: the same row its projection would choose on any ladder, fitted or not."""
    values = [r.value for r in rows]
    if not values:
        return None
    return max(values) if benchmark.direction == "higher_is_better" else min(values)


def _as_of(model: ModelRecord, as_of: dt.date) -> ModelRecord:
    """`model` with the results dated on or before `as_of` only."""
    kept = [r for r in model.results if r.as_of <= as_of]
    if len(kept) == len(model.results):
        return model
    return msgspec.structs.replace(model, results=kept)
