"""The one builder of sample contract documents: small, complete and cross-referenced.

Independent of the scoring modules, so page and MCP tests pin what they do with any valid
set of documents (the `built_site` tests cover the real pipeline). `sample_documents()`
gives the Structs keyed by API path; `write_site()` writes them through the real
`render_api` (both prefixes, OpenAPI, error bodies), as a build would.

Two model tables: `PAGE_MODELS` (eight, with awkward names and gaps, for pages) and
`MCP_MODELS` (three, simple numbers the MCP filter and sort tests check by hand). A `tag`
goes into `methodologyVersion` and every model's name, so a test can tell two writes apart.
"""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

import msgspec

from generator.api import contract as kinds
from generator.api.contract import (
    COST_UNIT,
    DIMENSION_SLUGS,
    BenchmarkList,
    BenchmarkMetadata,
    BenchmarkNoise,
    BenchmarkRef,
    Change,
    ChangeList,
    ChangelogEntry,
    Chart,
    ChartList,
    CostBreakdownItem,
    DataSource,
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
    HistoryDetail,
    HistoryEntry,
    HistoryList,
    HistorySnapshot,
    HistoryTopModel,
    IqCoverage,
    KnowledgeCutoffSource,
    Methodology,
    MethodologyDimension,
    MethodologyParameters,
    ModelBenchmarkResult,
    ModelCost,
    ModelDetail,
    ModelList,
    ModelRevision,
    ModelSpeed,
    ModelSummary,
    RankedModel,
    RankingCatalogEntry,
    RankingDetail,
    RankingList,
    ReasoningConfiguration,
    ReasoningEffort,
    SourceRef,
    UnscoredBenchmark,
)
from generator.api.urls import SiteConfig
from generator.documents.assemble import render_api
from generator.documents.models import NO_COST_PER_TASK, NO_TASK_SOURCE

BASE = "https://scores.example.org"
UPDATED = dt.datetime(2026, 1, 15, 12, 0, tzinfo=dt.UTC)
METHODOLOGY_VERSION = "2026-01-15"
BENCHMARKS = (
    ("arc-agi-1", "arcAgi1", "ARC-AGI-1", "abstract-reasoning", "higher_is_better", "fraction 0-1"),
    ("gpqa-diamond", "gpqaDiamond", "GPQA Diamond", "academic-reasoning", "higher_is_better", None),
    ("hle-calibration", "hleCalib", "HLE calibration error", "reliability", "lower_is_better", "%"),
    (
        "webdev-arena",
        "webdevElo",
        "WebDev Arena",
        "programmatic-reasoning",
        "higher_is_better",
        "Elo",
    ),
)


class SampleModel(NamedTuple):
    """One published model of a sample build; the other fields follow from these."""

    id: str
    name: str
    provider: str
    iq: int | None
    effective_cost: float | None  # USD per 1M tokens, after the usage multiplier
    release_date: dt.date | None
    open_source: bool
    emotional_reasoning: int | None
    context_window: int = 200_000
    tokens_per_second: float = 80.0
    usage_multiplier: float = 1.25


PAGE_MODELS = (
    SampleModel("alpha-1", "Alpha One", "Acme", 150, 12.0, dt.date(2025, 9, 1), False, 145),
    SampleModel("beta-2", "Beta Two <b>", "Bolt & Co", 141, 3.5, dt.date(2025, 3, 10), True, 136),
    SampleModel("gamma-3", "Gamma Three", "Acme", 133, 0.9, dt.date(2024, 11, 20), False, 128),
    SampleModel("delta-4", "Delta Four", "Delta Labs", 128, 0.25, dt.date(2024, 6, 1), True, 123),
    SampleModel(
        "epsilon-5", "Epsilon Five", "Delta Labs", 117, 0.04, dt.date(2024, 2, 14), False, 112
    ),
    SampleModel("zeta-6", "Zeta Six", "Zed", 104, None, dt.date(2023, 12, 1), True, 99),
    SampleModel("eta-7", "Eta Seven", "Zed", 97, 0.5, None, False, 92),
    SampleModel("theta-8", "Theta Eight (unranked)", "Zed", None, None, None, True, None),
)
MCP_MODELS = (
    SampleModel(
        "alpha-1", "Alpha One", "Acme", 130, 5.0, dt.date(2025, 6, 1), False, 100,
        context_window=128_000, tokens_per_second=80.0, usage_multiplier=1.0,
    ),
    SampleModel(
        "beta-2", "Beta Two", "Bolt", 115, 1.6, dt.date(2025, 9, 15), True, 101,
        context_window=256_000, tokens_per_second=81.0, usage_multiplier=1.0,
    ),
    SampleModel(
        "gamma-3", "Gamma Three", "Acme", None, None, None, True, None,
        context_window=384_000, tokens_per_second=82.0, usage_multiplier=1.0,
    ),
)  # fmt: skip
DOMAINS = (("cybersecurity", "Cybersecurity"), ("finance", "Finance"))


