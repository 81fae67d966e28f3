"""Hostile data from a pull request: every case ends within 30 s and 1 GiB, with a clean
build or exactly its one-line problems and exit 1, never a traceback, and nothing from
outside data/ in any output (issue 12).

Each case and each hypothesis run is a child process with its limits set before it runs:
address space 1 GiB and CPU 30 s (the bound, the same on a busy machine), plus a wall clock of
three times that from the parent, which only catches a child that waits without computing. A
case that hangs or grows is killed by its limit and fails. The children are forked from one
parent that has imported the build once (tests/support/bounded.py): each still starts as a
new process and runs `python -m generator build` as `__main__`; its CPU seconds are its own.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from bad_data.flood import FLOOD
from bad_data.hostile import HOSTILE, SECRET, SECRET_KEY, HostileCase
from support.bounded import BoundedRunner, Run
from support.paths import FIXTURE_DATA, REPO, TESTS
from support.servers import python_env

SECONDS = 30  # of CPU
WALL_SECONDS = 3 * SECONDS  # on a machine shared with other work, wall time is not the bound
MEMORY = 1 << 30  # bytes of address space


@pytest.fixture(scope="module")
def bounded() -> Iterator[BoundedRunner]:
    env = python_env()
    env["PYTHONPATH"] = f"{REPO}:{TESTS}"
    runner = BoundedRunner(env, REPO, MEMORY, SECONDS)
    yield runner
    runner.close()


def run_bounded(runner: BoundedRunner, module: str, args: list[str], scratch: Path) -> Run:
    """`python -m module args...` under the limits, with its output files in `scratch`."""
    return runner.run(module, args, scratch, WALL_SECONDS)


def _everything_written(root: Path) -> str:
    return "\n".join(
        path.read_bytes().decode("utf-8", "replace") for path in root.rglob("*") if path.is_file()
    )


def test_hostile_corpus_covers_the_issue() -> None:
    names = [case.name for case in HOSTILE]
    assert len(names) == len(set(names)) >= 15
    assert sum(case.expected is None for case in HOSTILE) >= 2  # clean builds too


@pytest.mark.parametrize("case", HOSTILE + FLOOD, ids=lambda case: case.name)
def test_hostile_case_is_bounded_and_one_line(
    bounded: BoundedRunner, case: HostileCase, tmp_path: Path
) -> None:
    data, out = tmp_path / "data", tmp_path / "site_out"
    shutil.copytree(FIXTURE_DATA, data)
    case.mutate(data)
    args = ["build", "--data-dir", str(data), "--out-dir", str(out)]
    result = run_bounded(bounded, "generator", args, tmp_path)
    output = result.stdout + result.stderr
    assert result.cpu < SECONDS
    assert "Traceback" not in output
    for word in (SECRET, SECRET_KEY, "outside", "passwd", "hosts.toml"):
        assert word not in output
    if case.expected is None:
        assert result.returncode == 0, result.stderr
        assert SECRET not in _everything_written(out)
        if case.check_site is not None:
            case.check_site(out)
    else:
        assert result.returncode == 1
        if case.check_errors is not None:
            case.check_errors(data, result.stderr.splitlines())
        else:
            assert result.stderr.splitlines() == case.lines(data)
        assert not out.exists()


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["load", "build"])
def test_hypothesis_documents_are_bounded_and_one_line(
    bounded: BoundedRunner, mode: str, tmp_path: Path
) -> None:
    """Generated TOML (deep nesting, long keys, huge and tiny floats, control characters,
    odd dates and offsets) through `load_dataset`, or the whole build, in one bounded child."""
    work = tmp_path / "work"
    work.mkdir()
    result = run_bounded(bounded, "bad_data.fuzz", [mode, str(work)], tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr[-4000:]
    assert result.cpu < SECONDS
    assert "every one a clean" in result.stdout
