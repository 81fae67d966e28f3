"""Dimension estimates of many models at once (docs/METHODOLOGY.md sections 2.1 and 2.2).

The engine's one implementation of the priors and posteriors: each number is a column over
the models of a batch (models whose predecessors are estimated already), so the live scoring
and the history replay run the same arithmetic, and a single model is a batch of one. A
model's few values (its other dimensions, its gaps to the predecessor, a prior's terms, its
observations) are summed in a fixed order, the order they are listed in: the same bytes on
any Python. Masked entries add an exact 0.0, so padding a column changes no sum.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import msgspec
import numpy as np
from numpy.typing import NDArray

from generator.input.records import ParametersRecord
from generator.scoring.abstract import AbstractPredictor
from generator.scoring.ladder import clamp_iqs as clamp
from generator.scoring.padded import Padded, ordered_sum, pad_projections, row_means
from generator.scoring.posterior import posterior_columns
from generator.scoring.types import DimensionEstimate, Projection
from generator.vocabulary import DIMENSION_SLUGS

Floats = NDArray[np.float64]
Flags = NDArray[np.bool_]
ABSTRACT = DIMENSION_SLUGS[0]
NO_ESTIMATE = "no-estimate"
# A prior-only estimate's method is `<source>-prior`, except the regression alone (2.1).
_PRIOR_METHODS = {"regression": "predicted"}
_ABSTRACT_SOURCES = ("predecessor", "regression", "legacy")  # by term: mu-P, R, legacy
# A prior's source by the terms present (bit k: term k): the abstract terms' names joined.
_ABSTRACT_NAMES = tuple(
    "-".join(name for k, name in enumerate(_ABSTRACT_SOURCES) if code >> k & 1)
    for code in range(1 << len(_ABSTRACT_SOURCES))
)
_OTHER_NAMES = ("", "predecessor", "cross-dimension", "predecessor-cross")  # mu-P, C


class Slot(msgspec.Struct, frozen=True, kw_only=True):
    """What every model shares for one dimension."""

    slug: str
    total: int  # benchmarks in the dimension
    min_benchmarks: int


class Row(msgspec.Struct, frozen=True, kw_only=True):
    """One model of a batch: what its estimates read besides the population."""

    direct: Mapping[str, float | None]  # its direct estimates, by slug
    grouped: Mapping[str, Sequence[Projection]]  # its projections, by slug
    predecessor: Sequence[DimensionEstimate] | None  # its predecessor's estimates
    legacy: float | None = None  # a legacy abstract-reasoning estimate in the data
    index: int | None = None  # its row in `Shared.tables`, where the batch has them


class Shared(msgspec.Struct, frozen=True, kw_only=True):
    """What every model of a batch shares: the population's numbers and the parameters."""

    slots: tuple[Slot, ...]
    offsets: Mapping[str, Mapping[str, float]]  # slug -> benchmark -> offset (not abstract)
    sigmas: Mapping[str, float]  # benchmark -> sigma_b
    means: Mapping[str, float | None]  # slug -> population mean of direct estimates
    predictor: AbstractPredictor | None
    params: ParametersRecord
    tables: Mapping[str, Padded] | None = None  # slug -> every model's projections, padded


def prior_method(source: str) -> str:
    """`estimationMethod` of an estimate resting on its prior alone."""
    return _PRIOR_METHODS.get(source, f"{source}-prior")


def mean_of_others(values: Floats, mask: Flags, column: int) -> tuple[Floats, Floats]:
    """`(mean, count)` per row of its masked-in values outside `column` (mean 0 at count 0)."""
    others = mask.copy()
    others[:, column] = False
    return row_means(values, others), others.sum(axis=1).astype(np.float64)


