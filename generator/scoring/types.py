"""What scoring returns. Unrounded except where a field says rounded."""

from __future__ import annotations

from typing import Literal

import msgspec

from generator.input.records import BenchmarkResultRecord
from generator.scoring.speed import TaskFits

UsageSource = Literal["measured", "lineage-imputed", "peer-imputed"]
CostStep = Literal["a", "b", "c", "d", "e", "none"]


class Projection(msgspec.Struct, frozen=True, kw_only=True):
    """One raw result projected onto the IQ scale."""

    benchmark: str
    raw: float
    iq: float


class ScoredResult(msgspec.Struct, frozen=True, kw_only=True):
    """One benchmark of a model as scoring used it: the row chosen among its harnesses
    (the highest projection), that row's projection, and the benchmark's offset."""

    row: BenchmarkResultRecord  # the chosen row: raw value, harness, source, date
    projection: Projection  # benchmark id, raw value (= row.value), projected IQ (unrounded)
    offset: float | None = None  # the benchmark's offset in its dimension (2-7), else None


class DimensionEstimate(msgspec.Struct, frozen=True, kw_only=True):
    """One model's estimate in one dimension."""

    slug: str
    value: float | None  # unrounded, clamped to [70, 160]; None when no estimate exists
    sd: float | None  # posterior sd where the path has one
    covered: int  # direct benchmarks used
    total: int  # benchmarks in the dimension
    imputed: bool  # covered < min_benchmarks
    method: str  # direct-mean, legacy-predicted-blend, posterior, predecessor-prior, ...
    evidence: bool  # direct results or predecessor evidence
    projections: tuple[Projection, ...] = ()
    offsets: tuple[tuple[str, float], ...] = ()  # (benchmark id, offset) used
    prior_mean: float | None = None
    prior_sd: float | None = None
    prior_source: str | None = None  # predecessor / cross-dimension / population
    inputs: tuple[tuple[str, float], ...] = ()  # named intermediate numbers, for explain
    low95: float | None = None  # value -/+ interval_z * sd, clamped; None without an sd
    high95: float | None = None


class CostEstimate(msgspec.Struct, frozen=True, kw_only=True):
    """Effective cost and the waterfall step that produced its multiplier."""

    io_per_1m: float | None
    usage_multiplier: float | None
    usage_multiplier_source: UsageSource | None
    effective_per_1m: float | None  # rounded to 4 decimals
    step: CostStep
    multiplier_from: tuple[str, ...] = ()  # model ids the multiplier was taken from


class RankBand(msgspec.Struct, frozen=True, kw_only=True):
    """The ranks a model could hold at the stated confidence (docs/METHODOLOGY.md section 3.1)."""

    low: int  # best plausible rank
    high: int  # worst plausible rank


class BenchmarkNoise(msgspec.Struct, frozen=True, kw_only=True):
    """`sigma_b`: the sd of one projected result of a benchmark around the true score."""

    sd: float
    # from the data / the file / its fitted ladder's residual sd / sigma_benchmark
    source: Literal["estimated", "fixed", "fitted-ladder", "default"]
    models: int  # models the estimate rests on (0 unless estimated)


class ModelScores(msgspec.Struct, frozen=True, kw_only=True):
    """Every score of one published model."""

    model_id: str
    dimensions: tuple[DimensionEstimate, ...]  # one per dimension, in dimension order
    composite: float | None  # unrounded mean of the dimensions; None: too few direct
    iq: int | None  # composite rounded half up
    rank: int | None
    composite_sd: float | None  # sqrt(sum sd_d^2) / the number of dimensions
    composite_low95: float | None  # composite -/+ interval_z * sd, clamped to the scale
    composite_high95: float | None
    rank_band: RankBand | None
    dimension_bands: tuple[RankBand | None, ...]  # per dimension, in dimension order
    direct_dimensions: int
    evidence_dimensions: int
    provisional: bool  # a composite on fewer than provisional_below direct dimensions (3.3)
    eq: int | None  # rounded mean of EQ projections
    eq_projections: tuple[Projection, ...]
    cost: CostEstimate
    results: dict[str, ScoredResult]  # the model's benchmarks as scored, in catalogue order


class DomainEntry(msgspec.Struct, frozen=True, kw_only=True):
    """One model's partially pooled estimate in one domain."""

    model_id: str
    composite_iq: int
    rank_status: Literal["full", "partial"]
    covered: int
    total: int
    observed: float
    adjustment: float
    confidence: float
    standard_error: float
    low95: float
    high95: float


class DomainScores(msgspec.Struct, frozen=True, kw_only=True):
    """A domain's leaderboard, ordered: full first, then compositeIQ desc, then id."""

    domain_id: str
    entries: tuple[DomainEntry, ...]


class RankedEntry(msgspec.Struct, frozen=True, kw_only=True):
    """One row of any ranking."""

    model_id: str
    rank: int
    score: float  # the published (rounded) score the rank was decided on


class Scores(msgspec.Struct, frozen=True, kw_only=True):
    """The scoring result for a whole dataset."""

    models: dict[str, ModelScores]  # by model id
    domains: dict[str, DomainScores]  # by domain id
    noise: dict[str, BenchmarkNoise]  # by benchmark id, every benchmark
    tasks: TaskFits | None = None  # seconds and dollars per task (`price_scores` fills it)
