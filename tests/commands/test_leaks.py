"""No leaks: private fields and unpublished models never reach a published byte.

Two datasets are derived from the valid fixture (`tests/bad_data/canary.py`): the canary
dataset, with a unique canary string in every private field and every text field of every
unpublished model (plus unpublished models built to tempt a leak), and its public twin, with
all of that removed. The proofs:

1. both build to byte-identical sites, so private material changes no count, rank, score,
   cost source, date, URL or page;
2. no byte of the canary site (file contents, file names, decompressed PNG metadata) holds
   a canary or an unpublished id;
3. no MCP answer over the canary site does, for every tool and every published id.
"""

from __future__ import annotations

import json
import struct
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from bad_data.canary import MARK, Canaries, derive_canary, derive_public
from support.paths import FIXTURE_DATA
from support.sitetree import build_in_process, manifest_diff, tree_manifest

from mcp_server.app import MCP_PATH, create_app

HEADERS = {"content-type": "application/json", "accept": "application/json, text/event-stream"}
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


class Leak:
    """The two builds of one canary derivation."""

    def __init__(self, root: Path) -> None:
        self.canaries: Canaries = derive_canary(FIXTURE_DATA, root / "canary-data")
        self.removed = derive_public(FIXTURE_DATA, root / "public-data")
        self.canary_site = build_in_process(root / "canary-data", root / "canary" / "site_out")
        self.public_site = build_in_process(root / "public-data", root / "public" / "site_out")

    def needles(self) -> list[bytes]:
        """What must never appear: the canary mark and every unpublished id."""
        return [MARK.encode(), *(i.encode() for i in self.canaries.unpublished_ids)]


@pytest.fixture(scope="module")
def leak(tmp_path_factory: pytest.TempPathFactory) -> Leak:
    return Leak(tmp_path_factory.mktemp("leaks"))


def hits(blob: bytes, needles: list[bytes]) -> list[str]:
    lowered = blob.lower()
    return [needle.decode() for needle in needles if needle.lower() in lowered]


def png_metadata(data: bytes) -> Iterator[bytes]:
    """The text of every metadata chunk of a PNG (tEXt, zTXt, iTXt, eXIf), decompressed."""
    assert data.startswith(PNG_SIGNATURE)
    offset = len(PNG_SIGNATURE)
    while offset < len(data):
        (length,) = struct.unpack(">I", data[offset : offset + 4])
        kind = data[offset + 4 : offset + 8]
        body = data[offset + 8 : offset + 8 + length]
        offset += 12 + length
        if kind in (b"tEXt", b"eXIf"):
            yield body
        elif kind == b"zTXt":
            keyword, _, rest = body.partition(b"\0")
            yield keyword + zlib.decompress(rest[1:])
        elif kind == b"iTXt":
            keyword, _, rest = body.partition(b"\0")
            compressed, rest = rest[0], rest[2:]
            language, _, rest = rest.partition(b"\0")
            translated, _, text = rest.partition(b"\0")
            yield keyword + language + translated + (zlib.decompress(text) if compressed else text)


def scan_tree(site: Path, needles: list[bytes]) -> dict[str, list[str]]:
    """Every file (name and bytes, PNG metadata decompressed) holding a needle."""
    found: dict[str, list[str]] = {}
    for path in sorted(site.rglob("*")):
        rel = path.relative_to(site).as_posix()
        blobs = [rel.encode()]
        if path.is_file():
            data = path.read_bytes()
            blobs.append(data)
            if data.startswith(PNG_SIGNATURE):
                blobs.extend(png_metadata(data))
        matched = sorted({hit for blob in blobs for hit in hits(blob, needles)})
        if matched:
            found[rel] = matched
    return found


# --- the derivation itself ----------------------------------------------------------


def test_canaries_are_planted_in_every_private_field_and_unpublished_model(leak: Leak) -> None:
    data = leak.canary_site.parents[1] / "canary-data"
    files = sorted(data.rglob("*.toml"))
    assert files
    for path in files:
        text = path.read_text(encoding="utf-8")
        assert "[private]" in text and "[private.config]" in text, path
    assert len(leak.canaries.unpublished_ids) >= 3
    assert set(leak.removed) < set(leak.canaries.unpublished_ids)
    assert len(leak.canaries.strings) > 40
    assert not hits(b"".join(p.read_bytes() for p in FIXTURE_DATA.rglob("*.toml")), [MARK.encode()])


def test_png_metadata_reader_finds_text_chunks() -> None:
    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + b"\0\0\0\0"

    png = (
        PNG_SIGNATURE
        + chunk(b"tEXt", b"Comment\0plain")
        + chunk(b"zTXt", b"Title\0\0" + zlib.compress(b"CANARY-z"))
        + chunk(b"iTXt", b"Author\0\1\0en\0\0" + zlib.compress(b"canary-i"))
        + chunk(b"IEND", b"")
    )
    assert b"".join(png_metadata(png)).lower().count(b"canary") == 2


# --- the proofs ---------------------------------------------------------------------


def test_private_material_changes_no_published_byte(leak: Leak) -> None:
    canary, public = tree_manifest(leak.canary_site), tree_manifest(leak.public_site)
    assert canary == public, manifest_diff(public, canary)


def test_no_canary_or_unpublished_id_in_any_file(leak: Leak) -> None:
    files = [p for p in leak.canary_site.rglob("*") if p.is_file()]
    kinds = {p.suffix for p in files}
    assert {".json", ".html", ".png"} <= kinds
    assert {"_headers", "_redirects"} <= {p.name for p in files}
    assert scan_tree(leak.canary_site, leak.needles()) == {}


