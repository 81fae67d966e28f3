"""Every upstream source (data/sources/*.toml) is credited as its licence asks: in
/methodology's `sources`, in the methodology page's "Sources and credits" section, and by a
footer link to that section on every page."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path
from urllib.parse import urljoin, urlsplit

from markupsafe import escape

from generator.api.urls import api_file

FIXTURE_SOURCES = Path(__file__).resolve().parents[1] / "data" / "sources"


def _sources(folder: Path) -> list[dict[str, object]]:
    return [tomllib.loads(p.read_text(encoding="utf-8")) for p in sorted(folder.glob("*.toml"))]


def _credited(site: Path, folder: Path) -> None:
    sources = _sources(folder)
    methodology = json.loads((site / api_file("/methodology")).read_bytes())
    assert methodology["sources"] == [
        {
            "id": s["id"],
            "name": s["name"],
            "licence": s["licence"],
            "credit": s["credit"],
            "url": s["homepage"],
        }
        for s in sorted(sources, key=lambda s: str(s["id"]))
    ]
    page = (site / "methodology" / "index.html").read_text(encoding="utf-8")
    section = page[page.index('<h2 id="sources">') : page.index('<h2 id="changelog">')]
    for s in sources:
        item = f">{escape(str(s['name']))}</a> ({escape(str(s['licence']))}): "
        item += f"{escape(str(s['credit']))}</li>"
        assert item in section, s["id"]
        assert f'href="{escape(str(s["homepage"]))}"' in section


def test_the_fixtures_source_is_credited_in_the_api_and_on_the_methodology_page(
    built_site: Path,
) -> None:
    assert [s["id"] for s in _sources(FIXTURE_SOURCES)] == ["example-hub"]
    _credited(built_site, FIXTURE_SOURCES)


def test_every_page_links_the_credits_from_its_footer(built_site: Path) -> None:
    pages = sorted(built_site.rglob("*.html"))
    assert len(pages) > 20
    for page in pages:
        html = page.read_text(encoding="utf-8")
        footer = html[html.index('<footer class="site-footer">') :]
        (href,) = re.findall(r'<a href="([^"]+)">Data sources and credits</a>', footer)
        at = page.relative_to(built_site).as_posix()
        target = urlsplit(urljoin(f"/{at}", href))  # 404.html links absolutely
        assert (target.path, target.fragment) == ("/methodology/", "sources"), at
    methodology = (built_site / "methodology" / "index.html").read_text(encoding="utf-8")
    assert '<h2 id="sources">' in methodology


def test_every_shipped_source_is_credited(shipped_site: Path) -> None:
    shipped = Path(__file__).resolve().parents[2] / "data" / "sources"
    assert len(_sources(shipped)) == 8
    _credited(shipped_site, shipped)
