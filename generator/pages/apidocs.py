"""Turn the OpenAPI document into what the API docs page shows.

The page is generated from `openapi.json` itself, so the human docs can never
drift from the machine-readable description.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

_REF_PREFIX = "#/components/schemas/"


@dataclass(frozen=True)
class TypeToken:
    """A piece of a type description; `ref` names a schema to link to."""

    text: str
    ref: str | None = None


@dataclass(frozen=True)
class Field:
    """One property of a schema."""

    name: str
    type: tuple[TypeToken, ...]
    required: bool
    notes: str


@dataclass(frozen=True)
class Schema:
    """One component schema."""

    name: str
    description: str
    fields: tuple[Field, ...]


@dataclass(frozen=True)
class Parameter:
    """One path parameter."""

    name: str
    description: str
    example: str


@dataclass(frozen=True)
class Response:
    """One documented response of an operation."""

    status: str
    description: str
    type: tuple[TypeToken, ...]


@dataclass(frozen=True)
class Operation:
    """One GET endpoint with a runnable curl example."""

    path: str
    summary: str
    description: str
    parameters: tuple[Parameter, ...]
    responses: tuple[Response, ...]
    example_url: str
    from_site_root: bool = False  # a download: its path is not under /api/v1


@dataclass(frozen=True)
class ApiDocs:
    """Everything the docs page shows."""

    title: str
    version: str
    description: str
    openapi_version: str
    operations: tuple[Operation, ...]
    schemas: tuple[Schema, ...]


def type_tokens(schema: Mapping[str, Any]) -> tuple[TypeToken, ...]:
    """A short human description of a JSON Schema type, with schema links."""
    if "$ref" in schema:
        name = str(schema["$ref"]).removeprefix(_REF_PREFIX)
        return (TypeToken(name, name),)
    for key in ("anyOf", "oneOf"):
        if key in schema:
            parts: list[TypeToken] = []
            for i, option in enumerate(schema[key]):
                if i:
                    parts.append(TypeToken(" or "))
                parts += type_tokens(option)
            return tuple(parts)
    if "const" in schema:
        return (TypeToken(f'"{schema["const"]}"'),)
    if "enum" in schema:
        return (TypeToken("one of " + ", ".join(f'"{v}"' for v in schema["enum"])),)
    kind = schema.get("type")
    if isinstance(kind, list):
        return (TypeToken(" or ".join(str(k) for k in kind)),)
    if kind == "array":
        return (TypeToken("array of "), *type_tokens(schema.get("items", {})))
    if kind == "object" and isinstance(schema.get("additionalProperties"), Mapping):
        return (TypeToken("object of "), *type_tokens(schema["additionalProperties"]))
    text = str(kind or "any")
    if "format" in schema:
        text += f" ({schema['format']})"
    return (TypeToken(text),)


def _notes(schema: Mapping[str, Any]) -> str:
    notes = []
    if schema.get("description"):
        notes.append(str(schema["description"]))
    for part in [schema, *schema.get("anyOf", [])]:
        notes += [
            f"{label} {part[key]}"
            for key, label in (("minimum", "≥"), ("maximum", "≤"), ("pattern", "pattern"))
            if key in part
        ]
    return "; ".join(notes)


def _schemas(components: Mapping[str, Any]) -> tuple[Schema, ...]:
    out = []
    for name, schema in components.items():
        required = set(schema.get("required", []))
        fields = tuple(
            Field(prop, type_tokens(sub), prop in required, _notes(sub))
            for prop, sub in schema.get("properties", {}).items()
        )
        out.append(Schema(name, str(schema.get("description", "")), fields))
    return tuple(out)


def _operation(
    path: str, op: Mapping[str, Any], api_base: str, example: Callable[[str, str], str]
) -> Operation:
    """One operation; `api_base` is the base its path is relative to."""
    params = tuple(
        Parameter(
            str(p["name"]),
            str(p.get("description", "")),
            str(p.get("example") or example(path, str(p["name"]))),
        )
        for p in op.get("parameters", [])
        if p.get("in") == "path"
    )
    url_path = "" if path == "/" else path
    for p in params:
        url_path = url_path.replace("{" + p.name + "}", p.example)
    responses = []
    for status, resp in op.get("responses", {}).items():
        content = resp.get("content", {})
        if "application/json" in content or not content:
            tokens = type_tokens(content.get("application/json", {}).get("schema", {}))
        else:  # another media type (a CSV download): named as such
            tokens = (TypeToken(" or ".join(content)),)
        responses.append(Response(str(status), str(resp.get("description", "")), tokens))
    return Operation(
        path=url_path if path == "/" else path,
        summary=str(op.get("summary", "")),
        description=str(op.get("description", "")),
        parameters=params,
        responses=tuple(responses),
        example_url=api_base + url_path,
    )


def _path_server(item: Mapping[str, Any]) -> str | None:
    """The URL of a path's own `servers` (a CSV download is served from the site root)."""
    servers = item.get("servers") or []
    return str(servers[0]["url"]) if servers else None


def build_api_docs(
    openapi: Mapping[str, Any], api_base: str, example: Callable[[str, str], str]
) -> ApiDocs:
    """The docs page model: `api_base` ends in /api/v1; `example(path, param)` gives a value."""
    info = openapi.get("info", {})
    operations = []
    for path, item in openapi.get("paths", {}).items():
        if "get" in item:
            root = _path_server(item)
            operation = _operation(path, item["get"], root or api_base, example)
            operations.append(replace(operation, from_site_root=root is not None))
    return ApiDocs(
        title=str(info.get("title", "API")),
        version=str(info.get("version", "")),
        description=str(info.get("description", "")),
        openapi_version=str(openapi.get("openapi", "")),
        operations=tuple(operations),
        schemas=_schemas(openapi.get("components", {}).get("schemas", {})),
    )
