"""The published JSON contract: response Structs and the endpoint table.

These types and the table of documents at the end (`DOCUMENTS`) are the one source for
the files, `openapi.json`, the hosting rules, the pages, the MCP sidecar and the tests.
Presence rule: a field is required `T`, always-present nullable `T | None`,
or omittable `T | UnsetType = UNSET`; never `T | None = None`.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Annotated, Any, Generic, Literal, TypeVar

import msgspec
from msgspec import UNSET, Meta, UnsetType, field

from generator.vocabulary import DIMENSION_COUNT, DIMENSION_COUNT_WORD
from generator.vocabulary import DIMENSION_SLUGS as DIMENSION_SLUGS
from generator.vocabulary import IQ_MAX as IQ_MAX
from generator.vocabulary import IQ_MIN as IQ_MIN
from generator.vocabulary import ChartKind as ChartKind
from generator.vocabulary import Direction as Direction

ApiVersion = Literal["1"]
API_VERSION: ApiVersion = "1"  # mypy holds the two together
COST_UNIT = "USD per 1M input/output tokens"

Uri = Annotated[str, Meta(extra_json_schema={"format": "uri"})]
DimensionIq = Annotated[int, Meta(ge=IQ_MIN, le=IQ_MAX)]


class Contract(msgspec.Struct, rename="camel", kw_only=True, frozen=True):
    """Base for every published JSON object (clients must tolerate new fields)."""


class Closed(msgspec.Struct, rename="camel", kw_only=True, frozen=True, forbid_unknown_fields=True):
    """Base for objects the contract closes: no additional fields allowed."""


class Envelope(Contract, kw_only=True, frozen=True):
    """Fields present at the top level of every response."""

    api_version: ApiVersion
    methodology_version: str
    updated_at: dt.datetime | None


# --- models -----------------------------------------------------------------


class ModelCost(Contract, kw_only=True, frozen=True):
    """Prices in USD per 1M tokens and the effective cost after the usage multiplier."""

    input_per_1m: float | None = field(name="inputPer1M")
    output_per_1m: float | None = field(name="outputPer1M")
    cache_read_per_1m: float | None | UnsetType = field(default=UNSET, name="cacheReadPer1M")
    cache_write_per_1m: float | None | UnsetType = field(default=UNSET, name="cacheWritePer1M")
    cache_write_1h_per_1m: float | None | UnsetType = field(default=UNSET, name="cacheWrite1hPer1M")
    cache_storage_hourly_per_1m: float | None | UnsetType = field(
        default=UNSET, name="cacheStorageHourlyPer1M"
    )
    io_per_1m: float | None = field(name="ioPer1M")
    usage_multiplier: float | None
    usage_multiplier_source: Literal["measured", "lineage-imputed", "peer-imputed"] | None
    effective_per_1m: float | None = field(name="effectivePer1M")
    unit: str
    # Where the prices above come from: the source as the data names it, its URL, and the
    # day it was read (each null when the data does not state it)
    price_source: str | None
    price_source_url: Uri | None
    price_as_of: dt.date | None
    # Who lists the price: the lab itself, its cloud partner, or a reseller (null when the
    # data does not say, e.g. a price entered by hand without it)
    price_kind: Literal["first-party", "cloud", "reseller"] | None


class ModelSpeed(Contract, kw_only=True, frozen=True):
    """Measured response time and output speed, when an open source has them."""

    response_time_sec: float | None
    median_tokens_per_second: float | None


class TaskSource(Contract, kw_only=True, frozen=True):
    """Where a per-task figure (`speed.responseTimeSec`, `costPerTask.usd`) comes from and
    what it rests on: a model effect in a fit over model and benchmark, at the median
    benchmark (methodology 6.1). `reason` says why the figure is null."""

    source: str | None  # the source's name (null without runs)
    url: Uri | None
    as_of: dt.date | None  # the newest of the runs' dates
    runs: Annotated[int, Meta(ge=0)]  # runs the figure rests on (one per benchmark)
    configuration: str | None  # the upstream variant used: key and effort
    reference: str  # the fixed reference the figure is stated at
    reason: str | None


class CostPerTask(TaskSource, kw_only=True, frozen=True):
    """What one task costs in dollars, measured (methodology 6.1), beside the token prices."""

    usd: Annotated[float, Meta(gt=0)] | None
    unit: str


_DIMENSION_NAMES = {slug.replace("-", "_"): slug for slug in DIMENSION_SLUGS}


class DimensionScores(msgspec.Struct, rename=_DIMENSION_NAMES, kw_only=True, frozen=True):
    """Compact map: dimension slug to rounded IQ, or null when it cannot be computed."""

    abstract_reasoning: DimensionIq | None
    mathematical_reasoning: DimensionIq | None
    academic_reasoning: DimensionIq | None
    programmatic_reasoning: DimensionIq | None
    computer_use: DimensionIq | None
    reliability: DimensionIq | None
    knowledge_work: DimensionIq | None


class DimensionScoreDetailed(Contract, kw_only=True, frozen=True):
    """One dimension of a model in full: score, coverage and how it was estimated."""

    iq: DimensionIq | None
    iq_sd: Annotated[float, Meta(ge=0)] | None
    iq_low95: float | None
    iq_high95: float | None
    benchmarks_covered: Annotated[int, Meta(ge=0)]
    benchmarks_total: Annotated[int, Meta(ge=0)]
    imputed: bool
    estimation_method: str | UnsetType = UNSET


class DimensionDetails(msgspec.Struct, rename=_DIMENSION_NAMES, kw_only=True, frozen=True):
    """Full map: dimension slug to DimensionScoreDetailed, in dimension order."""

    abstract_reasoning: DimensionScoreDetailed
    mathematical_reasoning: DimensionScoreDetailed
    academic_reasoning: DimensionScoreDetailed
    programmatic_reasoning: DimensionScoreDetailed
    computer_use: DimensionScoreDetailed
    reliability: DimensionScoreDetailed
    knowledge_work: DimensionScoreDetailed


AsOfKind = Literal["measured", "published", "not-before"]
_AS_OF_KIND = (
    "What asOf is: measured (the upstream run or evaluation date), published (the date the "
    "upstream table holding it was updated; the run happened between the model's release and "
    "then) or not-before (the upstream row has no date: the model's release date stands in)."
)
_EXTRAPOLATED = (
    "The raw value lies beyond the ladder points fitted on real results (for the hand-set "
    "ladders: above the IQ-130 point or below the IQ-70 point), so projectedIq is a bound."
)
_PROVISIONAL = (
    "The composite rests on fewer direct dimensions than the methodology's provisionalBelow "
    "(3): it keeps its rank, but is provisional. False without a composite."
)


_POST_CUTOFF = (
    "True when the benchmark was published after the model's knowledge cutoff (its questions "
    "could not have been in the training data), false when on or before it, null when either "
    "date is unknown or the benchmark refreshes its questions (see postCutoffNote). It says "
    "when the benchmark appeared, not whether the model saw it."
)
_KNOWLEDGE_CUTOFF = (
    "The month (2025-04) or day (2025-04-15) the model's training data ends, as its lab "
    "states it; a month counts as its last day."
)


class ModelBenchmarkResult(Contract, kw_only=True, frozen=True):
    """One raw benchmark result of a model, with its provenance."""

    value: float
    field: str
    name: str
    category: Literal["iq", "eq"]
    dimension: str | None
    direction: Direction
    projected_iq: float
    source_name: str
    source_url: Uri
    as_of: dt.date
    harness: str | None
    effort: str | None  # the effort setting or variant the source names (e.g. "high", "16K")
    as_of_kind: Annotated[AsOfKind, Meta(description=_AS_OF_KIND)]
    extrapolated: Annotated[bool, Meta(description=_EXTRAPOLATED)]
    post_cutoff: Annotated[bool | None, Meta(description=_POST_CUTOFF)]
    post_cutoff_note: Annotated[
        str | None, Meta(description="Why `postCutoff` is null (null when it is not).")
    ]


class ModelRevision(Closed, kw_only=True, frozen=True):
    """A dated provider checkpoint of a mutable model id."""

    id: str
    label: str
    available_date: dt.date
    kind: str | None
    source_urls: list[Uri]


class ReasoningEffort(Closed, kw_only=True, frozen=True):
    """The reasoning-effort setting a configuration was run at."""

    key: str
    label: str | None
    reasoning: bool


class ReasoningConfiguration(Closed, kw_only=True, frozen=True):
    """A source-backed reasoning-effort configuration of a model."""

    id: str
    source: str | None
    source_name: str | None
    source_url: Uri | None
    captured: str | None
    source_model: str
    source_model_id: str
    effort: ReasoningEffort
    values: dict[str, float]


class IqCoverage(Contract, kw_only=True, frozen=True):
    """How many of the composite's dimensions rest on direct or predecessor evidence."""

    direct_dimensions: Annotated[int, Meta(ge=0, le=DIMENSION_COUNT)]
    evidence_dimensions: Annotated[int, Meta(ge=0, le=DIMENSION_COUNT)]
    total_dimensions: Annotated[int, Meta(ge=0)]


