"""Smoke test of the benchmarks at a small N: they run, print their tables, and the
rebuild invariants hold. Nothing here depends on timing."""

from __future__ import annotations

import gc
import json
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bench.build import BuildRun, change_one_model
from bench.synth import SynthSpec, write_dataset
from generator.input.load import load_dataset

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _collector_restored() -> Iterator[None]:
    """The benchmarks run here in process turn the garbage collector off for their
    measurements (bench/pages_pool.py, bench/history_docs.py) and leave it off; later tests
    in the same process (tests/output/test_build_gc.py) found it disabled."""
    enabled = gc.isenabled()
    yield
    if enabled:
        gc.enable()


def test_tables_keep_a_column_of_figures_right_aligned_past_empty_cells() -> None:
    from bench.measure import table

    lines = table(["rebuild", "wall s"], [["cold", 23.6], ["no-op", 0.56], ["note", ""]])
    assert lines.splitlines()[1] == "|---------|-------:|"  # figures: right-aligned
    assert lines.splitlines()[4] == "| note    |        |"
    assert table(["rebuild", "wall s"], []) == "| rebuild | wall s |\n|---------|--------|"


def test_synth_is_valid_and_deterministic(tmp_path: Path) -> None:
    spec = SynthSpec(models=60, benchmarks=14, seed=3)
    first = write_dataset(spec, tmp_path / "a")
    write_dataset(spec, tmp_path / "b")
    files_a = sorted(p.relative_to(tmp_path / "a") for p in (tmp_path / "a").rglob("*.toml"))
    files_b = sorted(p.relative_to(tmp_path / "b") for p in (tmp_path / "b").rglob("*.toml"))
    assert files_a == files_b
    assert all(
        (tmp_path / "a" / p).read_bytes() == (tmp_path / "b" / p).read_bytes() for p in files_a
    )
    dataset = load_dataset(tmp_path / "a")
    assert len(dataset.models) == first.published < first.models  # some are unpublished
    assert len([b for b in dataset.benchmarks if b.category == "iq"]) == 14
    assert len(dataset.domains) == 10
    assert {b.dimension for b in dataset.benchmarks if b.dimension} == {
        d.slug for d in dataset.methodology.dimensions
    }
    # Sparse coverage: most models report a minority of the scored benchmarks.
    minority = sum(1 for m in dataset.models if len(m.results) < 7)
    assert minority > len(dataset.models) / 2
    assert any(m.lineage and m.lineage.predecessor for m in dataset.models)
    assert any(m.reasoning_configurations for m in dataset.models)
    assert any(m.revisions for m in dataset.models)


def test_change_one_model_changes_one_file(tmp_path: Path) -> None:
    data = tmp_path / "data"
    write_dataset(SynthSpec(models=20, benchmarks=14, seed=5), data)
    before = {p: p.read_bytes() for p in data.rglob("*.toml")}
    model_id = change_one_model(data)
    changed = [p for p in before if p.read_bytes() != before[p]]
    assert changed == [data / "models" / f"{model_id}.toml"]


@dataclass(frozen=True)
class BenchmarkRun:
    """One run of `python -m bench.build` and the raw figures it kept with `--json`."""

    stdout: str
    raw: dict[str, Any]


@pytest.fixture(scope="module")
def build_benchmark(tmp_path_factory: pytest.TempPathFactory) -> BenchmarkRun:
    """The build benchmark command, run once for the tests below (they only read it): its
    two children (`run_child`: the floors, the rebuilds) each build the 40 models of seed 2
    cold, its start-up figures use the small
    fixture (tests/data), the fastest of two processes each (a choice made, not the five of a
    real measurement)."""
    work = tmp_path_factory.mktemp("bench-build")
    result = subprocess.run(
        [sys.executable, "-m", "bench.build", "--sizes", "40", "--benchmarks", "14",
         "--seed", "2", "--work", str(work), "--shipped", "tests/data", "--startup-runs", "2",
         "--json", str(work / "raw.json")],
        cwd=ROOT, capture_output=True, text=True, check=True, timeout=600,
    )  # fmt: skip
    return BenchmarkRun(result.stdout, json.loads((work / "raw.json").read_text("utf-8")))


