"""The model page's two charts (`plots.DimensionRanges`, `plots.RankHistory`), and the
named, focusable marks of every chart (`axes.named`): hand-made plots, the sample pages
and every promoted chart of the sample documents."""

from __future__ import annotations

import re

import pytest
from support.documents import BASE, sample_documents

from generator.api.urls import SiteConfig
from generator.pages import charts
from generator.pages.plots import (
    Bars,
    CostScatter,
    DimensionRanges,
    Estimate,
    FrontierLines,
    Histogram,
    Intervals,
    Month,
    Plot,
    Profiles,
    RankHistory,
)
from generator.pages.render import render_pages
from generator.pages.sitedocs import SiteDocuments

# a named mark: its aria-label and its hover title say the same
NAMED = re.compile(r'<g class="pt" tabindex="0" role="img" aria-label="([^"]*)"><title>\1</title>')
MARK = re.compile(r'<g class="pt".*?</g>')


def test_the_dimension_chart_tells_measured_from_imputed_and_names_each() -> None:
    plot = DimensionRanges(
        "M",
        (
            Estimate("Abstract reasoning", 120, 112.4, 127.6, imputed=False),
            Estimate("Computer use", 104, 90.2, 117.9, imputed=True),
            Estimate("Reliability", None, None, None, imputed=False),
        ),
        provisional="1 of 3 dimensions measured",
    )
    drawn = plot.draw(720, plot.height_for(720))
    # ranges rounded to whole points: 112.4 -> 112, 127.6 -> 128, 90.2 -> 90, 117.9 -> 118
    assert NAMED.findall(drawn) == [
        "Abstract reasoning: IQ 120, 95% range 112 to 128, measured",
        "Computer use: IQ 104, 95% range 90 to 118, imputed",
    ]
    measured, imputed = MARK.findall(drawn)
    # measured: a solid line and a filled dot; imputed: a dashed line and a hollow dot
    assert "stroke-dasharray" not in measured and 'fill="#ffffff"' not in measured
    assert 'stroke-dasharray="5 3"' in imputed and '<circle cx="' in imputed
    assert re.search(r'<circle [^>]*fill="#ffffff" stroke="#b7410e"', imputed)
    assert "no estimate" in drawn  # Reliability has none: no mark, said in words
    assert "Provisional: rests on 1 of 3 dimensions measured" in drawn
    assert plot.summary == (
        "The three dimensions of M on the IQ scale, each a dot with a line across its 95% "
        "range: 1 measured (filled dot, solid line), 1 imputed (hollow dot, dashed line), "
        "1 without an estimate. Its composite is provisional: it rests on 1 of 3 dimensions "
        "measured."
    )
    assert plot.table.rows == (
        ("Abstract reasoning", "120", "112 to 128", "measured"),
        ("Computer use", "104", "90 to 118", "imputed"),
        ("Reliability", "–", "–", "–"),
    )


def test_the_history_chart_draws_iq_and_rank_with_their_ranges() -> None:
    plot = RankHistory(
        "M",
        (
            Month("2025-01-31", 110, 104.6, 115.2, 4, 2, 7, provisional=True),
            Month("2025-02-28", 112, 107.1, 116.8, 1, 1, 3, provisional=False),
        ),
    )
    drawn = plot.draw(720, plot.height_for(720))
    assert NAMED.findall(drawn) == [
        "2025-01-31: composite IQ 110, 95% range 105 to 115 (provisional)",
        "2025-02-28: composite IQ 112, 95% range 107 to 117",
        "2025-01-31: rank 4, rank band 2–7",
        "2025-02-28: rank 1, rank band 1–3",
    ]
    marks = MARK.findall(drawn)
    dots = [float(re.search(r'cy="([\d.]+)"', m).group(1)) for m in marks]  # type: ignore[union-attr]
    assert dots[1] < dots[0]  # IQ 112 above IQ 110
    assert dots[3] < dots[2]  # rank 1 above rank 4: the rank axis runs downwards
    assert 'fill="#ffffff"' in marks[0] and 'fill="#ffffff"' not in marks[1]  # provisional hollow
    assert "<polygon" in drawn  # the IQ's 95% range, a band over the two month ends
    assert plot.table.rows == (
        ("2025-01-31", "110 (provisional)", "105 to 115", "4", "2–7"),
        ("2025-02-28", "112", "107 to 117", "1", "1–3"),
    )
    assert plot.summary.endswith(
        "Latest: IQ 112, 95% range 107 to 117; rank 1, rank band 1–3. Hollow dots: the 1 "
        "month end whose composite was provisional."
    )


@pytest.fixture(scope="module")
def pages() -> dict[str, bytes]:
    return render_pages(sample_documents(), SiteConfig(base_url=BASE))


def test_a_model_page_has_two_named_charts_with_table_alternatives(
    pages: dict[str, bytes],
) -> None:
    html = pages["models/alpha-1/index.html"].decode()
    charts_svg = re.findall(r'<svg [^>]*class="chart"[^>]*>', html)
    assert len(charts_svg) == 2
    for ident in ("dimension-chart", "history-chart"):
        tag = next(t for t in charts_svg if f'aria-labelledby="{ident}-title' in t)
        assert 'role="group"' in tag
        assert re.search(rf'<title id="{ident}-title">[^<]+</title>', html)
        table = re.search(r'aria-details="([^"]+)"', tag)
        assert table is not None and f'<table id="{table.group(1)}">' in html
    # seven dimensions (all estimated in the sample) and one month end: IQ and rank
    assert len(NAMED.findall(html)) == 7 + 2


def _marks(plot: Plot) -> int:
    """How many marks a plot draws inline: one per value it plots."""
    if isinstance(plot, Histogram):
        return len(plot.table.rows)
    if isinstance(plot, CostScatter):
        return len(plot.points)
    if isinstance(plot, FrontierLines):
        lines = (plot.best, *plot.providers)
        return sum(v is not None for line in lines for v in line.values)
    if isinstance(plot, Profiles):
        return sum(iq is not None for p in plot.profiles for _, iq, _ in p.dimensions)
    if isinstance(plot, Bars):
        return min(len(plot.bars), charts.INLINE_ROWS)
    assert isinstance(plot, Intervals)
    return len(plot.rows)


def test_every_chart_names_every_point() -> None:
    docs = SiteDocuments(sample_documents())
    drawn = charts.draw_charts(docs, rasterise=lambda _url, _svg: b"")
    plots = {d.kind: (d.plot, d.svg) for d in drawn}
    ranges = charts.composite_ranges(docs)  # promoted by the shipped data, not the sample
    plots["iq-ranges"] = (ranges, charts.inline(ranges, "ranges", "Ranges"))
    speed = charts.speed_scatter(docs)  # likewise
    plots["iq-vs-speed"] = (speed, charts.inline(speed, "speed", "Speed"))
    assert set(plots) == set(charts.CHART_KINDS)
    for kind, (plot, svg) in plots.items():
        names = NAMED.findall(svg)
        assert len(names) == len(MARK.findall(svg)) == _marks(plot) > 0, kind
        assert all(names), kind
