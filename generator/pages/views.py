"""Page view models: what each template shows, picked out of the computed documents.

Nothing here computes a score: values are read from the documents and arranged
(ordered, grouped, cross-linked, formatted) for people.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from urllib.parse import quote, urlencode

from generator.api.contract import (
    DIMENSION_SLUGS,
    DOMAIN,
    MODEL,
    RANKING,
    BenchmarkMetadata,
    DerivedRanking,
    DimensionScoreDetailed,
    DomainCompositeEntry,
    ModelCost,
    ModelDetail,
    ModelSummary,
    RankingCatalogEntry,
    RankingDetail,
)
from generator.pages.axes import format_value
from generator.pages.sitedocs import SiteDocuments
from generator.vocabulary import DIMENSION_NAMES, DIMENSIONS

MULTIPLIER_SOURCES = {
    "measured": (
        "measured: the model's cost per test on vals.ai benchmarks divided by its list input"
        " plus output price, each relative to that benchmark's typical ratio, geometric mean"
        " over the benchmarks"
    ),
    "lineage-imputed": "taken from the same family's lineage (one or two generations back)",
    "peer-imputed": "geometric mean of the closest measured peers",
}
PARAMETER_MEANINGS = {
    "offsetShrinkage": "k: shrinks each benchmark offset toward 0 as sum / (n + k)",
    "sigmaBenchmark": "σ_b: default standard deviation of one projected benchmark result",
    "sigmaPredecessor": "prior standard deviation when the prior is the predecessor's estimate",
    "sigmaCrossScale": "s: the prior from the model's n other dimensions has variance s / n",
    "sigmaPopulation": "prior standard deviation when the prior is the population mean",
    "minDirectDimensions": "direct dimensions a model needs for a composite IQ and a rank",
    "sigmaDomainPrior": "τ: spread of the domain prior around the model's composite",
    "sigmaDomainBenchmark": "σ: noise of one projected domain benchmark",
    "peerCount": "measured peers averaged for a peer-imputed usage multiplier",
    "defaultUsageMultiplier": "multiplier assumed for a priced model with no other source",
    "intervalZ": "z of the stated 95% ranges (estimate ± z × standard error)",
    "kappaNoise": "κ: how many models' worth of weight σ_b's default keeps in its estimate",
    "provisionalBelow": "measured dimensions below which a composite is marked provisional",
    "imputedCorrelation": "ρ: how strongly the errors of a model's imputed dimensions move "
    "together, in the composite's standard error",
}


def rank_groups(bands: Sequence[tuple[int | None, int | None]]) -> list[int]:
    """Group number (1, 2, ...) of each row, in rank order, from `(rankLow, rankHigh)`.

    A group starts at the first row not yet grouped and takes every following row
    whose rank band overlaps the starting row's band (its best plausible rank is no
    worse than the starter's worst): at this confidence, rows of one group cannot be
    told apart from the group's first model. Rows without a band start their own group.
    """
    groups: list[int] = []
    start_high: int | None = None
    for low, high in bands:
        if groups and start_high is not None and low is not None and low <= start_high:
            groups.append(groups[-1])
        else:
            groups.append(groups[-1] + 1 if groups else 1)
            start_high = high
    return groups


def format_cost(value: float | None) -> str:
    """A price in USD per 1M tokens."""
    if value is None:
        return "–"
    if value >= 1 or value == 0:
        return f"${value:z,.2f}"  # z: never `$-0.00`
    digits = f"{value:.4f}".rstrip("0")
    return "$" + (digits if len(digits.split(".")[1]) >= 2 else f"{value:.2f}")


def dimension_iq(model: ModelSummary, slug: str) -> int | None:
    """One compact dimension score of a model summary."""
    value: int | None = getattr(model.dimensions, slug.replace("-", "_"))
    return value


@dataclass(frozen=True)
class DimensionCell:
    """One dimension value of a leaderboard row, and whether it is imputed (not measured)."""

    iq: int | None
    imputed: bool


@dataclass(frozen=True)
class LeaderRow:
    """One model of the landing leaderboard: its summary, the detail's imputed flags (to
    mark cells) and the names the search box finds it by."""

    model: ModelSummary
    group: int | None  # its group of models not distinguishable at 95%; None if unranked
    cells: list[DimensionCell]
    imputed: int  # dimensions whose value is imputed
    names: list[str]  # name, id and aliases: what the search box matches


@dataclass(frozen=True)
class LandingView:
    """The landing page: the composite leaderboard, ranked models first."""

    rows: list[LeaderRow]
    ranked: int  # the first `ranked` rows have a composite rank
    dimensions: list[tuple[str, str, str]]
    composite: RankingCatalogEntry | None
    providers: list[str]


def dimension_cells(model: ModelDetail) -> list[DimensionCell]:
    """The dimensions of a model in order, with their imputed flags."""
    cells = []
    for slug in DIMENSION_SLUGS:
        detail: DimensionScoreDetailed = getattr(model.dimensions, slug.replace("-", "_"))
        cells.append(DimensionCell(detail.iq, detail.imputed and detail.iq is not None))
    return cells


def imputed_counts(docs: SiteDocuments, landing: LandingView | None = None) -> dict[str, int]:
    """Model id to how many of its dimensions have an imputed value (read off `landing`'s
    rows, one per model, when given)."""
    if landing is not None:
        counted = {row.model.id: row.imputed for row in landing.rows}
        return {model_id: counted[model_id] for model_id in docs.model_details}
    return {
        model_id: sum(c.imputed for c in dimension_cells(detail))
        for model_id, detail in docs.model_details.items()
    }


def _leader_row(docs: SiteDocuments, model: ModelSummary, group: int | None) -> LeaderRow:
    detail = docs.model_details[model.id]
    cells = dimension_cells(detail)
    names = [model.name, model.id, *(a for a in detail.aliases if a not in (model.name, model.id))]
    return LeaderRow(model, group, cells, sum(c.imputed for c in cells), names)


def landing_view(docs: SiteDocuments) -> LandingView:
    """Ranked models by rank, then the unranked ones by name."""
    models = docs.models.models
    composite = [r for r in docs.rankings.rankings if r.id == "composite-iq"]
    ranked = sorted((m for m in models if m.rank is not None), key=lambda m: (m.rank, m.id))
    unranked = sorted((m for m in models if m.rank is None), key=lambda m: (m.name, m.id))
    groups = rank_groups([(m.rank_low, m.rank_high) for m in ranked])
    return LandingView(
        rows=[_leader_row(docs, m, g) for m, g in zip(ranked, groups, strict=True)]
        + [_leader_row(docs, m, None) for m in unranked],
        ranked=len(ranked),
        dimensions=[(d.slug, d.name, d.short) for d in DIMENSIONS],
        composite=composite[0] if composite else None,
        providers=sorted({m.provider for m in models}, key=str.casefold),
    )


@dataclass(frozen=True)
class CompareView:
    """The compare page's pickers (ranked models by rank, then the rest by name) and the
    dimension names its script labels rows with."""

    options: list[tuple[str, str]]
    dimensions: list[tuple[str, str]]  # (slug, name) in dimension order
    names: list[list[str]]  # [id, name, alias...] of each model: what an address may name


def compare_view(docs: SiteDocuments, landing: LandingView | None = None) -> CompareView:
    """`landing`: the landing page's view, if made already (it orders the pickers)."""
    landing = landing if landing is not None else landing_view(docs)
    return CompareView(
        options=[(r.model.id, r.model.name) for r in landing.rows],
        dimensions=[(d.slug, d.name) for d in DIMENSIONS],
        names=[[r.model.id, *(n for n in r.names if n != r.model.id)] for r in landing.rows],
    )


