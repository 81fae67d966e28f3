"""numpy's OpenBLAS threads are not started: the scoring calls no BLAS routine, and each
spun for about 0.1 CPU second at every start (generator/__init__.py)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from support.servers import python_env

# The setting the process ended with, and its threads.
COUNT_THREADS = (
    "import os, {module}; "
    "print(os.environ.get('OPENBLAS_NUM_THREADS'), len(os.listdir('/proc/self/task')))"
)

pytestmark = pytest.mark.skipif(
    not os.path.isdir("/proc/self/task") or (os.cpu_count() or 1) < 2,
    reason="counts threads in /proc on a machine with two CPUs or more",
)


def _threads_after_importing(module: str, **env: str) -> tuple[str, int]:
    clean = {k: v for k, v in python_env().items() if k != "OPENBLAS_NUM_THREADS"}
    result = subprocess.run(
        [sys.executable, "-c", COUNT_THREADS.format(module=module)],
        env={**clean, **env},
        capture_output=True,
        text=True,
        check=True,
    )
    setting, threads = result.stdout.split()
    return setting, int(threads)


def test_importing_the_scoring_starts_one_thread_where_numpy_alone_starts_more() -> None:
    assert _threads_after_importing("numpy")[1] > 1  # OpenBLAS's own default: one per CPU
    assert _threads_after_importing("generator.scoring.uncertainty") == ("1", 1)


def test_a_thread_count_the_caller_set_is_kept() -> None:
    setting, threads = _threads_after_importing(
        "generator.scoring.uncertainty", OPENBLAS_NUM_THREADS="2"
    )
    assert (setting, threads) == ("2", 2)
