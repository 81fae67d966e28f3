"""Composite sd, stated 95% ranges and rank bands (METHODOLOGY section 3.1)."""

from __future__ import annotations

import bisect
import math
import operator
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from itertools import compress, repeat

import msgspec

from generator.scoring.composite import rank_entries
from generator.scoring.posterior import interval
from generator.scoring.rounding import round_half_up
from generator.scoring.tasks import TaskMap, in_process
from generator.scoring.types import DimensionEstimate, RankBand

_EDGE = 1e-9  # widen the exactly-checked window so float rounding cannot misplace a model
_CHECKS = 4  # one-by-one checks per model and sd group worth one more group's bisections
_ALONE = 4  # a shared sd is counted alone when its models x buckets x this reach n


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


class _Bucket(msgspec.Struct, frozen=True, kw_only=True):
    """Models whose sd lies in `[lo, hi]`, sorted by score."""

    lo: float
    hi: float
    scores: list[float]
    sds: list[float]
    ids: list[str]


def _buckets(estimates: Mapping[str, tuple[float, float]], z: float) -> list[_Bucket]:
    """Models grouped by sd, each group sorted by score.

    A group grows while its expected one-by-one checks per model stay small: with
    `k` members whose sds span `hi - lo`, about `2 z k (hi - lo) / span` of them lie
    between the clear and the unclear gap (`span` = the score range). Models with the
    same sd (every prior-only estimate of a dimension, say) always share a group and
    are then counted by bisection alone.
    """
    by_sd = sorted(estimates, key=lambda m: (estimates[m][1], estimates[m][0], m))
    scores = [c for c, _ in estimates.values()]
    span = max(scores) - min(scores) if scores else 0.0
    budget = _CHECKS * max(span, 1.0) / (2 * z)
    groups: list[list[str]] = []
    for model_id in by_sd:
        if groups:
            group = groups[-1]
            spread = estimates[model_id][1] - estimates[group[0]][1]
            if (len(group) + 1) * spread <= budget:
                group.append(model_id)
                continue
        groups.append([model_id])
    return [_bucket(group, estimates) for group in groups]


def _bucket(group: Sequence[str], estimates: Mapping[str, tuple[float, float]]) -> _Bucket:
    members = sorted(group, key=lambda m: estimates[m][0])
    sds = [estimates[m][1] for m in members]
    return _Bucket(
        lo=min(sds),
        hi=max(sds),
        scores=[estimates[m][0] for m in members],
        sds=sds,
        ids=members,
    )


def _count_clear(
    ids: Sequence[str], scores: Sequence[float], sds: Sequence[float], bucket: _Bucket, z: float
) -> tuple[list[int], list[int]]:
    """Per model i, how many models of `bucket` lie clearly above / below it.

    With sd_j in [lo, hi], a gap beyond `z * sqrt(sd_i^2 + hi^2)` is clear and one
    within `z * sqrt(sd_i^2 + lo^2)` is not, whatever sd_j is: those are counted by
    bisection (for every i at once); only models between the two thresholds
    (widened by a float margin) are checked one by one.
    """
    lo2, hi2, sorted_scores = bucket.lo * bucket.lo, bucket.hi * bucket.hi, bucket.scores
    near = [max(0.0, z * math.sqrt(sd * sd + lo2) - _EDGE) for sd in sds]
    far = [z * math.sqrt(sd * sd + hi2) + _EDGE for sd in sds]
    within = repeat(sorted_scores)
    up_near = list(map(bisect.bisect_left, within, map(operator.add, scores, near)))
    up_far = list(map(bisect.bisect_left, within, map(operator.add, scores, far)))
    down_far = list(map(bisect.bisect_right, within, map(operator.sub, scores, far)))
    down_near = list(map(bisect.bisect_right, within, map(operator.sub, scores, near)))
    above = [len(sorted_scores) - index for index in up_far]
    below = down_far
    for i in compress(range(len(ids)), map(operator.lt, up_near, up_far)):
        above[i] += _window(ids[i], scores[i], sds[i], bucket, range(up_near[i], up_far[i]), z)
    for i in compress(range(len(ids)), map(operator.lt, down_far, down_near)):
        below[i] += _window(ids[i], scores[i], sds[i], bucket, range(down_far[i], down_near[i]), -z)
    return above, below


def _window(
    model_id: str, c_i: float, sd_i: float, bucket: _Bucket, window: range, z: float
) -> int:
    """Models of `bucket` in `window` with `z_ji >= z` (z > 0) or `z_ji <= z` (z < 0)."""
    found = 0
    for index in window:
        if bucket.ids[index] != model_id:
            z_ji = _z(bucket.scores[index], bucket.sds[index], c_i, sd_i)
            found += z_ji >= z if z > 0 else z_ji <= z
    return found


