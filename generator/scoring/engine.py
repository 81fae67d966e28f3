"""`compute_scores`: the whole methodology over a dataset, in dependency order."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from operator import attrgetter

import msgspec

from generator.input.records import BenchmarkRecord, Dataset, ModelRecord
from generator.scoring.abstract import AbstractPredictor, fit_predictor
from generator.scoring.composite import (
    composite_score,
    direct_dimension_count,
    evidence_dimension_count,
    is_provisional,
    rank_entries,
)
from generator.scoring.cost import PeerIndex, estimate_cost
from generator.scoring.dimensions import Slot, posterior_estimate
from generator.scoring.domains import compute_domain
from generator.scoring.eq import eq_score
from generator.scoring.noise import estimate_noise
from generator.scoring.observations import (
    ModelResults,
    ResultMemo,
    eq_projections,
    with_offsets,
)
from generator.scoring.offsets import (
    benchmark_offsets,
    direct_estimate,
    observations,
    population_mean,
)
from generator.scoring.priors import cross_mean, level_abstract_prior, level_prior, own_level
from generator.scoring.rounding import round_half_up
from generator.scoring.tasks import TaskMap, in_process
from generator.scoring.types import (
    BenchmarkNoise,
    CostEstimate,
    DimensionEstimate,
    ModelScores,
    Projection,
    ScoredResult,
    Scores,
)
from generator.scoring.uncertainty import uncertainties
from generator.vocabulary import DIMENSION_SLUGS

ABSTRACT = DIMENSION_SLUGS[0]
Grouped = Mapping[str, Mapping[str, tuple[Projection, ...]]]  # model -> slug -> projections


class Population(msgspec.Struct, frozen=True, kw_only=True):
    """Dataset-wide quantities every model's estimate depends on."""

    slots: tuple[Slot, ...]
    offsets: dict[str, dict[str, float]]  # slug -> benchmark -> offset (dimensions 2-7)
    noise: dict[str, BenchmarkNoise]  # benchmark -> sigma_b and where it came from
    sigmas: dict[str, float]  # benchmark -> sigma_b alone
    direct: dict[str, dict[str, float | None]]  # model -> slug -> direct estimate
    means: dict[str, float | None]  # slug -> population mean of direct estimates
    predictor: AbstractPredictor | None


def predecessor_order(models: Sequence[ModelRecord]) -> list[str]:
    """Model ids with every published predecessor before its successors (ids sorted otherwise)."""
    by_id = {m.id: m for m in models}
    order: list[str] = []
    placed: set[str] = set()
    for model_id in sorted(by_id):
        chain: list[str] = []
        current: str | None = model_id
        while current is not None and current in by_id and current not in placed:
            if current in chain:  # a cycle: the loader rejects these; stop rather than loop
                break
            chain.append(current)
            lineage = by_id[current].lineage
            current = lineage.predecessor if lineage is not None else None
        for item in reversed(chain):
            if item not in placed:
                placed.add(item)
                order.append(item)
    return order


def dimension_slots(dataset: Dataset) -> tuple[Slot, ...]:
    minimums = {d.slug: d.min_benchmarks for d in dataset.methodology.dimensions}
    return tuple(
        Slot(
            slug=slug,
            total=sum(1 for b in dataset.benchmarks if b.category == "iq" and b.dimension == slug),
            min_benchmarks=minimums.get(slug, 1),
        )
        for slug in DIMENSION_SLUGS
    )


def _direct_estimates(
    grouped: Mapping[str, tuple[Projection, ...]], offsets: Mapping[str, Mapping[str, float]]
) -> dict[str, float | None]:
    return {slug: _direct_in(grouped[slug], slug, offsets) for slug in DIMENSION_SLUGS}


def _predictor(direct: Mapping[str, Mapping[str, float | None]]) -> AbstractPredictor | None:
    samples = []
    for model_id in sorted(direct):
        target = direct[model_id][ABSTRACT]
        x = cross_mean(ABSTRACT, direct[model_id])
        if target is not None and x is not None:
            samples.append((x, target))
    return fit_predictor(samples)


