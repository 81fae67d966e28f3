"""The composite of each model in a history month, column-wise (numpy): its value, sd,
stated range, published IQ, rank and rank band.

The same numbers as `composite.composite_score`, `uncertainty.composite_sd`,
`posterior.interval`, `engine.composite_ranks` and the composite pass of
`uncertainty.uncertainties`, from `monthly.MonthValues`: each sum adds one column at a time,
left to right (`columns.py`); ranks sort the rounded composites, ties by id; the bands
count with `bandcount.clear_counts` itself. `tests/scoring/test_monthly.py` compares the
snapshots with the plain path's.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from generator.scoring.bandcount import clear_counts
from generator.scoring.columns import Floats, clamp
from generator.scoring.monthly import MonthValues
from generator.scoring.rounding import round_half_up_many
from generator.scoring.types import RankBand


def month_composites(values: MonthValues, min_direct: int) -> list[float | None]:
    """`composite_score` of each row: the mean of its seven values, None with fewer than
    `min_direct` covered dimensions or a dimension without an estimate."""
    direct = (values.covered >= 1).sum(axis=1)
    usable = (direct >= min_direct) & values.has.all(axis=1)
    total = np.zeros(len(values.value))
    for column in range(values.value.shape[1]):
        total = total + values.value[:, column]
    means = (total / values.value.shape[1]).tolist()
    return [m if ok else None for m, ok in zip(means, usable.tolist(), strict=True)]


def composite_spreads(
    values: MonthValues, composites: Sequence[float | None], ranked: Sequence[bool], z: float
) -> tuple[list[float | None], list[float | None], list[float | None]]:
    """Each row's composite sd (`uncertainty.composite_sd` of its seven sds, for a ranked
    model whose sds all exist) and stated range (`posterior.interval`), None where absent."""
    total = np.zeros(len(values.sd))
    for column in range(values.sd.shape[1]):
        total = total + values.sd[:, column] * values.sd[:, column]
    spread = np.sqrt(total) / values.sd.shape[1]
    composite = np.array([c if c is not None else 0.0 for c in composites])
    low, high = clamp(composite - z * spread), clamp(composite + z * spread)
    usable: list[bool] = (np.all(values.has, axis=1) & np.array(ranked, dtype=bool)).tolist()
    stated = [ok and c is not None for ok, c in zip(usable, composites, strict=True)]
    return _where(usable, spread), _where(stated, low), _where(stated, high)


def _where(usable: Sequence[bool], values: Floats) -> list[float | None]:
    return [v if ok else None for v, ok in zip(values.tolist(), usable, strict=True)]


def month_bands(
    composites: Sequence[float | None],
    sds: Sequence[float | None],
    ranks: Sequence[int | None],
    z: float,
) -> list[RankBand | None]:
    """The composite pass of `uncertainty.uncertainties`, by row: the bands (`rank_bands`,
    counted by `bandcount.clear_counts`) of the ranked rows with a composite and an sd, each
    widened to hold its rank (`within_rank`); None elsewhere."""
    rows = [
        i
        for i, (c, s, r) in enumerate(zip(composites, sds, ranks, strict=True))
        if c is not None and s is not None and r is not None
    ]
    bands: list[RankBand | None] = [None] * len(composites)
    if not rows:
        return bands
    above, below = clear_counts(
        np.array([composites[i] for i in rows], dtype=np.float64),
        np.array([sds[i] for i in rows], dtype=np.float64),
        z,
    )
    rank = np.array([ranks[i] for i in rows], dtype=np.intp)
    low = np.minimum(1 + above, rank).tolist()
    high = np.maximum(len(rows) - below, rank).tolist()
    for i, best, worst in zip(rows, low, high, strict=True):
        bands[i] = RankBand(low=best, high=worst)
    return bands


def month_ranks(composites: Sequence[float | None]) -> tuple[list[int | None], list[int | None]]:
    """Each row's published IQ (its composite rounded half up) and rank (by IQ, then by
    id: the rows are in id order), None without a composite."""
    present = [(i, c) for i, c in enumerate(composites) if c is not None]
    rows = [i for i, _ in present]
    iqs = round_half_up_many([c for _, c in present])
    order = np.argsort(-np.array(iqs, dtype=np.int64), kind="stable").tolist()
    published: list[int | None] = [None] * len(composites)
    ranks: list[int | None] = [None] * len(composites)
    for position, place in enumerate(order, start=1):
        published[rows[place]], ranks[rows[place]] = iqs[place], position
    return published, ranks