class KnowledgeCutoffSource(Contract, kw_only=True, frozen=True):
    """The source that states a model's knowledge cutoff."""

    name: str
    url: Uri


class ModelFields(Contract, kw_only=True, frozen=True):
    """The fields a model's list row and its detail document share (all but `dimensions`)."""

    id: str
    name: str
    provider: str
    country: str
    rank: Annotated[int, Meta(ge=1)] | None
    iq: DimensionIq | None
    iq_sd: Annotated[float, Meta(ge=0)] | None
    iq_low95: float | None
    iq_high95: float | None
    rank_low: Annotated[int, Meta(ge=1)] | None
    rank_high: Annotated[int, Meta(ge=1)] | None
    provisional: Annotated[bool, Meta(description=_PROVISIONAL)]
    emotional_reasoning: DimensionIq | None
    cost: ModelCost
    cost_per_task: CostPerTask
    speed: ModelSpeed
    speed_source: TaskSource
    parameters_b: float | None = field(name="parametersB")
    context_window: int | None
    release_date: dt.date | None
    knowledge_cutoff: Annotated[str | None, Meta(description=_KNOWLEDGE_CUTOFF)]
    knowledge_cutoff_source: Annotated[
        KnowledgeCutoffSource | None, Meta(description="Where the knowledge cutoff is stated.")
    ]
    post_cutoff_results: Annotated[
        Annotated[int, Meta(ge=0)] | None,
        Meta(
            description="How many of the results behind the composite (iq benchmarks) are "
            "post-cutoff; null without a knowledge cutoff.",
        ),
    ]
    latest_revision: str | UnsetType = UNSET
    latest_revision_date: dt.date | None | UnsetType = UNSET
    open_source: bool
    updated_at: dt.datetime
    url: Uri


