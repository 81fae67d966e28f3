"""One model's estimate in one dimension (docs/METHODOLOGY.md section 2, version 3).

Every dimension is a Normal posterior over its observations with a prior from
`generator.scoring.priors`: dimensions 2 to 7 subtract benchmark offsets,
abstract reasoning (dimension 1) has none.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import msgspec

from generator.scoring.ladder import clamp_iq
from generator.scoring.offsets import observations
from generator.scoring.posterior import interval, posterior
from generator.scoring.priors import Prior
from generator.scoring.types import DimensionEstimate, Projection

NO_ESTIMATE = "no-estimate"
# A prior-only estimate's method is `<source>-prior`, except the regression alone (2.1).
_PRIOR_METHODS = {"regression": "predicted"}


class Slot(msgspec.Struct, frozen=True, kw_only=True):
    """What every model shares for one dimension."""

    slug: str
    total: int  # benchmarks in the dimension
    min_benchmarks: int


def prior_method(source: str) -> str:
    """`estimationMethod` of an estimate resting on its prior alone."""
    return _PRIOR_METHODS.get(source, f"{source}-prior")


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
    covered = len(projections)
    used = (
        tuple([(p.benchmark, offsets[p.benchmark]) for p in projections if p.benchmark in offsets])
        if offsets and detail
        else ()
    )
    if prior is None:
        return DimensionEstimate(
            slug=slot.slug,
            value=None,
            sd=None,
            covered=covered,
            total=slot.total,
            imputed=covered < slot.min_benchmarks,
            method=NO_ESTIMATE,
            evidence=False,
            projections=tuple(projections) if detail else (),
            offsets=used,
        )
    evidence = covered > 0 or prior.evidence
    inputs = prior.components
    if covered:
        ys = observations(projections, offsets)
        pairs = [(y, sigmas[p.benchmark]) for y, p in zip(ys, projections, strict=True)]
        mean, sd = posterior(prior.mean, prior.sd, pairs)
        if detail:
            inputs = (*inputs, ("data-mean", math.fsum(ys) / len(ys)))
    else:  # `posterior` gives the prior back exactly without observations
        mean, sd = prior.mean, prior.sd
    visible = evidence or shown
    value = clamp_iq(mean) if visible else None
    low, high = interval(value, sd, z) if value is not None and detail else (None, None)
    return DimensionEstimate(
        slug=slot.slug,
        value=value,
        sd=sd if visible else None,
        covered=covered,
        total=slot.total,
        imputed=covered < slot.min_benchmarks,
        method=("posterior" if covered else prior_method(prior.source)) if visible else NO_ESTIMATE,
        evidence=evidence,
        projections=tuple(projections) if detail else (),
        offsets=used,
        prior_mean=prior.mean,
        prior_sd=prior.sd,
        prior_source=prior.source,
        inputs=inputs,
        low95=low,
        high95=high,
    )
