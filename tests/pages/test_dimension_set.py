"""The dimension set is declared once (`generator/vocabulary.py`, `DIMENSIONS`).

A copy of the code with one dimension's label renamed in that declaration builds the shipped
data: the new label is on every page type that names the dimensions, in the MCP server's
tool descriptions and instructions (listed by the real SDK client) and in `explain`; the old
label is nowhere. And the count is spelled out ("seven", "of 7") in at most three files.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

from support.paths import REPO, SHIPPED_DATA

from generator.vocabulary import DIMENSIONS

OLD, NEW = "Mathematical reasoning", "Quantitative thinking"
DECLARED = (
    'Dimension("mathematical-reasoning", "Mathematical reasoning", "Math", ("math", "maths"))'
)

# Run in the renamed copy: build the shipped data, list the MCP tools through the SDK's
# own client, explain one model. Prints what it found as JSON.
_PROBE = """
import json, sys
from pathlib import Path
import anyio
from click.testing import CliRunner
from mcp import Client
from generator.api.urls import SiteConfig
from generator.build import build_site
from generator.cli import cli
from mcp_server.server import create_server
from mcp_server.site import SnapshotStore

data, out = Path(sys.argv[1]), Path(sys.argv[2])
build_site(data, out, SiteConfig())

async def listed():
    async with Client(create_server(SnapshotStore(out, check_interval=0))) as client:
        tools = (await client.list_tools()).tools
        return {t.name: t.description for t in tools}, client.instructions

tools, instructions = anyio.run(listed)
explain = CliRunner().invoke(cli, ["explain", "--data-dir", str(data), "gpt-5"])
print(json.dumps({"tools": tools, "instructions": instructions, "explain": explain.output}))
"""

# Every page type that names the dimensions, by a page of it (the renamed dimension's own
# ranking and one of its benchmarks' pages among them).
PAGES = (
    "index.html",  # the leaderboard's column titles
    "models/gpt-5/index.html",  # the dimension table
    "rankings/index.html",  # the catalog
    "rankings/mathematical-reasoning-iq/index.html",
    "benchmarks/index.html",  # grouped by dimension
    "methodology/index.html",
    "compare/index.html",  # the script's row labels
    "charts/dimension-profiles/index.html",  # the data table's columns
)


def _renamed_copy(root: Path) -> Path:
    for package in ("generator", "mcp_server"):
        shutil.copytree(
            REPO / package, root / package, ignore=shutil.ignore_patterns("__pycache__")
        )
    vocabulary = root / "generator" / "vocabulary.py"
    text = vocabulary.read_text(encoding="utf-8")
    assert text.count(DECLARED) == 1
    vocabulary.write_text(text.replace(DECLARED, DECLARED.replace(OLD, NEW)), encoding="utf-8")
    return root


def test_a_renamed_label_reaches_pages_mcp_and_explain(tmp_path: Path) -> None:
    code = _renamed_copy(tmp_path / "code")
    out = tmp_path / "site_out"
    run = subprocess.run(
        [sys.executable, "-c", _PROBE, str(SHIPPED_DATA), str(out)],
        cwd=code,  # the copy comes first on sys.path
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    found = json.loads(run.stdout.splitlines()[-1])
    for page in PAGES:
        html = (out / page).read_text(encoding="utf-8")
        assert NEW in html, page
    for path in out.rglob("*"):
        if path.suffix in (".html", ".json", ".txt", ".csv", ".md", ".xml"):
            assert OLD not in path.read_text(encoding="utf-8"), path
    described = [name for name, text in found["tools"].items() if NEW in text]
    assert described == ["list_rankings", "get_ranking", "list_benchmarks"]
    assert NEW in found["instructions"]
    assert OLD not in json.dumps(found)
    assert f"{NEW} (mathematical-reasoning): " in found["explain"]


def test_a_short_label_is_its_name_cut_short() -> None:
    """One name per dimension: a narrow heading shows the name cut short ("Math"), never
    another word for it (the leaderboard once headed Programmatic reasoning "Coding",
    which is also a domain's name)."""
    for d in DIMENSIONS:
        assert d.name.startswith(d.short), d


# What spells the dimension count out: the word, and the count as a total or a denominator
# ("of 7", "/ 7", "1..7"; not "of 7 to 40").
COUNT = re.compile(r"\bseven(th)?\b|\bof 7\b(?! to)|/ ?7\b|\.\.7\b", re.IGNORECASE)


def test_the_count_is_spelled_out_in_at_most_three_files() -> None:
    """Code and templates (the product: generator/, mcp_server/); derived wording reads
    `vocabulary.DIMENSION_COUNT` or `DIMENSION_COUNT_WORD` instead."""
    files = [
        path
        for package in ("generator", "mcp_server")
        for path in (REPO / package).rglob("*")
        if path.suffix in (".py", ".html", ".js", ".css") and "__pycache__" not in path.parts
    ]
    assert len(files) > 100
    spelled = sorted(
        str(path.relative_to(REPO))
        for path in files
        if COUNT.search(path.read_text(encoding="utf-8"))
    )
    assert len(spelled) <= 3, spelled