class ModelSummary(ModelFields, kw_only=True, frozen=True):
    """One element of `models` in the model list."""

    dimensions: DimensionScores
    imputed_dimensions: Annotated[
        list[str],
        Meta(
            description="The slugs of the dimensions in `dimensions` that are imputed (no "
            "direct result: a prior, not a measurement), in dimension order."
        ),
    ]


class ModelList(Envelope, kw_only=True, frozen=True):
    """GET /models: every published model."""

    models: list[ModelSummary]


class VersionedModel(ModelFields, kw_only=False, frozen=True):
    """A model's fields under the envelope's versions; the model's own `updatedAt` (never
    null) stands for the envelope's. These two fields are positional, so they are encoded
    first (msgspec orders fields like dataclasses: keyword-only after positional)."""

    api_version: ApiVersion
    methodology_version: str


_ALIASES = (
    "Other names that lead to this model (former ids, provider API ids such as dated "
    "revisions, the display name): GET /models/{alias} redirects (301) to /models/{id}."
)


class ModelDetail(VersionedModel, kw_only=True, frozen=True):
    """GET /models/{id}: one model in full (the summary's fields, detailed dimensions)."""

    dimensions: DimensionDetails
    benchmark_results: dict[str, ModelBenchmarkResult]
    reasoning_configurations: list[ReasoningConfiguration]
    revisions: list[ModelRevision]
    aliases: Annotated[list[str], Meta(description=_ALIASES)]
    iq_coverage: IqCoverage | UnsetType = UNSET


# --- benchmarks and rankings ------------------------------------------------


NoiseSource = Literal["estimated", "fixed", "fitted-ladder", "default"]


LadderMethod = Literal["logistic-4", "linear", "log-linear"]


class LadderFit(Contract, kw_only=True, frozen=True):
    """How a ladder the project fitted was made and checked (methodology 1.3)."""

    method: Annotated[
        LadderMethod,
        Meta(description="The curve: four-parameter logistic, straight line, or log-linear."),
    ]
    parameters: Annotated[
        list[float],
        Meta(
            description="The curve's parameters in the benchmark's unit: logistic-4 (value as "
            "IQ falls, value as IQ rises, midpoint IQ, scale in IQ points); linear and "
            "log-linear (intercept, slope in IQ) of the raw value or its natural log."
        ),
    ]
    as_of: Annotated[
        dt.date, Meta(description="The data's date: no result dated after it was used.")
    ]
    round: Annotated[
        int,
        Meta(
            ge=1,
            description="The fitting round: its targets came from the hand-set ladders and the "
            "fitted ladders of lower rounds only.",
        ),
    ]
    models: Annotated[int, Meta(ge=1, description="Models the fit rests on.")]
    fitted_iq_low: Annotated[
        DimensionIq, Meta(description="The lowest ladder point fitted on real results.")
    ]
    fitted_iq_high: Annotated[
        DimensionIq, Meta(description="The highest ladder point fitted on real results.")
    ]
    residual_sd: Annotated[
        float,
        Meta(
            ge=0,
            description="The sd of a projection around its target, in IQ points; it seeds the "
            "benchmark's noise (noiseSd) until the data estimate it.",
        ),
    ]
    check_models: Annotated[
        int, Meta(ge=0, description="Models held out in turn to check the ladder.")
    ]
    coverage: Annotated[
        float,
        Meta(
            ge=0,
            le=1,
            description="Share of held-out models whose target lies in the 95% predictive "
            "interval.",
        ),
    ]
    mean_log_predictive_density: Annotated[
        float, Meta(description="Mean log predictive density of the held-out targets.")
    ]
    mean_absolute_error: Annotated[
        float, Meta(ge=0, description="Mean absolute held-out error, in IQ points.")
    ]


