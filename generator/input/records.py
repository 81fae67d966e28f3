"""Input records: what a file in data/ may contain.

Every record forbids unknown fields, so a typo in hand-edited TOML fails loudly.
TOML has no null: an optional field is simply left out of the file.

Private material (a `[private]` table in any file, unpublished models) is split
off by `load.py` before these public records are built, so nothing downstream of
the loader can reach it.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Literal

import msgspec
from msgspec import Meta

from generator.input.limits import MAX_ALIASES
from generator.input.text import LINE_PATTERN
from generator.input.urls import MAX_URL_LENGTH, URL_PATTERN
from generator.vocabulary import DIMENSION_COUNT, IQ_MAX, IQ_MIN, ChartKind, Direction

SLUG_PATTERN = r"\A[a-z0-9](?:[a-z0-9._-]{0,62}[a-z0-9])?\Z"

Slug = Annotated[str, Meta(pattern=SLUG_PATTERN, max_length=64)]
# Letters, digits, space and `._-()+,`; no space at either end; not `.` or `..`. Nothing
# but the space needs percent-encoding in a URL path, and nothing is special to a
# `_redirects` pattern (no `*`, `:`, `/`, `%`, `?`, `#`); aliases with a space get no
# hosting rule (`hosting.alias_sources`).
_ALIAS_END = r"[A-Za-z0-9._()+,-]"
ALIAS_PATTERN = rf"\A(?!\.\.?\Z){_ALIAS_END}(?:[A-Za-z0-9._()+, -]{{0,98}}{_ALIAS_END})?\Z"
Alias = Annotated[str, Meta(pattern=ALIAS_PATTERN, max_length=100)]
Text = Annotated[str, Meta(max_length=4000)]
Line = Annotated[str, Meta(pattern=LINE_PATTERN, max_length=4000)]
"""One-line text: a name, provider, title, label or source name (`generator/input/text.py`)."""
# An http(s) URL of visible characters whose host reads as written (`generator/input/urls.py`).
Url = Annotated[str, Meta(pattern=URL_PATTERN, max_length=MAX_URL_LENGTH)]
Price = Annotated[float, Meta(ge=0, le=100_000)]
# A reasoning-effort level or variant as the source names it (`high`, `xhigh`, `16K`, `thinking`).
Effort = Annotated[str, Meta(pattern=r"\A[A-Za-z0-9][A-Za-z0-9._-]{0,31}\Z")]
Category = Literal["iq", "eq"]
Modality = Literal["text", "image", "audio", "video"]
# What a result's `as_of` is (docs/METHODOLOGY.md 1.2): left out or "measured" when it is the
# upstream run or evaluation date; "published" when it is the date the upstream table was
# updated (the run happened between the model's release and then); "not-before" when the
# row has none and the model's release date stands in (the value existed no earlier).
AsOfKind = Literal["measured", "published", "not-before"]
PriceKind = Literal["first-party", "cloud", "reseller"]  # who lists a price (data/providers/)


CUTOFF_PATTERN = r"\A\d{4}-(0[1-9]|1[0-2])(-(0[1-9]|[12]\d|3[01]))?\Z"
KnowledgeCutoff = Annotated[str, Meta(pattern=CUTOFF_PATTERN)]
"""A knowledge cutoff: a month (`2025-04`) or a day (`2025-04-15`)."""


class Record(msgspec.Struct, forbid_unknown_fields=True, kw_only=True, frozen=True):
    """Base for every input record."""


class BenchmarkResultRecord(Record, kw_only=True, frozen=True):
    """One raw benchmark result of a model, with its provenance."""

    benchmark: Slug
    value: float
    source_name: Line
    source_url: Url
    as_of: dt.date
    as_of_kind: AsOfKind | None = None
    harness: Line | None = None
    source_model: Line | None = None
    effort: Effort | None = None
    note: Text | None = None
    source: Slug | None = None  # the data/sources/<id>.toml it was imported from
    row_id: Line | None = None  # the upstream row's own id
    mixed_effort: Text | None = None  # why this benchmark family mixes efforts (stated by hand)
    pinned: bool = False  # entered or corrected by hand: an import never overwrites it


class RevisionRecord(Record, kw_only=True, frozen=True):
    """A dated provider checkpoint behind a mutable model id."""

    id: Slug
    label: Line
    available_date: dt.date
    kind: Line | None = None
    source_urls: list[Url] = []


class ReasoningConfigurationRecord(Record, kw_only=True, frozen=True):
    """A source-backed reasoning-effort configuration (e.g. Epoch's `_xhigh` row)."""

    id: Slug
    source_model: Line
    source_model_id: Line
    effort_key: Line
    effort_label: Line | None = None
    reasoning: bool
    source: Line | None = None
    source_name: Line | None = None
    source_url: Url | None = None
    captured: Line | None = None
    values: dict[str, float] = {}


class LineageRecord(Record, kw_only=True, frozen=True):
    """Family, generation and at most one compatible predecessor."""

    family: Slug
    generation: Annotated[float, Meta(ge=0)]
    predecessor: Slug | None = None


class HostedPriceRecord(Record, kw_only=True, frozen=True):
    """A specific nonzero hosted-provider price for an otherwise free model."""

    provider: Line
    input: Price
    output: Price
    source_url: Url


class PriceTierRecord(Record, kw_only=True, frozen=True):
    """Prices that apply above a context size (e.g. a long-context tier), USD per 1M tokens."""

    above_tokens: Annotated[int, Meta(gt=0)]
    input: Price | None = None
    output: Price | None = None
    cache_read: Price | None = None
    cache_write: Price | None = None


class PricesRecord(Record, kw_only=True, frozen=True):
    """USD per 1M tokens. Leave a price out when it is unknown."""

    input: Price | None = None
    output: Price | None = None
    cache_read: Price | None = None
    cache_write: Price | None = None
    cache_write_1h: Price | None = None
    cache_storage_hourly: Price | None = None
    free: bool = False
    rate_limited: bool = False
    hosted: HostedPriceRecord | None = None
    source: Line | None = None
    source_url: Url | None = None
    as_of: dt.date | None = None  # the day the price source was read
    kind: PriceKind | None = None  # the lab's own listing, a cloud partner's or a reseller's
    retired: bool = False  # the listing says the model is retired
    pinned: bool = False  # entered or corrected by hand: an import never overwrites it
    tiers: list[PriceTierRecord] = []  # tier prices above a context size (not published)


class UsageMultiplierRecord(Record, kw_only=True, frozen=True):
    """A measured usage multiplier: how it was measured (`method`) and from which source."""

    multiplier: Annotated[float, Meta(gt=0, le=100)]
    method: Line
    samples: Annotated[int, Meta(ge=1)]
    source_name: Line
    source_url: Url
    as_of: dt.date


class SpeedRecord(Record, kw_only=True, frozen=True):
    """Measured speed, when an openly licensed source has it."""

    response_time_sec: Annotated[float, Meta(ge=0)] | None = None
    median_tokens_per_second: Annotated[float, Meta(ge=0)] | None = None
    source_name: Line | None = None
    source_url: Url | None = None


class TaskRunRecord(Record, kw_only=True, frozen=True):
    """One run of a model on an upstream benchmark as its source measured it: the seconds
    and dollars one task took on average (vals.ai's `latency` and `cost_per_test`), with
    its provenance. Written by the import; read by the task fit (docs/METHODOLOGY.md 6.1)."""

    suite: Line  # the upstream benchmark's own name (`corp_fin_v2`): most are not ours
    latency_sec: Annotated[float, Meta(gt=0, le=1_000_000)] | None = None
    cost_usd: Annotated[float, Meta(gt=0, le=1_000_000)] | None = None
    source_model: Line  # the upstream key the run is listed under
    effort: Effort | None = None
    harness: Line | None = None
    source: Slug
    source_url: Url
    as_of: dt.date  # the table's update date (as_of_kind published)


class ModelRecord(Record, kw_only=True, frozen=True):
    """One model: `data/models/<id>.toml`."""

    id: Slug
    name: Line
    aliases: Annotated[list[Alias], Meta(max_length=MAX_ALIASES)] = []
    """Other names that lead to this model: former ids, provider API ids, the display name."""
    provider: Line
    country: Line
    release_date: dt.date | None = None
    release_date_precision: Literal["day", "month"] = "day"
    release_date_source: Url | None = None  # with a note: the date is settled by hand
    release_date_note: Text | None = None  # why this date, where the sources disagree
    parameters_b: Annotated[float, Meta(gt=0)] | None = None
    active_parameters_b: Annotated[float, Meta(gt=0)] | None = None
    context_window: Annotated[int, Meta(gt=0)] | None = None
    max_output_tokens: Annotated[int, Meta(gt=0)] | None = None
    # The month (`2025-04`) or day (`2025-04-15`) its training data ends, as its lab states
    # it (models.dev): a result on a benchmark published later is post-cutoff (METHODOLOGY 1.4)
    knowledge_cutoff: KnowledgeCutoff | None = None
    # What a source states of the model's interface: the kinds of input it takes, whether it
    # calls tools, whether its lab has retired it, and the page these were read from
    modalities: list[Modality] = []
    tool_use: bool | None = None
    deprecated: bool = False
    identity_url: Url | None = None
    open_weights: bool
    published: bool = True
    updated: dt.datetime
    legacy_abstract_estimate: Annotated[float, Meta(ge=IQ_MIN, le=IQ_MAX)] | None = None
    lineage: LineageRecord | None = None
    prices: PricesRecord = PricesRecord()
    usage: UsageMultiplierRecord | None = None
    speed: SpeedRecord = SpeedRecord()
    revisions: list[RevisionRecord] = []
    reasoning_configurations: list[ReasoningConfigurationRecord] = []
    results: list[BenchmarkResultRecord] = []
    # Measured seconds and dollars per task, per upstream run (written by the import)
    task_runs: list[TaskRunRecord] = []


class ProviderRecord(Record, kw_only=True, frozen=True):
    """One lab, or a host that sells other labs' models: `data/providers/<id>.toml`."""

    id: Slug
    name: Line  # the one name every model of this lab carries as its `provider`
    country: Line
    names: list[Line] = []  # other names sources use for it (`Google`, `Meta AI`)
    first_party: list[Line] = []  # price-file provider keys of its own listings, trusted first
    cloud: list[Line] = []  # its cloud partners' price-file provider keys, in order


LadderMethod = Literal["logistic-4", "linear", "log-linear"]


class LadderFitRecord(Record, kw_only=True, frozen=True):
    """`[ladder_fit]` of a benchmark whose ladder the project fitted (docs/METHODOLOGY.md 1.3),
    written by `modelscores ladders fit --write`; absent on a hand-set ladder."""

    method: LadderMethod  # the curve: four-parameter logistic, straight line, log-linear
    parameters: Annotated[list[float], Meta(min_length=2, max_length=4)]  # the curve's, 6 digits
    as_of: dt.date  # the data's date: results dated after it are not used
    # Its fitting round: targets from the hand-set ladders and fitted ladders of lower rounds
    # only; absent in a file written before rounds: 1 (the hand-set ladders only)
    round: Annotated[int, Meta(ge=1, le=100)] = 1
    models: Annotated[int, Meta(ge=1, le=1_000_000)]  # models the fit rests on
    residual_sd: Annotated[float, Meta(ge=0, le=90)]  # sd of projection - target, IQ points
    check_models: Annotated[int, Meta(ge=0, le=1_000_000)]  # models of the held-out check
    coverage: Annotated[float, Meta(ge=0, le=1)]  # held-out share inside the 95% interval
    mean_log_predictive_density: Annotated[float, Meta(ge=-1000, le=100)]
    mean_absolute_error: Annotated[float, Meta(ge=0, le=90)]  # held-out, IQ points


class BenchmarkRecord(Record, kw_only=True, frozen=True):
    """One scored (iq) or EQ benchmark: `data/benchmarks/<id>.toml`."""

    id: Slug
    field: Annotated[str, Meta(pattern=r"\A[A-Za-z][A-Za-z0-9]*\Z")]
    name: Line
    description: Text = ""
    category: Category
    dimension: Slug | None = None
    direction: Direction
    unit: Line | None = None
    family: Slug | None = None  # benchmarks of one family share a model's effort setting
    min_value: float | None = None  # bounds of a valid raw value (validation requires min_value)
    max_value: float | None = None  # left out: no upper bound (a count, a time)
    # The raw score expected at each ladder IQ; left out (empty): the benchmark is unscored
    # until enough models have run it for a fitted ladder (docs/METHODOLOGY.md 1.3)
    ladder: list[float] = []
    noise: Annotated[float, Meta(gt=0)] | None = None
    confidence: Literal["normal", "low-confidence", "judgment"] = "normal"
    source_name: Line
    source_url: Url
    updated: dt.datetime
    # When the benchmark was first published (its paper or release), and where that is
    # stated: no result counts in the history before it (docs/METHODOLOGY.md 1.2)
    published_on: dt.date | None = None
    published_on_source: Url | None = None
    # A live benchmark that replaces its questions over time (LiveBench, LiveCodeBench): its
    # publication date says nothing of when the questions a model met were written
    refreshes_questions: bool = False
    # The IQ range of the ladder points fitted on real results (docs/METHODOLOGY.md 1); left out for
    # the hand-set ladders, whose points IQ 70 to 130 were fitted (`ladder.HAND_SET_FITTED`)
    fitted_iq: Annotated[list[int], Meta(min_length=2, max_length=2)] | None = None
    ladder_fit: LadderFitRecord | None = None  # the fit of a fitted ladder; absent: hand-set


class DomainBenchmarkRecord(Record, kw_only=True, frozen=True):
    """A benchmark that feeds one domain only."""

    id: Slug
    name: Line
    description: Text = ""
    direction: Direction
    unit: Line | None = None
    min_value: float | None = None  # bounds of a valid raw value, as on BenchmarkRecord
    max_value: float | None = None
    ladder: list[float]
    confidence: Literal["normal", "low-confidence", "judgment"] = "normal"
    source_name: Line
    source_url: Url


class DomainResultRecord(Record, kw_only=True, frozen=True):
    """One result row: a model on a domain benchmark under one harness."""

    benchmark: Slug
    model: Slug
    score: float
    source_name: Line
    source_url: Url
    as_of: dt.date
    as_of_kind: AsOfKind | None = None
    harness: Line | None = None
    source_model: Line | None = None
    effort: Effort | None = None
    note: Text | None = None
    source: Slug | None = None  # as on BenchmarkResultRecord
    row_id: Line | None = None
    pinned: bool = False


class DomainRecord(Record, kw_only=True, frozen=True):
    """One applied-capability domain: `data/domains/<slug>.toml`."""

    id: Slug
    name: Line
    description: Text = ""
    updated: dt.datetime
    benchmarks: list[DomainBenchmarkRecord]
    results: list[DomainResultRecord] = []


class SourceFileRecord(Record, kw_only=True, frozen=True):
    """One upstream file of a source: where it is downloaded from, how it is read."""

    path: Annotated[str, Meta(pattern=r"\A[A-Za-z0-9_][A-Za-z0-9._/-]{0,199}\Z")]
    """Relative to the raw folder, e.g. `epoch_benchmark_data/gpqa_diamond.csv`."""
    url: Url
    download: Url | None = None
    """Where the weekly refresh fetches it when not `url` (the link values cite): an archive
    or script holding it, with `#member`, `#folder&other=sub` or `#scriptName`
    (`generator/refresh/download.py`)."""
    format: Slug  # the adapter that reads it (`epoch`, `models-dev`, ...)
    as_of: dt.date | None = None  # the day this copy was published upstream or downloaded
    max_bytes: Annotated[int, Meta(ge=1, le=64 * 1024 * 1024)] = 8 * 1024 * 1024
    max_rows: Annotated[int, Meta(ge=1, le=1_000_000)] = 50_000


class SourceFeedRecord(Record, kw_only=True, frozen=True):
    """Which upstream file and column feed which benchmark (or domain benchmark)."""

    benchmark: Slug
    name: Line | None = None  # the result's source name when not the source's own
    domain: Slug | None = None  # set for a domain benchmark
    file: Annotated[str, Meta(max_length=200)]
    column: Line
    scale: Annotated[float, Meta(gt=0)] = 1.0  # multiply the upstream value (a percent -> 1)
    filter: dict[str, Line] = {}  # upstream column -> required value (a task, a category)


class SourceModelRecord(Record, kw_only=True, frozen=True):
    """An upstream model key mapped to one of our models and its reasoning configuration."""

    key: Line
    model: Alias  # a model id or alias (an alias keeps a mapping valid across a rename)
    effort: Effort | None = None
    harness: Line | None = None
    filter: dict[str, Line] = {}  # upstream column -> required value (e.g. a release date)
    note: Text | None = None


class SourceExclusionRecord(Record, kw_only=True, frozen=True):
    """An upstream model key (optionally on one benchmark) left out on purpose."""

    key: Line
    benchmark: Slug | None = None
    reason: Text


class PublishRuleRecord(Record, kw_only=True, frozen=True):
    """Which upstream models we do not have get a model file: those released on or after a
    day. Whether one is published is one rule for every source (the methodology's
    `min_direct_dimensions`, generator/importers/publish.py)."""

    released_on_or_after: dt.date


class SourceRecord(Record, kw_only=True, frozen=True):
    """One upstream source: `data/sources/<id>.toml`."""

    id: Slug
    name: Line
    licence: Line
    credit: Text  # the credit text its licence asks for, shown on the pages
    homepage: Url
    note: Text | None = None
    files: list[SourceFileRecord] = []
    feeds: list[SourceFeedRecord] = []
    models: list[SourceModelRecord] = []
    exclusions: list[SourceExclusionRecord] = []
    publish: PublishRuleRecord | None = None
    roles: list[Literal["results", "identity", "prices", "fallback-prices", "domains"]] = []


class DimensionRecord(Record, kw_only=True, frozen=True):
    """The methodology's settings for one declared dimension (`vocabulary.DIMENSIONS`, which
    holds its label and place; the loader checks the slugs against it)."""

    slug: Slug
    description: Text = ""
    min_benchmarks: Annotated[int, Meta(ge=1)] = 1


class ParametersRecord(Record, kw_only=True, frozen=True):
    """Every tunable number of the method (docs/METHODOLOGY.md, Parameters)."""

    offset_shrinkage: Annotated[float, Meta(ge=0)]
    sigma_benchmark: Annotated[float, Meta(gt=0)]
    sigma_predecessor: Annotated[float, Meta(gt=0)]
    sigma_cross_scale: Annotated[float, Meta(gt=0)]  # sigma_cross^2 = this / n_C (version 3)
    sigma_population: Annotated[float, Meta(gt=0)]
    kappa_noise: Annotated[float, Meta(gt=0)]
    min_direct_dimensions: Annotated[int, Meta(ge=1, le=DIMENSION_COUNT)]
    sigma_domain_prior: Annotated[float, Meta(gt=0)]
    sigma_domain_benchmark: Annotated[float, Meta(gt=0)]
    peer_count: Annotated[int, Meta(ge=1)]
    default_usage_multiplier: Annotated[float, Meta(gt=0)]
    interval_z: Annotated[float, Meta(gt=0)]
    # A composite on fewer direct dimensions than this is provisional (version 4, 3.3)
    provisional_below: Annotated[int, Meta(ge=1, le=8)] = 3
    # rho: the correlation of the errors of a model's imputed dimensions (version 4, 3.1),
    # chosen by the composite hold-out (3.2 c); 0 is version 3's composite sd
    imputed_correlation: Annotated[float, Meta(ge=0, le=1)] = 0.0


class ChangelogRecord(Record, kw_only=True, frozen=True):
    """One dated methodology or contract change."""

    date: dt.date
    breaking: bool = False
    text: Text


class CostBreakdownRecord(Record, kw_only=True, frozen=True):
    """One item of the effective-cost breakdown published by /methodology."""

    id: Slug
    name: Line
    summary: Text | None = None
    inputs: list[Text] = []
    steps: list[Text] = []


HeldOutId = Literal["benchmark-hold-out", "dimension-hold-out"]
Share = Annotated[float, Meta(ge=0, le=1)]


class HeldOutCheckRecord(Record, kw_only=True, frozen=True):
    """One held-out check of the stated ranges (docs/METHODOLOGY.md 3.2), written by the bench."""

    id: HeldOutId
    cases: Annotated[int, Meta(ge=0)]
    models: Annotated[int, Meta(ge=0)]
    coverage: Share  # share of held-out values inside the 95% predictive interval
    mean_log_predictive_density: float
    mean_absolute_error: Annotated[float, Meta(ge=0)]
    previous_coverage: Share  # the same figures for the previous methodology version
    previous_mean_log_predictive_density: float
    previous_mean_absolute_error: Annotated[float, Meta(ge=0)]
    lpd_gain: float  # mean LPD difference (this version - previous), per case
    lpd_gain_low95: float  # its paired-bootstrap 95% interval over models
    lpd_gain_high95: float


class CompositeCheckRecord(Record, kw_only=True, frozen=True):
    """The composite hold-out (METHODOLOGY 3.2 c) at one number of kept direct dimensions."""

    kept_dimensions: Annotated[int, Meta(ge=1, le=7)]
    cases: Annotated[int, Meta(ge=0)]
    models: Annotated[int, Meta(ge=0)]
    coverage: Share  # share of full-data composites inside the re-scored 95% range
    mean_log_predictive_density: float
    rms_standardised_error: Annotated[float, Meta(ge=0)]
    previous_coverage: Share  # the same figures with independent dimensions (version 3)
    previous_mean_log_predictive_density: float
    previous_rms_standardised_error: Annotated[float, Meta(ge=0)]


class IntervalCheckRecord(Record, kw_only=True, frozen=True):
    """`[interval_check]` of `data/methodology.toml`: `python -m bench.methodology` writes it."""

    nominal: Share  # the stated ranges' nominal coverage (0.95 for interval_z 1.96)
    previous_version: Text  # the methodology version compared against
    bootstrap_resamples: Annotated[int, Meta(ge=1)]
    checks: list[HeldOutCheckRecord]
    imputed_correlation: Annotated[float, Meta(ge=0, le=1)] | None = None  # the grid's choice
    composite_checks: list[CompositeCheckRecord] = []


class MethodologyRecord(Record, kw_only=True, frozen=True):
    """`data/methodology.toml`: version, summary, parameters, dimensions, changelog."""

    # Quoted on every page and in the diff comment's summary line: 64 characters at most.
    version: Annotated[str, Meta(pattern=r"\A\d{4}-\d{2}-\d{2}[a-z0-9.-]*\Z", max_length=64)]
    summary: Line  # one line: the agents' text summary quotes it in one
    updated: dt.datetime
    cost_unit: Line
    parameters: ParametersRecord
    dimensions: list[DimensionRecord]
    cost_breakdown: list[CostBreakdownRecord] = []
    rules: list[Text] = []
    changelog: list[ChangelogRecord] = []
    interval_check: IntervalCheckRecord | None = None  # from the bench; absent in test data


class ChartRecord(Record, kw_only=True, frozen=True):
    """One promoted canonical chart: `data/charts/<id>.toml`."""

    id: Slug
    title: Line
    description: Text
    kind: ChartKind
    related_benchmarks: list[Slug] = []
    tags: list[Slug] = []
    promoted: bool = True


class PrivateRecord(msgspec.Struct, forbid_unknown_fields=True, kw_only=True, frozen=True):
    """The `[private]` table any data file may carry. Never published."""

    notes: Text | None = None
    reviewer: Text | None = None
    review_status: Text | None = None
    config: dict[str, str] = {}


class Dataset(msgspec.Struct, kw_only=True, frozen=True):
    """The public dataset: what the loader hands to scoring and rendering.

    Holds published models only and no private table. Benchmarks are in
    catalogue order (iq by dimension order then id, then eq by id); models,
    domains and charts are sorted by id.
    """

    methodology: MethodologyRecord
    benchmarks: tuple[BenchmarkRecord, ...]  # the scored ones: each has a ladder
    models: tuple[ModelRecord, ...]
    domains: tuple[DomainRecord, ...]
    charts: tuple[ChartRecord, ...]
    sources: tuple[SourceRecord, ...] = ()
    providers: tuple[ProviderRecord, ...] = ()
    # Benchmarks without a ladder (too few models for a fit): their results are kept in the
    # models' files, validated, and used by nothing but `modelscores ladders fit`
    unscored: tuple[BenchmarkRecord, ...] = ()
