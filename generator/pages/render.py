"""Render the human pages every `url` in the API points at, from the same documents.

`emit_pages(documents, config, sink)` hands every file to `sink` as it is made (the build
writes each at once); `render_pages(documents, config, openapi)` returns them as
`dict[site path, bytes]`: HTML pages, the static files, and a PNG social preview per
promoted chart. Links between
pages are relative (the site works under any base URL and from a local server);
canonical and social-preview URLs are absolute, from the configured base URL.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Mapping, MutableMapping
from dataclasses import dataclass, field
from importlib import resources
from types import BuiltinMethodType, CodeType, MethodType
from typing import Any

import jinja2
import jinja2.runtime
import markupsafe
import msgspec

from generator.api.contract import (
    BENCHMARKS,
    CHARTS,
    DOMAINS,
    HISTORY,
    HISTORY_NOTE,
    HISTORY_SNAPSHOT,
    INDEX,
    METHODOLOGY,
    MODELS,
    RANKINGS,
    Envelope,
)
from generator.api.files import badge_markdown, model_history_download, snapshot_download
from generator.api.mcp_tools import MCP_TOOLS
from generator.api.openapi import build_openapi
from generator.api.urls import SiteConfig, api_url, mcp_url, openapi_url
from generator.digests import content_digest, digest
from generator.errors import BuildError
from generator.pages import apidocs, charts, rows, svg, views
from generator.pages.axes import format_value
from generator.pages.charts import DrawnChart
from generator.pages.formats import dash, escape, fixed, signed, whole
from generator.pages.links import Hrefs, Linker, page_class
from generator.pages.reuse import Collect, Outputs, RenderAll, Sink, TaskMap, in_process
from generator.pages.sitedocs import SiteDocuments
from generator.vocabulary import DIMENSION_COUNT, DIMENSION_COUNT_WORD, DIMENSION_NAMES

SITE_NAME = "modelscores"
NAV = (
    (MODELS.page, "Leaderboard"),
    (RANKINGS.page, "Rankings"),
    (BENCHMARKS.page, "Benchmarks"),
    (DOMAINS.page, "Domains"),
    (CHARTS.page, "Charts"),
    (HISTORY.page, "History"),
    (METHODOLOGY.page, "Methodology"),
    (INDEX.page, "API"),
)
PAGE_FILE = "index.html"  # the file a page folder is served from
COMPARE_PAGE = "compare/"  # a page of the site, not of the API: its script reads /models/{id}
STATIC_FILES = ("site.css", "site.js", "icon.svg", "icon.png")


def _inline_code(text: str) -> markupsafe.Markup:
    """Escape text and show `backticked` spans as code (OpenAPI descriptions use them)."""
    parts = str(markupsafe.escape(text)).split("`")
    html = "".join(f"<code>{p}</code>" if i % 2 else p for i, p in enumerate(parts))
    return markupsafe.Markup(html if len(parts) % 2 else str(markupsafe.escape(text)))


class _CompiledTemplates(jinja2.BytecodeCache):
    """Compiled templates kept for the life of the process, keyed by name and source.

    Compiling the templates is about half of a small site's build; a process that builds
    more than once (`serve`'s rebuilds, the sidecar's tests, a test run) compiles each
    once. Jinja checks the source's checksum on every load, so an edited template is
    compiled again. The key does not hold the Environment's options, which the compiled
    code bakes in: only environments made by `_environment` may share it.
    """

    def __init__(self) -> None:
        self._code: dict[str, bytes] = {}

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        code = self._code.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self._code[bucket.key] = bucket.bytecode_to_string()


_COMPILED = _CompiledTemplates()


class _Template(jinja2.Template):
    """A template whose `{{ ... }}` output goes through `formats.escape`.

    Jinja's compiled templates import `escape` (markupsafe's) into their own module and
    call it on every value they print under autoescape: a third of a page's time. The
    name is rebound in that module only, to a function that returns the same Markup."""

    @classmethod
    def from_code(
        cls,
        environment: jinja2.Environment,
        code: CodeType,
        globals: MutableMapping[str, Any],
        uptodate: Callable[[], bool] | None = None,
    ) -> jinja2.Template:
        template = super().from_code(environment, code, globals, uptodate)
        namespace = template.root_render_func.__globals__
        if namespace.get("escape") is markupsafe.escape:
            namespace["escape"] = escape
        return template


class _Context(jinja2.runtime.Context):
    """Calls the pages' own link helpers and built-in methods directly.

    Jinja sends every call in a template through `Context.call`, which looks for a
    `pass_context` marker on the callable and its `__call__` first: a tenth of a page's
    time. A `Linker`, its bound methods and a built-in function or method (`date.isoformat`,
    `dict.get`: they cannot hold a marker) are called as they are; every other callable
    goes the usual way.
    """

    def call(__self, __obj: Any, *args: Any, **kwargs: Any) -> Any:
        kind = type(__obj)
        if (
            kind is Linker
            or kind is BuiltinMethodType
            or (kind is MethodType and type(__obj.__self__) is Linker)
        ):
            kwargs.pop("_block_vars", None)
            kwargs.pop("_loop_vars", None)
            return __obj(*args, **kwargs)
        return super().call(__obj, *args, **kwargs)


def _environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("generator.pages", "templates"),
        bytecode_cache=_COMPILED,
        auto_reload=False,  # an environment lives for one build: no stat a page per template
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.context_class = _Context
    env.template_class = _Template
    env.globals.update(
        dimension_count=DIMENSION_COUNT,  # the dimension set's count, as `vocabulary` has it
        dimension_count_word=DIMENSION_COUNT_WORD,
        imputed_mark=markupsafe.Markup(rows.IMPUTED_MARK),  # the rows' own mark, for legends
    )
    env.filters.update(
        dash=dash,
        fixed=fixed,
        signed=signed,
        whole=whole,
        value=format_value,
        cost=views.format_cost,
        dim=views.dimension_iq,
        code=_inline_code,
        snapshot_rows=rows.snapshot_rows,
        model_history_rows=rows.model_history_rows,
        dimension_rows=rows.dimension_rows,
        result_rows=rows.result_rows,
        cost_breakdown=views.cost_rows,
        cost_rows=rows.cost_rows,
        standing_rows=rows.standing_rows,
        benchmark_rows=rows.benchmark_rows,
        ranking_rows=rows.ranking_rows,
        domain_rows=rows.domain_rows,
        domain_result_rows=rows.domain_result_rows,
        leaderboard_rows=rows.leaderboard_rows,
        data_table_rows=rows.data_table_rows,
        chart=charts.chart_markup,
    )
    return env


class _Renderer:
    """Collects every page to render (as a job) and the files added as bytes."""

    def __init__(
        self,
        config: SiteConfig,
        docs: SiteDocuments,
        sink: Sink,
        published: Callable[[str], bytes | None] = lambda path: None,
    ):
        self.config, self.docs, self.sink = config, docs, sink
        self.published = published
        check = docs.methodology.interval_check
        # The interval check's sentence, repeated beside every range (None: no check in data)
        self.ranges_statement = None if isinstance(check, msgspec.UnsetType) else check.statement
        self.jobs: list[PageJob] = []
        self._paths: set[str] = set()
        self._documents: dict[int, str] | None = None  # path by id, once asked

    def page(self, path: str, template: str, title: str, description: str, **context: Any) -> None:
        if path in self._paths:
            raise BuildError(f"pages: {path} rendered twice")
        self._paths.add(path)
        context.update(title=title, description=description, ranges_statement=self.ranges_statement)
        stand_ins = {
            name: found
            for name, value in context.items()
            if isinstance(value, msgspec.Struct) and (found := self._digest(value)) is not None
        }
        self.jobs.append(PageJob(path, template, context, stand_ins))

    def _digest(self, value: msgspec.Struct) -> bytes | None:
        """The digest of the bytes this build published `value` as, when it is an API
        document whose file the build put in the site: a page's key holds it instead of
        the document (the same JSON bytes decode to the same document; no document holds
        a NaN, which JSON would publish as null)."""
        if self._documents is None:
            self._documents = {id(doc): path for path, doc in self.docs.documents.items()}
        path = self._documents.get(id(value))
        if path is None or self.docs.documents.get(path) is not value:
            return None
        return self.published(path)

    def site_path(self, url: str) -> str:
        """The site path a public URL under the base URL is served from."""
        path = Linker(self.config.base, "").site_path(url)
        if path is None:
            raise BuildError(f"pages: {url} is not under the base URL {self.config.base}")
        return path

    def page_file(self, url: str) -> str:
        """The file a page URL (ending in /) is served from: its index.html."""
        path = self.site_path(url)
        if not path.endswith("/"):
            raise BuildError(f"pages: page URL {url} does not end in /")
        return path + PAGE_FILE

    def add(self, path: str, data: bytes) -> None:
        """A file made here (a static file, a chart preview), handed to the sink at once."""
        if path in self._paths:
            raise BuildError(f"pages: {path} rendered twice")
        self._paths.add(path)
        self.sink.claim(path)
        self.sink.note(path, self.sink.place(path, data, content_digest(data)))


def _chart_pages(out: _Renderer, drawn: list[DrawnChart]) -> None:
    for chart in drawn:
        c = chart.chart
        png_path = out.site_path(c.image)
        out.add(png_path, chart.png)
        out.page(
            out.page_file(c.url),
            "chart.html",
            c.title,
            c.description,
            chart=chart,
            related=[out.docs.benchmark(b) for b in c.related_benchmarks],
            history_note=HISTORY_NOTE if chart.kind == "frontier" else None,  # drawn from it
        )
    out.page(
        CHARTS.page + PAGE_FILE,
        "charts.html",
        "Charts",
        "Every promoted chart of model scores, with share pages and preview images.",
        drawn=drawn,
    )


def _model_pages(out: _Renderer) -> None:
    docs = out.docs
    for model in docs.model_details.values():
        out.page(
            out.page_file(model.url),
            "model.html",
            model.name,
            f"{model.name} by {model.provider}: composite IQ, dimensions, cost and benchmarks.",
            model=model,
            view=views.model_view(docs, model, out.config.issues_url),
            history=docs.model_history(model.id),  # the rows link each month's page
            history_csv=model_history_download(model.id),
            badge=badge_markdown(model.id, model.url, out.config.base),
            dimension_plot=charts.dimension_ranges(model),
            history_plot=charts.rank_history(model.name, docs.model_history_entries(model.id)),
        )


def _ranking_pages(out: _Renderer, landing: views.LandingView) -> None:
    docs = out.docs
    imputed = views.imputed_counts(docs, landing)
    for entry in docs.rankings.rankings:
        ranking = docs.ranking_details[entry.id]
        out.page(
            out.page_file(ranking.url),
            "ranking.html",
            ranking.ranking_name,
            f"{ranking.ranking_name}: every ranked model in order.",
            ranking=ranking,
            urls=views.profile_urls(docs, ranking),
            banded=any(isinstance(r.rank_low, int) for r in ranking.models),
            imputed=imputed if ranking.id == "composite-iq" else None,
            benchmark=docs.benchmark(ranking.id) if ranking.ranking_type == "benchmark" else None,
        )
    out.page(
        RANKINGS.page + PAGE_FILE,
        "rankings.html",
        "Rankings",
        "The ranking catalog: composite IQ, effective cost, dimensions and benchmarks.",
        groups=views.ranking_groups(docs),
    )


def _benchmark_pages(out: _Renderer, chart_urls: Mapping[str, str]) -> None:
    docs = out.docs
    for benchmark in docs.benchmarks.benchmarks:
        ranking = docs.benchmark_ranking(benchmark)
        plot = charts.ranking_bars(ranking, benchmark.unit or benchmark.name) if ranking else None
        out.page(
            out.page_file(benchmark.url),
            "benchmark.html",
            benchmark.name,
            benchmark.description or f"{benchmark.name}: scores of every model.",
            benchmark=benchmark,
            ranking=ranking,
            urls=views.profile_urls(docs, ranking) if ranking else {},
            chart_svg=charts.inline(plot, "score-chart", f"{benchmark.name} scores")
            if plot and plot.bars
            else None,
            chart_url=chart_urls.get(benchmark.id),
            dimension=DIMENSION_NAMES.get(benchmark.dimension or ""),
        )
    out.page(
        BENCHMARKS.page + PAGE_FILE,
        "benchmarks.html",
        "Benchmarks",
        f"The benchmarks behind the {DIMENSION_COUNT_WORD} scored dimensions.",
        groups=views.benchmark_groups(docs),
    )


def _domain_pages(out: _Renderer) -> None:
    for domain in out.docs.domain_details.values():
        out.page(
            out.page_file(domain.url),
            "domain.html",
            domain.name,
            f"{domain.name}: domain composite IQ and per-benchmark results.",
            domain=domain,
        )
    out.page(
        DOMAINS.page + PAGE_FILE,
        "domains.html",
        "Domains",
        "Applied-capability domains tracked outside the composite.",
        domains=out.docs.domains.domains,
    )


def _history_pages(out: _Renderer, drawn: list[DrawnChart]) -> None:
    history = out.docs.history
    for date, detail in out.docs.history_details.items():
        out.page(
            HISTORY_SNAPSHOT.page_path(date) + PAGE_FILE,
            "history_snapshot.html",
            f"Composite IQ leaderboard as of {date}",
            f"The composite IQ leaderboard replayed with the evidence of {date}.",
            snapshot=detail,
            csv=snapshot_download(date),
        )
    out.page(
        HISTORY.page + PAGE_FILE,
        "history.html",
        "Score history",
        "The composite IQ leaderboard at every month end, replayed from the data.",
        history=history,
        pages={
            s.date.isoformat(): HISTORY_SNAPSHOT.page_path(s.date.isoformat())
            for s in history.snapshots
        },
        csvs={s.date.isoformat(): snapshot_download(s.date.isoformat()) for s in history.snapshots},
        charts=[(c.chart.title, c.chart.url) for c in drawn if c.kind == "frontier"],
    )


def _api_docs_page(out: _Renderer, openapi: Mapping[str, Any] | None) -> None:
    base = out.config.base
    api = apidocs.build_api_docs(
        openapi if openapi is not None else build_openapi(out.docs.documents, out.config),
        api_url(out.config),
        lambda path, name: views.example_value(out.docs, path, name),
    )
    out.page(
        INDEX.page + PAGE_FILE,
        "docs.html",
        "API documentation",
        "How to read model scores over HTTP (JSON, OpenAPI 3.1) and over MCP.",
        api=api,
        base=base,
        mcp_url=mcp_url(out.config),
        mcp_tools=MCP_TOOLS,
        openapi_url=openapi_url(out.config),
    )


class FooterMeta(Envelope, kw_only=True, frozen=True):
    """The model list's envelope and the newest month-end snapshot (the "cite this" line)."""

    snapshot: str | None  # the newest /history date, None before the first month end


