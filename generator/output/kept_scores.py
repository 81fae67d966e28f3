"""The kept part of today's scores: one file beside the site, by the digest of its inputs.

`kept_scores_path` (outside the published tree) holds the format, the key
(`scoring.kept.kept_key`: the digest of the scoring inputs and of the generator's code),
the digest of the encoded scores and the scores. They are reused only when all four check
out, so a missing, truncated, foreign, renamed or edited file means scoring again, never
wrong scores. The file is written to a temporary name and renamed (a killed build leaves
the old file or the new one, and a temporary file the next build removes).
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

import msgspec

from generator.digests import digest
from generator.output import cache
from generator.scoring.kept import Kept

FORMAT = 1
KEPT_SCORES_SUFFIX = ".build-cache-scores"


class _Entry(msgspec.Struct, array_like=True, frozen=True):
    format: int
    key: bytes
    content: bytes  # digest of `scores`
    scores: bytes  # msgpack of the `Kept` scores


def kept_scores_path(out_dir: Path) -> Path:
    """The file of today's price-independent scores for the site at `out_dir`."""
    out_dir = Path(os.path.abspath(out_dir))
    return out_dir.parent / f".{out_dir.name}{KEPT_SCORES_SUFFIX}"


class KeptScores:
    """A `scoring.kept.KeptStore` over the file beside the site at `out_dir`."""

    def __init__(self, out_dir: Path) -> None:
        self.path = kept_scores_path(out_dir)
        self.code = cache.CODE  # the generator's version, part of every key
        self.hit = False
        with contextlib.suppress(OSError):  # a killed build's (the writer's lock is held)
            os.unlink(cache.temporary_path(self.path))

    def get(self, key: bytes) -> Kept | None:
        """The scores kept under `key`, or None (missing, damaged or from another key)."""
        try:
            entry = msgspec.msgpack.decode(cache.read_cache_file(self.path), type=_Entry)
            if entry.format != FORMAT or entry.key != key or digest(entry.scores) != entry.content:
                return None
            kept = msgspec.msgpack.decode(entry.scores, type=Kept)
        except (OSError, ValueError, msgspec.DecodeError):
            return None
        self.hit = True
        return kept

    def put(self, key: bytes, kept: Kept) -> None:
        """Keep `kept` under `key`, replacing the file; failing to costs time, never correctness."""
        data = msgspec.msgpack.encode(kept)
        entry = _Entry(format=FORMAT, key=key, content=digest(data), scores=data)
        with contextlib.suppress(OSError):  # the old file, if any, stays valid under its own key
            cache.replace_cache_file(self.path, msgspec.msgpack.encode(entry))
