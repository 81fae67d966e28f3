"""The history's snapshot cache when its folder misbehaves: a write or an unlink that fails
costs that one snapshot (scored again next time), never the others' writes nor the
pruning, and the folder holds only whole snapshot files afterwards.

The tests run as root (chmod stops nothing): failures come from a directory where a file
is expected, or from `os.replace`, `os.unlink` and `write_cache_file` patched to fail.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Callable
from pathlib import Path

import msgspec
import pytest

from generator.cache.snapshots import FORMAT, SnapshotCache, _Entry
from generator.digests import digest
from generator.output import files as cache_files
from generator.scoring.history import SnapshotModel, SnapshotScores
from generator.scoring.types import RankBand

SCORES = msgspec.msgpack.encode(SnapshotScores(models={}))
"""A month's scores (of no model: the keys tell the snapshots apart)."""


def _key(n: int) -> bytes:
    return bytes([n]) * 32


def _names(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def _put(site: Path, keys: range) -> SnapshotCache:
    cache = SnapshotCache(site)
    for n in keys:
        assert cache.get(_key(n)) is None
        cache.put(_key(n), SCORES)
    return cache


def _whole(site: Path, names: list[str]) -> bool:
    """Every name is a snapshot `get` takes as it is."""
    cache = SnapshotCache(site)
    return all(cache.get(bytes.fromhex(name)) == SCORES for name in names)


def test_a_directory_where_a_temporary_file_goes_costs_that_snapshot_only(
    tmp_path: Path,
) -> None:
    site = tmp_path / "site_out"
    stale = _put(site, range(10, 13))
    stale.save()
    cache = _put(site, range(1, 4))
    (cache.folder / f"{_key(1).hex()}.tmp").mkdir()  # the first written, sorted by name
    cache.save()
    # Snapshots 2 and 3 written; the stale ones (10-12) pruned; the directory stays.
    written = [_key(2).hex(), _key(3).hex()]
    assert _names(cache.folder) == sorted([*written, f"{_key(1).hex()}.tmp"])
    assert _whole(site, written)


def _fail_for(name: str, half: bool) -> Callable[[Path, bytes], None]:
    """`write_cache_file`, failing for a file named `name` (after writing half of it)."""
    real = cache_files.write_cache_file

    def write_cache_file(path: Path, data: bytes) -> None:
        if path.name == name:
            if half:  # the disk filled up halfway through
                real(path, data[: len(data) // 2])
            raise OSError(errno.ENOSPC, "No space left on device", str(path))
        real(path, data)

    return write_cache_file


def test_a_write_failing_halfway_leaves_no_temporary_file_and_the_others_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    site = tmp_path / "site_out"
    _put(site, range(10, 12)).save()
    cache = _put(site, range(1, 4))
    monkeypatch.setattr(cache_files, "write_cache_file", _fail_for(f"{_key(2).hex()}.tmp", True))
    cache.save()
    monkeypatch.undo()
    written = [_key(1).hex(), _key(3).hex()]
    assert _names(cache.folder) == written
    assert _whole(site, written)


def test_a_rename_failing_leaves_no_temporary_file_and_the_others_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    site = tmp_path / "site_out"
    cache = _put(site, range(1, 4))
    real = os.replace

    def replace(source: Path, target: Path) -> None:
        if Path(target).name == _key(1).hex():
            raise OSError(errno.EIO, "Input/output error", str(target))
        real(source, target)

    monkeypatch.setattr(os, "replace", replace)
    cache.save()
    monkeypatch.undo()
    written = [_key(2).hex(), _key(3).hex()]
    assert _names(cache.folder) == written
    assert _whole(site, written)


def test_a_damaged_snapshot_whose_rewrite_fails_is_removed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    site = tmp_path / "site_out"
    _put(site, range(1, 3)).save()
    damaged = SnapshotCache(site).folder / _key(1).hex()
    damaged.write_bytes(damaged.read_bytes()[:-1])
    cache = SnapshotCache(site)
    assert cache.get(_key(1)) is None and cache.get(_key(2)) == SCORES
    cache.put(_key(1), SCORES)  # scored again
    monkeypatch.setattr(cache_files, "write_cache_file", _fail_for(f"{_key(1).hex()}.tmp", False))
    cache.save()
    monkeypatch.undo()
    # Kept, it would be read and refused build after build: gone, scored again next time.
    assert _names(cache.folder) == [_key(2).hex()]


def test_an_unlink_that_fails_stops_only_that_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    site = tmp_path / "site_out"
    _put(site, range(10, 15)).save()
    cache = _put(site, range(1, 2))
    real = os.unlink
    refused: list[str] = []

    def unlink(path: str | Path, *args: object, **kwargs: object) -> None:
        if not refused:  # the first entry pruned, whichever it is
            refused.append(Path(path).name)
            raise PermissionError(errno.EPERM, "Operation not permitted", str(path))
        real(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "unlink", unlink)
    cache.save()
    monkeypatch.undo()
    assert len(refused) == 1
    assert _names(cache.folder) == sorted([_key(1).hex(), *refused])


def test_a_directory_in_the_folder_does_not_stop_the_pruning(tmp_path: Path) -> None:
    site = tmp_path / "site_out"
    _put(site, range(10, 30)).save()
    cache = _put(site, range(1, 2))
    in_the_way = [_key(n).hex() for n in range(40, 43)]  # named as snapshots: pruned, if files
    for name in in_the_way:  # in whatever order the folder lists them, among the stale files
        (cache.folder / name).mkdir()
    (cache.folder / f"{_key(5).hex()}.tmp").write_bytes(b"a killed build's half snapshot")
    cache.save()
    assert _names(cache.folder) == sorted([_key(1).hex(), *in_the_way])


def test_only_what_the_cache_could_have_written_is_pruned(tmp_path: Path) -> None:
    """A snapshot or a temporary one: the folder's name is the build's, but a file someone
    put in it (or in the folder a link there points to) is not the build's to delete."""
    site = tmp_path / "site_out"
    _put(site, range(10, 12)).save()
    cache = _put(site, range(1, 2))
    theirs = ["README", f"{_key(5).hex()}.bak", f"{_key(5).hex()}.tmp~", f"{_key(5).hex()}x"]
    for name in theirs:
        (cache.folder / name).write_bytes(b"not a snapshot")
    (cache.folder / "ab12").write_bytes(b"another version's key, shorter")
    cache.save()
    assert _names(cache.folder) == sorted([_key(1).hex(), *theirs])


def test_a_right_digest_over_scores_of_another_shape_is_a_miss(tmp_path: Path) -> None:
    """Only a crafted file has one (the key holds the code's digest). `Months` decodes the
    scores again later with no fallback (a traceback): `get` decoding them is what turns
    such a file into a miss and a month scored again."""
    site = tmp_path / "site_out"
    _put(site, range(1, 2)).save()
    path = SnapshotCache(site).folder / _key(1).hex()
    entry = msgspec.msgpack.decode(path.read_bytes(), type=_Entry)
    scores = msgspec.msgpack.encode({"models": "not a table"})
    path.write_bytes(
        msgspec.msgpack.encode(
            msgspec.structs.replace(entry, content=digest(scores), scores=scores)
        )
    )
    cache = SnapshotCache(site)
    assert cache.get(_key(1)) is None and cache.misses == 1


def test_a_snapshot_kept_before_the_provisional_flag_is_a_miss(tmp_path: Path) -> None:
    """A snapshot scored before `SnapshotModel.provisional` (issue 42) holds 9 items per
    model. Its key holds the older code's digest, so no build asks for it; were one found
    under a current key (right digest, crafted), it would not decode into the new struct
    with a made-up flag: the field has no default, so 9 items are a miss, not `False`."""
    model = SnapshotModel(
        model_id="m", dimensions=(120.0, None), composite=120.0, iq=120, rank=1,
        composite_sd=2.0, composite_low95=116.0, composite_high95=124.0,
        rank_band=RankBand(low=1, high=2), provisional=True,
    )  # fmt: skip
    current = msgspec.msgpack.encode(SnapshotScores(models={"m": model}))
    (models,) = msgspec.msgpack.decode(current)
    assert len(models["m"]) == 10 and models["m"][-1] is True
    older = msgspec.msgpack.encode([{"m": models["m"][:-1]}])  # the 9 items of before
    with pytest.raises(msgspec.ValidationError, match="at least length 10"):
        msgspec.msgpack.decode(older, type=SnapshotScores)
    site = tmp_path / "site_out"
    for n, scores in ((1, current), (2, older)):
        entry = _Entry(format=FORMAT, key=_key(n), content=digest(scores), scores=scores)
        folder = SnapshotCache(site).folder
        folder.mkdir(parents=True, exist_ok=True)
        (folder / _key(n).hex()).write_bytes(msgspec.msgpack.encode(entry))
    cache = SnapshotCache(site)
    assert cache.get(_key(1)) == current
    assert cache.get(_key(2)) is None and (cache.hits, cache.misses) == (1, 1)
