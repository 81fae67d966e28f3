"""The regression `R` of abstract reasoning on the other dimensions (docs/METHODOLOGY.md 2.1)."""

from __future__ import annotations

import math
from collections.abc import Sequence

import msgspec

from generator.scoring.ladder import clamp_iq

_FLAT = 1e-12  # below this spread of x the slope is not identifiable


class AbstractPredictor(msgspec.Struct, frozen=True, kw_only=True):
    """`predicted = clamp(intercept + slope * x)`, x = mean of the other direct dimensions."""

    intercept: float
    slope: float
    samples: int
    residual_sd: float | None = None  # sqrt(SSE / (n - 2)); None below 3 samples or a perfect fit

    def predict(self, x: float) -> float:
        """Predicted abstract-reasoning IQ for a model whose other dimensions average x."""
        return clamp_iq(self.intercept + self.slope * x)


def fit_predictor(samples: Sequence[tuple[float, float]]) -> AbstractPredictor | None:
    """Least squares of abstract IQ y on x over `(x, y)` samples.

    One regressor (the mean of a model's other direct dimension estimates)
    because models cover different subsets of dimensions; a full multivariate
    fit would be rank-deficient. With one sample, or every x equal, the slope
    is 0 and the line is the mean of y. None without samples.
    """
    n = len(samples)
    if n == 0:
        return None
    mean_x = math.fsum(x for x, _ in samples) / n
    mean_y = math.fsum(y for _, y in samples) / n
    sxx = math.fsum((x - mean_x) ** 2 for x, _ in samples)
    if sxx <= _FLAT:
        slope = 0.0
    else:
        slope = math.fsum((x - mean_x) * (y - mean_y) for x, y in samples) / sxx
    intercept = mean_y - slope * mean_x
    return AbstractPredictor(
        intercept=intercept,
        slope=slope,
        samples=n,
        residual_sd=_residual_sd(samples, intercept, slope),
    )


def _residual_sd(
    samples: Sequence[tuple[float, float]], intercept: float, slope: float
) -> float | None:
    """`sqrt(SSE / (n - 2))` of the unclamped line; None below three samples or at SSE 0."""
    if len(samples) < 3:
        return None
    sse = math.fsum((y - intercept - slope * x) ** 2 for x, y in samples)
    return math.sqrt(sse / (len(samples) - 2)) if sse > 0 else None
