"""The loader's record cache: data files parsed by an earlier build, by their bytes.

One file beside the site (`records_cache_path`, outside the published tree): the format,
the generator's code version, and a table from a record key (`input.load.record_key`: the
digest of the code, the record type, the file's name and its bytes) to the record as JSON,
with the digest of that table. Only files that loaded without a problem are kept. A
missing, truncated, foreign or edited cache reads as empty (every file parsed again); a
record that no longer decodes into its type is parsed again. The file is written to a
temporary name and renamed, after the build, keeping only the records that build used,
once more than `REWRITE_AFTER` files (or 1%) were parsed afresh; when that fails the old
file stays (a killed build's temporary file is removed by the next build).
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import TypeVar

import msgspec

from generator.cache import manifest
from generator.cache.manifest import records_cache_path
from generator.digests import digest
from generator.output.files import read_cache_file, replace_cache_file, temporary_path

FORMAT = 1
REWRITE_AFTER = 64
"""Parsed files not in the cache file before it is rewritten (or 1% of them, if more)."""
R = TypeVar("R", bound=msgspec.Struct)


class _File(msgspec.Struct, array_like=True, frozen=True):
    format: int
    code: bytes
    content: bytes  # digest of `table`
    table: bytes  # msgpack of dict[key, record JSON]


class RecordCache:
    """An `input.load.RecordStore` kept in one file beside the site at `out_dir`."""

    def __init__(self, out_dir: Path) -> None:
        self.path = records_cache_path(out_dir)
        self.code = manifest.CODE
        with contextlib.suppress(OSError):  # a killed build's (the writer's lock is held)
            os.unlink(temporary_path(self.path))
        self._old = self._read()
        self._used: dict[bytes, bytes] = {}
        self.hits = 0

    def _read(self) -> dict[bytes, bytes]:
        try:
            found = msgspec.msgpack.decode(read_cache_file(self.path), type=_File)
            if found.format != FORMAT or found.code != self.code:
                return {}
            if digest(found.table) != found.content:
                return {}
            return msgspec.msgpack.decode(found.table, type=dict[bytes, bytes])
        except (OSError, msgspec.DecodeError):
            return {}

    def _worth_saving(self) -> bool:
        fresh = sum(1 for key in self._used if key not in self._old)
        if not self._old:
            return bool(fresh)
        return fresh > max(REWRITE_AFTER, len(self._used) // 100)

    def get(self, key: bytes, kind: type[R]) -> R | None:
        """The record kept under `key`, or None."""
        data = self._old.get(key)
        if data is None:
            return None
        try:
            record = msgspec.json.decode(data, type=kind)
        except msgspec.DecodeError:
            return None
        self._used[key] = data
        self.hits += 1
        return record

    def put(self, key: bytes, record: msgspec.Struct) -> None:
        """Keep `record` (parsed without a problem) under `key`."""
        self._used[key] = msgspec.json.encode(record)

    def save(self) -> None:
        """Keep what this build used; failures cost time only.

        The file is rewritten only when enough records are new (`_worth_saving`): after a
        one-file edit it is left as it is (that file is parsed again next time, about a
        millisecond) instead of rewriting tens of megabytes at 10,000 models.
        """
        if not self._worth_saving():
            return
        table = msgspec.msgpack.encode(dict(sorted(self._used.items())))
        data = msgspec.msgpack.encode(
            _File(format=FORMAT, code=self.code, content=digest(table), table=table)
        )
        # On failure the old file, if any, is whole (replaced by a rename or not at all) and
        # still right: each record is keyed by its file's bytes and the code.
        with contextlib.suppress(OSError):
            replace_cache_file(self.path, data)