class Terms(msgspec.Struct, frozen=True, kw_only=True):
    """A prior's Normal terms as columns, in term order: each present where its mask says."""

    names: tuple[str, ...]
    means: tuple[Floats, ...]
    sds: tuple[Floats, ...]
    present: tuple[Flags, ...]
    drift: Floats  # behind `mu_P`: the row's drift from its predecessor
    cross: Floats  # behind `C` or `R`: the mean of the row's other direct estimates
    count: Floats  # and their number, `n_C`


class Combined(msgspec.Struct, frozen=True, kw_only=True):
    """Terms combined by precision, per row (meaningless where no term is present)."""

    mean: Floats
    sd: Floats
    weights: tuple[Floats, ...]


def combine_terms(terms: Terms) -> Combined:
    """`1/sd0^2 = sum 1/sd_t^2`, `mean0 = sum (sd0^2/sd_t^2) mean_t`, over the present terms."""
    squares = [sd**2 for sd in terms.sds]
    present = np.column_stack(terms.present)
    with np.errstate(divide="ignore", invalid="ignore"):  # rows without a term: masked later
        variance = 1.0 / ordered_sum(np.column_stack([1.0 / s for s in squares]), present)
        weights = tuple(variance / square for square in squares)
        products = np.column_stack([w * m for w, m in zip(weights, terms.means, strict=True)])
    mean = ordered_sum(products, present)
    return Combined(mean=mean, sd=np.sqrt(variance), weights=weights)


class Level(msgspec.Struct, frozen=True, kw_only=True):
    """Every row's own level: its direct estimates and its predecessor's, by dimension."""

    direct: Floats  # rows x dimensions, 0 where absent
    has_direct: Flags
    inherited: Floats  # the predecessor's values, 0 where absent
    has_inherited: Flags
    inherited_evidence: Flags  # the predecessor's estimate rests on evidence


def level_of(
    directs: Sequence[Mapping[str, float | None]],
    slugs: Sequence[str],
    predecessors: Sequence[Sequence[DimensionEstimate] | None] = (),
) -> Level:
    """The `Level` of rows with these direct estimates and (if given) predecessors."""
    direct = [[found.get(slug) for slug in slugs] for found in directs]
    inherited: list[list[float | None]] = [[None] * len(slugs) for _ in directs]
    evidence = [[False] * len(slugs) for _ in directs]
    order = list(slugs)
    for i, predecessor in enumerate(predecessors):
        if predecessor is None:
            continue
        if [e.slug for e in predecessor] != order:  # not one estimate per slug, in order
            by_slug = {e.slug: e for e in predecessor}
            predecessor = [by_slug.get(slug) or _NONE for slug in slugs]
        inherited[i] = [e.value for e in predecessor]
        evidence[i] = [e.evidence for e in predecessor]
    shape = (len(directs), len(slugs))
    return Level(
        direct=_filled(direct, len(slugs)),
        has_direct=np.array([[v is not None for v in r] for r in direct], np.bool_).reshape(shape),
        inherited=_filled(inherited, len(slugs)),
        has_inherited=np.array([[v is not None for v in r] for r in inherited], np.bool_).reshape(
            shape
        ),
        inherited_evidence=np.array(evidence, dtype=np.bool_).reshape(shape),
    )


_NONE = DimensionEstimate(
    slug="", value=None, sd=None, covered=0, total=0, imputed=True, method="", evidence=False
)  # stands in for an estimate a predecessor lacks


def _filled(table: list[list[float | None]], width: int) -> Floats:
    return np.array(
        [[0.0 if v is None else v for v in row] for row in table], dtype=np.float64
    ).reshape(len(table), width)


def cross_columns(level: Level, column: int) -> tuple[Floats, Floats]:
    """`(C, n_C)`: the mean of each row's direct estimates outside `column`, and their number."""
    return mean_of_others(level.direct, level.has_direct, column)


