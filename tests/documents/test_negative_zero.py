"""`-0.0` in the data is published as zero everywhere a number is published: the JSON
documents, the CSV downloads and the pages (never `-0.0`, `-0`, `$-0.00`; issue 23)."""

from __future__ import annotations

import csv
import io
import json
import re
import shutil
from pathlib import Path

import pytest
from support.paths import FIXTURE_DATA

from generator.api.urls import SiteConfig
from generator.build import build_site

EDITS = {  # a zero written with its sign, in each kind of numeric field
    "models/alpha-2.toml": [("input = 2.0", "input = -0.0")],  # a price
    "models/beta-1.toml": [("input = 0.0", "input = -0.0"), ("output = 0.0", "output = -0.0")],
    "benchmarks/arc-agi-1.toml": [
        ("min_value = 0.0", "min_value = -0.0"),  # a bound
        ("ladder = [0.0,", "ladder = [-0.0,"),  # a ladder point
    ],
    "benchmarks/gpqa-diamond.toml": [("min_value = 0.0", "min_value = -0.0")],
    "domains/coding.toml": [("score = 20.0", "score = -0.0")],  # a domain result
}
NEGATIVE_ZERO_TEXT = re.compile(r"(?<![\w.\-])-0(?:[.,]0*)?(?![\d.,]*[1-9])(?![\w])")


@pytest.fixture(scope="module")
def signed_zero_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("negative-zero")
    data = root / "data"
    shutil.copytree(FIXTURE_DATA, data)
    for rel, edits in EDITS.items():
        path = data / rel
        text = path.read_text(encoding="utf-8")
        for old, new in edits:
            assert text.count(old) == 1, (rel, old)
            text = text.replace(old, new)
        path.write_text(text, encoding="utf-8")
    # a result of exactly zero on a benchmark whose bound is -0.0
    path = data / "models/alpha-1.toml"
    text = path.read_text(encoding="utf-8")
    at = text.index('benchmark = "arc-agi-1"')
    start = text.index("value = ", at)
    end = text.index("\n", start)
    path.write_text(text[:start] + "value = -0.0" + text[end:], encoding="utf-8")
    out = root / "site_out"
    build_site(data, out, SiteConfig())
    return out


def _negative_zero_number(token: str) -> float:
    value = float(token)
    assert not (value == 0 and token.startswith("-")), f"published {token}"
    return value


def test_no_json_document_holds_a_negative_zero(signed_zero_site: Path) -> None:
    documents = [p for p in (signed_zero_site / "api").rglob("*") if p.is_file()]
    assert len(documents) > 20
    for path in documents:
        json.loads(
            path.read_bytes(), parse_float=_negative_zero_number, parse_int=_negative_zero_number
        )
    model = json.loads((signed_zero_site / "api/v1/models/alpha-2").read_bytes())
    assert model["cost"]["inputPer1M"] == 0.0  # the zero price is there, unsigned


def test_no_csv_cell_is_a_negative_zero(signed_zero_site: Path) -> None:
    for path in signed_zero_site.rglob("*.csv"):
        for row in csv.reader(io.StringIO(path.read_text(encoding="utf-8"), newline="")):
            assert not any(re.fullmatch(r"-0(\.0*)?", cell) for cell in row), (path, row)


def test_no_page_shows_a_negative_zero(signed_zero_site: Path) -> None:
    pages = [*signed_zero_site.rglob("*.html"), signed_zero_site / "feed.atom"]
    for path in pages:
        text = path.read_text(encoding="utf-8")
        assert "$-0" not in text, path
        assert not NEGATIVE_ZERO_TEXT.search(text), (path, NEGATIVE_ZERO_TEXT.search(text))


def test_no_page_of_the_shipped_site_shows_a_negative_zero(shipped_site: Path) -> None:
    """The shipped data holds a coverage adjustment of -0.02 (gpt-5.4-nano in finance),
    which the domain page printed as `-0.0`: every signed or fixed number goes through a
    filter that prints a zero without a sign (`+0.0`)."""
    pages = [*shipped_site.rglob("*.html"), shipped_site / "feed.atom"]
    assert len(pages) > 100
    for path in pages:
        text = path.read_text(encoding="utf-8")
        for bad in ("+-0", "\u22120", "$-0"):
            assert bad not in text, (path, bad)
        assert not NEGATIVE_ZERO_TEXT.search(text), (path, NEGATIVE_ZERO_TEXT.search(text))
    finance = (shipped_site / "domains/finance/index.html").read_text(encoding="utf-8")
    assert '<td class="num">+0.0</td>' in finance
