"""One model's estimate in one dimension (METHODOLOGY section 2).

Abstract reasoning is a direct mean or a legacy/predicted blend; dimensions 2
to 7 are a Normal posterior over offset-corrected observations with a prior
from the waterfall predecessor -> cross-dimension -> population.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import msgspec

from generator.input.records import ParametersRecord
from generator.scoring.abstract import AbstractPredictor, blend
from generator.scoring.ladder import clamp_iq
from generator.scoring.offsets import observations
from generator.scoring.posterior import posterior
from generator.scoring.types import DimensionEstimate, Projection

NO_ESTIMATE = "no-estimate"


class Prior(msgspec.Struct, frozen=True, kw_only=True):
    """The prior of one posterior: where it came from, and whether it is evidence."""

    mean: float
    sd: float
    source: str  # predecessor / cross-dimension / population
    evidence: bool  # the predecessor's own estimate rests on evidence


class Slot(msgspec.Struct, frozen=True, kw_only=True):
    """What every model shares for one dimension."""

    slug: str
    total: int  # benchmarks in the dimension
    min_benchmarks: int


def choose_prior(
    slug: str,
    own_direct: Mapping[str, float | None],
    predecessor: DimensionEstimate | None,
    population: float | None,
    params: ParametersRecord,
) -> Prior | None:
    """The first prior that applies: predecessor, cross-dimension, population."""
    if predecessor is not None and predecessor.value is not None:
        return Prior(
            mean=predecessor.value,
            sd=params.sigma_predecessor,
            source="predecessor",
            evidence=predecessor.evidence,
        )
    others = [value for other, value in own_direct.items() if other != slug and value is not None]
    if others:
        return Prior(
            mean=sum(others) / len(others),
            sd=params.sigma_cross,
            source="cross-dimension",
            evidence=False,
        )
    if population is not None:
        return Prior(
            mean=population, sd=params.sigma_population, source="population", evidence=False
        )
    return None


def posterior_estimate(
    slot: Slot,
    projections: Sequence[Projection],
    offsets: Mapping[str, float],
    sigmas: Mapping[str, float],
    prior: Prior | None,
    shown: bool,
) -> DimensionEstimate:
    """Dimensions 2-7: the clamped posterior mean, or None when not `shown` and no evidence.

    `shown` is true for a model with a composite: every dimension then carries
    an estimate. Otherwise only dimensions with direct or predecessor evidence do.
    """
    covered = len(projections)
    base = DimensionEstimate(
        slug=slot.slug,
        value=None,
        sd=None,
        covered=covered,
        total=slot.total,
        imputed=covered < slot.min_benchmarks,
        method=NO_ESTIMATE,
        evidence=False,
        projections=tuple(projections),
        offsets=tuple((p.benchmark, offsets.get(p.benchmark, 0.0)) for p in projections),
    )
    if prior is None:
        return base
    evidence = covered > 0 or (prior.source == "predecessor" and prior.evidence)
    ys = observations(projections, offsets)
    pairs = [(y, sigmas[p.benchmark]) for y, p in zip(ys, projections, strict=True)]
    mean, sd = posterior(prior.mean, prior.sd, pairs)
    visible = evidence or shown
    return msgspec.structs.replace(
        base,
        value=clamp_iq(mean) if visible else None,
        sd=sd if visible else None,
        method=("posterior" if covered else f"{prior.source}-prior") if visible else NO_ESTIMATE,
        evidence=evidence,
        prior_mean=prior.mean,
        prior_sd=prior.sd,
        prior_source=prior.source,
        inputs=(("data-mean", sum(ys) / len(ys)),) if ys else (),
    )


def abstract_estimate(
    slot: Slot,
    projections: Sequence[Projection],
    legacy: float | None,
    other_mean: float | None,
    predictor: AbstractPredictor | None,
    population: float | None,
    weight: float,
    shown: bool,
) -> DimensionEstimate:
    """Abstract reasoning: direct mean; else the legacy/predicted blend; else the population.

    `other_mean` is the mean of the model's direct estimates in dimensions 2-7
    (None without any). Without direct results the value is shown only for a
    model with a composite.
    """
    covered = len(projections)
    base = DimensionEstimate(
        slug=slot.slug,
        value=None,
        sd=None,
        covered=covered,
        total=slot.total,
        imputed=covered < slot.min_benchmarks,
        method=NO_ESTIMATE,
        evidence=covered > 0,
        projections=tuple(projections),
    )
    if covered:
        mean = sum(p.iq for p in projections) / covered
        return msgspec.structs.replace(base, value=mean, method="direct-mean")
    inputs: list[tuple[str, float]] = []
    if legacy is not None:
        inputs.append(("legacy", legacy))
    predicted = None
    if predictor is not None and other_mean is not None:
        predicted = predictor.predict(other_mean)
        inputs += [
            ("other-dimensions-mean", other_mean),
            ("intercept", predictor.intercept),
            ("slope", predictor.slope),
            ("fit-samples", float(predictor.samples)),
            ("predicted", predicted),
        ]
    blended = blend(legacy, predicted, weight)
    if blended is not None:
        if blended[1] == "legacy-predicted-blend":
            inputs.append(("weight", weight))
        value: float | None = clamp_iq(blended[0])
        method = blended[1]
    elif population is not None:
        value, method = population, "population-mean"
    else:
        value, method = None, NO_ESTIMATE
    if not shown:
        value, method = None, NO_ESTIMATE
    return msgspec.structs.replace(base, value=value, method=method, inputs=tuple(inputs))
