"""The prior of every dimension estimate (docs/METHODOLOGY.md sections 2.1 and 2.2, version 3).

Each prior combines, by precision, the Normal terms that exist for the model:
the drift-adjusted predecessor `mu_P` (sd `sigma_predecessor`) and, for
dimensions 2 to 7, the mean `C` of the model's other direct dimensions (sd
`sqrt(sigma_cross_scale / n_C)`); for abstract reasoning, the regression `R` from
the model's other direct dimensions (sd: the fit's residual sd `s_R`) and an
optional legacy estimate (sd `s_R`). With no term, the population prior.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import msgspec

from generator.input.records import ParametersRecord
from generator.scoring.abstract import AbstractPredictor
from generator.scoring.types import DimensionEstimate


class Prior(msgspec.Struct, frozen=True, kw_only=True):
    """The prior of one posterior: where it came from, and whether it is evidence."""

    mean: float
    sd: float
    source: str  # the terms combined (predecessor-cross, regression, ...) or population
    evidence: bool  # the predecessor's own estimate rests on evidence
    components: tuple[tuple[str, float], ...] = ()  # the terms and their weights: for explain


class Term(msgspec.Struct, frozen=True, kw_only=True):
    """One Normal term of a prior: a name (`mu-P`, `C`, `R`, `legacy`), mean and sd."""

    name: str
    mean: float
    sd: float


class OwnLevel(msgspec.Struct, frozen=True, kw_only=True):
    """What every prior of one model reads of its direct estimates and its predecessor,
    gathered once per model instead of once per dimension (the same lists, in the same order).

    `present`: the model's direct estimates that exist, in `own_direct`'s order; `gaps`:
    `(slug, own - predecessor's)` where both exist, in that order; `inherited`: the
    predecessor's value by slug; `evidence`: the slugs where its estimate is evidence.
    """

    present: tuple[tuple[str, float], ...]
    gaps: tuple[tuple[str, float], ...]
    inherited: dict[str, float | None] | None  # None without a predecessor
    evidence: frozenset[str]


def own_level(
    own_direct: Mapping[str, float | None], predecessor: Sequence[DimensionEstimate] | None
) -> OwnLevel:
    """The `OwnLevel` of a model from its direct estimates and its predecessor's estimates."""
    present = tuple([(slug, value) for slug, value in own_direct.items() if value is not None])
    if predecessor is None:
        return OwnLevel(present=present, gaps=(), inherited=None, evidence=frozenset())
    by_slug = {estimate.slug: estimate.value for estimate in predecessor}
    gaps = tuple(
        [(slug, own - theirs) for slug, own in present if (theirs := by_slug.get(slug)) is not None]
    )
    evidence = frozenset([estimate.slug for estimate in predecessor if estimate.evidence])
    return OwnLevel(present=present, gaps=gaps, inherited=by_slug, evidence=evidence)


def cross_terms(slug: str, own_direct: Mapping[str, float | None]) -> tuple[float, int] | None:
    """`(C, n_C)`: the mean of the model's direct estimates outside `slug`, and their number."""
    return _cross_terms(slug, own_level(own_direct, None))


def _cross_terms(slug: str, level: OwnLevel) -> tuple[float, int] | None:
    others = [value for other, value in level.present if other != slug]
    return (math.fsum(others) / len(others), len(others)) if others else None


def cross_mean(slug: str, own_direct: Mapping[str, float | None]) -> float | None:
    """`C`: the mean of the model's direct estimates in the dimensions other than `slug`."""
    found = cross_terms(slug, own_direct)
    return None if found is None else found[0]


def sigma_cross(params: ParametersRecord, n_c: int) -> float:
    """`sqrt(sigma_cross_scale / n_C)`: the sd of `C` shrinks with the dimensions it averages."""
    return math.sqrt(params.sigma_cross_scale / n_c)


def predecessor_mean(
    slug: str, own_direct: Mapping[str, float | None], predecessor: Sequence[DimensionEstimate]
) -> tuple[float, float] | None:
    """`(mu_P, drift)`: the predecessor's value in `slug` moved by the model's own level.

    `drift` = the mean over the other dimensions where both the model's direct
    estimate and the predecessor's estimate exist of their difference (0 if none).
    None when the predecessor has no estimate in `slug`.
    """
    return _predecessor_mean(slug, own_level(own_direct, predecessor))


def _predecessor_mean(slug: str, level: OwnLevel) -> tuple[float, float] | None:
    value = level.inherited.get(slug) if level.inherited is not None else None
    if value is None:
        return None
    gaps = [gap for other, gap in level.gaps if other != slug]
    drift = math.fsum(gaps) / len(gaps) if gaps else 0.0
    return value + drift, drift


_LABELS: dict[str, tuple[str, str]] = {}


def _labels(name: str) -> tuple[str, str]:
    """`sd-<name>` and `weight-<name>`, made once per term name."""
    found = _LABELS.get(name)
    if found is None:
        found = _LABELS[name] = (f"sd-{name}", f"weight-{name}")
    return found


def precision_weights(sds: Sequence[float]) -> tuple[list[float], float]:
    """Each term's weight `sd0^2 / sd_t^2` and the combined variance `sd0^2` (as `combine`)."""
    squares = [sd**2 for sd in sds]
    variance = 1.0 / math.fsum([1.0 / square for square in squares])
    return [variance / square for square in squares], variance


