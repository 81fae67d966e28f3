"""The connector over HTTP on the shipped data, with the official SDK client: every tool's
first text block is its structured content as JSON, compare_models answers compared/missing,
and the resources are the published files byte for byte."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from mcp import Client
from mcp.types import ResourceLink, TextContent, TextResourceContents
from support.mcp_live import Live, serve

from generator.api.urls import api_file
from mcp_server.app import create_app
from mcp_server.resources import URI_ROOT

pytestmark = [pytest.mark.anyio, pytest.mark.slow]


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
def live(shipped_site: Path) -> Iterator[Live]:
    with serve(create_app(shipped_site)) as running:
        yield running


@pytest.fixture
async def client(live: Live) -> AsyncIterator[Client]:
    async with Client(live.mcp_url, mode="legacy") as connected:
        yield connected


def _file(site: Path, rel: str) -> bytes:
    return (site / "api/v1" / rel).read_bytes()


def _calls(site: Path) -> list[tuple[str, dict[str, Any]]]:
    """Every tool, each detail tool on every published id."""
    api = site / "api/v1"
    calls: list[tuple[str, dict[str, Any]]] = [
        (name, {}) for name in ("list_models", "list_rankings", "list_benchmarks", "list_domains")
    ]
    calls += [("get_methodology", {}), ("list_models", {"sort": "cost", "limit": 5})]
    calls += [("get_model", {"id": p.name}) for p in sorted((api / "models").iterdir())]
    calls += [("get_ranking", {"id": p.name}) for p in sorted((api / "rankings").iterdir())]
    calls += [("get_domain", {"slug": p.name}) for p in sorted((api / "domains").iterdir())]
    calls.append(("compare_models", {"ids": ["GPT-5.5", "Claude Opus 4.8", "gpt-9"]}))
    return calls


async def test_every_tools_first_text_block_is_its_structured_content(
    client: Client, shipped_site: Path
) -> None:
    calls = _calls(shipped_site)
    assert len(calls) > 100
    for name, arguments in calls:
        result = await client.call_tool(name, arguments)
        assert not result.is_error, (name, arguments)
        first, summary, *links = result.content
        assert isinstance(first, TextContent) and isinstance(summary, TextContent)
        assert json.loads(first.text) == result.structured_content, (name, arguments)
        assert summary.text.strip()
        assert links and all(isinstance(link, ResourceLink) for link in links), name


async def test_every_resource_link_in_a_result_resolves_to_its_file(
    client: Client, shipped_site: Path
) -> None:
    """Each tool's resource links (the documents and CSV downloads the answer summarises)
    read back with resources/read as the published files, byte for byte."""
    seen: dict[str, str] = {}
    for name, arguments in _calls(shipped_site):
        result = await client.call_tool(name, arguments)
        for link in result.content[2:]:
            assert isinstance(link, ResourceLink), (name, link)
            seen[str(link.uri)] = str(link.mime_type)
    downloads = [uri for uri in seen if uri.startswith("modelscores://downloads/")]
    assert "modelscores://downloads/models.csv" in downloads
    assert any("/rankings/" in uri for uri in downloads)
    assert any("/domains/" in uri for uri in downloads)
    assert any("/model-history/" in uri for uri in downloads)
    for uri, mime_type in seen.items():
        (content,) = (await client.read_resource(uri)).contents
        assert isinstance(content, TextResourceContents), uri
        assert content.mime_type == mime_type, uri
        if uri.startswith(URI_ROOT):
            expected = (shipped_site / api_file(uri.removeprefix(URI_ROOT))).read_bytes()
        else:
            expected = (shipped_site / uri.removeprefix("modelscores://")).read_bytes()
        assert content.text.encode() == expected, uri


async def test_compare_models_known_unknown_and_all_unknown(
    client: Client, shipped_site: Path
) -> None:
    result = await client.call_tool("compare_models", {"ids": ["GPT-5.5", "gpt-9", "o3"]})
    data = result.structured_content
    assert data is not None
    details = [json.loads(_file(shipped_site, f"models/{m}")) for m in ("gpt-5.5", "o3")]
    assert data["compared"] == details and data["missing"] == ["gpt-9"]
    assert "gpt-9" in data["suggestions"]
    nothing = await client.call_tool("compare_models", {"ids": ["gpt-9", "nope"]})
    assert not nothing.is_error and nothing.structured_content is not None
    assert nothing.structured_content["compared"] == []
    assert nothing.structured_content["missing"] == ["gpt-9", "nope"]
    too_few = await client.call_tool("compare_models", {"ids": ["gpt-5.5"]})
    assert too_few.is_error


async def test_resources_list_and_read_the_published_files(
    client: Client, shipped_site: Path
) -> None:
    fixed = {str(r.uri): r for r in (await client.list_resources()).resources}
    files = {
        "/models": "models.json",
        "/benchmarks": "benchmarks",
        "/rankings": "rankings.json",
        "/domains": "domains.json",
        "/methodology": "methodology",
    }
    csv = "modelscores://downloads/models.csv"
    assert set(fixed) == {URI_ROOT + path for path in files} | {csv}
    assert {r.mime_type for u, r in fixed.items() if u != csv} == {"application/json"}
    assert fixed[csv].mime_type == "text/csv; charset=utf-8; header=present"
    templates = (await client.list_resource_templates()).resource_templates
    assert {t.uri_template for t in templates} == {
        f"{URI_ROOT}/models/{{id}}",
        f"{URI_ROOT}/rankings/{{id}}",
        f"{URI_ROOT}/domains/{{slug}}",
        "modelscores://downloads/model-history/{id}.csv",
        "modelscores://downloads/rankings/{id}.csv",
        "modelscores://downloads/domains/{slug}.csv",
    }
    reads = {URI_ROOT + path: rel for path, rel in files.items()}
    reads |= {
        f"{URI_ROOT}/models/gpt-5.5": "models/gpt-5.5",
        f"{URI_ROOT}/models/gpt-5.5-2026-04-23": "models/gpt-5.5",  # an alias
        f"{URI_ROOT}/rankings/composite-iq": "rankings/composite-iq",
        f"{URI_ROOT}/domains/finance": "domains/finance",
    }
    for uri, rel in reads.items():
        (content,) = (await client.read_resource(uri)).contents
        assert isinstance(content, TextResourceContents), uri
        assert content.mime_type == "application/json", uri
        assert content.text.encode() == _file(shipped_site, rel), uri


async def test_unknown_resource_is_an_error(client: Client) -> None:
    with pytest.raises(Exception, match="Unknown id 'gpt-9'"):
        await client.read_resource(f"{URI_ROOT}/models/gpt-9")


async def test_instructions_say_what_the_tools_are_for_and_how_ids_work(client: Client) -> None:
    instructions = client.instructions or ""
    for needle in ("list_models", "compare_models", "alias", "any case", "resources"):
        assert needle in instructions
    assert len(instructions.splitlines()) <= 8