@dataclass(frozen=True)
class CostRow:
    """One line of a model's cost breakdown."""

    label: str
    value: str
    note: str


@dataclass(frozen=True)
class DomainLink:
    """A domain as a model page names it (not its whole leaderboard: a page's cache key
    is its context, so it holds only what the page shows)."""

    name: str
    url: str


@dataclass(frozen=True)
class ModelView:
    """Everything a model profile shows besides the ModelDetail itself. The dimensions and
    results name the detail's fields and keys rather than repeat them, and the cost rows are
    made from the detail's cost as the page is rendered (`cost_rows`): a page's context is
    its cache key, encoded and hashed on every build."""

    dimensions: list[tuple[str, str, str, str | None]]  # slug, name, field, ranking URL
    results: list[tuple[str, str | None]]  # benchmark id, its page's URL
    domains: list[tuple[DomainLink, int, int, DomainCompositeEntry]]
    dimension_names: dict[str, str]
    reports: dict[str, str]  # benchmark id to a prefilled report of a wrong result
    report: str | None  # a prefilled report of a wrong value anywhere on the page


def cost_rows(cost: ModelCost) -> list[CostRow]:
    """The effective-cost waterfall of one model, step by step."""
    rows = [
        CostRow("Input price", format_cost(cost.input_per_1m), "USD per 1M input tokens"),
        CostRow("Output price", format_cost(cost.output_per_1m), "USD per 1M output tokens"),
    ]
    for label, value in (
        ("Cache read", cost.cache_read_per_1m),
        ("Cache write", cost.cache_write_per_1m),
        ("Cache write (1 hour)", cost.cache_write_1h_per_1m),
        ("Cache storage per hour", cost.cache_storage_hourly_per_1m),
    ):
        if isinstance(value, float | int):
            rows.append(CostRow(label, format_cost(value), "USD per 1M tokens; not in the base"))
    rows.append(CostRow("Base (input + output)", format_cost(cost.io_per_1m), "ioPer1M"))
    if cost.usage_multiplier_source is not None:
        source = MULTIPLIER_SOURCES.get(cost.usage_multiplier_source, cost.usage_multiplier_source)
    elif cost.io_per_1m is None:
        source = "no positive price recorded, so no multiplier"
    else:
        source = "assumed: no measured, lineage or peer multiplier"
    multiplier = (
        "–" if cost.usage_multiplier is None else f"× {format_value(cost.usage_multiplier)}"
    )
    rows.append(CostRow("Usage multiplier", multiplier, source))
    rows.append(CostRow("Effective cost", format_cost(cost.effective_per_1m), "base × multiplier"))
    return rows


