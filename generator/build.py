"""The build pipeline, one stage after another; `_build` is the list:

cache (is the site current? `output.cache.site_state`) -> load -> history (and the
documents made from it, before scoring: see `_build`) -> score -> render (documents, API
files) -> downloads (CSV, feed, llms.txt) -> pages -> check -> write. From the API files
on, each file goes to the writer's staging tree as it is made (`output.writer.SiteWriter`:
the spare tree beside the site, updated in place) and only its digest is kept, so memory
holds the documents, not the site; the checks see every file on its way
(`checks.SiteCheck`). The last stage swaps the tree in atomically; any failure before it
(a failed check included) deletes the staging tree and leaves the previous site exactly
as it was. `build_api` runs the same stages up to the API files, held whole, and the API
check (for `modelscores diff`).
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import msgspec

from generator.api.contract import MODEL_HISTORY
from generator.api.files import model_history_download
from generator.api.hosting import check_redirects, render_hosting
from generator.api.openapi import build_openapi
from generator.api.urls import HTML_404, SiteConfig, api_file
from generator.checks import SiteCheck, check_api, fail_on
from generator.digests import content_digest
from generator.documents.assemble import (
    api_files,
    api_twins,
    build_documents,
    history_inputs,
    history_part,
    history_paths,
    render_api,
)
from generator.documents.common import Published
from generator.documents.derived import derived_files
from generator.documents.models import model_aliases
from generator.errors import BuildError, DataError
from generator.input.load import check_tree, load_dataset
from generator.input.records import Dataset
from generator.output.cache import OutputCache, output_cache, save_manifest, site_state
from generator.output.kept_scores import KeptScores
from generator.output.parsed import RecordCache
from generator.output.pool import default_workers, map_ordered
from generator.output.report import BuildReport as BuildReport
from generator.output.report import unchanged_report
from generator.output.snapshots import SnapshotCache
from generator.output.writer import Placed, SiteWriter
from generator.pages import charts
from generator.pages.render import emit_pages
from generator.pages.sitedocs import SiteDocuments
from generator.pages.svg import RenderError
from generator.scoring import compute_scores
from generator.scoring.history import Snapshot, replay_months
from generator.scoring.kept import reuse_scores
from generator.scoring.types import Scores

Documents = dict[str, msgspec.Struct]


class _Timer:
    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}

    @contextmanager
    def stage(self, name: str) -> Iterator[None]:
        started = time.perf_counter()
        try:
            yield
        finally:
            self.seconds[name] = round(time.perf_counter() - started, 4)


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector for the length of a build.

    A build allocates millions of long-lived objects (records, scores, documents, pages)
    and frees few of them before it ends, so every full collection walks them all again:
    at 10,000 models that was about 2 s, and it made scoring and rendering grow faster
    than linearly. Reference counting still frees every acyclic object at once; the
    collector runs again, as before, once the build is over.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


UNDRAWABLE = (RecursionError, MemoryError, OverflowError, RenderError)
"""What data that passed validation could still raise while scored or drawn. The loader
bounds depth (16), file size (5 MB), magnitudes and dates, so none is expected; each is
turned into one data error line instead of a traceback."""


def build_site(
    data_dir: Path, out_dir: Path, config: SiteConfig, *, workers: int | None = None
) -> BuildReport:
    """Build the whole site from `data_dir` into `out_dir` (raises DataError/BuildError).

    The build cache beside `out_dir` (`generator/output/cache.py`) makes a rebuild from
    unchanged inputs stop after hashing them, and lets pages and previews whose inputs did
    not change be taken from the live site. `workers`: processes rendering pages (default:
    `$MODELSCORES_JOBS`, else every usable CPU).
    """
    with gc_paused(), _undrawable_as_data_error(data_dir):
        return _build(data_dir, out_dir, config, workers or default_workers())


def build_api(data_dir: Path, config: SiteConfig) -> dict[str, bytes]:
    """The API files alone of a build of `data_dir`, keyed by site path: what `modelscores
    diff` compares. Raises what a build raises for the same data (DataError/BuildError):
    the documents are checked as a build checks them and every chart is drawn, but no
    preview is rasterised and no page, download or hosting rule is made; no cache, nothing
    written."""
    with gc_paused(), _undrawable_as_data_error(data_dir):
        dataset = load_dataset(data_dir)
        scores = compute_scores(dataset)
        documents, api = render(dataset, scores, history(dataset), config)
        charts.draw_charts(SiteDocuments(documents), rasterise=lambda _url, _svg: b"")
    fail_on(check_api(api))
    return api


@contextmanager
def _undrawable_as_data_error(data_dir: Path) -> Iterator[None]:
    try:
        yield
    except UNDRAWABLE as exc:
        detail = " ".join(str(exc).split()) or "out of memory"
        problem = f"{data_dir}: data: cannot be built ({type(exc).__name__}: {detail})"
        raise DataError([problem]) from None


def _build(data_dir: Path, out_dir: Path, config: SiteConfig, workers: int) -> BuildReport:
    timer = _Timer()
    with timer.stage("cache"):
        check_tree(data_dir)  # before the cache digest reads every byte of data/
        state = site_state(data_dir, out_dir, config)
        if state.current:
            return unchanged_report(state.manifest, out_dir, timer.seconds)
        outputs = output_cache(state.manifest, out_dir)
    # A file with the very bytes this code checked and published last time passes again
    # (a manifest from other code has no `code`: load_manifest keeps only its trees).
    last = state.manifest.trees.live if state.manifest.code else {}
    check = SiteCheck({path: s.digest for path, s in last.items()})
    # The writer's lock from here on: the caches beside the site are saved as soon as
    # they are complete (their entries stand alone, keyed by their inputs), and the site's
    # files are written from the render stage on.
    with SiteWriter(out_dir, state.manifest.trees) as site:
        site.start_linking()  # a child checks the spare, or links the live site, meanwhile
        with timer.stage("load"):
            record_cache = RecordCache(out_dir)
            dataset = load_dataset(data_dir, record_cache)
            record_cache.save()
            del record_cache
            check_hosting(dataset, config)
        with timer.stage("history"):
            # Its documents first: then the replayed months (every model at every month
            # end, held as msgpack and decoded a few at a time) are gone before today's
            # scores are computed.
            past, past_key = history_stage(dataset, config, site, outputs, workers)
        with timer.stage("score"):  # the price-independent part kept beside the site
            scores = reuse_scores(dataset, KeptScores(out_dir))
        with timer.stage("render"):
            keys = {api_file(path): past_key for path in past}
            documents = build_documents(dataset, scores, config, past=past)
            del dataset, scores, past  # the documents hold all that is published
            openapi = build_openapi(documents, config)  # the file and the docs page
            api = write_api(site, check, documents, config, workers, outputs, keys, openapi)
        with timer.stage("downloads"):
            write_derived(site, documents, api, config, outputs, workers)
            del api
        with timer.stage("pages"):
            _pages(site, documents, openapi, config, outputs, workers)
        with timer.stage("check"):
            hosting = render_hosting(
                config, HTML_404 in site.digests, model_aliases(documents), documents
            )
            for path, data in hosting.items():
                site.put(path, data)
            check.finish(site.digests, hosting["_redirects"])
        with timer.stage("write"):
            written = site.finish(
                # Under the writer's lock, so the record matches the site it describes.
                after=lambda trees: save_manifest(
                    out_dir, state.inputs, len(documents), outputs.outputs, trees
                )
            )
    return BuildReport(
        out_dir=str(out_dir),
        files=len(site.digests),
        written=written.written,
        unchanged=written.unchanged,
        swapped=written.swapped,
        documents=len(documents),
        seconds=timer.seconds,
    )


def check_hosting(dataset: Dataset, config: SiteConfig) -> None:
    """`_redirects` too large for the loaded data is a `BuildError` before anything is
    scored or written: its rules are the published models' history rewrites and aliases
    (`model_history_documents`, `model_aliases`), counted and measured, not made."""
    check_redirects(
        config,
        True,  # the pages' 404.html: one rule more, never less
        {m.id: list(m.aliases) for m in dataset.models if m.aliases},
        [MODEL_HISTORY.api_path(m.id) for m in dataset.models],
    )


def write_api(
    site: SiteWriter,
    check: SiteCheck,
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
        Output(name, make, key=keys.get(name), twins=tuple(api_twins(name)))
        for name, make in api_files(documents, config, openapi)
    ]
    emit(site, jobs, workers, outputs, check=check)
    return {job.path: site.digests[job.path] for job in jobs}


@dataclass(frozen=True)
class Output:
    """One file for `emit`: its path, how to make it, the key to reuse it by (none: always
    made) and the alias paths that hold the same bytes."""

    path: str
    make: Callable[[], bytes]
    key: bytes | None = None
    twins: tuple[str, ...] = ()


_Made = tuple[bytes, Placed, list[Placed], list[str]]


def emit(
    site: SiteWriter,
    jobs: Sequence[Output],
    workers: int,
    outputs: OutputCache | None = None,
    check: SiteCheck | None = None,
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


def _kept_twins(site: SiteWriter, job: Output, digest: bytes, outputs: OutputCache) -> list[Placed]:
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
        snapshots = history(dataset, snapshot_cache, workers)
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
    return outputs.kept(csv, _derived_key(outputs, csv, (digest,))) is not None


def _read_kept(outputs: OutputCache, name: str, key: bytes) -> bytes:
    data = outputs.lookup(name, key)
    if data is None:
        raise BuildError(f"{name}: changed in the site during the build; build again")
    return data


def history(
    dataset: Dataset, cache: SnapshotCache | None = None, workers: int = 1
) -> Sequence[Snapshot]:
    """Stage history: the replayed month ends, reusing `cache`'s scored months if given;
    each snapshot made as it is read (`Months`: only their msgpack is held)."""
    if cache is None:
        return replay_months(dataset)
    return replay_months(
        dataset,
        store=cache,
        code=cache.code,
        run=lambda task, count: map_ordered(task, count, workers, minimum=2),
    )


def render(
    dataset: Dataset, scores: Scores, snapshots: Sequence[Snapshot], config: SiteConfig
) -> tuple[Documents, dict[str, bytes]]:
    """Every published document, and the API files encoded from them (held whole)."""
    documents = build_documents(dataset, scores, config, snapshots)
    return documents, render_api(documents, config)


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
            Output(
                d.path,
                partial(_joined, site, d.parts, d.join, d.make) if d.join is not None else d.make,
                key=_derived_key(outputs, d.path, d.inputs),
            )
            for d in files
            if (d.join is not None) is later
        ]
        emit(site, jobs, workers, outputs)


def _derived_key(outputs: OutputCache, path: str, inputs: Sequence[bytes]) -> bytes:
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


def _pages(
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
