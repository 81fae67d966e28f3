"""The build pipeline, on one screen: `_build` runs the stages in order.

load (records from data/) -> history (the replayed months, and the documents made from
them, before scoring: then they are gone before today's scores are computed) -> score ->
render (the documents, then the API files) -> downloads (CSV, feed, llms.txt) -> pages ->
check -> write. Each stage is a pure function of its inputs (`input`, `scoring`,
`documents`, `pages`); the cache layer (`generator/cache/`, `BuildMemo`) memoises them by
the digest of their inputs, and says first whether the site is current at all (then the
build stops there). From the API files on, each file goes to the writer's staging tree
as it is made (`output.writer.SiteWriter`: the spare tree beside the site, updated in
place) and only its digest is kept, so memory holds the documents, not the site; the
checks see every file on its way (`checks.SiteCheck`). The last stage swaps the tree in
atomically; any failure before it (a failed check included) deletes the staging tree and
leaves the previous site exactly as it was. `build_api` runs the same stages up to the
API files, held whole, and the API check (for `modelscores diff`), with no cache.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from functools import partial
from pathlib import Path

import msgspec

from generator.api.contract import MODEL_HISTORY
from generator.api.hosting import check_redirects, render_hosting
from generator.api.openapi import build_openapi
from generator.api.urls import HTML_404, SiteConfig
from generator.cache.memo import BuildMemo
from generator.cache.report import BuildReport as BuildReport
from generator.cache.scores import reuse_scores
from generator.checks import SiteCheck, check_api, fail_on
from generator.documents.assemble import build_documents, render_api
from generator.documents.models import model_aliases
from generator.errors import DataError
from generator.input.load import check_tree, load_dataset
from generator.input.records import Dataset
from generator.output.pool import default_workers
from generator.output.writer import SiteWriter
from generator.pages import charts
from generator.pages.sitedocs import SiteDocuments
from generator.pages.svg import RenderError
from generator.scoring import compute_scores
from generator.scoring.history import Snapshot, replay_months
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

    The build cache beside `out_dir` (`generator/cache/`) makes a rebuild from
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
        documents, api = render(dataset, scores, replay_months(dataset), config)
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
        memo = BuildMemo(data_dir, out_dir, config, workers)
        if memo.current:
            return memo.unchanged(timer.seconds)
    check = SiteCheck(memo.published())  # a file checked and published before passes again
    with SiteWriter(out_dir, memo.trees) as site:  # the writer's lock from here on
        site.start_linking()  # a child checks the spare, or links the live site, meanwhile
        with timer.stage("load"):
            dataset = memo.load(load_dataset, data_dir)  # unchanged files not parsed again
            check_hosting(dataset, config)
        with timer.stage("history"):  # first: the replayed months are gone before scoring
            past = memo.history(dataset, site)
        with timer.stage("score"):
            scores = reuse_scores(dataset, memo.scores())
        with timer.stage("render"):
            documents = build_documents(dataset, scores, config, past=past)
            del dataset, scores, past  # the documents hold all that is published
            openapi = build_openapi(documents, config)  # the file and the docs page
            api = memo.write_api(site, check, documents, openapi)
        with timer.stage("downloads"):
            memo.write_derived(site, documents, api)
            del api
        with timer.stage("pages"):
            memo.write_pages(site, documents, openapi)
        with timer.stage("check"):
            hosting = render_hosting(
                config, HTML_404 in site.digests, model_aliases(documents), documents
            )
            for path, data in hosting.items():
                site.put(path, data)
            check.finish(site.digests, hosting["_redirects"])
        with timer.stage("write"):
            written = site.finish(after=partial(memo.save, len(documents)))
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


def render(
    dataset: Dataset, scores: Scores, snapshots: Sequence[Snapshot], config: SiteConfig
) -> tuple[Documents, dict[str, bytes]]:
    """Every published document, and the API files encoded from them (held whole)."""
    documents = build_documents(dataset, scores, config, snapshots)
    return documents, render_api(documents, config)