def report_url(issues_url: str, title: str, body: list[str]) -> str:
    """A new issue at the tracker's `issues_url` with its title and body filled in (the
    `title` and `body` query fields of GitHub's, GitLab's and Gitea's new-issue forms)."""
    query = urlencode({"title": title, "body": "\n".join(body)}, quote_via=quote)
    return f"{issues_url}{'&' if '?' in issues_url else '?'}{query}"


_ASK = "What is wrong, and where is the right value published?"


def model_reports(model: ModelDetail, issues_url: str | None) -> tuple[dict[str, str], str | None]:
    """Prefilled reports of a wrong value on a model's page: one per benchmark result,
    naming the model, the field and the row of data/ it comes from (and that row's source),
    and one for any other value. None without an issue tracker (`--issues-url`)."""
    if issues_url is None:
        return {}, None
    about = f"Model: {model.name} (`{model.id}`), {model.url}"
    row = f"data/models/{model.id}.toml"
    reports = {}
    for bid, r in model.benchmark_results.items():
        body = [
            about,
            f"Field: benchmarkResults.{bid}.value = {format_value(r.value)} ({r.name})",
            f'Source row: {row}, [[results]] benchmark = "{bid}"; from {r.source_name}, '
            f"{r.source_url}, as of {r.as_of.isoformat()}",
            "",
            _ASK,
        ]
        reports[bid] = report_url(issues_url, f"Wrong value: {model.name}, {r.name}", body)
    body = [about, "Field: (which value?)", f"Source row: {row} (which row?)", "", _ASK]
    return reports, report_url(issues_url, f"Wrong value: {model.name}", body)