class BenchmarkMetadata(Contract, kw_only=True, frozen=True):
    """One benchmark of a scored dimension (metadata only, no results)."""

    id: str
    field: str
    name: str
    description: str
    category: Literal["iq", "eq"]
    dimension: str | None
    direction: Direction
    unit: str | None
    confidence: str
    source_name: str
    source_url: Uri
    updated_at: dt.datetime
    url: Uri
    noise_sd: Annotated[float, Meta(gt=0)]
    noise_source: NoiseSource
    noise_models: Annotated[int, Meta(ge=0)]
    published_on: Annotated[
        dt.date | None,
        Meta(
            description="When the benchmark was first published (its paper or release); the "
            "history counts no result before it. Null where the data does not state it."
        ),
    ]
    published_on_source: Uri | None
    ladder_fit: Annotated[
        LadderFit | None,
        Meta(
            description="How the project fitted this benchmark's ladder to the models that ran "
            "it; null where the ladder was set by hand."
        ),
    ]


class BenchmarkList(Envelope, kw_only=True, frozen=True):
    """GET /benchmarks: the benchmarks assigned to the scored dimensions."""

    benchmarks: list[BenchmarkMetadata]


RankingType = Literal["derived", "dimension", "benchmark"]


class RankingFields(Contract, kw_only=True, frozen=True):
    """The fields a ranking's catalog entry and its detail document share."""

    id: str
    ranking_name: str
    ranking_type: RankingType
    dimension: str | None
    direction: Direction
    model_count: Annotated[int, Meta(ge=0)]
    url: Uri
    field: str | UnsetType = UNSET
    category: str | UnsetType = UNSET
    unit: str | UnsetType = UNSET


class RankingCatalogEntry(RankingFields, kw_only=True, frozen=True):
    """One ranking in the catalog, without its rows."""

    methodology_version: str | UnsetType = UNSET


class RankingList(Envelope, kw_only=True, frozen=True):
    """GET /rankings: the ranking catalog in catalog order."""

    rankings: list[RankingCatalogEntry]


class RankedModel(Contract, kw_only=True, frozen=True):
    """One model's row in a ranking."""

    id: str
    name: str
    provider: str
    rank: Annotated[int, Meta(ge=1)]
    score: float | None
    imputed: bool | UnsetType = UNSET
    rank_low: Annotated[int, Meta(ge=1)] | UnsetType = UNSET
    rank_high: Annotated[int, Meta(ge=1)] | UnsetType = UNSET
    url: Uri | UnsetType = UNSET
    provisional: Annotated[bool, Meta(description=_PROVISIONAL)] | UnsetType = UNSET


class VersionedRanking(RankingFields, kw_only=False, frozen=True):
    """A ranking's fields under the envelope (`Envelope`'s three fields, positional so that
    they are encoded first, as in every other envelope)."""

    api_version: ApiVersion
    methodology_version: str
    updated_at: dt.datetime | None


class RankingDetail(VersionedRanking, kw_only=True, frozen=True):
    """GET /rankings/{id}: one ranking (its catalog entry's fields) with every ranked model."""

    models: list[RankedModel]


# --- history -------------------------------------------------------------------

HISTORY_NOTE = (
    "Replayed from the data: each snapshot is what today's methodology makes of the evidence "
    "of that date (models released by then, results dated on or before it), not what any site "
    "published then. Cost is not replayed: prices exist only as current values."
)
ResultCount = Annotated[
    int, Meta(ge=0, description="The benchmark results of the snapshot's models dated by then.")
]
ReleaseDatedResultCount = Annotated[
    int,
    Meta(
        ge=0,
        description="Of resultCount, those placed at their model's release date because the "
        "source row has no date of its own (a 'not before' date).",
    ),
]


class HistoryTopModel(Contract, kw_only=True, frozen=True):
    """The first-ranked model of a snapshot."""

    id: str
    name: str
    iq: DimensionIq
    provisional: Annotated[bool, Meta(description=_PROVISIONAL)]
    url: Uri


class HistorySnapshot(Contract, kw_only=True, frozen=True):
    """One month end of the replayed history."""

    date: dt.date
    model_count: Annotated[int, Meta(ge=0)]
    ranked_model_count: Annotated[int, Meta(ge=0)]
    result_count: ResultCount
    release_dated_result_count: ReleaseDatedResultCount
    top_model: HistoryTopModel | None
    url: Uri


class HistoryList(Envelope, kw_only=True, frozen=True):
    """GET /history: the snapshot dates, oldest first."""

    note: str
    snapshots: list[HistorySnapshot]


class HistoryEntry(Contract, kw_only=True, frozen=True):
    """One ranked model of a snapshot's composite leaderboard."""

    id: str
    name: str
    provider: str
    rank: Annotated[int, Meta(ge=1)]
    iq: DimensionIq
    iq_low95: float | None
    iq_high95: float | None
    rank_low: Annotated[int, Meta(ge=1)] | None
    rank_high: Annotated[int, Meta(ge=1)] | None
    provisional: Annotated[bool, Meta(description=_PROVISIONAL)]
    url: Uri


