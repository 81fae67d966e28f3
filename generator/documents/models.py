"""The model documents: `/models` (summaries, in rank order) and `/models/{id}` (detail)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence

import msgspec

from generator.api.contract import (
    DIMENSION_SLUGS,
    MODEL,
    MODELS,
    CostPerTask,
    DimensionDetails,
    DimensionScoreDetailed,
    DimensionScores,
    IqCoverage,
    KnowledgeCutoffSource,
    ModelBenchmarkResult,
    ModelCost,
    ModelDetail,
    ModelFields,
    ModelList,
    ModelRevision,
    ModelSpeed,
    ModelSummary,
    ReasoningConfiguration,
    ReasoningEffort,
    TaskSource,
)
from generator.api.urls import SiteConfig, model_page_url
from generator.documents.common import (
    PROJECTED_IQ_DECIMALS,
    EnvelopeFields,
    cost_or_none,
    iq_or_none,
    spread_or_none,
)
from generator.documents.contamination import cutoff_day, post_cutoff, post_cutoff_count
from generator.input.records import (
    AsOfKind,
    BenchmarkRecord,
    BenchmarkResultRecord,
    Dataset,
    ModelRecord,
    ReasoningConfigurationRecord,
)
from generator.scoring import round_to
from generator.scoring.ladder import HAND_SET_FITTED, extrapolated
from generator.scoring.rounding import round_half_up, round_known
from generator.scoring.speed import TaskFit, TaskFits
from generator.scoring.types import ModelScores, Scores

UNSET = msgspec.UNSET
CUTOFF_SOURCE = "models-dev"  # data/sources/models-dev.toml: the source of knowledge cutoffs


def _field_name(slug: str) -> str:
    return slug.replace("-", "_")


_DIMENSION_FIELDS = tuple(_field_name(slug) for slug in DIMENSION_SLUGS)


def model_documents(
    dataset: Dataset, scores: Scores, config: SiteConfig, env: EnvelopeFields
) -> dict[str, msgspec.Struct]:
    """`/models` and one `/models/{id}` per published model."""
    benchmarks = {b.id: b for b in dataset.benchmarks}
    stated_by = cutoff_source(dataset)
    documents: dict[str, msgspec.Struct] = {}
    summaries: list[ModelSummary] = []
    names = {s.id: (s.name, s.homepage) for s in dataset.sources}
    for model in dataset.models:
        score = scores.models[model.id]
        cutoff = cutoff_day(model.knowledge_cutoff)
        results = _benchmark_results(score, benchmarks, cutoff)
        post_cutoff = post_cutoff_count(
            (r.post_cutoff for r in results.values() if r.category == "iq"), cutoff
        )
        common = msgspec.structs.asdict(
            _common_fields(
                model, score, dataset.methodology.cost_unit, config, stated_by, post_cutoff
            )
        )
        common |= per_task_fields(model, scores.tasks, names)
        summaries.append(
            ModelSummary(
                **common,
                dimensions=compact_dimensions(score),
                imputed_dimensions=imputed_dimensions(score),
            )
        )
        documents[MODEL.api_path(model.id)] = ModelDetail(
            api_version=env["api_version"],
            methodology_version=env["methodology_version"],
            **common,  # a model's own `updatedAt` replaces the envelope's
            dimensions=_detailed_dimensions(score),
            benchmark_results=results,
            reasoning_configurations=[_configuration(c) for c in model.reasoning_configurations],
            revisions=[
                ModelRevision(
                    id=r.id,
                    label=r.label,
                    available_date=r.available_date,
                    kind=r.kind,
                    source_urls=list(r.source_urls),
                )
                for r in model.revisions
            ],
            aliases=list(model.aliases),
            iq_coverage=IqCoverage(
                direct_dimensions=score.direct_dimensions,
                evidence_dimensions=score.evidence_dimensions,
                total_dimensions=len(score.dimensions),
            ),
        )
    summaries.sort(key=lambda s: (s.rank is None, s.rank or 0, s.id))
    return {MODELS.path: ModelList(**env, models=summaries), **documents}


def _configuration(c: ReasoningConfigurationRecord) -> ReasoningConfiguration:
    return ReasoningConfiguration(
        id=c.id,
        source=c.source,
        source_name=c.source_name,
        source_url=c.source_url,
        captured=c.captured,
        source_model=c.source_model,
        source_model_id=c.source_model_id,
        effort=ReasoningEffort(key=c.effort_key, label=c.effort_label, reasoning=c.reasoning),
        values=dict(sorted(c.values.items())),
    )


def _common_fields(
    model: ModelRecord,
    score: ModelScores,
    cost_unit: str,
    config: SiteConfig,
    cutoff_stated_by: KnowledgeCutoffSource | None,
    post_cutoff_results: int | None,
) -> ModelFields:
    """The fields ModelSummary and ModelDetail share (all but `dimensions`)."""
    latest = max(model.revisions, key=lambda r: (r.available_date, r.id), default=None)
    return ModelFields(
        id=model.id,
        name=model.name,
        provider=model.provider,
        country=model.country,
        rank=score.rank,
        iq=score.iq,
        iq_sd=spread_or_none(score.composite_sd),
        iq_low95=spread_or_none(score.composite_low95),
        iq_high95=spread_or_none(score.composite_high95),
        rank_low=score.rank_band.low if score.rank_band is not None else None,
        rank_high=score.rank_band.high if score.rank_band is not None else None,
        provisional=score.provisional,
        emotional_reasoning=score.eq,
        cost=_cost(model, score, cost_unit),
        cost_per_task=NO_COST_PER_TASK,
        speed=ModelSpeed(
            response_time_sec=None,
            median_tokens_per_second=model.speed.median_tokens_per_second,
        ),
        speed_source=NO_TASK_SOURCE,
        parameters_b=model.parameters_b,
        context_window=model.context_window,
        release_date=model.release_date,
        knowledge_cutoff=model.knowledge_cutoff,
        knowledge_cutoff_source=cutoff_stated_by if model.knowledge_cutoff else None,
        post_cutoff_results=post_cutoff_results,
        latest_revision=latest.id if latest is not None else UNSET,
        latest_revision_date=latest.available_date if latest is not None else UNSET,
        open_source=model.open_weights,
        updated_at=model.updated,
        url=model_page_url(config, model.id),
    )


COST_PER_TASK_UNIT = "USD per task"
NO_TASK_SOURCE = TaskSource(
    source=None,
    url=None,
    as_of=None,
    runs=0,
    configuration=None,
    reference="",
    reason="no measured runs",
)
NO_COST_PER_TASK = CostPerTask(
    **msgspec.structs.asdict(NO_TASK_SOURCE),
    usd=None,
    unit=COST_PER_TASK_UNIT,
)


def per_task_fields(
    model: ModelRecord, fits: TaskFits | None, sources: Mapping[str, tuple[str, str]]
) -> dict[str, object]:
    """`speed`, `speedSource` and `costPerTask` of a model from the task fits."""
    if fits is None or model.id not in fits.latency:
        return {}
    latency, cost = fits.latency[model.id], fits.cost[model.id]
    tokens = model.speed.median_tokens_per_second
    speed = _task_source(latency, len(fits.latency_suites), sources)
    return {
        "speed": ModelSpeed(response_time_sec=latency.value, median_tokens_per_second=tokens),
        "speed_source": speed,
        "cost_per_task": CostPerTask(
            **msgspec.structs.asdict(_task_source(cost, len(fits.cost_suites), sources)),
            usd=cost.value,
            unit=COST_PER_TASK_UNIT,
        ),
    }


def _task_source(fit: TaskFit, suites: int, sources: Mapping[str, tuple[str, str]]) -> TaskSource:
    first = fit.runs[0] if fit.runs else None
    name, url = sources.get(first.source, (first.source, None)) if first else (None, None)
    return TaskSource(
        source=name,
        url=url,
        as_of=fit.as_of,
        runs=len(fit.runs),
        configuration=(
            f"{first.source_model}" + (f" ({first.effort})" if first.effort else "")
            if first
            else None
        ),
        reference=f"median of {suites} benchmark effects",
        reason=fit.reason,
    )


def _cost(model: ModelRecord, score: ModelScores, unit: str) -> ModelCost:
    prices, cost = model.prices, score.cost
    return ModelCost(
        input_per_1m=prices.input,
        output_per_1m=prices.output,
        cache_read_per_1m=prices.cache_read,
        cache_write_per_1m=prices.cache_write,
        cache_write_1h_per_1m=prices.cache_write_1h,
        cache_storage_hourly_per_1m=prices.cache_storage_hourly,
        io_per_1m=cost_or_none(cost.io_per_1m),
        usage_multiplier=cost_or_none(cost.usage_multiplier),
        usage_multiplier_source=cost.usage_multiplier_source,
        effective_per_1m=cost_or_none(cost.effective_per_1m),
        unit=unit,
        price_source=prices.source,
        price_source_url=prices.source_url,
        price_as_of=prices.as_of,
        price_kind=prices.kind,
    )


def compact_dimensions(score: ModelScores) -> DimensionScores:
    """The dimension IQs of a model, rounded (null where not computed)."""
    values = {_field_name(d.slug): iq_or_none(d.value) for d in score.dimensions}
    return DimensionScores(**{_field_name(s): values.get(_field_name(s)) for s in DIMENSION_SLUGS})


def imputed_dimensions(score: ModelScores) -> list[str]:
    """The slugs of the model's imputed dimensions (no direct result), in dimension order."""
    return [d.slug for d in score.dimensions if d.imputed]


