"""Composite sd, stated 95% ranges and rank bands (docs/METHODOLOGY.md section 3.1)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import msgspec
import numpy as np

from generator.scoring.bandcount import clear_counts
from generator.scoring.composite import rank_entries
from generator.scoring.posterior import interval
from generator.scoring.rounding import round_half_up
from generator.scoring.tasks import TaskMap, in_process
from generator.scoring.types import DimensionEstimate, RankBand


def composite_sd(sds: Sequence[float], imputed: Sequence[bool] = (), rho: float = 0.0) -> float:
    """The sd of the mean of the dimensions (docs/METHODOLOGY.md 3.1, version 4).

    `sd_c^2 = (sum sd_d^2 + rho * sum over d != e, both imputed, of sd_d sd_e) / n^2`:
    imputed dimensions share their prior, so their errors correlate with `rho`
    (`imputedCorrelation`); the pairs are ordered, so the sum is
    `(sum_I sd)^2 - sum_I sd^2`. With `rho` 0 or no imputed pair, version 3's
    `sqrt(sum sd_d^2) / n`.
    """
    variance = math.fsum(sd * sd for sd in sds)
    shared = [sd for sd, flag in zip(sds, imputed, strict=False) if flag]
    if rho and len(shared) > 1:
        variance += rho * (math.fsum(shared) ** 2 - math.fsum(sd * sd for sd in shared))
    return math.sqrt(variance) / len(sds)


def rank_bands(estimates: Mapping[str, tuple[float, float]], z: float) -> dict[str, RankBand]:
    """Band of every model from `(unrounded score, sd)`, higher scores ranking first.

    `low = 1 + #{j : z_ji >= z}` (models clearly above), `high = 1 + #{j : z_ji > -z}`
    (models not clearly below), j != i, with `z_ji = (c_j - c_i) / sqrt(sd_i^2 + sd_j^2)`
    (+-inf, or 0, when both sds are 0). Only the scores and sds matter, never ids or
    order; `clear_counts` counts them exactly, in numpy.
    """
    scores = np.array([c for c, _ in estimates.values()], dtype=np.float64)
    sds = np.array([sd for _, sd in estimates.values()], dtype=np.float64)
    above, below = clear_counts(scores, sds, z)
    return {
        m: RankBand(low=1 + up, high=len(estimates) - down)
        for m, up, down in zip(estimates, above.tolist(), below.tolist(), strict=True)
    }


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
    *,
    rho: float,
    per_dimension: bool = True,
    run: TaskMap = in_process,
) -> dict[str, ModelUncertainty]:
    """Every model's uncertainty from its dimension sds, composite and published ranks;
    `rho` is `imputedCorrelation` (the composite sd's, version 4; 0 is version 3's).

    `per_dimension=False` leaves out the dimension rankings' bands (`dimension_bands` is
    empty): every rank-band pass but the composite's, which the history never publishes.
    The passes are independent: `run` may count them in worker processes (as msgpack).
    """
    spreads = {
        m: composite_sd(
            [d.sd for d in dimensions[m] if d.sd is not None],
            [d.imputed for d in dimensions[m]],
            rho,
        )
        for m in ranks
        if all(d.sd is not None for d in dimensions[m])
    }
    count = len(next(iter(dimensions.values()), ())) if per_dimension else 0
    passes = [({m: (composites[m], spreads.get(m)) for m in ranks}, ranks)]
    passes += [
        (
            {
                m: (estimates[index].value, estimates[index].sd)
                for m, estimates in dimensions.items()
            },
            _dimension_ranks(dimensions, index),
        )
        for index in range(count)
    ]
    encoded = run(lambda k: msgspec.msgpack.encode(_bands(*passes[k], z)), len(passes))
    bands, *by_dimension = [
        msgspec.msgpack.decode(data, type=dict[str, RankBand]) for data in encoded
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