def _envelope(docs: SiteDocuments) -> FooterMeta:
    """What every page's footer shows (`meta`): the model list's envelope, not its models,
    so that a page's key does not depend on every model."""
    models = docs.models
    snapshots = docs.history.snapshots
    return FooterMeta(
        api_version=models.api_version,
        methodology_version=models.methodology_version,
        updated_at=models.updated_at,
        snapshot=snapshots[-1].date.isoformat() if snapshots else None,
    )


@dataclass(frozen=True)
class PageJob:
    """One page to render: its file, template and the context the template sees.
    `stand_ins`: context values keyed by a digest instead (of their published bytes)."""

    path: str
    template: str
    context: dict[str, Any]
    stand_ins: dict[str, bytes] = field(default_factory=dict)


def _enc_hook(value: Any) -> Any:
    if isinstance(value, markupsafe.Markup):
        return msgspec.msgpack.Ext(1, str(value).encode())
    raise TypeError(f"cannot key a {type(value).__name__}")


class _Pages:
    """Renders jobs (the same bytes in any process), keyed for the output cache."""

    def __init__(
        self,
        config: SiteConfig,
        meta: msgspec.Struct,
        jobs: list[PageJob],
        outputs: Outputs,
        sink: Sink,
    ) -> None:
        self.env, self.base, self.meta, self.jobs = _environment(), config.base, meta, jobs
        self.outputs, self.sink = outputs, sink
        encoder = msgspec.msgpack.Encoder(enc_hook=_enc_hook)
        self._encode = encoder.encode
        self._shared = digest(b"pages", encoder.encode(config), encoder.encode(meta))
        self._hrefs: dict[tuple[int, str], Hrefs] = {}  # by page class, in this process

    def key(self, job: PageJob) -> bytes | None:
        """A hash of everything the page's bytes depend on; None if it cannot be hashed.

        The encoded context (about 100 MB a build at 5,000 models) is hashed once
        (`content_digest`) and the key made of that digest. A value
        with a stand-in (a model page's document) is keyed by that digest, not encoded."""
        context = job.context
        if job.stand_ins:
            context = {
                name: msgspec.msgpack.Ext(2, job.stand_ins[name]) if name in job.stand_ins else v
                for name, v in context.items()
            }
        try:
            body = self._encode((job.path, job.template, context))
        except TypeError:
            return None
        return self.outputs.key([self._shared, content_digest(body)])

    def render(self, index: int) -> bytes:
        job = self.jobs[index]
        absolute = job.path == "404.html"
        memo = None if absolute else self._hrefs.setdefault(page_class(job.path), Hrefs())
        link = Linker(self.base, job.path, absolute=absolute, memo=memo)
        directory = (
            "" if job.path in ("index.html", "404.html") else posixpath.dirname(job.path) + "/"
        )
        html = self.env.get_template(job.template).render(
            link=link,
            canonical=None if absolute else link.url(directory),
            nav=[(target, label, directory == target) for target, label in NAV],
            site_name=SITE_NAME,
            meta=self.meta,
            **job.context,
        )
        return html.encode("utf-8")

    def compile(self) -> None:
        """Load every template once here, so forked workers share the compiled code."""
        for name in sorted({job.template for job in self.jobs}):
            self.env.get_template(name)

    def make(self, index: int) -> tuple[bytes | None, bytes, Any]:
        """Job `index` from key to sink, in whichever process runs it: its key, the last
        build's bytes if that key made them (else rendered), placed in the sink. Returns
        the key, the digest of the bytes and what the sink returned, all small."""
        job = self.jobs[index]
        key = self.key(job)
        kept = self.outputs.kept(job.path, key) if key is not None else None
        placed = self.sink.place_kept(job.path, kept) if kept is not None else None
        if kept is not None and placed is not None:
            return key, kept, placed  # the last build's file, not even read
        data = self.outputs.lookup(job.path, key) if key is not None else None
        if data is None:
            data = self.render(index)
        content = content_digest(data)
        return key, content, self.sink.place(job.path, data, content)


