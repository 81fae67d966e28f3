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
from urllib.parse import parse_qs, urlsplit

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

    (The pages lazy-load nothing they show here, and only the compare view's script fetches
    after `load` (its tests wait for its table), so after `load` no request is left to fail;
    the screenshot, 0.1-1.6 s a page, tested nothing else.)
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

WIDTHS = (390, 768, 1280, 1600)


def _api(served: Served, path: str) -> Any:
    return json.loads((served.root / "api/v1" / path).read_bytes())


def page_types(served: Served) -> dict[str, str]:
    """One path per page type of the shipped build (the compare view with the top four)."""
    models = _api(served, "models.json")["models"]
    ranked = sorted((m for m in models if m["rank"] is not None), key=lambda m: m["rank"])
    unranked = [m for m in models if m["rank"] is None]
    domain = _api(served, "domains.json")["domains"][0]["id"]
    return {
        "landing": "/",
        "model": f"/models/{ranked[0]['id']}/",
        "unranked model": f"/models/{unranked[0]['id']}/" if unranked else "/",
        "rankings": "/rankings/",
        "ranking": "/rankings/composite-iq/",
        "dimension ranking": "/rankings/reliability-iq/",
        "cost ranking": "/rankings/effective-cost/",
        "benchmarks": "/benchmarks/",
        "benchmark": "/benchmarks/gpqa-diamond/",
        "domains": "/domains/",
        "domain": f"/domains/{domain}/",
        "charts": "/charts/",
        "chart": "/charts/iq-vs-cost/",
        "profiles chart": "/charts/dimension-profiles/",
        "frontier chart": "/charts/frontier-over-time/",
        "history": "/history/",
        "snapshot": f"/history/{latest_snapshot(served)}/",
        "methodology": "/methodology/",
        "docs": "/docs/",
        "compare": "/compare/?" + "&".join(f"m={m['id']}" for m in ranked[:4]),
        "404": "/no/such/page/",
    }


@pytest.mark.parametrize("width", WIDTHS)
def test_no_page_type_scrolls_sideways(browser: Any, served: Served, width: int) -> None:
    """The document is never wider than the window: wide tables and charts scroll inside
    their own box, intro text wraps. Checked on one page of every type."""
    wide = []
    for kind, path in page_types(served).items():
        page, seen = visit(
            browser, served.base_url + path, width, 900, 404 if kind == "404" else 200
        )
        try:
            if kind == "compare":
                page.wait_for_selector("#compare-table")
            assert seen.failed == [], kind
            # (the 404 page's own status is logged as a console error)
            assert kind == "404" or seen.console_errors == [], kind
            scroll = page.evaluate("document.documentElement.scrollWidth")
            text = page.evaluate(
                "Math.max(...[...document.querySelectorAll('h1, .lead, main > p')]"
                ".map(e => e.getBoundingClientRect().right))"
            )
            if scroll > width or text > width:
                wide.append(f"{kind} ({path}): document {scroll} px, text to {text:.0f} px")
        finally:
            page.close()
    assert wide == []


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


# --- the leaderboard driven with the keyboard ---------------------------------------------


@dataclass(frozen=True)
class Model:
    """What the leaderboard shows and filters on, read from the API's JSON."""

    id: str
    name: str
    provider: str
    rank: int | None
    open: bool
    released: str | None
    cost: float | None
    iq: float | None
    names: tuple[str, ...]  # name, id, aliases
    imputed: int


@pytest.fixture(scope="module")
def api_models(served: Served) -> list[Model]:
    """Every model in the leaderboard's own order: ranked by rank, then the rest by name."""
    out = []
    for m in _api(served, "models.json")["models"]:
        detail = _api(served, f"models/{m['id']}")
        dims = detail["dimensions"].values()
        out.append(
            Model(
                m["id"], m["name"], m["provider"], m["rank"], m["openSource"], m["releaseDate"],
                m["cost"]["effectivePer1M"], m["iq"], (m["name"], m["id"], *detail["aliases"]),
                sum(1 for d in dims if d["imputed"] and d["iq"] is not None),
            )
        )  # fmt: skip
    ranked = sorted((m for m in out if m.rank is not None), key=lambda m: (m.rank, m.id))
    return ranked + sorted((m for m in out if m.rank is None), key=lambda m: (m.name, m.id))


def visible_ids(page: Any) -> list[str]:
    return page.eval_on_selector_all(
        "#leaderboard-table tbody tr:not([hidden])", "rows => rows.map(r => r.dataset.id)"
    )


def ordered(models: list[Model], key: Any, descending: bool = False) -> list[str]:
    """The ids sorted by `key` (None last), ties kept in the leaderboard's order."""
    have = [m for m in models if key(m) is not None]
    have.sort(key=key, reverse=descending)  # stable: reverse=True keeps ties in order too
    return [m.id for m in have] + [m.id for m in models if key(m) is None]


def folded(text: str) -> str:
    return "".join(c for c in text.lower() if c.isascii() and c.isalnum())


def press(page: Any, selector: str, key: str) -> None:
    page.focus(selector)
    page.keyboard.press(key)