def fixed_noise(dataset: Dataset) -> dict[str, BenchmarkNoise]:
    """Every benchmark's noise before estimation: fixed in its file, else sigma_benchmark."""
    params = dataset.methodology.parameters
    return {
        b.id: BenchmarkNoise(sd=b.noise, source="fixed", models=0)
        if b.noise is not None
        else BenchmarkNoise(sd=params.sigma_benchmark, source="default", models=0)
        for b in dataset.benchmarks
    }


def _dimension_noise(
    dataset: Dataset, grouped: Grouped, slug: str, shift: Mapping[str, float]
) -> dict[str, BenchmarkNoise]:
    """`sigma_b` of the benchmarks of one dimension, from its offset-corrected observations."""
    params = dataset.methodology.parameters
    fixed = {b.id: b.noise for b in dataset.benchmarks if b.noise is not None}
    members = [b.id for b in dataset.benchmarks if b.category == "iq" and b.dimension == slug]
    groups = [  # a model with fewer than two results there adds nothing to the noise
        [(p.benchmark, p.iq - shift.get(p.benchmark, 0.0)) for p in found]
        for m in sorted(grouped)
        if len(found := grouped[m][slug]) >= 2
    ]
    return estimate_noise(groups, members, fixed, params.sigma_benchmark, params.kappa_noise)


def _direct_in(
    projections: tuple[Projection, ...], slug: str, offsets: Mapping[str, Mapping[str, float]]
) -> float | None:
    """One model's direct estimate in `slug` (abstract reasoning: without offsets)."""
    if not projections:
        return None
    if slug == ABSTRACT:
        return direct_estimate([p.iq for p in projections])
    return direct_estimate(observations(projections, offsets[slug]))


def build_population(dataset: Dataset, grouped: Grouped) -> Population:
    """Offsets, noise, direct estimates, population means and the abstract predictor."""
    params = dataset.methodology.parameters
    ids = sorted(grouped)
    offsets = {
        slug: benchmark_offsets([grouped[m][slug] for m in ids], params.offset_shrinkage)
        for slug in DIMENSION_SLUGS[1:]
    }
    direct = {m: _direct_estimates(grouped[m], offsets) for m in ids}
    noise = fixed_noise(dataset)
    for slug in DIMENSION_SLUGS:
        noise.update(_dimension_noise(dataset, grouped, slug, offsets.get(slug, {})))
    return Population(
        slots=dimension_slots(dataset),
        offsets=offsets,
        noise=noise,
        sigmas={b: n.sd for b, n in noise.items()},
        direct=direct,
        means={slug: population_mean(direct[m][slug] for m in ids) for slug in DIMENSION_SLUGS},
        predictor=_predictor(direct),
    )


def refit_dimension(
    dataset: Dataset, grouped: Grouped, population: Population, slug: str
) -> Population:
    """`build_population(dataset, grouped)` when only dimension `slug` differs from the data
    `population` was built from: that dimension's offsets, noise, direct estimates and mean,
    and the predictor, are refitted; every other dimension's are reused (they are identical).
    The methodology check refits thousands of held-out variants this way."""
    params = dataset.methodology.parameters
    ids = sorted(grouped)
    offsets = dict(population.offsets)
    if slug != ABSTRACT:
        offsets[slug] = benchmark_offsets([grouped[m][slug] for m in ids], params.offset_shrinkage)
    direct = {
        m: {**population.direct[m], slug: _direct_in(grouped[m][slug], slug, offsets)} for m in ids
    }
    noise = {**population.noise, **_dimension_noise(dataset, grouped, slug, offsets.get(slug, {}))}
    means = {**population.means, slug: population_mean(direct[m][slug] for m in ids)}
    return msgspec.structs.replace(
        population,
        offsets=offsets,
        noise=noise,
        sigmas={b: n.sd for b, n in noise.items()},
        direct=direct,
        means=means,
        predictor=_predictor(direct),
    )


def estimate_dimensions(
    model: ModelRecord,
    dataset: Dataset,
    grouped: Mapping[str, tuple[Projection, ...]],
    population: Population,
    predecessor: tuple[DimensionEstimate, ...] | None,
) -> tuple[DimensionEstimate, ...]:
    """The model's dimension estimates, in dimension order: each a posterior (version 3)."""
    return _estimate(model, dataset, grouped, population, predecessor, detail=True)


