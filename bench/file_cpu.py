"""CPU seconds of each test file, its child processes included: a pytest plugin.

    FILE_CPU=DIR .venv/bin/python -m pytest -n 2 --dist loadfile --no-loadscope-reorder \
      -p bench.file_cpu [FILES]

At the end each process (each xdist worker, or the one process with `-n 0`) writes
DIR/WORKER.txt: one line per file it ran, the costliest first, with the CPU seconds of the
process and of its children, wall seconds and tests. A child counts when it is waited for,
so a server a module fixture started counts at the module's last test, and one a session
fixture started at the run's end (docs/PERFORMANCE.md, "Test suite", quotes these lines).
"""

from __future__ import annotations

import os
import resource
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest


@dataclass
class FileCost:
    own: float = 0.0
    children: float = 0.0
    wall: float = 0.0
    tests: int = 0


COSTS: dict[str, FileCost] = {}


def _cpu(who: int) -> float:
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Iterator[None]:
    own, children, wall = (
        _cpu(resource.RUSAGE_SELF),
        _cpu(resource.RUSAGE_CHILDREN),
        time.perf_counter(),
    )
    yield
    cost = COSTS.setdefault(item.nodeid.partition("::")[0], FileCost())
    cost.own += _cpu(resource.RUSAGE_SELF) - own
    cost.children += _cpu(resource.RUSAGE_CHILDREN) - children
    cost.wall += time.perf_counter() - wall
    cost.tests += 1


def pytest_sessionfinish(session: pytest.Session) -> None:
    folder = os.environ.get("FILE_CPU")
    if not folder:
        return
    worker = getattr(session.config, "workerinput", {}).get("workerid", "main")
    ranked = sorted(COSTS.items(), key=lambda item: -(item[1].own + item[1].children))
    lines = [
        f"{cost.own + cost.children:6.1f} CPU s ({cost.own:.1f} own, {cost.children:.1f}"
        f" children) {cost.wall:6.1f} s {cost.tests:4} tests {path}\n"
        for path, cost in ranked
    ]
    Path(folder).mkdir(parents=True, exist_ok=True)
    (Path(folder) / f"{worker}.txt").write_text("".join(lines), encoding="utf-8")
