"""Build the promoted charts from the computed documents and draw them.

Each chart in `/charts` names its kind in `tags`. The same plot is drawn twice:
as an accessible inline SVG for its share page and as a 1200x630 PNG preview.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import get_args

import markupsafe

from generator.api.contract import (
    COST_UNIT,
    Chart,
    ChartKind,
    HistoryDetail,
    HistoryEntry,
    IqCoverage,
    ModelDetail,
    ModelSummary,
    RankingDetail,
)
from generator.errors import BuildError
from generator.pages import svg
from generator.pages.axes import Point
from generator.pages.plots import (
    Bar,
    Bars,
    CostScatter,
    DimensionRanges,
    Estimate,
    FrontierLines,
    Histogram,
    Holder,
    Interval,
    Intervals,
    Line,
    Month,
    Plot,
    Profile,
    Profiles,
    RankHistory,
    SpeedScatter,
)
from generator.pages.sitedocs import SiteDocuments
from generator.vocabulary import DIMENSIONS

CHART_KINDS: tuple[str, ...] = get_args(ChartKind)
INLINE_WIDTH = 720
PREVIEW_ROWS = 14
INLINE_ROWS = 50
PROFILE_MODELS = 6
TOP_PROVIDERS = 5
SITE_NAME = "modelscores"


@dataclass(frozen=True)
class DrawnChart:
    """A promoted chart with its plot, inline SVG and PNG preview."""

    chart: Chart
    kind: str
    plot: Plot
    svg: str
    png: bytes


def chart_kind(chart: Chart) -> str:
    """The chart's kind: the one tag that names a known kind."""
    kinds = [t for t in chart.tags if t in CHART_KINDS]
    if len(kinds) != 1:
        raise BuildError(f"charts: {chart.id}: tags {chart.tags} must name exactly one kind")
    return kinds[0]


def _ranked(models: list[ModelSummary]) -> list[ModelSummary]:
    return sorted((m for m in models if m.rank is not None), key=lambda m: (m.rank or 0, m.id))


SPEED_UNIT = "seconds per task"


def speed_scatter(docs: SiteDocuments) -> SpeedScatter:
    """Composite IQ against response time per task; highlight models no faster model matches."""
    rows = [
        (m.speed.response_time_sec, m.iq, m.name)
        for m in docs.models.models
        if m.iq is not None and m.speed.response_time_sec is not None
    ]
    rows.sort(key=lambda r: (r[0], -r[1], r[2]))
    points, best = [], -1
    for seconds, iq, name in rows:
        points.append(Point(name, seconds, float(iq), highlight=iq > best))
        best = max(best, iq)
    return SpeedScatter(tuple(points), SPEED_UNIT)


def iq_histogram(docs: SiteDocuments) -> Histogram:
    """Composite IQ of every ranked model."""
    return Histogram(tuple(m.iq for m in _ranked(docs.models.models) if m.iq is not None))


def cost_scatter(docs: SiteDocuments) -> CostScatter:
    """Composite IQ against effective cost; highlight models no cheaper model matches."""
    rows = [
        (m.cost.effective_per_1m, m.iq, m.name)
        for m in docs.models.models
        if m.iq is not None and m.cost.effective_per_1m is not None and m.cost.effective_per_1m > 0
    ]
    rows.sort(key=lambda r: (r[0], -r[1], r[2]))
    points, best = [], -1
    for cost, iq, name in rows:
        points.append(Point(name, cost, float(iq), highlight=iq > best))
        best = max(best, iq)
    return CostScatter(tuple(points), COST_UNIT)


def frontier(docs: SiteDocuments, providers: int = TOP_PROVIDERS) -> FrontierLines:
    """The frontier over time, from the replayed history snapshots (oldest first)."""
    history = [docs.history_details[s.date.isoformat()] for s in docs.history.snapshots]
    return frontier_lines(history, providers)


def frontier_lines(
    snapshots: Sequence[HistoryDetail], providers: int = TOP_PROVIDERS
) -> FrontierLines:
    """The best composite IQ at each month end, and the best of each top provider.

    The top providers are the `providers` whose best model ranks highest in the latest
    snapshot (ties cannot occur: ranks are unique). Month ends before the first one that
    ranks a model are left out; a provider with no ranked model at a month end has a gap.
    """
    first = next((i for i, s in enumerate(snapshots) if s.models), len(snapshots))
    kept = snapshots[first:]
    bests = [_best_per_provider(s) for s in kept]
    latest = bests[-1] if bests else {}
    top = sorted(latest, key=lambda name: (latest[name].rank, name))[:providers]
    overall = Line("Best overall", tuple(_holder(s.models[0] if s.models else None) for s in kept))
    lines = tuple(Line(name, tuple(_holder(b.get(name)) for b in bests)) for name in top)
    months = tuple(s.date.isoformat() for s in kept)
    return FrontierLines(months, overall, lines, skipped=first)


def _best_per_provider(snapshot: HistoryDetail) -> dict[str, HistoryEntry]:
    """Each provider's best-ranked model of a snapshot (its leaderboard is in rank order)."""
    best: dict[str, HistoryEntry] = {}
    for entry in snapshot.models:
        best.setdefault(entry.provider, entry)
    return best


def _holder(entry: HistoryEntry | None) -> Holder | None:
    return None if entry is None else Holder(entry.name, entry.iq)


def dimension_profiles(docs: SiteDocuments, count: int = PROFILE_MODELS) -> Profiles:
    """The dimensions of the top `count` models, imputed ones flagged."""
    profiles = []
    for model in docs.ranked_models()[:count]:
        dims = model.dimensions
        cells = []
        for dimension in DIMENSIONS:
            detail = getattr(dims, dimension.slug.replace("-", "_"))
            cells.append((dimension.short, detail.iq, detail.imputed))
        profiles.append(Profile(model.name, model.iq, tuple(cells)))
    return Profiles(tuple(profiles), tuple(d.name for d in DIMENSIONS))