def _render_jobs(pages: _Pages, run: TaskMap) -> None:
    """Every job to the sink: reused where its key matches the last build, else rendered."""
    for job in pages.jobs:
        pages.sink.claim(job.path)
    pages.compile()
    for job, (key, content, placed) in zip(
        pages.jobs, run(pages.make, len(pages.jobs)), strict=True
    ):
        pages.sink.note(job.path, placed)
        if key is not None:
            pages.outputs.record(job.path, key, content)


def _cached_rasterise(outputs: Outputs, out: _Renderer) -> charts.Rasterise:
    def rasterise(url: str, document: str) -> bytes:
        key = outputs.key([b"png", document.encode()])
        return outputs.produce(out.site_path(url), key, lambda: svg.rasterise(document))

    return rasterise


def render_pages(
    documents: Mapping[str, msgspec.Struct],
    config: SiteConfig,
    openapi: Mapping[str, Any] | None = None,
    *,
    outputs: Outputs | None = None,
    run: TaskMap = in_process,
) -> dict[str, bytes]:
    """Every human page, the static files and the chart previews, keyed by site path.

    `openapi` is what the API docs page describes (default: `build_openapi(documents)`).
    `outputs` reuses the previous build's bytes of pages and previews whose inputs did not
    change (and records this build's keys); `run` renders the rest (in workers, say).
    """
    sink = Collect()
    emit_pages(documents, config, sink, openapi, outputs=outputs, run=run)
    return dict(sorted(sink.files.items()))