def model_view(docs: SiteDocuments, model: ModelDetail, issues_url: str | None = None) -> ModelView:
    """Dimensions with their rankings, linked results, domain standings and the prefilled
    reports of a wrong value (to `issues_url`, when the build has one)."""
    dims = []
    for d in DIMENSIONS:
        ranking = docs.ranking_details.get(f"{d.slug}-iq")
        dims.append((d.slug, d.name, d.slug.replace("-", "_"), ranking.url if ranking else None))
    results = []
    for bench_id in model.benchmark_results:
        bench = docs.benchmark(bench_id)
        results.append((bench_id, bench.url if bench else None))
    domains = [
        (DomainLink(domain.name, domain.url), position, total, domain.models[position - 1])
        for domain, position, total in docs.domain_standings(model.id)
    ]
    reports, report = model_reports(model, issues_url)
    return ModelView(dims, results, domains, DIMENSION_NAMES, reports, report)


def profile_urls(docs: SiteDocuments, ranking: RankingDetail) -> dict[str, str | None]:
    """The profile URL of each ranked model without a `url` of its own (usually none), by
    id: a page links `r.url if r.url is string else urls.get(r.id)`, so its context (and its
    cache key) holds the ranked models once, in the ranking."""
    return {m.id: docs.model_url(m.id) for m in ranking.models if not isinstance(m.url, str)}


def ranking_groups(docs: SiteDocuments) -> list[tuple[str, list[RankingCatalogEntry]]]:
    """The catalog grouped by ranking type, in catalog order."""
    groups = [
        ("Derived rankings", docs.rankings_of_type("derived")),
        ("Dimension rankings", docs.rankings_of_type("dimension")),
        ("Benchmark rankings", docs.rankings_of_type("benchmark")),
    ]
    return [(label, entries) for label, entries in groups if entries]


def benchmark_groups(docs: SiteDocuments) -> list[tuple[str, list[BenchmarkMetadata]]]:
    """Scored benchmarks grouped by dimension, in dimension order."""
    groups: dict[str, list[BenchmarkMetadata]] = {slug: [] for slug in DIMENSION_SLUGS}
    other: list[BenchmarkMetadata] = []
    for benchmark in docs.benchmarks.benchmarks:
        groups.get(benchmark.dimension or "", other).append(benchmark)
    out = [(DIMENSION_NAMES[slug], items) for slug, items in groups.items() if items]
    return out + ([("Other", other)] if other else [])


def example_value(docs: SiteDocuments, path: str, param: str) -> str:
    """A real value for a path parameter in a curl example."""
    if path == MODEL.path:
        ranked = docs.ranked_models()
        return ranked[0].id if ranked else next(iter(docs.model_details), param)
    if path == RANKING.path:
        ids = [r.id for r in docs.rankings.rankings]
        return "composite-iq" if "composite-iq" in ids else (ids[0] if ids else param)
    if path == DOMAIN.path:
        return next(iter(docs.domain_details), param)
    return param


@dataclass(frozen=True)
class MethodologyView:
    """The derived rankings split by kind, parameters with meanings, benchmark links."""

    composite: DerivedRanking | None
    cost: DerivedRanking | None
    parameters: list[tuple[str, float | int, str]]
    benchmark_urls: dict[str, str]
    benchmark_names: dict[str, str]
    dimension_names: dict[str, str]


def methodology_view(docs: SiteDocuments) -> MethodologyView:
    """Parameters as (camelCase name, value, meaning); benchmark field to page URL."""
    import msgspec

    m = docs.methodology
    by_id = {r.id: r for r in m.derived_rankings}
    params = msgspec.to_builtins(m.parameters)
    return MethodologyView(
        composite=by_id.get("composite-iq"),
        cost=by_id.get("effective-cost"),
        parameters=[(k, v, PARAMETER_MEANINGS.get(k, "")) for k, v in params.items()],
        benchmark_urls={b.field: b.url for b in docs.benchmarks.benchmarks},
        benchmark_names={b.id: b.name for b in docs.benchmarks.benchmarks},
        dimension_names=DIMENSION_NAMES,
    )
