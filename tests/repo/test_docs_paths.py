"""The docs name real files, and docs/ARCHITECTURE.md names every module of the tree."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
DOCS = sorted([REPO / "README.md", *(REPO / "docs").glob("*.md")])
# A path in the code tree: generator/... or mcp_server/..., up to a space, quote or bracket.
PATH = re.compile(r"(?<![\w./-])((?:generator|mcp_server)/[\w./*-]*[\w*/])")
ARCHITECTURE = REPO / "docs" / "ARCHITECTURE.md"


def named_paths(text: str) -> set[str]:
    """Every `generator/...` and `mcp_server/...` path a text names (globs kept as globs)."""
    return {match.rstrip("/.") for match in PATH.findall(text)}


def _exists(path: str) -> bool:
    return any(REPO.glob(path)) if "*" in path else (REPO / path).exists()


def test_every_code_path_the_docs_name_exists() -> None:
    missing = [
        f"{doc.relative_to(REPO)}: {path}"
        for doc in DOCS
        for path in sorted(named_paths(doc.read_text()))
        if not _exists(path)
    ]
    assert not missing, missing


def test_architecture_names_every_module() -> None:
    named = named_paths(ARCHITECTURE.read_text())
    modules = sorted(
        p.relative_to(REPO).as_posix()
        for root in ("generator", "mcp_server")
        for p in (REPO / root).rglob("*.py")
        if p.name != "__init__.py" and "__pycache__" not in p.parts
    )
    assert [m for m in modules if m not in named] == []


def test_the_path_finder_sees_paths_in_prose_and_code_spans() -> None:
    text = "see `generator/api/contract.py`, mcp_server/app.py and generator/pages/templates/."
    assert named_paths(text) == {
        "generator/api/contract.py",
        "mcp_server/app.py",
        "generator/pages/templates",
    }
    assert not _exists("generator/no_such_module.py")
