"""Outputs memoised by the key of their inputs: each file made by its stage, or kept.

`OutputCache` holds the last build's table (path -> the key that made it, the digest of
its bytes: `Manifest.outputs`) over the live site. `emit` makes a list of files, spread
over forked workers, each one either kept from the last build (when its key is the one
that made the live file, which is still the file the writer recorded: not even read),
read back from the live site (checked against its digest), or made by its pure stage
function; each is placed in the writer's staging tree by the worker that made it. The
stages that call it: the API files (`write_api`), the files derived from them
(`write_derived`) and the pages (`write_pages`, through `emit_pages` and its `Outputs`
protocol).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, Protocol

import msgspec

from generator.api.urls import SiteConfig, api_file
from generator.cache.manifest import Manifest, Output, keyed
from generator.digests import content_digest
from generator.documents.assemble import api_files, api_twins
from generator.documents.derived import derived_files
from generator.errors import BuildError
from generator.output.files import read_cache_file
from generator.output.pool import map_ordered
from generator.output.writer import FileState, Placed, SiteWriter, holds
from generator.pages.render import emit_pages

Documents = dict[str, msgspec.Struct]


class FileCheck(Protocol):
    """The checks each API file passes on its way into the site (`checks.SiteCheck`)."""

    problems: list[str]

    def document_problems(self, path: str, data: bytes, digest: bytes) -> list[str]: ...


class OutputCache:
    """Reuse of single outputs by key, from the live site, checked against their digest.

    A producer asks `reused(path, key)` before making an output and gives every output it
    made to `record(path, key, content)` (`content`: the `content_digest` of its bytes, the
    writer's digest too); `outputs` is then this build's table. Workers ask `lookup`,
    which records nothing, and the parent records what they found.
    """

    def __init__(
        self,
        previous: Mapping[str, Output],
        site: Path | None,
        live: Mapping[str, FileState] | None = None,
    ) -> None:
        self._previous = previous
        self._site = site
        self._live = live or {}  # the writer's record of the live site
        self.outputs: dict[str, Output] = {}
        self.hits = 0

    def kept(self, path: str, key: bytes) -> bytes | None:
        """The digest of `path`'s live bytes, without reading them, when `key` made them and
        the writer's record says the file is still the one it wrote (size, mtime, inode:
        the trust a no-op build gives the whole site); else None. Records nothing."""
        entry = self._previous.get(path)
        state = self._live.get(path)
        if entry is None or entry.key != key or state is None or state.digest != entry.content:
            return None
        return entry.content if self._site is not None and holds(self._site, path, state) else None

    def lookup(self, path: str, key: bytes) -> bytes | None:
        """The previous bytes of `path` if they came from `key` and are still on disk."""
        entry = self._previous.get(path)
        if entry is None or entry.key != key or self._site is None:
            return None
        try:
            data = read_cache_file(self._site / path)  # not a FIFO put in its place
        except OSError:
            return None
        return data if content_digest(data) == entry.content else None

    def reused(self, path: str, key: bytes) -> bytes | None:
        """`lookup`, recording the output as this build's when found."""
        data = self.lookup(path, key)
        if data is not None:
            self.record(path, key, self._previous[path].content)
        return data

    def record(self, path: str, key: bytes, content: bytes) -> None:
        """Note that `key` produced bytes of digest `content` at `path` in this build."""
        entry = self._previous.get(path)
        if entry is not None and entry.key == key and entry.content == content:
            self.hits += 1
            self.outputs[path] = entry
        else:
            self.outputs[path] = Output(key=key, content=content)

    def key(self, parts: Iterable[bytes]) -> bytes:
        """An output key from `parts`, bound to the code version (`keyed`)."""
        return keyed(parts)

    def produce(self, path: str, key: bytes, make: Callable[[], bytes]) -> bytes:
        """The bytes of `path`: reused when `key` matches, else made (and recorded)."""
        data = self.reused(path, key)
        if data is None:
            data = make()
            self.record(path, key, content_digest(data))
        return data


def output_cache(manifest: Manifest, out_dir: Path) -> OutputCache:
    """An OutputCache over the last build's outputs and the live site."""
    site = Path(os.path.abspath(out_dir))
    return OutputCache(manifest.outputs, site if site.is_dir() else None, manifest.trees.live)


def write_api(
    site: SiteWriter,
    check: FileCheck,
    documents: Documents,
    config: SiteConfig,
    workers: int,
    outputs: OutputCache | None = None,
    keys: Mapping[str, bytes] | None = None,
    openapi: Mapping[str, Any] | None = None,
) -> dict[str, bytes]:
    """Stage render, its second half: every API file encoded, checked and put in the site
    (the alias tree as hard links to the versioned files); returns each file's digest.
    A file with a key in `keys` (by file) is kept from the last build when that key made
    it (`outputs`) and is recorded under it. `openapi`: `build_openapi(documents)`, if made."""
    keys = keys or {}
    jobs = [
        OutputJob(name, make, key=keys.get(name), twins=tuple(api_twins(name)))
        for name, make in api_files(documents, config, openapi)
    ]
    emit(site, jobs, workers, outputs, check=check)
    return {job.path: site.digests[job.path] for job in jobs}


