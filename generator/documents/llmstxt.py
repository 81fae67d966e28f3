"""`llms.txt` at the site root: the API, its endpoints, the downloads and the MCP connector,
in the llms.txt format (https://llmstxt.org): an H1, a blockquote summary, then H2
sections of file lists, every item a Markdown link `[name](url)` with notes after a colon.
Every text taken from a table goes through `markdown_text` (generator/encoders.py), so
none can add a line or a link.
A path with a parameter links the list of its values (`GET /models/{id}` links `/models`)
and names its pattern in the notes. Made from the same tables as the API (`ENDPOINTS`,
`DOWNLOADS`, `MCP_TOOLS`), so it never lists something the site does not publish.
"""

from __future__ import annotations

from typing import Any

from generator.api.contract import ENDPOINTS, DocumentKind
from generator.api.files import DOWNLOADS, DownloadKind
from generator.api.mcp_tools import MCP_TOOLS
from generator.api.urls import (
    SiteConfig,
    api_url,
    docs_page_url,
    mcp_url,
    methodology_page_url,
    openapi_url,
)
from generator.encoders import markdown_text
from generator.vocabulary import DIMENSION_COUNT_WORD

TITLE = "modelscores"
SUMMARY = (
    f"Public, read-only scores of AI models: composite IQ over {DIMENSION_COUNT_WORD} "
    "dimensions with 95% ranges and rank bands, emotional reasoning, applied-capability "
    "domains, cost, rankings, "
    "a month-by-month history replayed from the data, as static JSON (no key, CORS open), "
    "CSV downloads and a read-only MCP connector."
)
MCP_ANCHOR = "#mcp"  # the MCP section of the API documentation page


def _listing(kind: DocumentKind[Any]) -> DocumentKind[Any]:
    """The endpoint that lists the values of `kind`'s parameter (`/models` for `/models/{id}`)."""
    path = kind.path.split("/{", 1)[0]
    for listing in ENDPOINTS:
        if listing.param is None and listing.path == path:
            return listing
    raise ValueError(f"{kind.path}: no endpoint {path} lists its {{{kind.param}}} values")


def _values(config: SiteConfig, kind: DocumentKind[Any], summary: str, pattern: str) -> str:
    """An item whose URL has a parameter: it links the list of the parameter's values."""
    listing = _listing(kind)
    link = api_url(config, listing.path)
    return (
        f"({link}): {markdown_text(summary)}; `{pattern}`, one per {kind.param}"
        f" listed by GET {listing.path}"
    )


def _endpoint(config: SiteConfig, kind: DocumentKind[Any]) -> str:
    if kind.param is None:
        return f"- [GET {kind.path}]({api_url(config, kind.path)}): {markdown_text(kind.summary)}"
    pattern = api_url(config, kind.path)
    return f"- [GET {kind.path}]{_values(config, kind, kind.summary, pattern)}"


def _download(config: SiteConfig, kind: DownloadKind) -> str:
    url = f"{config.base}/{kind.pattern}"
    if kind.mirrors.param is None:
        return f"- [{kind.pattern}]({url}): {markdown_text(kind.summary)}"
    return f"- [{kind.pattern}]{_values(config, kind.mirrors, kind.summary, url)}"


def render_llms_txt(config: SiteConfig) -> bytes:
    """The file's bytes (UTF-8, LF line ends)."""
    mcp_docs = docs_page_url(config) + MCP_ANCHOR
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
        *(_download(config, kind) for kind in DOWNLOADS),
        "",
        "## MCP",
        "",
        f"- [MCP connector]({mcp_docs}): `{mcp_url(config)}` (Streamable HTTP, stateless, "
        f"read-only, no auth). Claude Code: "
        f"`claude mcp add --transport http modelscores {mcp_url(config)}`",
        *(
            f"- [{markdown_text(tool.name)}]({mcp_docs}): {markdown_text(tool.summary)}"
            for tool in MCP_TOOLS
        ),
        "",
    ]
    return "\n".join(lines).encode("utf-8")
