"""Pages say how uncertain each score is: ranges, rank bands, groups, the ranges chart."""

from __future__ import annotations

import re

import msgspec
import pytest
from support.documents import BASE, sample_documents

from generator.api.contract import METHODOLOGY, Chart
from generator.api.urls import SiteConfig
from generator.documents.interval_check import interval_check
from generator.input.records import HeldOutCheckRecord, IntervalCheckRecord
from generator.pages.charts import build_plot, composite_ranges, inline
from generator.pages.plots import Intervals
from generator.pages.render import render_pages
from generator.pages.sitedocs import SiteDocuments
from generator.pages.views import rank_groups

CHECK = IntervalCheckRecord(
    nominal=0.95,
    previous_version="2026-01-01",
    bootstrap_resamples=1000,
    checks=[
        HeldOutCheckRecord(
            id=kind,
            cases=cases,
            models=9,
            coverage=coverage,
            mean_log_predictive_density=-3.4,
            mean_absolute_error=5.7,
            previous_coverage=0.985,
            previous_mean_log_predictive_density=-3.5,
            previous_mean_absolute_error=5.6,
            lpd_gain=0.1,
            lpd_gain_low95=0.05,
            lpd_gain_high95=0.15,
        )
        for kind, cases, coverage in (
            ("benchmark-hold-out", 42, 0.929),
            ("dimension-hold-out", 26, 0.946),
        )
    ],
)


def _with_check(documents: dict[str, msgspec.Struct]) -> dict[str, msgspec.Struct]:
    """The sample documents with the methodology's interval check (the shipped data has one)."""
    path = METHODOLOGY.path
    return {
        **documents,
        path: msgspec.structs.replace(documents[path], interval_check=interval_check(CHECK)),
    }


@pytest.fixture(scope="module")
def pages() -> dict[str, str]:
    rendered = render_pages(_with_check(sample_documents()), SiteConfig(base_url=BASE))
    return {p: b.decode() for p, b in rendered.items() if p.endswith(".html")}


def test_without_a_check_the_pages_say_so() -> None:
    rendered = render_pages(sample_documents(), SiteConfig(base_url=BASE))
    html = rendered["models/alpha-1/index.html"].decode()
    assert "were not checked on held-out results of this data" in html
    assert "No held-out check was run" in rendered["methodology/index.html"].decode()


def test_rank_groups_by_hand() -> None:
    # bands (1-2), (1-3), (2-4): all overlap the first (low <= 2) -> group 1;
    # (3-5) starts group 2; (4-6) and (5-7) reach back to 5 -> group 2; (6-8) -> group 3
    bands = [(1, 2), (1, 3), (2, 4), (3, 5), (4, 6), (5, 7), (6, 8)]
    assert rank_groups(bands) == [1, 1, 1, 2, 2, 2, 3]
    # a band-less row (no sd) starts its own group, and so does the row after it
    assert rank_groups([(1, 3), (None, None), (1, 3)]) == [1, 2, 3]
    assert rank_groups([]) == []


def test_leaderboard_shows_ranges_bands_and_groups(pages: dict[str, str]) -> None:
    html = pages["index.html"]
    # sample: rank 1 has IQ 150, range 150 -/+ 4.9 and band 1-2 (tests/support/documents.py)
    assert '<span class="strong">150</span> <span class="sub">145–155</span>' in html
    assert '1 <span class="sub band">band 1–2</span>' in html
    groups = re.findall(r'<tr class="group-(odd|even)" ', html)
    assert groups == ["odd"] * 3 + ["even"] * 3 + ["odd"]  # groups 1, 2, 3 as above
    assert "cannot be told apart" in html
    assert 'href="methodology/#uncertainty"' in html


def test_model_page_shows_the_composite_and_every_dimension_range(pages: dict[str, str]) -> None:
    html = pages["models/alpha-1/index.html"]
    assert "95% range 145–155" in html and "could be 1–2" in html
    # dimensions of alpha-1 are 144..156 with sd 6: 144 -/+ 11.76 -> 132.24..155.76 -> 132–156
    assert '<td class="num">132–156</td>' in html


def test_ranking_pages_show_bands_only_where_published(pages: dict[str, str]) -> None:
    composite = pages["rankings/composite-iq/index.html"]
    assert "Rank band" in composite and '<td class="num">1–2</td>' in composite
    benchmark_ids = [p for p in pages if p.startswith("rankings/") and "gpqa" in p]
    assert benchmark_ids and all("Rank band" not in pages[p] for p in benchmark_ids)


def test_methodology_page_states_the_uncertainty_rules_and_noise(pages: dict[str, str]) -> None:
    html = pages["methodology/index.html"]
    assert 'id="uncertainty"' in html and "not differences between scoring methods" in html
    assert 'id="benchmark-noise"' in html and "6.50" in html  # the sample noiseSd
    assert "kappaNoise" in html


SENTENCE = (
    "On this data, 92.9% of held-out benchmark results and 94.6% of held-out dimensions fell"
    " inside 95% ranges built this way; the ranges do not cover differences between scoring"
    " methods."
)


@pytest.mark.parametrize(
    "path",
    [
        "index.html",
        "models/alpha-1/index.html",
        "rankings/composite-iq/index.html",
        "compare/index.html",
        "methodology/index.html",
    ],
)
def test_every_range_states_the_held_out_check(pages: dict[str, str], path: str) -> None:
    # the sample's intervalCheck (tests/support/documents.py): coverage 0.929 and 0.946
    html = pages[path]
    assert SENTENCE in html
    assert "not empirically calibrated" not in html
    if path != "methodology/index.html":
        up = "../" * path.count("/")  # links are relative to the page
        assert f'href="{up}methodology/#interval-check"' in html


def test_methodology_page_tables_both_checks(pages: dict[str, str]) -> None:
    html = pages["methodology/index.html"]
    assert 'id="interval-check"' in html
    assert html.count('<th scope="row">Inside the 95% range</th>') == 2
    assert '<td class="num">98.5%</td><td class="num">92.9%</td>' in html
    assert "42 held-out values from 9 models" in html


def test_the_ranges_chart_draws_every_ranked_model_in_rank_order() -> None:
    docs = SiteDocuments(sample_documents())
    plot = composite_ranges(docs)
    assert [r.rank for r in plot.rows] == [1, 2, 3, 4, 5, 6, 7]  # theta-8 has no composite
    assert (plot.rows[0].low, plot.rows[0].high) == (145.1, 154.9)
    assert [row[4] for row in plot.table.rows][:2] == ["1–2", "1–3"]
    svg = inline(plot, "chart-x", "Ranges")
    assert svg.count("<circle") == 7 and "95% range" in svg
    chart = Chart(
        id="x",
        title="t",
        description="d",
        url=BASE,
        image=BASE,
        related_benchmarks=[],
        tags=["iq-ranges"],
    )
    assert isinstance(build_plot(docs, chart), Intervals)
    assert Intervals(()).summary == "No model has a composite IQ yet."
