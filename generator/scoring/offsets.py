"""Benchmark offsets and direct dimension estimates (docs/METHODOLOGY.md section 2.2)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence

import numpy as np

from generator.scoring.ladder import clamp_iqs
from generator.scoring.padded import Padded, add_by_benchmark, leave_one_out, pad, row_means
from generator.scoring.types import Projection


def benchmark_offsets(
    dimension_projections: Iterable[Sequence[Projection]], shrinkage: float
) -> dict[str, float]:
    """`offsets_of` the models' projections in one dimension, one sequence per model."""
    return offsets_of(
        pad([[(p.benchmark, p.iq) for p in ps] for ps in dimension_projections]), shrinkage
    )


def offsets_of(table: Padded, shrinkage: float) -> dict[str, float]:
    """Offset `o_b` of every benchmark seen in one dimension's `table` (a row per model),
    sorted by benchmark id.

    For each model with at least two results in the dimension, each result adds
    `f_b(raw) - mean(the model's other projections in the dimension)` to its
    benchmark's sum; the offset is `sum / (n + shrinkage)` (0 when n = 0).
    """
    cells = table.mask & (table.counts >= 2)[:, None]
    sums = add_by_benchmark(table, cells, leave_one_out(table.values, table.mask)).tolist()
    counts = np.bincount(table.bench[cells], minlength=len(table.benchmarks)).tolist()
    return {
        b: (sums[i] / (counts[i] + shrinkage) if counts[i] else 0.0)
        for i, b in enumerate(table.benchmarks)
    }


def observations(
    projections: Sequence[Projection], offsets: Mapping[str, float]
) -> tuple[float, ...]:
    """Observations `y_b = f_b(raw_b) - o_b`, in the order of `projections`."""
    get = offsets.get
    return tuple([p.iq - get(p.benchmark, 0.0) for p in projections])


def direct_estimates(table: Padded, offsets: Mapping[str, float]) -> list[float | None]:
    """Each row's direct estimate in one dimension: the clamped mean of its observations
    `f_b(raw) - o_b`, None without any.

    Used where the methodology needs a model's "direct dimension estimate" that
    does not depend on a prior: the cross-dimension prior, the population mean
    and the abstract-reasoning predictor.
    """
    means = clamp_iqs(row_means(table.values - table.per_benchmark(offsets, 0.0), table.mask))
    return [m if n else None for m, n in zip(means.tolist(), table.counts.tolist(), strict=True)]


def direct_estimate(values: Sequence[float]) -> float | None:
    """`direct_estimates` of one model's observations (offsets already subtracted)."""
    return direct_estimates(pad([[("", v) for v in values]]), {})[0]


def population_mean(estimates: Iterable[float | None]) -> float | None:
    """Mean of the direct estimates that exist; None when there are none."""
    present = [value for value in estimates if value is not None]
    return math.fsum(present) / len(present) if present else None
