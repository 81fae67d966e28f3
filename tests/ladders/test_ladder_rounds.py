"""Fitting rounds (docs/METHODOLOGY.md 1.3): a fit of round k takes its targets from the
hand-set ladders and the stored fitted ladders of rounds below k, never from one of round k
or above. On the known-logistic data of tests/support/ladders.py, `new-bench` is fitted in
round 1; `next-bench` is run by the 16 ladder models and by 5 models that ran only the two
new benchmarks, whose only estimate of mathematical reasoning is their `new-bench` result."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from support.ladders import AS_OF, TRUE_IQS, ladder_data, true_raw

from generator.cli import cli
from generator.input.load import load_dataset
from generator.input.records import BenchmarkRecord, Dataset
from generator.ladders.targets import Target, fit_targets
from generator.scoring.ladder import project

SOLO_IQS = (90.0, 100.0, 110.0, 120.0, 130.0)  # the models with no hand-set result


def _result(bench_id: str, value: float) -> str:
    return (
        f'\n[[results]]\nbenchmark = "{bench_id}"\nvalue = {value!r}\n'
        f'source_name = "Test source"\nsource_url = "https://example.org/{bench_id}"\n'
        f"as_of = {AS_OF}\n"
    )


def _solo(index: int, iq: float) -> str:
    return (
        f'id = "solo-m{index}"\nname = "Solo M{index}"\nprovider = "Test Labs"\n'
        'country = "France"\nrelease_date = 2025-12-01\nopen_weights = true\n'
        f"updated = {AS_OF}T00:00:00Z\n"
        + _result("new-bench", round(true_raw(iq), 12))
        + _result("next-bench", round(true_raw(iq - 5.0), 12))
    )


@pytest.fixture
def data(tmp_path: Path) -> Path:
    folder = ladder_data(tmp_path / "data")
    new = (folder / "benchmarks" / "new-bench.toml").read_text()
    (folder / "benchmarks" / "next-bench.toml").write_text(
        new.replace("new-bench", "next-bench").replace("newBench", "nextBench")
    )
    for index, iq in enumerate(TRUE_IQS):  # the ladder models run next-bench too
        path = folder / "models" / f"ladder-m{index:02d}.toml"
        path.write_text(path.read_text() + _result("next-bench", round(true_raw(iq - 5.0), 12)))
    for index, iq in enumerate(SOLO_IQS):
        (folder / "models" / f"solo-m{index}.toml").write_text(_solo(index, iq))
    return folder


def fit(data: Path, *args: str) -> Result:
    return CliRunner().invoke(cli, ["ladders", "fit", *args, "--data-dir", str(data)])


def bench(dataset: Dataset, bench_id: str) -> BenchmarkRecord:
    return next(b for b in (*dataset.benchmarks, *dataset.unscored) if b.id == bench_id)


def targets(data: Path, fit_round: int) -> dict[str, Target]:
    """next-bench's targets in a fit of `fit_round`, by model."""
    dataset = load_dataset(data)
    day = dt.date.fromisoformat(AS_OF)
    return {t.model: t for t in fit_targets(dataset, bench(dataset, "next-bench"), day, fit_round)}


def test_a_round_2_fit_takes_targets_from_a_round_1_ladder_and_a_round_1_fit_does_not(
    data: Path,
) -> None:
    before = targets(data, 1)  # new-bench has no ladder yet: hand-set ladders only
    assert sorted(before) == [f"ladder-m{i:02d}" for i in range(16)]  # no solo model
    written = fit(data, "new-bench", "--write")
    assert written.exit_code == 0 and "round 1" in written.output, written.output
    assert "\nround = 1\n" in (data / "benchmarks" / "new-bench.toml").read_text()

    assert targets(data, 1) == before  # a round-1 fit never reads a fitted ladder
    second = targets(data, 2)
    assert sorted(second) == sorted(before) + [f"solo-m{i}" for i in range(5)]
    stored = bench(load_dataset(data), "new-bench")
    for index, iq in enumerate(SOLO_IQS):
        solo = second[f"solo-m{index}"]
        assert solo.others == 1  # its estimate rests on its new-bench result alone
        projected = project(stored.ladder, stored.direction, true_raw(iq))
        assert solo.iq == pytest.approx(projected, abs=2.0)


def test_the_round_is_stored_and_a_refit_keeps_it(data: Path) -> None:
    assert fit(data, "new-bench", "--write").exit_code == 0
    path = data / "benchmarks" / "next-bench.toml"
    written = fit(data, "next-bench", "--round", "2", "--write")
    assert written.exit_code == 0, written.output
    assert "models, data as of 2026-01-15, round 2\n" in written.output
    assert "fit on 21 models" in written.output  # the 16 ladder models and the 5 solo ones
    stored = path.read_bytes()
    assert b"\nround = 2\n" in stored
    record = bench(load_dataset(data), "next-bench").ladder_fit
    assert record is not None and record.round == 2
    again = fit(data, "next-bench", "--write")  # the stored round by default
    assert again.exit_code == 0 and "unchanged" in again.output, again.output
    assert path.read_bytes() == stored
    # new-bench (round 1) is refitted without next-bench (round 2): the same bytes
    assert "unchanged" in fit(data, "new-bench", "--write").output
    status = CliRunner().invoke(cli, ["ladders", "status", "--data-dir", str(data)])
    assert "next-bench (mathematical-reasoning, 21 models with a result): fitted ladder" in (
        status.output
    )
    assert "(round 2), logistic-4 on 21 models" in status.output


def test_a_round_of_0_is_refused(data: Path) -> None:
    result = fit(data, "new-bench", "--round", "0")
    assert result.exit_code == 2 and "--round" in result.output