class HistoryDetail(Envelope, kw_only=True, frozen=True):
    """GET /history/{date}: the composite leaderboard as of one month end."""

    date: dt.date
    note: str
    # Its /history entry's counts: the models in the data by then, and those ranked (`models`);
    # the benchmark results placed, and of them those placed at their model's release date
    # because the upstream row has no date of its own ("not before" dates)
    model_count: Annotated[int, Meta(ge=0)]
    ranked_model_count: Annotated[int, Meta(ge=0)]
    result_count: ResultCount
    release_dated_result_count: ReleaseDatedResultCount
    models: list[HistoryEntry]


class ModelHistoryPoint(Contract, kw_only=True, frozen=True):
    """A model at one month end of the replayed history (rank and IQ null while unranked)."""

    date: dt.date
    rank: Annotated[int, Meta(ge=1)] | None
    iq: DimensionIq | None
    iq_low95: float | None
    iq_high95: float | None
    rank_low: Annotated[int, Meta(ge=1)] | None
    rank_high: Annotated[int, Meta(ge=1)] | None
    provisional: Annotated[bool, Meta(description=_PROVISIONAL)]  # false while unranked
    dimensions: DimensionScores
    snapshot: Uri  # its month end's leaderboard, GET /history/{date}


class ModelHistory(Envelope, kw_only=True, frozen=True):
    """GET /models/{id}/history: one model at each month end since it entered, oldest first."""

    id: str
    name: str
    release_date: dt.date | None
    note: str
    url: Uri
    snapshots: list[ModelHistoryPoint]


ChangeKind = Literal["model_released", "results_added", "methodology"]
_PROVISIONAL_BEFORE = f"Of iqBefore (the month end before). {_PROVISIONAL}"
_PROVISIONAL_AFTER = f"Of iqAfter (the change's month end). {_PROVISIONAL}"


class Change(Contract, kw_only=True, frozen=True):
    """One change derived from the data: a release, new results, a methodology version."""

    id: str
    kind: ChangeKind
    date: dt.date
    title: str
    summary: str
    url: Uri
    model: str | None
    iq_before: DimensionIq | None = None
    iq_after: DimensionIq | None = None
    rank_before: Annotated[int, Meta(ge=1)] | None = None
    rank_after: Annotated[int, Meta(ge=1)] | None = None
    provisional_before: Annotated[bool, Meta(description=_PROVISIONAL_BEFORE)] = False
    provisional_after: Annotated[bool, Meta(description=_PROVISIONAL_AFTER)] = False


class ChangeList(Envelope, kw_only=True, frozen=True):
    """GET /changes: every change, newest first (also the Atom feed `/feed.atom`)."""

    changes: list[Change]


# --- charts, methodology, domains -------------------------------------------


class Chart(Contract, kw_only=True, frozen=True):
    """A promoted canonical chart: its share page and social preview image."""

    id: str
    title: str
    description: str
    url: Uri
    image: Uri
    related_benchmarks: list[str]
    tags: list[str]


class ChartList(Envelope, kw_only=True, frozen=True):
    """GET /charts: the promoted canonical charts."""

    charts: list[Chart]


class BenchmarkRef(Contract, kw_only=True, frozen=True):
    """A benchmark or price input named by its source field."""

    field: str
    name: str


class MethodologyDimension(Contract, kw_only=True, frozen=True):
    """One of the composite's dimensions."""

    id: str
    slug: str
    name: str
    min_benchmarks: Annotated[int, Meta(ge=1)]
    benchmarks: list[BenchmarkRef]


class CostBreakdownItem(Contract, kw_only=True, frozen=True):
    """One part of how effective cost is computed."""

    id: str
    name: str
    inputs: list[BenchmarkRef] | UnsetType = UNSET
    steps: list[str] | UnsetType = UNSET
    summary: str | UnsetType = UNSET


class DerivedRanking(Contract, kw_only=True, frozen=True):
    """A ranking derived by the methodology rather than read off one benchmark."""

    id: str
    ranking_name: str
    direction: Direction
    score_field: str
    dimensions: list[MethodologyDimension] | UnsetType = UNSET
    unit: str | UnsetType = UNSET
    breakdown: list[CostBreakdownItem] | UnsetType = UNSET


class MethodologyParameters(Contract, kw_only=True, frozen=True):
    """Every tunable number of the scoring methodology."""

    offset_shrinkage: float
    sigma_benchmark: float
    sigma_predecessor: float
    sigma_cross_scale: float
    sigma_population: float
    kappa_noise: float
    min_direct_dimensions: int
    sigma_domain_prior: float
    sigma_domain_benchmark: float
    peer_count: int
    default_usage_multiplier: float
    interval_z: float
    provisional_below: int  # a composite on fewer direct dimensions is provisional (v4)
    imputed_correlation: float  # rho of the imputed dimensions' errors in the composite sd (v4)


class BenchmarkNoise(Contract, kw_only=True, frozen=True):
    """One benchmark's noise `sigma_b` (IQ points) as the methodology uses it."""

    id: str
    noise_sd: Annotated[float, Meta(gt=0)]
    noise_source: NoiseSource
    noise_models: Annotated[int, Meta(ge=0)]