@pytest.mark.slow
def test_build_benchmark_command_prints_tables(build_benchmark: BenchmarkRun) -> None:
    out = build_benchmark.stdout
    headings = ("Build by stage", "Build against the floor", "Rebuilds", "List endpoint")
    for heading in (*headings, "Start-up at the shipped data"):
        assert heading in out
    assert "| no-op" in out and "| one model" in out and "| its cold build" in out


@pytest.mark.slow
def test_build_child_measures_and_rebuilds_incrementally(build_benchmark: BenchmarkRun) -> None:
    (raw_run,) = build_benchmark.raw["runs"]
    run = BuildRun(**raw_run)  # what the child printed, as the parent reads it
    assert run.models == 40
    assert run.files > 40 and run.bytes > 0
    assert set(run.stages) >= {"load", "score", "render", "pages", "check", "write"}
    assert run.floor["wall"] > 0
    # Three floors by default, the fastest first: the ratios use it.
    assert [f["wall"] for f in run.floors] == sorted(f["wall"] for f in run.floors)
    assert len(run.floors) == 3 and run.floor == run.floors[0]
    # A no-op rebuild rewrites nothing; a one-model change rewrites only what depends on it.
    assert run.noop["files_rewritten"] == 0
    assert run.noop["reported_written"] == 0
    assert 0 < run.one_change["files_rewritten"] < run.files / 2
    assert 0 < run.next_change["files_rewritten"] < run.files / 2
    # The rebuilds follow their own cold build (another child's), not the floors' one.
    assert run.rebuilt_from > 0 and run.rebuilt_from != run.total_wall
    assert len(run.load_average) == 4  # each child's start and end


@pytest.mark.slow
def test_history_benchmark_compares_two_commits(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "bench.history", "--before", "HEAD", "--after", "HEAD",
         "--sizes", "30,60", "--benchmarks", "14", "--json", str(tmp_path / "raw.json")],
        cwd=ROOT, capture_output=True, text=True, check=True, timeout=600,
    )  # fmt: skip
    assert "load average at start" in result.stdout and "| 30 -> 60 models" in result.stdout
    raw = json.loads((tmp_path / "raw.json").read_text(encoding="utf-8"))
    for models in ("30", "60"):
        before, after = raw[models]["before"], raw[models]["after"]
        assert before["snapshots"] == after["snapshots"] > 1
        assert after["cached"] is not None and after["history"] > 0
        assert after["history_rss"] > 0  # MiB, read after the replay


def test_history_docs_bench_measures_both_families(tmp_path: Path) -> None:
    from bench.history_docs import measure, table

    data = tmp_path / "data"
    write_dataset(SynthSpec(models=30, benchmarks=14, seed=4), data)
    rows = measure(data)
    assert [r.family for r in rows] == ["/history/{date}", "/models/{id}/history"]
    dataset = load_dataset(data)
    assert rows[1].documents == len(dataset.models)  # one history per published model
    assert rows[0].documents == rows[0].snapshots + 1  # every snapshot and the list
    assert all(r.bytes > 0 for r in rows)
    assert table(rows).count("\n") == 3


def test_pages_pool_bench_compares_one_process_with_the_pool(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from bench import pages_pool

    pages_pool.main(["--models", "30", "--rounds", "1", "--jobs", "2"])
    out = capsys.readouterr().out
    assert "1 worker(s)" in out and "2 worker(s)" in out and "speed-up" in out
    assert "load average before" in out


def test_score_reuse_bench_runs_both_modes() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "bench.score_reuse", "--models", "40", "--rounds", "1"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert [line.split()[0] for line in lines] == ["before", "after"]
    assert all("one score" in line and "next cpu" in line for line in lines)
