"""Contract tests over the built fixture site: OpenAPI, schemas, Structs, hosting rules."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import msgspec
import pytest
from jsonschema import Draft202012Validator
from openapi_spec_validator import validate

from generator.api.contract import ENDPOINTS, ERROR_CODES, ApiIndex, Error
from generator.api.files import DATAPACKAGE_FILE, NOT_FOUND_FILE
from generator.api.hosting import parse_headers, parse_redirects, pattern_matches
from generator.api.urls import INDEX_PATH, api_file, api_path_of_file, endpoint_for


def _files(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


@pytest.fixture(scope="module")
def files(built_site: Path) -> dict[str, bytes]:
    return _files(built_site)


@pytest.fixture(scope="module")
def openapi(files: dict[str, bytes]) -> dict[str, Any]:
    document: dict[str, Any] = json.loads(files["api/v1/openapi.json"])
    return document


def _api_path(file: str) -> str | None:
    """The API path (relative to /api/v1) a versioned file holds, or None for openapi.json."""
    return api_path_of_file(file.removeprefix("api/v1/"))


def _emitted(files: dict[str, bytes]) -> dict[str, bytes]:
    """Every versioned API document by API path."""
    found = {}
    for file, data in files.items():
        if file.startswith("api/v1/") and (path := _api_path(file)) is not None:
            found[path] = data
    return found


def _schema_name(path: str) -> str:
    kind = endpoint_for(path)
    assert kind is not None, path
    return kind.response.__name__


def _validator(openapi: dict[str, Any], name: str) -> Draft202012Validator:
    schema = {"$ref": f"#/components/schemas/{name}", "components": openapi["components"]}
    return Draft202012Validator(schema, format_checker=Draft202012Validator.FORMAT_CHECKER)


def test_openapi_passes_the_spec_validator(openapi: dict[str, Any]) -> None:
    validate(openapi)
    assert openapi["openapi"] == "3.1.0"


def test_openapi_is_identical_in_both_trees(files: dict[str, bytes]) -> None:
    assert files["api/openapi.json"] == files["api/v1/openapi.json"]


def test_servers_are_the_versioned_base_and_the_alias(openapi: dict[str, Any]) -> None:
    assert [s["url"] for s in openapi["servers"]] == [
        "http://127.0.0.1:8000/api/v1",
        "http://127.0.0.1:8000/api",
    ]


def _api_operations(openapi: dict[str, Any]) -> dict[str, Any]:
    """The JSON endpoints: every path, each at the document's own servers."""
    paths: dict[str, Any] = openapi["paths"]
    return paths


def _documented(paths: dict[str, Any]) -> set[str]:
    """Every concrete path the templates document (a parameter's enum filled in)."""
    documented = set()
    for template, item in paths.items():
        parameters = item["get"].get("parameters", [])
        if not parameters:
            documented.add(template)
            continue
        (parameter,) = parameters
        for value in parameter["schema"]["enum"]:
            documented.add(template.replace("{" + parameter["name"] + "}", value))
    return documented


def test_documented_paths_equal_emitted_endpoints(
    openapi: dict[str, Any], files: dict[str, bytes]
) -> None:
    api = _api_operations(openapi)
    assert _documented(api) == set(_emitted(files))
    assert set(api) == {INDEX_PATH} | {e.path for e in ENDPOINTS}


def test_every_operation_is_json_at_the_documents_servers(openapi: dict[str, Any]) -> None:
    """A generated client calls each operation at the document's server (generators ignore
    path-level `servers`): no operation has its own, and every response is JSON."""
    for template, item in openapi["paths"].items():
        assert set(item) == {"get"} and "servers" not in item["get"], template
        for response in item["get"]["responses"].values():
            assert set(response["content"]) == {"application/json"}, template


def test_the_data_package_lists_every_csv_file(files: dict[str, bytes]) -> None:
    """The downloads are described in the data package, not in openapi.json."""
    package = json.loads(files[DATAPACKAGE_FILE])
    described = {f"downloads/{r['path']}" for r in package["resources"]}
    csvs = {f for f in files if f.startswith("downloads/") and f.endswith(".csv")}
    assert len(described) > 10 and described == csvs - {NOT_FOUND_FILE}
    rows = list(csv.reader(io.StringIO(files[NOT_FOUND_FILE].decode(), newline="")))
    assert rows == [["error", "code"], ["No such download.", "not_found"]]


def test_every_path_documents_a_404_with_the_error_schema(openapi: dict[str, Any]) -> None:
    for template, item in _api_operations(openapi).items():
        responses = item["get"]["responses"]
        assert responses["404"]["content"]["application/json"]["schema"] == {
            "$ref": "#/components/schemas/Error"
        }, template
        assert set(responses) == {"200", "404"}