def dimension_ranges(model: ModelDetail) -> DimensionRanges:
    """A model page's dimension chart: each dimension's estimate and 95% range, and what a
    provisional composite rests on."""
    rows = []
    for d in DIMENSIONS:
        detail = getattr(model.dimensions, d.slug.replace("-", "_"))
        imputed = detail.imputed and detail.iq is not None
        rows.append(Estimate(d.name, detail.iq, detail.iq_low95, detail.iq_high95, imputed))
    coverage = model.iq_coverage
    rests = (
        f"{coverage.direct_dimensions} of {coverage.total_dimensions} dimensions measured"
        if model.provisional is True and isinstance(coverage, IqCoverage)
        else None
    )
    return DimensionRanges(model.name, tuple(rows), rests)


def rank_history(name: str, entries: Sequence[tuple[str, HistoryEntry]]) -> RankHistory:
    """A model page's history chart, from its entry of each month end's leaderboard."""
    months = tuple(
        Month(date, e.iq, e.iq_low95, e.iq_high95, e.rank, e.rank_low, e.rank_high, e.provisional)
        for date, e in entries
    )
    return RankHistory(name, months)


def composite_ranges(docs: SiteDocuments) -> Intervals:
    """Every ranked model's composite with its 95% range and rank band, in rank order."""
    rows = []
    for m in _ranked(docs.models.models):
        if None in (m.iq, m.iq_low95, m.iq_high95, m.rank, m.rank_low, m.rank_high):
            continue
        rows.append(
            Interval(
                label=m.name,
                value=float(m.iq or 0),
                low=m.iq_low95 or 0.0,
                high=m.iq_high95 or 0.0,
                rank=m.rank or 0,
                rank_low=m.rank_low or 0,
                rank_high=m.rank_high or 0,
            )
        )
    return Intervals(tuple(rows))


def ranking_bars(ranking: RankingDetail, value_label: str) -> Bars:
    """One bar per ranked model with a score, in rank order."""
    bars = tuple(Bar(m.name, m.score) for m in ranking.models if m.score is not None)
    return Bars(bars, value_label, ranking.direction == "lower_is_better")


def benchmark_scores(docs: SiteDocuments, chart: Chart) -> Bars:
    """The score chart of the chart's first related benchmark."""
    benchmark = docs.benchmark(chart.related_benchmarks[0]) if chart.related_benchmarks else None
    ranking = docs.benchmark_ranking(benchmark) if benchmark else None
    if benchmark is None or ranking is None:
        raise BuildError(f"charts: {chart.id}: no ranking for {chart.related_benchmarks}")
    return ranking_bars(ranking, benchmark.unit or benchmark.name)


def build_plot(docs: SiteDocuments, chart: Chart) -> Plot:
    """The plot of a promoted chart, from the documents."""
    kind = chart_kind(chart)
    if kind == "iq-distribution":
        return iq_histogram(docs)
    if kind == "iq-vs-cost":
        return cost_scatter(docs)
    if kind == "iq-vs-speed":
        return speed_scatter(docs)
    if kind == "frontier":
        return frontier(docs)
    if kind == "dimension-profile":
        return dimension_profiles(docs)
    if kind == "iq-ranges":
        return composite_ranges(docs)
    return benchmark_scores(docs, chart)


def inline(
    plot: Plot,
    ident: str,
    title: str,
    width: float = INLINE_WIDTH,
    details: str | None = None,
) -> str:
    """The plot as an accessible SVG element for a page (bar charts: the first 50 bars);
    `details`: the id of the page's table of the same numbers."""
    if isinstance(plot, Bars) and plot.max_rows is None:
        plot = plot.limited(INLINE_ROWS)
    height = plot.height_for(width)
    body = plot.draw(width, height)
    return svg.inline_svg(body, width, height, ident, title, plot.summary, details)


def chart_markup(plot: Plot, ident: str, title: str, details: str) -> markupsafe.Markup:
    """model.html: a plot drawn inline as the page is rendered (a page's context holds the
    plot, not its SVG: nothing is drawn for a page the output cache already has)."""
    return markupsafe.Markup(inline(plot, ident, title, details=details))


Rasterise = Callable[[str, str], bytes]
"""(image URL, SVG document) -> PNG bytes: `svg.rasterise`, or a cached version of it."""


def _rasterise(_url: str, document: str) -> bytes:
    return svg.rasterise(document)


def preview_svg(plot: Plot, title: str, subtitle: str) -> str:
    """The plot as the 1200x630 SVG document of its social preview."""
    if isinstance(plot, Bars | Intervals):
        plot = plot.limited(PREVIEW_ROWS)
    body = plot.draw(svg.PREVIEW_WIDTH, svg.preview_chart_height())
    return svg.preview_svg(body, title, subtitle, SITE_NAME)


def preview(plot: Plot, title: str, subtitle: str) -> bytes:
    """The plot as a 1200x630 PNG social preview."""
    return svg.rasterise(preview_svg(plot, title, subtitle))


def draw_charts(docs: SiteDocuments, rasterise: Rasterise = _rasterise) -> list[DrawnChart]:
    """Every promoted chart drawn, in `/charts` order."""
    drawn = []
    for chart in docs.charts.charts:
        plot = build_plot(docs, chart)
        drawn.append(
            DrawnChart(
                chart=chart,
                kind=chart_kind(chart),
                plot=plot,
                svg=inline(plot, f"chart-{chart.id}", chart.title),
                png=rasterise(chart.image, preview_svg(plot, chart.title, chart.description)),
            )
        )
    return drawn
