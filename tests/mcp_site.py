"""A small built site for the MCP tests, written from contract Structs (no generator needed).

`write_site(root, tag)` writes `root/api/v1/...` in the layout of docs/ARCHITECTURE.md. The
`tag` goes into `methodologyVersion` and every model's name, so a test can tell two builds
apart by any answer's envelope and content alike.
"""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path

import msgspec

from generator.api.contract import (
    BenchmarkList,
    BenchmarkMetadata,
    BenchmarkRef,
    ChangelogEntry,
    DerivedRanking,
    DimensionDetails,
    DimensionScoreDetailed,
    DimensionScores,
    DomainBenchmark,
    DomainCompositeEntry,
    DomainDetail,
    DomainList,
    DomainResultRow,
    DomainSummary,
    Methodology,
    MethodologyDimension,
    MethodologyParameters,
    ModelBenchmarkResult,
    ModelCost,
    ModelDetail,
    ModelList,
    ModelSpeed,
    ModelSummary,
    RankedModel,
    RankingCatalogEntry,
    RankingDetail,
    RankingList,
    SourceRef,
)
from generator.input.records import DIMENSION_SLUGS

BASE = "https://scores.example.org"
UPDATED = dt.datetime(2026, 3, 1, tzinfo=dt.UTC)
_ENCODER = msgspec.json.Encoder(order="deterministic")

# id, name, provider, iq, cost, open source, release date
MODELS = (
    ("alpha-1", "Alpha One", "Acme", 130, 2.5, False, dt.date(2025, 6, 1)),
    ("beta-2", "Beta Two", "Bolt", 115, 0.8, True, dt.date(2025, 9, 15)),
    ("gamma-3", "Gamma Three", "Acme", None, None, True, None),
)
DIMENSION_IQ = {"alpha-1": 128, "beta-2": 117, "gamma-3": None}


def _summary_fields(index: int, tag: str) -> dict[str, object]:
    model_id, name, provider, iq, cost, open_source, release = MODELS[index]
    return {
        "id": model_id,
        "name": f"{name} {tag}",
        "provider": provider,
        "country": "US",
        "rank": index + 1 if iq is not None else None,
        "iq": iq,
        "emotional_reasoning": 100 + index if iq is not None else None,
        "cost": ModelCost(
            input_per_1m=cost,
            output_per_1m=cost,
            io_per_1m=None if cost is None else 2 * cost,
            usage_multiplier=None if cost is None else 1.0,
            usage_multiplier_source=None if cost is None else "measured",
            effective_per_1m=None if cost is None else 2 * cost,
            unit="USD per 1M input/output tokens",
        ),
        "speed": ModelSpeed(response_time_sec=1.5, median_tokens_per_second=80.0 + index),
        "parameters_b": None,
        "context_window": 128000 * (index + 1),
        "release_date": release,
        "open_source": open_source,
        "updated_at": UPDATED,
        "url": f"{BASE}/models/{model_id}/",
    }


def _envelope(tag: str) -> dict[str, object]:
    return {"api_version": "1", "methodology_version": f"2026-03-01.{tag}", "updated_at": UPDATED}


def _model_list(tag: str) -> ModelList:
    rows = [
        ModelSummary(
            **_summary_fields(i, tag),  # type: ignore[arg-type]
            dimensions=DimensionScores(
                **{s.replace("-", "_"): DIMENSION_IQ[m[0]] for s in DIMENSION_SLUGS}
            ),
        )
        for i, m in enumerate(MODELS)
    ]
    return ModelList(**_envelope(tag), models=rows)  # type: ignore[arg-type]


def _model_detail(index: int, tag: str) -> ModelDetail:
    model_id = MODELS[index][0]
    iq = DIMENSION_IQ[model_id]
    dim = DimensionScoreDetailed(iq=iq, benchmarks_covered=1, benchmarks_total=1, imputed=False)
    results = {
        "arc-agi-2": ModelBenchmarkResult(
            value=0.4 + index / 10,
            field="arc_agi_2",
            name="ARC-AGI-2",
            category="iq",
            dimension="abstract-reasoning",
            direction="higher_is_better",
            projected_iq=110.0 + index,
            source_name="ARC Prize",
            source_url="https://arcprize.org/",
            as_of=dt.date(2026, 2, 1),
            harness=None,
        )
    }
    return ModelDetail(
        **(_envelope(tag) | _summary_fields(index, tag)),  # type: ignore[arg-type]
        dimensions=DimensionDetails(**{s.replace("-", "_"): dim for s in DIMENSION_SLUGS}),
        benchmark_results=results if iq is not None else {},
        reasoning_configurations=[],
        revisions=[],
    )


def _rankings(tag: str) -> tuple[RankingList, dict[str, RankingDetail]]:
    entries = {
        "composite-iq": ("Composite IQ", "derived", None, "higher_is_better"),
        "effective-cost": ("Effective cost", "derived", None, "lower_is_better"),
        "abstract-reasoning-iq": (
            "Abstract reasoning",
            "dimension",
            "abstract-reasoning",
            "higher_is_better",
        ),
    }
    ranked = [
        RankedModel(id=m[0], name=f"{m[1]} {tag}", provider=m[2], rank=i + 1, score=m[3])
        for i, m in enumerate(MODELS[:2])
    ]
    catalog: list[RankingCatalogEntry] = []
    details: dict[str, RankingDetail] = {}
    for ranking_id, (name, kind, dimension, direction) in entries.items():
        common = {
            "id": ranking_id,
            "ranking_name": name,
            "ranking_type": kind,
            "dimension": dimension,
            "direction": direction,
            "model_count": len(ranked),
            "url": f"{BASE}/api/v1/rankings/{ranking_id}",
        }
        catalog.append(RankingCatalogEntry(**common))  # type: ignore[arg-type]
        details[ranking_id] = RankingDetail(**_envelope(tag), **common, models=ranked)  # type: ignore[arg-type]
    return RankingList(**_envelope(tag), rankings=catalog), details  # type: ignore[arg-type]


