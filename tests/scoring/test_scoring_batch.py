"""Priors over a batch of models are float for float the per-dimension rule's, for each model.

`generator/scoring/batch.py` computes every model of a batch at once, as columns. The
reference below is the rule as written per model and dimension (METHODOLOGY 2.1-2.2: the
lists built afresh for each slug, a model's few values summed left to right); every prior of
a hypothesis-drawn batch must equal it exactly, components included, whatever the other rows.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from support.scoring import PARAMETERS

from generator.input.records import ParametersRecord
from generator.scoring.abstract import AbstractPredictor
from generator.scoring.batch import level_of, priors
from generator.scoring.priors import Prior, Term, prior_at
from generator.scoring.types import DimensionEstimate
from generator.vocabulary import DIMENSION_SLUGS

ABSTRACT = DIMENSION_SLUGS[0]


def _in_order(values: Sequence[float]) -> float:
    total = 0.0
    for value in values:
        total += value
    return total


def _cross(slug: str, own: Mapping[str, float | None]) -> tuple[float, int] | None:
    others = [v for other, v in own.items() if other != slug and v is not None]
    return (_in_order(others) / len(others), len(others)) if others else None


def _combine(
    terms: Sequence[Term], source: str, evidence: bool, notes: Sequence[tuple[str, float]]
) -> Prior:
    """Precision weighting as written: 1/sd0^2 = sum 1/sd_t^2, mean0 = sum (sd0^2/sd_t^2) mean_t."""
    variance = 1.0 / _in_order([1.0 / t.sd**2 for t in terms])
    weights = [variance / t.sd**2 for t in terms]
    parts = list(notes)
    for term, weight in zip(terms, weights, strict=True):
        parts += [(term.name, term.mean), (f"sd-{term.name}", term.sd)]
        if len(terms) > 1:
            parts.append((f"weight-{term.name}", weight))
    return Prior(
        mean=_in_order([w * t.mean for w, t in zip(weights, terms, strict=True)]),
        sd=math.sqrt(variance),
        source=source,
        evidence=evidence,
        components=tuple(parts),
    )


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
    drift = _in_order(gaps) / len(gaps) if gaps else 0.0
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
        sd = math.sqrt(params.sigma_cross_scale / cross[1])
        terms.append(Term(name="C", mean=cross[0], sd=sd))
    if not terms:
        return Prior(mean=95.0, sd=params.sigma_population, source="population", evidence=False)
    source = {2: "predecessor-cross"}.get(
        len(terms), "predecessor" if inherited else "cross-dimension"
    )
    return _combine(terms, source, evidence, notes)


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
    return _combine(terms, "-".join(names[t.name] for t in terms), evidence, notes)


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


Drawn = tuple[dict[str, float | None], tuple[DimensionEstimate, ...] | None]


def _batch(
    drawn: Sequence[Drawn],
    slug: str,
    predictor: AbstractPredictor | None = None,
    legacy: Sequence[float | None] = (),
) -> list[Prior | None]:
    level = level_of([own for own, _ in drawn], DIMENSION_SLUGS, [p for _, p in drawn])
    legacies = list(legacy) or [None] * len(drawn)
    found = priors(
        level,
        DIMENSION_SLUGS.index(slug),
        slug == ABSTRACT,
        PARAMETERS,
        95.0,
        predictor,
        np.array([v or 0.0 for v in legacies]),
        np.array([v is not None for v in legacies]),
        detail=True,
    )
    return [prior_at(found, i) for i in range(len(drawn))]


@settings(max_examples=150, deadline=None)
@given(st.lists(_levels(), min_size=1, max_size=6))
def test_dimension_priors_equal_the_per_dimension_rule(drawn: list[Drawn]) -> None:
    for slug in DIMENSION_SLUGS[1:]:
        expected = [_reference(slug, own, predecessor, PARAMETERS) for own, predecessor in drawn]
        assert _batch(drawn, slug) == expected


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.tuples(_levels(), st.none() | st.floats(70, 160)), min_size=1, max_size=6),
    st.floats(-2, 2),
    st.none() | st.floats(1, 30),
)
def test_abstract_priors_equal_the_per_dimension_rule(
    rows: list[tuple[Drawn, float | None]], slope: float, residual: float | None
) -> None:
    fit = AbstractPredictor(intercept=40.0, slope=slope, samples=9, residual_sd=residual)
    drawn, legacy = [d for d, _ in rows], [v for _, v in rows]
    expected = [_reference_abstract(own, p, fit, v) for (own, p), v in rows]
    assert _batch(drawn, ABSTRACT, fit, legacy) == expected
