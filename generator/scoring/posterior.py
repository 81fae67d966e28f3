"""Normal-normal posterior for one dimension (docs/METHODOLOGY.md section 2.2)."""

from __future__ import annotations

import math
from collections.abc import Sequence

from generator.scoring.ladder import clamp_iq


def posterior(
    prior_mean: float, prior_sd: float, observations: Sequence[tuple[float, float]]
) -> tuple[float, float]:
    """Posterior `(mean, sd)` from a Normal prior and `(y_b, sigma_b)` observations.

    Precision `P = 1/sd0^2 + sum(1/sigma_b^2)`; mean
    `(mean0/sd0^2 + sum(y_b/sigma_b^2)) / P`; sd `1/sqrt(P)`. Unclamped.
    Without observations the prior comes back exactly.
    """
    if not observations:
        return prior_mean, prior_sd
    precision = 1.0 / prior_sd**2
    weighted = prior_mean / prior_sd**2
    for value, sigma in observations:
        precision += 1.0 / sigma**2
        weighted += value / sigma**2
    return weighted / precision, 1.0 / math.sqrt(precision)


def interval(mean: float, sd: float, z: float) -> tuple[float, float]:
    """The stated range `mean -/+ z*sd`, clamped to the scale (checked on held-out data, 3.2)."""
    return clamp_iq(mean - z * sd), clamp_iq(mean + z * sd)
