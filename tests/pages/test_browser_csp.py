"""The pages under their Content-Security-Policy in real headless Chromium: every page type
loads without a violation, the policy is the one `_headers` sets, the leaderboard still sorts,
filters and opens the compare view, and no page can be framed (tests/support/browser.py)."""

from __future__ import annotations

from typing import Any

import pytest
from support.browser import Served, page_types, visit

from generator.api.hosting import CONTENT_SECURITY_POLICY

pytestmark = pytest.mark.slow

WATCH = (
    "window.__violations = [];"
    "document.addEventListener('securitypolicyviolation', e =>"
    " window.__violations.push(e.violatedDirective + ' ' + e.blockedURI));"
)
"""Recorded from the page's first script on (an init script runs whatever the policy)."""


class _Watching:
    """A browser whose new pages record every policy violation in `window.__violations`."""

    def __init__(self, browser: Any) -> None:
        self.browser = browser

    def new_page(self, **options: Any) -> Any:
        context = self.browser.new_context(**options)
        context.add_init_script(WATCH)
        return context.new_page()


def watched(browser: Any, url: str, status: int = 200) -> tuple[Any, Any]:
    """`visit` in a context of its own that records policy violations."""
    return visit(_Watching(browser), url, status=status)


NOT_FOUND = "Failed to load resource: the server responded with a status of 404"


def violations(page: Any) -> list[str]:
    return list(page.evaluate("window.__violations"))


def test_every_page_type_loads_under_the_policy_without_a_violation(
    browser: Any, served: Served
) -> None:
    types = page_types(served)
    assert len(types) >= 20
    for kind, path in types.items():
        status = 404 if kind == "404" else 200
        page, seen = watched(browser, served.base_url + path, status)
        try:
            if kind == "compare":
                page.wait_for_selector("#compare-table")  # its script fetched the API
            response = page.request.get(served.base_url + path)
            assert response.headers["content-security-policy"] == CONTENT_SECURITY_POLICY
            assert response.headers["x-frame-options"] == "DENY"
            assert violations(page) == [], kind
            expected = [f"{NOT_FOUND} (Not Found)"] if status == 404 else []
            assert seen.console_errors == expected and seen.failed == [], kind
        finally:
            page.context.close()


def test_an_inline_script_is_refused_and_seen(browser: Any, served: Served) -> None:
    """The check above can fail: a planted inline script is a violation, and it does not run."""
    page, _ = watched(browser, served.base_url + "/")
    try:
        page.evaluate(
            "document.body.append(Object.assign(document.createElement('script'),"
            " {textContent: 'window.__ran = true'}))"
        )
        page.wait_for_function("window.__violations.length > 0")
        assert violations(page)[0].startswith("script-src")
        assert page.evaluate("window.__ran === undefined")
    finally:
        page.context.close()


def test_no_page_can_be_framed(browser: Any, served: Served) -> None:
    """Another site's page (here one without a policy of its own) framing a page of the site
    gets an error page in the frame: `frame-ancestors 'none'`."""
    page = browser.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    try:
        page.set_content(f'<iframe id="framed" src="{served.base_url}/methodology/"></iframe>')
        frame = page.wait_for_selector("#framed").content_frame()
        page.wait_for_timeout(500)
        assert frame is not None and frame.url.startswith("chrome-error:")  # not the page
        assert any("frame-ancestors" in e for e in errors), errors
    finally:
        page.close()


def test_the_leaderboard_sorts_filters_and_compares_under_the_policy(
    browser: Any, served: Served
) -> None:
    page, seen = watched(browser, served.base_url + "/")
    rows = "#leaderboard-table tbody tr:not([hidden])"
    try:
        ids = page.eval_on_selector_all(rows, "rs => rs.map(r => r.dataset.id)")
        page.focus("th[data-key=name] button")
        page.keyboard.press("Enter")
        by_name = page.eval_on_selector_all(rows, "rs => rs.map(r => r.dataset.id)")
        assert sorted(by_name) == sorted(ids) and by_name != ids
        assert page.url.endswith("?sort=name&dir=asc")
        page.focus("#f-q")
        page.keyboard.type(ids[0])
        shown = page.eval_on_selector_all(rows, "rs => rs.map(r => r.dataset.id)")
        assert ids[0] in shown and len(shown) < len(ids)
        page.focus("#f-q")
        page.keyboard.press("Control+a")
        page.keyboard.press("Backspace")
        for model_id in ids[:2]:
            page.focus(f"input.pick[value='{model_id}']")
            page.keyboard.press("Space")
        page.focus("#compare-link")
        page.keyboard.press("Enter")
        page.wait_for_selector("#compare-table")
        heads = page.locator("#compare-table thead th").all_inner_texts()
        assert len(heads) == 3  # "Model" and the two picked
        assert violations(page) == [] and seen.console_errors == []
    finally:
        page.context.close()