def dimension_scores(values: Sequence[float | None]) -> DimensionScores:
    """The dimension IQs from their unrounded values, in dimension order (a snapshot's).

    Called for every model at every month end of the history (356,552 times at 10,000
    models), so the field names are made once (`_DIMENSION_FIELDS`).
    """
    iqs = map(iq_or_none, values)
    return DimensionScores(**dict(zip(_DIMENSION_FIELDS, iqs, strict=True)))


def dimension_scores_many(rows: Sequence[Sequence[float | None]]) -> list[DimensionScores]:
    """`dimension_scores` of each row."""
    width = len(_DIMENSION_FIELDS)
    if any(len(row) != width for row in rows):
        raise ValueError(f"a row of dimension values is not {width} long")
    flat = [value for row in rows for value in row]
    iqs = round_known(flat, round_half_up)
    return [
        DimensionScores(**dict(zip(_DIMENSION_FIELDS, iqs[start : start + width], strict=True)))
        for start in range(0, len(iqs), width)
    ]


def _detailed_dimensions(score: ModelScores) -> DimensionDetails:
    by_slug = {d.slug: d for d in score.dimensions}
    details: dict[str, DimensionScoreDetailed] = {}
    for slug in DIMENSION_SLUGS:
        d = by_slug[slug]
        details[_field_name(slug)] = DimensionScoreDetailed(
            iq=iq_or_none(d.value),
            iq_sd=spread_or_none(d.sd if d.value is not None else None),
            iq_low95=spread_or_none(d.low95 if d.value is not None else None),
            iq_high95=spread_or_none(d.high95 if d.value is not None else None),
            benchmarks_covered=d.covered,
            benchmarks_total=d.total,
            imputed=d.imputed,
            estimation_method=d.method,
        )
    return DimensionDetails(**details)


