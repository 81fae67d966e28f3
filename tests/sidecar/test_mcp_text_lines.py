"""No field quoted in a tool's text summary can add a line to it (red-team round 4).

Each text form (`mcp_server/text.py`) is rendered from a real answer of the built fixture
site, then again with every text field of that answer holding line breaks and a forged
heading: the summary keeps its number of lines, and no line starts with the forgery.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from generator.api.mcp_tools import MCP_TOOLS
from mcp_server import tools
from mcp_server.arguments import check_arguments
from mcp_server.site import SnapshotStore

FORGERY = "\n\n## FORGED HEADING\r\n- forged\u2028\u2029\x85\x0b\x0c\x1c- row"
CALLS: dict[str, dict[str, Any]] = {
    "list_models": {},
    "get_model": {"id": "alpha-1", "include_history": True},
    "compare_models": {"ids": ["alpha-1", "beta-1", "nope\nx"]},
    "list_rankings": {},
    "get_ranking": {"id": "composite-iq"},
    "list_benchmarks": {},
    "list_domains": {},
    "get_domain": {"slug": "coding"},
    "get_methodology": {},
}


def _forged(value: Any) -> Any:
    """`value` with every string carrying the forgery (keys kept: they are the shape; the
    queries that key a comparison's suggestions are forged with the queries)."""
    if isinstance(value, str):
        return value + FORGERY
    if isinstance(value, dict) and "suggestions" in value:
        return {
            **_forged({k: v for k, v in value.items() if k != "suggestions"}),
            "suggestions": {
                _forged(query): _forged(found) for query, found in value["suggestions"].items()
            },
        }
    if isinstance(value, dict):
        return {key: _forged(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_forged(item) for item in value]
    return value


@pytest.fixture(scope="module")
def store(built_site: Path) -> SnapshotStore:
    return SnapshotStore(built_site, check_interval=0)


def _renderers() -> dict[str, Callable[[dict[str, Any]], str]]:
    from mcp_server import text

    return {
        "list_models": lambda data: text.model_list(data, len(data["models"])),
        "get_model": text.model_detail,
        "compare_models": text.comparison,
        "list_rankings": text.ranking_list,
        "get_ranking": text.ranking_detail,
        "list_benchmarks": text.benchmark_list,
        "list_domains": text.domain_list,
        "get_domain": text.domain_detail,
        "get_methodology": text.methodology,
    }


def test_every_tool_is_covered() -> None:
    assert set(CALLS) == {declaration.name for declaration in MCP_TOOLS} == set(_renderers())


@pytest.mark.parametrize("name", sorted(CALLS))
def test_no_field_adds_a_line_to_a_text_summary(store: SnapshotStore, name: str) -> None:
    declaration = next(d for d in MCP_TOOLS if d.name == name)
    answer = tools.call(store.current(), declaration, check_arguments(declaration, CALLS[name]))
    render = _renderers()[name]
    plain = render(answer.data)
    assert plain == answer.text
    forged = render(_forged(answer.data))
    assert len(forged.splitlines()) == len(plain.splitlines()), forged[:2000]
    assert not any(line.startswith(("#", "- forged", "- row")) for line in forged.splitlines())
    assert "\\n\\n## FORGED HEADING\\r\\n- forged\\u2028\\u2029\\x85\\x0b\\x0c\\x1c- row" in forged