def drift_columns(level: Level, column: int) -> tuple[Floats, Floats, Flags]:
    """`(mu_P, drift, has mu_P)`: the predecessor's value in `column` moved by the row's
    drift, the mean of `own - predecessor's` over the other dimensions where both exist
    (0 if none)."""
    both = level.has_direct & level.has_inherited
    drift, _ = mean_of_others(level.direct - level.inherited, both, column)
    return level.inherited[:, column] + drift, drift, level.has_inherited[:, column]


class Observed(msgspec.Struct, frozen=True, kw_only=True):
    """A batch's observations in one dimension, padded to its longest row."""

    values: Floats  # y_b = f_b(raw) - o_b
    sigmas: Floats
    mask: Flags
    covered: NDArray[np.int64]


def observed(table: Padded, offsets: Mapping[str, float], sigmas: Mapping[str, float]) -> Observed:
    """`y_b` and `sigma_b` of every row's projections (`table`), in their order."""
    return Observed(
        values=table.values - table.per_benchmark(offsets, 0.0),
        sigmas=table.per_benchmark(sigmas, 1.0),
        mask=table.mask,
        covered=table.counts,
    )


def _table(rows: Sequence[Row], shared: Shared, slug: str) -> Padded:
    """The rows' projections in `slug`: taken from the shared tables where every row has
    its index there, else padded afresh."""
    indices = [row.index for row in rows]
    if shared.tables is None or None in indices:
        return pad_projections([row.grouped[slug] for row in rows])
    return shared.tables[slug].rows(np.array(indices, dtype=np.int64))


def cross_sd(params: ParametersRecord, count: Floats) -> Floats:
    """`sqrt(sigma_cross_scale / n_C)`: the sd of `C` shrinks with the dimensions it averages."""
    sds: Floats = np.sqrt(params.sigma_cross_scale / np.where(count > 0, count, 1.0))
    return sds


def prior_terms(
    level: Level,
    column: int,
    abstract: bool,
    params: ParametersRecord,
    predictor: AbstractPredictor | None,
    legacy: Floats,
    has_legacy: Flags,
) -> Terms:
    """The Normal terms of each row's prior in `column`, in term order, each with its
    presence: `mu_P` and `C` (2.2), or for abstract reasoning `mu_P`, `R` and a legacy
    estimate (2.1)."""
    mu, drift, has_mu = drift_columns(level, column)
    cross, count = cross_columns(level, column)
    notes = {"drift": drift, "cross": cross, "count": count}
    has_cross = count > 0
    mu_sd = np.full(len(mu), params.sigma_predecessor)
    if not abstract:
        return Terms(
            names=("mu-P", "C"),
            means=(mu, cross),
            sds=(mu_sd, cross_sd(params, count)),
            present=(has_mu, has_cross),
            **notes,
        )
    residual = params.sigma_population
    if predictor is not None and predictor.residual_sd is not None:
        residual = predictor.residual_sd
    residual_sd = np.full(len(mu), residual)
    if predictor is None:
        regression, has_regression = np.zeros(len(mu)), np.zeros(len(mu), dtype=np.bool_)
    else:
        regression = clamp(predictor.intercept + predictor.slope * cross)
        has_regression = has_cross
    return Terms(
        names=("mu-P", "R", "legacy"),
        means=(mu, regression, legacy),
        sds=(mu_sd, residual_sd, residual_sd),
        present=(has_mu, has_regression, has_legacy),
        **notes,
    )


class Priors(msgspec.Struct, frozen=True, kw_only=True):
    """A column of priors: each row's mean, sd, source and evidence (the predecessor's
    estimate rests on evidence), with `detail` the numbers behind it (for explain);
    `exists` is false for a row with none (no term and no population mean)."""

    mean: Floats
    sd: Floats
    exists: Flags
    sources: list[str]
    evidence: Flags
    components: list[tuple[tuple[str, float], ...]]


