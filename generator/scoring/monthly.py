"""The history's dimension estimates of one month, column-wise over its models (numpy).

`estimate_values` scores one model at a time; a history month asks it of every model
released by then, against a population (offsets, noise, predictor) that moves every month,
so little repeats from one month to the next. `month_values` gives the same values, sds,
evidence and coverage for all of them at once: the models are split into generations (a
model comes after its predecessor, whose estimates its prior reads) and each generation
takes one array expression per step of `priors.py`, `posterior.py` and `dimensions.py`.

The numbers are the plain path's, bit for bit: every per-model step is an IEEE float64
`+ - * / sqrt`, which numpy rounds as Python does, taken in the same order (sums as in
`columns.py`); `x ** 2`, which Python hands to libm's `pow`, is taken only of the few sds a
month has (parameters, each `sigma_b`, the precision-combined prior sds), in Python.
`tests/scoring/test_monthly.py` compares this with `estimate_values` on every month of a
synthetic catalogue and under hypothesis.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from generator.input.records import ModelRecord, ParametersRecord
from generator.scoring.columns import PLAIN_SUM, Counts, Flags, Floats, clamp, means_without_each
from generator.scoring.month_population import MonthPopulation, Observed
from generator.scoring.priors import precision_weights, sigma_cross


@dataclass(frozen=True)
class MonthValues:
    """Every model's estimates as `estimate_values` gives them: a row per model (in the
    order given), a column per dimension (in `population.slots` order)."""

    value: Floats  # the clamped posterior mean; meaningless where `has` is false
    sd: Floats
    has: Flags  # a value and an sd exist (the method is not `no-estimate`)
    evidence: Flags
    covered: Counts  # direct benchmarks used


@dataclass(frozen=True)
class _Term:
    """One Normal term of the priors, a row per model and a column per dimension: `key` 0
    where there is no such term, else the index of its sd among the column's options."""

    key: Counts
    mean: Floats


@dataclass(frozen=True)
class _Own:
    """What the priors read of each model itself, for the whole month: its direct estimates,
    the second term (`C` in dimensions 2-7, `R` in abstract reasoning), the legacy
    estimate (abstract reasoning alone), and whether it shows every estimate."""

    direct: Floats
    present: Flags
    second: _Term
    legacy: _Term
    shown: Flags


@dataclass(frozen=True)
class _Table:
    """Per dimension and combination of terms (`code`: a mixed-radix number, a digit per
    term, 0 absent, i its i-th sd option), each term's weight, the combined sd, its square
    and whether any term is present, by `precision_weights` in Python; `radix` is the
    second term's number of options in each dimension."""

    weights: tuple[Floats, Floats, Floats]  # dimensions x codes each
    sd: Floats
    square: Floats
    combined: Flags
    radix: Counts


def month_values(
    models: Mapping[str, ModelRecord], population: MonthPopulation, params: ParametersRecord
) -> MonthValues | None:
    """What `estimate_values` gives each of `models` (by id, in order), scored in
    predecessor order; None where the plain path must score (a lineage cycle, a `sum`
    that does not add left to right, or a division the plain path would refuse)."""
    generations = _generations(models)
    if generations is None or not PLAIN_SUM:
        return None
    # Python raises on x / 0 where numpy gives inf or nan, which the clamp would turn into
    # a score: such a month is left to the plain path (the loader's bounds keep every sd
    # well above the underflow that could get here).
    try:
        with np.errstate(divide="raise", invalid="raise"):
            return _values(models, generations, population, params)
    except FloatingPointError:
        return None


def _values(
    models: Mapping[str, ModelRecord],
    generations: list[tuple[Counts, Counts | None]],
    population: MonthPopulation,
    params: ParametersRecord,
) -> MonthValues:
    shape = population.direct.shape
    out = MonthValues(
        value=np.zeros(shape),
        sd=np.zeros(shape),
        has=np.zeros(shape, dtype=bool),
        evidence=np.zeros(shape, dtype=bool),
        covered=np.stack([found.count for found in population.observed], axis=1).reshape(shape),
    )
    own = _own([models[m].legacy_abstract_estimate for m in models], population, params)
    table = _table(_options(population, params))
    observed = _Stacked.of(population.observed, shape)
    for rows, parents in generations:
        inherited, evidence = _inherited(rows, parents, own, out)
        prior = _prior(rows, inherited, evidence, own, table, population, params)
        _posterior(rows, prior, observed, own.shown[rows], out)
    return out


