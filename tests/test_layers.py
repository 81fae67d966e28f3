"""The published side reads only the contract: no input records, no scoring types.

The pages, the contract (and what describes it: URLs, hosting rules, OpenAPI, the MCP tool
declaration) and the MCP sidecar are drawn from the documents alone; only the input and
scoring stages, the document builders, the build and the CLI see records.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
PUBLISHED_SIDE = [
    "generator/pages",
    "generator/api/contract.py",
    "generator/api/mcp_tools.py",
    "generator/api/aliases.py",
    "generator/api/urls.py",
    "generator/api/aliases.py",
    "generator/api/hosting.py",
    "generator/api/openapi.py",
    "mcp_server",
]
FORBIDDEN = ("generator.input", "generator.scoring")


def _imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module is not None and not node.level:
            found.add(node.module)
    return found


def _modules(entry: str) -> list[Path]:
    path = REPO / entry
    return sorted(path.rglob("*.py")) if path.is_dir() else [path]


@pytest.mark.parametrize("entry", PUBLISHED_SIDE)
def test_the_published_side_imports_no_input_records_or_scoring(entry: str) -> None:
    for module in _modules(entry):
        bad = sorted(i for i in _imports(module) if i.startswith(FORBIDDEN))
        assert not bad, f"{module.relative_to(REPO)} imports {bad}"


def test_the_check_sees_a_forbidden_import(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("from generator.input.records import Dataset\nimport generator.scoring\n")
    assert {"generator.input.records", "generator.scoring"} <= _imports(module)