class _Sample:
    """What every builder below needs: the model table and the tag."""

    def __init__(self, models: Sequence[SampleModel], tag: str) -> None:
        self.models = models
        self.tag = tag
        suffix = f".{tag}" if tag else ""
        self.envelope: dict[str, Any] = {
            "api_version": "1",
            "methodology_version": METHODOLOGY_VERSION + suffix,
            "updated_at": UPDATED,
        }

    def name(self, index: int) -> str:
        name = self.models[index].name
        return f"{name} {self.tag}" if self.tag else name


def _url(path: str) -> str:
    return f"{BASE}/{path}"


def _cost(model: SampleModel) -> ModelCost:
    effective, multiplier = model.effective_cost, model.usage_multiplier
    io = None if effective is None else round(effective / multiplier, 4)
    return ModelCost(
        input_per_1m=None if io is None else round(io * 0.2, 4),
        output_per_1m=None if io is None else round(io * 0.8, 4),
        cache_read_per_1m=None if io is None else 0.1,
        io_per_1m=io,
        usage_multiplier=None if io is None else multiplier,
        usage_multiplier_source=None if io is None else "measured",
        effective_per_1m=effective,
        unit=COST_UNIT,
        price_source=None if io is None else "models.dev",
        price_source_url=None if io is None else "https://models.dev/",
        price_as_of=None if io is None else dt.date(2026, 1, 20),
        price_kind=None if io is None else "first-party",
    )


def _dims(iq: int | None, index: int) -> list[tuple[int | None, bool]]:
    if iq is None:
        return [(None, True)] * 7
    return [(min(160, max(70, iq + (k - 3) * 2)), (k + index) % 3 == 0) for k in range(7)]


def _summary_fields(s: _Sample, index: int) -> dict[str, Any]:
    model = s.models[index]
    ranked = [m for m in s.models if m.iq is not None]
    return {
        "id": model.id,
        "name": s.name(index),
        "provider": model.provider,
        "country": "United States",
        "rank": ranked.index(model) + 1 if model.iq is not None else None,
        "iq": model.iq,
        "iq_sd": None if model.iq is None else 2.5,
        "iq_low95": None if model.iq is None else model.iq - 4.9,
        "iq_high95": None if model.iq is None else model.iq + 4.9,
        "rank_low": None if model.iq is None else max(1, ranked.index(model)),
        "rank_high": None if model.iq is None else ranked.index(model) + 2,
        "provisional": False,
        "emotional_reasoning": model.emotional_reasoning,
        "cost": _cost(model),
        "cost_per_task": NO_COST_PER_TASK,
        "speed": ModelSpeed(
            response_time_sec=10.0 - index, median_tokens_per_second=model.tokens_per_second
        ),
        "speed_source": NO_TASK_SOURCE,
        "parameters_b": None,
        "context_window": model.context_window,
        "release_date": model.release_date,
        "knowledge_cutoff": "2025-06",
        "knowledge_cutoff_source": KnowledgeCutoffSource(
            name="models.dev", url="https://models.dev/"
        ),
        "post_cutoff_results": 1,
        "open_source": model.open_source,
        "updated_at": UPDATED,
        "url": _url(f"models/{model.id}/"),
    }


