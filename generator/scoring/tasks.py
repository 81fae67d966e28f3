"""How scoring may spread independent work over processes: a task map the caller supplies.

Scoring stays pure: it names its independent tasks by index and gets each one's bytes
back in order. The build passes a map over forked workers (`generator/output/pool.py`);
without one every task runs here, in turn, with the same result.
"""

from __future__ import annotations

from collections.abc import Callable

TaskMap = Callable[[Callable[[int], bytes], int], list[bytes]]
"""`run(task, count)`: `[task(i) for i in range(count)]`, in order (possibly in workers)."""


def in_process(task: Callable[[int], bytes], count: int) -> list[bytes]:
    """Every task in turn, here."""
    return [task(i) for i in range(count)]
