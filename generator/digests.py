"""One digest for every cache key: the build cache, the record cache, the history snapshots."""

from __future__ import annotations

import hashlib


def digest(*parts: bytes) -> bytes:
    """A SHA-256 of `parts`, each length-prefixed (so no two sequences collide): a key
    kept only beside the site, never published. SHA-256 (OpenSSL) hashes the record
    cache's 4.5 KB files about 1.7x as fast as BLAKE2b here."""
    h = hashlib.sha256()
    for part in parts:
        h.update(len(part).to_bytes(8, "little"))
        h.update(part)
    return h.digest()


def content_digest(data: bytes) -> bytes:
    """The digest of a published file's bytes (SHA-256): the writer's record of every file
    and the build cache's check of a reused output are the same hash, computed once."""
    return hashlib.sha256(data).digest()
