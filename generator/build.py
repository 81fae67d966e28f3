"""The build pipeline: load -> score -> render -> pages -> check -> write (MkDocs-style).

Everything is computed and checked in memory first; only the last stage touches
`out_dir`, through `output.writer.write_site`'s atomic swap. Any failure before or during the
write leaves the previous site exactly as it was.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Collection, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

import msgspec

from generator.api.contract import CHANGES
from generator.api.files import FEED_FILE, LLMS_FILE
from generator.api.hosting import parse_redirects, render_hosting
from generator.api.openapi import build_openapi
from generator.api.urls import (
    API_PREFIX,
    API_PREFIXES,
    HTML_404,
    SiteConfig,
    api_file,
    api_path_of_file,
    endpoint_for,
)
from generator.documents.assemble import build_documents, render_api
from generator.documents.downloads import download_jobs
from generator.documents.feed import render_feed
from generator.documents.llmstxt import render_llms_txt
from generator.documents.models import model_aliases
from generator.errors import BuildError, DataError
from generator.input.load import load_dataset
from generator.output.cache import (
    OutputCache,
    inputs_digest,
    keyed,
    load_manifest,
    output_cache,
    save_manifest,
    up_to_date,
)
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
from generator.scoring.history import replay


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
        snapshots = replay(dataset)
        documents = build_documents(dataset, compute_scores(dataset), config, snapshots)
        api = render_api(documents, config)
        charts.draw_charts(SiteDocuments(documents), rasterise=lambda _url, _svg: b"")
    _fail_on(check_api(api))
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
        manifest = load_manifest(out_dir)
        inputs = inputs_digest(data_dir, config)
        if up_to_date(manifest, inputs, out_dir):
            return unchanged_report(manifest, out_dir, timer.seconds)
        outputs = output_cache(manifest, out_dir)
    with timer.stage("load"):
        record_cache = RecordCache(out_dir)
        dataset = load_dataset(data_dir, record_cache)
    with timer.stage("score"):
        scores = compute_scores(dataset)
    with timer.stage("history"):
        history_cache = SnapshotCache(out_dir)
        snapshots = replay(
            dataset,
            store=history_cache,
            code=history_cache.code,
            run=lambda task, count: map_ordered(task, count, workers, minimum=2),
        )
    with timer.stage("render"):
        documents = build_documents(dataset, scores, config, snapshots)
        api = render_api(documents, config)
    with timer.stage("downloads"):
        downloads = render_derived(documents, api, config, outputs)
    with timer.stage("pages"):
        try:
            openapi = build_openapi(documents, config)
            pages = render_pages(
                documents,
                config,
                openapi,
                outputs=outputs,
                run=lambda task, count: map_ordered(task, count, workers),
            )
        except OSError as exc:
            raise BuildError(f"cannot render the pages: {exc}") from exc
    with timer.stage("check"):
        hosting = render_hosting(config, HTML_404 in pages, model_aliases(documents), documents)
        files = merge_files(api, pages, hosting, downloads)
        digests = file_digests(files)
        # A file with the very bytes this code checked and published last time passes again
        # (a manifest from other code has no `code`: load_manifest keeps only its trees).
        last = manifest.trees.live if manifest.code else {}
        check_site(files, [p for p, d in digests.items() if p in last and last[p].digest == d])
    with timer.stage("write"):
        written = write_site(
            files,
            out_dir,
            # Under the writer's lock, so the record matches the site it describes.
            after=lambda trees: save_manifest(
                out_dir, inputs, len(documents), outputs.outputs, trees
            ),
            trees=manifest.trees,
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


def render_derived(
    documents: Mapping[str, msgspec.Struct],
    api: Mapping[str, bytes],
    config: SiteConfig,
    outputs: OutputCache,
) -> dict[str, bytes]:
    """The CSV downloads, the Atom feed and llms.txt, each reused when its inputs (the
    encoded API documents it is made from, or the site configuration) did not change."""
    settings = msgspec.msgpack.encode(config)
    files: dict[str, bytes] = {}
    for job in download_jobs(documents):
        sources = (api[api_file(path)] for path in job.sources)
        files[job.path] = outputs.produce(job.path, keyed([job.path.encode(), *sources]), job.make)
    feed_key = keyed([FEED_FILE.encode(), settings, api[api_file(CHANGES.path)]])
    files[FEED_FILE] = outputs.produce(FEED_FILE, feed_key, lambda: render_feed(documents, config))
    llms_key = keyed([LLMS_FILE.encode(), settings])
    files[LLMS_FILE] = outputs.produce(LLMS_FILE, llms_key, lambda: render_llms_txt(config))
    return files


def check_site(files: Mapping[str, bytes], passed: Collection[str] = ()) -> None:
    """Cheap whole-site invariants, checked before anything is written.

    `passed`: files whose exact bytes this code already checked (the last build's, by
    digest); their documents are not decoded again.
    """
    problems = check_api(files, passed)
    rules = parse_redirects(files["_redirects"].decode())
    rewrites = {r.source: r.target for r in rules if r.status == 200}  # a path served elsewhere
    for rule in rules:
        served = rewrites.get(rule.target, rule.target) if rule.status != 200 else rule.target
        target = served.lstrip("/") + ("index.html" if served.endswith("/") else "")
        if "://" not in served and target not in files:
            problems.append(f"_redirects: {rule.source} -> missing {rule.target}")
    _fail_on(problems)


def _fail_on(problems: list[str]) -> None:
    if problems:
        raise BuildError(f"{len(problems)} site check failures, first: {problems[0]}")


def check_api(files: Mapping[str, bytes], passed: Collection[str] = ()) -> list[str]:
    """What is wrong with the API files among `files`: a versioned document that does not
    decode into its response type, an alias file that differs from the versioned one."""
    problems: list[str] = []
    root = API_PREFIX.lstrip("/") + "/"
    skip = set(passed)
    for path, data in sorted(files.items()):
        if not path.startswith(root) or path.endswith("/openapi.json") or path in skip:
            continue
        problems.extend(_check_document(path, data))
    for prefix in API_PREFIXES[1:]:
        for path, data in files.items():
            if path.startswith(root):
                alias = prefix.lstrip("/") + "/" + path[len(root) :]
                if files.get(alias) != data:
                    problems.append(f"{alias}: differs from {path}")
    return problems


def _check_document(path: str, data: bytes) -> list[str]:
    """A versioned API file decodes into its response type (constraints included)."""
    rel = path[len(API_PREFIX) :]  # "api/v1/..." minus "api/v1/"
    api_path = api_path_of_file(rel)
    kind = endpoint_for(api_path) if api_path is not None else None
    if api_path is None or kind is None:
        return [f"{path}: not the file of any document kind"]
    if api_file(api_path) != path:
        return [f"{path}: not where {api_path} belongs"]
    try:
        msgspec.json.decode(data, type=kind.response)
    except msgspec.ValidationError as exc:
        return [f"{path}: {exc}"]
    return []