def _detail(s: _Sample, index: int) -> ModelDetail:
    fields = _summary_fields(s, index)
    dims = _dims(fields["iq"], index)
    details = {
        slug.replace("-", "_"): DimensionScoreDetailed(
            iq=iq,
            iq_sd=None if iq is None else 6.0,
            iq_low95=None if iq is None else max(70.0, iq - 11.76),
            iq_high95=None if iq is None else min(160.0, iq + 11.76),
            benchmarks_covered=0 if imputed else 1,
            benchmarks_total=2,
            imputed=imputed,
            estimation_method="posterior" if not imputed else "cross-dimension-prior",
        )
        for slug, (iq, imputed) in zip(DIMENSION_SLUGS, dims, strict=True)
    }
    results = {
        b[0]: ModelBenchmarkResult(
            value=0.5 + index / 100 if b[5] != "Elo" else 1200.0 + index,
            field=b[1],
            name=b[2],
            category="iq",
            dimension=b[3],
            direction=b[4],  # type: ignore[arg-type]
            projected_iq=120.25,
            source_name="Example Hub",
            source_url="https://hub.example.org/data",
            as_of=dt.date(2025, 12, 1),
            harness="bash-only" if b[0] == "webdev-arena" else None,
            effort="high" if b[0] == "webdev-arena" else None,
            as_of_kind="measured",
            extrapolated=False,
            post_cutoff=None,
            post_cutoff_note="the benchmark's publication date is not known",
        )
        for b in BENCHMARKS
    }
    return ModelDetail(
        **{**s.envelope, **fields},
        latest_revision="2025-12-01",
        latest_revision_date=dt.date(2025, 12, 1),
        dimensions=DimensionDetails(**details),
        benchmark_results=results,
        reasoning_configurations=[
            ReasoningConfiguration(
                id="xhigh",
                source="epoch",
                source_name="Epoch AI",
                source_url="https://epoch.example.org/",
                captured="2025-12-01",
                source_model=fields["name"],
                source_model_id=f"{fields['id']}_xhigh",
                effort=ReasoningEffort(key="xhigh", label="Extra high", reasoning=True),
                values={"gpqaDiamond": 0.81},
            )
        ],
        revisions=[
            ModelRevision(
                id="2025-12-01",
                label="December checkpoint",
                available_date=dt.date(2025, 12, 1),
                kind="snapshot",
                source_urls=["https://provider.example.org/changelog"],
            )
        ],
        aliases=[f"{fields['id']}-classic"],
        iq_coverage=IqCoverage(direct_dimensions=5, evidence_dimensions=6, total_dimensions=7),
    )


def _summary(s: _Sample, index: int) -> ModelSummary:
    fields = _summary_fields(s, index)
    pairs = _dims(fields["iq"], index)
    dims = [iq for iq, _ in pairs]
    scores = DimensionScores(
        **{slug.replace("-", "_"): v for slug, v in zip(DIMENSION_SLUGS, dims, strict=True)}
    )
    imputed = [slug for slug, (_, flag) in zip(DIMENSION_SLUGS, pairs, strict=True) if flag]
    return ModelSummary(**fields, dimensions=scores, imputed_dimensions=imputed)


def _ranking(
    s: _Sample,
    ranking_id: str,
    name: str,
    kind: str,
    rows: list[tuple[int, float | None]],
    **extra: Any,
) -> tuple[RankingCatalogEntry, RankingDetail]:
    direction = extra.pop("direction", "higher_is_better")
    dimension = extra.pop("dimension", None)
    common: dict[str, Any] = {
        "id": ranking_id,
        "ranking_name": name,
        "ranking_type": kind,
        "dimension": dimension,
        "direction": direction,
        "model_count": len(rows),
        "url": _url(f"rankings/{ranking_id}/"),
        **extra,
    }
    models = [
        RankedModel(
            id=s.models[i].id,
            name=s.name(i),
            provider=s.models[i].provider,
            rank=r,
            score=score,
            **({"url": _url(f"models/{s.models[i].id}/")} if kind == "benchmark" else {}),
            **({"imputed": i % 2 == 0} if kind == "dimension" else {}),
            **({"rank_low": max(1, r - 1), "rank_high": r + 1} if kind != "benchmark" else {}),
            **({"provisional": False} if ranking_id == "composite-iq" else {}),
        )
        for r, (i, score) in enumerate(rows, 1)
    ]
    return RankingCatalogEntry(**common), RankingDetail(**{**s.envelope, **common}, models=models)


