"""The seed-data converter (scripts/convert_sources.py) and its TOML writer."""

from __future__ import annotations

import datetime as dt
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = ROOT / "scripts"
SOURCES = ROOT.parent / "shared" / "data-sources"
sys.path.insert(0, str(SCRIPTS))

from toml_writer import dumps  # noqa: E402


def test_writer_round_trips_through_tomllib() -> None:
    doc = {
        "id": "x",
        "text": 'quote " backslash \\ newline \n tab \t unicode é',
        "count": 3,
        "small": 1e-05,
        "whole": 2.0,
        "flag": False,
        "day": dt.date(2026, 1, 2),
        "stamp": dt.datetime(2026, 1, 2, tzinfo=dt.UTC),
        "missing": None,
        "empty": [],
        "tags": ["a", "b"],
        "private": {"notes": "kept last"},
        "table": {"inner": 1, "nested": {"deep": "yes"}},
        "items": [{"a": 1, "values": {"k": 0.5}}, {"a": 2}],
    }
    text = dumps(doc, header="generated")
    assert text.startswith("# generated\n")
    assert text.rstrip().endswith('[private]\nnotes = "kept last"')
    parsed = tomllib.loads(text)
    expected = {k: v for k, v in doc.items() if v is not None and v != []}
    assert parsed == expected


def test_writer_refuses_values_toml_or_the_data_cannot_hold() -> None:
    with pytest.raises(ValueError, match="non-finite"):
        dumps({"x": float("nan")})
    with pytest.raises(ValueError, match="UTC"):
        dumps({"x": dt.datetime(2026, 1, 1)})


def test_writer_puts_long_string_arrays_one_item_per_line() -> None:
    text = dumps({"rules": ["a" * 50, "b" * 50]})
    assert text == f'rules = [\n    "{"a" * 50}",\n    "{"b" * 50}",\n]\n'


@pytest.mark.skipif(not SOURCES.is_dir(), reason="the seed folder ../shared is not present")
def test_converter_reproduces_the_committed_data(tmp_path: Path) -> None:
    out = tmp_path / "data"
    for _ in range(2):  # twice into the same folder: stale files go, bytes stay
        subprocess.run(
            [
                sys.executable,
                str(SCRIPTS / "convert_sources.py"),
                "--sources",
                str(SOURCES),
                "--out",
                str(out),
            ],
            check=True,
            capture_output=True,
        )
    written = sorted(p.relative_to(out) for p in out.rglob("*.toml"))
    committed = sorted(p.relative_to(ROOT / "data") for p in (ROOT / "data").rglob("*.toml"))
    assert written == committed
    for relative in written:
        assert (out / relative).read_bytes() == (ROOT / "data" / relative).read_bytes(), relative
