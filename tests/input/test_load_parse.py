"""`parse_toml`: rtoml only, with tomllib's values and one bounded, one-line error."""

from __future__ import annotations

import time
import tomllib
from pathlib import Path

import pytest

from generator.input.load import TomlError, parse_toml

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted([*ROOT.glob("data/**/*.toml"), *ROOT.glob("tests/data/**/*.toml")])


def test_there_are_files_to_compare() -> None:
    assert len(FILES) > 50


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_same_values_as_tomllib(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert parse_toml(text) == tomllib.loads(text)


@pytest.mark.parametrize(
    "text",
    [
        "a = 1979-05-27T07:32:00Z\nb = 1979-05-27\nc = 07:32:00\nd = 1979-05-27T07:32:00",
        "a = 1_000\nb = 1e3\nc = -0.0\nd = 0x10\ne = 'lit'\nf = \"\\u00e9\"",
        "[t]\nx = [1.5, 2]\n[[t.rows]]\ny = true\n[t.rows.z]\nw = 'v'",
    ],
)
def test_same_values_for_every_toml_type(text: str) -> None:
    assert parse_toml(text) == tomllib.loads(text)


def test_syntax_error_is_one_line_with_line_and_column() -> None:
    with pytest.raises(TomlError) as got:
        parse_toml("a = 1\nb = \n")
    assert str(got.value) == (
        "line 2: invalid TOML: string values must be quoted, expected literal string (column 5)"
    )


@pytest.mark.parametrize(
    "text",
    [
        "[private]\n" + ".".join(["k"] * 40_000) + " = 1\n",  # tomllib: quadratic, ~56 s
        "a = " + "[" * 2_000_000 + "]" * 2_000_000,  # tomllib: RecursionError
        "[" + ".".join(["k"] * 40_000) + "]\nx = 1\n",
        "a = " + "{b = " * 300 + "1" + "}" * 300,
    ],
    ids=["long-dotted-key", "deep-array", "deep-table-header", "deep-inline-table"],
)
def test_hostile_nesting_is_refused_at_once(text: str) -> None:
    started = time.process_time()  # CPU, not wall: the bound holds on a busy machine too
    with pytest.raises(TomlError) as got:
        parse_toml(text)
    assert time.process_time() - started < 1.0  # a quadratic parser takes about 56 s
    assert "invalid TOML: nested too deeply (more than 16 levels)" in str(got.value)
    assert "\n" not in str(got.value)