def _domains(tag: str) -> tuple[DomainList, dict[str, DomainDetail]]:
    summaries: list[DomainSummary] = []
    details: dict[str, DomainDetail] = {}
    for slug, name in (("finance", "Finance"), ("legal", "Legal")):
        url = f"{BASE}/domains/{slug}/"
        summaries.append(
            DomainSummary(id=slug, name=name, benchmark_count=1, updated_at=UPDATED, url=url)
        )
        entry = DomainCompositeEntry(
            model="alpha-1",
            model_name=f"Alpha One {tag}",
            composite_iq=121,
            rank_status="full",
            benchmarks_covered=1,
            benchmarks_total=1,
            model_url=f"{BASE}/models/alpha-1/",
        )
        benchmark = DomainBenchmark(
            id=f"{slug}-bench",
            name=f"{name} bench",
            description="",
            direction="higher_is_better",
            unit="%",
            source=SourceRef(name="Example", url="https://example.org/"),
            results=[
                DomainResultRow(
                    model="alpha-1", harness=None, score=71.5, model_url=entry.model_url
                )
            ],
        )
        details[slug] = DomainDetail(
            **_envelope(tag),  # type: ignore[arg-type]
            id=slug,
            name=name,
            url=url,
            models=[entry],
            benchmarks=[benchmark],
        )
    return DomainList(**_envelope(tag), domains=summaries), details  # type: ignore[arg-type]


def _benchmarks(tag: str) -> BenchmarkList:
    bench = BenchmarkMetadata(
        id="arc-agi-2",
        field="arc_agi_2",
        name="ARC-AGI-2",
        description="Abstract puzzles.",
        category="iq",
        dimension="abstract-reasoning",
        direction="higher_is_better",
        unit="%",
        confidence="high",
        source_name="ARC Prize",
        source_url="https://arcprize.org/",
        updated_at=UPDATED,
        url=f"{BASE}/benchmarks/arc-agi-2/",
    )
    return BenchmarkList(**_envelope(tag), benchmarks=[bench])  # type: ignore[arg-type]


def _methodology(tag: str) -> Methodology:
    dimension = MethodologyDimension(
        id="D1",
        slug="abstract-reasoning",
        name="Abstract reasoning",
        min_benchmarks=1,
        benchmarks=[BenchmarkRef(field="arc_agi_2", name="ARC-AGI-2")],
    )
    return Methodology(
        **_envelope(tag),  # type: ignore[arg-type]
        version=f"2026-03-01.{tag}",
        summary="Seven dimensions on IQ ladders.",
        derived_rankings=[
            DerivedRanking(
                id="composite-iq",
                ranking_name="Composite IQ",
                direction="higher_is_better",
                score_field="iq",
                dimensions=[dimension],
            )
        ],
        url=f"{BASE}/methodology/",
        rules=["Composite IQ averages seven dimensions."],
        parameters=MethodologyParameters(
            legacy_weight=0.5,
            offset_shrinkage=2.0,
            sigma_benchmark=10.0,
            sigma_predecessor=15.0,
            sigma_cross=12.0,
            sigma_population=20.0,
            min_direct_dimensions=2,
            sigma_domain_prior=10.0,
            sigma_domain_benchmark=10.0,
            peer_count=3,
            default_usage_multiplier=1.0,
            interval_z=1.96,
        ),
        changelog=[ChangelogEntry(date=dt.date(2026, 3, 1), breaking=False, text="First.")],
    )


def site_files(tag: str = "A") -> dict[str, msgspec.Struct]:
    """Every file of the fixture build, keyed by path relative to the site root."""
    rankings, ranking_details = _rankings(tag)
    domains, domain_details = _domains(tag)
    files: dict[str, msgspec.Struct] = {
        "api/v1/models.json": _model_list(tag),
        "api/v1/benchmarks": _benchmarks(tag),
        "api/v1/rankings.json": rankings,
        "api/v1/domains.json": domains,
        "api/v1/methodology": _methodology(tag),
    }
    files.update({f"api/v1/models/{m[0]}": _model_detail(i, tag) for i, m in enumerate(MODELS)})
    files.update({f"api/v1/rankings/{k}": v for k, v in ranking_details.items()})
    files.update({f"api/v1/domains/{k}": v for k, v in domain_details.items()})
    return files


def write_site(root: Path, tag: str = "A") -> Path:
    """Write the fixture build to `root` (created) and return it."""
    for rel, struct in site_files(tag).items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(msgspec.json.format(_ENCODER.encode(struct), indent=2) + b"\n")
    return root


def swap_in(site_dir: Path, new_build: Path) -> None:
    """Replace `site_dir` by `new_build` the way a build does: two renames."""
    old = site_dir.with_name(site_dir.name + ".old")
    os.rename(site_dir, old)
    os.rename(new_build, site_dir)
    os.rename(old, new_build)


def build_test_data(data_dir: Path, out_dir: Path, base_url: str = "http://127.0.0.1:8000") -> Path:
    """Build `data_dir` into `out_dir` with the real generator (atomic swap); return `out_dir`."""
    from generator.api.urls import SiteConfig
    from generator.build import build_site

    build_site(data_dir, out_dir, SiteConfig(base_url=base_url))
    return out_dir