def rank_bands(estimates: Mapping[str, tuple[float, float]], z: float) -> dict[str, RankBand]:
    """Band of every model from `(unrounded score, sd)`, higher scores ranking first.

    `low = 1 + #{j : z_ji >= z}` (models clearly above), `high = 1 + #{j : z_ji > -z}`
    (models not clearly below), j != i. Only the scores and sds matter, never ids
    or order. Models are grouped by sd and sorted by score in each group, so most
    of them are counted by bisection rather than one by one (`_count_clear`). The
    many models that share one sd (the prior-only estimates of a dimension) are
    counted against all models at once instead (`_count_for_sd`).
    """
    ids = sorted(estimates)
    scores = [estimates[m][0] for m in ids]
    sds = [estimates[m][1] for m in ids]
    buckets = _buckets(estimates, z)
    shared = Counter(sds)
    # Worth it when the group's bucket passes would cost more than one sort of everything.
    alone = {sd for sd, count in shared.items() if count * len(buckets) * _ALONE >= len(ids)}
    above, below = [0] * len(ids), [0] * len(ids)
    for sd in sorted(alone):
        members = [i for i, sd_i in enumerate(sds) if sd_i == sd]
        for i, up, down in zip(members, *_count_for_sd(sd, members, scores, sds, z), strict=True):
            above[i], below[i] = up, down
    rest = [i for i, sd_i in enumerate(sds) if sd_i not in alone]
    rest_ids = [ids[i] for i in rest]
    rest_scores, rest_sds = [scores[i] for i in rest], [sds[i] for i in rest]
    rest_above, rest_below = [0] * len(rest), [0] * len(rest)
    for bucket in buckets:
        bucket_above, bucket_below = _count_clear(rest_ids, rest_scores, rest_sds, bucket, z)
        rest_above = list(map(operator.add, rest_above, bucket_above))
        rest_below = list(map(operator.add, rest_below, bucket_below))
    for i, up, down in zip(rest, rest_above, rest_below, strict=True):
        above[i], below[i] = up, down
    return {
        m: RankBand(low=1 + up, high=len(ids) - down)
        for m, up, down in zip(ids, above, below, strict=True)
    }


def _count_for_sd(
    sd: float, members: Sequence[int], scores: Sequence[float], sds: Sequence[float], z: float
) -> tuple[list[int], list[int]]:
    """For models `members` (indexes), all with sd `sd`: the models clearly above / below.

    With sd_i fixed, `z_ji >= z` means `c_i <= c_j - z s_j` and `z_ji <= -z` means
    `c_i >= c_j + z s_j` (`s_j = sqrt(sd^2 + sd_j^2)`): one sorted list of each bound
    answers every member by bisection. Bounds within a float margin of `c_i` are
    checked with `_z` itself, so the counts are exactly the definition's.
    """
    squares = map(operator.mul, sds, sds)
    spread = list(map(math.sqrt, map(operator.add, repeat(sd * sd), squares)))
    margin = list(map(operator.mul, repeat(z), spread))
    lows = [scores[i] - _EDGE for i in members]
    highs = [scores[i] + _EDGE for i in members]
    counts = []
    for bound, sign in ((operator.sub, z), (operator.add, -z)):
        values = list(map(bound, scores, margin))
        order = sorted(range(len(values)), key=values.__getitem__)
        ordered = list(map(values.__getitem__, order))
        firsts = list(map(bisect.bisect_left, repeat(ordered), lows))
        lasts = list(map(bisect.bisect_right, repeat(ordered), highs))
        # above: bounds past c_i + margin; below: bounds short of c_i - margin
        count = [len(ordered) - last for last in lasts] if sign > 0 else firsts
        for k in compress(range(len(members)), map(operator.lt, firsts, lasts)):
            unsure = map(order.__getitem__, range(firsts[k], lasts[k]))
            count[k] += _exact(members[k], unsure, scores, sds, sign)
        counts.append(count)
    return counts[0], counts[1]


def _exact(
    i: int, others: Iterable[int], scores: Sequence[float], sds: Sequence[float], z: float
) -> int:
    """Models j != i of `others` with `z_ji >= z` (z > 0) or `z_ji <= z` (z < 0)."""
    found = 0
    for j in others:
        if j != i:
            z_ji = _z(scores[j], sds[j], scores[i], sds[i])
            found += z_ji >= z if z > 0 else z_ji <= z
    return found


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
    per_dimension: bool = True,
    run: TaskMap = in_process,
) -> dict[str, ModelUncertainty]:
    """Every model's uncertainty from its dimension sds, composite and published ranks.

    `per_dimension=False` leaves out the dimension rankings' bands (`dimension_bands` is
    empty): seven of the eight rank-band passes, which the history never publishes. The
    passes are independent: `run` may count them in worker processes (as msgpack).
    """
    spreads = {
        m: composite_sd([d.sd for d in dimensions[m] if d.sd is not None])
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
