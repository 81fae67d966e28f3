"""The loader's record cache: a file parsed by an earlier build is not parsed again.

Same `Dataset` with and without it; a damaged or foreign cache, or an entry that no longer
decodes, means parsing again; only files that loaded without a problem are kept.
"""

from __future__ import annotations

import errno
import os
import shutil
from pathlib import Path

import msgspec
import pytest
from support.paths import FIXTURE_DATA

from generator.cache import records as parsed
from generator.cache.manifest import records_cache_path
from generator.cache.records import RecordCache
from generator.errors import DataError
from generator.input import load
from generator.input.load import load_dataset
from generator.output import files as cache_files


def _data_files(data: Path) -> list[Path]:
    return sorted(data.rglob("*.toml"))


def _warm(tmp_path: Path) -> tuple[Path, Path]:
    data = tmp_path / "data"
    shutil.copytree(FIXTURE_DATA, data)
    out = tmp_path / "site_out"
    cold = RecordCache(out)
    assert msgspec.json.encode(load_dataset(data, cold)) == msgspec.json.encode(load_dataset(data))
    assert cold.hits == 0
    cold.save()
    return data, out


def test_a_second_load_parses_nothing_and_gives_the_same_dataset(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data, out = _warm(tmp_path)
    fresh = load_dataset(data)

    def never(*_: object) -> None:
        raise AssertionError("a cached file was parsed again")

    warm = RecordCache(out)
    with monkeypatch.context() as patch:
        patch.setattr(load, "_parse_file", never)
        cached = load_dataset(data, warm)
    assert warm.hits == len(_data_files(data))
    assert cached == fresh
    assert msgspec.json.encode(cached) == msgspec.json.encode(fresh)


def test_an_edited_file_is_parsed_again(tmp_path: Path) -> None:
    data, out = _warm(tmp_path)
    model = data / "models" / "beta-1.toml"
    model.write_text(model.read_text(encoding="utf-8").replace("output = 1.5", "output = 2.5"))
    warm = RecordCache(out)
    assert load_dataset(data, warm) == load_dataset(data)
    assert warm.hits == len(_data_files(data)) - 1


@pytest.mark.parametrize("how", ["truncated", "flipped", "foreign code", "garbage"])
def test_a_damaged_cache_reads_as_empty(tmp_path: Path, how: str) -> None:
    data, out = _warm(tmp_path)
    path = records_cache_path(out)
    raw = path.read_bytes()
    if how == "truncated":
        path.write_bytes(raw[: len(raw) // 2])
    elif how == "flipped":  # a digit of a value, inside the table: its digest no longer matches
        at = raw.rindex(b'"value":') + len(b'"value":')
        path.write_bytes(raw[:at] + bytes([raw[at] ^ 1]) + raw[at + 1 :])
    elif how == "foreign code":
        entry = msgspec.msgpack.decode(raw, type=parsed._File)
        path.write_bytes(msgspec.msgpack.encode(msgspec.structs.replace(entry, code=b"other")))
    else:
        path.write_bytes(b"\x00garbage")
    store = RecordCache(out)
    assert load_dataset(data, store) == load_dataset(data)
    assert store.hits == 0


def test_an_entry_that_no_longer_decodes_is_parsed_again(tmp_path: Path) -> None:
    data, out = _warm(tmp_path)
    store = RecordCache(out)
    store._old = {key: b'{"not": "a record"}' for key in store._old}
    assert load_dataset(data, store) == load_dataset(data)
    assert store.hits == 0


def test_a_file_with_a_problem_is_not_kept(tmp_path: Path) -> None:
    data, out = _warm(tmp_path)
    model = data / "models" / "beta-1.toml"
    model.write_text(model.read_text(encoding="utf-8") + "\nunknown_field = 1\n")
    store = RecordCache(out)
    with pytest.raises(DataError, match=r"beta-1.toml: results\[2\].unknown_field: unknown"):
        load_dataset(data, store)
    key = load.record_key(store.code, load.ModelRecord, model.name, model.read_bytes())
    assert key not in store._used


def test_a_few_edits_do_not_rewrite_the_cache_many_do(tmp_path: Path) -> None:
    """One edited file is parsed again each time instead of rewriting the whole file; past
    `REWRITE_AFTER` fresh files (or 1%) the file is rewritten with what the build used."""
    data, out = _warm(tmp_path)
    path = records_cache_path(out)
    before = path.read_bytes()
    model = data / "models" / "beta-1.toml"
    model.write_text(model.read_text(encoding="utf-8").replace("output = 1.5", "output = 2.5"))
    store = RecordCache(out)
    load_dataset(data, store)
    store.save()
    assert path.read_bytes() == before
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(parsed, "REWRITE_AFTER", 0)
        store = RecordCache(out)
        load_dataset(data, store)
        store.save()
    again = RecordCache(out)
    load_dataset(data, again)
    assert again.hits == len(_data_files(data))


def test_a_copied_data_directory_still_hits(tmp_path: Path) -> None:
    """The key is the file's name and bytes, not the data directory's path."""
    data, out = _warm(tmp_path)
    moved = tmp_path / "elsewhere" / "data"
    shutil.copytree(data, moved)
    store = RecordCache(out)
    assert load_dataset(moved, store) == load_dataset(moved)
    assert store.hits == len(_data_files(moved))


def _half_written(path: Path, data: bytes) -> None:
    with path.open("wb") as f:
        f.write(data[: len(data) // 2])  # the disk filled up halfway through
    raise OSError(errno.ENOSPC, "No space left on device", str(path))


def _not_renamed(source: object, target: object) -> None:
    raise OSError(errno.EIO, "Input/output error", str(target))


@pytest.mark.parametrize("fail", ["write", "rename"])
def test_a_rewrite_that_fails_keeps_the_old_cache_and_no_temporary_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fail: str
) -> None:
    """The old file is whole (the new one replaces it by a rename or not at all) and still
    right: each record is keyed by its file's bytes and the code. Losing it would cost the
    next build every file's parse."""
    data, out = _warm(tmp_path)
    path = records_cache_path(out)
    before = path.read_bytes()
    model = data / "models" / "beta-1.toml"
    model.write_text(model.read_text(encoding="utf-8").replace("output = 1.5", "output = 2.5"))
    store = RecordCache(out)
    load_dataset(data, store)
    with monkeypatch.context() as patch:
        patch.setattr(parsed, "REWRITE_AFTER", 0)
        if fail == "write":
            patch.setattr(cache_files, "write_cache_file", _half_written)
        else:
            patch.setattr(os, "replace", _not_renamed)
        store.save()
    assert sorted(p.name for p in path.parent.iterdir()) == sorted(["data", path.name])
    assert path.read_bytes() == before
    again = RecordCache(out)
    assert load_dataset(data, again) == load_dataset(data)
    assert again.hits == len(_data_files(data)) - 1  # all but the edited file


def test_a_killed_builds_temporary_file_is_removed_by_the_next_build(tmp_path: Path) -> None:
    """Even when that build does not rewrite the cache (few fresh files): a temporary file
    left beside the site would otherwise hold its tens of megabytes until one does."""
    data, out = _warm(tmp_path)
    path = records_cache_path(out)
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_bytes(path.read_bytes()[:100])
    store = RecordCache(out)
    load_dataset(data, store)
    store.save()
    assert not temporary.exists() and path.exists()
