"""`llms.txt` at the site root: the API, its endpoints, the downloads and the MCP connector,
in the llms.txt format (https://llmstxt.org): an H1, a blockquote summary, then H2
sections of Markdown link lists. Made from the same tables as the API (`ENDPOINTS`,
`MCP_TOOLS`), so it never lists something the site does not publish.
"""

from __future__ import annotations

from typing import Any

from generator.api.contract import ENDPOINTS, DocumentKind
from generator.api.downloads import (
    domain_download,
    history_download,
    model_history_download,
    models_download,
    ranking_download,
    snapshot_download,
)
from generator.api.mcp_tools import MCP_TOOLS
from generator.api.urls import (
    SiteConfig,
    api_url,
    docs_page_url,
    mcp_url,
    methodology_page_url,
    openapi_url,
)

LLMS_FILE = "llms.txt"
TITLE = "modelscores"
SUMMARY = (
    "Public, read-only scores of AI models: composite IQ over seven dimensions with 95% "
    "ranges and rank bands, emotional reasoning, applied-capability domains, cost, rankings, "
    "a month-by-month history replayed from the data, as static JSON (no key, CORS open), "
    "CSV downloads and a read-only MCP connector."
)


def _endpoint(config: SiteConfig, kind: DocumentKind[Any]) -> str:
    if kind.param is None:
        return f"- [GET {kind.path}]({api_url(config, kind.path)}): {kind.summary}"
    return f"- `GET {api_url(config, kind.path)}`: {kind.summary}"


def render_llms_txt(config: SiteConfig) -> bytes:
    """The file's bytes (UTF-8, LF line ends)."""
    base = config.base
    lines = [
        f"# {TITLE}",
        "",
        f"> {SUMMARY}",
        "",
        f"Every JSON document shares an envelope (`apiVersion`, `methodologyVersion`, "
        f"`updatedAt`); an unknown id is a JSON 404 `{{error, code}}`. `{api_url(config)}` "
        f"lists every endpoint; `/api` is an alias of `/api/v1` with the same bytes.",
        "",
        "## API",
        "",
        f"- [Discovery index]({api_url(config)}): every endpoint, the OpenAPI and MCP URLs",
        f"- [OpenAPI 3.1]({openapi_url(config)}): every path, field, type and error",
        f"- [API documentation]({docs_page_url(config)}): examples with curl",
        f"- [Methodology]({methodology_page_url(config)}): how every score is computed",
        *(_endpoint(config, kind) for kind in ENDPOINTS),
        "",
        "## Downloads",
        "",
        f"- [Models CSV]({base}/{models_download()}): one row per model",
        f"- [History CSV]({base}/{history_download()}): every month-end leaderboard",
        f"- Every ranking, domain and snapshot: `{base}/{ranking_download('{id}')}`, "
        f"`{base}/{domain_download('{slug}')}`, `{base}/{snapshot_download('{date}')}`",
        f"- Each model's history: `{base}/{model_history_download('{id}')}`",
        "",
        "## MCP",
        "",
        f"- Connector: `{mcp_url(config)}` (Streamable HTTP, stateless, read-only, no auth). "
        f"Claude Code: `claude mcp add --transport http modelscores {mcp_url(config)}`",
        *(f"- `{tool.name}`: {tool.summary}" for tool in MCP_TOOLS),
        "",
    ]
    return "\n".join(lines).encode("utf-8")
