"""The loader stays inside data/ and refuses values that cannot be drawn or stored.

Every case is a hostile change a pull request could make; `modelscores check` must answer
with exactly the expected problem lines and exit 1, and never name or quote anything that
lives outside data/ (a file's contents, its key names, a directory listing).
"""

from __future__ import annotations

import datetime as dt
import os
import shutil
import tomllib
from collections.abc import Callable
from pathlib import Path

import msgspec
import pytest
from click.testing import CliRunner

from generator.cli import cli
from generator.input.load import load_dataset
from generator.input.records import Effort, Slug, Url

FIXTURE = Path(__file__).resolve().parents[1] / "data"
SECRET = "OUTSIDE_SECRET_TOKEN"
SECRET_KEY = "aws_secret_access_key"
SYMLINK = "a symbolic link (data/ holds only regular files and folders)"
NOT_REGULAR = "not a regular file (data/ holds only regular files and folders)"

Edit = Callable[[Path, Path], None]
"""An edit of (the data copy, a directory outside it holding a secret)."""


def _outside(tmp_path: Path) -> Path:
    """A directory beside data/ with a model-shaped file and a credentials-style file."""
    outside = tmp_path / "outside"
    outside.mkdir()
    model = (FIXTURE / "models" / "alpha-1.toml").read_text(encoding="utf-8")
    (outside / "alpha-9.toml").write_text(
        model.replace('"alpha-1"', '"alpha-9"').replace("Alpha 1", SECRET), encoding="utf-8"
    )
    (outside / "credentials.toml").write_text(f'{SECRET_KEY} = "{SECRET}"\n', encoding="utf-8")
    return outside


def link(rel: str, target: str) -> Edit:
    def edit(data: Path, outside: Path) -> None:
        path = data / rel
        if path.is_dir():
            shutil.rmtree(path)
        else:
            path.unlink(missing_ok=True)
        path.symlink_to(outside / target)

    return edit


def fifo(rel: str) -> Edit:
    def edit(data: Path, outside: Path) -> None:
        os.mkfifo(data / rel)

    return edit


def replace(rel: str, old: str, new: str) -> Edit:
    def edit(data: Path, outside: Path) -> None:
        path = data / rel
        text = path.read_text(encoding="utf-8")
        assert old in text, (rel, old)
        path.write_text(text.replace(old, new, 1), encoding="utf-8")

    return edit


A1 = "models/alpha-1.toml"
CASES: list[tuple[str, Edit, list[str]]] = [
    (
        "symlinked-model-file",
        link("models/alpha-9.toml", "alpha-9.toml"),
        [f"data/models/alpha-9.toml: file: {SYMLINK}"],
    ),
    (
        "symlink-to-credentials",
        link("models/alpha-1.toml", "credentials.toml"),
        # the id check of other files still names the (missing) model, never the key
        [f"data/models/alpha-1.toml: file: {SYMLINK}"],
    ),
    (
        "symlinked-folder",
        link("charts", "."),
        [f"data/charts: directory: {SYMLINK}"],
    ),
    (
        "symlinked-methodology",
        link("methodology.toml", "credentials.toml"),
        [f"data/methodology.toml: file: {SYMLINK}"],
    ),
    (
        "fifo-in-models",
        fifo("models/alpha-9.toml"),
        [f"data/models/alpha-9.toml: file: {NOT_REGULAR}"],
    ),
    (
        "id-with-trailing-newline",
        replace(A1, 'id = "alpha-1"', 'id = "alpha-1\\n"'),
        [
            "data/models/alpha-1.toml: id: must be a slug: 1 to 64 of a-z, 0-9, '.', '_', '-',"
            ' starting and ending with a letter or digit (value: "alpha-1\\n")'
        ],
    ),
    (
        "control-character-in-name",
        replace(A1, 'name = "Alpha 1"', 'name = "Alpha\\u0001 1"'),
        ["data/models/alpha-1.toml: name: control character U+0001 in text"],
    ),
    (
        "control-character-in-chart-title",
        replace("charts/iq-distribution.toml", 'title = "', 'title = "\\u001b[31m'),
        ["data/charts/iq-distribution.toml: title: control character U+001B in text"],
    ),
    (
        "release-in-year-9999",
        replace(A1, "release_date = 2025-06-01", "release_date = 9999-12-01"),
        ["data/models/alpha-1.toml: release_date: date 9999-12-01 is after 2099"],
    ),
    (
        "huge-parameter-count",
        replace(A1, "parameters_b = 100.0", "parameters_b = 1.7e308"),
        [
            "data/models/alpha-1.toml: parameters_b: number out of range"
            " (1.7e+308; every number is 0 or 1e-12..1e12 in size)"
        ],
    ),
    (
        "tiny-price",
        replace(A1, "input = 1.0", "input = 5e-324"),
        [
            "data/models/alpha-1.toml: prices.input: number out of range"
            " (4.94e-324; every number is 0 or 1e-12..1e12 in size)"
        ],
    ),
    (
        "control-character-in-a-key",
        replace(A1, "open_weights = false", 'open_weights = false\n"x\\u0007" = 1'),
        ["data/models/alpha-1.toml: x\\x07: control character U+0007 in a key"],
    ),
]