def cutoff_source(dataset: Dataset) -> KnowledgeCutoffSource | None:
    """The source that states knowledge cutoffs: models.dev, the one source that reads them
    (docs/DECISIONS.md)."""
    for source in dataset.sources:
        if source.id == CUTOFF_SOURCE:
            return KnowledgeCutoffSource(name=source.name, url=source.homepage)
    return None


def _benchmark_results(
    score: ModelScores, benchmarks: Mapping[str, BenchmarkRecord], cutoff: dt.date | None
) -> dict[str, ModelBenchmarkResult]:
    """One result per benchmark: the row scoring chose (its best projection among harnesses)."""
    results: dict[str, ModelBenchmarkResult] = {}
    for benchmark_id, scored in score.results.items():
        b, row, projection = benchmarks[benchmark_id], scored.row, scored.projection
        after, note = post_cutoff(b, cutoff)
        results[benchmark_id] = ModelBenchmarkResult(
            value=row.value,
            field=b.field,
            name=b.name,
            category=b.category,
            dimension=b.dimension,
            direction=b.direction,
            projected_iq=round_to(projection.iq, PROJECTED_IQ_DECIMALS),
            source_name=row.source_name,
            source_url=row.source_url,
            as_of=row.as_of,
            harness=row.harness,
            effort=row.effort,
            as_of_kind=as_of_kind(row),
            extrapolated=is_extrapolated(b, row.value),
            post_cutoff=after,
            post_cutoff_note=note,
        )
    return results


def as_of_kind(row: BenchmarkResultRecord) -> AsOfKind:
    """What the row's date is (docs/METHODOLOGY.md 1.2): its own kind, else the run's date."""
    return row.as_of_kind or "measured"


def is_extrapolated(benchmark: BenchmarkRecord, raw: float) -> bool:
    """`raw` lies beyond the benchmark's fitted ladder points (docs/METHODOLOGY.md 1)."""
    fitted = benchmark.fitted_iq or HAND_SET_FITTED
    return extrapolated(benchmark.ladder, benchmark.direction, raw, fitted)


def model_aliases(documents: Mapping[str, msgspec.Struct]) -> dict[str, list[str]]:
    """Each published model's aliases (models without any left out), from its document."""
    return {
        doc.id: doc.aliases
        for doc in documents.values()
        if isinstance(doc, ModelDetail) and doc.aliases
    }
