"""Public URLs and API file paths: the one place that knows the site's layout.

Every `url` field in the API, every page link and every hosting rule is built here,
from `SiteConfig.base_url` (no trailing slash) and the layout in docs/ARCHITECTURE.md.
"""

from __future__ import annotations

import re
from typing import Any

import msgspec

from generator.api.contract import (
    BENCHMARKS,
    CHARTS,
    DOCUMENTS,
    DOMAIN,
    INDEX,
    METHODOLOGY,
    MODEL,
    MODELS,
    RANKING,
    DocumentKind,
)
from generator.errors import BuildError

DEFAULT_BASE_URL = "http://127.0.0.1:8000"
API_PREFIX = "/api/v1"  # the versioned API, in URLs and (without the slash) as a site folder
ALIAS_PREFIX = "/api"  # the bare alias: same bytes as the versioned tree
API_PREFIXES: tuple[str, ...] = (API_PREFIX, ALIAS_PREFIX)
INDEX_PATH = INDEX.path  # the discovery index, as a document key (the API root)
OPENAPI_FILE = "openapi.json"
ERRORS_DIR = "api/_errors"
MCP_PATH = "/api/mcp"
HTML_404 = "404.html"

_ORIGIN = re.compile(r"^https?://[^\s/?#]+(?:/[^\s?#]*)?$")


class SiteConfig(msgspec.Struct, frozen=True, kw_only=True):
    """Where the site is published: the base of every URL, the MCP sidecar's origin, and
    the issue tracker's new-issue URL (model pages link prefilled reports of a wrong value)."""

    base_url: str = DEFAULT_BASE_URL
    mcp_origin: str | None = None
    issues_url: str | None = None

    def __post_init__(self) -> None:
        for name, value in (
            ("base URL", self.base_url),
            ("MCP origin", self.mcp_origin),
            ("issues URL", self.issues_url),
        ):
            if value is not None and not _ORIGIN.fullmatch(value):
                raise ValueError(f"{name} must be an absolute http(s) URL, got {value!r}")

    @property
    def base(self) -> str:
        """The base URL without a trailing slash."""
        return self.base_url.rstrip("/")


def site_config(
    base_url: str, mcp_origin: str | None = None, issues_url: str | None = None
) -> SiteConfig:
    """A SiteConfig from command-line values (a bad URL is a BuildError, not a traceback)."""
    try:
        return SiteConfig(base_url=base_url, mcp_origin=mcp_origin, issues_url=issues_url)
    except ValueError as exc:
        raise BuildError(str(exc)) from None


# --- public URLs ------------------------------------------------------------


def api_url(config: SiteConfig, path: str = "") -> str:
    """The versioned API URL of `path` (relative to /api/v1; "" or "/" is the API root)."""
    return config.base + API_PREFIX + ("" if path == INDEX_PATH else path)


def alias_url(config: SiteConfig, path: str = "") -> str:
    """The bare-alias API URL of `path` (relative to /api)."""
    return config.base + ALIAS_PREFIX + ("" if path == INDEX_PATH else path)


def openapi_url(config: SiteConfig) -> str:
    """The OpenAPI document, served under the alias (contract endpoint 10)."""
    return alias_url(config, "/" + OPENAPI_FILE)


def mcp_url(config: SiteConfig) -> str:
    """The MCP connector."""
    return config.base + MCP_PATH


def page_url(config: SiteConfig, kind: DocumentKind[Any], value: str | None = None) -> str:
    """The public URL of the page that shows a document (`value` fills its `{param}`)."""
    return f"{config.base}/{kind.page_path(value)}"


def landing_url(config: SiteConfig) -> str:
    """The landing page (it shows the model list)."""
    return page_url(config, MODELS)


def model_page_url(config: SiteConfig, model_id: str) -> str:
    """A model's public profile page."""
    return page_url(config, MODEL, model_id)


def ranking_page_url(config: SiteConfig, ranking_id: str) -> str:
    """A ranking's page."""
    return page_url(config, RANKING, ranking_id)


def benchmark_page_url(config: SiteConfig, benchmark_id: str) -> str:
    """A benchmark's page, with its score chart."""
    return f"{page_url(config, BENCHMARKS)}{benchmark_id}/"


def domain_page_url(config: SiteConfig, slug: str) -> str:
    """A domain's page."""
    return page_url(config, DOMAIN, slug)


def chart_page_url(config: SiteConfig, chart_id: str) -> str:
    """A chart's stable share page."""
    return f"{page_url(config, CHARTS)}{chart_id}/"


def chart_image_url(config: SiteConfig, chart_id: str) -> str:
    """A chart's social preview image."""
    return f"{page_url(config, CHARTS)}{chart_id}.png"


def methodology_page_url(config: SiteConfig) -> str:
    """The methodology page."""
    return page_url(config, METHODOLOGY)


def docs_page_url(config: SiteConfig) -> str:
    """The API documentation page (the page of the discovery index)."""
    return page_url(config, INDEX)


# --- API paths and files ----------------------------------------------------


def _template_regex(template: str) -> re.Pattern[str]:
    return re.compile("^" + re.sub(r"\\\{[a-z_]+\\\}", "[^/]+", re.escape(template)) + "$")


_PATH_PATTERNS: tuple[tuple[re.Pattern[str], DocumentKind[Any]], ...] = tuple(
    (_template_regex(d.path), d) for d in DOCUMENTS
)
_FILE_PATTERNS: tuple[tuple[re.Pattern[str], DocumentKind[Any]], ...] = tuple(
    (_template_regex(d.file), d) for d in DOCUMENTS
)


def endpoint_for(path: str) -> DocumentKind[Any] | None:
    """The document kind whose path pattern matches an API path (relative to /api/v1)."""
    for pattern, kind in _PATH_PATTERNS:
        if pattern.fullmatch(path):
            return kind
    return None


def api_file(path: str, prefix: str = API_PREFIX) -> str:
    """The site file holding the document at API `path` under `prefix` (no leading slash).

    The document kind's `file` says where (`DOCUMENTS` in api/contract.py).
    """
    kind = endpoint_for(path)
    if kind is None:
        raise ValueError(f"{path!r} is not an API endpoint path")
    return kind_file(kind, path, prefix)


def kind_file(kind: DocumentKind[Any], path: str, prefix: str = API_PREFIX) -> str:
    """`api_file` for a path already known to be of `kind` (no pattern matched again)."""
    return f"{prefix.lstrip('/')}/{kind.file_path(kind.path_value(path))}"


def api_path_of_file(file: str) -> str | None:
    """The API path of a file relative to an API root (`models.json` -> `/models`), or None."""
    for pattern, kind in _FILE_PATTERNS:
        if pattern.fullmatch(file):
            return kind.api_path(kind.file_value(file))
    return None


def error_file(code: str) -> str:
    """The site file holding the 404 body for an error code."""
    return f"{ERRORS_DIR}/{code}.json"