class UnscoredBenchmark(Contract, kw_only=True, frozen=True):
    """A benchmark in the catalogue whose results are kept but counted by no score: no ladder
    has been fitted to it yet (methodology 1.3)."""

    id: str
    name: str
    dimension: Annotated[
        str | None, Meta(description="The dimension its ladder would feed once fitted.")
    ]
    models: Annotated[
        int, Meta(ge=0, description="Published models with a result on it (kept, not scored).")
    ]
    source_url: Uri
    reason: Annotated[str, Meta(description="Why it is not scored yet, in one sentence.")]


class ChangelogEntry(Contract, kw_only=True, frozen=True):
    """One dated change of the methodology or the contract."""

    date: dt.date
    breaking: bool
    text: str


HeldOutCheckId = Literal["benchmark-hold-out", "dimension-hold-out"]
Share = Annotated[float, Meta(ge=0, le=1)]


class HeldOutCheck(Contract, kw_only=True, frozen=True):
    """One check of the stated 95% ranges on held-out results of this data (3.2)."""

    # benchmark-hold-out: each result of a model with two or more in its dimension, left out
    # and predicted from everything else; dimension-hold-out: each whole direct dimension of
    # a model with three or more, predicted from its prior. `description` says so in the JSON.

    id: HeldOutCheckId
    description: str
    cases: Annotated[int, Meta(ge=0, description="Held-out values scored.")]
    models: Annotated[int, Meta(ge=0, description="Models the cases come from.")]
    coverage: Annotated[
        Share, Meta(description="Share of held-out values inside the 95% predictive interval.")
    ]
    mean_log_predictive_density: Annotated[
        float, Meta(description="Mean log density of the held-out values (higher is better).")
    ]
    mean_absolute_error: Annotated[float, Meta(ge=0, description="Mean absolute error, IQ points.")]
    previous_coverage: Annotated[Share, Meta(description="coverage under the previous version.")]
    previous_mean_log_predictive_density: float
    previous_mean_absolute_error: Annotated[float, Meta(ge=0)]
    lpd_gain: Annotated[
        float, Meta(description="Mean log predictive density of this version minus the previous.")
    ]
    lpd_gain_low95: Annotated[
        float, Meta(description="Paired bootstrap over models: 2.5th percentile of lpdGain.")
    ]
    lpd_gain_high95: Annotated[
        float, Meta(description="Paired bootstrap over models: 97.5th percentile of lpdGain.")
    ]


class IntervalCheck(Contract, kw_only=True, frozen=True):
    """How often 95% ranges built this way held on held-out results of this data."""

    # Written into the data by bench/methodology.py; the ranges reflect this method's own
    # noise and do not cover differences between scoring methods (`statement` says so).

    statement: Annotated[str, Meta(description="The figures in one sentence, as the pages say.")]
    nominal: Annotated[Share, Meta(description="The ranges' nominal coverage (0.95).")]
    previous_version: Annotated[str, Meta(description="The methodology version compared with.")]
    bootstrap_resamples: Annotated[int, Meta(ge=1)]
    checks: list[HeldOutCheck]
    composite_checks: Annotated[
        list[CompositeHoldOut],
        Meta(
            description="The composite hold-out (version 4): well-covered models re-scored on "
            "k of their direct dimensions, by k."
        ),
    ]


class CompositeHoldOut(Contract, kw_only=True, frozen=True):
    """The composite hold-out at one number of kept direct dimensions (version 4)."""

    kept_dimensions: Annotated[int, Meta(ge=1, le=7)]
    cases: Annotated[int, Meta(ge=0)]
    models: Annotated[int, Meta(ge=0)]
    coverage: Annotated[
        Share, Meta(description="Share of full-data composites inside the re-scored 95% range.")
    ]
    mean_log_predictive_density: float
    rms_standardised_error: Annotated[
        float, Meta(ge=0, description="Root mean square of the standardised error (1 is ideal).")
    ]
    previous_coverage: Annotated[
        Share, Meta(description="coverage with independent dimensions (version 3).")
    ]
    previous_mean_log_predictive_density: float
    previous_rms_standardised_error: Annotated[float, Meta(ge=0)]


class DataSource(Contract, kw_only=True, frozen=True):
    """An upstream source of the data, credited as its licence asks."""

    id: str
    name: str
    licence: str
    credit: Annotated[str, Meta(description="The credit its licence asks for, as the pages show.")]
    url: Uri  # the source's home page


class Methodology(Envelope, kw_only=True, frozen=True):
    """GET /methodology: how every published score is computed."""

    version: str
    summary: str
    derived_rankings: list[DerivedRanking]
    url: Uri
    rules: list[str]
    parameters: MethodologyParameters
    benchmark_noise: list[BenchmarkNoise]
    unscored_benchmarks: list[UnscoredBenchmark]  # catalogued, no ladder yet (1.3)
    changelog: list[ChangelogEntry]
    sources: list[DataSource]  # data/sources/*.toml, by id
    interval_check: IntervalCheck | UnsetType = UNSET  # present when the data carries it