def _rankings(s: _Sample) -> list[tuple[RankingCatalogEntry, RankingDetail]]:
    ranked = [(i, float(m.iq)) for i, m in enumerate(s.models) if m.iq is not None]
    costs = sorted(
        (
            (i, float(m.effective_cost))
            for i, m in enumerate(s.models)
            if m.effective_cost is not None
        ),
        key=lambda r: r[1],
    )
    out = [
        _ranking(
            s,
            "composite-iq",
            "Composite IQ",
            "derived",
            ranked,
            methodology_version=s.envelope["methodology_version"],
        ),
        _ranking(
            s,
            "effective-cost",
            "Effective cost",
            "derived",
            costs,
            direction="lower_is_better",
            unit=COST_UNIT,
        ),
    ]
    for slug in DIMENSION_SLUGS:
        name = slug.replace("-", " ").title()
        out.append(_ranking(s, f"{slug}-iq", name, "dimension", ranked, dimension=slug))
    for bid, field, name, dim, direction, unit in BENCHMARKS:
        rows = [
            (i, round(0.9 - i / 20, 3) if unit != "Elo" else 1400.0 - i * 7)
            for i in range(min(6, len(s.models)))
        ]
        if direction == "lower_is_better":
            rows = rows[::-1]
        extra: dict[str, Any] = {"field": field, "category": "iq", "direction": direction}
        if unit:
            extra["unit"] = unit
        out.append(_ranking(s, bid, name, "benchmark", rows, dimension=dim, **extra))
    return out


def _charts(s: _Sample) -> ChartList:
    specs = [
        ("iq-distribution", "Composite IQ distribution", [], ["composite", "iq-distribution"]),
        ("iq-vs-cost", "IQ versus effective cost", [], ["cost", "iq-vs-cost"]),
        ("frontier", "The frontier over time", [], ["composite", "frontier"]),
        ("dimension-profiles", "Dimension profiles", [], ["dimensions", "dimension-profile"]),
    ]
    specs += [
        (f"{b[0]}-scores", f"{b[2]} scores", [b[0]], ["benchmark-scores"]) for b in BENCHMARKS
    ]
    return ChartList(
        **s.envelope,
        charts=[
            Chart(
                id=cid,
                title=title,
                description=f"{title} of every published model.",
                url=_url(f"charts/{cid}/"),
                image=_url(f"charts/{cid}.png"),
                related_benchmarks=related,
                tags=tags,
            )
            for cid, title, related, tags in specs
        ],
    )


def _methodology(s: _Sample) -> Methodology:
    dims = [
        MethodologyDimension(
            id=f"D{i}",
            slug=slug,
            name=slug.replace("-", " ").title(),
            min_benchmarks=1,
            benchmarks=[BenchmarkRef(field=b[1], name=b[2]) for b in BENCHMARKS if b[3] == slug],
        )
        for i, slug in enumerate(DIMENSION_SLUGS, 1)
    ]
    return Methodology(
        **s.envelope,
        version=s.envelope["methodology_version"],
        summary="Composite IQ averages seven equally weighted dimensions.",
        derived_rankings=[
            DerivedRanking(
                id="composite-iq",
                ranking_name="Composite IQ",
                direction="higher_is_better",
                score_field="iq",
                dimensions=dims,
            ),
            DerivedRanking(
                id="effective-cost",
                ranking_name="Effective cost",
                direction="lower_is_better",
                score_field="cost.effectivePer1M",
                unit=COST_UNIT,
                breakdown=[
                    CostBreakdownItem(
                        id="base",
                        name="Base price",
                        inputs=[
                            BenchmarkRef(field="inputPer1M", name="Input price"),
                            BenchmarkRef(field="outputPer1M", name="Output price"),
                        ],
                    ),
                    CostBreakdownItem(
                        id="multiplier",
                        name="Usage multiplier",
                        steps=["measured", "lineage", "peers", "assumed 1"],
                        summary="First that applies.",
                    ),
                ],
            ),
        ],
        url=_url("methodology/"),
        rules=["Composite IQ averages seven dimensions.", "EQ stays outside the composite."],
        parameters=MethodologyParameters(
            offset_shrinkage=2.0,
            sigma_benchmark=8.0,
            sigma_predecessor=5.0,
            sigma_cross_scale=200.0,
            sigma_population=15.0,
            kappa_noise=4.0,
            min_direct_dimensions=2,
            sigma_domain_prior=10.0,
            sigma_domain_benchmark=8.0,
            peer_count=3,
            default_usage_multiplier=1.0,
            interval_z=1.96,
            provisional_below=3,
            imputed_correlation=0.3,
        ),
        benchmark_noise=[
            BenchmarkNoise(id=b[0], noise_sd=6.5, noise_source="estimated", noise_models=12)
            for b in BENCHMARKS
        ],
        unscored_benchmarks=[
            UnscoredBenchmark(
                id="new-bench",
                name="New Bench",
                dimension="mathematical-reasoning",
                models=3,
                source_url="https://hub.example.org/new-bench",
                reason="No ladder yet.",
            )
        ],
        changelog=[
            ChangelogEntry(date=dt.date(2026, 1, 15), breaking=False, text="Knowledge work added.")
        ],
        sources=[
            DataSource(
                id="example-hub",
                name="Example Hub",
                licence="CC BY 4.0",
                credit="Example Hub, 'Benchmarks' (CC BY 4.0).",
                url="https://example.org/hub",
            )
        ],
    )


