"""One identity per model: a result is its own model's (not dated long before its release:
METHODOLOGY.md 1.2), checked by `check` and applied by the importer."""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import cli
from generator.importers.collect import Observation
from generator.importers.releases import refuse_early, release_disagreements
from generator.importers.upstream import UpstreamRow
from generator.input.load import load_dataset

FIXTURE = Path(__file__).resolve().parents[1] / "data"
# alpha-1 is released 2025-06-01; its first result is dated 2026-01-10.
FIRST = 'source_url = "https://example.org/arc"\nas_of = 2026-01-10\n'


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    shutil.copytree(FIXTURE, tmp_path / "data")
    monkeypatch.chdir(tmp_path)
    return tmp_path / "data"


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, 1))


def _check_lines() -> list[str]:
    result = CliRunner().invoke(cli, ["check", "--data-dir", "data"])
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    return result.output.splitlines()[:-1]


def test_a_result_31_days_before_release_is_refused_in_one_line(data: Path) -> None:
    model = data / "models" / "alpha-1.toml"
    # 2025-05-01 is 31 days before 2025-06-01: over the 30-day bound
    _edit(model, FIRST, FIRST.replace("2026-01-10", "2025-05-01"))
    assert _check_lines() == [
        "data/models/alpha-1.toml: results[0].as_of: 2025-05-01 is more than 30 days before"
        " the model's release 2025-06-01: another model's result (pin it with a `note`"
        " saying why it is this model's)"
    ]


def test_30_days_before_release_is_the_models_own(data: Path) -> None:
    model = data / "models" / "alpha-1.toml"
    # 2025-05-02 is 30 days before 2025-06-01 (a preview run): allowed
    _edit(model, FIRST, FIRST.replace("2026-01-10", "2025-05-02"))
    assert load_dataset(data).models[0].results[0].as_of == dt.date(2025, 5, 2)


def test_a_pinned_result_with_a_reason_is_kept(data: Path) -> None:
    model = data / "models" / "alpha-1.toml"
    early = FIRST.replace("2026-01-10", "2025-01-01")
    _edit(model, FIRST, early + "pinned = true\n")
    assert "results[0].as_of: 2025-01-01 is more than 30 days" in _check_lines()[0]  # no reason
    _edit(model, "pinned = true\n", 'pinned = true\nnote = "the lab ran it on the final model"\n')
    assert load_dataset(data).models[0].results[0].pinned


def _obs(model: str, day: dt.date | None) -> Observation:
    row = UpstreamRow(key=f"{model}-key", row_id="r1", file="f.csv", date=day, url=None, values={})
    return Observation("hub", "Hub", "arc-agi-1", None, model, 0.5, row, None, None, "https://x")


def test_the_importer_refuses_rows_dated_long_before_release() -> None:
    released = {"m": dt.date(2025, 9, 5)}
    rows = [
        _obs("m", dt.date(2025, 7, 17)),  # 50 days before: refused
        _obs("m", dt.date(2025, 8, 6)),  # 30 days before: kept
        _obs("m", None),  # no date of its own (not-before the release): kept
        _obs("other", dt.date(2020, 1, 1)),  # a model without a release date: kept
    ]
    kept, refused = refuse_early(rows, released)
    assert [o.row.date for o in kept] == [dt.date(2025, 8, 6), None, dt.date(2020, 1, 1)]
    assert refused == [
        "m: arc-agi-1: hub row 'r1' (m-key, 2025-07-17) is more than 30 days before the"
        " release 2025-09-05: another model's result, refused"
    ]


def test_a_settled_release_date_states_its_source_and_reason(data: Path) -> None:
    model = data / "models" / "alpha-1.toml"
    _edit(
        model,
        "release_date = 2025-06-01\n",
        'release_date = 2025-06-01\nrelease_date_source = "https://example.org/alpha-1"\n',
    )
    assert _check_lines() == [
        "data/models/alpha-1.toml: release_date_note: missing (a release date settled by hand"
        " states both its source and why)"
    ]
    _edit(model, 'alpha-1"\n', 'alpha-1"\nrelease_date_note = "the lab\'s announcement"\n')
    assert load_dataset(data).models[0].release_date_note == "the lab's announcement"


def test_release_dates_more_than_31_days_apart_are_listed_unless_settled() -> None:
    released = {"m": dt.date(2025, 12, 2), "n": dt.date(2025, 1, 1), "p": dt.date(2025, 1, 1)}
    claims = {
        "m": {"models-dev:mistral/m": dt.date(2024, 11, 1)},  # 396 days before: listed
        "n": {"epoch:n": dt.date(2025, 2, 1)},  # 31 days after: within the slack
        "p": {"epoch:p": dt.date(2026, 1, 1)},  # a year apart, but settled by hand
    }
    assert release_disagreements(released, {"p"}, claims) == [
        "m: release_date 2025-12-02; models-dev:mistral/m says 2024-11-01 (-396 days):"
        " correct it, or pin it with release_date_source and release_date_note"
    ]