def test_sorting_by_a_column_with_the_keyboard(
    browser: Any, served: Served, api_models: list[Model]
) -> None:
    page, seen = visit(browser, served.base_url + "/")
    try:
        assert visible_ids(page) == [m.id for m in api_models]  # the built order, unchanged
        rank = page.locator("th[data-key=rank]")
        assert rank.get_attribute("aria-sort") == "ascending"
        press(page, "th[data-key=cost] button", "Enter")
        assert visible_ids(page) == ordered(api_models, lambda m: m.cost)
        cost = page.locator("th[data-key=cost]")
        assert (
            cost.get_attribute("aria-sort") == "ascending"
            and rank.get_attribute("aria-sort") is None
        )
        assert "sorted by Cost, ascending" in page.locator("#leaderboard-status").inner_text()
        press(page, "th[data-key=cost] button", "Space")
        assert visible_ids(page) == ordered(api_models, lambda m: m.cost, descending=True)
        assert cost.get_attribute("aria-sort") == "descending"
        press(page, "th[data-key=iq] button", "Enter")  # IQ starts with the highest
        assert visible_ids(page) == ordered(api_models, lambda m: m.iq, descending=True)
        press(page, "th[data-key=name] button", "Enter")
        assert visible_ids(page) == ordered(api_models, lambda m: m.name.lower())
        assert page.url.endswith("?sort=name&dir=asc")
        assert seen.console_errors == []
    finally:
        page.close()


def test_filters_and_search_with_the_keyboard_and_a_shared_url(
    browser: Any, served: Served, api_models: list[Model]
) -> None:
    page, _ = visit(browser, served.base_url + "/")
    provider = api_models[0].provider
    try:
        page.focus("#f-q")
        page.keyboard.type("GPT 5")  # folded: "gpt5" finds gpt-5, GPT-5.1, ...
        expected = [m.id for m in api_models if any("gpt5" in folded(n) for n in m.names)]
        assert visible_ids(page) == expected and expected
        page.focus("#f-q")
        page.keyboard.press("Control+a")
        page.keyboard.press("Backspace")
        assert len(visible_ids(page)) == len(api_models)

        page.focus("#f-provider")
        page.keyboard.type(provider)  # a closed select picks the option typed
        page.focus("#f-after")
        page.keyboard.type("06012025")  # mm dd yyyy
        page.focus("#f-composite")
        page.keyboard.press("ArrowDown")  # "Has a composite"
        expected = [
            m.id
            for m in api_models
            if m.provider == provider
            and m.released is not None
            and m.released > "2025-06-01"
            and m.rank is not None
        ]
        assert visible_ids(page) == expected and expected
        status = page.locator("#leaderboard-status").inner_text()
        assert status.startswith(f"Showing {len(expected)} of {len(api_models)} models")
        press(page, "th[data-key=cost] button", "Enter")
        shown = visible_ids(page)
        shared = page.url
        assert "provider=" in shared and "after=2025-06-01" in shared and "sort=cost" in shared

        again, seen = visit(browser, shared)  # a shared link restores the same view
        try:
            assert visible_ids(again) == shown
            assert again.locator("#f-provider").input_value() == provider
            assert again.locator("#f-after").input_value() == "2025-06-01"
            assert again.locator("#f-composite").input_value() == "yes"
            assert again.locator("th[data-key=cost]").get_attribute("aria-sort") == "ascending"
            assert seen.console_errors == []
        finally:
            again.close()
    finally:
        page.close()


@pytest.mark.parametrize(
    ("query", "keep"),
    [
        ("open=open", lambda m: m.open),
        ("open=closed", lambda m: not m.open),
        ("composite=no", lambda m: m.rank is None),
        ("evidence=measured", lambda m: m.imputed == 0),
        ("evidence=imputed", lambda m: m.imputed > 0),
    ],
)
def test_each_filter_keeps_what_the_api_says(
    browser: Any, served: Served, api_models: list[Model], query: str, keep: Any
) -> None:
    page, _ = visit(browser, f"{served.base_url}/?{query}")
    try:
        expected = [m.id for m in api_models if keep(m)]
        assert visible_ids(page) == expected and expected
    finally:
        page.close()


