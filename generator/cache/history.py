"""The history stage memoised: its documents kept as published, else made from the replay.

The history's documents (the list, each snapshot, the changes, each model's history) are
made from the replayed month ends (`scoring.history.replay_months`, the slowest part of a
cold build). Two memos spare that work: the whole stage, by the key of what its
documents are made from (`history_inputs`, the code, the site settings: when the last
build published them from that key and the site still holds them, none is made again),
and each month, by the digest of its scoring inputs (`SnapshotCache`).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

import msgspec

from generator.api.contract import MODEL_HISTORY
from generator.api.files import model_history_download
from generator.api.urls import SiteConfig, api_file
from generator.cache.outputs import Documents, OutputCache, derived_key
from generator.cache.snapshots import SnapshotCache
from generator.documents.assemble import api_twins, history_inputs, history_part, history_paths
from generator.documents.common import Published
from generator.errors import BuildError
from generator.input.records import Dataset
from generator.output.pool import map_ordered
from generator.output.writer import SiteWriter
from generator.scoring.history import Snapshot, replay_months


def history_stage(
    dataset: Dataset, config: SiteConfig, site: SiteWriter, outputs: OutputCache, workers: int
) -> tuple[Documents, bytes]:
    """Stage history: the documents made from the replayed history, and the key of what
    they are made from (`history_inputs`, the code, the site settings). When the last
    build published them from the same key and the site still holds every one of them,
    they are kept as they are: no month is replayed and no document made again (the pages
    read the list, the snapshots and the changes, decoded from their files). Otherwise
    they are made from the replay, every unchanged month from the snapshot cache."""
    key = outputs.key([b"history", msgspec.msgpack.encode(config), *history_inputs(dataset)])
    past = _kept_history(dataset, key, outputs, site)
    if past is None:
        snapshot_cache = SnapshotCache(site.out_dir)
        snapshots = replay(dataset, snapshot_cache, workers)
        snapshot_cache.save()
        del snapshot_cache
        past = history_part(dataset, snapshots, config)
    return past, key


def _kept_history(
    dataset: Dataset, key: bytes, outputs: OutputCache, site: SiteWriter
) -> Documents | None:
    """The history's documents as the last build published them under `key`, or None when
    any of their files is not that build's any more (then they are all made again)."""
    kinds = history_paths(dataset)
    kept = [outputs.kept(api_file(path), key) for _, path in kinds]
    if any(digest is None for digest in kept):
        return None
    past: Documents = {}
    for (kind, path), digest in zip(kinds, kept, strict=True):
        name = api_file(path)
        if kind is MODEL_HISTORY and digest and _never_read(site, outputs, name, digest, path):
            past[path] = Published(kind.response, partial(_read_kept, outputs, name, key))
            continue
        data = outputs.lookup(name, key)
        if data is None:  # changed since, its size and time kept
            return None
        if kind is MODEL_HISTORY:  # no page reads them: only their files are kept
            past[path] = Published(kind.response, partial(_read_kept, outputs, name, key))
        else:
            past[path] = msgspec.json.decode(data, type=kind.response)
    return past


def _never_read(
    site: SiteWriter, outputs: OutputCache, name: str, digest: bytes, path: str
) -> bool:
    """Whether this build will not read the kept model history `name` (of `digest`): its
    alias twins are kept by the record too, and so is its CSV (the only file made from
    it), under the key `write_derived` gives it. Then its bytes are not read here either
    (a file damaged with its size and time kept is trusted, as any kept file is); else
    they are read and checked now, so that a damaged one makes the history again instead
    of failing the build when they are read."""
    if not all(site.holds_live(twin, digest) for twin in api_twins(name)):
        return False
    model_id = MODEL_HISTORY.path_value(path)
    if model_id is None:
        return False
    csv = model_history_download(model_id)
    return outputs.kept(csv, derived_key(outputs, csv, (digest,))) is not None


def _read_kept(outputs: OutputCache, name: str, key: bytes) -> bytes:
    data = outputs.lookup(name, key)
    if data is None:
        raise BuildError(f"{name}: changed in the site during the build; build again")
    return data


def replay(dataset: Dataset, cache: SnapshotCache, workers: int = 1) -> Sequence[Snapshot]:
    """The replayed month ends (`replay_months`), reusing `cache`'s scored months; each
    snapshot made as it is read (`Months`: only their msgpack is held)."""
    return replay_months(
        dataset,
        store=cache,
        code=cache.code,
        run=lambda task, count: map_ordered(task, count, workers, minimum=2),
    )
