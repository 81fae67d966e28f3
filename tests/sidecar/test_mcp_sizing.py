"""Size controls: `fields` picks members, `limit` and `cursor` page lists, over the SDK client."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from mcp import Client
from support.documents import PAGE_MODELS, write_site

from mcp_server.server import create_server
from mcp_server.site import SnapshotStore
from mcp_server.sizing import decode_cursor, encode_cursor

pytestmark = pytest.mark.anyio
ENVELOPE = {"apiVersion", "methodologyVersion", "updatedAt"}


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
def site_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_site(tmp_path_factory.mktemp("sizing") / "site_out", models=PAGE_MODELS)


@pytest.fixture
async def client(site_dir: Path) -> AsyncIterator[Client]:
    async with Client(create_server(SnapshotStore(site_dir, check_interval=0))) as connected:
        yield connected


async def answer(client: Client, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """The structured content of a successful call, checked against the tool's output schema
    (the SDK client validates it too) and equal to the first text block."""
    result = await client.call_tool(tool, arguments)
    assert not result.is_error, result.content
    data = result.structured_content
    assert data is not None and json.loads(result.content[0].text) == data  # type: ignore[union-attr]
    schemas = {t.name: t.output_schema for t in (await client.list_tools()).tools}
    jsonschema.validate(data, schemas[tool])
    return data


def file_json(site_dir: Path, rel: str) -> Any:
    return json.loads((site_dir / "api/v1" / rel).read_bytes())


async def test_pages_of_models_cover_the_list_once_in_order(client: Client, site_dir: Path) -> None:
    expected = [row["id"] for row in file_json(site_dir, "models.json")["models"]]
    assert len(expected) == 8
    seen: list[str] = []
    cursor: str | None = None
    pages = 0
    while True:
        arguments: dict[str, Any] = {"limit": 3, "fields": ["name"]}
        if cursor is not None:
            arguments["cursor"] = cursor
        data = await answer(client, "list_models", arguments)
        assert all(set(row) == {"id", "name"} for row in data["models"])
        seen += [row["id"] for row in data["models"]]
        pages += 1
        cursor = data["nextCursor"]
        if cursor is None:
            break
    assert (seen, pages) == (expected, 3)  # 3 + 3 + 2 rows


async def test_a_sort_and_a_filter_hold_across_pages(client: Client) -> None:
    first = await answer(
        client, "list_models", {"sort": "iq", "limit": 2, "cursor": encode_cursor(0)}
    )
    second = await answer(
        client, "list_models", {"sort": "iq", "limit": 2, "cursor": first["nextCursor"]}
    )
    whole = await answer(client, "list_models", {"sort": "iq"})
    assert [r["id"] for r in first["models"] + second["models"]] == [
        r["id"] for r in whole["models"][:4]
    ]
    assert "nextCursor" not in whole  # no size control: the connector's answer


async def test_fields_keep_the_envelope_and_id(client: Client, site_dir: Path) -> None:
    full = file_json(site_dir, "models/alpha-1")
    data = await answer(client, "get_model", {"id": "alpha-1", "fields": ["iq", "dimensions"]})
    assert data == {key: full[key] for key in (*ENVELOPE, "id", "iq", "dimensions") if key in full}
    assert list(data) == [key for key in full if key in data]  # the document's own order


async def test_a_ranking_and_a_domain_page_their_rows(client: Client, site_dir: Path) -> None:
    ranking = file_json(site_dir, "rankings/composite-iq")
    top = await answer(client, "get_ranking", {"id": "composite-iq", "limit": 2})
    assert top["models"] == ranking["models"][:2]
    assert decode_cursor(top["nextCursor"]) == 2
    domain = file_json(site_dir, "domains/finance")
    lean = await answer(client, "get_domain", {"slug": "finance", "fields": ["models"], "limit": 1})
    assert set(lean) == {*ENVELOPE, "id", "models", "nextCursor"}
    assert lean["models"] == domain["models"][:1]


async def test_compare_picks_members_of_each_model(client: Client) -> None:
    data = await answer(client, "compare_models", {"ids": ["alpha-1", "beta-2"], "fields": ["iq"]})
    assert [set(model) for model in data["compared"]] == [{"id", "iq"}] * 2
    assert data["best"]["iq"] == ["alpha-1"]  # the extras are computed on the whole models


async def test_list_answers_page_too(client: Client, site_dir: Path) -> None:
    rankings = file_json(site_dir, "rankings.json")["rankings"]
    data = await answer(client, "list_rankings", {"fields": ["rankingName"], "limit": 1000})
    assert [r["id"] for r in data["rankings"]] == [r["id"] for r in rankings]
    assert data["nextCursor"] is None
    benchmarks = await answer(client, "list_benchmarks", {"limit": 1})
    assert len(benchmarks["benchmarks"]) == 1 and benchmarks["nextCursor"] is not None


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"cursor": "bogus"}, "Argument 'cursor' is not a nextCursor this server gave."),
        ({"cursor": encode_cursor(0) + "="}, "Argument 'cursor' is not a nextCursor this "
         "server gave."),
        ({"cursor": encode_cursor(9)}, "Argument 'cursor' is past the end of this list."),
        ({"fields": ["colour"]}, "Argument 'fields' names 'colour', not one of the members its "
         "schema lists."),
        ({"fields": []}, "Argument 'fields' must be a list of 1 to 29 member names."),
        ({"fields": "name"}, "Argument 'fields' must be a list of 1 to 29 member names."),
    ],
)  # fmt: skip
async def test_bad_size_controls_are_one_sentence(
    client: Client, arguments: dict[str, Any], message: str
) -> None:
    result = await client.call_tool("list_models", arguments)
    assert result.is_error
    assert result.content[0].text == f"Error executing tool list_models: {message}"  # type: ignore[union-attr]


def test_cursors_round_trip_and_refuse_lookalikes() -> None:
    for offset in (0, 1, 19, 123456):
        assert decode_cursor(encode_cursor(offset)) == offset
    for bad in ("", "o1", "bzAx", encode_cursor(1).upper(), "b-1", "\u00e9"):
        with pytest.raises(ValueError, match="cursor"):
            decode_cursor(bad)


async def test_fields_and_include_history_combine(client: Client, site_dir: Path) -> None:
    # include_history adds `history`; fields picks members: both hold together
    data = await answer(
        client, "get_model", {"id": "beta-2", "include_history": True, "fields": ["name", "iq"]}
    )
    history = file_json(site_dir, "model-history/beta-2")["snapshots"]
    assert history and data["history"] == history
    assert {"name", "iq", "history", "id"} <= set(data) and "dimensions" not in data
    without = await answer(client, "get_model", {"id": "beta-2", "fields": ["name"]})
    assert "history" not in without


async def test_a_trimmed_answers_text_carries_the_values_it_kept(client: Client) -> None:
    result = await client.call_tool("get_model", {"id": "alpha-1", "fields": ["name", "iq"]})
    data = result.structured_content
    assert data is not None
    summary = result.content[1].text  # type: ignore[union-attr]
    first, values = summary.splitlines()
    assert first == "Get model (members: name, iq)."
    assert json.loads(values) == {"id": "alpha-1", "name": data["name"], "iq": data["iq"]}
    rows = await client.call_tool("list_models", {"fields": ["name"], "limit": 3})
    lines = rows.content[1].text.splitlines()  # type: ignore[union-attr]
    structured = rows.structured_content
    assert structured is not None
    assert [json.loads(line) for line in lines[1:]] == structured["models"]
