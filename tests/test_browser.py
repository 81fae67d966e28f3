"""Real headless Chromium over a local HTTP server: pages load cleanly and draw something.

Chromium is Debian's (`/usr/bin/chromium`, installed by scripts/install_tools.sh); the
`playwright` package drives it, so no browser is downloaded.
"""

from __future__ import annotations

import io
import json
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from support.paths import REPO
from support.servers import free_port, python_env, running_server

from scripts.screenshots import CHROMIUM_ARGS

pytestmark = pytest.mark.slow

CHROMIUM = Path("/usr/bin/chromium")


@dataclass
class Served:
    """The shipped data built for, and served by `modelscores serve` at, `base_url`."""

    root: Path
    base_url: str


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """`modelscores serve` (the local host: _headers, _redirects, 404s) on a free port."""
    root = tmp_path_factory.mktemp("browser") / "site_out"
    port = free_port()
    base_url = f"http://127.0.0.1:{port}"
    command = [
        sys.executable, "-m", "generator", "serve",
        "--data-dir", str(REPO / "data"), "--out-dir", str(root),
        "--base-url", base_url, "--port", str(port),
    ]  # fmt: skip
    log = root.parent / "serve.log"
    with running_server(command, base_url + "/", env=python_env(), timeout=90, log=log):
        yield Served(root, base_url)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not CHROMIUM.is_file():
        pytest.fail("Chromium missing: run scripts/install_tools.sh (Debian package chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@dataclass
class Visit:
    """What happened while a page loaded."""

    console_errors: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    screenshot: bytes = b""


def visit(
    browser: Any,
    url: str,
    width: int = 1280,
    height: int = 900,
    status: int = 200,
    screenshot: bool = False,
) -> tuple[Any, Visit]:
    """Load `url` in a new page; a full-page screenshot only for a test that looks at it.

    (The pages run no script and lazy-load nothing they show here, so after `load` no
    request is left to fail; the screenshot, 0.1-1.6 s a page, tested nothing else.)
    """
    page = browser.new_page(viewport={"width": width, "height": height})
    seen = Visit()
    page.on("console", lambda m: seen.console_errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: seen.console_errors.append(str(e)))
    page.on("requestfailed", lambda r: seen.failed.append(f"{r.url} ({r.failure})"))
    page.on("response", lambda r: _record_error(seen, r, url))
    response = page.goto(url, wait_until="load")
    assert response is not None and response.status == status, url
    if screenshot:
        seen.screenshot = page.screenshot(full_page=True)
    return page, seen


def _record_error(seen: Visit, response: Any, page_url: str) -> None:
    """Any HTTP error while loading, except the page's own expected status."""
    if response.status >= 400 and response.url != page_url:
        seen.failed.append(f"{response.url} {response.status}")


def distinct_colours(png: bytes, limit: int) -> int:
    """The image's number of colours, counting stopped past `limit` (then `limit` + 1).

    getcolors gives up (None) past maxcolors, so it stops early, as for the previews below.
    """
    image = Image.open(io.BytesIO(png)).convert("RGB")
    colours = image.getcolors(maxcolors=limit)
    return limit + 1 if colours is None else len(colours)


def top_model(served: Served) -> str:
    ranking = json.loads((served.root / "api/v1/rankings/composite-iq").read_bytes())
    return str(ranking["models"][0]["id"])


def latest_snapshot(served: Served) -> str:
    history = json.loads((served.root / "api/v1/history.json").read_bytes())
    return str(history["snapshots"][-1]["date"])


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


@pytest.mark.parametrize(
    "path", ["/", "/charts/dimension-profiles/", "/charts/frontier-over-time/", "/docs/"]
)
def test_page_fits_a_phone_screen(browser: Any, served: Served, path: str) -> None:
    page, seen = visit(browser, served.base_url + path, width=390, height=844)
    try:
        assert seen.failed == []
        page_width = page.evaluate("document.documentElement.scrollWidth")
        assert page_width <= 390  # wide tables and charts scroll inside their own box
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
