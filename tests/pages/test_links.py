"""Zero broken links: every href/src of every page and every url field of every JSON file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.documents import BASE, sample_documents
from support.paths import SHIPPED_BASE_URL
from support.sitecheck import BuiltSite, broken_links, external_loads, reachable

from generator.api.files import FEED_FILE
from generator.api.hosting import RedirectRule, parse_redirects
from generator.api.urls import DEFAULT_BASE_URL, SiteConfig
from generator.documents.downloads import download_jobs
from generator.documents.feed import render_feed
from generator.pages.render import render_pages


@pytest.fixture(scope="module")
def sample_site(tmp_path_factory: pytest.TempPathFactory) -> BuiltSite:
    root = tmp_path_factory.mktemp("sample_site")
    documents = sample_documents()
    config = SiteConfig(base_url=BASE)
    files = render_pages(documents, config)
    files.update((job.path, job.make()) for job in download_jobs(documents))
    files[FEED_FILE] = render_feed(documents, config)
    for path, data in files.items():
        target = root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    return BuiltSite(root, BASE)


def test_sample_pages_link_only_to_existing_pages(sample_site: BuiltSite) -> None:
    # the sample has no API files nor badges: links into them are checked on the real build
    assert broken_links(sample_site, skip_prefixes=("api/", "badges/")) == []


def test_pages_load_nothing_from_outside(sample_site: BuiltSite) -> None:
    assert external_loads(sample_site) == []


def test_checker_reports_a_missing_page_and_a_missing_anchor(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "index.html").write_text(
        '<a href="../b/">b</a> <a href="../#nowhere">x</a> <a href="https://elsewhere.org/">e</a>'
    )
    (tmp_path / "index.html").write_text('<p id="here">home</p>')
    problems = broken_links(BuiltSite(tmp_path, BASE))
    assert problems == [
        f"a/index.html: {BASE}/b/ resolves to no file",
        f"a/index.html: {BASE}/#nowhere has no element with id 'nowhere'",
    ]


def test_checker_follows_rewrites_and_json_url_fields(tmp_path: Path) -> None:
    (tmp_path / "api" / "v1").mkdir(parents=True)
    (tmp_path / "api" / "v1" / "models.json").write_text(
        f'{{"models": [{{"url": "{BASE}/api/v1/models"}}, {{"modelUrl": "{BASE}/x/"}}]}}'
    )
    (tmp_path / "_redirects").write_text("/api/v1/models /api/v1/models.json 200\n")
    assert broken_links(BuiltSite(tmp_path, BASE)) == [
        f"api/v1/models.json: {BASE}/x/ resolves to no file"
    ]


@pytest.fixture(scope="module")
def shipped(shipped_site: Path) -> BuiltSite:
    """The shipped data/ built under a base URL with a path prefix (see conftest)."""
    return BuiltSite(shipped_site, SHIPPED_BASE_URL)


def test_fixture_build_has_no_broken_links(built_site: Path) -> None:
    site = BuiltSite(built_site, DEFAULT_BASE_URL)
    assert broken_links(site) == []
    assert site.checked > 500


def test_shipped_build_has_no_broken_links_under_a_path_prefix(shipped: BuiltSite) -> None:
    assert broken_links(shipped) == []
    assert external_loads(shipped) == []
    assert shipped.checked > 5000


def test_the_frontier_chart_and_every_snapshot_are_reached_from_the_landing_page(
    shipped: BuiltSite,
) -> None:
    found = reachable(shipped)
    # landing -> charts gallery -> the chart's share page -> its PNG preview
    assert {"charts/frontier-over-time/index.html", "charts/frontier-over-time.png"} <= found
    # landing -> history -> each snapshot's page, JSON and CSV
    snapshots = json.loads((shipped.root / "api/v1/history.json").read_bytes())["snapshots"]
    for date in (s["date"] for s in snapshots):
        assert {
            f"history/{date}/index.html",
            f"api/v1/history/{date}",
            f"downloads/history/{date}.csv",
        } <= found, date


def test_every_json_url_field_is_a_page_or_file(shipped: BuiltSite) -> None:
    # the model list's `url` fields are the profile pages, one per model
    models = json.loads((shipped.root / "api/v1/models.json").read_bytes())["models"]
    for model in models:
        page = shipped.resolve(model["url"])
        assert page == shipped.root / "models" / model["id"] / "index.html"


def test_unknown_pages_fall_back_to_the_html_404(built_site: Path) -> None:
    rules = parse_redirects((built_site / "_redirects").read_text())
    assert rules[-1] == RedirectRule("/*", "/404.html", 404, False)
    assert (built_site / "404.html").read_text().count("<h1>Page not found</h1>") == 1
