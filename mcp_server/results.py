"""The JSON Schema of what a tool answers (its `ToolDeclaration.answer` Struct).

Eight tools answer with a published document as is; `compare_models` answers with
`ModelComparison` (declared with the tools in `generator/api/mcp_tools.py`).
"""

from __future__ import annotations

from typing import Any, cast

import msgspec

from generator.api.mcp_tools import KEPT_IN_ROWS, KEPT_MEMBERS, NEXT_CURSOR, ToolDeclaration

_LOCAL_DEFS = "#/$defs/"


def output_schema(declaration: ToolDeclaration) -> dict[str, Any]:
    """The JSON Schema of the tool's answer Struct with the root inlined (MCP wants an object
    at the root); nested references still point into `$defs`, which is kept.

    Where `fields` picks members, only the kept ones stay required (at the root, or in the
    items of `picks_in`); a paged tool's answer may add `nextCursor`.
    """
    schema = _inlined(declaration.answer)
    if any(argument.name == "fields" for argument in declaration.arguments):
        target = schema
        kept_names: tuple[str, ...] = KEPT_MEMBERS
        if declaration.picks_in is not None:
            items = schema["properties"][declaration.picks_in]["items"]
            target = schema["$defs"][str(items["$ref"]).removeprefix(_LOCAL_DEFS)]
            kept_names = KEPT_IN_ROWS
        target["required"] = [n for n in target.get("required", []) if n in kept_names]
    if declaration.pages is not None:
        cursor = {"anyOf": [{"type": "string"}, {"type": "null"}], "description": _NEXT}
        schema["properties"] = {**schema["properties"], NEXT_CURSOR: cursor}
    return schema


_NEXT = "With a size control: the cursor of the next page, or null on the last page."


def _inlined(kind: type[msgspec.Struct]) -> dict[str, Any]:
    schema = msgspec.json.schema(kind)
    ref = schema.pop("$ref")
    if not isinstance(ref, str) or not ref.startswith(_LOCAL_DEFS):  # pragma: no cover
        raise ValueError(f"unexpected schema root for {kind.__name__}: {ref!r}")
    definitions = cast(dict[str, Any], schema["$defs"])
    root = cast(dict[str, Any], definitions[ref.removeprefix(_LOCAL_DEFS)])
    return {**root, "$defs": definitions}
