"""The nine MCP tools, in process: schemas, answers equal to the static files, filters, errors."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from mcp import Client
from mcp.server.mcpserver import MCPServer
from mcp.types import CallToolResult, TextContent
from support.documents import MCP_MODELS, write_site

from mcp_server import text
from mcp_server.server import create_server
from mcp_server.site import SnapshotStore
from mcp_server.tools import distinguishability

pytestmark = pytest.mark.anyio

TOOL_NAMES = {
    "list_models",
    "get_model",
    "list_rankings",
    "get_ranking",
    "list_benchmarks",
    "list_domains",
    "get_domain",
    "get_methodology",
    "compare_models",
}


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
def site_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One sample site for the module: every test here only reads it."""
    return write_site(tmp_path_factory.mktemp("tools") / "site_out")


@pytest.fixture(scope="module")
def store(site_dir: Path) -> SnapshotStore:
    """One store, loaded once (each probe finds the same build, so nothing is reloaded)."""
    return SnapshotStore(site_dir, check_interval=0)


@pytest.fixture(scope="module")
def server(store: SnapshotStore) -> MCPServer[Any]:
    return create_server(store)


@pytest.fixture
async def client(server: MCPServer[Any]) -> AsyncIterator[Client]:
    async with Client(server) as connected:
        yield connected


def file_json(site_dir: Path, rel: str) -> Any:
    return json.loads((site_dir / "api/v1" / rel).read_bytes())


async def call(client: Client, name: str, arguments: dict[str, Any] | None = None) -> Any:
    """Call a tool that must succeed; return its structured content."""
    result = await client.call_tool(name, arguments or {})
    assert not result.is_error, result.content
    assert result.structured_content is not None
    assert_envelope(result.structured_content)
    json_text, summary = result_texts(result)
    assert json.loads(json_text) == result.structured_content  # the spec's text fallback
    assert summary.strip()
    return result.structured_content


def result_texts(result: CallToolResult) -> list[str]:
    """The text blocks: first in the content, the resource links (if any) after them."""
    kinds = [block.type for block in result.content]
    assert kinds == sorted(kinds, key=lambda kind: kind != "text"), kinds
    assert set(kinds) <= {"text", "resource_link"}
    return [block.text for block in result.content if isinstance(block, TextContent)]


async def tool_error(client: Client, name: str, arguments: dict[str, Any]) -> str:
    """The one shape of a tool error: isError, one text block, no structured content."""
    result = await client.call_tool(name, arguments)
    assert result.is_error
    assert result.structured_content is None
    (text,) = result_texts(result)
    return text


def assert_envelope(data: dict[str, Any]) -> None:
    assert data["apiVersion"] == "1"
    assert data["methodologyVersion"] == "2026-01-15.A"
    assert data["updatedAt"] == "2026-01-15T12:00:00Z"


# --- listing ----------------------------------------------------------------


async def test_lists_nine_read_only_tools_with_input_and_output_schemas(client: Client) -> None:
    tools = (await client.list_tools()).tools
    assert {tool.name for tool in tools} == TOOL_NAMES
    for tool in tools:
        assert tool.title and tool.description and len(tool.description) > 80
        assert tool.annotations is not None
        assert tool.annotations.read_only_hint is True
        assert tool.annotations.idempotent_hint is True
        assert tool.annotations.open_world_hint is False
        assert tool.input_schema["type"] == "object"
        assert tool.output_schema is not None and tool.output_schema["type"] == "object"
        assert {"apiVersion", "methodologyVersion", "updatedAt"} <= set(
            tool.output_schema["required"]
        )
        jsonschema.Draft202012Validator.check_schema(tool.output_schema)


async def test_input_schemas_name_the_documented_arguments(client: Client) -> None:
    schemas = {tool.name: tool.input_schema for tool in (await client.list_tools()).tools}
    assert schemas["get_model"]["required"] == ["id"]
    assert set(schemas["get_model"]["properties"]) == {"id", "include_history", "fields"}
    assert schemas["get_ranking"]["required"] == ["id"]
    assert schemas["get_domain"]["required"] == ["slug"]
    assert schemas["compare_models"]["properties"]["ids"]["minItems"] == 2
    assert set(schemas["list_models"]["properties"]) == {
        "provider",
        "open_source",
        "min_iq",
        "sort",
        "limit",
        "fields",
        "cursor",
    }
    assert "required" not in schemas["list_models"]
    assert all(schema["additionalProperties"] is False for schema in schemas.values())
    fields = schemas["list_models"]["properties"]["fields"]["anyOf"][0]
    assert fields["items"]["enum"][:3] == ["name", "provider", "country"]


# --- answers equal the static files -------------------------------------------


