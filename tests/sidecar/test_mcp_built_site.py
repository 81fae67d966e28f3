"""The MCP tools over a real build of tests/data: answers equal the files, rebuilds mid-call."""

from __future__ import annotations

import json
import re
import shutil
import threading
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from mcp import Client
from support.mcp_live import serve
from support.paths import FIXTURE_DATA

from generator.api.urls import SiteConfig
from generator.build import build_site
from mcp_server.app import create_app
from mcp_server.server import create_server
from mcp_server.site import SnapshotStore

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
def store(built_site: Path) -> SnapshotStore:
    """The build loaded once for the module (the tests only read it)."""
    return SnapshotStore(built_site)


@pytest.fixture
async def client(store: SnapshotStore) -> AsyncIterator[Client]:
    async with Client(create_server(store)) as connected:
        yield connected


def file_json(site: Path, rel: str) -> Any:
    return json.loads((site / "api/v1" / rel).read_bytes())


async def structured(client: Client, name: str, arguments: dict[str, Any]) -> Any:
    result = await client.call_tool(name, arguments)
    assert not result.is_error, result.content
    return result.structured_content


async def test_every_document_is_answered_byte_for_byte(client: Client, built_site: Path) -> None:
    for tool, rel in [
        ("list_models", "models.json"),
        ("list_rankings", "rankings.json"),
        ("list_benchmarks", "benchmarks"),
        ("list_domains", "domains.json"),
        ("get_methodology", "methodology"),
    ]:
        assert await structured(client, tool, {}) == file_json(built_site, rel), tool
    for tool, argument, folder in [
        ("get_model", "id", "models"),
        ("get_ranking", "id", "rankings"),
        ("get_domain", "slug", "domains"),
    ]:
        names = sorted(path.name for path in (built_site / "api/v1" / folder).iterdir())
        assert names, folder
        for name in names:
            answer = await structured(client, tool, {argument: name})
            assert answer == file_json(built_site, f"{folder}/{name}"), (tool, name)


async def test_every_models_history_is_the_history_file(client: Client, built_site: Path) -> None:
    for row in file_json(built_site, "models.json")["models"]:
        answer = await structured(client, "get_model", {"id": row["id"], "include_history": True})
        history = file_json(built_site, f"model-history/{row['id']}")["snapshots"]
        assert answer == {**file_json(built_site, f"models/{row['id']}"), "history": history}
        if row["rank"] is not None:  # the latest point is the current standing
            assert (history[-1]["rank"], history[-1]["iq"]) == (row["rank"], row["iq"])


async def test_every_model_by_name_and_all_compared(client: Client, built_site: Path) -> None:
    rows = file_json(built_site, "models.json")["models"]
    for row in rows:
        answer = await structured(client, "get_model", {"id": row["name"].upper()})
        assert answer["id"] == row["id"]
    comparison = await structured(client, "compare_models", {"ids": [r["id"] for r in rows]})
    details = [file_json(built_site, f"models/{r['id']}") for r in rows]
    assert comparison["compared"] == details and comparison["missing"] == []
    ranked = [r for r in rows if r["iq"] is not None]
    top = max(r["iq"] for r in ranked)
    assert comparison["best"]["iq"] == [r["id"] for r in ranked if r["iq"] == top]


async def test_answers_validate_against_the_output_schemas(
    client: Client, built_site: Path
) -> None:
    schemas = {tool.name: tool.output_schema for tool in (await client.list_tools()).tools}
    model = file_json(built_site, "models.json")["models"][0]["id"]
    calls = {
        "list_models": {"sort": "cost", "min_iq": 70},
        "get_model": {"id": model, "include_history": True},
        "list_rankings": {},
        "get_ranking": {"id": "composite-iq"},
        "list_benchmarks": {},
        "list_domains": {},
        "get_domain": {"slug": file_json(built_site, "domains.json")["domains"][0]["id"]},
        "get_methodology": {},
        "compare_models": {"ids": [model, "no-such-model"]},
    }
    assert set(calls) == set(schemas)
    for name, arguments in calls.items():
        answer = await structured(client, name, arguments)
        jsonschema.validate(answer, schemas[name], cls=jsonschema.Draft202012Validator)


@pytest.mark.slow
async def test_rebuilds_while_a_client_calls_give_wholly_old_or_new_answers(
    tmp_path: Path,
) -> None:
    """Two data sets differing in methodology version, built with different base URLs, are
    built into one site_out in turn by the real build; every answer's envelope must match
    every URL in its content."""
    builds = {}
    for tag in ("a", "b"):
        data = shutil.copytree(FIXTURE_DATA, tmp_path / f"data-{tag}")
        methodology = data / "methodology.toml"
        text = methodology.read_text()
        methodology.write_text(
            text.replace('version = "2026-02-01"', f'version = "2026-02-01.{tag}"')
        )
        builds[tag] = data
    site_dir = tmp_path / "site_out"
    build_site(builds["a"], site_dir, SiteConfig(base_url="http://a.example"))
    stop = threading.Event()

    def rebuild() -> None:
        for tag in "babab":
            build_site(builds[tag], site_dir, SiteConfig(base_url=f"http://{tag}.example"))
        stop.set()

    seen: set[str] = set()
    with serve(create_app(site_dir, check_interval=0)) as live:
        builder = threading.Thread(target=rebuild)
        builder.start()
        try:
            async with Client(live.mcp_url, cache=None) as mcp:
                while not stop.is_set():
                    for name, arguments in (
                        ("list_models", {}),
                        ("get_ranking", {"id": "composite-iq"}),
                        ("compare_models", {"ids": ["alpha-1", "beta-1"]}),
                    ):
                        answer = await structured(mcp, name, arguments)
                        tag = answer["methodologyVersion"].removeprefix("2026-02-01.")
                        hosts = set(re.findall(r"http://([a-z]+)\.example", json.dumps(answer)))
                        assert hosts == {tag}, (name, tag, hosts)
                        seen.add(tag)
        finally:
            stop.set()
            builder.join()
    assert seen == {"a", "b"}
