"""Benchmark offsets and direct dimension estimates (docs/METHODOLOGY.md section 2.2)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence

from generator.scoring.ladder import clamp_iq
from generator.scoring.types import Projection


def benchmark_offsets(
    dimension_projections: Iterable[Sequence[Projection]], shrinkage: float
) -> dict[str, float]:
    """Offset `o_b` of every benchmark seen in one dimension, sorted by benchmark id.

    For each model with at least two results in the dimension, each result adds
    `f_b(raw) - mean(the model's other projections in the dimension)` to its
    benchmark's sum; the offset is `sum / (n + shrinkage)` (0 when n = 0).
    """
    sums: dict[str, float] = {}
    counts: dict[str, int] = {}
    for projections in dimension_projections:
        for projection in projections:
            sums.setdefault(projection.benchmark, 0.0)
            counts.setdefault(projection.benchmark, 0)
        if len(projections) < 2:
            continue
        total = math.fsum(p.iq for p in projections)
        others = len(projections) - 1
        for projection in projections:
            sums[projection.benchmark] += projection.iq - (total - projection.iq) / others
            counts[projection.benchmark] += 1
    return {
        bid: (sums[bid] / (counts[bid] + shrinkage) if counts[bid] else 0.0) for bid in sorted(sums)
    }


def observations(
    projections: Sequence[Projection], offsets: Mapping[str, float]
) -> tuple[float, ...]:
    """Observations `y_b = f_b(raw_b) - o_b`, in the order of `projections`."""
    get = offsets.get
    return tuple([p.iq - get(p.benchmark, 0.0) for p in projections])


def direct_estimate(values: Sequence[float]) -> float | None:
    """A dimension's direct estimate: the clamped mean of its observations, None if none.

    Used where the methodology needs a model's "direct dimension estimate" that
    does not depend on a prior: the cross-dimension prior, the population mean
    and the abstract-reasoning predictor.
    """
    if not values:
        return None
    return clamp_iq(math.fsum(values) / len(values))


def population_mean(estimates: Iterable[float | None]) -> float | None:
    """Mean of the direct estimates that exist; None when there are none."""
    present = [value for value in estimates if value is not None]
    return math.fsum(present) / len(present) if present else None