def test_picking_models_opens_the_compare_view(
    browser: Any, served: Served, api_models: list[Model]
) -> None:
    """Space ticks three models, Enter follows the compare link; the view shows what each
    model's JSON says, and which pairs the rank bands separate by the MCP tool's rule."""
    from mcp_server.tools import distinguishability

    picks = [api_models[0].id, api_models[5].id, api_models[-1].id]  # the last one unranked
    page, _ = visit(browser, served.base_url + "/")
    try:
        link = page.locator("#compare-link")
        assert link.get_attribute("aria-disabled") == "true"
        for model_id in picks:
            press(page, f"input.pick[value='{model_id}']", "Space")
        assert link.get_attribute("aria-disabled") is None
        assert parse_qs(urlsplit(page.url).query)["compare"] == [",".join(picks)]  # shared too
        press(page, "#compare-link", "Enter")
        page.wait_for_selector("#compare-table")
        assert page.url.endswith("/compare/?" + "&".join(f"m={p}" for p in picks))
        details = [_api(served, f"models/{p}") for p in picks]
        heads = page.locator("#compare-table thead th").all_inner_texts()
        assert heads == ["Model", *(d["name"] for d in details)]
        rows = {
            r.locator("th").inner_text(): r.locator("td").all_inner_texts()
            for r in page.locator("#compare-table tbody tr").all()
        }
        for slug in details[0]["dimensions"]:
            name = next(k for k in rows if folded(k) == folded(slug))
            for cell, d in zip(rows[name], details, strict=True):
                dim = d["dimensions"][slug]
                if dim["iq"] is None:
                    assert cell == "–"
                    continue
                assert cell.startswith(str(round(dim["iq"])))
                assert ("(imputed)" in cell) == dim["imputed"]
                if dim["iqLow95"] is not None:
                    assert cell.endswith(f"{dim['iqLow95']:.0f}–{dim['iqHigh95']:.0f}")
        verdict = distinguishability(details)
        pairs = {
            tuple(li.get_attribute("data-pair").split()): li.get_attribute("data-apart")
            for li in page.locator("#compare-verdicts li[data-pair]").all()
        }
        expected = {tuple(p): "yes" for p in verdict["distinguishable"]}
        expected |= {tuple(p): "no" for p in verdict["notDistinguishable"]}
        assert pairs == expected and pairs
        unranked = page.locator("#compare-verdicts li[data-unranked]")
        assert unranked.evaluate_all("l => l.map(e => e.dataset.unranked)") == verdict["unranked"]
    finally:
        page.close()


def test_at_most_four_models_can_be_picked(browser: Any, served: Served) -> None:
    page, _ = visit(browser, served.base_url + "/")
    try:
        boxes = page.locator("input.pick")
        for i in range(4):
            press(page, f"input.pick >> nth={i}", "Space")
        assert boxes.nth(4).is_disabled() and not boxes.nth(3).is_disabled()
        assert "Four is the most" in page.locator("#compare-hint").inner_text()
    finally:
        page.close()


def test_controls_are_reached_by_tab_and_show_focus(browser: Any, served: Served) -> None:
    page, _ = visit(browser, served.base_url + "/")
    try:
        page.focus("#f-q")
        order: list[str] = []
        for _ in range(12):  # the date field takes three stops (month, day, year)
            page.keyboard.press("Tab")
            focused = page.evaluate("document.activeElement.id")
            if not order or order[-1] != focused:
                order.append(focused)
        fields = ["f-provider", "f-open", "f-after", "f-composite", "f-evidence", "f-reset"]
        assert order[:7] == [*fields, "compare-link"]
        outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
        assert outline == "solid"  # :focus-visible
        for field in ("f-q", "f-provider", "f-open", "f-after", "f-composite", "f-evidence"):
            assert page.locator(f"label[for={field}]").count() == 1
    finally:
        page.close()


def test_without_javascript_the_leaderboard_is_the_plain_table(
    browser: Any, served: Served, api_models: list[Model]
) -> None:
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    try:
        page.goto(served.base_url + "/")
        assert not page.locator("#leaderboard-controls").is_visible()
        assert page.locator("button.sort, input.pick").count() == 0
        assert visible_ids(page) == [m.id for m in api_models]
    finally:
        context.close()


# --- axe-core ------------------------------------------------------------------------------

AXE = REPO / ".tools/axe/node_modules/axe-core/axe.min.js"


def axe_violations(page: Any) -> list[str]:
    """axe-core's serious and critical violations on the page as it is now."""
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes'][:3]]}"
        for v in result["violations"]
        if v["impact"] in ("serious", "critical")
    ]


@pytest.mark.parametrize(
    "kind", ["landing", "model", "ranking", "domain", "chart", "compare", "dimension ranking"]
)
def test_axe_finds_no_serious_violation(browser: Any, served: Served, kind: str) -> None:
    if not AXE.is_file():
        pytest.fail("axe-core missing: run scripts/install_tools.sh (scripts/tools/axe)")
    page, _ = visit(browser, served.base_url + page_types(served)[kind])
    try:
        if kind == "compare":
            page.wait_for_selector("#compare-table")
        if kind == "landing":  # with a sort and a pick applied, as a visitor leaves it
            press(page, "th[data-key=iq] button", "Enter")
            press(page, "input.pick >> nth=0", "Space")
        assert axe_violations(page) == []
    finally:
        page.close()


def test_axe_reports_a_planted_violation(browser: Any, served: Served) -> None:
    """The check above can fail: an image without a text alternative is a critical one."""
    page, _ = visit(browser, served.base_url + "/")
    try:
        page.evaluate(
            "document.querySelector('main').append(Object.assign(document.createElement('img'),"
            " {src: 'static/site.css'}))"
        )
        assert [v.split(" ")[0] for v in axe_violations(page)] == ["image-alt"]
    finally:
        page.close()
