"""The OpenAPI 3.1 description, from `DOCUMENTS` and the contract Structs (one source).

Path parameters carry an `enum` of the ids actually published, with a real example, so
a client (or schemathesis) sees exactly which values answer 200; every other value is
the documented 404 with the `Error` body.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

import msgspec

from generator.api.contract import API_VERSION, DOCUMENTS, DocumentKind, Error
from generator.api.files import DATAPACKAGE_FILE
from generator.api.hosting import API_HEADERS
from generator.api.urls import SiteConfig, alias_url, api_url, endpoint_for
from generator.vocabulary import DIMENSION_COUNT_WORD

OPENAPI_VERSION = "3.1.0"
REF_TEMPLATE = "#/components/schemas/{name}"
TITLE = "modelscores API"
DESCRIPTION = (
    f"Public, read-only JSON API of AI model scores: composite IQ, {DIMENSION_COUNT_WORD} "
    "dimensions, "
    "emotional reasoning, domains, cost, rankings, charts and methodology. Every endpoint "
    "is GET, needs no credentials and returns JSON; unknown paths and ids answer 404 with "
    "an `Error` body. Clients must tolerate unknown fields (additive changes). The CSV "
    f"downloads are not API operations: the site root's `/{DATAPACKAGE_FILE}` (a "
    "Frictionless Data Package) describes each file, its columns and their types."
)
# Headers every API response carries (200 and 404), as set by `_headers`.
DOCUMENTED_HEADERS = ("Access-Control-Allow-Origin", "Cache-Control")

JsonObject = dict[str, Any]


def _header_objects() -> JsonObject:
    values = dict(API_HEADERS)
    return {
        name: {
            "description": f"Always `{values[name]}`.",
            "required": True,
            "schema": {"type": "string"},
        }
        for name in DOCUMENTED_HEADERS
    }


def _response(description: str, schema_name: str) -> JsonObject:
    return {
        "description": description,
        "headers": _header_objects(),
        "content": {
            "application/json": {"schema": {"$ref": REF_TEMPLATE.format(name=schema_name)}}
        },
    }


Known = Mapping[str, list[str]]
"""The parameter values published for each `{param}` endpoint (by its path), sorted."""


def _known_values(documents: Mapping[str, object]) -> Known:
    """`Known` of the published `documents`, in one pass over their paths."""
    found: dict[str, list[str]] = {}
    for path in documents:
        endpoint = endpoint_for(path)
        if endpoint is not None and (value := endpoint.path_value(path)) is not None:
            found.setdefault(endpoint.path, []).append(value)
    return {path: sorted(values) for path, values in found.items()}


def _parameter(endpoint: DocumentKind[Any], known: Known) -> JsonObject:
    assert endpoint.param is not None
    values = list(known.get(endpoint.path, ()))
    schema: JsonObject = {"type": "string", "enum": values}
    parameter: JsonObject = {
        "name": endpoint.param,
        "in": "path",
        "required": True,
        "description": f"A published {_noun(endpoint)} {endpoint.param} (unknown: 404).",
        "schema": schema,
    }
    if values:
        parameter["example"] = values[0]
    return parameter


def _noun(endpoint: DocumentKind[Any]) -> str:
    """The collection's noun in the singular: models -> model, history -> history."""
    collection = endpoint.path.split("/")[1]
    return collection[:-1] if collection.endswith("s") else collection


def _operation(
    endpoint_path: str,
    summary: str,
    response: type[msgspec.Struct],
    not_found: str,
    parameters: list[JsonObject],
) -> JsonObject:
    operation: JsonObject = {
        "operationId": _operation_id(endpoint_path),
        "summary": summary,
        "responses": {
            "200": _response(response.__doc__ or summary, response.__name__),
            "404": _response(not_found, Error.__name__),
        },
    }
    if parameters:
        operation["parameters"] = parameters
    return {"get": operation}


def _operation_id(path: str) -> str:
    words = [w for w in path.replace("{", "").replace("}", "").split("/") if w] or ["index"]
    return "get" + "".join(word.capitalize() for word in words)


def _paths(known: Known) -> JsonObject:
    paths: JsonObject = {}
    for endpoint in DOCUMENTS:
        if endpoint.param is None:
            parameters: list[JsonObject] = []
            not_found = "Not found."
        else:
            parameters = [_parameter(endpoint, known)]
            not_found = f"Unknown {endpoint.param} (code `{endpoint.not_found_code}`)."
        paths[endpoint.path] = _operation(
            endpoint.path, endpoint.summary, endpoint.response, not_found, parameters
        )
    return paths


@functools.cache
def _components() -> JsonObject:
    """The contract's schemas: fixed by the code, so made once a process (read-only)."""
    types: list[type[msgspec.Struct]] = [*(d.response for d in DOCUMENTS), Error]
    _, schemas = msgspec.json.schema_components(types, ref_template=REF_TEMPLATE)
    return {"schemas": dict(sorted(schemas.items()))}


def build_openapi(documents: Mapping[str, object], config: SiteConfig) -> JsonObject:
    """The OpenAPI 3.1 document for the published `documents` (keyed by API path)."""
    known = _known_values(documents)
    return {
        "openapi": OPENAPI_VERSION,
        "info": {"title": TITLE, "version": API_VERSION, "description": DESCRIPTION},
        "servers": [
            {"url": api_url(config), "description": "Version 1 (canonical)."},
            {"url": alias_url(config), "description": "Bare alias: the current version."},
        ],
        "paths": _paths(known),
        "components": _components(),
    }
