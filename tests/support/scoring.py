"""Build input records with defaults, for scoring and explain tests."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

import msgspec

from generator.api.contract import DIMENSION_SLUGS
from generator.input.records import (
    BenchmarkRecord,
    BenchmarkResultRecord,
    Dataset,
    DimensionRecord,
    DomainBenchmarkRecord,
    DomainRecord,
    DomainResultRecord,
    LineageRecord,
    MethodologyRecord,
    ModelRecord,
    ParametersRecord,
    PricesRecord,
    UsageMultiplierRecord,
)

URL = "https://example.org/source"
UPDATED = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
AS_OF = dt.date(2026, 1, 1)
# Raw score = IQ / 100 on every default ladder: raw 1.15 -> IQ 115 exactly.
LINEAR_LADDER = [0.70, 0.85, 1.00, 1.15, 1.30, 1.45, 1.60]

PARAMETERS = ParametersRecord(
    offset_shrinkage=2.0,
    sigma_benchmark=10.0,
    sigma_predecessor=15.0,
    sigma_cross_scale=144.0,  # sigma_cross 12 from one other dimension, 12/sqrt(n) from n
    sigma_population=20.0,
    kappa_noise=4.0,
    min_direct_dimensions=2,
    sigma_domain_prior=10.0,
    sigma_domain_benchmark=10.0,
    peer_count=3,
    default_usage_multiplier=1.0,
    interval_z=1.96,
)


def make_parameters(**overrides: Any) -> ParametersRecord:
    """The test parameters above, with overrides."""
    return msgspec.structs.replace(PARAMETERS, **overrides)


def make_methodology(**parameter_overrides: Any) -> MethodologyRecord:
    """A methodology with the declared dimensions (min 1 benchmark each)."""
    return MethodologyRecord(
        version="2026-01-01",
        summary="Test methodology.",
        updated=UPDATED,
        cost_unit="USD per 1M input/output tokens",
        parameters=make_parameters(**parameter_overrides),
        dimensions=[DimensionRecord(slug=slug) for slug in DIMENSION_SLUGS],
    )


def make_benchmark(
    benchmark_id: str,
    dimension: str | None = None,
    *,
    category: str = "iq",
    direction: str = "higher_is_better",
    ladder: Sequence[float] = LINEAR_LADDER,
    noise: float | None = None,
) -> BenchmarkRecord:
    """A benchmark whose default ladder maps raw x to IQ 100*x."""
    field = "".join(part.capitalize() for part in benchmark_id.split("-"))
    return BenchmarkRecord(
        id=benchmark_id,
        field=field[0].lower() + field[1:],
        name=benchmark_id.upper(),
        category=category,  # type: ignore[arg-type]
        dimension=dimension,
        direction=direction,  # type: ignore[arg-type]
        ladder=list(ladder),
        noise=noise,
        source_name="Test",
        source_url=URL,
        updated=UPDATED,
    )


def result(benchmark: str, value: float, harness: str | None = None) -> BenchmarkResultRecord:
    """One raw result."""
    return BenchmarkResultRecord(
        benchmark=benchmark,
        value=value,
        source_name="Test",
        source_url=URL,
        as_of=AS_OF,
        harness=harness,
    )


def iq_results(**by_benchmark: float) -> list[BenchmarkResultRecord]:
    """Results on the linear ladder from IQs: iq_results(math_a=115) -> raw 1.15."""
    return [result(bid.replace("_", "-"), iq / 100) for bid, iq in by_benchmark.items()]


def make_model(
    model_id: str,
    results: Sequence[BenchmarkResultRecord] = (),
    *,
    predecessor: str | None = None,
    family: str | None = None,
    generation: float = 1,
    prices: PricesRecord | None = None,
    usage: float | None = None,
    release_date: dt.date | None = AS_OF,
    legacy: float | None = None,
) -> ModelRecord:
    """A published model; `family` or `predecessor` adds a lineage."""
    lineage = None
    if family is not None or predecessor is not None:
        lineage = LineageRecord(
            family=family or model_id, generation=generation, predecessor=predecessor
        )
    measured = None
    if usage is not None:
        measured = UsageMultiplierRecord(
            multiplier=usage,
            method="test",
            samples=10,
            source_name="Test",
            source_url=URL,
            as_of=AS_OF,
        )
    return ModelRecord(
        id=model_id,
        name=model_id.upper(),
        provider="Test Lab",
        country="Nowhere",
        release_date=release_date,
        open_weights=False,
        updated=UPDATED,
        legacy_abstract_estimate=legacy,
        lineage=lineage,
        prices=prices if prices is not None else PricesRecord(input=1.0, output=4.0),
        usage=measured,
        results=list(results),
    )


def standard_benchmarks() -> tuple[BenchmarkRecord, ...]:
    """Two benchmarks per dimension (`<short>-a`, `<short>-b`) and two EQ benchmarks."""
    shorts = ("arc", "math", "acad", "code", "use", "rel", "work")
    iq = [
        make_benchmark(f"{short}-{letter}", slug)
        for short, slug in zip(shorts, DIMENSION_SLUGS, strict=True)
        for letter in ("a", "b")
    ]
    eq = [make_benchmark(f"eq-{letter}", category="eq") for letter in ("a", "b")]
    return (*iq, *eq)


def make_domain(
    domain_id: str,
    benchmarks: Sequence[str],
    rows: Sequence[tuple[str, str, float, str | None]],
) -> DomainRecord:
    """A domain on linear ladders; rows are (model, benchmark, raw score, harness)."""
    return DomainRecord(
        id=domain_id,
        name=domain_id.title(),
        updated=UPDATED,
        benchmarks=[
            DomainBenchmarkRecord(
                id=bid,
                name=bid.upper(),
                direction="higher_is_better",
                ladder=list(LINEAR_LADDER),
                source_name="Test",
                source_url=URL,
            )
            for bid in benchmarks
        ],
        results=[
            DomainResultRecord(
                model=model,
                benchmark=bid,
                score=score,
                harness=harness,
                source_name="Test",
                source_url=URL,
                as_of=AS_OF,
            )
            for model, bid, score, harness in rows
        ],
    )


def make_dataset(
    models: Sequence[ModelRecord],
    benchmarks: Sequence[BenchmarkRecord] | None = None,
    domains: Sequence[DomainRecord] = (),
    **parameter_overrides: Any,
) -> Dataset:
    """A dataset (models and domains sorted by id, as the loader hands them over)."""
    return Dataset(
        methodology=make_methodology(**parameter_overrides),
        benchmarks=tuple(benchmarks) if benchmarks is not None else standard_benchmarks(),
        models=tuple(sorted(models, key=lambda m: m.id)),
        domains=tuple(sorted(domains, key=lambda d: d.id)),
        charts=(),
    )
