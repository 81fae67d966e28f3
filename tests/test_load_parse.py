"""`parse_toml`: rtoml for speed, with exactly tomllib's values and tomllib's error messages."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from generator.input.load import parse_toml

ROOT = Path(__file__).resolve().parent.parent
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


def test_syntax_error_is_tomllib_s() -> None:
    text = "a = 1\nb = \n"
    with pytest.raises(tomllib.TOMLDecodeError) as expected:
        tomllib.loads(text)
    with pytest.raises(tomllib.TOMLDecodeError) as got:
        parse_toml(text)
    assert str(got.value) == str(expected.value)
