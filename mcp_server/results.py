"""The JSON Schema of what a tool answers (its `ToolDeclaration.answer` Struct).

Eight tools answer with a published document as is; `compare_models` answers with
`ModelComparison` (declared with the tools in `generator/api/mcp_tools.py`).
"""

from __future__ import annotations

from typing import Any, cast

import msgspec

_LOCAL_DEFS = "#/$defs/"


def output_schema(kind: type[msgspec.Struct]) -> dict[str, Any]:
    """The JSON Schema of `kind` with the root inlined: MCP wants an object at the root.

    Nested references still point into `$defs`, which is kept.
    """
    schema = msgspec.json.schema(kind)
    ref = schema.pop("$ref")
    if not isinstance(ref, str) or not ref.startswith(_LOCAL_DEFS):  # pragma: no cover
        raise ValueError(f"unexpected schema root for {kind.__name__}: {ref!r}")
    definitions = cast(dict[str, Any], schema["$defs"])
    root = cast(dict[str, Any], definitions[ref.removeprefix(_LOCAL_DEFS)])
    return {**root, "$defs": definitions}