@pytest.mark.parametrize(
    ("tool", "rel"),
    [
        ("list_models", "models.json"),
        ("list_rankings", "rankings.json"),
        ("list_benchmarks", "benchmarks"),
        ("list_domains", "domains.json"),
        ("get_methodology", "methodology"),
    ],
)
async def test_list_tools_answer_exactly_the_static_file(
    client: Client, site_dir: Path, tool: str, rel: str
) -> None:
    assert await call(client, tool) == file_json(site_dir, rel)


@pytest.mark.parametrize(
    ("tool", "argument", "folder"),
    [
        ("get_model", "id", "models"),
        ("get_ranking", "id", "rankings"),
        ("get_domain", "slug", "domains"),
    ],
)
async def test_detail_tools_answer_exactly_each_static_file(
    client: Client, site_dir: Path, tool: str, argument: str, folder: str
) -> None:
    files = sorted((site_dir / "api/v1" / folder).iterdir())
    assert files
    for path in files:
        answer = await call(client, tool, {argument: path.name})
        assert answer == json.loads(path.read_bytes())


async def test_structured_content_validates_against_the_output_schema(client: Client) -> None:
    schemas = {tool.name: tool.output_schema for tool in (await client.list_tools()).tools}
    calls = {
        "list_models": {},
        "get_model": {"id": "alpha-1", "include_history": True},
        "list_rankings": {},
        "get_ranking": {"id": "composite-iq"},
        "list_benchmarks": {},
        "list_domains": {},
        "get_domain": {"slug": "finance"},
        "get_methodology": {},
        "compare_models": {"ids": ["alpha-1", "beta-2", "nope"]},
    }
    for name, arguments in calls.items():
        answer = await call(client, name, arguments)
        jsonschema.validate(answer, schemas[name], cls=jsonschema.Draft202012Validator)


async def test_get_model_accepts_the_name_in_any_case(client: Client, site_dir: Path) -> None:
    expected = file_json(site_dir, "models/beta-2")
    assert await call(client, "get_model", {"id": "BETA TWO A"}) == expected
    assert await call(client, "get_model", {"id": " Beta-2 "}) == expected


async def test_get_model_adds_the_models_history_only_when_asked(
    client: Client, site_dir: Path
) -> None:
    detail = file_json(site_dir, "models/beta-2")
    history = file_json(site_dir, "model-history/beta-2")["snapshots"]
    assert history  # the sample site: one point per model
    answer = await call(client, "get_model", {"id": "Beta Two A", "include_history": True})
    assert answer == {**detail, "history": history}
    for off in ({"include_history": False}, {"include_history": None}, {}):
        assert await call(client, "get_model", {"id": "beta-2", **off}) == detail
    result = await client.call_tool("get_model", {"id": "beta-2", "include_history": True})
    summary = result_texts(result)[1]
    point = history[0]
    assert f"- {point['date']}: rank {point['rank']}, IQ {point['iq']}" in summary
    assert "History (1 month end, replayed from the data):" in summary
    # A provisional month end says so after its IQ, as a provisional model row does
    assert point["provisional"] is False and "(provisional)" not in summary
    marked = text.model_detail({**answer, "history": [{**point, "provisional": True}]})
    assert f"- {point['date']}: rank {point['rank']}, IQ {point['iq']} (provisional) (95%" in marked


async def test_text_form_is_readable(client: Client) -> None:
    result = await client.call_tool("get_ranking", {"id": "composite-iq"})
    text = result_texts(result)[1]
    assert text.splitlines()[1] == "1. Alpha One A (id alpha-1, Acme): 130, rank band 1-2"
    assert "methodology 2026-01-15.A" in text.splitlines()[-1]


# --- list_models filters --------------------------------------------------------


async def ids(client: Client, **arguments: Any) -> list[str]:
    answer = await call(client, "list_models", arguments)
    return [row["id"] for row in answer["models"]]


async def test_list_models_filters(client: Client) -> None:
    assert await ids(client) == ["alpha-1", "beta-2", "gamma-3"]
    assert await ids(client, provider="acme") == ["alpha-1", "gamma-3"]
    assert await ids(client, provider="Nobody") == []
    assert await ids(client, open_source=True) == ["beta-2", "gamma-3"]
    assert await ids(client, open_source=False) == ["alpha-1"]
    assert await ids(client, min_iq=115) == ["alpha-1", "beta-2"]  # gamma-3 has no IQ
    assert await ids(client, min_iq=116) == ["alpha-1"]
    assert await ids(client, limit=2) == ["alpha-1", "beta-2"]
    assert await ids(client, provider="Acme", open_source=True) == ["gamma-3"]


