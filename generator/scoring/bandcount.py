"""Exact counts behind the rank bands, vectorised: per model, the models clearly above and below.

Model j is clearly above model i when `z_ji = (c_j - c_i) / sqrt(sd_i^2 + sd_j^2) >= z` and
clearly below when `z_ji <= -z` (`z_ji` = +-inf, or 0, when both sds are 0). Squared, each test
is a half-plane, so no exact O(n log n) count is known; this one is exact and cheap in practice:

- `z_ij` is exactly `-z_ji` (IEEE rounding is symmetric), so "j clearly below i" is "i clearly
  above j": counting every pair (j above i) once gives both counts, `above[i]` and `below[j]`;
- models are grouped by sd (`_groups`) and each group sorted by score. Against a group whose
  sds lie in `[lo, hi]`, a gap beyond `z sqrt(sd_i^2 + hi^2)` is clear and one within
  `z sqrt(sd_i^2 + lo^2)` is not, whatever sd_j is: binary search counts those for every i;
- only the models between the two thresholds (widened by `_EDGE` against float rounding) are
  checked pair by pair, with the very operations of the definition, in one array expression.

Every step is an IEEE float64 `+ - * / sqrt` (correctly rounded in numpy as in Python), so
the counts are the definition's exactly. Work: two searches per model and group plus the
pair checks; the groups are sized so the two balance: for sds spread over a range, about
sqrt(n) groups and n sqrt(n) pair checks, so it still grows faster than n, in numpy's loops.
"""

from __future__ import annotations

import bisect

import numpy as np
from numpy.typing import NDArray

Floats = NDArray[np.float64]
Counts = NDArray[np.intp]

_EDGE = 1e-9  # widen the pair-checked window so float rounding cannot misplace a model
_CHECKS = 4.0  # pair checks per model worth one more group's searches (2-4 measured alike)
_PAIRS = 1 << 20  # pair checks per array expression: bounds memory on any input


def clear_counts(scores: Floats, sds: Floats, z: float) -> tuple[Counts, Counts]:
    """Per model i, `#{j != i: z_ji >= z}` and `#{j != i: z_ji <= -z}` (z > 0), exactly."""
    by_score = np.argsort(scores, kind="stable")  # searches for ascending keys run faster
    scores, sds = scores[by_score], sds[by_score]
    above = np.zeros(len(scores), dtype=np.intp)
    below = np.zeros(len(scores), dtype=np.intp)
    squares = sds * sds
    by_sd = np.argsort(sds, kind="stable")  # ties keep the score order: each group sorted
    for start, stop in _groups(sds[by_sd], _budget(scores, z)):
        members = np.sort(by_sd[start:stop])  # positions in score order: sorted by score
        _count_group(scores, sds, squares, members, z, above, below)
    counts_above = np.empty_like(above)
    counts_below = np.empty_like(below)
    counts_above[by_score], counts_below[by_score] = above, below
    return counts_above, counts_below


def _budget(scores: Floats, z: float) -> float:
    """The largest `members x sd spread` a group may have.

    With `k` members whose sds span `hi - lo`, about `2 z k (hi - lo) / span` of them lie
    between the clear and the unclear gap of a model (`span` = the score range): a group
    grows while those pair checks cost less than one more group's searches.
    """
    span = float(scores.max() - scores.min()) if len(scores) else 0.0
    return _CHECKS * max(span, 1.0) / (2 * z)


def _groups(sorted_sds: Floats, budget: float) -> list[tuple[int, int]]:
    """Runs `[start, stop)` of the sd-sorted models, each grown while `k x spread <= budget`.

    `k x spread` only grows along a run, so each run's end is found by binary search.
    Models with the same sd always share a run.
    """
    values = sorted_sds.tolist()
    runs = []
    start = 0
    while start < len(values):
        first = values[start]
        stop = bisect.bisect_right(
            range(start + 1, len(values)),
            budget,
            key=lambda end: (end - start + 1) * (values[end] - first),
        )
        runs.append((start, start + 1 + stop))
        start += 1 + stop
    return runs


def _count_group(
    scores: Floats,
    sds: Floats,
    squares: Floats,
    members: Counts,
    z: float,
    above: Counts,
    below: Counts,
) -> None:
    """Count, for every model i and every member j of one group, whether j is clearly above i.

    Each such pair adds one to `above[i]` and one to `below[j]`: `z_ij` is exactly `-z_ji`
    (IEEE rounding is symmetric), so `z_ij <= -z` is `z_ji >= z`, and every pair is looked
    at once, from the group of its upper model. `members` are the group's positions,
    ascending (sorted by score). A pair with equal scores is never clear (z_ji is 0), so the
    window stops short of the ties, which also leaves out j = i; only where the unclear gap
    rounds away (`c_i + near == c_i`) can it reach them, and those few rows are searched again.
    """
    within = scores[members]
    lo, hi = float(sds[members].min()), float(sds[members].max())
    near = np.maximum(z * np.sqrt(squares + lo * lo) - _EDGE, 0.0)
    far = z * np.sqrt(squares + hi * hi) + _EDGE
    upper = scores + near
    starts = np.searchsorted(within, upper, side="left")
    tied = np.flatnonzero(upper == scores)
    starts[tied] = np.searchsorted(within, scores[tied], side="right")
    stops = np.searchsorted(within, scores + far, side="left")
    # surely clear: the members from stops[i] on, so the member at position p is above
    # every model i whose stops[i] <= p
    above += len(within) - stops
    below[members] += np.cumsum(np.bincount(stops, minlength=len(within) + 1))[:-1]
    _pair_checks(scores, squares, within, squares[members], starts, stops, z, above, below, members)


def _pair_checks(
    scores: Floats,
    squares: Floats,
    within: Floats,
    within_squares: Floats,
    starts: Counts,
    stops: Counts,
    z: float,
    above: Counts,
    below: Counts,
    members: Counts,
) -> None:
    """The members at positions `[starts[i], stops[i])` with `z_ji >= z`, checked pair by
    pair (in slices of about `_PAIRS` pairs) and counted into `above[i]` and `below[j]`.

    `z_ji` is computed as the definition does: `(c_j - c_i) / sqrt(sd_i * sd_i + sd_j * sd_j)`,
    +-inf where that scale is 0 (c_j != c_i in a window)."""
    rows = np.flatnonzero(stops > starts)
    lengths = (stops - starts)[rows]
    ends = np.cumsum(lengths)
    cuts = np.searchsorted(ends, np.arange(_PAIRS, int(ends[-1]) if len(ends) else 0, _PAIRS))
    bounds = [0, *cuts.tolist(), len(rows)]
    for first, last in zip(bounds, bounds[1:], strict=False):
        if first < last:
            part, count = rows[first:last], lengths[first:last]
            offsets = np.cumsum(count) - count  # where each row's pairs start
            # each pair's position in the group: its row's start plus its place in the row
            j = np.arange(int(offsets[-1] + count[-1])) + np.repeat(starts[part] - offsets, count)
            scale = np.sqrt(np.repeat(squares[part], count) + within_squares[j])
            with np.errstate(divide="ignore"):  # a nonzero gap over a zero scale: +-inf
                clear = (within[j] - np.repeat(scores[part], count)) / scale >= z
            above[part] += np.add.reduceat(clear, offsets, dtype=np.intp)
            below[members] += np.bincount(j[clear], minlength=len(within))
