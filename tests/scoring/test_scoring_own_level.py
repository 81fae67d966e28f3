"""Priors from a model's `OwnLevel` are float for float the per-dimension rule's.

`own_level` gathers a model's direct estimates and its predecessor's once per model. The
reference below is the rule as written per dimension (METHODOLOGY 2.1-2.2: the lists built
afresh for each slug); every prior must equal it exactly, components included (and without
them with `detail=False`), on hypothesis-drawn models and predecessors.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st
from support.scoring import PARAMETERS

from generator.input.records import ParametersRecord
from generator.scoring.abstract import AbstractPredictor
from generator.scoring.priors import (
    Prior,
    Term,
    combine,
    level_abstract_prior,
    level_prior,
    own_level,
    sigma_cross,
)
from generator.scoring.types import DimensionEstimate
from generator.vocabulary import DIMENSION_SLUGS

ABSTRACT = DIMENSION_SLUGS[0]


def _cross(slug: str, own: Mapping[str, float | None]) -> tuple[float, int] | None:
    others = [v for other, v in own.items() if other != slug and v is not None]
    return (math.fsum(others) / len(others), len(others)) if others else None


def _mu_p(
    slug: str, own: Mapping[str, float | None], predecessor: Sequence[DimensionEstimate] | None
) -> tuple[Term | None, bool, list[tuple[str, float]]]:
    if predecessor is None:
        return None, False, []
    by_slug = {e.slug: e.value for e in predecessor}
    value = by_slug.get(slug)
    if value is None:
        return None, False, []
    gaps = [
        mine - theirs
        for other, mine in own.items()
        if other != slug and mine is not None and (theirs := by_slug.get(other)) is not None
    ]
    drift = math.fsum(gaps) / len(gaps) if gaps else 0.0
    evidence = any(e.slug == slug and e.evidence for e in predecessor)
    term = Term(name="mu-P", mean=value + drift, sd=PARAMETERS.sigma_predecessor)
    return term, evidence, [("drift", drift)]


def _reference(
    slug: str,
    own: Mapping[str, float | None],
    predecessor: Sequence[DimensionEstimate] | None,
    params: ParametersRecord,
) -> Prior | None:
    """Dimensions 2-7 as the rule reads, per dimension."""
    inherited, evidence, notes = _mu_p(slug, own, predecessor)
    terms = [inherited] if inherited is not None else []
    cross = _cross(slug, own)
    if cross is not None:
        notes.append(("n-C", float(cross[1])))
        terms.append(Term(name="C", mean=cross[0], sd=sigma_cross(params, cross[1])))
    if not terms:
        return Prior(mean=95.0, sd=params.sigma_population, source="population", evidence=False)
    source = {2: "predecessor-cross"}.get(
        len(terms), "predecessor" if inherited else "cross-dimension"
    )
    return combine(terms, source, evidence, notes)


def _reference_abstract(
    own: Mapping[str, float | None],
    predecessor: Sequence[DimensionEstimate] | None,
    predictor: AbstractPredictor,
    legacy: float | None,
) -> Prior | None:
    inherited, evidence, notes = _mu_p(ABSTRACT, own, predecessor)
    terms = [inherited] if inherited is not None else []
    residual = predictor.residual_sd or PARAMETERS.sigma_population
    cross = _cross(ABSTRACT, own)
    if cross is not None:
        notes += [
            ("other-dimensions-mean", cross[0]),
            ("intercept", predictor.intercept),
            ("slope", predictor.slope),
            ("fit-samples", float(predictor.samples)),
        ]
        terms.append(Term(name="R", mean=predictor.predict(cross[0]), sd=residual))
    if legacy is not None:
        terms.append(Term(name="legacy", mean=legacy, sd=residual))
    if not terms:
        return Prior(mean=95.0, sd=PARAMETERS.sigma_population, source="population", evidence=False)
    names = {"mu-P": "predecessor", "R": "regression", "legacy": "legacy"}
    return combine(terms, "-".join(names[t.name] for t in terms), evidence, notes)


_VALUE = st.none() | st.floats(70, 160)


@st.composite
def _levels(
    draw: st.DrawFn,
) -> tuple[dict[str, float | None], tuple[DimensionEstimate, ...] | None]:
    own = {slug: draw(_VALUE) for slug in DIMENSION_SLUGS}
    if not draw(st.booleans()):
        return own, None
    predecessor = tuple(
        DimensionEstimate(
            slug=slug,
            value=draw(_VALUE),
            sd=None,
            covered=0,
            total=0,
            imputed=False,
            method="",
            evidence=draw(st.booleans()),
        )
        for slug in DIMENSION_SLUGS
    )
    return own, predecessor


def _lean(prior: Prior | None) -> Prior | None:
    return None if prior is None else msgspec.structs.replace(prior, components=())


@settings(max_examples=300, deadline=None)
@given(_levels())
def test_dimension_priors_equal_the_per_dimension_rule(
    drawn: tuple[dict[str, float | None], tuple[DimensionEstimate, ...] | None],
) -> None:
    own, predecessor = drawn
    level = own_level(own, predecessor)
    for slug in DIMENSION_SLUGS[1:]:
        expected = _reference(slug, own, predecessor, PARAMETERS)
        assert level_prior(slug, level, 95.0, PARAMETERS) == expected
        assert level_prior(slug, level, 95.0, PARAMETERS, detail=False) == _lean(expected)


@settings(max_examples=300, deadline=None)
@given(_levels(), st.none() | st.floats(70, 160), st.floats(-2, 2), st.none() | st.floats(1, 30))
def test_abstract_priors_equal_the_per_dimension_rule(
    drawn: tuple[dict[str, float | None], tuple[DimensionEstimate, ...] | None],
    legacy: float | None,
    slope: float,
    residual: float | None,
) -> None:
    own, predecessor = drawn
    fit = AbstractPredictor(intercept=40.0, slope=slope, samples=9, residual_sd=residual)
    expected = _reference_abstract(own, predecessor, fit, legacy)
    level = own_level(own, predecessor)
    assert level_abstract_prior(ABSTRACT, level, fit, legacy, 95.0, PARAMETERS) == expected
    lean = level_abstract_prior(ABSTRACT, level, fit, legacy, 95.0, PARAMETERS, detail=False)
    assert lean == _lean(expected)
