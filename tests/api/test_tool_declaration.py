"""The nine MCP tools are declared once (`generator.api.mcp_tools`) and every reader agrees."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.api.mcp_tools import MCP_TOOLS, TOOLS_BY_NAME
from mcp_server.fastpath import call_arguments
from mcp_server.server import build_tools
from mcp_server.site import SnapshotStore


def test_the_sdk_registers_each_declared_tool_with_its_bounds(tmp_path: Path) -> None:
    registered = {tool.name: tool for tool in build_tools(SnapshotStore(tmp_path))}
    assert list(registered) == [tool.name for tool in MCP_TOOLS]
    for declaration in MCP_TOOLS:
        schema = registered[declaration.name].parameters
        assert list(schema["properties"]) == [a.name for a in declaration.arguments]
        assert schema.get("required", []) == [a.name for a in declaration.arguments if a.required]
    min_iq = registered["list_models"].parameters["properties"]["min_iq"]["anyOf"][0]
    assert (min_iq["minimum"], min_iq["maximum"]) == (70, 160)
    ids = registered["compare_models"].parameters["properties"]["ids"]
    assert (ids["minItems"], ids["maxItems"]) == (2, 20)


@pytest.mark.parametrize(
    ("tool", "arguments", "accepted"),
    [
        ("list_models", {}, True),
        ("list_models", {"min_iq": 70, "limit": 1000}, True),
        ("list_models", {"min_iq": 69}, False),  # below the declared minimum
        ("list_models", {"limit": 1001}, False),  # above the declared maximum
        ("list_models", {"sort": "iq"}, True),
        ("list_models", {"sort": "price"}, False),  # not a declared choice
        ("list_models", {"min_iq": True}, False),  # a bool is not an integer
        ("list_models", {"colour": "red"}, False),  # not a declared argument
        ("get_model", {}, False),  # the required id is missing
        ("get_model", {"id": None}, False),
        ("get_model", {"id": "alpha-1"}, True),
        ("compare_models", {"ids": ["a"]}, False),  # fewer than 2
        ("compare_models", {"ids": ["a"] * 21}, False),  # more than 20
        ("compare_models", {"ids": ["a", "b"]}, True),
        ("list_rankings", {"id": "x"}, False),
    ],
)
def test_the_fast_path_takes_exactly_the_declared_arguments(
    tool: str, arguments: dict[str, object], accepted: bool
) -> None:
    assert (call_arguments(TOOLS_BY_NAME[tool], arguments) is not None) is accepted


def test_the_fast_path_fills_absent_optional_arguments_with_null() -> None:
    assert call_arguments(TOOLS_BY_NAME["list_models"], {"limit": 3}) == {
        "provider": None,
        "open_source": None,
        "min_iq": None,
        "sort": None,
        "limit": 3,
        "fields": None,
        "cursor": None,
    }
