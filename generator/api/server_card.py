"""How an MCP client finds the connector before it connects: the MCP Registry's `server.json`
and the server card the site publishes at `/.well-known/mcp/server-card.json`.

Both describe the remote server: its reverse-DNS name (from the site's host), a title and a
one-line description, the package version, the Streamable HTTP URL (`/api/mcp` on the site)
and the icons (`/static/icon.svg`, `/static/icon.png`). The repository's `server.json` is
`registry_entry` for the public site; `tests/sidecar/test_discovery.py` keeps them equal and
validates the file against the registry's published schema.
"""

from __future__ import annotations

from importlib.metadata import version
from typing import Any
from urllib.parse import urlsplit

from generator.api.urls import SiteConfig, mcp_url

REGISTRY_SCHEMA = "https://static.modelcontextprotocol.io/schemas/2025-09-29/server.schema.json"
CARD_SCHEMA = "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json"
CARD_FILE = ".well-known/mcp/server-card.json"
SERVER_ID = "modelscores"
"""The server's name under its site's reverse-DNS namespace."""
TITLE = "Model scores"
DESCRIPTION = (
    "Read-only scores of AI models: composite IQ, rankings, benchmarks, domains, cost, methodology."
)
ICONS = (("static/icon.svg", "image/svg+xml", "any"), ("static/icon.png", "image/png", "96x96"))


def server_name(config: SiteConfig) -> str:
    """The reverse-DNS name of the server (`org.example.scores/modelscores`)."""
    host = urlsplit(config.base).hostname or "localhost"
    return ".".join(reversed(host.split("."))) + "/" + SERVER_ID


def _entry(config: SiteConfig, schema: str) -> dict[str, Any]:
    return {
        "$schema": schema,
        "name": server_name(config),
        "title": TITLE,
        "description": DESCRIPTION,
        "version": version("modelscores"),
        "websiteUrl": config.base + "/",
        "icons": [
            {"src": f"{config.base}/{path}", "mimeType": mime, "sizes": [size]}
            for path, mime, size in ICONS
        ],
        "remotes": [{"type": "streamable-http", "url": mcp_url(config)}],
    }


def registry_entry(config: SiteConfig) -> dict[str, Any]:
    """The MCP Registry's `server.json` for the site at `config.base_url`."""
    return _entry(config, REGISTRY_SCHEMA)


def server_card(config: SiteConfig) -> dict[str, Any]:
    """The server card (SEP-2127) the site publishes at `CARD_FILE`."""
    return _entry(config, CARD_SCHEMA)