def combine(
    terms: Sequence[Term],
    source: str,
    evidence: bool,
    notes: Sequence[tuple[str, float]],
    *,
    detail: bool = True,
) -> Prior:
    """Terms combined by precision: `1/sd0^2 = sum 1/sd_t^2`, `mean0 = sd0^2 sum mean_t/sd_t^2`.

    `components` lists `notes` (the numbers behind the terms), then each term and,
    with more than one, its weight `sd0^2 / sd_t^2`; empty without `detail` (the same
    mean and sd).
    """
    if len(terms) == 1:  # what the general path computes for one term, without its lists
        term = terms[0]
        square = term.sd**2
        variance = 1.0 / (1.0 / square)  # `fsum` of one float is that float
        alone = (*notes, (term.name, term.mean), (_labels(term.name)[0], term.sd)) if detail else ()
        return Prior(
            mean=variance / square * term.mean,
            sd=math.sqrt(variance),
            source=source,
            evidence=evidence,
            components=alone,
        )
    weights, variance = precision_weights([term.sd for term in terms])
    mean = math.fsum([w * term.mean for w, term in zip(weights, terms, strict=True)])
    parts: list[tuple[str, float]] = []
    if detail:
        parts += notes
        for term, weight in zip(terms, weights, strict=True):
            sd_label, weight_label = _labels(term.name)
            parts += [(term.name, term.mean), (sd_label, term.sd), (weight_label, weight)]
    return Prior(
        mean=mean, sd=math.sqrt(variance), source=source, evidence=evidence, components=tuple(parts)
    )


def _inherited(
    slug: str, level: OwnLevel, params: ParametersRecord, detail: bool
) -> tuple[Term | None, bool, list[tuple[str, float]]]:
    """The `mu_P` term (None without one), whether it is evidence, and its drift (as a note,
    with `detail`)."""
    if level.inherited is None:
        return None, False, []
    found = _predecessor_mean(slug, level)
    if found is None:
        return None, False, []
    term = Term(name="mu-P", mean=found[0], sd=params.sigma_predecessor)
    return term, slug in level.evidence, [("drift", found[1])] if detail else []


def _population(population: float | None, params: ParametersRecord) -> Prior | None:
    if population is None:
        return None
    return Prior(mean=population, sd=params.sigma_population, source="population", evidence=False)


def choose_prior(
    slug: str,
    own_direct: Mapping[str, float | None],
    predecessor: Sequence[DimensionEstimate] | None,
    population: float | None,
    params: ParametersRecord,
) -> Prior | None:
    """Dimensions 2-7, first that applies: `mu_P` and `C` combined by precision,
    `mu_P` alone, `C` alone (sd `sqrt(sigma_cross_scale / n_C)`), the population."""
    return level_prior(slug, own_level(own_direct, predecessor), population, params)


def level_prior(
    slug: str,
    level: OwnLevel,
    population: float | None,
    params: ParametersRecord,
    *,
    detail: bool = True,
) -> Prior | None:
    """`choose_prior` from the model's `OwnLevel` (`detail`: as in `combine`)."""
    inherited, evidence, notes = _inherited(slug, level, params, detail)
    terms = [inherited] if inherited is not None else []
    cross = _cross_terms(slug, level)
    if cross is not None:
        if detail:
            notes.append(("n-C", float(cross[1])))
        terms.append(Term(name="C", mean=cross[0], sd=sigma_cross(params, cross[1])))
    if not terms:
        return _population(population, params)
    if len(terms) == 2:
        source = "predecessor-cross"
    else:
        source = "predecessor" if inherited else "cross-dimension"
    return combine(terms, source, evidence, notes, detail=detail)


def abstract_prior(
    slug: str,
    own_direct: Mapping[str, float | None],
    predecessor: Sequence[DimensionEstimate] | None,
    predictor: AbstractPredictor | None,
    legacy: float | None,
    population: float | None,
    params: ParametersRecord,
) -> Prior | None:
    """Abstract reasoning (dimension 1), first that applies: `mu_P` and `R` combined by
    precision, `R` alone (sd `s_R`), `mu_P` alone, the population; a legacy estimate in
    the data is one more term of sd `s_R`. `R` needs the model's other direct dimensions.

    `s_R` is the fit's residual sd, or `sigma_population` when the fit has none
    (fewer than three models, or a perfect fit).
    """
    level = own_level(own_direct, predecessor)
    return level_abstract_prior(slug, level, predictor, legacy, population, params)


def level_abstract_prior(
    slug: str,
    level: OwnLevel,
    predictor: AbstractPredictor | None,
    legacy: float | None,
    population: float | None,
    params: ParametersRecord,
    *,
    detail: bool = True,
) -> Prior | None:
    """`abstract_prior` from the model's `OwnLevel` (`detail`: as in `combine`)."""
    inherited, evidence, notes = _inherited(slug, level, params, detail)
    terms = [inherited] if inherited is not None else []
    residual = params.sigma_population
    if predictor is not None and predictor.residual_sd is not None:
        residual = predictor.residual_sd
    cross = _cross_terms(slug, level)
    if predictor is not None and cross is not None:
        x = cross[0]
        if detail:
            notes += [
                ("other-dimensions-mean", x),
                ("intercept", predictor.intercept),
                ("slope", predictor.slope),
                ("fit-samples", float(predictor.samples)),
            ]
        terms.append(Term(name="R", mean=predictor.predict(x), sd=residual))
    if legacy is not None:
        terms.append(Term(name="legacy", mean=legacy, sd=residual))
    if not terms:
        return _population(population, params)
    return combine(terms, _abstract_source(terms), evidence, notes, detail=detail)


_TERM_SOURCES = {"mu-P": "predecessor", "R": "regression", "legacy": "legacy"}


def _abstract_source(terms: Sequence[Term]) -> str:
    """`predecessor-regression`, `regression`, `predecessor`, each `-legacy` with a legacy term."""
    return "-".join(_TERM_SOURCES[term.name] for term in terms)
