"""Methodology version 2's dimension estimates, kept to compare version 3 against.

Version 2 (docs/METHODOLOGY.md, Versions): abstract reasoning is the plain mean of
the model's direct projections (sd `sqrt(sum sigma_b^2) / k`), else a blend
`w * legacy + (1 - w) * predicted` (sd: the fit's residual sd), else the population mean;
dimensions 2-7 combine `mu_P` (sd `sigma_predecessor` = 10) and `C` (a flat sd
`sigma_cross` = 12) by precision. Offsets, noise, the posterior and the regression fit are
the generator's own, unchanged between the versions. `estimate_dimensions_v2` has the
shape of `generator.scoring.engine.estimate_dimensions`, so `estimate_models` takes it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import msgspec

from generator.input.records import Dataset, ModelRecord, ParametersRecord
from generator.scoring.dimensions import NO_ESTIMATE, Slot, posterior_estimate
from generator.scoring.engine import ABSTRACT, Population
from generator.scoring.ladder import clamp_iq
from generator.scoring.posterior import interval
from generator.scoring.priors import Prior, Term, combine, cross_mean, predecessor_mean
from generator.scoring.types import DimensionEstimate, Projection

VERSION = "2026-11-25"  # the label version 2 was published under
SIGMA_PREDECESSOR = 10.0  # version 2's data/methodology.toml
SIGMA_CROSS = 12.0
LEGACY_WEIGHT = 0.5


def prior_v2(
    slug: str,
    own_direct: Mapping[str, float | None],
    predecessor: Sequence[DimensionEstimate] | None,
    population: float | None,
    params: ParametersRecord,
) -> Prior | None:
    """Dimensions 2-7, version 2: `mu_P` (sd 10) and `C` (sd 12) by precision, else one."""
    terms: list[Term] = []
    inherited = predecessor_mean(slug, own_direct, predecessor) if predecessor else None
    evidence = inherited is not None and any(
        e.slug == slug and e.evidence for e in predecessor or ()
    )
    if inherited is not None:
        terms.append(Term(name="mu-P", mean=inherited[0], sd=SIGMA_PREDECESSOR))
    cross = cross_mean(slug, own_direct)
    if cross is not None:
        terms.append(Term(name="C", mean=cross, sd=SIGMA_CROSS))
    if terms:
        source = {2: "predecessor-cross", 1: "predecessor" if inherited else "cross-dimension"}
        return combine(terms, source[len(terms)], evidence, ())
    if population is None:
        return None
    return Prior(mean=population, sd=params.sigma_population, source="population", evidence=False)


def abstract_v2(
    slot: Slot,
    projections: Sequence[Projection],
    model: ModelRecord,
    population: Population,
    params: ParametersRecord,
    shown: bool,
) -> DimensionEstimate:
    """Abstract reasoning, version 2: direct mean; else the legacy/predicted blend; else
    the population mean (shown only for a model with a composite)."""
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
        sd = math.sqrt(sum(population.sigmas[p.benchmark] ** 2 for p in projections)) / covered
        return _with_sd(base, mean, sd, "direct-mean", params)
    predictor = population.predictor
    other = cross_mean(slot.slug, population.direct[model.id])
    predicted = predictor.predict(other) if predictor is not None and other is not None else None
    legacy = model.legacy_abstract_estimate
    residual = predictor.residual_sd if predictor is not None else None
    if legacy is not None and predicted is not None:
        value = LEGACY_WEIGHT * legacy + (1 - LEGACY_WEIGHT) * predicted
        method = "legacy-predicted-blend"
    elif legacy is not None:
        value, method = legacy, "legacy-estimate"
    elif predicted is not None:
        value, method = predicted, "predicted"
    elif population.means[slot.slug] is not None:
        value, method, residual = population.means[slot.slug] or 0.0, "population-mean", None
    else:
        return base
    if not shown:
        return base
    sd = residual if residual is not None else params.sigma_population
    return _with_sd(base, clamp_iq(value), sd, method, params)


def _with_sd(
    base: DimensionEstimate, value: float, sd: float, method: str, params: ParametersRecord
) -> DimensionEstimate:
    low, high = interval(value, sd, params.interval_z)
    return msgspec.structs.replace(base, value=value, sd=sd, low95=low, high95=high, method=method)


def estimate_dimensions_v2(
    model: ModelRecord,
    dataset: Dataset,
    grouped: Mapping[str, tuple[Projection, ...]],
    population: Population,
    predecessor: tuple[DimensionEstimate, ...] | None,
) -> tuple[DimensionEstimate, ...]:
    """The model's seven estimates under version 2, in dimension order."""
    params = dataset.methodology.parameters
    direct = population.direct[model.id]
    shown = sum(1 for v in direct.values() if v is not None) >= params.min_direct_dimensions
    estimates = []
    for slot in population.slots:
        if slot.slug == ABSTRACT:
            estimates.append(
                abstract_v2(slot, grouped[slot.slug], model, population, params, shown)
            )
            continue
        prior = prior_v2(slot.slug, direct, predecessor, population.means[slot.slug], params)
        estimates.append(
            posterior_estimate(
                slot,
                grouped[slot.slug],
                population.offsets.get(slot.slug, {}),
                population.sigmas,
                prior,
                shown,
                params.interval_z,
            )
        )
    return tuple(estimates)