def estimate_values(
    model: ModelRecord,
    dataset: Dataset,
    grouped: Mapping[str, tuple[Projection, ...]],
    population: Population,
    predecessor: tuple[DimensionEstimate, ...] | None,
) -> tuple[DimensionEstimate, ...]:
    """`estimate_dimensions` without the detail only a model's own documents show (the
    history's): the same values, sds, methods and evidence, computed by the same code."""
    return _estimate(model, dataset, grouped, population, predecessor, detail=False)


def _estimate(
    model: ModelRecord,
    dataset: Dataset,
    grouped: Mapping[str, tuple[Projection, ...]],
    population: Population,
    predecessor: tuple[DimensionEstimate, ...] | None,
    *,
    detail: bool,
) -> tuple[DimensionEstimate, ...]:
    params = dataset.methodology.parameters
    direct = population.direct[model.id]
    level = own_level(direct, predecessor)
    shown = len(level.present) >= params.min_direct_dimensions
    estimates = []
    for slot in population.slots:
        if slot.slug == ABSTRACT:
            prior = level_abstract_prior(
                slot.slug,
                level,
                population.predictor,
                model.legacy_abstract_estimate,
                population.means[slot.slug],
                params,
                detail=detail,
            )
        else:
            prior = level_prior(
                slot.slug, level, population.means[slot.slug], params, detail=detail
            )
        estimates.append(
            posterior_estimate(
                slot,
                grouped[slot.slug],
                population.offsets.get(slot.slug, {}),
                population.sigmas,
                prior,
                shown,
                params.interval_z,
                detail=detail,
            )
        )
    return tuple(estimates)


# One model's dimension estimates from what `estimate_dimensions` takes (a version's rules).
Estimator = Callable[
    [
        ModelRecord,
        Dataset,
        Mapping[str, tuple[Projection, ...]],
        Population,
        tuple[DimensionEstimate, ...] | None,
    ],
    tuple[DimensionEstimate, ...],
]


class Estimates(msgspec.Struct, frozen=True, kw_only=True):
    """Every model's dimensions, composite and rank: what both scorings start from."""

    models: dict[str, ModelRecord]  # by id, sorted
    projected: dict[str, dict[str, Projection]]  # model -> benchmark -> projection
    chosen: dict[str, dict[str, ScoredResult]]  # model -> benchmark -> chosen row
    population: Population
    dimensions: dict[str, tuple[DimensionEstimate, ...]]
    composites: dict[str, float | None]
    published_iq: dict[str, int]
    ranks: dict[str, int]


def gather_results(
    dataset: Dataset, memo: ResultMemo | None = None
) -> tuple[dict[str, ModelRecord], dict[str, ModelResults]]:
    """The models by id (sorted) and each one's `ModelResults` (from `memo` where it has them)."""
    if memo is None:
        memo = ResultMemo(dataset.benchmarks, DIMENSION_SLUGS)
    elif memo.benchmarks != dataset.benchmarks:
        raise ValueError("a result memo serves one benchmark catalogue")
    models = {m.id: m for m in sorted(dataset.models, key=attrgetter("id"))}
    return models, {m: memo.results(model) for m, model in models.items()}


def composite_ranks(
    composites: Mapping[str, float | None],
) -> tuple[dict[str, int], dict[str, int]]:
    """The published (rounded) composite of each model that has one, and its rank."""
    published_iq = {m: round_half_up(c) for m, c in composites.items() if c is not None}
    ranks = {
        e.model_id: e.rank for e in rank_entries(sorted(published_iq.items()), "higher_is_better")
    }
    return published_iq, ranks


