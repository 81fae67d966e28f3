"""The files kept beside the site are read only when they are regular files: a FIFO (or a
device) found where one goes reads as nothing kept, at once, instead of blocking the build
until something writes to it. They are written only as new files: a link planted at a
temporary name is replaced, never written through.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from support.paths import FIXTURE_DATA

from generator.api.urls import site_config
from generator.build import build_site
from generator.cache.manifest import (
    Manifest,
    Output,
    cache_path,
    history_cache_path,
    load_manifest,
    records_cache_path,
)
from generator.cache.outputs import OutputCache
from generator.cache.records import RecordCache
from generator.cache.scores import KeptScores, kept_scores_path
from generator.cache.snapshots import SnapshotCache
from generator.digests import content_digest


def _returns_at_once(fifo: Path, read: Callable[[], object]) -> object:
    """`read()`'s result; fails if it is still blocked after 5 s (then unblocked: something
    opens the FIFO for writing and closes it, so the reader sees its end)."""
    found: list[object] = []
    reader = threading.Thread(target=lambda: found.append(read()), daemon=True)
    reader.start()
    reader.join(timeout=5)
    if reader.is_alive():
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        reader.join(timeout=5)
        pytest.fail(f"reading {fifo.name} blocked on a FIFO")
    return found[0]


def test_a_fifo_for_the_build_cache_reads_as_no_cache(tmp_path: Path) -> None:
    site = tmp_path / "site_out"
    os.mkfifo(cache_path(site))
    assert _returns_at_once(cache_path(site), lambda: load_manifest(site)) == Manifest()


def test_a_fifo_for_the_record_cache_reads_as_empty(tmp_path: Path) -> None:
    site = tmp_path / "site_out"
    os.mkfifo(records_cache_path(site))
    store = _returns_at_once(records_cache_path(site), lambda: RecordCache(site))
    assert isinstance(store, RecordCache) and store._old == {}


def test_a_fifo_for_the_kept_scores_is_a_miss(tmp_path: Path) -> None:
    site = tmp_path / "site_out"
    os.mkfifo(kept_scores_path(site))
    store = KeptScores(site)
    assert _returns_at_once(kept_scores_path(site), lambda: store.get(b"k" * 32)) is None


def test_a_fifo_for_a_snapshot_is_a_miss(tmp_path: Path) -> None:
    site = tmp_path / "site_out"
    cache = SnapshotCache(site)
    cache.folder.mkdir()
    key = b"k" * 32
    os.mkfifo(cache.folder / key.hex())
    assert _returns_at_once(cache.folder / key.hex(), lambda: cache.get(key)) is None
    assert cache.misses == 1


def test_a_fifo_in_the_live_site_is_produced_again(tmp_path: Path) -> None:
    """The build cache reuses a live file's bytes only after hashing them: a FIFO put in
    the site where a file was is not reused (made again), and the build does not block."""
    site = tmp_path / "site_out"
    site.mkdir()
    key, data = b"k" * 32, b'{"id": "alpha"}'
    outputs = OutputCache({"api/a.json": Output(key=key, content=content_digest(data))}, site)
    (site / "api").mkdir()
    (site / "api" / "a.json").write_bytes(data)
    assert outputs.lookup("api/a.json", key) == data
    (site / "api" / "a.json").unlink()
    os.mkfifo(site / "api" / "a.json")
    assert (
        _returns_at_once(site / "api" / "a.json", lambda: outputs.lookup("api/a.json", key)) is None
    )


def test_a_symlink_at_a_temporary_name_is_replaced_not_written_through(tmp_path: Path) -> None:
    """Each file kept beside the site is written to NAME.tmp and renamed: a link planted at
    NAME.tmp (to a file anywhere) is replaced by the new file, its target left as it was."""
    site, config = tmp_path / "site_out", site_config("https://example.test")
    build_site(FIXTURE_DATA, site, config)
    kept = [cache_path(site), records_cache_path(site), kept_scores_path(site)]
    kept += sorted(history_cache_path(site).iterdir())
    assert len(kept) >= 4 and all(path.is_file() for path in kept)
    outside = tmp_path / "outside.txt"
    outside.write_bytes(b"not the build's\n")
    for path in kept:
        path.unlink()  # so the next build writes each again
        path.with_name(path.name + ".tmp").symlink_to(outside)
    build_site(FIXTURE_DATA, site, config)
    assert outside.read_bytes() == b"not the build's\n"
    for path in kept:
        assert path.is_file() and not path.is_symlink(), path.name
        assert not path.with_name(path.name + ".tmp").is_symlink(), path.name
