"""`modelscores serve` when a `_redirects` rule names a file the site lacks (a partial or
hand-edited site): under the API prefixes the answer is the API's JSON 404 with the API
headers, as for any unknown API path, never a plain-text "Not Found"."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from support.http_cases import expected_headers

from generator.api.contract import ERROR_CODES
from generator.serve import create_static_app

PATHS = ["/api/v1/models/alpha-1/history", "/api/models/alpha-1/history"]


@pytest.fixture
def site(built_site: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "site_out"
    shutil.copytree(built_site, copy)
    for prefix in ("api/v1", "api"):
        (copy / prefix / "model-history" / "alpha-1").unlink()  # the rewrites' targets
    return copy


def _check_json_404(site: Path, path: str, code: str) -> None:
    response = TestClient(create_static_app(site)).get(path)
    assert response.status_code == 404, (path, response.text)
    assert json.loads(response.content) == {"error": ERROR_CODES[code], "code": code}, path
    wanted = expected_headers(site, path)
    assert wanted["content-type"].startswith("application/json")
    for name, value in wanted.items():
        assert response.headers[name] == value, (path, name)


def test_the_rewrite_rules_name_the_file_removed(site: Path) -> None:
    rules = (site / "_redirects").read_text(encoding="utf-8").split("\n")
    for prefix in ("/api/v1", "/api"):
        rule = f"{prefix}/models/alpha-1/history {prefix}/model-history/alpha-1 200"
        assert rule in (" ".join(line.split()) for line in rules)


@pytest.mark.parametrize("path", PATHS)
def test_a_rewrite_to_a_missing_file_is_the_json_404_of_its_path(site: Path, path: str) -> None:
    _check_json_404(site, path, "model_not_found")


@pytest.mark.parametrize("path", PATHS)
def test_a_missing_error_document_falls_back_to_the_general_json_404(site: Path, path: str) -> None:
    (site / "api" / "_errors" / "model_not_found.json").unlink()
    _check_json_404(site, path, "not_found")


@pytest.mark.parametrize("path", [*PATHS, "/api/v1/nothing", "/api/nothing"])
def test_with_no_error_document_left_the_404_is_still_the_api_json(site: Path, path: str) -> None:
    shutil.rmtree(site / "api" / "_errors")
    _check_json_404(site, path, "not_found")