@pytest.mark.parametrize(
    ("sort", "expected"),
    [
        ("rank", ["alpha-1", "beta-2", "gamma-3"]),  # ranks 1, 2, none
        ("iq", ["alpha-1", "beta-2", "gamma-3"]),  # 130, 115, none last
        ("name", ["alpha-1", "beta-2", "gamma-3"]),  # Alpha, Beta, Gamma
        ("cost", ["beta-2", "alpha-1", "gamma-3"]),  # $1.6, $5, none last
        ("release_date", ["beta-2", "alpha-1", "gamma-3"]),  # 2025-09-15, 2025-06-01, none
        ("context_window", ["gamma-3", "beta-2", "alpha-1"]),  # 384k, 256k, 128k
        ("speed", ["gamma-3", "beta-2", "alpha-1"]),  # 8, 9, 10 s per task
    ],
)
async def test_list_models_sorts(client: Client, sort: str, expected: list[str]) -> None:
    assert await ids(client, sort=sort) == expected


async def test_filtered_rows_are_the_published_rows(client: Client, site_dir: Path) -> None:
    published = {row["id"]: row for row in file_json(site_dir, "models.json")["models"]}
    answer = await call(client, "list_models", {"sort": "cost", "limit": 1})
    assert answer["models"] == [published["beta-2"]]


# --- compare_models ---------------------------------------------------------------


async def test_compare_models_answers_compared_and_missing(client: Client, site_dir: Path) -> None:
    answer = await call(
        client, "compare_models", {"ids": ["Beta Two A", "alpha-1", "gama-3", "beta-2", "zzz"]}
    )
    # the original connector's shape: full details in the order asked (deduped), misses as given
    expected = [file_json(site_dir, "models/beta-2"), file_json(site_dir, "models/alpha-1")]
    assert answer["compared"] == expected
    assert answer["missing"] == ["gama-3", "zzz"]
    assert answer["suggestions"] == {"gama-3": ["gamma-3"], "zzz": []}
    assert answer["best"]["iq"] == ["alpha-1"]  # 130 > 115
    assert answer["best"]["effectivePer1M"] == ["beta-2"]  # $1.6 < $5: lowest wins
    assert answer["best"]["emotionalReasoning"] == ["beta-2"]  # 101 > 100
    # sample bands: alpha-1 #1 (1-2), beta-2 #2 (1-3): they overlap, so no order is established
    assert answer["distinguishability"] == {
        "distinguishable": [],
        "notDistinguishable": [["alpha-1", "beta-2"]],
        "unranked": [],
    }


def test_distinguishability_pairs_by_hand() -> None:
    # a #1 band 1-2, b #2 band 1-3, c #5 band 3-7, d #9 band 8-9, e unranked; asked e, d, c, b, a
    rows = [
        {"id": "e", "rank": None, "rankLow": None},
        {"id": "d", "rank": 9, "rankLow": 8, "rankHigh": 9},
        {"id": "c", "rank": 5, "rankLow": 3, "rankHigh": 7},
        {"id": "b", "rank": 2, "rankLow": 1, "rankHigh": 3},
        {"id": "a", "rank": 1, "rankLow": 1, "rankHigh": 2},
    ]
    # a-b overlap (1 <= 2); a-c: 3 > 2 apart; b-c: 3 <= 3 overlap; d lies below every band
    assert distinguishability(rows) == {
        "distinguishable": [["a", "c"], ["a", "d"], ["b", "d"], ["c", "d"]],
        "notDistinguishable": [["a", "b"], ["b", "c"]],
        "unranked": ["e"],
    }


async def test_compare_models_leaves_out_metrics_no_model_has(client: Client) -> None:
    answer = await call(client, "compare_models", {"ids": ["gamma-3", "gamma-3"]})
    assert [model["id"] for model in answer["compared"]] == ["gamma-3"]
    assert answer["best"] == {"responseTimeSec": ["gamma-3"]}  # its one metric


async def test_compare_models_with_no_known_model_is_an_empty_comparison(client: Client) -> None:
    answer = await call(client, "compare_models", {"ids": ["x-1", "y-2"]})
    assert (answer["compared"], answer["missing"], answer["best"]) == ([], ["x-1", "y-2"], {})


# --- errors -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tool", "arguments", "asked", "suggested"),
    [
        ("get_model", {"id": "alpha-2"}, "'alpha-2'", "alpha-1"),
        ("get_model", {"id": "Alpha Onee A"}, "'Alpha Onee A'", "alpha-1"),
        ("get_ranking", {"id": "composite-IQ"}, "'composite-IQ'", "composite-iq"),
        ("get_ranking", {"id": "effective_cost"}, "'effective_cost'", "effective-cost"),
        ("get_domain", {"slug": "finanse"}, "'finanse'", "finance"),
    ],
)
async def test_unknown_ids_are_tool_errors_with_suggestions(
    client: Client, tool: str, arguments: dict[str, Any], asked: str, suggested: str
) -> None:
    message = await tool_error(client, tool, arguments)
    assert f"Unknown {tool.removeprefix('get_')} {asked}." in message
    assert f"Did you mean: {suggested}" in message


