"""CITATION.cff: valid Citation File Format 1.2.0 (its top-level schema, transcribed in
tests/schemas/cff-1.2.0.schema.json), naming the package's version and licence; and every
page's footer names the month-end snapshot to cite."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path
from typing import Any

import yaml
from jsonschema import Draft202012Validator
from support.paths import REPO

SCHEMA = json.loads((REPO / "tests/schemas/cff-1.2.0.schema.json").read_bytes())
VALIDATOR = Draft202012Validator(SCHEMA)


def _citation() -> dict[str, Any]:
    # CFF dates are strings: the YAML date type would be cast first (its schema's note).
    loaded: dict[str, Any] = yaml.load(
        (REPO / "CITATION.cff").read_text(encoding="utf-8"), Loader=yaml.BaseLoader
    )
    return loaded


def test_citation_cff_is_valid_cff_1_2() -> None:
    citation = _citation()
    errors = [e.message for e in VALIDATOR.iter_errors(citation)]
    assert errors == []
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    assert citation["version"] == project["version"]
    assert citation["license"] == project["license"]


def test_the_schema_refuses_what_cff_refuses() -> None:
    citation = _citation()
    assert not VALIDATOR.is_valid({**citation, "cff-version": "1.1.0"})
    assert not VALIDATOR.is_valid({**citation, "citation": "unknown key"})
    assert not VALIDATOR.is_valid({k: v for k, v in citation.items() if k != "authors"})
    assert not VALIDATOR.is_valid({**citation, "authors": [{"given": "A"}]})


def test_every_page_names_the_newest_snapshot_to_cite(built_site: Path) -> None:
    history = json.loads((built_site / "api/v1/history.json").read_bytes())
    newest = history["snapshots"][-1]["date"]
    pages = sorted(built_site.rglob("*.html"))
    assert len(pages) > 10
    line = re.compile(
        '<p class="cite" id="cite-this">Cite this: modelscores, month-end snapshot '
        rf'{newest}, <a href="[^"]*">http://127.0.0.1:8000/history/{newest}/</a>'
    )
    for page in pages:
        assert line.search(page.read_text(encoding="utf-8")), page.relative_to(built_site)
