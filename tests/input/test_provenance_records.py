"""Sources and provenance fields in data/: `data/sources/<id>.toml`, `source`, `row_id`,
`as_of_kind`, `pinned` and a price's `as_of`, and the one-line problems they can raise."""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import cli
from generator.input.load import load_dataset

FIXTURE = Path(__file__).resolve().parents[1] / "data"

SOURCE = """\
id = "test-hub"
name = "Test Hub"
licence = "CC BY 4.0"
credit = "Test Hub, 'Benchmarks'"
homepage = "https://example.org/hub"
roles = ["results"]

[[files]]
path = "hub/arc.csv"
url = "https://example.org/hub/arc.csv"
format = "epoch-external"

[[feeds]]
benchmark = "arc-agi-1"
file = "hub/arc.csv"
column = "Score"

[[feeds]]
benchmark = "repo-fix"
domain = "coding"
file = "hub/arc.csv"
column = "Score"

[[models]]
key = "alpha-1_high"
model = "alpha-1"
effort = "high"

[[exclusions]]
key = "alpha-1-preview"
reason = "a different checkpoint"

[publish]
released_on_or_after = 2025-01-01
"""

ARC = 'source_url = "https://example.org/arc"\n'
# alpha-1's first result, given provenance from the source above.
PROVENANCE = """source_url = "https://example.org/arc"
as_of = 2026-01-10
source = "test-hub"
row_id = "row-17"
pinned = true
"""


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    shutil.copytree(FIXTURE, tmp_path / "data")
    (tmp_path / "data" / "sources").mkdir(exist_ok=True)
    (tmp_path / "data" / "sources" / "test-hub.toml").write_text(SOURCE)
    monkeypatch.chdir(tmp_path)
    return tmp_path / "data"


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, 1))


def _check_lines(data: Path) -> list[str]:
    result = CliRunner().invoke(cli, ["check", "--data-dir", "data"])
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    return result.output.splitlines()[:-1]


def test_sources_and_provenance_fields_load(data: Path) -> None:
    model = data / "models" / "alpha-1.toml"
    _edit(model, 'source_url = "https://example.org/arc"\nas_of = 2026-01-10\n', PROVENANCE)
    _edit(
        model,
        "as_of = 2026-01-12\n",
        "as_of = 2026-01-02\npinned = true\n",
    )
    dataset = load_dataset(data)
    source = next(s for s in dataset.sources if s.id == "test-hub")
    assert (source.id, source.credit, source.publish and source.publish.released_on_or_after) == (
        "test-hub",
        "Test Hub, 'Benchmarks'",
        dt.date(2025, 1, 1),
    )
    assert source.models[0].effort == "high"
    alpha = next(m for m in dataset.models if m.id == "alpha-1")
    first = alpha.results[0]
    assert (first.source, first.row_id, first.pinned, first.as_of_kind) == (
        "test-hub",
        "row-17",
        True,
        None,
    )
    assert alpha.prices.as_of == dt.date(2026, 1, 2) and alpha.prices.pinned


def test_a_not_before_date_is_the_release_date(data: Path) -> None:
    model = data / "models" / "alpha-1.toml"
    _edit(
        model, ARC + "as_of = 2026-01-10\n", ARC + 'as_of = 2025-06-01\nas_of_kind = "not-before"\n'
    )
    assert load_dataset(data).models[0].results[0].as_of_kind == "not-before"
    _edit(model, "as_of = 2025-06-01\n", "as_of = 2025-06-02\n")
    assert _check_lines(data) == [
        "data/models/alpha-1.toml: results[0].as_of: a 'not-before' date must be the"
        " model's release_date 2025-06-01, not 2025-06-02"
    ]


def test_unknown_source_and_unknown_keys_are_one_line_each(data: Path) -> None:
    model = data / "models" / "alpha-1.toml"
    _edit(model, ARC + "as_of = 2026-01-10\n", ARC + 'as_of = 2026-01-10\nsource = "test-hubb"\n')
    _edit(
        data / "sources" / "test-hub.toml",
        'reason = "a different checkpoint"',
        'reason = "a different checkpoint"\nwhy = "typo"',
    )
    lines = _check_lines(data)
    assert sorted(lines) == sorted(
        [
            "data/sources/test-hub.toml: exclusions[0].why: unknown field",
            "data/models/alpha-1.toml: results[0].source: unknown source 'test-hubb'"
            " (did you mean 'test-hub'?)",
        ]
    )


def test_a_source_names_known_benchmarks_files_and_models(data: Path) -> None:
    source = data / "sources" / "test-hub.toml"
    _edit(source, 'benchmark = "arc-agi-1"', 'benchmark = "arc-agi-9"')
    _edit(
        source, 'domain = "coding"\nfile = "hub/arc.csv"', 'domain = "coding"\nfile = "hub/x.csv"'
    )
    _edit(source, 'model = "alpha-1"', 'model = "alpha-9"')
    lines = _check_lines(data)
    assert sorted(lines) == sorted(
        [
            "data/sources/test-hub.toml: feeds[0].benchmark: unknown benchmark 'arc-agi-9'"
            " (did you mean 'arc-agi-1'?)",
            "data/sources/test-hub.toml: feeds[1].file: 'hub/x.csv' is not one of this"
            " source's files (did you mean 'hub/arc.csv'?)",
            "data/sources/test-hub.toml: models[0].model: unknown model 'alpha-9'"
            " (did you mean 'alpha-3', 'alpha-2', 'alpha-1'?)",
        ]
    )


def test_a_bad_as_of_kind_is_rejected(data: Path) -> None:
    model = data / "models" / "alpha-1.toml"
    _edit(model, ARC + "as_of = 2026-01-10\n", ARC + 'as_of = 2026-01-10\nas_of_kind = "guess"\n')
    (line,) = _check_lines(data)
    assert line.startswith("data/models/alpha-1.toml: results[0].as_of_kind: ")
    assert "'guess'" in line or "guess" in line
