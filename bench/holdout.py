"""The held-out checks of docs/METHODOLOGY.md section 3.2, for any version's dimension estimator.

(a) Benchmark hold-out: each result of every (model, dimension) with at least two results
is left out in turn; the data is re-estimated without it (offsets, `sigma_b`, regression
and predecessor refitted) and the held-out projection is scored against
Normal(estimate + offset, sd^2 + sigma_b^2). (b) Dimension hold-out: each whole direct
dimension of a model with at least three direct dimensions is left out; its full-data
direct mean is scored against Normal(estimate, sd^2 + sum sigma_b^2 / k^2).

Only the left-out dimension's population parts and the held-out model's lineage are
re-estimated (`refit_dimension`); every other number is the same as a full re-estimate
(tests/repo/test_methodology_check.py checks that they agree).
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from generator.api.contract import DIMENSION_SLUGS
from generator.input.records import Dataset, ModelRecord
from generator.scoring.engine import (
    ABSTRACT,
    Estimator,
    Population,
    build_population,
    refit_dimension,
)
from generator.scoring.observations import best_results, group_by_dimension, projections
from generator.scoring.types import DimensionEstimate, Projection

Grouped = dict[str, dict[str, tuple[Projection, ...]]]
KINDS = ("benchmark-hold-out", "dimension-hold-out")


@dataclass(frozen=True)
class HeldOut:
    """One held-out value: what is left out, and the truth it is scored against."""

    kind: str  # benchmark-hold-out / dimension-hold-out
    model: str
    slug: str
    benchmark: str | None  # the left-out result's benchmark (benchmark hold-out)
    target: float  # the held-out projection, or the full-data direct mean
    target_var: float  # the dimension hold-out's own noise sum sigma_b^2 / k^2 (else 0)


@dataclass(frozen=True)
class Scored:
    """One version's prediction of one held-out value."""

    case: HeldOut
    error: float  # prediction - target
    variance: float  # predictive variance

    @property
    def lpd(self) -> float:
        """Log density of the target under Normal(prediction, variance)."""
        return -0.5 * math.log(2 * math.pi * self.variance) - self.error**2 / (2 * self.variance)

    def inside(self, z: float) -> bool:
        """The target lies in the 95% predictive interval (prediction +/- z sd)."""
        return abs(self.error) <= z * math.sqrt(self.variance)


class Fitted:
    """The full data, grouped and estimated once, and the lineage of every model."""

    def __init__(self, dataset: Dataset) -> None:
        benchmarks = {b.id: b for b in dataset.benchmarks}
        self.dataset = dataset
        self.models: dict[str, ModelRecord] = {m.id: m for m in dataset.models}
        self.grouped: Grouped = {
            m: group_by_dimension(
                projections(best_results(self.models[m], benchmarks)), benchmarks, DIMENSION_SLUGS
            )
            for m in sorted(self.models)
        }
        self.population = build_population(dataset, self.grouped)

    def lineage(self, model_id: str) -> list[str]:
        """The model's published ancestors, oldest first, then the model."""
        chain: list[str] = []
        current: str | None = model_id
        while current is not None and current in self.models and current not in chain:
            chain.append(current)
            lineage = self.models[current].lineage
            current = lineage.predecessor if lineage is not None else None
        return chain[::-1]

    def estimate(
        self, grouped: Grouped, population: Population, model_id: str, estimator: Estimator
    ) -> tuple[DimensionEstimate, ...]:
        """The model's estimates, its ancestors re-estimated first."""
        previous: tuple[DimensionEstimate, ...] | None = None
        for member in self.lineage(model_id):
            previous = estimator(
                self.models[member], self.dataset, grouped[member], population, previous
            )
        assert previous is not None
        return previous