def priors(
    level: Level,
    column: int,
    abstract: bool,
    params: ParametersRecord,
    population: float | None,
    predictor: AbstractPredictor | None,
    legacy: Floats,
    has_legacy: Flags,
    *,
    detail: bool,
) -> Priors:
    """Each row's prior in the dimension of `column` (`abstract`: abstract reasoning's
    terms), first that applies:
    its terms combined by precision (`combine_terms`), else the population prior (mean
    `population`, sd `sigma_population`), else none."""
    terms = prior_terms(level, column, abstract, params, predictor, legacy, has_legacy)
    combined = combine_terms(terms)
    termed = np.logical_or.reduce(terms.present)
    sources = [
        source if has_terms else "population"
        for source, has_terms in zip(_sources(abstract, terms), termed.tolist(), strict=True)
    ]
    components: list[tuple[tuple[str, float], ...]] = []
    if detail:
        components = [
            (*_notes(abstract, terms, i, predictor), *term_parts(terms, combined, i)) if has else ()
            for i, has in enumerate(termed.tolist())
        ]
    return Priors(
        mean=np.where(termed, combined.mean, population or 0.0),
        sd=np.where(termed, combined.sd, params.sigma_population),
        exists=termed | (population is not None),
        sources=sources,
        evidence=terms.present[0] & level.inherited_evidence[:, column],
        components=components,
    )


def estimate_batch(
    rows: Sequence[Row], shared: Shared, *, detail: bool, level: Level | None = None
) -> list[tuple[DimensionEstimate, ...]]:
    """Each row's dimension estimates, in dimension order (`posterior_estimates` over
    `priors`). Without `detail` an estimate leaves out what only a model's own documents
    show (projections, offsets, inputs, its 95% range): the same value, sd and method.
    `level`: the rows' `level_of`, if the caller has it as columns already."""
    params = shared.params
    if level is None:
        level = level_of(
            [row.direct for row in rows],
            [slot.slug for slot in shared.slots],
            [row.predecessor for row in rows],
        )
    legacy = np.array([row.legacy or 0.0 for row in rows], dtype=np.float64)
    has_legacy = np.array([row.legacy is not None for row in rows], dtype=np.bool_)
    shown = level.has_direct.sum(axis=1) >= params.min_direct_dimensions
    columns = []
    for i, slot in enumerate(shared.slots):
        found = priors(
            level,
            i,
            slot.slug == ABSTRACT,
            params,
            shared.means[slot.slug],
            shared.predictor,
            legacy,
            has_legacy,
            detail=detail,
        )
        projections = [row.grouped[slot.slug] for row in rows]
        offsets = shared.offsets.get(slot.slug, {})
        seen = observed(_table(rows, shared, slot.slug), offsets, shared.sigmas)
        columns.append(
            posterior_estimates(
                slot,
                projections,
                offsets,
                seen,
                found,
                shown,
                params.interval_z,
                detail=detail,
            )
        )
    return [tuple(column[i] for column in columns) for i in range(len(rows))]


