"""data/README.md's recipes, followed literally on a copy of data/, and their result checked
in the built site.

Each recipe is read from the README: `Create `path`:` and `Append to `path`:` take the code
block that follows; `In `path`, replace the line `a` with `b`` and `... add the line `b` after
the line `a`` edit in place; `Then run:` runs each `./modelscores` line of the block that
follows. So a recipe that stops working, or a README edit that breaks one, fails here.
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from generator.api.urls import api_file
from generator.cli import cli

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "data" / "README.md"
BLOCK = re.compile(r"^```[a-z]*\n(.*?)^```$", re.S | re.M)
REPLACE = re.compile(r"[Ii]n `(data/[^`]+)`, replace the line `([^`]+)` with `([^`]+)`")
ADD_AFTER = re.compile(r"[Ii]n `(data/[^`]+)`, add the line `([^`]+)` after the line `([^`]+)`")
CREATE = re.compile(r"Create `(data/[^`]+)`.*:$")
APPEND = re.compile(r"Append to `(data/[^`]+)`:$")
RENAME = re.compile(r"Rename `(data/[^`]+)` to `(data/[^`]+)`")


def recipes() -> dict[str, str]:
    """Recipe title -> its text, from the `## Recipes` section."""
    text = README.read_text(encoding="utf-8")
    section = text.split("\n## Recipes\n", 1)[1].split("\n## ", 1)[0]
    parts = section.split("\n### ")[1:]
    return {part.split("\n", 1)[0]: part.split("\n", 1)[1] for part in parts}


def _chunks(text: str) -> Iterator[tuple[str, str | None]]:
    """(prose with its lines joined, the code block after it or None), in order."""
    position = 0
    for match in BLOCK.finditer(text):
        yield " ".join(text[position : match.start()].split()), match.group(1)
        position = match.end()
    yield " ".join(text[position:].split()), None


def _replace_once(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    assert lines.count(old) == 1, f"{path}: the line {old!r} occurs {lines.count(old)} times"
    path.write_text("\n".join(new if line == old else line for line in lines), encoding="utf-8")


def _run_commands(block: str) -> None:
    for line in block.strip().splitlines():
        program, *args = shlex.split(line)
        assert program == "./modelscores", line
        result = CliRunner().invoke(cli, args)
        assert result.exit_code == 0, f"{line}\n{result.output}"


def follow(recipe: str, root: Path) -> int:
    """Do what `recipe` says in `root` (which holds `data/`); the number of steps taken."""
    steps = 0
    for prose, block in _chunks(recipe):
        edits = [*RENAME.finditer(prose), *REPLACE.finditer(prose), *ADD_AFTER.finditer(prose)]
        for match in sorted(edits, key=lambda m: m.start()):
            if match.re is RENAME:
                old, new = match.groups()
                assert not (root / new).exists(), new
                (root / old).rename(root / new)
            elif match.re is REPLACE:
                path, old, new = match.groups()
                _replace_once(root / path, old, new)
            else:
                path, new, after = match.groups()
                _replace_once(root / path, after, f"{after}\n{new}")
            steps += 1
        if block is None:
            continue
        if created := CREATE.search(prose):
            (root / created.group(1)).write_text(block, encoding="utf-8")
        elif appended := APPEND.search(prose):
            path = root / appended.group(1)
            path.write_text(path.read_text(encoding="utf-8") + "\n" + block, encoding="utf-8")
        elif prose.endswith("Then run:"):
            _run_commands(block)
        else:
            continue  # an example, not a step
        steps += 1
    return steps


# --- what each recipe must have put in the site ----------------------------------------


def _doc(site: Path, api_path: str) -> dict[str, Any]:
    document: dict[str, Any] = json.loads((site / api_file(api_path)).read_bytes())
    return document


def _added_model(site: Path) -> None:
    model = _doc(site, "/models/example-one")
    assert (model["name"], model["cost"]["inputPer1M"]) == ("Example One", 2.0)
    assert model["benchmarkResults"]["gpqa-diamond"]["value"] == 0.71
    assert "example-one" in [m["id"] for m in _doc(site, "/models")["models"]]
    assert "Example One" in (site / "index.html").read_text(encoding="utf-8")


def _added_result(site: Path) -> None:
    model = _doc(site, "/models/claude-haiku-4.5")
    result = model["benchmarkResults"]["osworld"]
    assert (result["value"], result["sourceUrl"]) == (
        50.7,
        "https://leaderboard.example.org/osworld",
    )
    assert model["dimensions"]["computer-use"]["benchmarksCovered"] >= 1


def _added_benchmark(site: Path) -> None:
    listed = {b["id"]: b for b in _doc(site, "/benchmarks")["benchmarks"]}
    assert listed["example-reasoning"]["dimension"] == "abstract-reasoning"
    assert "example-reasoning" in [r["id"] for r in _doc(site, "/rankings")["rankings"]]


def _added_domain_result(site: Path) -> None:
    writing = _doc(site, "/domains/writing")
    (bench,) = [b for b in writing["benchmarks"] if b["id"] == "creative-writing"]
    rows = {row["model"]: row["score"] for row in bench["results"]}
    assert rows["claude-haiku-4.5"] == 7.9
    assert "claude-haiku-4.5" in [entry["model"] for entry in writing["models"]]


def _renamed(site: Path) -> None:
    model = _doc(site, "/models/openai-gpt-5.5-pro")
    assert "gpt-5.5-pro" in model["aliases"]
    assert not (site / api_file("/models/gpt-5.5-pro")).exists()
    rules = (site / "_redirects").read_text(encoding="utf-8").splitlines()
    assert any(
        rule.split()[:3]
        == ["/api/v1/models/gpt-5.5-pro", "/api/v1/models/openai-gpt-5.5-pro", "200"]
        for rule in rules
    )


def _unpublished(site: Path) -> None:
    leaks = [
        path.relative_to(site).as_posix()
        for path in site.rglob("*")
        if path.is_file()
        and (b"gpt-5.5-pro" in path.read_bytes() or b"GPT-5.5 Pro" in path.read_bytes())
    ]
    assert leaks == []


def _changed_price(site: Path) -> None:
    cost = _doc(site, "/models/claude-opus-4.7")["cost"]
    assert (cost["inputPer1M"], cost["outputPer1M"], cost["ioPer1M"]) == (4.5, 25.0, 29.5)
    provenance = (cost["priceSource"], cost["priceSourceUrl"], cost["priceAsOf"])
    assert provenance == (
        "Anthropic pricing page",
        "https://example.org/anthropic/pricing",
        "2026-11-22",
    )
    rows = (site / "downloads" / "models.csv").read_text(encoding="utf-8").splitlines()
    (row,) = [r for r in rows if r.startswith("claude-opus-4.7,")]
    # the price columns, then provisional and the seven imputed flags (issue 42)
    assert ",Anthropic pricing page,https://example.org/anthropic/pricing,2026-11-22," in row
    page = (site / "models" / "claude-opus-4.7" / "index.html").read_text(encoding="utf-8")
    assert ">Anthropic pricing page</a>, as of 2026-11-22." in page


CHECKS: dict[str, Callable[[Path], None]] = {
    "Add a model": _added_model,
    "Add a benchmark result with its provenance": _added_result,
    "Add a benchmark with its ladder and bounds": _added_benchmark,
    "Add a domain result": _added_domain_result,
    "Rename a model (keep the old id as an alias)": _renamed,
    "Unpublish a model": _unpublished,
    "Change a price with its source and date": _changed_price,
}


def test_every_recipe_has_a_check() -> None:
    assert list(recipes()) == list(CHECKS)


@pytest.mark.slow
@pytest.mark.parametrize("title", list(CHECKS))
def test_recipe_works_as_written(
    title: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shutil.copytree(ROOT / "data", tmp_path / "data")
    monkeypatch.chdir(tmp_path)
    assert follow(recipes()[title], tmp_path) >= 2  # at least one edit and the commands
    CHECKS[title](tmp_path / "site_out")


def test_a_broken_recipe_step_fails(tmp_path: Path) -> None:
    """The follower is strict: a line to replace that is not in the file stops it."""
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "x.toml").write_text("a = 1\n", encoding="utf-8")
    with pytest.raises(AssertionError, match="occurs 0 times"):
        follow("In `data/x.toml`, replace the line `a = 2` with `a = 3`.", tmp_path)
