"""Resource links in tool results: the documents and CSV downloads an answer summarises.

Each tool result ends with `resource_link` blocks (after its two text blocks) naming the
resources an agent can read next with `resources/read`: the API document the answer comes
from (`modelscores://api/v1/...`, `mcp_server.resources`) and the CSV download of the same
table (`modelscores://downloads/...`), when the build has one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

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
    domain_download,
    model_history_download,
    models_download,
    ranking_download,
)
from mcp_server.resources import JSON_TYPE, download_uri, resource_uri
from mcp_server.site import SiteSnapshot


@dataclass(frozen=True)
class Link:
    """One `resource_link` content block."""

    uri: str
    name: str
    mime_type: str
    description: str

    def block(self) -> dict[str, str]:
        """The block as JSON (the SDK's member order)."""
        return {
            "name": self.name,
            "uri": self.uri,
            "description": self.description,
            "mimeType": self.mime_type,
            "type": "resource_link",
        }


def _document(kind: DocumentKind[Any], value: str | None = None) -> Link:
    uri = resource_uri(kind, value)
    return Link(uri, uri.removeprefix("modelscores://"), JSON_TYPE, f"{kind.summary} (JSON)")


def _download(site: SiteSnapshot, path: str, what: str) -> list[Link]:
    if path not in site.downloads:
        return []
    return [Link(download_uri(path), path, CSV_TYPE, f"{what} as CSV")]


def links(site: SiteSnapshot, tool: str, data: Mapping[str, Any]) -> tuple[Link, ...]:
    """The resources behind a tool's answer `data` (none for an error)."""
    found: list[Link]
    match tool:
        case "list_models":
            found = [_document(MODELS), *_download(site, models_download(), "The model list")]
        case "get_model":
            model_id = str(data["id"])
            history = model_history_download(model_id)
            found = [_document(MODEL, model_id), *_download(site, history, "Its history")]
        case "compare_models":
            found = [_document(MODEL, str(model["id"])) for model in data["compared"]]
        case "list_rankings":
            found = [_document(RANKINGS)]
        case "get_ranking":
            ranking = str(data["id"])
            found = [
                _document(RANKING, ranking),
                *_download(site, ranking_download(ranking), "The ranking"),
            ]
        case "list_benchmarks":
            found = [_document(BENCHMARKS)]
        case "list_domains":
            found = [_document(DOMAINS)]
        case "get_domain":
            slug = str(data["id"])
            found = [
                _document(DOMAIN, slug),
                *_download(site, domain_download(slug), "The leaderboard"),
            ]
        case "get_methodology":
            found = [_document(METHODOLOGY)]
        case _:  # pragma: no cover - a new tool without links
            found = []
    return tuple(found)
