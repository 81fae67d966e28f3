"""The task fit: seconds and dollars per task (METHODOLOGY 6.1, generator/scoring/speed.py)."""

from __future__ import annotations

import datetime as dt
import math

import pytest

from generator.input.records import Dataset, TaskRunRecord
from generator.scoring.speed import (
    NO_RUNS,
    ONE_SUITE,
    Quantity,
    TaskFit,
    chosen_runs,
    fit,
    task_fits,
)
from generator.scoring.types import Scores

DAY = dt.date(2026, 10, 6)


def run(suite: str, seconds: float, key: str = "m", effort: str | None = None) -> TaskRunRecord:
    return TaskRunRecord(
        suite=suite,
        latency_sec=seconds,
        cost_usd=seconds / 100,
        source_model=key,
        effort=effort,
        source="valsai",
        source_url="https://www.vals.ai/benchmarks",
        as_of=DAY,
    )


def unrounded(result: TaskFit) -> float:
    assert result.effect is not None and result.reference is not None
    return math.exp(result.effect + result.reference)


def test_an_incomplete_table_is_made_comparable() -> None:
    # Truth: benchmark multipliers x 1, y 2, z 8 (log2 effects 0, 1, 3); models' base
    # seconds a 10, b 20, c 40. Each model ran two of the three benchmarks:
    #   a: x 10, y 20     b: x 20, z 160     c: y 80, z 320
    # Plain geometric means would be a sqrt(10*20) = 14.1, b sqrt(20*160) = 56.6,
    # c sqrt(80*320) = 160: c looks 11 times slower than a, for running longer tasks.
    # The table is exactly additive in logs, so the fit recovers the effects (no residual,
    # every Huber weight 1); the reference is the median multiplier, y's 2: figures
    # a 10*2 = 20, b 20*2 = 40, c 40*2 = 80 (c is 4 times slower than a, as it truly is).
    chosen = {
        "a": (run("x", 10), run("y", 20)),
        "b": (run("x", 20), run("z", 160)),
        "c": (run("y", 80), run("z", 320)),
    }
    fits, suites = fit(chosen, "latency_sec", min_models=1)
    assert {m: f.value for m, f in fits.items()} == {"a": 20.0, "b": 40.0, "c": 80.0}
    # benchmark effects against the median (y): x log(1/2), y 0, z log(8/2) = log 4
    assert suites == pytest.approx({"x": math.log(0.5), "y": 0.0, "z": math.log(4)})
    assert fits["b"].runs == chosen["b"] and fits["b"].as_of == DAY


def test_a_complete_table_gives_each_model_its_geometric_mean() -> None:
    # a: x 1, y 16; b: x 4, y 16 (log2: a 0, 4; b 2, 4). Row means 2 and 3, column means
    # 1 and 4, grand mean 2.5: fitted a,x = 2 + 1 - 2.5 = 0.5, so every residual is +-0.5,
    # all alike (median |r| = 0.5: Huber weights 1). Reference: the median of two effects
    # is their mean, so a figure is 2 ** (row mean): a 2**2 = 4, b 2**3 = 8.
    chosen = {"a": (run("x", 1), run("y", 16)), "b": (run("x", 4), run("y", 16))}
    fits, _ = fit(chosen, "latency_sec", min_models=1)
    assert (fits["a"].value, fits["b"].value) == (4.0, 8.0)


def test_a_model_on_one_benchmark_or_none_has_no_figure_and_says_why() -> None:
    chosen = {
        "a": (run("x", 10), run("y", 20)),
        "b": (run("x", 20), run("y", 40)),
        "one": (run("x", 5),),
        "none": (),
    }
    fits, _ = fit(chosen, "cost_usd", min_models=1)
    assert (fits["one"].value, fits["one"].reason) == (None, ONE_SUITE)
    assert (fits["none"].value, fits["none"].reason) == (None, NO_RUNS)
    assert fits["a"].value == pytest.approx(0.141)  # sqrt(0.1 * 0.2) = 0.1414, 3 figures


def test_the_default_variant_is_used() -> None:
    # max effort is left while another variant is listed; a harness run is never used;
    # then the variant with the most benchmarks
    runs = [
        run("x", 1, "k", "max"),
        run("y", 1, "k", "max"),
        run("z", 1, "k", "max"),
        run("x", 2, "k-thinking", "thinking"),
        run("y", 2, "k-thinking", "thinking"),
        run("x", 3, "k"),
    ]
    harness = TaskRunRecord(
        suite="v",
        latency_sec=4,
        source_model="k-code",
        harness="agent",
        source="valsai",
        source_url="https://www.vals.ai/benchmarks",
        as_of=DAY,
    )
    chosen = chosen_runs([*runs, harness])
    assert [(r.source_model, r.suite) for r in chosen] == [("k-thinking", "x"), ("k-thinking", "y")]
    assert chosen_runs([run("x", 1, "k", "max")]) == (run("x", 1, "k", "max"),)  # all there is


@pytest.mark.slow
@pytest.mark.parametrize("quantity", ["latency_sec", "cost_usd"])
def test_no_one_model_moves_another_by_more_than_five_percent(
    shipped_scores: tuple[Dataset, Scores], quantity: Quantity
) -> None:
    # Removing any one model from the shipped table (or adding it back) moves no other
    # model's figure by more than 5% either way; measured at the landing: 4.9% (latency,
    # gemini-3.1-pro on deepseek-v3.1) and 4.8% (cost, gemini-3.1-flash-lite on deepseek-v3.1)
    dataset, _ = shipped_scores
    chosen = {m.id: chosen_runs(m.task_runs) for m in dataset.models}
    full, _ = fit(chosen, quantity)
    worst = 0.0
    for gone in sorted(m for m, runs in chosen.items() if runs):
        fewer, _ = fit({m: r for m, r in chosen.items() if m != gone}, quantity)
        for model, result in fewer.items():
            if result.value is not None and full[model].value is not None:
                ratio = unrounded(result) / unrounded(full[model])
                worst = max(worst, abs(ratio - 1), abs(1 / ratio - 1))
    assert 0 < worst <= 0.05


def test_the_shipped_table_gives_fifty_models_both_figures(
    shipped_scores: tuple[Dataset, Scores],
) -> None:
    dataset, scores = shipped_scores
    assert scores.tasks == task_fits(dataset.models)  # the build's fits: the same figures
    assert scores.tasks is not None
    both = [
        m.id
        for m in dataset.models
        if all(
            f.value is not None and f.runs and f.as_of and f.runs[0].source
            for f in (scores.tasks.latency[m.id], scores.tasks.cost[m.id])
        )
    ]
    assert len(both) >= 50