def _predecessor(model: ModelRecord) -> str | None:
    return model.lineage.predecessor if model.lineage is not None else None


def _generations(models: Mapping[str, ModelRecord]) -> list[tuple[Counts, Counts | None]] | None:
    """The rows of each generation (0: no predecessor among `models`), oldest first, with
    their predecessors' rows; None on a lineage cycle (the loader rejects those)."""
    row = {model_id: index for index, model_id in enumerate(models)}
    parents = np.array([row.get(_predecessor(m) or "", -1) for m in models.values()], np.intp)
    depths = np.where(parents < 0, 0, -1)
    while (pending := depths < 0).any():  # each pass places one more generation
        ready = pending & (depths[parents] >= 0)  # a pending row has a predecessor
        if not ready.any():
            return None  # the rest wait on each other: a cycle
        depths[ready] = depths[parents[ready]] + 1
    generations: list[tuple[Counts, Counts | None]] = []
    for level in range(int(depths.max()) + 1 if len(depths) else 0):
        rows = np.flatnonzero(depths == level)
        generations.append((rows, parents[rows] if level else None))
    return generations


def _own(
    legacy: Sequence[float | None], population: MonthPopulation, params: ParametersRecord
) -> _Own:
    """The month's `_Own`: the cross means (`priors._cross_terms`) of every dimension at
    once; `R` where the model has other direct dimensions and there is a predictor."""
    direct, present = population.direct, population.present
    cross, count = means_without_each(direct, present)
    second = _Term(key=count.copy(), mean=cross.copy())
    predictor = population.predictor
    if predictor is None:
        second.key[:, 0] = 0
    else:
        second.key[:, 0] = count[:, 0] > 0
        second.mean[:, 0] = clamp(predictor.intercept + predictor.slope * cross[:, 0])
    stated = _Term(key=np.zeros(direct.shape, dtype=np.intp), mean=np.zeros(direct.shape))
    stated.key[:, 0] = [v is not None for v in legacy]
    stated.mean[:, 0] = [v if v is not None else 0.0 for v in legacy]
    shown: Flags = present.sum(axis=1) >= params.min_direct_dimensions
    return _Own(direct=direct, present=present, second=second, legacy=stated, shown=shown)


def _options(
    population: MonthPopulation, params: ParametersRecord
) -> tuple[tuple[tuple[float, ...], ...], ...]:
    """Per dimension, the sd options of its three terms (index 0 stands for "absent"):
    `mu_P` `sigma_predecessor`; `C` `sqrt(sigma_cross_scale / n_C)` for n_C = 1..6, or `R`
    `s_R` with a predictor; the legacy estimate `s_R` (abstract reasoning alone)."""
    predictor = population.predictor
    residual = params.sigma_population
    if predictor is not None and predictor.residual_sd is not None:
        residual = predictor.residual_sd
    width = len(population.slots)
    cross = (0.0, *(sigma_cross(params, n) for n in range(1, width)))
    inherited = (0.0, params.sigma_predecessor)
    abstract = (inherited, (0.0, residual) if predictor is not None else (0.0,), (0.0, residual))
    return (abstract, *((inherited, cross, (0.0,)) for _ in range(1, width)))