@pytest.mark.parametrize(("edit", "expected"), [pytest.param(e, x, id=n) for n, e, x in CASES])
def test_hostile_change_is_one_line_and_names_nothing_outside(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, edit: Edit, expected: list[str]
) -> None:
    shutil.copytree(FIXTURE, tmp_path / "data")
    edit(tmp_path / "data", _outside(tmp_path))
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["check", "--data-dir", "data"])
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    noun = "data error" if len(expected) == 1 else "data errors"
    assert result.output.splitlines() == [*expected, f"Aborted: {len(expected)} {noun}"]
    for word in (SECRET, SECRET_KEY, "credentials", "outside"):
        assert word not in result.output


def test_data_dir_that_is_a_symlink_is_refused(tmp_path: Path) -> None:
    shutil.copytree(FIXTURE, tmp_path / "real")
    (tmp_path / "data").symlink_to(tmp_path / "real")
    result = CliRunner().invoke(cli, ["check", "--data-dir", str(tmp_path / "data")])
    assert result.output.splitlines() == [
        f"{tmp_path / 'data'}: directory: {SYMLINK}",
        "Aborted: 1 data error",
    ]


def test_file_name_with_a_newline_stays_on_one_line(tmp_path: Path) -> None:
    shutil.copytree(FIXTURE, tmp_path / "data")
    (tmp_path / "data" / "models" / "x\ny.txt").write_text("", encoding="utf-8")
    result = CliRunner().invoke(cli, ["check", "--data-dir", str(tmp_path / "data")])
    assert result.output.splitlines() == [
        f"{tmp_path / 'data'}/models/x\\ny.txt: file: not a .toml data file",
        "Aborted: 1 data error",
    ]


def test_updated_is_normalised_to_utc(tmp_path: Path) -> None:
    shutil.copytree(FIXTURE, tmp_path / "data")
    # 2026-01-09T20:00:00-05:00 is 2026-01-10T01:00:00Z
    replace(A1, "updated = 2026-01-10T00:00:00Z", "updated = 2026-01-09T20:00:00-05:00")(
        tmp_path / "data", tmp_path
    )
    model = next(m for m in load_dataset(tmp_path / "data").models if m.id == "alpha-1")
    assert model.updated == dt.datetime(2026, 1, 10, 1, tzinfo=dt.UTC)
    assert model.updated.utcoffset() == dt.timedelta(0)
    assert model.updated.tzinfo is dt.UTC


@pytest.mark.parametrize("annotated", [Slug, Url, Effort])
def test_patterns_match_whole_strings(annotated: object) -> None:
    good = {Slug: "alpha-1", Url: "https://example.org/a", Effort: "high"}[annotated]
    assert msgspec.convert(good, type=annotated) == good
    for bad in (good + "\n", "\n" + good):
        with pytest.raises(msgspec.ValidationError):
            msgspec.convert(bad, type=annotated)


def test_toml_writer_quotes_a_key_with_a_trailing_newline() -> None:
    from generator.importers.toml_writer import dumps

    assert tomllib.loads(dumps({"x\n": 1})) == {"x\n": 1}
