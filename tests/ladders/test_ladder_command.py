"""`modelscores ladders fit` on a data folder whose new benchmark follows a known logistic
(tests/support/ladders.py): the fit recovers it, `--write` stores it, a refit gives the same
bytes, and the benchmark goes from unscored to scored."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from support.ladders import LADDER_IQS, TRUE_CURVE, ladder_data, true_raw

from generator.cli import cli
from generator.input.load import load_dataset
from generator.ladders.run import fit_one


@pytest.fixture
def data(tmp_path: Path) -> Path:
    return ladder_data(tmp_path / "data")


def fit(data: Path, *args: str) -> Result:
    return CliRunner().invoke(cli, ["ladders", "fit", *args, "--data-dir", str(data)])


def test_the_fit_recovers_the_known_logistic(data: Path) -> None:
    # Tolerance: the 16 results carry +/-0.01 of noise, so the floor and ceiling within 0.01,
    # midpoint and scale within 1 IQ point, and the ladder within 0.01 of the true curve at
    # the fitted points (IQ 70 to 130: the models' IQs are 76 to 136).
    dataset = load_dataset(data)
    (benchmark,) = dataset.unscored
    found = fit_one(dataset, benchmark, None)
    floor, ceiling, mid, scale = found.parameters
    assert (floor, ceiling) == pytest.approx(TRUE_CURVE[:2], abs=0.01)
    assert (mid, scale) == pytest.approx(TRUE_CURVE[2:], abs=1.0)
    fitted = [i for i, iq in enumerate(LADDER_IQS) if iq <= 130]
    for index in fitted:
        assert found.ladder[index] == pytest.approx(true_raw(LADDER_IQS[index]), abs=0.01)
    assert (found.models, found.fitted_iq, found.confidence) == (16, (70, 130), "normal")
    assert found.check.models == 16  # each has two other mathematics results
    assert found.check.coverage >= 0.85 and found.refused is None


def test_write_stores_the_ladder_and_a_refit_gives_the_same_bytes(data: Path) -> None:
    path = data / "benchmarks" / "new-bench.toml"
    printed = fit(data, "new-bench")
    assert printed.exit_code == 0, printed.output
    assert "not written" not in printed.output and path.read_text().count("ladder") == 0

    written = fit(data, "new-bench", "--write")
    assert written.exit_code == 0, written.output
    assert written.output.startswith(printed.output)  # the same fit, then where it went
    assert "written:" in written.output
    stored = path.read_bytes()
    text = stored.decode()
    assert '\n[ladder_fit]\nmethod = "logistic-4"\n' in text
    assert 'confidence = "normal"\n' in text and "fitted_iq = [70, 130]\n" in text

    dataset = load_dataset(data)  # now scored, its fit recorded with it
    benchmark = next(b for b in dataset.benchmarks if b.id == "new-bench")
    assert benchmark.ladder_fit is not None and benchmark.ladder_fit.models == 16
    assert dataset.unscored == ()
    again = fit(data, "new-bench", "--write")  # targets from the hand-set ladders only
    assert again.exit_code == 0 and "unchanged" in again.output
    assert path.read_bytes() == stored


def test_a_hand_set_ladder_is_never_written(data: Path) -> None:
    path = data / "benchmarks" / "otis-mock-aime.toml"
    before = path.read_bytes()
    result = fit(data, "otis-mock-aime", "--write")
    assert result.exit_code == 0, result.output
    assert "not written" in result.output and "hand-set" in result.output
    assert path.read_bytes() == before


def test_too_few_models_is_one_line_and_leaves_the_benchmark_unscored(data: Path) -> None:
    result = fit(data, "new-bench", "--as-of", "2025-01-01", "--write")  # no result by then
    assert result.exit_code == 1
    assert (
        result.output == "Error: new-bench: no ladder: 0 models have a result and a target;"
        " a fit needs 5\n"
    )
    unknown = fit(data, "no-such-bench")
    assert unknown.exit_code == 1
    assert unknown.output == "Error: no-such-bench: no such benchmark in data/benchmarks\n"
