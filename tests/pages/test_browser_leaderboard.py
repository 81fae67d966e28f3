"""The leaderboard and the compare view in real headless Chromium, driven by the keyboard and
checked against the API's JSON; axe-core on every page type (tests/support/browser.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
from support.browser import (
    Served,
    api_json,
    page_types,
    revisit,
    visit,
)
from support.paths import REPO

pytestmark = pytest.mark.slow


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
    provisional: bool


@pytest.fixture(scope="module")
def api_models(served: Served) -> list[Model]:
    """Every model in the leaderboard's own order: ranked by rank, then the rest by name."""
    out = []
    for m in api_json(served, "models.json")["models"]:
        detail = api_json(served, f"models/{m['id']}")
        dims = detail["dimensions"].values()
        out.append(
            Model(
                m["id"], m["name"], m["provider"], m["rank"], m["openSource"], m["releaseDate"],
                m["cost"]["effectivePer1M"], m["iq"], (m["name"], m["id"], *detail["aliases"]),
                sum(1 for d in dims if d["imputed"] and d["iq"] is not None), m["provisional"],
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


def test_hiding_provisional_rows_with_the_keyboard_survives_a_shared_url(
    browser: Any, served: Served, api_models: list[Model]
) -> None:
    provisional = [m.id for m in api_models if m.provisional]
    assert provisional  # the shipped data has composites on two measured dimensions
    page, _ = visit(browser, served.base_url + "/")
    try:
        marks = page.locator("#leaderboard-table tbody tr[data-provisional='1'] .prov")
        assert marks.count() == len(provisional)  # each provisional row says so
        assert "2 of 7 dimensions measured" in (marks.first.text_content() or "")
        page.focus("#f-provisional")
        page.keyboard.press("ArrowDown")  # "Hide provisional"
        expected = [m.id for m in api_models if not m.provisional]
        assert visible_ids(page) == expected
        shared = page.url
        assert "provisional=hide" in shared
        again, seen = visit(browser, shared)  # a shared link hides them too
        try:
            assert visible_ids(again) == expected
            assert again.locator("#f-provisional").input_value() == "hide"
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
        ("provisional=hide", lambda m: not m.provisional),
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
        again, _ = visit(browser, page.url)
        try:
            checked = again.eval_on_selector_all(
                "input.pick:checked", "boxes => boxes.map(b => b.value)"
            )
            assert sorted(checked) == sorted(picks)
            assert again.locator("#compare-link").get_attribute("aria-disabled") is None
        finally:
            again.close()
        press(page, "#compare-link", "Enter")
        page.wait_for_selector("#compare-table")
        assert page.url.endswith("/compare/?" + "&".join(f"m={p}" for p in picks))
        details = [api_json(served, f"models/{p}") for p in picks]
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


# --- after typing, the pointer lands; Back and Forward walk the views ------------------------


def search(page: Any, text: str) -> None:
    page.click("#f-q")
    page.keyboard.type(text)


def test_a_search_then_one_click_opens_the_model(
    browser: Any, served: Served, api_models: list[Model]
) -> None:
    """The click leaves the search box (its `change`), which used to re-append every row
    between mousedown and click: the click was lost and the address stayed `/?q=...`."""
    target = api_models[3]
    page, seen = visit(browser, served.base_url + "/")
    try:
        search(page, target.name)
        with page.expect_navigation(timeout=5000):
            page.locator(f"tr[data-id='{target.id}'] th a").click()
        assert urlsplit(page.url).path == f"/models/{target.id}/"
        assert seen.console_errors == []
    finally:
        page.close()


def test_a_search_then_one_tick_selects_the_model(
    browser: Any, served: Served, api_models: list[Model]
) -> None:
    target = api_models[2]
    page, _ = visit(browser, served.base_url + "/")
    try:
        search(page, target.name)
        page.locator(f"input.pick[value='{target.id}']").click()
        assert page.locator(f"input.pick[value='{target.id}']").is_checked()
        assert page.locator("#compare-link").inner_text() == "Compare 1 selected"
        assert parse_qs(urlsplit(page.url).query)["compare"] == [target.id]
    finally:
        page.close()


def test_back_and_forward_walk_the_filter_and_sort_changes(
    browser: Any, served: Served, api_models: list[Model]
) -> None:
    provider = api_models[0].provider
    everyone = [m.id for m in api_models]
    by_provider = [m.id for m in api_models if m.provider == provider]
    page, _ = visit(browser, served.base_url + "/")
    try:
        start = page.evaluate("history.length")
        page.select_option("#f-provider", provider)
        assert visible_ids(page) == by_provider
        press(page, "th[data-key=cost] button", "Enter")
        by_cost = visible_ids(page)
        assert by_cost != by_provider and sorted(by_cost) == sorted(by_provider)
        search(page, "zz")  # five keys, one entry
        page.keyboard.type("zzz")
        assert visible_ids(page) == [] and "q=zzzzz" in page.url
        assert page.evaluate("history.length") == start + 3
        page.go_back()  # the search undone
        assert visible_ids(page) == by_cost and page.locator("#f-q").input_value() == ""
        page.go_back()  # the sort undone
        assert visible_ids(page) == by_provider
        assert page.locator("th[data-key=rank]").get_attribute("aria-sort") == "ascending"
        page.go_back()  # the filter undone: the page is still the leaderboard
        assert visible_ids(page) == everyone and urlsplit(page.url).query == ""
        assert page.locator("#f-provider").input_value() == ""
        page.go_forward()
        assert visible_ids(page) == by_provider
        assert page.locator("#f-provider").input_value() == provider
    finally:
        page.close()


def test_compare_takes_names_and_aliases_and_says_what_it_skipped(
    browser: Any, served: Served, api_models: list[Model]
) -> None:
    """A display name and an alias find their models; a junk id is skipped with a note, and
    a fifth model is left out with a note, not silently."""
    ranked = [m for m in api_models if m.rank is not None]
    named = ranked[1]
    aliased = next(m for m in ranked if any(a not in (m.name, m.id) for a in m.names))
    alias = next(a for a in aliased.names if a not in (aliased.name, aliased.id))
    rest = [m for m in ranked if m not in (named, aliased)][:3]
    asked = [named.name, alias, "no-such-model", ",".join(m.id for m in rest)]
    query = urlencode([("m", value) for value in asked])
    page, seen = visit(browser, f"{served.base_url}/compare/?{query}")
    try:
        page.wait_for_selector("#compare-table")
        shown = [named, aliased, *rest[:2]]
        heads = page.locator("#compare-table thead th").all_inner_texts()
        assert heads == ["Model", *(m.name for m in shown)]
        note = page.locator("#compare-note").inner_text()
        assert "not a published model: no-such-model." in note
        assert f"left out {rest[2].id}." in note
        selects = [page.locator(f"#compare-{i}").input_value() for i in range(1, 5)]
        assert selects == [m.id for m in shown]
        assert seen.console_errors == [] and seen.failed == []
    finally:
        page.close()


def test_controls_are_reached_by_tab_and_show_focus(browser: Any, served: Served) -> None:
    page, _ = visit(browser, served.base_url + "/")
    try:
        page.focus("#f-q")
        order: list[str] = []
        for _ in range(13):  # the date field takes three stops (month, day, year)
            page.keyboard.press("Tab")
            focused = page.evaluate("document.activeElement.id")
            if not order or order[-1] != focused:
                order.append(focused)
        fields = ["f-provider", "f-open", "f-after", "f-composite", "f-evidence", "f-provisional"]
        assert order[:8] == [*fields, "f-reset", "compare-link"]
        outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
        assert outline == "solid"  # :focus-visible
        for field in ("f-q", "f-provider", "f-open", "f-after", "f-composite", "f-evidence"):
            assert page.locator(f"label[for={field}]").count() == 1
    finally:
        page.close()


def test_on_a_phone_the_filters_fold_behind_a_button(browser: Any, served: Served) -> None:
    page, _ = visit(browser, served.base_url + "/", width=390, height=844)
    try:
        more = page.locator("#f-more")
        assert page.locator("#f-q").is_visible() and not page.locator("#f-provider").is_visible()
        assert more.get_attribute("aria-expanded") == "false"
        press(page, "#f-more", "Enter")
        assert more.get_attribute("aria-expanded") == "true"
        assert page.locator("#f-provider").is_visible() and page.locator("#f-reset").is_visible()
    finally:
        page.close()
    page, _ = visit(browser, served.base_url + "/?open=open", width=390, height=844)
    try:  # a shared view with a filter set opens with the filters shown
        assert page.locator("#f-open").is_visible()
    finally:
        page.close()
    page, _ = visit(browser, served.base_url + "/")
    try:  # wide enough for all of them: no button
        assert not page.locator("#f-more").is_visible() and page.locator("#f-open").is_visible()
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


# --- charts: every point named, Tab moves through them ----------------------------------


def test_model_charts_name_every_point_and_tab_moves_through_them(
    browser: Any, served: Served, api_models: list[Model]
) -> None:
    model = api_models[0]
    detail = api_json(served, f"models/{model.id}")
    estimated = [d for d in detail["dimensions"].values() if d["iq"] is not None]
    page, seen = visit(browser, f"{served.base_url}/models/{model.id}/")
    try:
        dims = page.locator("svg.chart[aria-details=dimension-table] .pt")
        months = page.locator("svg.chart[aria-details=history-chart-data] .pt")
        assert dims.count() == len(estimated) and months.count() > 1
        for marks in (dims, months):
            labels = marks.evaluate_all("gs => gs.map(g => g.getAttribute('aria-label'))")
            marks.first.focus()
            reached = []
            for _ in labels:
                reached.append(page.evaluate("document.activeElement.getAttribute('aria-label')"))
                page.keyboard.press("Tab")
            assert reached == labels and all(labels)
        labels = dims.evaluate_all("gs => gs.map(g => g.getAttribute('aria-label'))")
        # the name Chromium's accessibility tree gives the mark, as a screen reader hears it
        assert page.get_by_role("img", name=labels[0], exact=True).count() == 1
        assert page.get_by_role("group", name=f"Dimensions of {model.name}").count() == 1
        dims.first.focus()  # a visible ring: the focused mark's stroke changes
        stroke = dims.first.locator("circle").evaluate("c => getComputedStyle(c).stroke")
        assert stroke == "rgb(221, 107, 32)"
        assert seen.console_errors == []
    finally:
        page.close()


# --- axe-core ------------------------------------------------------------------------------

AXE = REPO / ".tools/axe/node_modules/axe-core/axe.min.js"


def axe_violations(page: Any) -> list[str]:
    """axe-core's serious and critical violations on the page as it is now."""
    page.evaluate(AXE.read_text(encoding="utf-8"))  # run by the browser: a script tag would
    # be inline, which the pages' Content-Security-Policy refuses
    result = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes'][:3]]}"
        for v in result["violations"]
        if v["impact"] in ("serious", "critical")
    ]


def test_axe_finds_no_serious_violation_on_any_page_type(browser: Any, served: Served) -> None:
    """One page of each of the page types (`page_types`: 21, the 404 page among them), in one
    tab; the leaderboard with a sort and a pick applied, as a visitor leaves it."""
    if not AXE.is_file():
        pytest.fail("axe-core missing: run scripts/install_tools.sh (scripts/tools/axe)")
    found = {}
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    try:
        for kind, path in page_types(served).items():
            with revisit(page, served.base_url + path, 404 if kind == "404" else 200):
                if kind == "compare":
                    page.wait_for_selector("#compare-table")
                if kind == "landing":
                    press(page, "th[data-key=iq] button", "Enter")
                    press(page, "input.pick >> nth=0", "Space")
                found[kind] = axe_violations(page)
    finally:
        page.close()
    assert len(found) == 21
    assert {kind: v for kind, v in found.items() if v} == {}


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
