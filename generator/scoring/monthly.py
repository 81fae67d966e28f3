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
from generator.scoring.abstract import AbstractPredictor
from generator.scoring.columns import PLAIN_SUM, Counts, Flags, Floats, clamp, row_means
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
    """One Normal term of a prior, column-wise: `key` 0 where a row has no such term, else
    the index in `sds` of its sd."""

    key: Counts
    mean: Floats
    sds: tuple[float, ...]  # sds[0] is never read


@dataclass(frozen=True)
class _Prior:
    """The prior of one dimension, column-wise (`exists` false: `None` in the plain path)."""

    mean: Floats
    sd: Floats
    square: Floats  # sd ** 2, as Python computes it
    exists: Flags
    evidence: Flags


def month_values(
    models: Mapping[str, ModelRecord], population: MonthPopulation, params: ParametersRecord
) -> MonthValues | None:
    """What `estimate_values` gives each of `models` (by id, in order), scored in
    predecessor order; None where the plain path must score (a lineage cycle, or a `sum`
    that does not add left to right)."""
    generations = _generations(models)
    if generations is None or not PLAIN_SUM:
        return None
    ids = list(models)
    slugs = [slot.slug for slot in population.slots]
    shape = (len(ids), len(slugs))
    out = MonthValues(
        value=np.zeros(shape),
        sd=np.zeros(shape),
        has=np.zeros(shape, dtype=bool),
        evidence=np.zeros(shape, dtype=bool),
        covered=np.zeros(shape, dtype=np.intp),
    )
    direct, present, observed = population.direct, population.present, population.observed
    for index, found in enumerate(observed):
        out.covered[:, index] = found.count
    legacy = [models[m].legacy_abstract_estimate for m in ids]
    has_legacy = np.array([v is not None for v in legacy], dtype=bool)
    legacy_mean = np.array([v if v is not None else 0.0 for v in legacy], dtype=np.float64)
    for rows, parents in generations:
        own = _Own(
            direct=direct[rows],
            present=present[rows],
            legacy=_Term(key=has_legacy[rows].astype(np.intp), mean=legacy_mean[rows], sds=()),
            parents=parents,
        )
        shown = own.present.sum(axis=1) >= params.min_direct_dimensions
        for index in range(len(slugs)):
            prior = _prior(index, own, population, params, out)
            _posterior(index, rows, prior, observed[index], shown, out)
    return out


@dataclass(frozen=True)
class _Own:
    """What one generation's priors read of its models: direct estimates, legacy, parents."""

    direct: Floats
    present: Flags
    legacy: _Term  # key and mean only: its sd is the month's residual sd
    parents: Counts | None  # each model's predecessor's row; None: no predecessor


def _predecessor(model: ModelRecord) -> str | None:
    return model.lineage.predecessor if model.lineage is not None else None


def _generations(models: Mapping[str, ModelRecord]) -> list[tuple[Counts, Counts | None]] | None:
    """The rows of each generation (0: no predecessor among `models`), oldest first, with
    their predecessors' rows; None on a lineage cycle (the loader rejects those)."""
    row = {model_id: index for index, model_id in enumerate(models)}
    parent = [row.get(_predecessor(m) or "", -1) for m in models.values()]
    depth = [-1] * len(parent)
    for start in range(len(parent)):
        chain: list[int] = []
        at = start
        while at >= 0 and depth[at] < 0:
            chain.append(at)
            if len(chain) > len(parent):
                return None
            at = parent[at]
        level = depth[at] if at >= 0 else -1
        for node in reversed(chain):
            level += 1
            depth[node] = level
    depths = np.array(depth, dtype=np.intp)
    parents = np.array(parent, dtype=np.intp)
    generations: list[tuple[Counts, Counts | None]] = []
    for level in range(int(depths.max()) + 1 if len(depths) else 0):
        rows = np.flatnonzero(depths == level)
        generations.append((rows, parents[rows] if level else None))
    return generations


def _inherited(
    index: int, own: _Own, params: ParametersRecord, out: MonthValues
) -> tuple[_Term, Flags]:
    """The `mu_P` term (the predecessor's value moved by the drift: `priors._predecessor_mean`)
    and whether it is evidence."""
    if own.parents is None:
        none = np.zeros(len(own.direct), dtype=np.intp)
        return _Term(key=none, mean=np.zeros(len(none)), sds=()), none.astype(bool)
    theirs, has = out.value[own.parents], out.has[own.parents]
    drift, _ = row_means(own.direct - theirs, own.present & has, index)
    term = _Term(
        key=has[:, index].astype(np.intp),
        mean=theirs[:, index] + drift,
        sds=(0.0, params.sigma_predecessor),
    )
    return term, has[:, index] & out.evidence[own.parents, index]


def _prior(
    index: int, own: _Own, population: MonthPopulation, params: ParametersRecord, out: MonthValues
) -> _Prior:
    """`level_prior` (dimensions 2-7) or `level_abstract_prior` (index 0) of every row."""
    inherited, evidence = _inherited(index, own, params, out)
    cross, count = row_means(own.direct, own.present, index)
    if index:
        sds = (0.0, *(sigma_cross(params, n) for n in range(1, own.direct.shape[1])))
        terms = [inherited, _Term(key=count, mean=cross, sds=sds)]
    else:
        terms = [
            inherited,
            *_abstract_terms(cross, count, own.legacy, population.predictor, params),
        ]
    slug = population.slots[index].slug
    return _combined(terms, evidence, population.means[slug], params)


