"""The prior of one model's dimension estimate (docs/METHODOLOGY.md sections 2.1 and 2.2).

The rule lives in `generator/scoring/batch.py`, over a column of models; these are its
one-model forms, for the methodology check and the tests: each builds a batch of one.

Each prior combines, by precision, the Normal terms that exist for the model:
the drift-adjusted predecessor `mu_P` (sd `sigma_predecessor`) and, for
dimensions 2 to 7, the mean `C` of the model's other direct dimensions (sd
`sqrt(sigma_cross_scale / n_C)`); for abstract reasoning, the regression `R` from
the model's other direct dimensions (sd: the fit's residual sd `s_R`) and an
optional legacy estimate (sd `s_R`). With no term, the population prior.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import msgspec
import numpy as np

from generator.input.records import ParametersRecord
from generator.scoring.abstract import AbstractPredictor
from generator.scoring.batch import (
    Level,
    Priors,
    Terms,
    combine_terms,
    cross_columns,
    cross_sd,
    drift_columns,
    level_of,
    priors,
    term_parts,
)
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


def _level(
    slug: str,
    own_direct: Mapping[str, float | None],
    predecessor: Sequence[DimensionEstimate] | None,
) -> tuple[Level, int]:
    """A batch of one, its dimensions in `own_direct`'s order (`slug` added if missing),
    and the column of `slug`."""
    slugs = list(own_direct) + ([] if slug in own_direct else [slug])
    return level_of([own_direct], slugs, [predecessor]), slugs.index(slug)


def cross_terms(slug: str, own_direct: Mapping[str, float | None]) -> tuple[float, int] | None:
    """`(C, n_C)`: the mean of the model's direct estimates outside `slug`, and their number."""
    mean, count = cross_columns(*_level(slug, own_direct, None))
    return (float(mean[0]), int(count[0])) if count[0] else None


def cross_mean(slug: str, own_direct: Mapping[str, float | None]) -> float | None:
    """`C`: the mean of the model's direct estimates in the dimensions other than `slug`."""
    found = cross_terms(slug, own_direct)
    return None if found is None else found[0]


def sigma_cross(params: ParametersRecord, n_c: int) -> float:
    """`sqrt(sigma_cross_scale / n_C)`: the sd of `C` shrinks with the dimensions it averages."""
    return float(cross_sd(params, np.array([float(n_c)]))[0])


def predecessor_mean(
    slug: str, own_direct: Mapping[str, float | None], predecessor: Sequence[DimensionEstimate]
) -> tuple[float, float] | None:
    """`(mu_P, drift)`: the predecessor's value in `slug` moved by the model's own level.

    `drift` = the mean over the other dimensions where both the model's direct
    estimate and the predecessor's estimate exist of their difference (0 if none).
    None when the predecessor has no estimate in `slug`.
    """
    mu, drift, present = drift_columns(*_level(slug, own_direct, predecessor))
    return (float(mu[0]), float(drift[0])) if present[0] else None


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
    with more than one, its weight `sd0^2 / sd_t^2`; empty without `detail`.
    """
    zero = np.zeros(1)
    column = Terms(
        names=tuple(term.name for term in terms),
        means=tuple(np.array([term.mean]) for term in terms),
        sds=tuple(np.array([term.sd]) for term in terms),
        present=tuple(np.ones(1, dtype=np.bool_) for _ in terms),
        drift=zero,
        cross=zero,
        count=zero,
    )
    combined = combine_terms(column)
    return Prior(
        mean=float(combined.mean[0]),
        sd=float(combined.sd[0]),
        source=source,
        evidence=evidence,
        components=(*notes, *term_parts(column, combined, 0)) if detail else (),
    )


def choose_prior(
    slug: str,
    own_direct: Mapping[str, float | None],
    predecessor: Sequence[DimensionEstimate] | None,
    population: float | None,
    params: ParametersRecord,
) -> Prior | None:
    """Dimensions 2-7, first that applies: `mu_P` and `C` combined by precision,
    `mu_P` alone, `C` alone (sd `sqrt(sigma_cross_scale / n_C)`), the population."""
    return _prior(slug, False, own_direct, predecessor, None, None, population, params)


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
    return _prior(slug, True, own_direct, predecessor, predictor, legacy, population, params)


def _prior(
    slug: str,
    abstract: bool,
    own_direct: Mapping[str, float | None],
    predecessor: Sequence[DimensionEstimate] | None,
    predictor: AbstractPredictor | None,
    legacy: float | None,
    population: float | None,
    params: ParametersRecord,
) -> Prior | None:
    level, column = _level(slug, own_direct, predecessor)
    found = priors(
        level,
        column,
        abstract,
        params,
        population,
        predictor,
        np.array([legacy or 0.0]),
        np.array([legacy is not None]),
        detail=True,
    )
    return prior_at(found, 0)


def prior_at(found: Priors, row: int) -> Prior | None:
    """Row `row` of a column of priors (None where it has none)."""
    if not found.exists[row]:
        return None
    return Prior(
        mean=float(found.mean[row]),
        sd=float(found.sd[row]),
        source=found.sources[row],
        evidence=bool(found.evidence[row]),
        components=found.components[row] if found.components else (),
    )
