"""The expected raw score as a function of IQ, fitted by least squares on the raw scale
(docs/METHODOLOGY.md 1.3): a four-parameter logistic for a bounded unit, a straight line
for an Elo, a log-linear line for minutes.

Deterministic: a stated optimiser (scipy's trust-region reflective least squares) from a
stated grid of starts, the lowest cost kept (the first on a tie).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray
from scipy.optimize import least_squares
from scipy.special import expit

from generator.input.records import BenchmarkRecord, LadderMethod

MIDPOINTS = (0.25, 0.5, 0.75)  # start midpoints: these quantiles of the targets' IQ
SCALES = (8.0, 20.0)  # start scales, IQ points
MID_RANGE = (40.0, 190.0)  # the midpoint's bounds: a little beyond the scale
SCALE_RANGE = (3.0, 60.0)
PIN = 1e-9  # steeper than 3 IQ points is a step, flatter than 60 is a line


class FitError(ValueError):
    """The data cannot give a ladder of this benchmark's unit and direction."""


@dataclass(frozen=True)
class Curve:
    """A fitted curve: `method` and its parameters in the raw unit.

    logistic-4: (value as IQ -> -inf, value as IQ -> +inf, midpoint, scale);
    linear: (intercept, slope) of raw in IQ; log-linear: the same of ln(raw).
    """

    method: LadderMethod
    parameters: tuple[float, ...]

    def at(self, iq: NDArray[np.float64]) -> NDArray[np.float64]:
        """The expected raw score at each IQ."""
        if self.method == "logistic-4":
            low, high, mid, scale = self.parameters
            out: NDArray[np.float64] = low + (high - low) * expit((iq - mid) / scale)
            return out
        intercept, slope = self.parameters
        line: NDArray[np.float64] = intercept + slope * iq
        return np.exp(line) if self.method == "log-linear" else line


def method_for(benchmark: BenchmarkRecord) -> LadderMethod:
    """The curve of the benchmark's unit: an Elo a line, a bounded unit a logistic,
    an unbounded one (minutes, a count) a log-linear line."""
    unit = (benchmark.unit or "").lower()
    if "elo" in unit.split():
        return "linear"
    return "logistic-4" if benchmark.max_value is not None else "log-linear"


def fit_curve(benchmark: BenchmarkRecord, iqs: Sequence[float], raws: Sequence[float]) -> Curve:
    """The least-squares curve of `raws` (the benchmark's unit) on `iqs`, rising with IQ for
    a higher-is-better benchmark and falling for a lower-is-better one, or `FitError`."""
    x = np.asarray(iqs, dtype=np.float64)
    y = np.asarray(raws, dtype=np.float64)
    method = method_for(benchmark)
    if method == "logistic-4":
        return _logistic(benchmark, x, y)
    if method == "log-linear":
        if np.any(y <= 0):
            raise FitError("a log-linear ladder needs every raw value above 0")
        intercept, slope = _line(x, np.log(y))
    else:
        intercept, slope = _line(x, y)
    rising = benchmark.direction == "higher_is_better"
    if (slope <= 0) if rising else (slope >= 0):
        raise FitError(f"the fitted line's slope {slope:.4g} runs against {benchmark.direction}")
    return Curve(method, (intercept, slope))


def _line(x: NDArray[np.float64], y: NDArray[np.float64]) -> tuple[float, float]:
    """Ordinary least squares of y on x: (intercept, slope)."""
    if float(np.ptp(x)) == 0.0:
        raise FitError("every model has the same target IQ")
    mx, my = float(np.mean(x)), float(np.mean(y))
    slope = float(np.sum((x - mx) * (y - my)) / np.sum((x - mx) ** 2))
    return my - slope * mx, slope


def _logistic(benchmark: BenchmarkRecord, x: NDArray[np.float64], y: NDArray[np.float64]) -> Curve:
    """A four-parameter logistic between the unit's bounds, fitted in rising form (a
    lower-is-better benchmark is mirrored inside its bounds, fitted, and mirrored back).

    In shares of the bounds (0..1, rising), the floor lies between 0 and the lowest result
    and the ceiling between the highest result and 1: the curve spans every observed result,
    so none lies on a plateau the ladder could only read as IQ 70 or 160."""
    lo = benchmark.min_value if benchmark.min_value is not None else 0.0
    hi = benchmark.max_value if benchmark.max_value is not None else 1.0
    span = hi - lo
    rising = benchmark.direction == "higher_is_better"
    target = ((y - lo) if rising else (hi - y)) / span  # 0..1, rising with IQ
    least, most = float(np.min(target)), float(np.max(target))
    if not least < most:
        raise FitError("every model has the same result")

    def residuals(theta: NDArray[np.float64]) -> NDArray[np.float64]:
        floor, ceiling, mid, scale = theta
        out: NDArray[np.float64] = floor + (ceiling - floor) * expit((x - mid) / scale) - target
        return out

    # a result on a bound pins that end (scipy wants each lower bound under its upper one)
    lower = [0.0, min(most, 1.0 - PIN), MID_RANGE[0], SCALE_RANGE[0]]
    upper = [max(least, PIN), 1.0, MID_RANGE[1], SCALE_RANGE[1]]
    best: tuple[float, NDArray[np.float64]] | None = None
    for mid0 in np.quantile(x, MIDPOINTS):
        for scale0 in SCALES:
            mid = float(np.clip(mid0, *MID_RANGE))
            start = np.array([upper[0] / 2, (lower[1] + 1.0) / 2, mid, scale0])
            found = least_squares(
                residuals,
                start,
                bounds=(lower, upper),
                method="trf",
                x_scale=np.array([0.1, 0.1, 10.0, 10.0]),
            )
            cost = float(found.cost)
            if math.isfinite(cost) and (best is None or cost < best[0]):
                best = (cost, found.x)
    if best is None:
        raise FitError("the logistic fit did not converge")
    floor, ceiling, mid, scale = (float(t) for t in best[1])
    sign, origin = (1.0, lo) if rising else (-1.0, hi)  # mirror back a falling one
    return Curve(
        "logistic-4", (origin + sign * span * floor, origin + sign * span * ceiling, mid, scale)
    )
