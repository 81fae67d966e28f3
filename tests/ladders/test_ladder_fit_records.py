"""A benchmark's `[ladder_fit]` is untrusted input: each bad field is one line naming the file
and the field; a ladder left out makes the benchmark unscored."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from support.paths import FIXTURE_DATA

from generator.errors import DataError
from generator.input.load import load_dataset

GOOD_FIT = """
fitted_iq = [70, 130]

[ladder_fit]
method = "logistic-4"
parameters = [0.1, 0.9, 100.0, 10.0]
as_of = 2026-01-15
models = 16
residual_sd = 2.0
check_models = 16
coverage = 0.9
mean_log_predictive_density = -2.4
mean_absolute_error = 1.7
"""


def with_fit(tmp_path: Path, old: str = "", new: str = "", ladder: bool = True) -> Path:
    data = tmp_path / "data"
    shutil.copytree(FIXTURE_DATA, data)
    path = data / "benchmarks" / "otis-mock-aime.toml"
    text = path.read_text() + GOOD_FIT
    if not ladder:
        text = text.replace("ladder = [0.1, 0.2, 0.4, 0.6, 0.8, 0.9, 0.95]\n", "")
    path.write_text(text.replace(old, new, 1))
    return data


def problems(data: Path) -> list[str]:
    with pytest.raises(DataError) as caught:
        load_dataset(data)
    return caught.value.problems


def test_a_good_fit_loads_with_its_benchmark(tmp_path: Path) -> None:
    dataset = load_dataset(with_fit(tmp_path))
    otis = next(b for b in dataset.benchmarks if b.id == "otis-mock-aime")
    assert otis.ladder_fit is not None and otis.ladder_fit.coverage == 0.9
    assert otis.fitted_iq == [70, 130]
    assert otis.ladder_fit.round == 1  # a file written before rounds: round 1


def test_a_fit_states_its_round(tmp_path: Path) -> None:
    data = with_fit(tmp_path, "as_of = 2026-01-15", "as_of = 2026-01-15\nround = 3")
    otis = next(b for b in load_dataset(data).benchmarks if b.id == "otis-mock-aime")
    assert otis.ladder_fit is not None and otis.ladder_fit.round == 3


@pytest.mark.parametrize(
    ("old", "new", "field", "what"),
    [
        ("coverage = 0.9", "coverage = 1.5", "ladder_fit.coverage", "<= 1"),
        ("models = 16", "models = -3", "ladder_fit.models", ">= 1"),
        ('method = "logistic-4"', 'method = "spline"', "ladder_fit.method", "spline"),
        (
            "parameters = [0.1, 0.9, 100.0, 10.0]",
            "parameters = [0.1, 0.9, 100.0]",
            "ladder_fit.parameters",
            "logistic-4 has 4 parameters, got 3",
        ),
        ("check_models = 16", "check_models = 17", "ladder_fit.check_models", "more than"),
        ("as_of = 2026-01-15", "as_of = 2026-02-15", "ladder_fit.as_of", "after the file's"),
        ("fitted_iq = [70, 130]\n", "", "fitted_iq", "states its fitted IQ range"),
        ("residual_sd = 2.0", 'residual_sd = "wide"', "ladder_fit.residual_sd", "float"),
        ("models = 16", "models = 16\nmodel_ids = 3", "ladder_fit", "model_ids"),
        ("as_of = 2026-01-15", "as_of = 2026-01-15\nround = 0", "ladder_fit.round", ">= 1"),
    ],
)
def test_a_bad_fit_field_is_one_line(
    tmp_path: Path, old: str, new: str, field: str, what: str
) -> None:
    (problem,) = problems(with_fit(tmp_path, old, new))
    assert "otis-mock-aime.toml: " + field in problem, problem
    assert what in problem and "\n" not in problem


def test_a_fit_without_its_ladder_is_refused(tmp_path: Path) -> None:
    (problem,) = problems(with_fit(tmp_path, ladder=False))
    assert "otis-mock-aime.toml: ladder_fit: a fit needs the ladder it made" in problem


def test_a_benchmark_without_a_ladder_is_unscored(tmp_path: Path) -> None:
    data = with_fit(tmp_path, GOOD_FIT.lstrip("\n"), "", ladder=False)
    dataset = load_dataset(data)
    assert [b.id for b in dataset.unscored] == ["otis-mock-aime"]
    assert "otis-mock-aime" not in {b.id for b in dataset.benchmarks}
