"""Strict checks of a tool call's arguments against its declaration, with one-line errors.

The SDK path (`server.StrictTool`) checks arguments here before any tool runs, and the fast
path picks the calls whose answers it keeps with the same check: only declared names, each
value of exactly its declared JSON type (no string is taken for a boolean or a number),
within its bounds. An optional argument may be null or absent. Every refusal is one sentence
that names the argument; any value echoed back is cut to `ECHO_CHARS` characters.
"""

from __future__ import annotations

from typing import Any

from generator.api.mcp_tools import MAX_TEXT, ToolArgument, ToolDeclaration

ECHO_CHARS = 40
_INT64 = 2**63


class ArgumentError(ValueError):
    """A call's arguments do not fit the tool's declaration (the message is one sentence)."""


def echo(value: str, limit: int = ECHO_CHARS) -> str:
    """`value` quoted, cut to `limit` characters (with an ellipsis when cut)."""
    return repr(value if len(value) <= limit else value[:limit] + "\u2026")


def _json_type(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    return "an object"


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and -_INT64 <= value < _INT64


def _problem(argument: ToolArgument, value: object) -> str | None:
    """Why `value` does not fit `argument` (the sentence after the argument's name), or None."""
    low, high = argument.minimum, argument.maximum
    match argument.kind:
        case "text":
            if not isinstance(value, str):
                return f"must be a string, not {_json_type(value)}"
            if len(value) > MAX_TEXT:
                return f"must be at most {MAX_TEXT} characters (got {len(value):,})"
        case "flag":
            if not isinstance(value, bool):
                return f"must be true or false, not {_json_type(value)}"
        case "integer":
            bounds = f" from {low} to {high}" if low is not None and high is not None else ""
            if not _is_int(value):
                return f"must be an integer{bounds}, not {_json_type(value)}"
            number = int(value)  # type: ignore[call-overload]
            if (low is not None and number < low) or (high is not None and number > high):
                return f"must be an integer{bounds}"
        case "choice":
            if not isinstance(value, str) or value not in argument.choices:
                return f"must be one of {', '.join(argument.choices)}"
        case "choice_list":
            fits = (
                isinstance(value, list)
                and (low is None or len(value) >= low)
                and (high is None or len(value) <= high)
                and all(isinstance(item, str) and item in argument.choices for item in value)
            )
            if not fits:
                items = value if isinstance(value, list) else []
                unknown = [i for i in items if isinstance(i, str) and i not in argument.choices]
                if unknown:
                    return f"names {echo(unknown[0])}, not one of the members its schema lists"
                return f"must be a list of {low} to {high} member names"
        case "text_list":
            fits = (
                isinstance(value, list)
                and (low is None or len(value) >= low)
                and (high is None or len(value) <= high)
                and all(isinstance(item, str) and len(item) <= MAX_TEXT for item in value)
            )
            if not fits:
                return f"must be a list of {low} to {high} strings of at most {MAX_TEXT} characters"
    return None


def check_arguments(tool: ToolDeclaration, arguments: dict[str, Any]) -> dict[str, Any]:
    """The call's keyword arguments (every declared name; absent optional ones null), or
    `ArgumentError` naming the first argument that does not fit."""
    declared = {argument.name: argument for argument in tool.arguments}
    for name in arguments:
        if name not in declared:
            takes = ", ".join(declared) if declared else "no arguments"
            raise ArgumentError(f"Unknown argument {echo(name)}: {tool.name} takes {takes}.")
    for argument in tool.arguments:
        value = arguments.get(argument.name)
        if value is None:
            if argument.required:
                raise ArgumentError(f"Argument {argument.name!r} is required.")
            continue
        problem = _problem(argument, value)
        if problem is not None:
            raise ArgumentError(f"Argument {argument.name!r} {problem}.")
    return {name: arguments.get(name) for name in declared}