def _domain(s: _Sample, slug: str, name: str) -> DomainDetail:
    entries = [
        DomainCompositeEntry(
            model=s.models[i].id,
            model_name=s.name(i),
            composite_iq=140 - i * 6,
            rank_status="full" if i < 2 else "partial",
            benchmarks_covered=2 if i < 2 else 1,
            benchmarks_total=2,
            model_url=_url(f"models/{s.models[i].id}/"),
            observed_composite_iq=141.5 - i * 6,
            coverage_adjustment=-1.5,
            coverage_confidence=0.8,
            estimate_standard_error=3.2,
            estimate_low95=133.73 - i * 6,
            estimate_high95=146.27 - i * 6,
        )
        for i in range(min(4, len(s.models)))
    ]
    entries.append(
        DomainCompositeEntry(
            model="external-x",
            model_name=f"External X {s.tag}".rstrip(),
            composite_iq=100,
            rank_status="partial",
            benchmarks_covered=1,
            benchmarks_total=2,
            model_url=None,
        )
    )
    benchmarks = [
        DomainBenchmark(
            id=f"{slug}-bench-{k}",
            name=f"{name} bench {k}",
            description="A domain benchmark.",
            direction="higher_is_better",
            unit="%",
            source=SourceRef(name="Domain source", url="https://domain.example.org/"),
            results=[
                DomainResultRow(
                    model=s.models[i].id,
                    harness="agent-x" if i == 0 else None,
                    effort=None,
                    score=70.0 - i,
                    model_url=_url(f"models/{s.models[i].id}/"),
                )
                for i in range(min(3, len(s.models)))
            ],
        )
        for k in (1, 2)
    ]
    return DomainDetail(
        **s.envelope,
        id=slug,
        name=name,
        url=_url(f"domains/{slug}/"),
        models=entries,
        benchmarks=benchmarks,
    )


def _benchmarks(s: _Sample) -> BenchmarkList:
    return BenchmarkList(
        **s.envelope,
        benchmarks=[
            BenchmarkMetadata(
                id=bid,
                field=field,
                name=name,
                description=f"{name} measures things.",
                category="iq",
                dimension=dim,
                direction=direction,  # type: ignore[arg-type]
                unit=unit,
                confidence="normal",
                source_name="Example Hub",
                source_url="https://hub.example.org/",
                updated_at=UPDATED,
                url=_url(f"benchmarks/{bid}/"),
                noise_sd=6.5,
                noise_source="estimated",
                noise_models=12,
                published_on=dt.date(2024, 6, 1),
                published_on_source="https://hub.example.org/paper",
                ladder_fit=None,
            )
            for bid, field, name, dim, direction, unit in BENCHMARKS
        ],
    )


SNAPSHOT_DATE = dt.date(2026, 1, 31)


