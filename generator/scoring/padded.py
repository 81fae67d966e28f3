"""Many models' values in one dimension as padded columns, and the fixed-order sums over them.

Row `i` holds model `i`'s `(benchmark, value)` pairs in their order, left-aligned and padded
to the longest row; a mask says which cells hold a value. A model's few values are summed
left to right (`ordered_sum`), and a padded cell adds an exact 0.0, so the sum is the same
on any Python and for any padding. The offsets, the direct estimates, the noise and the
posteriors (`generator/scoring/batch.py`) all read these columns.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import chain

import msgspec
import numpy as np
from numpy.typing import NDArray

from generator.scoring.types import Projection

Floats = NDArray[np.float64]
Flags = NDArray[np.bool_]
Indices = NDArray[np.int64]


class Padded(msgspec.Struct, frozen=True, kw_only=True):
    """Rows of `(benchmark, value)` pairs as columns; `benchmarks` sorted, `bench` indexes it."""

    values: Floats  # rows x width
    bench: Indices  # rows x width, an index into `benchmarks` (0 in padding)
    mask: Flags  # rows x width: the cell holds a value
    benchmarks: tuple[str, ...]

    @property
    def counts(self) -> Indices:
        """Each row's number of values."""
        counts: Indices = self.mask.sum(axis=1).astype(np.int64)
        return counts

    def rows(self, indices: Indices) -> Padded:
        """The rows at `indices`, in that order (the same benchmarks)."""
        return Padded(
            values=self.values[indices],
            bench=self.bench[indices],
            mask=self.mask[indices],
            benchmarks=self.benchmarks,
        )

    def per_benchmark(self, by_id: Mapping[str, float], default: float) -> Floats:
        """`by_id`'s value of each cell's benchmark (`default` where it has none)."""
        column = np.array([by_id.get(b, default) for b in self.benchmarks], dtype=np.float64)
        cells: Floats = column[self.bench] if len(column) else np.zeros(self.values.shape)
        return cells


def pad(groups: Sequence[Sequence[tuple[str, float]]]) -> Padded:
    """`Padded` rows of `groups`, one row per group, in order."""
    flat = list(chain.from_iterable(groups))
    return padded([len(group) for group in groups], [b for b, _ in flat], [v for _, v in flat])


def pad_projections(groups: Sequence[Sequence[Projection]]) -> Padded:
    """`pad` of each group's `(benchmark, iq)`."""
    flat = list(chain.from_iterable(groups))
    return padded(
        [len(group) for group in groups], [p.benchmark for p in flat], [p.iq for p in flat]
    )


def padded(lengths: Sequence[int], ids: Sequence[str], values: Sequence[float]) -> Padded:
    """`Padded` rows from each row's length and the rows' benchmark ids and values, in order."""
    sizes = np.array(lengths, dtype=np.int64)
    width = int(sizes.max()) if len(sizes) else 0
    benchmarks = tuple(sorted(set(ids)))
    index = {b: i for i, b in enumerate(benchmarks)}
    mask = np.arange(width) < sizes[:, None]
    cells = np.zeros(mask.shape)
    bench = np.zeros(mask.shape, dtype=np.int64)
    cells[mask] = values  # row-major: each row's values in their order
    bench[mask] = [index[b] for b in ids]
    return Padded(values=cells, bench=bench, mask=mask, benchmarks=benchmarks)


def ordered_sum(values: Floats, mask: Flags) -> Floats:
    """Each row's sum of its masked-in values, left to right (columns in order)."""
    total = np.zeros(values.shape[0])
    for j in range(values.shape[1]):
        total = total + np.where(mask[:, j], values[:, j], 0.0)
    return total


def row_means(values: Floats, mask: Flags) -> Floats:
    """Each row's `ordered_sum` over its count (0 for an empty row)."""
    count = mask.sum(axis=1).astype(np.float64)
    total = ordered_sum(values, mask)
    means: Floats = np.divide(total, count, out=np.zeros_like(total), where=count > 0)
    return means


def leave_one_out(values: Floats, mask: Flags) -> Floats:
    """Each cell's value minus the mean of its row's other values, for rows of two or more
    (`value - (total - value) / (k - 1)`; 0 elsewhere)."""
    count = mask.sum(axis=1).astype(np.float64)
    total = ordered_sum(values, mask)[:, None]
    others = np.where(count > 1, count - 1.0, 1.0)[:, None]
    return np.where(mask & (count > 1)[:, None], values - (total - values) / others, 0.0)


def add_by_benchmark(table: Padded, cells: Flags, amounts: Floats) -> Floats:
    """Per benchmark, the sum of `amounts` over `cells`, added in row order then column order."""
    sums: Floats = np.zeros(len(table.benchmarks))
    np.add.at(sums, table.bench[cells], amounts[cells])
    return sums
