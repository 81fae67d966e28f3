"""HTML validity (html5lib strict parse) and basic accessibility of every page type."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import pytest
from support.documents import BASE, sample_documents
from support.sitecheck import contrast_ratio, html_problems

from generator.api.urls import SiteConfig
from generator.pages.render import render_pages


@pytest.fixture(scope="module")
def pages() -> dict[str, bytes]:
    return render_pages(sample_documents(), SiteConfig(base_url=BASE))


PAGE_TYPES = [
    "index.html",
    "404.html",
    "models/alpha-1/index.html",
    "models/theta-8/index.html",
    "rankings/index.html",
    "rankings/composite-iq/index.html",
    "rankings/effective-cost/index.html",
    "rankings/reliability-iq/index.html",
    "benchmarks/index.html",
    "benchmarks/hle-calibration/index.html",
    "domains/index.html",
    "domains/finance/index.html",
    "charts/index.html",
    "charts/dimension-profiles/index.html",
    "methodology/index.html",
    "docs/index.html",
]


@pytest.mark.parametrize("path", PAGE_TYPES)
def test_page_is_valid_and_accessible(pages: dict[str, bytes], path: str) -> None:
    assert html_problems(pages[path].decode("utf-8"), path) == []


def test_every_sample_page_passes(pages: dict[str, bytes]) -> None:
    problems = [
        problem
        for path, data in pages.items()
        if path.endswith(".html")
        for problem in html_problems(data.decode("utf-8"), path)
    ]
    assert problems == []


def test_checker_catches_common_mistakes() -> None:
    bad = (
        "<!doctype html><html><head><title>x</title></head><body>"
        "<h1>a</h1><h1>b</h1><img src=x.png><table><tr><td>1</td></tr></table>"
        '<svg xmlns="http://www.w3.org/2000/svg"></svg><a href="/x"></a></body></html>'
    )
    problems = "\n".join(html_problems(bad, "bad.html"))
    for expected in (
        "no lang",
        "exactly one <h1>",
        "has no alt",
        "no <caption>",
        "no <th>",
        "role=img",
        "link has no text",
        "no <main> landmark",
    ):
        assert expected in problems
    assert "parse error" in html_problems("<p>unclosed <b>", "x")[0]


def test_stylesheet_colours_have_enough_contrast(pages: dict[str, bytes]) -> None:
    css = pages["static/site.css"].decode()
    colours = dict(re.findall(r"--([a-z-]+): (#[0-9a-f]{6});", css))
    pairs = [
        ("ink", "bg"),
        ("muted", "bg"),
        ("muted", "panel"),
        ("accent", "bg"),
        ("accent", "panel"),
        ("warn", "warn-bg"),
        ("ok", "ok-bg"),
    ]
    for fg, bg in pairs:
        assert contrast_ratio(colours[fg], colours[bg]) >= 4.5, (fg, bg)


def _site_problems(root: Path) -> tuple[int, list[str]]:
    pages = sorted(root.rglob("*.html"))
    problems = [
        problem
        for page in pages
        for problem in html_problems(page.read_text(encoding="utf-8"), str(page.relative_to(root)))
    ]
    return len(pages), problems


def test_every_page_of_the_fixture_build_passes(built_site: Path) -> None:
    count, problems = _site_problems(built_site)
    assert problems == []
    assert count > 20


def test_every_page_of_the_shipped_build_passes(shipped_site: Path) -> None:
    count, problems = _site_problems(shipped_site)
    assert problems == []
    assert count > 100


HOME_PAGE_BUDGET = 60_000  # bytes of HTML + CSS + JS, each gzipped (docs/PAGES.md)


def home_page_weight(root: Path) -> dict[str, int]:
    """The landing page and every stylesheet and script it loads: file to gzipped bytes
    (level 6, what a host's on-the-fly compression gives)."""
    html = (root / "index.html").read_text(encoding="utf-8")
    loaded = re.findall(r'<link rel="stylesheet" href="([^"]+)"|<script src="([^"]+)"', html)
    files = ["index.html", *(css or js for css, js in loaded)]
    return {name: len(gzip.compress((root / name).read_bytes(), 6, mtime=0)) for name in files}


def test_the_home_page_weighs_under_its_budget(shipped_site: Path) -> None:
    weight = home_page_weight(shipped_site)
    assert set(weight) == {"index.html", "static/site.css", "static/site.js"}
    assert sum(weight.values()) < HOME_PAGE_BUDGET, weight