def test_path_parameters_have_a_real_example(openapi: dict[str, Any]) -> None:
    for template, item in openapi["paths"].items():
        for parameter in item["get"].get("parameters", []):
            assert parameter["example"] in parameter["schema"]["enum"], template
            assert parameter["required"] is True


def test_every_document_validates_against_its_schema_and_decodes(
    openapi: dict[str, Any], files: dict[str, bytes]
) -> None:
    emitted = _emitted(files)
    assert len(emitted) > 20
    for path, data in emitted.items():
        endpoint = endpoint_for(path)
        response = endpoint.response if endpoint is not None else ApiIndex
        errors = list(_validator(openapi, _schema_name(path)).iter_errors(json.loads(data)))
        assert not errors, f"{path}: {errors[0].message} at {list(errors[0].absolute_path)}"
        decoded = msgspec.json.decode(data, type=response)
        assert msgspec.json.decode(msgspec.json.encode(decoded)) == json.loads(data), path


def test_error_bodies_validate_and_are_exactly_error_and_code(
    openapi: dict[str, Any], files: dict[str, bytes]
) -> None:
    for code, message in ERROR_CODES.items():
        data = files[f"api/_errors/{code}.json"]
        body = json.loads(data)
        assert body == {"error": message, "code": code}
        assert not list(_validator(openapi, "Error").iter_errors(body))
        assert msgspec.json.decode(data, type=Error) == Error(error=message, code=code)


def test_alias_tree_is_byte_identical_to_v1(files: dict[str, bytes]) -> None:
    v1 = {f.removeprefix("api/v1/"): d for f, d in files.items() if f.startswith("api/v1/")}
    alias = {
        f.removeprefix("api/"): d
        for f, d in files.items()
        if f.startswith("api/") and not f.startswith(("api/v1/", "api/_errors/"))
    }
    assert alias == v1


def test_files_sit_where_the_layout_says(files: dict[str, bytes]) -> None:
    for path in _emitted(files):
        assert api_file(path) in files
    assert "api/v1/models.json" in files and "api/v1/models/alpha-1" in files
    assert "api/v1/benchmarks" in files and "api/v1/index.json" in files


def test_every_redirect_target_exists(files: dict[str, bytes]) -> None:
    rules = parse_redirects(files["_redirects"].decode())
    rewrites = {r.source: r.target for r in rules if r.status == 200}
    for rule in rules:
        # an alias of a rewritten path (a model's history) ends at the rewrite's file
        served = rewrites.get(rule.target, rule.target) if rule.status == 301 else rule.target
        page = served.endswith("/")  # an alias of a model page: its index.html
        target = served.lstrip("/") + ("index.html" if page else "")
        assert "://" in served or target in files, rule


def test_every_header_pattern_matches_a_file(files: dict[str, bytes]) -> None:
    """Or, for an alias's canonical `Link`, a path a rewrite serves."""
    rewritten = [r.source for r in parse_redirects(files["_redirects"].decode()) if r.status == 200]
    paths = ["/" + f for f in files] + rewritten
    for rule in parse_headers(files["_headers"].decode()):
        assert any(pattern_matches(rule.pattern, path, ignore_case=True) for path in paths), rule


def test_discovery_index_lists_every_endpoint(files: dict[str, bytes]) -> None:
    index = msgspec.json.decode(files["api/index.json"], type=ApiIndex)
    assert [e.path for e in index.endpoints] == [e.path for e in ENDPOINTS]
    assert index.openapi == "http://127.0.0.1:8000/api/openapi.json"
    assert index.mcp == "http://127.0.0.1:8000/api/mcp"


def test_the_history_and_the_feed_declare_their_provisional_flags(
    openapi: dict[str, Any], files: dict[str, bytes]
) -> None:
    """Issue 42: `provisional` wherever the history publishes a composite (required: every
    entry has one), `provisionalBefore`/`provisionalAfter` beside a change's two composites,
    each a boolean described as the model rows' flag is; every published one carries them."""
    schemas = openapi["components"]["schemas"]
    described = schemas["ModelSummary"]["properties"]["provisional"]["description"]
    for name in ("HistoryEntry", "HistoryTopModel", "ModelHistoryPoint"):
        schema = schemas[name]
        assert schema["properties"]["provisional"] == {"type": "boolean", "description": described}
        assert "provisional" in schema["required"], name
    change = schemas["Change"]["properties"]
    for field, of in (("provisionalBefore", "iqBefore"), ("provisionalAfter", "iqAfter")):
        assert change[field]["type"] == "boolean" and change[field]["default"] is False
        assert change[field]["description"].startswith(f"Of {of} (")
        assert change[field]["description"].endswith(described)
    changes = json.loads(files["api/v1/changes.json"])["changes"]
    assert changes and all({"provisionalBefore", "provisionalAfter"} <= c.keys() for c in changes)