@dataclass(frozen=True)
class OutputJob:
    """One file for `emit`: its path, how to make it, the key to reuse it by (none: always
    made) and the alias paths that hold the same bytes."""

    path: str
    make: Callable[[], bytes]
    key: bytes | None = None
    twins: tuple[str, ...] = ()


_Made = tuple[bytes, Placed, list[Placed], list[str]]


def emit(
    site: SiteWriter,
    jobs: Sequence[OutputJob],
    workers: int,
    outputs: OutputCache | None = None,
    check: FileCheck | None = None,
) -> None:
    """Make every job's file and put it in the site, spread over `workers` forked
    processes: each makes its file (or reads back the last build's, when `outputs` has
    it under the job's key), checks it, and places it and its twins in the staging tree
    itself; only digests and file states come back."""
    for job in jobs:
        for path in (job.path, *job.twins):
            site.claim(path)

    def make(index: int) -> _Made:
        job = jobs[index]
        data = None
        if outputs is not None and job.key is not None:
            kept = outputs.kept(job.path, job.key)
            placed = site.place_kept(job.path, kept) if kept is not None else None
            if kept is not None and placed is not None:
                # The last build's file (and its twins), not even read.
                return kept, placed, _kept_twins(site, job, kept, outputs), []
            data = outputs.lookup(job.path, job.key)
        if data is None:
            data = job.make()
        digest = content_digest(data)
        problems = check.document_problems(job.path, data, digest) if check else []
        placed = site.place(job.path, data, digest)
        twins = [site.place_twin(twin, job.path, data, digest) for twin in job.twins]
        return digest, placed, twins, problems

    for job, (digest, placed, twins, problems) in zip(
        jobs, map_ordered(make, len(jobs), workers), strict=True
    ):
        site.note(job.path, placed)
        for twin, twin_placed in zip(job.twins, twins, strict=True):
            site.note(twin, twin_placed)
        if outputs is not None and job.key is not None:
            outputs.record(job.path, job.key, digest)
        if check is not None:
            check.problems.extend(problems)


def _kept_twins(
    site: SiteWriter, job: OutputJob, digest: bytes, outputs: OutputCache
) -> list[Placed]:
    """`job`'s twins beside its kept file: each kept too, else linked to it (read back to
    be placed, only then)."""
    twins: list[Placed] = []
    data: bytes | None = None
    for twin in job.twins:
        placed = site.place_kept(twin, digest)
        if placed is None:
            if data is None:
                data = outputs.lookup(job.path, job.key or b"") or job.make()
            placed = site.place_twin(twin, job.path, data, digest)
        twins.append(placed)
    return twins


def write_derived(
    site: SiteWriter,
    documents: Mapping[str, msgspec.Struct],
    api: Mapping[str, bytes],
    config: SiteConfig,
    outputs: OutputCache,
    workers: int,
) -> None:
    """Stage downloads: the CSV downloads, the Atom feed and llms.txt, each reused when the
    API files it is made from (by digest, `api`) and the site settings did not change. A
    file made of others' rows (the whole history's CSV) is joined from their bytes once
    they are in the site, not written cell by cell again."""
    files = derived_files(documents, api, config)
    for later in (False, True):
        jobs = [
            OutputJob(
                d.path,
                partial(_joined, site, d.parts, d.join, d.make) if d.join is not None else d.make,
                key=derived_key(outputs, d.path, d.inputs),
            )
            for d in files
            if (d.join is not None) is later
        ]
        emit(site, jobs, workers, outputs)


def derived_key(outputs: OutputCache, path: str, inputs: Sequence[bytes]) -> bytes:
    """The key of a derived file (`write_derived`): its path and the bytes it is made from."""
    return outputs.key([path.encode(), *inputs])


def _joined(
    site: SiteWriter,
    parts: Sequence[str],
    join: Callable[[Sequence[bytes]], bytes],
    make: Callable[[], bytes],
) -> bytes:
    """`join` of the parts' bytes; made cell by cell when a part kept from the last build
    is not the bytes it was (damaged in the site with its size and time unchanged)."""
    try:
        data = [site.staged(part) for part in parts]
    except BuildError:
        return make()
    return join(data)


def write_pages(
    site: SiteWriter,
    documents: Documents,
    openapi: Mapping[str, Any],
    config: SiteConfig,
    outputs: OutputCache,
    workers: int,
) -> None:
    """Stage pages: every page, static file and chart preview (the unchanged ones reused),
    each written by the worker that rendered it."""
    try:
        emit_pages(
            documents,
            config,
            site,
            openapi,
            outputs=outputs,
            run=lambda task, count: map_ordered(task, count, workers),
            published=lambda path: site.digests.get(api_file(path)),
        )
    except OSError as exc:
        raise BuildError(f"cannot render the pages: {exc}") from exc
