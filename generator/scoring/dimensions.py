"""One model's estimate in one dimension (METHODOLOGY section 2).

Abstract reasoning is a direct mean or a legacy/predicted blend; dimensions 2
to 7 are a Normal posterior over offset-corrected observations with a prior
from the waterfall predecessor -> cross-dimension -> population.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import msgspec

from generator.input.records import ParametersRecord
from generator.scoring.abstract import AbstractPredictor, blend
from generator.scoring.ladder import clamp_iq
from generator.scoring.offsets import observations
from generator.scoring.posterior import interval, posterior
from generator.scoring.types import DimensionEstimate, Projection

NO_ESTIMATE = "no-estimate"


class Prior(msgspec.Struct, frozen=True, kw_only=True):
    """The prior of one posterior: where it came from, and whether it is evidence."""

    mean: float
    sd: float
    source: str  # predecessor-cross / predecessor / cross-dimension / population
    evidence: bool  # the predecessor's own estimate rests on evidence
    components: tuple[tuple[str, float], ...] = ()  # mu_P, drift, C, weights: for explain


class Slot(msgspec.Struct, frozen=True, kw_only=True):
    """What every model shares for one dimension."""

    slug: str
    total: int  # benchmarks in the dimension
    min_benchmarks: int


def cross_mean(slug: str, own_direct: Mapping[str, float | None]) -> float | None:
    """`C`: the mean of the model's direct estimates in the dimensions other than `slug`."""
    others = [value for other, value in own_direct.items() if other != slug and value is not None]
    return sum(others) / len(others) if others else None


def predecessor_mean(
    slug: str, own_direct: Mapping[str, float | None], predecessor: Sequence[DimensionEstimate]
) -> tuple[float, float] | None:
    """`(mu_P, drift)`: the predecessor's value in `slug` moved by the model's own level.

    `drift` = the mean over the other dimensions where both the model's direct
    estimate and the predecessor's estimate exist of their difference (0 if none).
    None when the predecessor has no estimate in `slug`.
    """
    by_slug = {estimate.slug: estimate.value for estimate in predecessor}
    value = by_slug.get(slug)
    if value is None:
        return None
    gaps = [
        own - theirs
        for other, own in own_direct.items()
        if other != slug and own is not None and (theirs := by_slug.get(other)) is not None
    ]
    drift = sum(gaps) / len(gaps) if gaps else 0.0
    return value + drift, drift


def choose_prior(
    slug: str,
    own_direct: Mapping[str, float | None],
    predecessor: Sequence[DimensionEstimate] | None,
    population: float | None,
    params: ParametersRecord,
) -> Prior | None:
    """The first prior that applies (version 2): predecessor and cross-dimension
    combined by precision, predecessor alone, cross-dimension alone, population."""
    cross = cross_mean(slug, own_direct)
    inherited = predecessor_mean(slug, own_direct, predecessor) if predecessor else None
    evidence = inherited is not None and predecessor is not None and _evidence(predecessor, slug)
    if inherited is not None and cross is not None:
        mu_p, drift = inherited
        var_p, var_c = params.sigma_predecessor**2, params.sigma_cross**2
        var0 = 1.0 / (1.0 / var_p + 1.0 / var_c)
        weight_p, weight_c = var0 / var_p, var0 / var_c
        return Prior(
            mean=weight_p * mu_p + weight_c * cross,
            sd=math.sqrt(var0),
            source="predecessor-cross",
            evidence=evidence,
            components=(
                ("mu-P", mu_p),
                ("drift", drift),
                ("C", cross),
                ("weight-P", weight_p),
                ("weight-C", weight_c),
            ),
        )
    if inherited is not None:
        mu_p, drift = inherited
        return Prior(
            mean=mu_p,
            sd=params.sigma_predecessor,
            source="predecessor",
            evidence=evidence,
            components=(("mu-P", mu_p), ("drift", drift)),
        )
    if cross is not None:
        return Prior(
            mean=cross,
            sd=params.sigma_cross,
            source="cross-dimension",
            evidence=False,
            components=(("C", cross),),
        )
    if population is not None:
        return Prior(
            mean=population, sd=params.sigma_population, source="population", evidence=False
        )
    return None


def _evidence(predecessor: Sequence[DimensionEstimate], slug: str) -> bool:
    return any(estimate.slug == slug and estimate.evidence for estimate in predecessor)


def posterior_estimate(
    slot: Slot,
    projections: Sequence[Projection],
    offsets: Mapping[str, float],
    sigmas: Mapping[str, float],
    prior: Prior | None,
    shown: bool,
    z: float,
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
    evidence = covered > 0 or prior.evidence
    ys = observations(projections, offsets)
    pairs = [(y, sigmas[p.benchmark]) for y, p in zip(ys, projections, strict=True)]
    mean, sd = posterior(prior.mean, prior.sd, pairs)
    visible = evidence or shown
    low, high = interval(clamp_iq(mean), sd, z)
    return msgspec.structs.replace(
        base,
        value=clamp_iq(mean) if visible else None,
        sd=sd if visible else None,
        low95=low if visible else None,
        high95=high if visible else None,
        method=("posterior" if covered else f"{prior.source}-prior") if visible else NO_ESTIMATE,
        evidence=evidence,
        prior_mean=prior.mean,
        prior_sd=prior.sd,
        prior_source=prior.source,
        inputs=(*prior.components, *((("data-mean", sum(ys) / len(ys)),) if ys else ())),
    )


def abstract_estimate(
    slot: Slot,
    projections: Sequence[Projection],
    legacy: float | None,
    other_mean: float | None,
    predictor: AbstractPredictor | None,
    population: float | None,
    spread: AbstractSpread,
    shown: bool,
) -> DimensionEstimate:
    """Abstract reasoning: direct mean; else the legacy/predicted blend; else the population.

    `other_mean` is the mean of the model's direct estimates in dimensions 2-7
    (None without any). Without direct results the value is shown only for a
    model with a composite. The sd (METHODOLOGY 3.1): direct, `sqrt(sum sigma_b^2) / k`;
    predicted, legacy or blend, the predictor's residual sd; population, `sigma_population`.
    """
    weight = spread.weight
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
        sd = math.sqrt(sum(spread.sigmas[p.benchmark] ** 2 for p in projections)) / covered
        return _with_sd(msgspec.structs.replace(base, value=mean, method="direct-mean"), sd, spread)
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
    if not shown or value is None:
        return msgspec.structs.replace(base, inputs=tuple(inputs))
    estimate = msgspec.structs.replace(base, value=value, method=method, inputs=tuple(inputs))
    residual = predictor.residual_sd if predictor is not None else None
    if method == "population-mean" or residual is None:
        return _with_sd(estimate, spread.population_sd, spread)
    return _with_sd(estimate, residual, spread)


class AbstractSpread(msgspec.Struct, frozen=True, kw_only=True):
    """The dataset-wide numbers abstract reasoning's value and sd depend on."""

    weight: float  # legacy_weight
    sigmas: Mapping[str, float]  # sigma_b by benchmark id
    population_sd: float  # sigma_population
    z: float  # interval_z


def _with_sd(estimate: DimensionEstimate, sd: float, spread: AbstractSpread) -> DimensionEstimate:
    """The estimate with its sd and stated range (an estimate without a value keeps none)."""
    if estimate.value is None:
        return estimate
    low, high = interval(estimate.value, sd, spread.z)
    return msgspec.structs.replace(estimate, sd=sd, low95=low, high95=high)
