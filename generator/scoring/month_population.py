"""`build_population` of one history month, column-wise over its models (numpy).

The same offsets, noise, direct estimates, population means and abstract predictor as
`engine.build_population`, bit for bit (the order of every sum kept: `columns.py`), with the
direct estimates and each dimension's observations left as matrices for `monthly.py`.
`tests/scoring/test_monthly.py` compares the two on every month of a synthetic catalogue
and under hypothesis.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from generator.input.records import Dataset
from generator.scoring.abstract import AbstractPredictor, fit_predictor
from generator.scoring.columns import (
    Counts,
    Flags,
    Floats,
    Projected,
    clamp,
    grouped_sums,
    projected,
    row_means,
    row_sums,
)
from generator.scoring.dimensions import Slot
from generator.scoring.engine import Population, dimension_slots, fixed_noise
from generator.scoring.noise import Summary, noise_from
from generator.scoring.observations import Flat
from generator.scoring.offsets import population_mean
from generator.scoring.types import BenchmarkNoise


@dataclass(frozen=True)
class Observed:
    """One dimension's observations `y_b` and their `sigma_b ** 2`, a row per model, `count`
    of them in each (padding after them)."""

    y: Floats
    square: Floats
    count: Counts


@dataclass(frozen=True)
class MonthPopulation:
    """`Population`'s quantities, with a row per model (in id order) where they are per model."""

    slots: tuple[Slot, ...]
    offsets: dict[str, dict[str, float]]
    noise: dict[str, BenchmarkNoise]
    direct: Floats  # models x dimensions; 0.0 where `present` is false
    present: Flags
    means: dict[str, float | None]
    predictor: AbstractPredictor | None
    observed: list[Observed]  # per dimension, in `slots` order

    def population(self, ids: Sequence[str]) -> Population:
        """The plain path's `Population` (its `direct` as dicts, for comparison)."""
        slugs = [slot.slug for slot in self.slots]
        direct = {
            m: {s: v if h else None for s, v, h in zip(slugs, values, has, strict=True)}
            for m, values, has in zip(ids, self.direct.tolist(), self.present.tolist(), strict=True)
        }
        return Population(
            slots=self.slots,
            offsets=self.offsets,
            noise=self.noise,
            sigmas={b: n.sd for b, n in self.noise.items()},
            direct=direct,
            means=self.means,
            predictor=self.predictor,
        )


def month_population(dataset: Dataset, flats: Sequence[Flat]) -> MonthPopulation:
    """`build_population` of the models whose `Flat` projections are `flats` (by id, sorted;
    flattened against `dataset`'s catalogue and `DIMENSION_SLUGS`), column-wise."""
    params = dataset.methodology.parameters
    catalogue = [b.id for b in dataset.benchmarks]
    index = {bid: i for i, bid in enumerate(catalogue)}
    slots = dimension_slots(dataset)
    found = projected(flats, len(slots))
    offsets: dict[str, dict[str, float]] = {}
    ys: list[Floats] = []
    for number, (slot, matrix) in enumerate(zip(slots, found, strict=True)):
        shift = np.zeros(len(catalogue))
        if number:  # abstract reasoning (the first) has no offsets
            offsets[slot.slug] = _offsets(matrix, catalogue, params.offset_shrinkage)
            shift[[index[b] for b in offsets[slot.slug]]] = list(offsets[slot.slug].values())
        ys.append(matrix.iq - shift[matrix.bench])  # `offsets.observations`
    noise = fixed_noise(dataset)
    fixed = {b.id: b.noise for b in dataset.benchmarks if b.noise is not None}
    for slot, matrix, y in zip(slots, found, ys, strict=True):
        members = [
            b.id for b in dataset.benchmarks if b.category == "iq" and b.dimension == slot.slug
        ]
        summaries = _summaries(matrix, y, catalogue)
        noise.update(
            noise_from(summaries, members, fixed, params.sigma_benchmark, params.kappa_noise)
        )
    squares = np.array([noise[b].sd ** 2 for b in catalogue])
    direct, present = _direct(found, ys)
    return MonthPopulation(
        slots=slots,
        offsets=offsets,
        noise=noise,
        direct=direct,
        present=present,
        means={
            slot.slug: population_mean(direct[present[:, i], i].tolist())
            for i, slot in enumerate(slots)
        },
        predictor=_predictor(direct, present),
        observed=[
            Observed(y=y, square=squares[m.bench], count=m.count)
            for m, y in zip(found, ys, strict=True)
        ],
    )