class DomainSummary(Contract, kw_only=True, frozen=True):
    """One applied-capability domain in the domain list."""

    id: str
    name: str
    benchmark_count: Annotated[int, Meta(ge=0)]
    updated_at: dt.datetime
    url: Uri


class DomainList(Envelope, kw_only=True, frozen=True):
    """GET /domains: every domain."""

    domains: list[DomainSummary]


class DomainCompositeEntry(Contract, kw_only=True, frozen=True):
    """One model's partially pooled composite in a domain."""

    model: str
    model_name: str
    composite_iq: int = field(name="compositeIQ")
    rank_status: Literal["full", "partial"]
    benchmarks_covered: Annotated[int, Meta(ge=0)]
    benchmarks_total: Annotated[int, Meta(ge=0)]
    model_url: Uri | None
    observed_composite_iq: float | UnsetType = field(default=UNSET, name="observedCompositeIQ")
    coverage_adjustment: float | UnsetType = UNSET
    coverage_confidence: Annotated[float, Meta(ge=0, le=1)] | UnsetType = UNSET
    estimate_standard_error: Annotated[float, Meta(ge=0)] | UnsetType = UNSET
    estimate_low95: float | UnsetType = UNSET
    estimate_high95: float | UnsetType = UNSET


class SourceRef(Contract, kw_only=True, frozen=True):
    """Where a domain benchmark's results come from."""

    name: str
    url: Uri


class DomainResultRow(Contract, kw_only=True, frozen=True):
    """One published result of a model on a domain benchmark under one harness."""

    model: str
    harness: str | None
    effort: str | None  # as on ModelBenchmarkResult
    score: float
    model_url: Uri | None


class DomainBenchmark(Contract, kw_only=True, frozen=True):
    """A domain benchmark and its results."""

    id: str
    name: str
    description: str
    direction: Direction
    unit: str | None
    source: SourceRef
    results: list[DomainResultRow]


class DomainDetail(Envelope, kw_only=True, frozen=True):
    """GET /domains/{slug}: a domain's composite leaderboard and benchmark results."""

    id: str
    name: str
    url: Uri
    models: list[DomainCompositeEntry]
    benchmarks: list[DomainBenchmark]


# --- discovery and errors ---------------------------------------------------


class IndexEndpoint(Contract, kw_only=True, frozen=True):
    """One endpoint listed by the discovery index."""

    path: str
    url: Uri
    description: str


class ApiIndex(Envelope, kw_only=True, frozen=True):
    """GET /api and /api/v1: what this API serves and where."""

    name: str
    description: str
    endpoints: list[IndexEndpoint]
    openapi: Uri
    mcp: Uri
    docs: Uri


class Error(Closed, kw_only=True, frozen=True):
    """Every 404: exactly an error message and an error code."""

    error: str
    code: str


ERROR_CODES: dict[str, str] = {
    "model_not_found": "Unknown model id.",
    "ranking_not_found": "Unknown ranking id.",
    "domain_not_found": "Unknown domain slug.",
    "history_not_found": "Unknown history snapshot date.",
    "not_found": "No such API path.",
}


# --- the table of documents -------------------------------------------------

S = TypeVar("S", bound=msgspec.Struct)


@dataclass(frozen=True, kw_only=True)
class DocumentKind(Generic[S]):
    """One kind of published document: the one place its path, type, file and page are named.

    The producers (`documents/assemble.py` and its helpers), the file layout (`api/urls.py`),
    OpenAPI, the hosting rules, the pages (`SiteDocuments`), the MCP sidecar's snapshot and
    the tests all read this table. A `{param}` is one whole segment of the path (anywhere:
    `/models/{id}/history`) and the last segment of the file (one file per value, in
    `folder`).
    """

    path: str  # API path pattern, relative to /api/v1 ("/" is the discovery index)
    response: type[S]
    summary: str
    file: str  # its file under the API root `api/v1/` (mirrored under the alias `api/`)
    page: str  # site path of the human page that shows it ("" is the landing page)
    param: str | None = None  # path parameter name, if any
    not_found_code: str | None = None  # error code for an unknown parameter value

    def __post_init__(self) -> None:
        if self.param is None:
            return
        slot = "{" + self.param + "}"
        if f"/{slot}" not in self.path or not self.file.endswith(f"/{slot}"):
            raise ValueError(f"{self.path}: {slot} must be a path segment and the file's last")

    def _fill(self, pattern: str, value: str | None) -> str:
        if self.param is None:
            return pattern
        if value is None:
            raise ValueError(f"{self.path}: no value for {{{self.param}}}")
        return pattern.replace("{" + self.param + "}", value)

    def api_path(self, value: str | None = None) -> str:
        """The API path of one document of this kind (`value` fills the `{param}`)."""
        return self._fill(self.path, value)

    def file_path(self, value: str | None = None) -> str:
        """Its file, relative to an API root."""
        return self._fill(self.file, value)

    def page_path(self, value: str | None = None) -> str:
        """Its page's site path (a folder ending in `/`, or "" for the landing page)."""
        return self._fill(self.page, value)

    def path_value(self, path: str) -> str | None:
        """The `{param}` value in a concrete API path of this kind (None: no parameter)."""
        return _template_value(self.path, self.param, path)

    def file_value(self, file: str) -> str | None:
        """The `{param}` value in a concrete file of this kind (None: no parameter)."""
        return _template_value(self.file, self.param, file)

    @property
    def rewritten(self) -> bool:
        """Served through a rewrite, because its file is not at its path."""
        return self.file != self.path.lstrip("/")

    @property
    def folder(self) -> str:
        """The folder holding one file per `{param}` value (parameterised kinds only)."""
        return self.file.rsplit("/", 1)[0]

    @property
    def collection(self) -> str:
        """The API path before the `{param}` segment (`/models` for `/models/{id}/history`):
        every path under it names a value of this kind's collection."""
        return self.path.split("/{", 1)[0]


