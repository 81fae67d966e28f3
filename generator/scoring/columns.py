"""One month's projected results as matrices, and the exact column-wise arithmetic on them.

The column-wise history scoring (`month_population.py`, `monthly.py`) holds each dimension's
projections as a matrix, a row per model, and must round as the plain path does. These
helpers keep its order: a row's sum adds one column at a time, left to right, where the
column has a term (`np.where`, never a padding zero), from 0.0 as Python's `sum` of floats
starts; a sum over models is Python's own `sum`, over the values in model order.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from operator import attrgetter
from typing import Any

import numpy as np
from numpy.typing import NDArray

from generator.scoring.ladder import IQ_MAX, IQ_MIN
from generator.scoring.observations import Flat

Floats = NDArray[np.float64]
Flags = NDArray[np.bool_]
Counts = NDArray[np.intp]

PLAIN_SUM = sum([1e16, 1.0, -1e16]) == 0.0
"""Python's `sum` of floats adds left to right (3.11; 3.12 compensates, and a column-wise
sum would no longer be Python's): without it the history scores one model at a time."""


@dataclass(frozen=True)
class Projected:
    """One dimension's projections of every model: a row per model, its `count` projections
    first (in the plain path's order), padding after them."""

    iq: Floats
    bench: Counts  # each projection's benchmark, as an index into the month's catalogue
    count: Counts

    def used(self) -> Flags:
        """Where a row has a projection (not padding)."""
        used: Flags = np.arange(self.iq.shape[1]) < self.count[:, None]
        return used


def projected(flats: Sequence[Flat], dimensions: int) -> list[Projected]:
    """Each dimension's `Projected`, a row per model's `Flat` (in the order given)."""
    dimensions_of = list(map(attrgetter("dimensions"), flats))
    lengths = np.fromiter(map(len, dimensions_of), np.intp, len(flats)) // 8
    dimension = _joined(dimensions_of, np.int64)
    iqs = _joined(map(attrgetter("iqs"), flats), np.float64)
    benchmarks = _joined(map(attrgetter("benchmarks"), flats), np.int64)
    owner = np.repeat(np.arange(len(flats)), lengths)
    found = []
    for number in range(dimensions):
        chosen = dimension == number  # a row's projections in one dimension, in their order
        rows = owner[chosen]
        count = np.bincount(rows, minlength=len(flats)).astype(np.intp)
        columns = np.arange(len(rows)) - np.repeat(np.cumsum(count) - count, count)
        width = int(count.max()) if len(count) else 0
        iq = np.zeros((len(flats), width))
        bench = np.zeros((len(flats), width), dtype=np.intp)
        iq[rows, columns] = iqs[chosen]
        bench[rows, columns] = benchmarks[chosen]
        found.append(Projected(iq=iq, bench=bench, count=count))
    return found


def _joined(parts: Iterable[bytes], kind: type[np.generic]) -> NDArray[Any]:
    """Packed arrays (`observations.Flat`'s fields) joined into one numpy array."""
    return np.frombuffer(b"".join(parts), dtype=kind)


def row_sums(values: Floats, mask: Flags, skip: int = -1) -> tuple[Floats, Counts]:
    """Per row, Python's `sum` of the masked values outside column `skip`, and their number."""
    total = np.zeros(len(values))
    count = np.zeros(len(values), dtype=np.intp)
    for column in range(values.shape[1]):
        if column != skip:
            total = np.where(mask[:, column], total + values[:, column], total)
            count += mask[:, column]
    return total, count


def row_means(values: Floats, mask: Flags, skip: int = -1) -> tuple[Floats, Counts]:
    """Per row, `sum(v) / len(v)` of the masked values outside column `skip` (0.0 where
    there are none), and their number."""
    total, count = row_sums(values, mask, skip)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean: Floats = np.where(count > 0, total / count, 0.0)
    return mean, count


def means_without_each(values: Floats, mask: Flags) -> tuple[Floats, Counts]:
    """Per row and column s, `row_means(values, mask, skip=s)`, every column at once."""
    width = values.shape[1]
    total = np.zeros(values.shape)
    count = np.zeros(values.shape, dtype=np.intp)
    others = ~np.eye(width, dtype=bool)
    for column in range(width):
        add = mask[:, column, None] & others[column]
        total = np.where(add, total + values[:, column, None], total)
        count += add
    with np.errstate(invalid="ignore", divide="ignore"):
        mean: Floats = np.where(count > 0, total / count, 0.0)
    return mean, count


def grouped_sums(keys: Counts, values: Floats) -> dict[int, tuple[float, int]]:
    """Per key, Python's `sum` of its values in the order given, and their number."""
    order = np.argsort(keys, kind="stable")
    ordered, items = keys[order], values[order].tolist()
    starts = np.flatnonzero(np.diff(ordered, prepend=-1) != 0).tolist()
    bounds = [*starts, len(items)]
    return {
        int(ordered[start]): (sum(items[start:stop]), stop - start)
        for start, stop in zip(bounds, bounds[1:], strict=False)
    }


def clamp(values: Floats) -> Floats:
    """`clamp_iq` (`min(IQ_MAX, max(IQ_MIN, v))`: each keeps its first argument unless the
    second is strictly beyond it)."""
    low: Floats = np.where(values > IQ_MIN, values, IQ_MIN)
    clamped: Floats = np.where(low < IQ_MAX, low, IQ_MAX)
    return clamped