def emit_pages(
    documents: Mapping[str, msgspec.Struct],
    config: SiteConfig,
    sink: Sink,
    openapi: Mapping[str, Any] | None = None,
    *,
    outputs: Outputs | None = None,
    run: TaskMap = in_process,
    published: Callable[[str], bytes | None] | None = None,
) -> None:
    """Every page, static file and chart preview, each handed to `sink` as it is made (in
    the worker that rendered it, when `run` spreads the pages over workers). `published`:
    the digest of the bytes an API document (by path) was published as in this build, if
    known (a model page's key holds it instead of the document)."""
    outputs = outputs if outputs is not None else RenderAll()
    docs = SiteDocuments(documents)
    out = _Renderer(config, docs, sink, published or (lambda path: None))
    static = resources.files("generator.pages").joinpath("static")
    for name in STATIC_FILES:
        out.add(f"static/{name}", static.joinpath(name).read_bytes())
    drawn = charts.draw_charts(docs, _cached_rasterise(outputs, out))
    chart_urls = {
        b: c.chart.url
        for c in drawn
        if c.kind == "benchmark-scores"
        for b in c.chart.related_benchmarks
    }
    landing = views.landing_view(docs)
    out.page(
        MODELS.page + PAGE_FILE,
        "index.html",
        "AI model scores",
        "Composite IQ leaderboard of AI models, with dimensions, cost and benchmarks.",
        view=landing,
        drawn=drawn,
    )
    out.page(
        COMPARE_PAGE + PAGE_FILE,
        "compare.html",
        "Compare models",
        "Two to four AI models side by side: dimensions with ranges, EQ, cost, rank bands.",
        view=views.compare_view(docs, landing),
    )
    _model_pages(out)
    _ranking_pages(out, landing)
    _benchmark_pages(out, chart_urls)
    _domain_pages(out)
    _chart_pages(out, drawn)
    _history_pages(out, drawn)
    out.page(
        METHODOLOGY.page + PAGE_FILE,
        "methodology.html",
        "Methodology",
        docs.methodology.summary,
        m=docs.methodology,
        view=views.methodology_view(docs),
    )
    _api_docs_page(out, openapi)
    out.page("404.html", "404.html", "Page not found", "This page does not exist.")
    _render_jobs(_Pages(config, _envelope(docs), out.jobs, outputs, sink), run)
