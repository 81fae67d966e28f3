"""Discovery: the MCP Registry entry (`server.json`), the server card and the icons."""

from __future__ import annotations

import json
from importlib.metadata import version
from pathlib import Path

import anyio
import httpx
import jsonschema
import pytest
from PIL import Image
from support.paths import REPO

from generator.api.server_card import CARD_FILE, registry_entry, server_card
from generator.api.urls import MCP_PATH, SiteConfig
from generator.serve import create_static_app

SCHEMA = REPO / "tests" / "schemas" / "mcp-registry-server.schema.json"
PUBLIC = SiteConfig(base_url="https://scores.example.org")


def test_server_json_is_the_public_sites_registry_entry() -> None:
    entry = json.loads((REPO / "server.json").read_text(encoding="utf-8"))
    assert entry == registry_entry(PUBLIC)
    assert entry["remotes"] == [
        {"type": "streamable-http", "url": "https://scores.example.org" + MCP_PATH}
    ]
    assert entry["version"] == version("modelscores")
    assert entry["name"] == "org.example.scores/modelscores"


def test_server_json_validates_against_the_registrys_schema() -> None:
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    entry = json.loads((REPO / "server.json").read_text(encoding="utf-8"))
    checker = jsonschema.Draft7Validator(schema, format_checker=jsonschema.FormatChecker())
    assert list(checker.iter_errors(entry)) == []
    assert entry["$schema"] == schema["$id"]


@pytest.mark.parametrize(
    ("change", "where"),
    [
        ({"description": "x" * 101}, "description"),  # over the registry's 100 characters
        ({"name": "no-slash"}, "name"),
        ({"remotes": [{"type": "streamable-http"}]}, "remotes"),
        ({"icons": [{"mimeType": "image/png"}]}, "icons"),
    ],
)
def test_the_vendored_schema_refuses_what_the_registry_refuses(
    change: dict[str, object], where: str
) -> None:
    """The schema is the registry's, not a stub: entries the registry refuses fail here."""
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    errors = list(
        jsonschema.Draft7Validator(schema).iter_errors({**registry_entry(PUBLIC), **change})
    )
    assert errors and all(
        where in "/".join(map(str, e.absolute_path)) or where in e.message for e in errors
    )


def test_the_built_site_publishes_the_server_card_and_icons(built_site: Path) -> None:
    card = json.loads((built_site / CARD_FILE).read_bytes())
    assert card == server_card(SiteConfig())
    assert card["remotes"] == [{"type": "streamable-http", "url": SiteConfig().base + MCP_PATH}]
    for icon in card["icons"]:
        path = icon["src"].removeprefix(SiteConfig().base + "/")
        assert (built_site / path).is_file(), path
    with Image.open(built_site / "static/icon.png") as png:
        assert png.size == (96, 96)
    assert (built_site / "static/icon.svg").read_bytes().startswith(b"<svg")


def test_serve_answers_the_card_as_json_with_cors(built_site: Path) -> None:
    transport = httpx.ASGITransport(app=create_static_app(built_site))  # type: ignore[arg-type]

    async def fetch() -> httpx.Response:
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
            return await client.get("/" + CARD_FILE)

    response = anyio.run(fetch)
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/json; charset=utf-8"
    assert response.headers["access-control-allow-origin"] == "*"
    assert response.json()["name"] == "1.0.0.127/modelscores"
