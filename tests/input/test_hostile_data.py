"""Hostile data from a pull request: every case ends within 30 s and 1 GiB, with a clean
build or exactly its one-line problems and exit 1, never a traceback, and nothing from
outside data/ in any output (issue 12).

Each case and each hypothesis run is a child process whose limits are set with
`resource.setrlimit` before it starts: address space 1 GiB, CPU 30 s, and a 30 s wall
clock from the parent. A case that hangs or grows is killed by its limit and fails.
"""

from __future__ import annotations

import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from bad_data.flood import FLOOD
from bad_data.hostile import HOSTILE, SECRET, SECRET_KEY, HostileCase
from support.paths import FIXTURE_DATA, REPO, TESTS
from support.servers import python_env
from support.sitetree import build_command

SECONDS = 30
MEMORY = 1 << 30  # bytes of address space


def _limits() -> None:
    """Run in the child before exec: the memory and CPU bounds of every hostile case."""
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
    resource.setrlimit(resource.RLIMIT_CPU, (SECONDS, SECONDS))


def run_bounded(argv: list[str]) -> tuple[subprocess.CompletedProcess[str], float]:
    env = python_env()
    env["PYTHONPATH"] = f"{REPO}:{TESTS}"
    started = time.monotonic()
    result = subprocess.run(
        argv,
        capture_output=True,
        text=True,
        env=env,
        cwd=REPO,
        preexec_fn=_limits,
        timeout=SECONDS,
        check=False,
    )
    return result, time.monotonic() - started


def _everything_written(root: Path) -> str:
    return "\n".join(
        path.read_bytes().decode("utf-8", "replace") for path in root.rglob("*") if path.is_file()
    )


def test_hostile_corpus_covers_the_issue() -> None:
    names = [case.name for case in HOSTILE]
    assert len(names) == len(set(names)) >= 15
    assert sum(case.expected is None for case in HOSTILE) >= 2  # clean builds too


@pytest.mark.parametrize("case", HOSTILE + FLOOD, ids=lambda case: case.name)
def test_hostile_case_is_bounded_and_one_line(case: HostileCase, tmp_path: Path) -> None:
    data, out = tmp_path / "data", tmp_path / "site_out"
    shutil.copytree(FIXTURE_DATA, data)
    case.mutate(data)
    result, seconds = run_bounded(build_command(data, out))
    output = result.stdout + result.stderr
    assert seconds < SECONDS
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
def test_hypothesis_documents_are_bounded_and_one_line(mode: str, tmp_path: Path) -> None:
    """Generated TOML (deep nesting, long keys, huge and tiny floats, control characters,
    odd dates and offsets) through `load_dataset`, or the whole build, in one bounded child."""
    result, seconds = run_bounded([sys.executable, "-m", "bad_data.fuzz", mode, str(tmp_path)])
    assert result.returncode == 0, result.stdout + result.stderr[-4000:]
    assert seconds < SECONDS
    assert "every one a clean" in result.stdout
