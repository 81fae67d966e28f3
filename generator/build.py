"""The build pipeline, one stage after another; `_build` is the list:

cache (is the site current? `output.cache.site_state`) -> load -> score -> history ->
render (documents and API files) -> downloads (CSV, feed, llms.txt) -> pages -> check ->
write. Everything is computed and checked in memory first; only the last stage touches
`out_dir`, through `output.writer.write_site`'s atomic swap. Any failure before or during
the write leaves the previous site exactly as it was. `build_api` runs the same stages up
to render, and the API check (for `modelscores diff`).
"""

from __future__ import annotations

import gc
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

import msgspec

from generator.api.hosting import render_hosting
from generator.api.openapi import build_openapi
from generator.api.urls import HTML_404, SiteConfig
from generator.checks import check_api, check_site, fail_on
from generator.documents.assemble import build_documents, render_api
from generator.documents.derived import derived_files
from generator.documents.models import model_aliases
from generator.errors import BuildError, DataError
from generator.input.load import check_tree, load_dataset
from generator.input.records import Dataset
from generator.output.cache import OutputCache, output_cache, save_manifest, site_state
from generator.output.parsed import RecordCache
from generator.output.pool import default_workers, map_ordered
from generator.output.report import BuildReport as BuildReport
from generator.output.report import unchanged_report
from generator.output.snapshots import SnapshotCache
from generator.output.writer import file_digests, merge_files, write_site
from generator.pages import charts
from generator.pages.render import render_pages
from generator.pages.sitedocs import SiteDocuments
from generator.pages.svg import RenderError
from generator.scoring import compute_scores
from generator.scoring.history import Snapshot, replay
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
    with timer.stage("load"):
        record_cache = RecordCache(out_dir)
        dataset = load_dataset(data_dir, record_cache)
    with timer.stage("score"):
        scores = compute_scores(dataset)
    with timer.stage("history"):
        history_cache = SnapshotCache(out_dir)
        snapshots = history(dataset, history_cache, workers)
    with timer.stage("render"):
        documents, api = render(dataset, scores, snapshots, config)
    with timer.stage("downloads"):
        downloads = render_derived(documents, api, config, outputs)
    with timer.stage("pages"):
        pages = _pages(documents, config, outputs, workers)
    with timer.stage("check"):
        hosting = render_hosting(config, HTML_404 in pages, model_aliases(documents), documents)
        files = merge_files(api, pages, hosting, downloads)
        digests = file_digests(files)
        # A file with the very bytes this code checked and published last time passes again
        # (a manifest from other code has no `code`: load_manifest keeps only its trees).
        last = state.manifest.trees.live if state.manifest.code else {}
        check_site(files, [p for p, d in digests.items() if p in last and last[p].digest == d])
    with timer.stage("write"):
        written = write_site(
            files,
            out_dir,
            # Under the writer's lock, so the record matches the site it describes.
            after=lambda trees: save_manifest(
                out_dir, state.inputs, len(documents), outputs.outputs, trees
            ),
            trees=state.manifest.trees,
            digests=digests,
        )
        history_cache.save()  # entries stand alone (keyed by their inputs), so after the lock
        record_cache.save()
    return BuildReport(
        out_dir=str(out_dir),
        files=len(files),
        written=written.written,
        unchanged=written.unchanged,
        swapped=written.swapped,
        documents=len(documents),
        seconds=timer.seconds,
    )


def history(
    dataset: Dataset, cache: SnapshotCache | None = None, workers: int = 1
) -> list[Snapshot]:
    """Stage history: the replayed month ends, reusing `cache`'s scored months if given."""
    if cache is None:
        return replay(dataset)
    return replay(
        dataset,
        store=cache,
        code=cache.code,
        run=lambda task, count: map_ordered(task, count, workers, minimum=2),
    )


def render(
    dataset: Dataset, scores: Scores, snapshots: list[Snapshot], config: SiteConfig
) -> tuple[Documents, dict[str, bytes]]:
    """Stage render: every published document, and the API files encoded from them."""
    documents = build_documents(dataset, scores, config, snapshots)
    return documents, render_api(documents, config)


def render_derived(
    documents: Mapping[str, msgspec.Struct],
    api: Mapping[str, bytes],
    config: SiteConfig,
    outputs: OutputCache,
) -> dict[str, bytes]:
    """Stage downloads: the CSV downloads, the Atom feed and llms.txt, each reused when the
    bytes it is made from (its API files, the site settings) did not change."""
    return {
        d.path: outputs.produce(d.path, outputs.key([d.path.encode(), *d.inputs]), d.make)
        for d in derived_files(documents, api, config)
    }


def _pages(
    documents: Documents, config: SiteConfig, outputs: OutputCache, workers: int
) -> dict[str, bytes]:
    """Stage pages: every page, stylesheet and chart preview (the unchanged ones reused)."""
    try:
        return render_pages(
            documents,
            config,
            build_openapi(documents, config),
            outputs=outputs,
            run=lambda task, count: map_ordered(task, count, workers),
        )
    except OSError as exc:
        raise BuildError(f"cannot render the pages: {exc}") from exc
