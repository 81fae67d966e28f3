"""The API documents as MCP resources: the same bytes as the published files.

Fixed resources are the lists and the methodology; resource templates give one model,
ranking or domain. Each read answers the current snapshot's file bytes as
`application/json`. URIs are `modelscores://api/v1` plus the document's API path, e.g.
`modelscores://api/v1/models/gpt-5.5`. The tools stay the primary interface.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ResourceNotFoundError

from generator.api import aliases
from generator.api.contract import (
    BENCHMARKS,
    DOMAIN,
    DOMAINS,
    METHODOLOGY,
    MODEL,
    MODELS,
    RANKING,
    RANKINGS,
    DocumentKind,
)
from generator.api.files import (
    CSV_TYPE,
    DOMAIN_CSV,
    MODEL_HISTORY_CSV,
    MODELS_CSV,
    RANKING_CSV,
    DownloadKind,
)
from mcp_server.site import Document, SiteSnapshot, SnapshotStore

URI_ROOT = "modelscores://api/v1"
JSON_TYPE = "application/json"

Fixed = Callable[[SiteSnapshot], Document[Any]]
Details = Callable[[SiteSnapshot], Mapping[str, Document[Any]]]

FIXED: tuple[tuple[DocumentKind[Any], str, Fixed], ...] = (
    (MODELS, "Models", lambda site: site.models),
    (BENCHMARKS, "Benchmarks", lambda site: site.benchmarks),
    (RANKINGS, "Rankings", lambda site: site.rankings),
    (DOMAINS, "Domains", lambda site: site.domains),
    (METHODOLOGY, "Methodology", lambda site: site.methodology),
)
TEMPLATES: tuple[tuple[DocumentKind[Any], str, Details], ...] = (
    (MODEL, "Model", lambda site: site.model_details),
    (RANKING, "Ranking", lambda site: site.ranking_details),
    (DOMAIN, "Domain", lambda site: site.domain_details),
)


DOWNLOAD_ROOT = "modelscores://"
DOWNLOAD_TEMPLATES: tuple[tuple[DownloadKind, str], ...] = (
    (MODEL_HISTORY_CSV, "Model history (CSV)"),
    (RANKING_CSV, "Ranking (CSV)"),
    (DOMAIN_CSV, "Domain leaderboard (CSV)"),
)


def download_uri(path: str) -> str:
    """The resource URI of a CSV download by its site path (`downloads/models.csv`)."""
    return DOWNLOAD_ROOT + path


def read_download(site: SiteSnapshot, path: str) -> str:
    """One CSV download's text, as published."""
    data = site.downloads.get(path)
    if data is None:
        raise ResourceNotFoundError(f"Unknown download {path[:80]!r}")
    return data.decode()


def resource_uri(kind: DocumentKind[Any], value: str | None = None) -> str:
    """The resource URI of a document (`value` fills the `{param}`; None keeps it)."""
    return URI_ROOT + (kind.path if value is None else kind.api_path(value))


def read_fixed(site: SiteSnapshot, pick: Fixed) -> str:
    """The file's text (its bytes are UTF-8 JSON)."""
    return pick(site).data.decode()


def read_detail(site: SiteSnapshot, kind: DocumentKind[Any], details: Details, key: str) -> str:
    """One detail file's text; a model is also found by alias or name, like the tools."""
    documents = details(site)
    if kind is MODEL:
        key = aliases.resolve(site.model_keys, key) or key
    document = documents.get(key)
    if document is None:
        raise ResourceNotFoundError(f"Unknown {kind.param} {key!r}: no {resource_uri(kind)}")
    return document.data.decode()


def register_resources(server: MCPServer[Any], store: SnapshotStore) -> None:
    """Add the fixed resources and the templates to `server`."""
    for kind, title, pick in FIXED:
        server.resource(
            resource_uri(kind),
            name=kind.path.strip("/"),
            title=title,
            description=f"{kind.summary}: GET /api/v1{kind.path}, the published file.",
            mime_type=JSON_TYPE,
        )(_fixed_reader(store, pick))
    for kind, title, details in TEMPLATES:
        server.resource(
            resource_uri(kind),
            name=kind.path.strip("/").split("/")[0][:-1],
            title=title,
            description=f"{kind.summary}: GET /api/v1{kind.path}, the published file.",
            mime_type=JSON_TYPE,
        )(_detail_reader(store, kind, details))
    register_downloads(server, store)


def register_downloads(server: MCPServer[Any], store: SnapshotStore) -> None:
    """The CSV downloads the tools link to: the model list, and one per ranking, domain and
    model history (templates)."""
    server.resource(
        download_uri(MODELS_CSV.pattern),
        name=MODELS_CSV.name,
        title="Models (CSV)",
        description=f"{MODELS_CSV.summary}: GET /{MODELS_CSV.pattern}, the published file.",
        mime_type=CSV_TYPE,
    )(lambda: read_download(store.current(), MODELS_CSV.pattern))
    for kind, title in DOWNLOAD_TEMPLATES:
        server.resource(
            download_uri(kind.pattern),
            name=kind.name.split("/")[0] + "-csv",
            title=title,
            description=f"{kind.summary}: GET /{kind.pattern}, the published file.",
            mime_type=CSV_TYPE,
        )(_download_reader(store, kind))


def _download_reader(store: SnapshotStore, kind: DownloadKind) -> Callable[[str], str]:
    """A reader whose parameter has the template's name (`id` or `slug`)."""

    def by_id(id: str) -> str:
        return read_download(store.current(), kind.site_path(id))

    def by_slug(slug: str) -> str:
        return read_download(store.current(), kind.site_path(slug))

    return {"id": by_id, "slug": by_slug}[str(kind.mirrors.param)]


def _fixed_reader(store: SnapshotStore, pick: Fixed) -> Callable[[], str]:
    def read() -> str:
        return read_fixed(store.current(), pick)

    return read


def _detail_reader(
    store: SnapshotStore, kind: DocumentKind[Any], details: Details
) -> Callable[[str], str]:
    """A reader whose one parameter has the template's name (`id` or `slug`), as the SDK
    matches URI variables to parameter names."""

    def by_id(id: str) -> str:
        return read_detail(store.current(), kind, details, id)

    def by_slug(slug: str) -> str:
        return read_detail(store.current(), kind, details, slug)

    readers = {"id": by_id, "slug": by_slug}
    if kind.param not in readers:  # pragma: no cover - a new kind with another parameter
        raise ValueError(f"no reader for the parameter of {kind.path}")
    return readers[kind.param]