def test_the_fixture_site_leaks_none_of_its_own_private_values(built_site: Path) -> None:
    """tests/data marks its private values `PRIVATE-` and has one unpublished model."""
    assert scan_tree(built_site, [b"PRIVATE-", b"delta-preview"]) == {}


def test_counts_and_ranks_have_no_gaps(leak: Leak) -> None:
    api = leak.canary_site / "api" / "v1"
    models = json.loads((api / "models.json").read_bytes())["models"]
    published = [
        p
        for p in (FIXTURE_DATA / "models").glob("*.toml")
        if "published = false" not in p.read_text()
    ]
    assert len(models) == len(published)
    ranked = sorted(m["rank"] for m in models if m["rank"] is not None)
    assert ranked == list(range(1, len(ranked) + 1))
    for path in sorted((api / "rankings").iterdir()):
        ranking = json.loads(path.read_bytes())
        rows = ranking["models"]
        assert ranking["modelCount"] == len(rows), path.name
        assert sorted(r["rank"] for r in rows) == list(range(1, len(rows) + 1)), path.name
    sources = {m["cost"]["usageMultiplierSource"] for m in models}
    assert sources <= {"measured", "lineage-imputed", "peer-imputed", None}
    assert all(m["cost"]["usageMultiplier"] != 9.875 for m in models)


# --- the MCP sidecar over the canary site ---------------------------------------------


async def _mcp_answers(site: Path, calls: list[tuple[str, dict[str, Any]]]) -> list[str]:
    app = create_app(site)
    answers: list[str] = []
    async with app.router.lifespan_context(app):
        transport = httpx2.ASGITransport(app=app)
        async with httpx2.AsyncClient(transport=transport, base_url="http://127.0.0.1") as http:
            for number, (method, params) in enumerate(calls):
                message = {"jsonrpc": "2.0", "id": number, "method": method, "params": params}
                response = await http.post(MCP_PATH, json=message, headers=HEADERS)
                assert response.status_code == 200, response.text
                head = "".join(f"{name}: {value}\n" for name, value in response.headers.items())
                answers.append(head + response.text)
    return answers


def _tool(name: str, **arguments: Any) -> tuple[str, dict[str, Any]]:
    return ("tools/call", {"name": name, "arguments": arguments})


def _published_calls(site: Path) -> list[tuple[str, dict[str, Any]]]:
    api = site / "api" / "v1"
    model_rows = json.loads((api / "models.json").read_bytes())["models"]
    ids = [row["id"] for row in model_rows]
    init = {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "leak-scan", "version": "1"},
    }
    calls: list[tuple[str, dict[str, Any]]] = [("initialize", init), ("tools/list", {})]
    calls += [_tool(name) for name in ("list_models", "list_rankings", "list_benchmarks")]
    calls += [_tool(name) for name in ("list_domains", "get_methodology")]
    for sort in ("rank", "iq", "name", "cost", "release_date", "context_window", "speed"):
        calls.append(_tool("list_models", sort=sort, limit=1000))
    calls += [_tool("list_models", open_source=flag) for flag in (True, False)]
    calls += [_tool("get_model", id=row[key]) for row in model_rows for key in ("id", "name")]
    calls += [_tool("get_ranking", id=p.name) for p in sorted((api / "rankings").iterdir())]
    calls += [_tool("get_domain", slug=p.name) for p in sorted((api / "domains").iterdir())]
    calls += [_tool("compare_models", ids=ids[i : i + 20]) for i in range(0, len(ids), 20)]
    return calls


def test_no_mcp_answer_holds_a_canary_or_unpublished_id(leak: Leak) -> None:
    calls = _published_calls(leak.canary_site)
    answers = anyio.run(_mcp_answers, leak.canary_site, calls)
    assert len(answers) == len(calls) > 20
    leaked = {n: hits(a.encode(), leak.needles()) for n, a in enumerate(answers)}
    assert {n: found for n, found in leaked.items() if found} == {}


def _escaped_forms(query: str) -> list[str]:
    """`query` as it may appear in an answer: plain, quoted, and JSON-escaped once (in the
    structured content) or twice (in the JSON text block), longest first."""
    forms = {query, repr(query)}
    for _ in range(2):
        forms |= {json.dumps(f, ensure_ascii=ascii)[1:-1] for f in forms for ascii in (True, False)}
    return sorted(forms, key=len, reverse=True)


def test_asking_for_an_unpublished_model_reveals_nothing(leak: Leak) -> None:
    """An unpublished id or a planted name is just unknown; the answer holds nothing more."""
    queries = [*leak.canaries.unpublished_ids, *leak.canaries.strings[:10]]
    calls = [_tool("get_model", id=query) for query in queries]
    calls += [_tool("compare_models", ids=[query, "alpha-1"]) for query in queries]
    answers = anyio.run(_mcp_answers, leak.canary_site, calls)
    for (_, params), answer in zip(calls, answers, strict=True):
        arguments = params["arguments"]
        query = arguments.get("id") or arguments["ids"][0]
        payload = json.loads(answer[answer.index("\n{") + 1 :])
        result = payload["result"]
        if "id" in arguments:
            assert result["isError"] is True
        else:
            assert result["structuredContent"]["missing"] == [query]
        scrubbed = answer
        for form in _escaped_forms(query):
            scrubbed = scrubbed.replace(form, "")
        assert hits(scrubbed.encode(), leak.needles()) == [], answer[:300]
