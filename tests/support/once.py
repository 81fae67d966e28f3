"""Set-up made once per test run and shared by scripts/test's workers.

A session fixture runs once per process, so with several workers each made its own copy of
what it returned (the shipped data's build, a CLI's output). `made_once` makes a folder under the
run's temporary root (the workers' `basetemp`s sit in it), the first process to ask holding a
file lock while it does; the others wait for it, then use the same folder. What it holds is
read only, as for any session fixture.
"""

from __future__ import annotations

import fcntl
import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest


def run_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The run's temporary root: shared by its xdist workers, this process's own without."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def made_once(
    tmp_path_factory: pytest.TempPathFactory, name: str, make: Callable[[Path], None]
) -> Path:
    """`<run root>/shared/name`, made by `make(folder)` (an empty folder) in the first process
    of the run to ask; the others wait until it is done. A `make` that raises leaves nothing
    marked done: the next process to ask tries again (and fails as loudly)."""
    shared = run_root(tmp_path_factory) / "shared"
    shared.mkdir(exist_ok=True)
    folder, done = shared / name, shared / f"{name}.done"
    with open(shared / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if not done.exists():
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir()
            make(folder)
            done.touch()
    return folder
