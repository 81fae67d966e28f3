"""Composite sd, stated 95% ranges and rank bands (METHODOLOGY section 3.1)."""

from __future__ import annotations

import bisect
import math
from collections.abc import Mapping, Sequence

import msgspec

from generator.scoring.composite import rank_entries
from generator.scoring.posterior import interval
from generator.scoring.rounding import round_half_up
from generator.scoring.types import DimensionEstimate, RankBand

_EDGE = 1e-9  # widen the exactly-checked window so float rounding cannot misplace a model


def composite_sd(sds: Sequence[float]) -> float:
    """`sqrt(sum sd_d^2) / n` over the dimensions (treated as independent)."""
    return math.sqrt(sum(sd * sd for sd in sds)) / len(sds)


def _z(c_j: float, sd_j: float, c_i: float, sd_i: float) -> float:
    """`z_ji = (c_j - c_i) / sqrt(sd_i^2 + sd_j^2)`; +-inf (or 0) when both sds are 0."""
    scale = math.sqrt(sd_i * sd_i + sd_j * sd_j)
    gap = c_j - c_i
    if scale > 0:
        return gap / scale
    return math.copysign(math.inf, gap) if gap else 0.0


def rank_bands(estimates: Mapping[str, tuple[float, float]], z: float) -> dict[str, RankBand]:
    """Band of every model from `(unrounded score, sd)`, higher scores ranking first.

    `low = 1 + #{j : z_ji >= z}` (models clearly above), `high = 1 + #{j : z_ji > -z}`
    (models not clearly below), j != i. Only the scores and sds matter, never ids
    or order. Models are sorted by score so that only those within the widest
    possible gap `z * sqrt(sd_i^2 + max_sd^2)` are compared one by one:
    O(n log n) plus the size of that window.
    """
    ids = sorted(estimates, key=lambda m: estimates[m][0])
    scores = [estimates[m][0] for m in ids]
    sds = [estimates[m][1] for m in ids]
    sd_max = max(sds, default=0.0)
    sd_min = min(sds, default=0.0)
    bands: dict[str, RankBand] = {}
    for model_id in ids:
        c_i, sd_i = estimates[model_id]
        near = z * math.sqrt(sd_i * sd_i + sd_min * sd_min) - _EDGE  # any gap below: unclear
        far = z * math.sqrt(sd_i * sd_i + sd_max * sd_max) + _EDGE  # any gap above: clear
        start = bisect.bisect_left(scores, c_i - far)
        stop = bisect.bisect_right(scores, c_i + far)
        clearly_below, clearly_above = start, len(ids) - stop
        window_above = window_below = 0
        for index in range(start, stop):
            if ids[index] == model_id or abs(scores[index] - c_i) < near:
                continue
            z_ji = _z(scores[index], sds[index], c_i, sd_i)
            window_above += z_ji >= z
            window_below += z_ji <= -z
        above = clearly_above + window_above
        below = clearly_below + window_below
        bands[model_id] = RankBand(low=1 + above, high=len(ids) - below)
    return bands


def within_rank(band: RankBand, rank: int) -> RankBand:
    """The band widened to contain the published rank.

    Ranks are decided on rounded scores with ties broken by id, so two models
    with equal published scores but clearly different unrounded ones (possible
    only with sds below about 0.3) could otherwise fall outside their own band.
    """
    return RankBand(low=min(band.low, rank), high=max(band.high, rank))


class ModelUncertainty(msgspec.Struct, frozen=True, kw_only=True):
    """One model's composite sd, stated range and rank bands (None where it has no rank)."""

    sd: float | None
    low95: float | None
    high95: float | None
    band: RankBand | None
    dimension_bands: tuple[RankBand | None, ...]


def uncertainties(
    dimensions: Mapping[str, Sequence[DimensionEstimate]],
    composites: Mapping[str, float | None],
    ranks: Mapping[str, int],
    z: float,
) -> dict[str, ModelUncertainty]:
    """Every model's uncertainty from its dimension sds, composite and published ranks."""
    spreads = {
        m: composite_sd([d.sd for d in dimensions[m] if d.sd is not None])
        for m in ranks
        if all(d.sd is not None for d in dimensions[m])
    }
    bands = _bands({m: (composites[m], spreads.get(m)) for m in ranks}, ranks, z)
    count = len(next(iter(dimensions.values()), ()))
    by_dimension = [
        _bands(
            {
                m: (estimates[index].value, estimates[index].sd)
                for m, estimates in dimensions.items()
            },
            _dimension_ranks(dimensions, index),
            z,
        )
        for index in range(count)
    ]
    result = {}
    for m in sorted(dimensions):
        composite, sd = composites.get(m), spreads.get(m)
        low, high = (
            interval(composite, sd, z) if composite is not None and sd is not None else (None, None)
        )
        result[m] = ModelUncertainty(
            sd=sd,
            low95=low,
            high95=high,
            band=bands.get(m),
            dimension_bands=tuple(band.get(m) for band in by_dimension),
        )
    return result


def _bands(
    estimates: Mapping[str, tuple[float | None, float | None]],
    ranks: Mapping[str, int],
    z: float,
) -> dict[str, RankBand]:
    """Rank bands of the ranked models that have a value and an sd, containing their rank."""
    usable = {
        m: (value, sd)
        for m, (value, sd) in sorted(estimates.items())
        if value is not None and sd is not None and m in ranks
    }
    return {m: within_rank(band, ranks[m]) for m, band in rank_bands(usable, z).items()}


def _dimension_ranks(
    dimensions: Mapping[str, Sequence[DimensionEstimate]], index: int
) -> dict[str, int]:
    """The published rank of every model in one dimension ranking (rounded score, then id)."""
    values = {m: estimates[index].value for m, estimates in sorted(dimensions.items())}
    items = [(m, float(round_half_up(v))) for m, v in values.items() if v is not None]
    return {e.model_id: e.rank for e in rank_entries(items, "higher_is_better")}