@pytest.mark.parametrize(
    ("tool", "arguments"),
    [
        ("get_model", {"id": "../models.json"}),
        ("get_model", {"id": "alpha-1/../beta-2"}),
        ("get_ranking", {"id": "../rankings.json"}),
        ("get_ranking", {"id": "/etc/passwd"}),
        ("get_domain", {"slug": "../../api/v1/methodology"}),
        ("get_domain", {"slug": ""}),
    ],
)
async def test_arguments_never_become_paths(
    client: Client, tool: str, arguments: dict[str, Any]
) -> None:
    assert "Unknown" in await tool_error(client, tool, arguments)


LONG = "x" * 100_000


@pytest.mark.parametrize(
    ("tool", "arguments", "message"),
    [
        ("compare_models", {"ids": ["alpha-1"]}, "Argument 'ids' must be a list of 2 to 20 "
         "strings of at most 256 characters."),
        ("compare_models", {"ids": [f"m{i}" for i in range(21)]}, "Argument 'ids' must be a "
         "list of 2 to 20 strings of at most 256 characters."),
        ("compare_models", {"ids": ["alpha-1", LONG]}, "Argument 'ids' must be a list of 2 to "
         "20 strings of at most 256 characters."),
        ("list_models", {"sort": "vibes"}, "Argument 'sort' must be one of rank, iq, name, "
         "cost, release_date, context_window, speed."),
        ("list_models", {"min_iq": 500}, "Argument 'min_iq' must be an integer from 70 to 160."),
        ("list_models", {"limit": 0}, "Argument 'limit' must be an integer from 1 to 1000."),
        ("list_models", {"limit": "5"}, "Argument 'limit' must be an integer from 1 to 1000, "
         "not a string."),
        ("list_models", {"limit": 5.0}, "Argument 'limit' must be an integer from 1 to 1000, "
         "not a number."),
        ("list_models", {"open_source": "yes"}, "Argument 'open_source' must be true or false, "
         "not a string."),
        ("list_models", {"open_source": 1}, "Argument 'open_source' must be true or false, "
         "not a number."),
        ("list_models", {"limt": 3}, "Unknown argument 'limt': list_models takes provider, "
         "open_source, min_iq, sort, limit, fields, cursor."),
        ("list_domains", {"id": "x"}, "Unknown argument 'id': list_domains takes no "
         "arguments."),
        ("get_model", {"id": "alpha-1", LONG: 1}, "Unknown argument '" + "x" * 40 + "\u2026': "
         "get_model takes id, include_history, fields."),
        ("get_model", {}, "Argument 'id' is required."),
        ("get_model", {"id": None}, "Argument 'id' is required."),
        ("get_model", {"id": 7}, "Argument 'id' must be a string, not a number."),
        ("get_model", {"id": LONG}, "Argument 'id' must be at most 256 characters (got "
         "100,000)."),
        ("get_model", {"id": "a" * 256}, "Unknown model '" + "a" * 40 + "\u2026'. Call "
         "list_models for every valid id."),
    ],
)  # fmt: skip
async def test_invalid_arguments_are_one_short_sentence(
    client: Client, tool: str, arguments: dict[str, Any], message: str
) -> None:
    """Strict types (no string taken for a number or a boolean), unknown names refused, any
    echoed value cut to 40 characters: each error one sentence naming the argument."""
    text = await tool_error(client, tool, arguments)
    assert text == f"Error executing tool {tool}: {message}"
    assert len(text) < 300 and "http" not in text and "pydantic" not in text


async def test_every_model_is_reachable_by_id_and_name(client: Client) -> None:
    for model_id, name, *_ in MCP_MODELS:
        by_id = await call(client, "get_model", {"id": model_id})
        by_name = await call(client, "get_model", {"id": f"{name} A".upper()})
        assert by_id == by_name and by_id["id"] == model_id


async def test_models_resolve_by_alias_and_list_their_aliases(
    client: Client, site_dir: Path
) -> None:
    expected = file_json(site_dir, "models/alpha-1")
    assert expected["aliases"] == ["alpha-1-classic"]
    assert await call(client, "get_model", {"id": "ALPHA-1-Classic"}) == expected
    answer = await call(client, "compare_models", {"ids": ["alpha-1-classic", "beta-2-classic"]})
    assert [model["id"] for model in answer["compared"]] == ["alpha-1", "beta-2"]
