"""Run independent output tasks in worker processes, results in task order.

Workers are forked after the inputs are built, so a task is just its index: nothing is
pickled on the way in, only each result on the way back (bytes, or for a task that
writes its own output, a few digests). Same bytes as running
the tasks in this process, in the same order; exceptions are re-raised here.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable
from typing import Any, TypeVar

MIN_PARALLEL = 64
"""Fewer tasks than this run in-process (forking costs more than it saves)."""
WORKERS_ENV = "MODELSCORES_JOBS"

T = TypeVar("T")

_task: Callable[[int], Any] | None = None


def default_workers() -> int:
    """Worker processes to use: $MODELSCORES_JOBS if set (>= 1), else the usable CPUs."""
    setting = os.environ.get(WORKERS_ENV, "").strip()
    if setting.isdigit() and int(setting) >= 1:
        return int(setting)
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _run(index: int) -> Any:
    assert _task is not None
    return _task(index)


def map_ordered(
    task: Callable[[int], T], count: int, workers: int, minimum: int | None = None
) -> list[T]:
    """`[task(i) for i in range(count)]`, spread over `workers` forked processes.

    Below `minimum` tasks (default `MIN_PARALLEL`) they run here instead.
    """
    least = MIN_PARALLEL if minimum is None else minimum
    if workers <= 1 or count < max(least, 2) or not _can_fork():
        return [task(i) for i in range(count)]
    global _task
    _task = task
    try:
        with multiprocessing.get_context("fork").Pool(min(workers, count)) as pool:
            chunk = max(1, count // (workers * 8))
            return pool.map(_run, range(count), chunksize=chunk)
    finally:
        _task = None


def _can_fork() -> bool:
    return "fork" in multiprocessing.get_all_start_methods()
