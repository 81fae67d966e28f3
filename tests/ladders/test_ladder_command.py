"""`modelscores ladders fit` on a data folder whose new benchmark follows a known logistic
(tests/support/ladders.py): the fit recovers it, `--write` stores it, a refit gives the same
bytes, and the benchmark goes from unscored to scored."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest
from click.testing import CliRunner, Result
from support.ladders import LADDER_IQS, TRUE_CURVE, ladder_data, true_raw

from generator.api.urls import site_config
from generator.build import build_site
from generator.cli import cli
from generator.explain import explain_model
from generator.input.load import load_dataset
from generator.input.records import Dataset, LadderFitRecord
from generator.ladders.run import fit_one
from generator.scoring import compute_scores


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


def test_too_few_models_leave_the_benchmark_unscored_and_the_others_are_fitted(
    data: Path,
) -> None:
    result = fit(data, "new-bench", "--as-of", "2025-01-01")  # no result by then
    assert result.exit_code == 0, result.output
    assert result.output == (
        "new-bench: no ladder: 0 models have a result and a target; a fit needs 5 (unscored)\n"
    )
    written = fit(data, "new-bench", "--write")  # a fitted ladder ...
    assert "written:" in written.output
    # ... a refit on too few models leaves the benchmark unscored, and the next id is fitted
    again = fit(data, "new-bench", "otis-mock-aime", "--as-of", "2025-01-01", "--write")
    assert again.exit_code == 0, again.output
    lines = again.output.splitlines()
    assert lines[0].endswith("(unscored)") and lines[1].endswith("new-bench.toml (unscored)")
    assert lines[2].startswith("otis-mock-aime: no ladder: 0 models")
    text = (data / "benchmarks" / "new-bench.toml").read_text()
    assert "ladder" not in text and "fitted_iq" not in text
    assert [b.id for b in load_dataset(data).unscored] == ["new-bench"]
    status = CliRunner().invoke(cli, ["ladders", "status", "--data-dir", str(data)])
    assert "new-bench (mathematical-reasoning, 16 models with a result): unscored" in status.output
    assert "otis-mock-aime (mathematical-reasoning, 20 models with a result): hand-set" in (
        status.output
    )


def test_an_unknown_or_unscorable_benchmark_is_one_line_and_nothing_is_written(
    data: Path,
) -> None:
    unknown = fit(data, "new-bench", "no-such-bench", "--write")
    assert unknown.exit_code == 1
    assert unknown.output == "Error: no-such-bench: no such benchmark in data/benchmarks\n"
    assert "ladder" not in (data / "benchmarks" / "new-bench.toml").read_text()
    eq = fit(data, "eq-bench-3")
    assert eq.exit_code == 1
    assert eq.output == "Error: eq-bench-3: not a benchmark of a scored dimension (category iq)\n"


def test_a_fitted_ladder_is_published_explained_and_shown(data: Path, tmp_path: Path) -> None:
    assert fit(data, "new-bench", "--write").exit_code == 0
    dataset = load_dataset(data)
    scores = compute_scores(dataset)
    text = explain_model(dataset, scores, "ladder-m07")
    # model 7 is at IQ 76 + 4 * 7 = 104 with noise +0.01:
    # 0.05 + 0.9 / (1 + e^(1/12)) + 0.01 = 0.05 + 0.9 * 0.479179 + 0.01 = 0.491261
    assert "new-bench: raw 0.491261 -> IQ" in text
    assert "fitted ladder (logistic-4 on 16 models, data as of 2026-01-15, held-out" in text
    assert "otis-mock-aime: raw" in text and "hand-set ladder" in text

    out = tmp_path / "site"
    build_site(data, out, site_config("https://scores.example.org"))
    listed = json.loads((out / "api" / "v1" / "benchmarks").read_text())
    by_id = {b["id"]: b for b in listed["benchmarks"]}
    assert by_id["otis-mock-aime"]["ladderFit"] is None  # hand-set
    published = by_id["new-bench"]["ladderFit"]
    stored = dataset_fit(dataset)
    assert published == {
        "method": "logistic-4",
        "parameters": list(stored.parameters),
        "asOf": "2026-01-15",
        "round": 1,
        "models": 16,
        "fittedIqLow": 70,
        "fittedIqHigh": 130,
        "residualSd": stored.residual_sd,
        "checkModels": 16,
        "coverage": stored.coverage,
        "meanLogPredictiveDensity": stored.mean_log_predictive_density,
        "meanAbsoluteError": stored.mean_absolute_error,
    }
    # the fit's residual sd seeds the benchmark's sigma_b (METHODOLOGY 1.3): its estimate
    # from the data shrinks toward it, not toward sigma_benchmark
    noise = scores.noise["new-bench"]
    assert noise.source == "estimated"
    seeded = compute_scores(
        msgspec.structs.replace(
            dataset,
            benchmarks=tuple(
                msgspec.structs.replace(
                    b,
                    ladder_fit=msgspec.structs.replace(b.ladder_fit, residual_sd=40.0),
                )
                if b.ladder_fit is not None
                else b
                for b in dataset.benchmarks
            ),
        )
    )
    assert seeded.noise["new-bench"].sd > noise.sd
    methodology = json.loads((out / "api" / "v1" / "methodology").read_text())
    assert methodology["unscoredBenchmarks"] == []  # new-bench is scored now
    page = (out / "benchmarks" / "new-bench" / "index.html").read_text()
    assert "fitted by the project: logistic-4 on 16 models, IQ 70 to 130" in page
    assert "16 models held out in turn" in page
    assert (
        "<dt>Ladder</dt><dd>set by hand</dd>"
        in (out / "benchmarks" / "otis-mock-aime" / "index.html").read_text()
    )


def dataset_fit(dataset: Dataset) -> LadderFitRecord:
    found = next(b.ladder_fit for b in dataset.benchmarks if b.id == "new-bench")
    assert found is not None
    return found


def test_an_unscored_benchmark_is_named_in_the_methodology(data: Path, tmp_path: Path) -> None:
    # new-bench ships without a ladder: kept, counted by no score, named with its 16 models
    out = tmp_path / "site"
    build_site(data, out, site_config("https://scores.example.org"))
    methodology = json.loads((out / "api" / "v1" / "methodology").read_text())
    [unscored] = methodology["unscoredBenchmarks"]
    assert (unscored["id"], unscored["dimension"], unscored["models"]) == (
        "new-bench",
        "mathematical-reasoning",
        16,
    )
    assert unscored["reason"].startswith("No ladder yet")
    listed = json.loads((out / "api" / "v1" / "benchmarks").read_text())
    assert "new-bench" not in {b["id"] for b in listed["benchmarks"]}
    page = (out / "methodology" / "index.html").read_text()
    assert "Measured, not yet scored" in page and unscored["name"] in page
