"""Projection of a raw benchmark score onto the IQ scale (docs/METHODOLOGY.md section 1)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from generator.vocabulary import LADDER_IQS, Direction

IQ_MIN = float(LADDER_IQS[0])
IQ_MAX = float(LADDER_IQS[-1])


def clamp_iq(value: float) -> float:
    """Clamp a value to the IQ scale [70, 160]."""
    return min(IQ_MAX, max(IQ_MIN, value))


def clamp_iqs(values: NDArray[np.float64]) -> NDArray[np.float64]:
    """`clamp_iq` of every value of a column."""
    clamped: NDArray[np.float64] = np.minimum(IQ_MAX, np.maximum(IQ_MIN, values))
    return clamped


def project(ladder: Sequence[float], direction: Direction, raw: float) -> float:
    """IQ of `raw` on its ladder, piecewise linear, clamped to [70, 160].

    `ladder[i]` is the raw score expected at `LADDER_IQS[i]`. It must be strictly
    increasing (higher_is_better) or strictly decreasing (lower_is_better); the
    loader rejects anything else. A lower-is-better ladder is mirrored by negating
    both the ladder and the raw score.
    """
    if len(ladder) != len(LADDER_IQS):
        raise ValueError(f"a ladder needs {len(LADDER_IQS)} points, got {len(ladder)}")
    sign = 1.0 if direction == "higher_is_better" else -1.0
    points = [sign * point for point in ladder]
    x = sign * raw
    if x <= points[0]:
        return IQ_MIN
    if x >= points[-1]:
        return IQ_MAX
    for i in range(len(points) - 1):
        low, high = points[i], points[i + 1]
        if x <= high:
            iq_low, iq_high = LADDER_IQS[i], LADDER_IQS[i + 1]
            return iq_low + (iq_high - iq_low) * (x - low) / (high - low)
    return IQ_MAX  # unreachable for a strictly monotone ladder


HAND_SET_FITTED = (70, 130)
"""The fitted IQ range of the hand-set ladders: the calibration's models reach about IQ 126,
so their IQ-145 and IQ-160 points are extrapolated (docs/METHODOLOGY.md 1)."""


def extrapolated(
    ladder: Sequence[float],
    direction: Direction,
    raw: float,
    fitted: Sequence[int] = HAND_SET_FITTED,
) -> bool:
    """`raw` lies beyond the ladder points fitted on real results: above the point at IQ
    `fitted[1]` or below the one at `fitted[0]` (mirrored for lower-is-better), so its
    projection is a bound, not a measurement (version 4)."""
    low, high = (LADDER_IQS.index(iq) for iq in fitted)
    sign = 1.0 if direction == "higher_is_better" else -1.0
    x = sign * raw
    return x > sign * ladder[high] or x < sign * ladder[low]
