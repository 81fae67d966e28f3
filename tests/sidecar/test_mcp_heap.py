"""The sidecar freezes each loaded snapshot out of the cyclic GC's full collections."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

import pytest

from mcp_server import site
from mcp_server.site import settle_heap


@pytest.fixture(autouse=True)
def _frozen_as_the_run_keeps_it() -> Iterator[None]:
    """Each test leaves the heap as tests/conftest.py keeps it: collected, then frozen (what
    `settle_heap` does)."""
    yield
    settle_heap()


def test_settle_freezes_what_survives() -> None:
    kept = [[index] for index in range(10)]  # lists are tracked by the collector
    gc.unfreeze()
    settle_heap()
    assert gc.get_freeze_count() >= len(kept)
    assert all(gc.is_tracked(k) for k in kept)
    assert not any(k is o for o in gc.get_objects() for k in kept)  # frozen: not in a generation


def test_settle_collects_cycles_from_before() -> None:
    class Node:
        other: object = None

    a, b = Node(), Node()
    a.other, b.other = b, a
    settle_heap()  # the cycle is alive: frozen
    del a, b
    frozen = gc.get_freeze_count()
    settle_heap()  # unfreeze, collect the now unreachable cycle, freeze the rest
    assert gc.get_freeze_count() <= frozen - 2


def test_store_settles_after_each_load(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    monkeypatch.setattr(site, "settle_heap", lambda: calls.append("settled"))
    monkeypatch.setattr(site, "load_snapshot", lambda path: object())
    store = site.SnapshotStore(site_dir=Path("unused"))
    store.current()
    store.current()
    assert calls == ["settled"]