@functools.lru_cache(maxsize=16)
def _table(options: tuple[tuple[tuple[float, ...], ...], ...]) -> _Table:
    """The `_Table` of every dimension's term options."""
    size = max(math.prod(len(o) for o in terms) for terms in options)
    weights = (
        np.zeros((len(options), size)),
        np.zeros((len(options), size)),
        np.zeros((len(options), size)),
    )
    sd, square = np.ones((len(options), size)), np.ones((len(options), size))
    combined = np.zeros((len(options), size), dtype=bool)
    for column, terms in enumerate(options):
        for code in range(math.prod(len(o) for o in terms)):
            digits = (code % 2, code // 2 % len(terms[1]), code // (2 * len(terms[1])))
            present = [(t, terms[t][d]) for t, d in enumerate(digits) if d]
            if present:
                found, variance = precision_weights([s for _, s in present])
                for (term, _), weight in zip(present, found, strict=True):
                    weights[term][column, code] = weight
                sd[column, code] = math.sqrt(variance)
                square[column, code] = math.sqrt(variance) ** 2
                combined[column, code] = True
    radix = np.array([len(terms[1]) for terms in options], dtype=np.intp)
    return _Table(weights=weights, sd=sd, square=square, combined=combined, radix=radix)


def _inherited(
    rows: Counts, parents: Counts | None, own: _Own, out: MonthValues
) -> tuple[_Term, Flags]:
    """The `mu_P` term of every dimension (the predecessor's value moved by the drift:
    `priors._predecessor_mean`) and whether it is evidence."""
    shape = (len(rows), out.value.shape[1])
    if parents is None:
        return _Term(key=np.zeros(shape, dtype=np.intp), mean=np.zeros(shape)), np.zeros(
            shape, dtype=bool
        )
    theirs, has = out.value[parents], out.has[parents]
    drift, _ = means_without_each(own.direct[rows] - theirs, own.present[rows] & has)
    term = _Term(key=has.astype(np.intp), mean=theirs + drift)
    return term, has & out.evidence[parents]


@dataclass(frozen=True)
class _Prior:
    """The priors of one generation (`exists` false: `None` in the plain path)."""

    mean: Floats
    sd: Floats
    square: Floats  # sd ** 2, as Python computes it
    exists: Flags
    evidence: Flags


def _prior(
    rows: Counts,
    inherited: _Term,
    evidence: Flags,
    own: _Own,
    table: _Table,
    population: MonthPopulation,
    params: ParametersRecord,
) -> _Prior:
    """`level_abstract_prior` (column 0) and `level_prior` (the others): `priors.combine` of
    each row's terms, or the population prior where it has none."""
    terms = (
        inherited,
        _Term(key=own.second.key[rows], mean=own.second.mean[rows]),
        _Term(key=own.legacy.key[rows], mean=own.legacy.mean[rows]),
    )
    code = terms[0].key + 2 * terms[1].key + 2 * table.radix * terms[2].key
    column = np.arange(code.shape[1])[None, :]
    mean = np.zeros(code.shape)
    for term, weights in zip(terms, table.weights, strict=True):
        mean = np.where(term.key > 0, mean + weights[column, code] * term.mean, mean)
    means = [population.means[slot.slug] for slot in population.slots]
    known = np.array([m is not None for m in means])
    alone = ~table.combined[column, code]  # no term: the population prior, if there is one
    fallback = params.sigma_population
    return _Prior(
        mean=np.where(alone, np.array([m if m is not None else 0.0 for m in means]), mean),
        sd=np.where(alone, fallback, table.sd[column, code]),
        square=np.where(alone, fallback**2, table.square[column, code]),
        exists=~alone | known,
        evidence=evidence,
    )


@dataclass(frozen=True)
class _Stacked:
    """Every dimension's observations, models x dimensions x observations: `1 / sigma_b^2`
    and `y_b / sigma_b^2` (as `posterior.posterior` divides), `count` per model and dimension."""

    inverse: Floats
    ratio: Floats
    count: Counts

    @classmethod
    def of(cls, observed: Sequence[Observed], shape: tuple[int, ...]) -> _Stacked:
        width = max((found.y.shape[1] for found in observed), default=0)
        y = np.zeros((*shape, width))
        square = np.ones((*shape, width))
        for column, found in enumerate(observed):
            y[:, column, : found.y.shape[1]] = found.y
            square[:, column, : found.y.shape[1]] = found.square
        count = np.stack([found.count for found in observed], axis=1).reshape(shape)
        return cls(inverse=1.0 / square, ratio=y / square, count=count)


def _posterior(
    rows: Counts, prior: _Prior, observed: _Stacked, shown: Flags, out: MonthValues
) -> None:
    """`posterior_estimate` (without detail) of every row and dimension, written into `out`."""
    count = observed.count[rows]
    inverse, ratio = observed.inverse[rows], observed.ratio[rows]
    precision = 1.0 / prior.square
    weighted = prior.mean / prior.square
    for column in range(inverse.shape[2]):
        has = count > column
        precision = np.where(has, precision + inverse[:, :, column], precision)
        weighted = np.where(has, weighted + ratio[:, :, column], weighted)
    covered = count > 0
    mean = np.where(covered, weighted / precision, prior.mean)
    sd = np.where(covered, 1.0 / np.sqrt(precision), prior.sd)
    evidence = prior.exists & (covered | prior.evidence)
    out.value[rows] = clamp(mean)
    out.sd[rows] = sd
    out.has[rows] = prior.exists & (evidence | shown[:, None])
    out.evidence[rows] = evidence
