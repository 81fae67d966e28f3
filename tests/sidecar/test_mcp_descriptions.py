"""An agent that reads only the tool descriptions finds the ranking for the words people use
("coding", "math", "agents"), over the real SDK client."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from mcp import Client
from support.documents import PAGE_MODELS, write_site

from mcp_server.server import create_server
from mcp_server.site import SnapshotStore

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
def site_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_site(tmp_path_factory.mktemp("words") / "site_out", models=PAGE_MODELS)


@pytest.fixture
async def client(site_dir: Path) -> AsyncIterator[Client]:
    async with Client(create_server(SnapshotStore(site_dir, check_interval=0))) as connected:
        yield connected


def ranking_for(word: str, description: str) -> str | None:
    """What a reader of `description` alone would call: the ranking id that the clause naming
    `word` points at (the first `<id>-iq` after the word, within its clause)."""
    for clause in description.split(";"):
        if re.search(rf"\b{re.escape(word)}\b", clause, re.IGNORECASE):
            found = re.search(r"\b([a-z]+(?:-[a-z]+)*-iq)\b", clause)
            return found.group(1) if found else None
    return None


@pytest.mark.parametrize(
    ("word", "ranking"),
    [
        ("coding", "programmatic-reasoning-iq"),
        ("programming", "programmatic-reasoning-iq"),
        ("math", "mathematical-reasoning-iq"),
        ("agents", "computer-use-iq"),
        ("science", "academic-reasoning-iq"),
        ("hallucination", "reliability-iq"),
    ],
)
async def test_everyday_words_lead_to_the_dimension_ranking(
    client: Client, word: str, ranking: str
) -> None:
    tools = {t.name: t.description or "" for t in (await client.list_tools()).tools}
    for tool in ("get_ranking", "list_rankings"):
        assert ranking_for(word, tools[tool]) == ranking, tools[tool]
    # and the id it found is a real ranking
    answer = await client.call_tool("get_ranking", {"id": ranking, "limit": 1})
    assert not answer.is_error, answer.content
