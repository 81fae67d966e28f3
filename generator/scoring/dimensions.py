"""One model's estimate in one dimension (docs/METHODOLOGY.md section 2, version 3).

Every dimension is a Normal posterior over its observations with a prior from
`generator.scoring.priors`: dimensions 2 to 7 subtract benchmark offsets,
abstract reasoning (dimension 1) has none. The rule lives in `generator/scoring/batch.py`
(`posterior_estimates`, over a column of models); this is its one-model form.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from generator.scoring.batch import (
    NO_ESTIMATE,
    Priors,
    Slot,
    observed,
    posterior_estimates,
    prior_method,
)
from generator.scoring.padded import pad_projections
from generator.scoring.priors import Prior
from generator.scoring.types import DimensionEstimate, Projection

__all__ = ["NO_ESTIMATE", "Slot", "posterior_estimate", "prior_method"]


def posterior_estimate(
    slot: Slot,
    projections: Sequence[Projection],
    offsets: Mapping[str, float],
    sigmas: Mapping[str, float],
    prior: Prior | None,
    shown: bool,
    z: float,
    *,
    detail: bool = True,
) -> DimensionEstimate:
    """The clamped posterior mean, or None when not `shown` and no evidence.

    `shown` is true for a model with a composite: every dimension then carries
    an estimate. Otherwise only dimensions with direct or predecessor evidence do.
    `offsets` holds the dimension's benchmark offsets (empty for abstract reasoning).
    Without `detail` the estimate leaves out what only a model's own documents show
    (projections, offsets, inputs, its 95% range): the same value, sd and method.
    """
    column = Priors(
        mean=np.array([0.0 if prior is None else prior.mean]),
        sd=np.array([1.0 if prior is None else prior.sd]),
        exists=np.array([prior is not None]),
        sources=["" if prior is None else prior.source],
        evidence=np.array([prior is not None and prior.evidence]),
        components=[() if prior is None else prior.components],
    )
    seen = observed(pad_projections([projections]), offsets, sigmas)
    found = posterior_estimates(
        slot, [projections], offsets, seen, column, np.array([shown]), z, detail=detail
    )
    return found[0]
