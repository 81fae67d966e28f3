"""Real headless Chromium over a local HTTP server: pages load cleanly and draw something,
and every page type fits the window at four widths.

Chromium is Debian's (`/usr/bin/chromium`, installed by scripts/install_tools.sh); the
`playwright` package drives it, so no browser is downloaded (tests/support/browser.py).
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from support.browser import (
    WIDTHS,
    Served,
    distinct_colours,
    latest_snapshot,
    page_types,
    revisit,
    top_model,
    visit,
)

pytestmark = pytest.mark.slow


@pytest.mark.parametrize(
    "kind", ["landing", "model", "chart", "frontier", "benchmark", "history", "snapshot"]
)
def test_page_loads_without_errors_and_is_not_blank(
    browser: Any, served: Served, kind: str
) -> None:
    paths = {
        "landing": "/",
        "model": f"/models/{top_model(served)}/",
        "chart": "/charts/iq-vs-cost/",
        "frontier": "/charts/frontier-over-time/",
        "benchmark": "/benchmarks/gpqa-diamond/",
        "history": "/history/",
        "snapshot": f"/history/{latest_snapshot(served)}/",
    }
    page, seen = visit(browser, served.base_url + paths[kind], screenshot=True)
    try:
        assert seen.console_errors == []
        assert seen.failed == []
        assert page.locator("h1").count() == 1
        assert distinct_colours(seen.screenshot, limit=40) > 40
    finally:
        page.close()


def test_model_page_links_its_history_as_json(browser: Any, served: Served) -> None:
    """The link on the model page reaches /api/v1/models/{id}/history (a rewrite) and
    gets the built document."""
    model = top_model(served)
    page, seen = visit(browser, f"{served.base_url}/models/{model}/")
    try:
        # Checked before the click: a browser showing the JSON asks for /favicon.ico (a
        # 404, logged as a console error whenever it lands before the end of the test).
        assert seen.console_errors == []
        link = page.get_by_role("link", name="history as JSON")
        path = f"/api/v1/models/{model}/history"
        with page.expect_response(lambda r: r.url.endswith(path)) as answer:
            link.click()
        response = answer.value
        assert response.status == 200
        assert response.body() == (served.root / f"api/v1/model-history/{model}").read_bytes()
        assert json.loads(response.body())["snapshots"][-1]["rank"] == 1
    finally:
        page.close()


def test_chart_page_draws_the_svg(browser: Any, served: Served) -> None:
    page, _ = visit(browser, served.base_url + "/charts/iq-vs-cost/")
    try:
        chart = page.locator("svg.chart")
        box = chart.bounding_box()
        assert box is not None and box["width"] > 600 and box["height"] > 300
        assert chart.locator("circle").count() >= 20  # one per priced, ranked model
        assert page.locator("meta[property='og:image']").get_attribute("content") == (
            served.base_url + "/charts/iq-vs-cost.png"
        )
    finally:
        page.close()


def test_frontier_chart_draws_a_line_per_series_from_the_history(
    browser: Any, served: Served
) -> None:
    page, _ = visit(browser, served.base_url + "/charts/frontier-over-time/")
    try:
        chart = page.locator("svg.chart")
        box = chart.bounding_box()
        assert box is not None and box["width"] > 600 and box["height"] > 300
        # the data table: month end, best model, best IQ, then one column per provider
        providers = page.locator("#chart-data thead th").count() - 3
        assert providers == 5
        assert chart.locator("polyline").count() == 1 + providers
        history = json.loads((served.root / "api/v1/history.json").read_bytes())
        ranked = [s for s in history["snapshots"] if s["rankedModelCount"]]
        assert page.locator("#chart-data tbody tr").count() == len(ranked)
    finally:
        page.close()


def test_preview_images_are_1200_by_630(served: Served) -> None:
    previews = sorted((served.root / "charts").glob("*.png"))
    charts = json.loads((served.root / "api/v1/charts").read_bytes())["charts"]
    assert len(previews) == len(charts) > 0
    for preview in previews:
        with Image.open(preview) as image:
            assert image.size == (1200, 630), preview.name
            # more than 20 colours: getcolors gives up (None) past maxcolors, so it stops early
            assert image.convert("RGB").getcolors(maxcolors=20) is None, preview.name


def test_unknown_page_gets_the_html_404_with_its_stylesheet(browser: Any, served: Served) -> None:
    page, seen = visit(browser, served.base_url + "/no/such/page/", status=404)
    try:
        assert page.locator("h1").inner_text() == "Page not found"
        assert seen.failed == []  # the stylesheet (absolute URL) loaded from any depth
        colour = page.evaluate(
            "getComputedStyle(document.querySelector('.site-header')).borderBottomStyle"
        )
        assert colour == "solid"  # site.css applied
    finally:
        page.close()


# --- every page type at every width --------------------------------------------------------


def test_no_page_type_scrolls_sideways(browser: Any, served: Served) -> None:
    """The document is never wider than the window: wide tables and charts scroll inside
    their own box, intro text wraps. Checked on one page of every type at every width.

    Each page loads once, at the widest width, and the window then narrows through the
    others (the layout is CSS alone: no script reads the window's size), so a rule that
    only a narrow window breaks is caught at that width. (A tab per width loaded every
    page four times: 84 loads, about 13 s, against 21 loads and 84 resizes.)
    """
    wide = []
    widths = sorted(WIDTHS, reverse=True)
    page = browser.new_page(viewport={"width": widths[0], "height": 900})
    try:
        for kind, path in page_types(served).items():
            url, status = served.base_url + path, 404 if kind == "404" else 200
            page.set_viewport_size({"width": widths[0], "height": 900})
            with revisit(page, url, status) as seen:
                if kind == "compare":
                    page.wait_for_selector("#compare-table")
                for width in widths:
                    page.set_viewport_size({"width": width, "height": 900})
                    scroll, text = page.evaluate(WIDEST)
                    if scroll > width or text > width:
                        wide.append(
                            f"{kind} ({path}) at {width} px: document {scroll} px,"
                            f" text to {text:.0f} px"
                        )
            assert seen.failed == [], kind
            # (the 404 page's own status is logged as a console error)
            assert kind == "404" or seen.console_errors == [], kind
    finally:
        page.close()
    assert wide == []


# The document's scroll width, and the right edge of the text that must wrap.
WIDEST = """() => [
  document.documentElement.scrollWidth,
  Math.max(...[...document.querySelectorAll('h1, .lead, main > p')]
    .map(e => e.getBoundingClientRect().right)),
]"""


@pytest.mark.parametrize("width", WIDTHS)
def test_the_leaderboard_fits_or_says_it_scrolls(browser: Any, served: Served, width: int) -> None:
    """From 1280 px the whole leaderboard is on screen; narrower, its box scrolls, says so
    in a visible hint, and keeps the model name in view at its left edge."""
    page, _ = visit(browser, served.base_url + "/", width, 900)
    try:
        box = page.locator("#leaderboard-scroll")
        overflow = box.evaluate("e => e.scrollWidth - e.clientWidth")
        hint = page.locator("#leaderboard-hint")
        if width >= 1280:
            assert overflow <= 0 and not hint.is_visible()
            return
        assert overflow > 0 and hint.is_visible()
        name = page.locator("#leaderboard-table tbody tr:first-child th")
        before = name.bounding_box()
        box.evaluate("e => { e.scrollLeft = 300; }")
        after = name.bounding_box()
        assert before is not None and after is not None
        assert after["x"] == pytest.approx(box.bounding_box()["x"], abs=2)  # held at the edge
    finally:
        page.close()


def test_screenshots_of_the_docs(browser: Any, served: Served, tmp_path: Path) -> None:
    """scripts/screenshots.py's list, shot here at its widths: palette PNGs, not blank."""
    from scripts.screenshots import shoot, shots

    for shot in shots(served.root):
        png = shoot(browser, served.base_url, shot)
        with Image.open(io.BytesIO(png)) as image:
            assert image.width == shot.width, shot.name
            assert len(image.getcolors(maxcolors=256) or []) > 20, shot.name
        assert len(png) < 150_000, shot.name
