"""Normal-normal posterior for one dimension (docs/METHODOLOGY.md section 2.2)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from generator.scoring.ladder import clamp_iq

Floats = NDArray[np.float64]
Flags = NDArray[np.bool_]


def posterior_columns(
    prior_mean: Floats, prior_sd: Floats, values: Floats, sigmas: Floats, mask: Flags
) -> tuple[Floats, Floats]:
    """Posterior `(mean, sd)` per row from a Normal prior and its masked `(y_b, sigma_b)`.

    Precision `P = 1/sd0^2 + sum(1/sigma_b^2)`, mean `(mean0/sd0^2 + sum(y_b/sigma_b^2)) / P`,
    sd `1/sqrt(P)`, unclamped, the sums taken in the observations' order; a row without
    observations keeps its prior exactly."""
    precision = 1.0 / prior_sd**2
    weighted = prior_mean / prior_sd**2
    for j in range(values.shape[1]):
        precision = precision + np.where(mask[:, j], 1.0 / sigmas[:, j] ** 2, 0.0)
        weighted = weighted + np.where(mask[:, j], values[:, j] / sigmas[:, j] ** 2, 0.0)
    observed = mask.any(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):  # rows without a prior
        return (
            np.where(observed, weighted / precision, prior_mean),
            np.where(observed, 1.0 / np.sqrt(precision), prior_sd),
        )


def posterior(
    prior_mean: float, prior_sd: float, observations: Sequence[tuple[float, float]]
) -> tuple[float, float]:
    """`posterior_columns` of one row: a prior and its `(y_b, sigma_b)` observations."""
    values = np.array([[y for y, _ in observations]], dtype=np.float64).reshape(1, -1)
    sigmas = np.array([[s for _, s in observations]], dtype=np.float64).reshape(1, -1)
    mean, sd = posterior_columns(
        np.array([prior_mean]), np.array([prior_sd]), values, sigmas, np.ones(values.shape, bool)
    )
    return float(mean[0]), float(sd[0])


def interval(mean: float, sd: float, z: float) -> tuple[float, float]:
    """The stated range `mean -/+ z*sd`, clamped to the scale (checked on held-out data, 3.2)."""
    return clamp_iq(mean - z * sd), clamp_iq(mean + z * sd)
