"""README badges: one shields.io endpoint file per published model, valid against the
endpoint format's rules (tests/schemas/shields-endpoint.schema.json), served as JSON with
CORS, not in openapi.json, with a Markdown snippet on each model page."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from support.paths import REPO

from generator.api.files import badge_file
from generator.api.hosting import headers_for, parse_headers
from generator.serve import StaticHost

SCHEMA = json.loads((REPO / "tests/schemas/shields-endpoint.schema.json").read_bytes())
VALIDATOR = Draft202012Validator(SCHEMA)


def _models(site: Path) -> list[dict[str, Any]]:
    models: list[dict[str, Any]] = json.loads((site / "api/v1/models.json").read_bytes())["models"]
    return models


def _badge(site: Path, model_id: str) -> dict[str, Any]:
    badge: dict[str, Any] = json.loads((site / badge_file(model_id)).read_bytes())
    return badge


def test_the_schema_refuses_what_shields_refuses() -> None:
    good = {"schemaVersion": 1, "label": "", "message": "IQ 1", "color": "blue"}
    assert VALIDATOR.is_valid(good)
    for bad in (
        {**good, "data": {}},  # an unknown key (an API envelope)
        {**good, "schemaVersion": 2},
        {**good, "message": ""},
        {key: value for key, value in good.items() if key != "label"},
        {**good, "cacheSeconds": "300"},
    ):
        assert not VALIDATOR.is_valid(bad), bad


@pytest.mark.parametrize("site", ["built_site", "shipped_site"])
def test_every_model_has_a_valid_badge(site: str, request: pytest.FixtureRequest) -> None:
    root: Path = request.getfixturevalue(site)
    models = _models(root)
    assert models
    for model in models:
        badge = _badge(root, model["id"])
        VALIDATOR.validate(badge)
        if model["iq"] is None:
            assert badge["message"] == "unranked" and badge["color"] == "lightgrey"
        elif model["rank"] is not None:
            assert badge["message"].startswith(f"IQ {model['iq']} · #{model['rank']}")
            assert badge["message"].endswith(" provisional") == model["provisional"]
    files = {p.relative_to(root / "badges").as_posix() for p in (root / "badges").rglob("*.*")}
    assert files == {f"{m['id']}.json" for m in models}


def test_badges_in_the_fixture_say_iq_and_rank(built_site: Path) -> None:
    # tests/data: alpha-3 leads with 130, alpha-1 is third with 100, beta-1 fourth with 85.
    assert _badge(built_site, "alpha-3")["message"] == "IQ 130 · #1"
    assert _badge(built_site, "alpha-1") == {
        "schemaVersion": 1,
        "label": "modelscores",
        "message": "IQ 100 · #3",
        "color": "brightgreen",
        "cacheSeconds": 3600,
    }
    assert _badge(built_site, "beta-1")["color"] == "green"  # fourth: top 10


def test_badges_are_json_with_cors_and_outside_the_api(built_site: Path) -> None:
    rules = parse_headers((built_site / "_headers").read_text())
    headers = dict(headers_for(rules, "/badges/alpha-1.json"))
    assert headers["Content-Type"] == "application/json; charset=utf-8"
    assert headers["Access-Control-Allow-Origin"] == "*"
    openapi = (built_site / "api/v1/openapi.json").read_text()
    assert "badges" not in openapi
    host = StaticHost(built_site)
    assert host.respond("/badges/alpha-1.json").status_code == 200
    assert host.respond("/badges/no-such-model.json").status_code == 404


def test_each_model_page_shows_its_badge_markdown(built_site: Path) -> None:
    page = (built_site / "models/alpha-1/index.html").read_text()
    badge_url = "http%3A%2F%2F127.0.0.1%3A8000%2Fbadges%2Falpha-1.json"
    snippet = (
        f"[![modelscores](https://img.shields.io/endpoint?url={badge_url})]"
        "(http://127.0.0.1:8000/models/alpha-1/)"
    )
    assert f'<code id="badge-markdown">{snippet}</code>' in page