def cases(fitted: Fitted) -> list[HeldOut]:
    """Every case of both checks, in model, dimension, benchmark order."""
    found: list[HeldOut] = []
    population = fitted.population
    for model_id, grouped in fitted.grouped.items():
        for slug in DIMENSION_SLUGS:
            results = grouped[slug]
            if len(results) >= 2:
                found += [
                    HeldOut(KINDS[0], model_id, slug, p.benchmark, p.iq, 0.0) for p in results
                ]
    for model_id, grouped in fitted.grouped.items():
        direct = population.direct[model_id]
        if sum(1 for v in direct.values() if v is not None) < 3:
            continue
        for slug in DIMENSION_SLUGS:
            target, results = direct[slug], grouped[slug]
            if target is None:
                continue
            noise = sum(population.sigmas[p.benchmark] ** 2 for p in results) / len(results) ** 2
            found.append(HeldOut(KINDS[1], model_id, slug, None, target, noise))
    return found


def without(fitted: Fitted, case: HeldOut) -> Grouped:
    """The grouped projections with the case's result (or whole dimension) left out."""
    kept = tuple(
        p
        for p in fitted.grouped[case.model][case.slug]
        if case.benchmark not in (None, p.benchmark)
    )
    grouped = dict(fitted.grouped)
    grouped[case.model] = {**fitted.grouped[case.model], case.slug: kept}
    return grouped


def score(
    fitted: Fitted, items: Sequence[HeldOut], estimators: Mapping[str, Estimator]
) -> dict[str, list[Scored]]:
    """Each version's prediction of each case (the refit is shared by the versions)."""
    scored: dict[str, list[Scored]] = {name: [] for name in estimators}
    index = DIMENSION_SLUGS.index
    for case in items:
        grouped = without(fitted, case)
        population = refit_dimension(fitted.dataset, grouped, fitted.population, case.slug)
        for name, estimator in estimators.items():
            estimate = fitted.estimate(grouped, population, case.model, estimator)[index(case.slug)]
            assert estimate.value is not None and estimate.sd is not None
            mean, variance = estimate.value, estimate.sd**2 + case.target_var
            if case.benchmark is not None:
                if case.slug != ABSTRACT:
                    mean += population.offsets[case.slug].get(case.benchmark, 0.0)
                variance += population.sigmas[case.benchmark] ** 2
            scored[name].append(Scored(case, mean - case.target, variance))
    return scored


@dataclass(frozen=True)
class Summary:
    """One version's figures over one check's cases."""

    cases: int
    models: int
    lpd: float  # mean log predictive density
    mae: float  # mean absolute error
    coverage: float  # share inside the 95% predictive interval


def summarise(items: Sequence[Scored], z: float) -> Summary:
    """Mean LPD, MAE and coverage of `items` (NaN without cases)."""
    n = len(items)
    if n == 0:
        return Summary(0, 0, math.nan, math.nan, math.nan)
    return Summary(
        cases=n,
        models=len({s.case.model for s in items}),
        lpd=sum(s.lpd for s in items) / n,
        mae=sum(abs(s.error) for s in items) / n,
        coverage=sum(s.inside(z) for s in items) / n,
    )


def paired_bootstrap(
    new: Sequence[Scored], old: Sequence[Scored], resamples: int, seed: int
) -> tuple[float, float, float]:
    """Mean LPD difference (new - old) per case and its 95% interval, resampling models.

    Each resample draws as many models as there are, with replacement, and divides the
    summed differences of their cases by their case count; the interval is the 2.5th and
    97.5th percentile of the resamples (linear interpolation). Fixed seed: reproducible.
    """
    by_model: dict[str, list[float]] = {}
    for a, b in zip(new, old, strict=True):
        assert a.case == b.case
        by_model.setdefault(a.case.model, []).append(a.lpd - b.lpd)
    if not by_model:
        return math.nan, math.nan, math.nan
    sums = [sum(d) for d in by_model.values()]
    counts = [len(d) for d in by_model.values()]
    rng = random.Random(seed)
    n = len(sums)
    stats = []
    for _ in range(resamples):
        drawn = [rng.randrange(n) for _ in range(n)]
        stats.append(sum(sums[i] for i in drawn) / sum(counts[i] for i in drawn))
    stats.sort()
    return sum(sums) / sum(counts), _quantile(stats, 0.025), _quantile(stats, 0.975)


def _quantile(ordered: Sequence[float], q: float) -> float:
    position = q * (len(ordered) - 1)
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)