def _offsets(matrix: Projected, catalogue: Sequence[str], shrinkage: float) -> dict[str, float]:
    """`offsets.benchmark_offsets` of one dimension, by benchmark id, sorted."""
    used = matrix.used()
    total, _ = row_sums(matrix.iq, used)
    with np.errstate(invalid="ignore", divide="ignore"):
        others = (matrix.count - 1)[:, None]
        contribution = matrix.iq - (total[:, None] - matrix.iq) / others
    counted = used & (matrix.count >= 2)[:, None]
    sums = grouped_sums(matrix.bench[counted], contribution[counted])
    seen = np.unique(matrix.bench[used]).tolist()
    by_id = {catalogue[b]: sums.get(b, (0.0, 0)) for b in seen}
    return {
        bid: (total_b / (count + shrinkage) if count else 0.0)
        for bid, (total_b, count) in sorted(by_id.items())
    }


def _summaries(matrix: Projected, y: Floats, catalogue: Sequence[str]) -> dict[str, Summary]:
    """`noise._summaries` of one dimension's models with two observations or more."""
    used = matrix.used()
    counted = used & (matrix.count >= 2)[:, None]
    total, _ = row_sums(y, used)
    with np.errstate(invalid="ignore", divide="ignore"):
        error = y - (total[:, None] - y) / (matrix.count - 1)[:, None]
    squares = np.array([e**2 for e in error[counted].tolist()])  # Python's pow, as the plain path
    mean_squares = grouped_sums(matrix.bench[counted], squares)
    couplings = _couplings(matrix, counted, len(catalogue))
    summaries = {}
    for bench, (total_b, models) in mean_squares.items():
        coupling = {catalogue[j]: c / models for j, c in couplings.get(bench, {}).items()}
        summaries[catalogue[bench]] = Summary(
            models=models, mean_square=total_b / models, coupling=dict(sorted(coupling.items()))
        )
    return summaries


def _couplings(matrix: Projected, counted: Flags, size: int) -> dict[int, dict[int, float]]:
    """Per benchmark b and other benchmark j, the sum over the models with both (in order)
    of `1 / (k - 1) ** 2`, k the model's observations."""
    rows = np.flatnonzero(matrix.count >= 2)  # the others have no pairs
    width = int(matrix.count[rows].max()) if len(rows) else 0
    counted = counted[rows, :width]
    bench = matrix.bench[rows, :width]
    pairs = counted[:, :, None] & counted[:, None, :] & ~np.eye(width, dtype=bool)
    keys = bench[:, :, None] * size + bench[:, None, :]
    weight = 1.0 / ((matrix.count[rows] - 1) ** 2).astype(np.float64)
    values = np.broadcast_to(weight[:, None, None], pairs.shape)
    sums = grouped_sums(keys[pairs], values[pairs])
    couplings: dict[int, dict[int, float]] = {}
    for key, (total, _) in sums.items():
        couplings.setdefault(key // size, {})[key % size] = total
    return couplings


def _direct(found: Sequence[Projected], ys: Sequence[Floats]) -> tuple[Floats, Flags]:
    """`offsets.direct_estimate` of each model in each dimension, and where one exists."""
    direct = np.zeros((len(found[0].count) if found else 0, len(found)))
    present = np.zeros(direct.shape, dtype=bool)
    for column, (matrix, y) in enumerate(zip(found, ys, strict=True)):
        total, count = row_sums(y, matrix.used())
        with np.errstate(invalid="ignore", divide="ignore"):
            direct[:, column] = np.where(count > 0, clamp(total / count), 0.0)
        present[:, column] = count > 0
    return direct, present


def _predictor(direct: Floats, present: Flags) -> AbstractPredictor | None:
    """`engine._predictor`: abstract reasoning on the mean of the other direct dimensions."""
    x, count = row_means(direct, present, skip=0)
    usable = present[:, 0] & (count > 0)
    return fit_predictor(list(zip(x[usable].tolist(), direct[usable, 0].tolist(), strict=True)))
