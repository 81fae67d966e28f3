"""The history's snapshot cache: scored month ends kept between builds, by their inputs.

A folder beside the site (`history_cache_path`, outside the published tree) with one file
per snapshot, named by the hex of its key (`scoring.history._SnapshotKeys`: the digest of
the month's scoring inputs and of the generator's code). A file holds its format, its key,
the digest of the encoded scores and the scores. A snapshot is reused only when all four
check out, so a missing, truncated, foreign, renamed or edited file means scoring that
month again, never a wrong history (the digest is no signature: whoever can write here
can write well-formed wrong scores, as they can write the site beside it). Files are
written to a temporary name and renamed (a killed build leaves whole files, and temporary
ones the next build removes), and after a build the folder keeps only the snapshots that
build used (and entries it cannot remove or did not name).
"""

from __future__ import annotations

import contextlib
import os
import re
from pathlib import Path

import msgspec

from generator.cache import manifest
from generator.cache.manifest import history_cache_path
from generator.digests import digest
from generator.output.files import read_cache_file, replace_cache_file
from generator.scoring.history import SnapshotScores

FORMAT = 1
_OURS = re.compile(r"[0-9a-f]+(\.tmp)?")
"""The names `save` writes (a key's hex, its temporary file): the only ones it deletes.
Any length: another code version's keys, of another size, are still pruned."""


class _Entry(msgspec.Struct, array_like=True, frozen=True):
    format: int
    key: bytes
    content: bytes  # digest of `scores`
    scores: bytes  # msgpack of SnapshotScores


class SnapshotCache:
    """A `scoring.history.SnapshotStore` over the folder beside the site at `out_dir`."""

    def __init__(self, out_dir: Path) -> None:
        self.folder = history_cache_path(out_dir)
        self.code = manifest.CODE  # the generator's version, part of every key
        self._used: set[str] = set()
        self._new: dict[str, tuple[bytes, bytes]] = {}  # by name: key, scores
        self.hits = 0
        self.misses = 0

    def get(self, key: bytes) -> bytes | None:
        """The scores kept under `key` (msgpack that decodes as `SnapshotScores`), or None
        (missing, damaged or from another key)."""
        name = key.hex()
        try:
            entry = msgspec.msgpack.decode(read_cache_file(self.folder / name), type=_Entry)
            if entry.format != FORMAT or entry.key != key or digest(entry.scores) != entry.content:
                raise ValueError(name)
            # `Months` decodes them again with no fallback: this makes a file whose digest
            # checks out over another shape (a crafted one) a miss, not a traceback. Cost:
            # about 53 ms of a 0.7 s history stage replaying 60 months of 2,000 models.
            msgspec.msgpack.decode(entry.scores, type=SnapshotScores)
        except (OSError, ValueError, msgspec.DecodeError):
            self.misses += 1
            return None
        self._used.add(name)
        self.hits += 1
        return entry.scores

    def put(self, key: bytes, scores: bytes) -> None:
        """Keep `scores` (msgpack of `SnapshotScores`) under `key`: written by `save`, the
        same bytes object held until then, not a copy."""
        self._new[key.hex()] = (key, scores)

    def save(self) -> None:
        """Write the new snapshots and drop the ones this build did not use.

        Failing to write costs the next build time, never correctness: each write and each
        unlink fails on its own (a full disk, an entry in the way), a failed write leaves
        no temporary file, and a name whose write failed is dropped with the unused ones.
        """
        try:
            self.folder.mkdir(exist_ok=True)
        except OSError:
            return
        written = {name for name, entry in sorted(self._new.items()) if self._write(name, *entry)}
        keep = self._used | written
        try:
            with os.scandir(self.folder) as entries:
                found = [entry.name for entry in entries]
        except OSError:
            return
        for name in found:
            if name not in keep and _OURS.fullmatch(name):
                with contextlib.suppress(OSError):  # a folder, say: the others are still tried
                    os.unlink(self.folder / name)

    def _write(self, name: str, key: bytes, data: bytes) -> bool:
        """Write one snapshot file (a temporary one, renamed); whether it is there now."""
        entry = _Entry(format=FORMAT, key=key, content=digest(data), scores=data)
        try:
            replace_cache_file(self.folder / name, msgspec.msgpack.encode(entry))
        except OSError:
            return False
        return True