def _template_value(template: str, param: str | None, concrete: str) -> str | None:
    if param is None:
        return None
    head, tail = template.split("{" + param + "}")
    if not (concrete.startswith(head) and concrete.endswith(tail)):
        raise ValueError(f"{concrete!r} is not of the form {template!r}")
    value = concrete[len(head) : len(concrete) - len(tail)]
    if not value or "/" in value:
        raise ValueError(f"{concrete!r}: no single-segment value for {{{param}}}")
    return value


INDEX: DocumentKind[ApiIndex] = DocumentKind(
    path="/",
    response=ApiIndex,
    summary="Discover the API: its endpoints, OpenAPI description, MCP connector and docs",
    file="index.json",
    page="docs/",
)
MODELS = DocumentKind(
    path="/models",
    response=ModelList,
    summary="List every published model",
    file="models.json",
    page="",
)
MODEL = DocumentKind(
    path="/models/{id}",
    response=ModelDetail,
    summary="Get one model",
    file="models/{id}",
    page="models/{id}/",
    param="id",
    not_found_code="model_not_found",
)
MODEL_HISTORY = DocumentKind(
    path="/models/{id}/history",
    response=ModelHistory,
    summary=(
        f"Get one model's composite IQ, rank and {DIMENSION_COUNT_WORD} dimensions at each month "
        "end since release"
    ),
    file="model-history/{id}",
    page="models/{id}/",
    param="id",
    not_found_code="model_not_found",
)
BENCHMARKS = DocumentKind(
    path="/benchmarks",
    response=BenchmarkList,
    summary=f"List the benchmarks of the {DIMENSION_COUNT_WORD} dimensions",
    file="benchmarks",
    page="benchmarks/",
)
RANKINGS = DocumentKind(
    path="/rankings",
    response=RankingList,
    summary="List the ranking catalog",
    file="rankings.json",
    page="rankings/",
)
RANKING = DocumentKind(
    path="/rankings/{id}",
    response=RankingDetail,
    summary="Get one ranking",
    file="rankings/{id}",
    page="rankings/{id}/",
    param="id",
    not_found_code="ranking_not_found",
)
CHARTS = DocumentKind(
    path="/charts",
    response=ChartList,
    summary="List the promoted canonical charts",
    file="charts",
    page="charts/",
)
METHODOLOGY = DocumentKind(
    path="/methodology",
    response=Methodology,
    summary="Read the scoring methodology",
    file="methodology",
    page="methodology/",
)
DOMAINS = DocumentKind(
    path="/domains",
    response=DomainList,
    summary="List the applied-capability domains",
    file="domains.json",
    page="domains/",
)
DOMAIN = DocumentKind(
    path="/domains/{slug}",
    response=DomainDetail,
    summary="Get one domain",
    file="domains/{slug}",
    page="domains/{slug}/",
    param="slug",
    not_found_code="domain_not_found",
)
HISTORY = DocumentKind(
    path="/history",
    response=HistoryList,
    summary="List the monthly snapshots of the replayed score history",
    file="history.json",
    page="history/",
)
HISTORY_SNAPSHOT = DocumentKind(
    path="/history/{date}",
    response=HistoryDetail,
    summary="Get the composite leaderboard as of one month end (YYYY-MM-DD)",
    file="history/{date}",
    page="history/{date}/",
    param="date",
    not_found_code="history_not_found",
)
CHANGES = DocumentKind(
    path="/changes",
    response=ChangeList,
    summary="List what changed, newest first: releases, new results with their effect, methodology",
    file="changes.json",
    page="history/",
)

DOCUMENTS: tuple[DocumentKind[Any], ...] = (
    INDEX,
    MODELS,
    MODEL,
    MODEL_HISTORY,
    BENCHMARKS,
    RANKINGS,
    RANKING,
    CHARTS,
    METHODOLOGY,
    DOMAINS,
    DOMAIN,
    HISTORY,
    HISTORY_SNAPSHOT,
    CHANGES,
)
"""Every published document kind, in OpenAPI and `_redirects` order."""
ENDPOINTS: tuple[DocumentKind[Any], ...] = tuple(d for d in DOCUMENTS if d is not INDEX)
"""The endpoints the discovery index lists (every document kind but the index itself)."""
