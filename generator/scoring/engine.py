"""`compute_scores`: the whole methodology over a dataset, in dependency order."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from operator import attrgetter

import msgspec
import numpy as np

from generator.input.records import BenchmarkRecord, Dataset, ModelRecord
from generator.scoring.abstract import AbstractPredictor, fit_predictor
from generator.scoring.batch import Level, Row, Shared, Slot, estimate_batch, mean_of_others
from generator.scoring.composite import (
    composite_score,
    direct_dimension_count,
    evidence_dimension_count,
    is_provisional,
    rank_entries,
)
from generator.scoring.cost import PeerIndex, estimate_cost
from generator.scoring.domains import compute_domain
from generator.scoring.eq import eq_score
from generator.scoring.noise import Seeds, noise_from, summaries_of
from generator.scoring.observations import (
    ModelResults,
    ResultMemo,
    eq_projections,
    with_offsets,
)
from generator.scoring.offsets import direct_estimates, offsets_of, population_mean
from generator.scoring.padded import Flags, Floats, Padded, pad_projections
from generator.scoring.rounding import round_half_up
from generator.scoring.speed import task_fits
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


def direct_level(
    direct: Mapping[str, Mapping[str, float | None]], ids: Sequence[str]
) -> tuple[Floats, Flags]:
    """The direct estimates of the models `ids` as columns (0 where none), and where they exist."""
    columns = [[direct[m][slug] for m in ids] for slug in DIMENSION_SLUGS]
    present = np.array([[v is not None for v in column] for column in columns], dtype=np.bool_)
    values = np.array([[v or 0.0 for v in column] for column in columns], dtype=np.float64)
    shape = (len(DIMENSION_SLUGS), len(ids))
    return values.reshape(shape).T.copy(), present.reshape(shape).T.copy()


def _predictor(direct: Mapping[str, Mapping[str, float | None]]) -> AbstractPredictor | None:
    """The regression `R`, fitted on every model with a direct abstract-reasoning estimate and
    other direct dimensions: x their mean (`cross_columns`, as each model's prior reads it)."""
    ids = sorted(direct)
    values, present = direct_level(direct, ids)
    x, count = mean_of_others(values, present, 0)
    usable = (present[:, 0] & (count > 0)).tolist()
    targets, xs = values[:, 0].tolist(), x.tolist()
    return fit_predictor([(xs[i], targets[i]) for i in range(len(ids)) if usable[i]])


def fixed_noise(dataset: Dataset) -> dict[str, BenchmarkNoise]:
    """Every benchmark's noise before estimation: fixed in its file, else its seed (the
    residual sd of its fitted ladder, else sigma_benchmark)."""
    seeds = noise_seeds(dataset)
    return {
        b.id: BenchmarkNoise(sd=b.noise, source="fixed", models=0)
        if b.noise is not None
        else BenchmarkNoise(
            sd=seeds.of(b.id),
            source="fitted-ladder" if b.id in seeds.fitted else "default",
            models=0,
        )
        for b in dataset.benchmarks
    }


def noise_seeds(dataset: Dataset) -> Seeds:
    """Where each `sigma_b` starts (METHODOLOGY 1.3, 2.2): a fitted ladder's residual sd,
    else `sigma_benchmark`."""
    fitted = {b.id: b.ladder_fit.residual_sd for b in dataset.benchmarks if b.ladder_fit}
    return Seeds(fitted, dataset.methodology.parameters.sigma_benchmark)


def _dimension_noise(
    dataset: Dataset, table: Padded, slug: str, shift: Mapping[str, float]
) -> dict[str, BenchmarkNoise]:
    """`sigma_b` of the benchmarks of one dimension, from its offset-corrected observations
    (`table`: a row per model; a model with fewer than two results there adds nothing)."""
    params = dataset.methodology.parameters
    fixed = {b.id: b.noise for b in dataset.benchmarks if b.noise is not None}
    members = [b.id for b in dataset.benchmarks if b.category == "iq" and b.dimension == slug]
    summaries = summaries_of(table, table.values - table.per_benchmark(shift, 0.0))
    return noise_from(summaries, members, fixed, noise_seeds(dataset), params.kappa_noise)


def dimension_table(grouped: Grouped, ids: Sequence[str], slug: str) -> Padded:
    """One dimension's projections as rows, a row per model of `ids`, in that order."""
    return pad_projections([grouped[m][slug] for m in ids])


def _fit_dimension(
    dataset: Dataset, table: Padded, slug: str
) -> tuple[dict[str, float], list[float | None], dict[str, BenchmarkNoise]]:
    """One dimension's offsets (none for abstract reasoning), each model's direct estimate
    and the noise of its benchmarks."""
    params = dataset.methodology.parameters
    offsets = {} if slug == ABSTRACT else offsets_of(table, params.offset_shrinkage)
    return (
        offsets,
        direct_estimates(table, offsets),
        _dimension_noise(dataset, table, slug, offsets),
    )


def dimension_tables(grouped: Grouped) -> dict[str, Padded]:
    """Every dimension's `dimension_table`, a row per model in id order."""
    ids = sorted(grouped)
    return {slug: dimension_table(grouped, ids, slug) for slug in DIMENSION_SLUGS}


def build_population(
    dataset: Dataset, grouped: Grouped, tables: Mapping[str, Padded] | None = None
) -> Population:
    """Offsets, noise, direct estimates, population means and the abstract predictor
    (`tables`: `dimension_tables(grouped)`, if made already)."""
    ids = sorted(grouped)
    tables = dimension_tables(grouped) if tables is None else tables
    fits = {slug: _fit_dimension(dataset, tables[slug], slug) for slug in DIMENSION_SLUGS}
    direct = {m: {slug: fits[slug][1][i] for slug in DIMENSION_SLUGS} for i, m in enumerate(ids)}
    noise = fixed_noise(dataset)
    for slug in DIMENSION_SLUGS:
        noise.update(fits[slug][2])
    return Population(
        slots=dimension_slots(dataset),
        offsets={slug: fits[slug][0] for slug in DIMENSION_SLUGS[1:]},
        noise=noise,
        sigmas={b: n.sd for b, n in noise.items()},
        direct=direct,
        means={slug: population_mean(fits[slug][1]) for slug in DIMENSION_SLUGS},
        predictor=_predictor(direct),
    )


def refit_dimension(
    dataset: Dataset, grouped: Grouped, population: Population, slug: str
) -> Population:
    """`build_population(dataset, grouped)` when only dimension `slug` differs from the data
    `population` was built from: that dimension's offsets, noise, direct estimates and mean,
    and the predictor, are refitted; every other dimension's are reused (they are identical).
    The methodology check refits thousands of held-out variants this way."""
    ids = sorted(grouped)
    offsets, values, noise = _fit_dimension(dataset, dimension_table(grouped, ids, slug), slug)
    direct = {m: {**population.direct[m], slug: values[i]} for i, m in enumerate(ids)}
    merged = {**population.noise, **noise}
    return msgspec.structs.replace(
        population,
        offsets={**population.offsets, slug: offsets} if slug != ABSTRACT else population.offsets,
        noise=merged,
        sigmas={b: n.sd for b, n in merged.items()},
        direct=direct,
        means={**population.means, slug: population_mean(values)},
        predictor=_predictor(direct),
    )


def estimate_dimensions(
    model: ModelRecord,
    dataset: Dataset,
    grouped: Mapping[str, tuple[Projection, ...]],
    population: Population,
    predecessor: tuple[DimensionEstimate, ...] | None,
) -> tuple[DimensionEstimate, ...]:
    """One model's dimension estimates, in dimension order (a batch of one)."""
    row = _row(model, grouped, population, predecessor)
    return estimate_batch([row], _shared(dataset, population), detail=True)[0]


def estimate_values(
    model: ModelRecord,
    dataset: Dataset,
    grouped: Mapping[str, tuple[Projection, ...]],
    population: Population,
    predecessor: tuple[DimensionEstimate, ...] | None,
) -> tuple[DimensionEstimate, ...]:
    """`estimate_dimensions` without the detail only a model's own documents show (the
    history's): the same values, sds, methods and evidence, computed by the same code."""
    row = _row(model, grouped, population, predecessor)
    return estimate_batch([row], _shared(dataset, population), detail=False)[0]


def _row(
    model: ModelRecord,
    grouped: Mapping[str, tuple[Projection, ...]],
    population: Population,
    predecessor: tuple[DimensionEstimate, ...] | None,
    index: int | None = None,
) -> Row:
    return Row(
        direct=population.direct[model.id],
        grouped=grouped,
        predecessor=predecessor,
        legacy=model.legacy_abstract_estimate,
        index=index,
    )


def _shared(
    dataset: Dataset, population: Population, tables: Mapping[str, Padded] | None = None
) -> Shared:
    return Shared(
        tables=tables,
        slots=population.slots,
        offsets=population.offsets,
        sigmas=population.sigmas,
        means=population.means,
        predictor=population.predictor,
        params=dataset.methodology.parameters,
    )


def lineage_batches(models: Mapping[str, ModelRecord]) -> list[list[str]]:
    """The models in batches by lineage depth: each model after its predecessor's batch
    (a predecessor missing from `models` counts as none), ids sorted within a batch."""
    depth: dict[str, int] = {}
    for model_id in predecessor_order(list(models.values())):
        lineage = models[model_id].lineage
        parent = lineage.predecessor if lineage is not None else None
        depth[model_id] = depth[parent] + 1 if parent in depth else 0
    batches: list[list[str]] = [[] for _ in range(max(depth.values(), default=-1) + 1)]
    for model_id in sorted(depth):
        batches[depth[model_id]].append(model_id)
    return batches


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
    dataset: Dataset,
    estimator: Estimator | None = None,
    memo: ResultMemo | None = None,
    *,
    detail: bool = True,
) -> Estimates:
    """Dimensions, composites and composite ranks of every model (no bands, cost or domains).

    The dimensions come from `estimate_batch`, lineage depth by depth (`detail`: as there);
    an `estimator` gives them one model at a time instead: the methodology check passes the
    previous version's to compare the two on the same data. `memo` keeps each model's
    projected results across the scorings of one run (made for the same benchmarks).
    """
    params = dataset.methodology.parameters
    models, found = gather_results(dataset, memo)
    chosen = {m: r.chosen for m, r in found.items()}
    projected = {m: r.projected for m, r in found.items()}
    grouped = {m: r.grouped for m, r in found.items()}
    tables = dimension_tables(grouped)
    population = build_population(dataset, grouped, tables)

    dimensions: dict[str, tuple[DimensionEstimate, ...]] = {}
    if estimator is None:
        dimensions = _estimate_by_depth(dataset, models, grouped, population, tables, detail)
    else:
        for model_id in predecessor_order(dataset.models):
            dimensions[model_id] = estimator(
                models[model_id],
                dataset,
                grouped[model_id],
                population,
                _parent(models[model_id], dimensions),
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


def _estimate_by_depth(
    dataset: Dataset,
    models: Mapping[str, ModelRecord],
    grouped: Grouped,
    population: Population,
    tables: Mapping[str, Padded],
    detail: bool,
) -> dict[str, tuple[DimensionEstimate, ...]]:
    """Every model's estimates, a lineage depth at a time (`estimate_batch`), each batch's
    `Level` taken as columns: the direct estimates', and its predecessors' estimates kept
    from the batches before (`found`: value, whether there is one, evidence)."""
    shared = _shared(dataset, population, tables)
    ids = sorted(grouped)
    index = {m: i for i, m in enumerate(ids)}
    direct, has_direct = direct_level(population.direct, ids)
    found = (
        np.zeros(direct.shape),
        np.zeros(direct.shape, np.bool_),
        np.zeros(direct.shape, np.bool_),
    )
    dimensions: dict[str, tuple[DimensionEstimate, ...]] = {}
    for batch in lineage_batches(models):
        rows = [
            _row(models[m], grouped[m], population, _parent(models[m], dimensions), index[m])
            for m in batch
        ]
        at = np.array([index[m] for m in batch], dtype=np.int64)
        parent = np.array(
            [_parent_index(models[m], dimensions, index) for m in batch], dtype=np.int64
        )
        has_parent = (parent >= 0)[:, None]
        level = Level(
            direct=direct[at],
            has_direct=has_direct[at],
            inherited=np.where(has_parent, found[0][parent], 0.0),
            has_inherited=has_parent & found[1][parent],
            inherited_evidence=has_parent & found[2][parent],
        )
        estimates = estimate_batch(rows, shared, detail=detail, level=level)
        dimensions.update(zip(batch, estimates, strict=True))
        found[0][at] = [[e.value or 0.0 for e in row] for row in estimates]
        found[1][at] = [[e.value is not None for e in row] for row in estimates]
        found[2][at] = [[e.evidence for e in row] for row in estimates]
    return dimensions


def _parent_index(
    model: ModelRecord, dimensions: Mapping[str, object], index: Mapping[str, int]
) -> int:
    """The row of `model`'s predecessor if it has estimates already, else -1."""
    parent = model.lineage.predecessor if model.lineage is not None else None
    return index[parent] if parent is not None and parent in dimensions else -1


def _parent(
    model: ModelRecord, dimensions: Mapping[str, tuple[DimensionEstimate, ...]]
) -> tuple[DimensionEstimate, ...] | None:
    """The estimates of `model`'s predecessor, if it has one among those made."""
    parent = model.lineage.predecessor if model.lineage is not None else None
    return dimensions.get(parent or "")


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
    return Scores(models=scores, domains=domains, noise=kept.noise, tasks=task_fits(dataset.models))