def posterior_estimates(
    slot: Slot,
    projections: Sequence[Sequence[Projection]],
    offsets: Mapping[str, float],
    seen: Observed,
    prior: Priors,
    shown: Flags,
    z: float,
    *,
    detail: bool,
) -> list[DimensionEstimate]:
    """Each row's estimate in one dimension: the clamped posterior mean over its
    observations (`seen`, of its `projections`; `offsets`: the dimension's, empty for
    abstract reasoning), or None when the model has no composite (`shown`) and the
    dimension no evidence."""
    mean, sd = posterior_columns(prior.mean, prior.sd, seen.values, seen.sigmas, seen.mask)
    evidence = ((seen.covered > 0) | prior.evidence).tolist()
    visible = ((seen.covered > 0) | prior.evidence | shown).tolist()
    value = clamp(mean)
    values, sds = value.tolist(), sd.tolist()
    lows: list[float] = []  # the 95% range and the data mean: only a model's own documents
    highs: list[float] = []
    data_mean: list[float] = []
    if detail:
        lows, highs = clamp(value - z * sd).tolist(), clamp(value + z * sd).tolist()
        data_mean = (ordered_sum(seen.values, seen.mask) / np.maximum(seen.covered, 1)).tolist()
    means, prior_sds, exists = prior.mean.tolist(), prior.sd.tolist(), prior.exists.tolist()
    covers = seen.covered.tolist()
    estimates = []
    for i, found in enumerate(projections):
        covered, shows = covers[i], visible[i]
        if not exists[i]:
            estimate = DimensionEstimate(
                slug=slot.slug,
                value=None,
                sd=None,
                covered=covered,
                total=slot.total,
                imputed=covered < slot.min_benchmarks,
                method=NO_ESTIMATE,
                evidence=False,
            )
        else:
            estimate = DimensionEstimate(
                slug=slot.slug,
                value=values[i] if shows else None,
                sd=sds[i] if shows else None,
                covered=covered,
                total=slot.total,
                imputed=covered < slot.min_benchmarks,
                method=_method(covered, prior.sources[i]) if shows else NO_ESTIMATE,
                evidence=evidence[i],
                prior_mean=means[i],
                prior_sd=prior_sds[i],
                prior_source=prior.sources[i],
            )
        if detail:
            inputs = prior.components[i] if exists[i] else ()
            if covered and exists[i]:
                inputs = (*inputs, ("data-mean", data_mean[i]))
            estimate = msgspec.structs.replace(
                estimate,
                projections=tuple(found),
                offsets=_used(found, offsets) if offsets else (),
                inputs=inputs,
                low95=lows[i] if shows and exists[i] else None,
                high95=highs[i] if shows and exists[i] else None,
            )
        estimates.append(estimate)
    return estimates


def _method(covered: int, source: str) -> str:
    return "posterior" if covered else prior_method(source)


def _used(
    projections: Sequence[Projection], offsets: Mapping[str, float]
) -> tuple[tuple[str, float], ...]:
    """The `(benchmark, offset)` pairs a row's observations subtracted."""
    return tuple(
        [(p.benchmark, offsets[p.benchmark]) for p in projections if p.benchmark in offsets]
    )


def _sources(abstract: bool, terms: Terms) -> list[str]:
    """Each row's prior source: the terms combined (predecessor-cross, regression, ...)."""
    code = np.zeros(len(terms.present[0]), dtype=np.int64)
    for k, present in enumerate(terms.present):
        code |= present.astype(np.int64) << k
    names = _ABSTRACT_NAMES if abstract else _OTHER_NAMES
    return [names[c] for c in code.tolist()]


def _notes(
    abstract: bool, terms: Terms, i: int, predictor: AbstractPredictor | None
) -> list[tuple[str, float]]:
    """The numbers behind row `i`'s terms: its drift, n-C or the regression's inputs."""
    notes: list[tuple[str, float]] = []
    if terms.present[0][i]:
        notes.append(("drift", float(terms.drift[i])))
    if not abstract and terms.present[1][i]:
        notes.append(("n-C", float(terms.count[i])))
    if abstract and terms.present[1][i] and predictor is not None:
        notes += [
            ("other-dimensions-mean", float(terms.cross[i])),
            ("intercept", predictor.intercept),
            ("slope", predictor.slope),
            ("fit-samples", float(predictor.samples)),
        ]
    return notes


def term_parts(terms: Terms, combined: Combined, i: int) -> list[tuple[str, float]]:
    """Row `i`'s present terms, each with its sd and, with more than one, its weight."""
    present = [k for k in range(len(terms.names)) if terms.present[k][i]]
    parts: list[tuple[str, float]] = []
    for k in present:
        name = terms.names[k]
        parts += [(name, float(terms.means[k][i])), (f"sd-{name}", float(terms.sds[k][i]))]
        if len(present) > 1:
            parts.append((f"weight-{name}", float(combined.weights[k][i])))
    return parts
