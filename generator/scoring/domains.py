"""Domain composites by partial pooling (docs/METHODOLOGY.md section 5)."""

from __future__ import annotations

import math
from collections.abc import Mapping

from generator.input.records import DomainRecord, ParametersRecord
from generator.scoring.ladder import project
from generator.scoring.rounding import round_half_up
from generator.scoring.types import DomainEntry, DomainScores


def domain_projections(
    domain: DomainRecord, published: Mapping[str, object]
) -> dict[str, dict[str, float]]:
    """Model id -> benchmark id -> projection of the model's best row (any harness).

    Rows of models that are not published, or of benchmarks the domain does not
    list, are ignored. Models come out sorted by id, benchmarks in domain order.
    """
    benchmarks = {b.id: b for b in domain.benchmarks}
    best: dict[str, dict[str, float]] = {}
    for row in domain.results:
        benchmark = benchmarks.get(row.benchmark)
        if benchmark is None or row.model not in published:
            continue
        iq = project(benchmark.ladder, benchmark.direction, row.score)
        scores = best.setdefault(row.model, {})
        if row.benchmark not in scores or iq > scores[row.benchmark]:
            scores[row.benchmark] = iq
    return {
        model: {bid: best[model][bid] for bid in benchmarks if bid in best[model]}
        for model in sorted(best)
    }


def pooled_entry(
    model_id: str,
    observed: float,
    covered: int,
    total: int,
    prior_mean: float,
    params: ParametersRecord,
) -> DomainEntry:
    """One model's partially pooled domain estimate toward `prior_mean`."""
    data_precision = covered / params.sigma_domain_benchmark**2
    prior_precision = 1.0 / params.sigma_domain_prior**2
    precision = data_precision + prior_precision
    estimate = (data_precision * observed + prior_precision * prior_mean) / precision
    error = 1.0 / math.sqrt(precision)
    z = params.interval_z
    return DomainEntry(
        model_id=model_id,
        composite_iq=round_half_up(estimate),
        rank_status="full" if covered == total else "partial",
        covered=covered,
        total=total,
        observed=observed,
        adjustment=estimate - observed,
        confidence=data_precision / precision,
        standard_error=error,
        low95=estimate - z * error,
        high95=estimate + z * error,
    )


def compute_domain(
    domain: DomainRecord,
    composites: Mapping[str, float | None],
    params: ParametersRecord,
) -> DomainScores:
    """The domain leaderboard: full before partial, compositeIQ descending, then id.

    `composites` holds every published model (value None without a composite);
    the prior mean is the model's unrounded composite, else the domain's mean
    observed composite.
    """
    scores = domain_projections(domain, composites)
    observed = {model: math.fsum(v.values()) / len(v) for model, v in scores.items()}
    domain_mean = math.fsum(observed.values()) / len(observed) if observed else 0.0
    entries = []
    for model, values in scores.items():
        own = composites.get(model)
        prior_mean = own if own is not None else domain_mean
        total = len(domain.benchmarks)
        entries.append(pooled_entry(model, observed[model], len(values), total, prior_mean, params))
    entries.sort(key=lambda e: (e.rank_status != "full", -e.composite_iq, e.model_id))
    return DomainScores(domain_id=domain.id, entries=tuple(entries))