def estimate_models(
    dataset: Dataset, estimator: Estimator = estimate_dimensions, memo: ResultMemo | None = None
) -> Estimates:
    """Dimensions, composites and composite ranks of every model (no bands, cost or domains).

    `estimator` gives one model's dimensions; the methodology check passes the
    previous version's to compare the two on the same data. `memo` keeps each model's
    projected results across the scorings of one run (made for the same benchmarks).
    """
    params = dataset.methodology.parameters
    models, found = gather_results(dataset, memo)
    chosen = {m: r.chosen for m, r in found.items()}
    projected = {m: r.projected for m, r in found.items()}
    grouped = {m: r.grouped for m, r in found.items()}
    population = build_population(dataset, grouped)

    dimensions: dict[str, tuple[DimensionEstimate, ...]] = {}
    for model_id in predecessor_order(dataset.models):
        lineage = models[model_id].lineage
        parent = lineage.predecessor if lineage is not None else None
        dimensions[model_id] = estimator(
            models[model_id], dataset, grouped[model_id], population, dimensions.get(parent or "")
        )

    composites = {m: composite_score(dimensions[m], params.min_direct_dimensions) for m in models}
    published_iq, ranks = composite_ranks(composites)
    return Estimates(
        models=models,
        projected=projected,
        chosen=chosen,
        population=population,
        dimensions=dimensions,
        composites=composites,
        published_iq=published_iq,
        ranks=ranks,
    )


NO_COST = CostEstimate(
    io_per_1m=None,
    usage_multiplier=None,
    usage_multiplier_source=None,
    effective_per_1m=None,
    step="none",
)
"""The cost `score_models` leaves in every model's scores: `price_scores` fills it in."""


def compute_scores(dataset: Dataset, run: TaskMap = in_process) -> Scores:
    """Every score of every published model and every domain. Pure and deterministic.

    `run` may count the eight rank-band passes in worker processes (same result)."""
    return price_scores(dataset, score_models(dataset, run))


def score_models(dataset: Dataset, run: TaskMap = in_process) -> Scores:
    """Every model's scores but its cost (`NO_COST`), and the noise; no domains.

    What `compute_scores` derives from scoring inputs alone (`kept_inputs`): no price reaches it."""
    params = dataset.methodology.parameters
    benchmarks: dict[str, BenchmarkRecord] = {b.id: b for b in dataset.benchmarks}
    estimates = estimate_models(dataset)
    models, dimensions, composites = estimates.models, estimates.dimensions, estimates.composites
    published_iq, ranks, projected = estimates.published_iq, estimates.ranks, estimates.projected
    chosen, population = estimates.chosen, estimates.population
    spread = uncertainties(
        dimensions, composites, ranks, params.interval_z, rho=params.imputed_correlation, run=run
    )

    scores: dict[str, ModelScores] = {}
    for model_id in models:
        eq = eq_projections(projected[model_id], benchmarks)
        direct = direct_dimension_count(dimensions[model_id])
        scores[model_id] = ModelScores(
            model_id=model_id,
            dimensions=dimensions[model_id],
            composite=composites[model_id],
            iq=published_iq.get(model_id),
            rank=ranks.get(model_id),
            composite_sd=spread[model_id].sd,
            composite_low95=spread[model_id].low95,
            composite_high95=spread[model_id].high95,
            rank_band=spread[model_id].band,
            dimension_bands=spread[model_id].dimension_bands,
            direct_dimensions=direct,
            evidence_dimensions=evidence_dimension_count(dimensions[model_id]),
            provisional=is_provisional(composites[model_id], direct, params.provisional_below),
            eq=eq_score(eq),
            eq_projections=eq,
            cost=NO_COST,
            results=with_offsets(chosen[model_id], benchmarks, population.offsets),
        )
    return Scores(models=scores, domains={}, noise=population.noise)


def price_scores(dataset: Dataset, kept: Scores) -> Scores:
    """`kept` (`score_models(dataset)`) with each model's cost and the domains: the part
    that reads prices, usage and domains, from the composites."""
    params = dataset.methodology.parameters
    models = {m.id: m for m in sorted(dataset.models, key=attrgetter("id"))}
    composites = {m: s.composite for m, s in kept.models.items()}
    peer_index = PeerIndex(models, composites)
    scores = {
        model_id: msgspec.structs.replace(
            kept.models[model_id],
            cost=estimate_cost(model, models, composites, params, peer_index),
        )
        for model_id, model in models.items()
    }
    domains = {
        d.id: compute_domain(d, composites, params)
        for d in sorted(dataset.domains, key=lambda d: d.id)
    }
    return Scores(models=scores, domains=domains, noise=kept.noise)
