"""One digest for every cache key: the build cache, the record cache, the history snapshots."""

from __future__ import annotations

import hashlib


def digest(*parts: bytes) -> bytes:
    """A 32-byte BLAKE2b of `parts`, each length-prefixed (so no two sequences collide)."""
    h = hashlib.blake2b(digest_size=32)
    for part in parts:
        h.update(len(part).to_bytes(8, "little"))
        h.update(part)
    return h.digest()


def content_digest(data: bytes) -> bytes:
    """The digest of a published file's bytes (SHA-256): the writer's record of every file
    and the build cache's check of a reused output are the same hash, computed once."""
    return hashlib.sha256(data).digest()