def _abstract_terms(
    cross: Floats,
    count: Counts,
    legacy: _Term,
    predictor: AbstractPredictor | None,
    params: ParametersRecord,
) -> list[_Term]:
    """The regression `R` (where the model has other direct dimensions) and the legacy
    estimate, both of sd `s_R`."""
    residual = params.sigma_population
    if predictor is not None and predictor.residual_sd is not None:
        residual = predictor.residual_sd
    if predictor is None:
        key = np.zeros(len(cross), dtype=np.intp)
        regression = _Term(key=key, mean=cross, sds=())
    else:
        predicted = clamp(predictor.intercept + predictor.slope * cross)
        key = (count > 0).astype(np.intp)
        regression = _Term(key=key, mean=predicted, sds=(0.0, residual))
    return [regression, _Term(key=legacy.key, mean=legacy.mean, sds=(0.0, residual))]


def _combined(
    terms: Sequence[_Term], evidence: Flags, population: float | None, params: ParametersRecord
) -> _Prior:
    """`priors.combine` of each row's terms, or the population prior where it has none."""
    code = np.zeros(len(evidence), dtype=np.intp)
    radix = 1
    for term in terms:
        code += term.key * radix
        radix *= max(len(term.sds), 1)
    weights, sd, square, combined = _table(tuple(term.sds for term in terms))
    mean = np.zeros(len(code))
    for term, weight in zip(terms, weights, strict=True):
        mean = np.where(term.key > 0, mean + weight[code] * term.mean, mean)
    alone = ~combined[code]  # no term: the population prior, if there is one
    fallback = params.sigma_population
    return _Prior(
        mean=np.where(alone, population if population is not None else 0.0, mean),
        sd=np.where(alone, fallback, sd[code]),
        square=np.where(alone, fallback**2, square[code]),
        exists=~alone | (population is not None),
        evidence=evidence,
    )


@functools.lru_cache(maxsize=64)
def _table(
    sds: tuple[tuple[float, ...], ...],
) -> tuple[list[Floats], Floats, Floats, Flags]:
    """For every combination of terms (a mixed-radix code, a digit per term: 0 absent, i its
    sd `sds[term][i]`): each term's weight, the combined sd, its square and whether any term
    is present, by `precision_weights` in Python."""
    radices = [max(len(options), 1) for options in sds]
    size = math.prod(radices)
    weights = [np.zeros(size) for _ in sds]
    sd, square = np.ones(size), np.ones(size)
    combined = np.zeros(size, dtype=bool)
    for code in range(size):
        digits, rest = [], code
        for radix in radices:
            digits.append(rest % radix)
            rest //= radix
        present = [
            (t, options[d]) for t, (options, d) in enumerate(zip(sds, digits, strict=True)) if d
        ]
        if present:
            found, variance = precision_weights([s for _, s in present])
            for (term, _), weight in zip(present, found, strict=True):
                weights[term][code] = weight
            sd[code] = math.sqrt(variance)
            square[code] = math.sqrt(variance) ** 2
            combined[code] = True
    return weights, sd, square, combined


def _posterior(
    index: int, rows: Counts, prior: _Prior, observed: Observed, shown: Flags, out: MonthValues
) -> None:
    """`posterior_estimate` (without detail) of every row, written into `out`."""
    count, y, square = observed.count[rows], observed.y[rows], observed.square[rows]
    with np.errstate(invalid="ignore", divide="ignore"):
        precision = 1.0 / prior.square
        weighted = prior.mean / prior.square
        for column in range(y.shape[1]):
            has = count > column
            precision = np.where(has, precision + 1.0 / square[:, column], precision)
            weighted = np.where(has, weighted + y[:, column] / square[:, column], weighted)
        covered = count > 0
        mean = np.where(covered, weighted / precision, prior.mean)
        sd = np.where(covered, 1.0 / np.sqrt(precision), prior.sd)
    evidence = prior.exists & (covered | prior.evidence)
    out.value[rows, index] = clamp(mean)
    out.sd[rows, index] = sd
    out.has[rows, index] = prior.exists & (evidence | shown)
    out.evidence[rows, index] = evidence


def month_composites(values: MonthValues, min_direct: int) -> list[float | None]:
    """`composite_score` of each row: the mean of its seven values, None with fewer than
    `min_direct` covered dimensions or a dimension without an estimate."""
    direct = (values.covered >= 1).sum(axis=1)
    usable = (direct >= min_direct) & values.has.all(axis=1)
    total = np.zeros(len(values.value))
    for column in range(values.value.shape[1]):
        total = total + values.value[:, column]
    means = (total / values.value.shape[1]).tolist()
    return [m if ok else None for m, ok in zip(means, usable.tolist(), strict=True)]


def composite_sds(values: MonthValues) -> list[float | None]:
    """`uncertainty.composite_sd` of each row's seven sds, None where one is missing."""
    total = np.zeros(len(values.sd))
    for column in range(values.sd.shape[1]):
        total = total + values.sd[:, column] * values.sd[:, column]
    sds: list[float] = (np.sqrt(total) / values.sd.shape[1]).tolist()
    complete: list[bool] = np.all(values.has, axis=1).tolist()
    return [s if ok else None for s, ok in zip(sds, complete, strict=True)]
