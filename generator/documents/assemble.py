"""Dataset + Scores -> the API documents (contract Structs), and documents -> file bytes.

`build_documents` follows the contract field by field; it rounds at the published
precisions (docs/ARCHITECTURE.md) and ranks with `scoring.rank_entries`. `render_api`
encodes every document with one deterministic encoder into the file tree of
docs/ARCHITECTURE.md (versioned tree, byte-identical alias tree, 404 bodies, OpenAPI).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any

import msgspec

from generator.api.contract import (
    API_VERSION,
    BENCHMARKS,
    CHANGES,
    CHARTS,
    DOMAIN,
    DOMAINS,
    ENDPOINTS,
    ERROR_CODES,
    HISTORY,
    HISTORY_SNAPSHOT,
    INDEX,
    METHODOLOGY,
    MODEL_HISTORY,
    ApiIndex,
    BenchmarkList,
    BenchmarkMetadata,
    BenchmarkNoise,
    BenchmarkRef,
    ChangelogEntry,
    Chart,
    ChartList,
    CostBreakdownItem,
    DataSource,
    DerivedRanking,
    DocumentKind,
    DomainBenchmark,
    DomainCompositeEntry,
    DomainDetail,
    DomainList,
    DomainResultRow,
    DomainSummary,
    Error,
    IndexEndpoint,
    Methodology,
    MethodologyDimension,
    MethodologyParameters,
    SourceRef,
)
from generator.api.openapi import build_openapi
from generator.api.urls import (
    API_PREFIXES,
    OPENAPI_FILE,
    SiteConfig,
    api_file,
    api_url,
    benchmark_page_url,
    chart_image_url,
    chart_page_url,
    docs_page_url,
    domain_page_url,
    error_file,
    mcp_url,
    methodology_page_url,
    openapi_url,
)
from generator.documents.changes import Standing, changes_of, snapshot_standings
from generator.documents.common import (
    SPREAD_DECIMALS as NOISE_DECIMALS,
)
from generator.documents.common import (
    EnvelopeFields,
    Published,
    envelope,
    ladder_fit,
    model_urls,
    scored_benchmarks,
)
from generator.documents.history import HistoryParts
from generator.documents.interval_check import interval_check
from generator.documents.models import model_documents
from generator.documents.rankings import (
    COMPOSITE_ID,
    COMPOSITE_NAME,
    COST_ID,
    COST_NAME,
    ranking_documents,
)
from generator.documents.unscored import unscored_benchmarks
from generator.errors import BuildError
from generator.input.records import BenchmarkRecord, Dataset, DomainRecord
from generator.scoring import round_to
from generator.scoring.history import Snapshot, replay, scoring_inputs, snapshot_dates
from generator.scoring.types import BenchmarkNoise as ScoredNoise
from generator.scoring.types import DomainEntry, Scores
from generator.vocabulary import DIMENSION_COUNT_WORD, DIMENSIONS

API_NAME = "modelscores API"
API_DESCRIPTION = (
    f"Public, read-only JSON API of AI model scores: composite IQ over {DIMENSION_COUNT_WORD} "
    "dimensions, emotional reasoning, applied-capability domains, cost, rankings, charts and "
    "methodology."
)
COMPOSITE_SCORE_FIELD = "iq"
COST_SCORE_FIELD = "cost.effectivePer1M"
DOMAIN_DECIMALS = 2

_ENCODER = msgspec.json.Encoder(order="deterministic")


def encode(document: Any) -> bytes:
    """The published bytes of a document: deterministic, indented, newline-terminated."""
    return msgspec.json.format(_ENCODER.encode(document), indent=2) + b"\n"


# --- documents --------------------------------------------------------------


def build_documents(
    dataset: Dataset,
    scores: Scores,
    config: SiteConfig,
    snapshots: Sequence[Snapshot] | None = None,
    *,
    past: Mapping[str, msgspec.Struct] | None = None,
) -> dict[str, msgspec.Struct]:
    """Every API document, keyed by its path relative to /api/v1 (`/` is the index).

    `snapshots`: the replayed history (`scoring.history.replay`), replayed here if not given;
    or `past`: `history_part(dataset, snapshots, config)`, made before (a build makes it
    first and drops the snapshots, the largest thing it holds, before scoring).
    """
    env = envelope(dataset)
    if past is None:
        past = history_part(dataset, replay(dataset) if snapshots is None else snapshots, config)
    documents: dict[str, msgspec.Struct] = {}
    documents.update(model_documents(dataset, scores, config, env))
    documents[BENCHMARKS.path] = _benchmarks(dataset, scores.noise, config, env)
    documents.update(ranking_documents(dataset, scores, config, env))
    documents[CHARTS.path] = _charts(dataset, config, env)
    documents[METHODOLOGY.path] = _methodology(dataset, scores.noise, config, env)
    documents.update(_domains(dataset, scores, config, env))
    documents.update(past)
    documents[INDEX.path] = _index(config, env)
    return documents


def history_part(
    dataset: Dataset, snapshots: Sequence[Snapshot], config: SiteConfig
) -> dict[str, msgspec.Struct]:
    """The documents made from the replayed history (`/history`, each `/history/{date}`,
    each `/models/{id}/history`, `/changes`), which need no scores of today."""
    env = envelope(dataset)
    parts = HistoryParts(config, env, dataset)
    standings: dict[dt.date, dict[str, Standing]] = {}
    # One pass, each snapshot read once: a build's are made as they are read (`Months`),
    # so one month's scores are alive at a time, not every model at every month end.
    for snapshot in snapshots:
        parts.add(snapshot)
        standings[snapshot.date] = snapshot_standings(snapshot)
    documents = parts.history_list()
    documents.update(parts.model_histories(dataset))
    documents.update(changes_of(dataset, standings, config, env))
    return documents


def history_paths(dataset: Dataset) -> list[tuple[DocumentKind[Any], str]]:
    """The documents `history_part` makes, kind and API path, in its order, unmade."""
    dates = [d.isoformat() for d in snapshot_dates(dataset)]
    return [
        (HISTORY, HISTORY.path),
        *((HISTORY_SNAPSHOT, HISTORY_SNAPSHOT.api_path(d)) for d in dates),
        *((MODEL_HISTORY, MODEL_HISTORY.api_path(m.id)) for m in dataset.models),
        (CHANGES, CHANGES.path),
    ]


def history_inputs(dataset: Dataset) -> list[bytes]:
    """Everything of `dataset` that `history_part` reads, as bytes to key its documents by
    (with the code and the site settings): the scoring inputs, of which each month end's
    scores are a function (`scoring.history.scoring_inputs`); the month ends; the envelope;
    the methodology's changelog; and each model's id, name, provider, release date and
    results' benchmark, date and kind of date. Not prices, aliases or anything else the
    history does not show, so a price change keeps every history document."""
    encode = msgspec.msgpack.encode
    shown = [
        (
            m.id,
            m.name,
            m.provider,
            m.release_date,
            [(r.benchmark, r.as_of, r.as_of_kind) for r in m.results],
        )
        for m in dataset.models
    ]
    return [
        encode(scoring_inputs(dataset)),
        encode(snapshot_dates(dataset)),
        encode(envelope(dataset)),
        encode(dataset.methodology.changelog),
        encode(shown),
    ]


def _benchmarks(
    dataset: Dataset, noise: Mapping[str, ScoredNoise], config: SiteConfig, env: EnvelopeFields
) -> BenchmarkList:
    return BenchmarkList(
        **env,
        benchmarks=[
            BenchmarkMetadata(
                id=b.id,
                field=b.field,
                name=b.name,
                description=b.description,
                category=b.category,
                dimension=b.dimension,
                direction=b.direction,
                unit=b.unit,
                confidence=b.confidence,
                source_name=b.source_name,
                source_url=b.source_url,
                updated_at=b.updated,
                url=benchmark_page_url(config, b.id),
                noise_sd=round_to(noise[b.id].sd, NOISE_DECIMALS),
                noise_source=noise[b.id].source,
                noise_models=noise[b.id].models,
                published_on=b.published_on,
                published_on_source=b.published_on_source,
                ladder_fit=ladder_fit(b),
            )
            for b in scored_benchmarks(dataset)
        ],
    )


def _charts(dataset: Dataset, config: SiteConfig, env: EnvelopeFields) -> ChartList:
    return ChartList(
        **env,
        charts=[
            Chart(
                id=c.id,
                title=c.title,
                description=c.description,
                url=chart_page_url(config, c.id),
                image=chart_image_url(config, c.id),
                related_benchmarks=list(c.related_benchmarks),
                tags=list(dict.fromkeys([*c.tags, c.kind])),
            )
            for c in dataset.charts
            if c.promoted
        ],
    )


def _benchmark_refs(benchmarks: list[BenchmarkRecord]) -> list[BenchmarkRef]:
    return [BenchmarkRef(field=b.field, name=b.name) for b in benchmarks]


def _methodology(
    dataset: Dataset, noise: Mapping[str, ScoredNoise], config: SiteConfig, env: EnvelopeFields
) -> Methodology:
    method = dataset.methodology
    scored = scored_benchmarks(dataset)
    dimensions = [
        MethodologyDimension(
            id=declared.number,
            slug=d.slug,
            name=declared.name,
            min_benchmarks=d.min_benchmarks,
            benchmarks=_benchmark_refs([b for b in scored if b.dimension == d.slug]),
        )
        for declared, d in zip(DIMENSIONS, method.dimensions, strict=True)
    ]
    breakdown = [
        CostBreakdownItem(
            id=item.id,
            name=item.name,
            inputs=[_input_ref(text) for text in item.inputs] if item.inputs else msgspec.UNSET,
            steps=list(item.steps) if item.steps else msgspec.UNSET,
            summary=item.summary if item.summary is not None else msgspec.UNSET,
        )
        for item in method.cost_breakdown
    ]
    return Methodology(
        **env,
        version=method.version,
        summary=method.summary,
        derived_rankings=[
            DerivedRanking(
                id=COMPOSITE_ID,
                ranking_name=COMPOSITE_NAME,
                direction="higher_is_better",
                score_field=COMPOSITE_SCORE_FIELD,
                dimensions=dimensions,
            ),
            DerivedRanking(
                id=COST_ID,
                ranking_name=COST_NAME,
                direction="lower_is_better",
                score_field=COST_SCORE_FIELD,
                unit=method.cost_unit,
                breakdown=breakdown,
            ),
        ],
        url=methodology_page_url(config),
        rules=list(method.rules),
        parameters=_parameters(dataset),
        benchmark_noise=[
            BenchmarkNoise(
                id=b.id,
                noise_sd=round_to(noise[b.id].sd, NOISE_DECIMALS),
                noise_source=noise[b.id].source,
                noise_models=noise[b.id].models,
            )
            for b in scored
        ],
        unscored_benchmarks=unscored_benchmarks(dataset),
        changelog=[
            ChangelogEntry(date=c.date, breaking=c.breaking, text=c.text) for c in method.changelog
        ],
        sources=[
            DataSource(id=s.id, name=s.name, licence=s.licence, credit=s.credit, url=s.homepage)
            for s in dataset.sources
        ],
        interval_check=(
            interval_check(method.interval_check)
            if method.interval_check is not None
            else msgspec.UNSET
        ),
    )


def _parameters(dataset: Dataset) -> MethodologyParameters:
    fields = msgspec.structs.asdict(dataset.methodology.parameters)
    return MethodologyParameters(**fields)


def _input_ref(text: str) -> BenchmarkRef:
    """A cost input (`field: Name`, or `field` named after itself) as a {field, name} ref."""
    field, sep, name = (part.strip() for part in text.partition(":"))
    return BenchmarkRef(field=field, name=name if sep else field.replace("_", " ").capitalize())


def _domains(
    dataset: Dataset, scores: Scores, config: SiteConfig, env: EnvelopeFields
) -> dict[str, msgspec.Struct]:
    documents: dict[str, msgspec.Struct] = {
        DOMAINS.path: DomainList(
            **env,
            domains=[
                DomainSummary(
                    id=d.id,
                    name=d.name,
                    benchmark_count=len(d.benchmarks),
                    updated_at=d.updated,
                    url=domain_page_url(config, d.id),
                )
                for d in dataset.domains
            ],
        )
    }
    urls = model_urls(dataset, config)
    names = {m.id: m.name for m in dataset.models}
    for domain in dataset.domains:
        entries = scores.domains[domain.id].entries if domain.id in scores.domains else ()
        documents[DOMAIN.api_path(domain.id)] = DomainDetail(
            **env,
            id=domain.id,
            name=domain.name,
            url=domain_page_url(config, domain.id),
            models=[_domain_entry(e, names, urls) for e in entries],
            benchmarks=_domain_benchmarks(domain, urls),
        )
    return documents


def _domain_entry(
    entry: DomainEntry, names: Mapping[str, str], urls: Mapping[str, str]
) -> DomainCompositeEntry:
    def r(x: float) -> float:
        return round_to(x, DOMAIN_DECIMALS)

    return DomainCompositeEntry(
        model=entry.model_id,
        model_name=names.get(entry.model_id, entry.model_id),
        composite_iq=entry.composite_iq,
        rank_status=entry.rank_status,
        benchmarks_covered=entry.covered,
        benchmarks_total=entry.total,
        model_url=urls.get(entry.model_id),
        observed_composite_iq=r(entry.observed),
        coverage_adjustment=r(entry.adjustment),
        coverage_confidence=min(1.0, max(0.0, r(entry.confidence))),
        estimate_standard_error=max(0.0, r(entry.standard_error)),
        estimate_low95=r(entry.low95),
        estimate_high95=r(entry.high95),
    )


def _domain_benchmarks(domain: DomainRecord, urls: Mapping[str, str]) -> list[DomainBenchmark]:
    benchmarks = []
    for b in domain.benchmarks:
        sign = -1.0 if b.direction == "higher_is_better" else 1.0
        rows = sorted(
            (r for r in domain.results if r.benchmark == b.id),
            key=lambda r: (sign * r.score, r.model, r.harness or ""),
        )
        benchmarks.append(
            DomainBenchmark(
                id=b.id,
                name=b.name,
                description=b.description,
                direction=b.direction,
                unit=b.unit,
                source=SourceRef(name=b.source_name, url=b.source_url),
                results=[
                    DomainResultRow(
                        model=r.model,
                        harness=r.harness,
                        effort=r.effort,
                        score=r.score,
                        model_url=urls.get(r.model),
                    )
                    for r in rows
                ],
            )
        )
    return benchmarks


def _template_url(config: SiteConfig, path: str) -> str:
    """The URL of an endpoint path; a `{param}` is percent-encoded (as WHATWG URL does),
    so the value stays a valid `uri` while still reading as a template."""
    return api_url(config, path).replace("{", "%7B").replace("}", "%7D")


def _index(config: SiteConfig, env: EnvelopeFields) -> ApiIndex:
    return ApiIndex(
        **env,
        name=API_NAME,
        description=API_DESCRIPTION,
        endpoints=[
            IndexEndpoint(path=e.path, url=_template_url(config, e.path), description=e.summary)
            for e in ENDPOINTS
        ],
        openapi=openapi_url(config),
        mcp=mcp_url(config),
        docs=docs_page_url(config),
    )


# --- files ------------------------------------------------------------------


def api_files(
    documents: Mapping[str, msgspec.Struct],
    config: SiteConfig,
    openapi: Mapping[str, Any] | None = None,
) -> list[tuple[str, Callable[[], bytes]]]:
    """The versioned API tree, each file with how to encode it (so a build holds no more
    than one document's bytes at a time, and may encode them in workers): every document,
    then the OpenAPI document (`openapi`, if already made: `build_openapi(documents)`) and
    the 404 bodies. The alias tree holds the same bytes at `api_twins(name)`."""
    files: list[tuple[str, Callable[[], bytes]]] = []
    for path, doc in documents.items():
        files.append(
            (api_file(path), doc.read if isinstance(doc, Published) else partial(encode, doc))
        )
    openapi_file = f"{API_PREFIXES[0].lstrip('/')}/{OPENAPI_FILE}"
    if openapi is None:
        files.append((openapi_file, lambda: encode(build_openapi(documents, config))))
    else:
        files.append((openapi_file, partial(encode, openapi)))
    for code, message in ERROR_CODES.items():
        files.append((error_file(code), partial(encode, Error(error=message, code=code))))
    if len({name for name, _ in files}) != len(files):
        raise BuildError("two API documents map to the same file")
    return files


def api_twins(name: str) -> list[str]:
    """The alias-tree files holding the very bytes of the versioned file `name`."""
    root = API_PREFIXES[0].lstrip("/") + "/"
    if not name.startswith(root):
        return []
    return [f"{prefix.lstrip('/')}/{name[len(root) :]}" for prefix in API_PREFIXES[1:]]


def render_api(documents: Mapping[str, msgspec.Struct], config: SiteConfig) -> dict[str, bytes]:
    """The API file tree, held whole: both prefixes, the 404 bodies and the OpenAPI document."""
    files: dict[str, bytes] = {}
    for name, make in api_files(documents, config):
        data = make()
        for path in (name, *api_twins(name)):
            if path in files:
                raise BuildError("two API documents map to the same file")
            files[path] = data
    return files


__all__ = ["API_VERSION", "api_files", "api_twins", "build_documents", "encode", "render_api"]