def _history(s: _Sample) -> tuple[HistoryList, HistoryDetail]:
    """One snapshot: the ranked models of the sample, as the current leaderboard."""
    rows = [_summary_fields(s, i) for i in range(len(s.models))]
    ranked = sorted((r for r in rows if r["rank"] is not None), key=lambda r: r["rank"])
    entries = [
        HistoryEntry(**{k: r[k] for k in ("id", "name", "provider", "rank", "iq", "url")},
                     iq_low95=r["iq_low95"], iq_high95=r["iq_high95"],
                     rank_low=r["rank_low"], rank_high=r["rank_high"],
                     provisional=r["provisional"])
        for r in ranked
    ]  # fmt: skip
    date = SNAPSHOT_DATE.isoformat()
    detail = HistoryDetail(
        **s.envelope, date=SNAPSHOT_DATE, note=kinds.HISTORY_NOTE, model_count=len(rows),
        ranked_model_count=len(entries), result_count=2 * len(rows), release_dated_result_count=1,
        models=entries,
    )  # fmt: skip
    top = entries[0] if entries else None
    snapshot = HistorySnapshot(
        date=SNAPSHOT_DATE,
        model_count=len(rows),
        ranked_model_count=len(entries),
        result_count=detail.result_count,
        release_dated_result_count=detail.release_dated_result_count,
        top_model=None
        if top is None
        else HistoryTopModel(
            id=top.id, name=top.name, iq=top.iq, provisional=top.provisional, url=top.url
        ),
        url=f"{BASE}/api/v1/history/{date}",
    )
    return HistoryList(**s.envelope, note=kinds.HISTORY_NOTE, snapshots=[snapshot]), detail


def _model_history(s: _Sample, index: int) -> kinds.ModelHistory:
    """One point, at the one snapshot: the model's current rank, IQ and dimensions."""
    row = _summary(s, index)
    point = kinds.ModelHistoryPoint(
        date=SNAPSHOT_DATE, rank=row.rank, iq=row.iq, iq_low95=row.iq_low95,
        iq_high95=row.iq_high95, rank_low=row.rank_low, rank_high=row.rank_high,
        provisional=row.provisional, dimensions=row.dimensions,
        snapshot=f"{BASE}/api/v1/history/{SNAPSHOT_DATE}",
    )  # fmt: skip
    return kinds.ModelHistory(
        **s.envelope, id=row.id, name=row.name, release_date=row.release_date,
        note=kinds.HISTORY_NOTE, url=row.url, snapshots=[point],
    )  # fmt: skip


def sample_documents(
    models: Sequence[SampleModel] = PAGE_MODELS, tag: str = ""
) -> dict[str, msgspec.Struct]:
    """Every published document, keyed by API path relative to /api/v1."""
    s = _Sample(models, tag)
    docs: dict[str, msgspec.Struct] = {
        kinds.MODELS.path: ModelList(
            **s.envelope, models=[_summary(s, i) for i in range(len(models))]
        ),
        kinds.BENCHMARKS.path: _benchmarks(s),
        kinds.CHARTS.path: _charts(s),
        kinds.METHODOLOGY.path: _methodology(s),
    }
    for i, model in enumerate(models):
        docs[kinds.MODEL.api_path(model.id)] = _detail(s, i)
        docs[kinds.MODEL_HISTORY.api_path(model.id)] = _model_history(s, i)
    rankings = _rankings(s)
    docs[kinds.RANKINGS.path] = RankingList(**s.envelope, rankings=[entry for entry, _ in rankings])
    for entry, detail in rankings:
        docs[kinds.RANKING.api_path(entry.id)] = detail
    domains = [_domain(s, slug, name) for slug, name in DOMAINS]
    docs[kinds.DOMAINS.path] = DomainList(
        **s.envelope,
        domains=[
            DomainSummary(id=d.id, name=d.name, benchmark_count=2, updated_at=UPDATED, url=d.url)
            for d in domains
        ],
    )
    for d in domains:
        docs[kinds.DOMAIN.api_path(d.id)] = d
    docs[kinds.HISTORY.path], docs[kinds.HISTORY_SNAPSHOT.api_path("2026-01-31")] = _history(s)
    docs[kinds.CHANGES.path] = ChangeList(
        **s.envelope,
        changes=[
            Change(id=f"released:{m.id}", kind="model_released", date=SNAPSHOT_DATE,
                   title=f"{m.id} released", summary=f"{m.id} released.",
                   url=_url(f"models/{m.id}/"), model=m.id)
            for m in models
        ],
    )  # fmt: skip
    return docs


def write_site(root: Path, tag: str = "A", models: Sequence[SampleModel] = MCP_MODELS) -> Path:
    """Write a sample build's API files to `root` (created) through `render_api`; return it."""
    files = render_api(sample_documents(models, tag), SiteConfig(base_url=BASE))
    for rel, data in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return root


def swap_in(site_dir: Path, new_build: Path) -> None:
    """Replace `site_dir` by `new_build` the way a build does: two renames."""
    old = site_dir.with_name(site_dir.name + ".old")
    os.rename(site_dir, old)
    os.rename(new_build, site_dir)
    os.rename(old, new_build)
