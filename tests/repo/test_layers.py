"""The layering of the tree, as rules over whole packages (docs/ARCHITECTURE.md).

- The leaves import nothing of the tree; anything may import them.
- The stages, bottom to top: input, scoring, the published contract (`api`), documents,
  pages, output, then the cache layer that memoises them (`cache`). A stage imports only
  the leaves and the stages below it; no stage below the cache layer imports it, so each
  is a pure function of its inputs with nothing kept between builds.
- `generator/output/` knows bytes and paths only: it imports the leaves alone (never
  records, scores, documents or pages).
- The published side (`generator/api/`, `generator/pages/`, `mcp_server/`) never imports
  input records, scores or the document builders: it reads the contract only.
- The core never imports the MCP sidecar; the CLI wires them. The sidecar reads only the
  contract and the leaves.
- Every other module of `generator/` is a command (on top): no stage or leaf imports one.
- No import circle anywhere in `generator/` and `mcp_server/`.

Imports are read from the source (`ast`), wherever they stand: at the top, in a function
or under `TYPE_CHECKING`.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
ROOTS = ("generator", "mcp_server")
LEAVES = (
    "generator.vocabulary",
    "generator.digests",
    "generator.encoders",
    "generator.errors",
)
STAGES = (
    "generator.input",
    "generator.scoring",
    "generator.api",
    "generator.documents",
    "generator.pages",
    "generator.output",
    "generator.cache",
)
"""Bottom to top: each may import the ones before it."""
BYTES_AND_PATHS = "generator.output"
"""A stage that imports the leaves only."""
PUBLISHED = ("generator.api", "generator.pages", "mcp_server")
RECORDS_AND_SCORES = ("generator.input", "generator.scoring", "generator.documents")
SIDECAR = "mcp_server"
WIRING = "generator.cli"  # the one module of the core that may import the sidecar

Graph = dict[str, set[str]]


def module_name(path: Path, root: Path = REPO) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path, name: str, known: Iterable[str]) -> set[str]:
    """The modules of `known` that the module `name` at `path` imports, anywhere in it."""
    modules = set(known)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            submodules = {f"{base}.{alias.name}" for alias in node.names} & modules
            found.update(submodules)
            if len(submodules) < len(node.names):  # a name from the module itself
                found.add(base)
    return {m for m in found if m in modules and m != name}


def import_graph(root: Path = REPO, roots: Iterable[str] = ROOTS) -> Graph:
    """Module -> the modules of the tree it imports."""
    paths = {
        module_name(p, root): p
        for top in roots
        for p in sorted((root / top).rglob("*.py"))
        if "__pycache__" not in p.parts
    }
    return {name: imports_of(path, name, paths) for name, path in paths.items()}


def unit(module: str) -> str:
    """The leaf, stage, sidecar or command a module belongs to."""
    for group in (*LEAVES, *STAGES, SIDECAR):
        if module == group or module.startswith(group + "."):
            return group
    return module if module.count(".") < 2 else module.rsplit(".", module.count(".") - 1)[0]


def allowed(importer: str, imported: str) -> str | None:
    """None if `importer` may import `imported`, else the rule it breaks."""
    source, target = unit(importer), unit(imported)
    if source == target or target in LEAVES and source not in LEAVES:
        return None
    if source in LEAVES:
        return "a leaf imports nothing of the tree"
    if source in PUBLISHED and target in RECORDS_AND_SCORES:
        return "the published side reads the contract only"
    if target == SIDECAR:
        return None if source == WIRING else "only the CLI imports the sidecar"
    if source == SIDECAR:
        return None if target == "generator.api" else "the sidecar reads only the contract"
    if source == BYTES_AND_PATHS and target in STAGES:
        return "output knows bytes and paths only"
    if source in STAGES:
        if target in STAGES and STAGES.index(target) < STAGES.index(source):
            return None
        if target in STAGES:
            return "a stage imports only the stages below it"
        return "no stage imports a command"
    return None  # a command may import any stage, leaf or other command


def broken_rules(graph: Mapping[str, set[str]]) -> list[str]:
    return sorted(
        f"{importer} imports {imported}: {rule}"
        for importer, targets in graph.items()
        for imported in targets
        if (rule := allowed(importer, imported)) is not None
    )


def circles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """Every import circle: the strongly connected groups of more than one module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(start: str) -> None:  # Tarjan's algorithm, without recursion
        work = [(start, iter(sorted(graph.get(start, ()))))]
        index[start] = low[start] = len(index)
        stack.append(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


@pytest.fixture(scope="module")
def graph() -> Graph:
    return import_graph()


def test_every_import_follows_the_layers(graph: Graph) -> None:
    assert broken_rules(graph) == []


def test_no_import_circle_in_the_whole_tree(graph: Graph) -> None:
    assert circles(graph) == []


def test_every_stage_and_leaf_exists(graph: Graph) -> None:
    units = {unit(module) for module in graph}
    assert set(LEAVES) | set(STAGES) | {SIDECAR, WIRING} <= units


@pytest.mark.parametrize(
    ("importer", "imported", "rule"),
    [
        ("generator.input.records", "generator.api.contract", "below it"),
        ("generator.scoring.engine", "generator.documents.common", "below it"),
        ("generator.pages.render", "generator.cache.outputs", "below it"),
        ("generator.scoring.engine", "generator.cache.scores", "below it"),
        ("generator.input.load", "generator.cache.records", "below it"),
        ("generator.output.writer", "generator.scoring.types", "bytes and paths only"),
        ("generator.output.files", "generator.input.limits", "bytes and paths only"),
        ("generator.output.pool", "generator.pages.render", "bytes and paths only"),
        ("generator.api.common", "generator.input.records", "contract only"),
        ("generator.pages.views", "generator.documents.downloads", "contract only"),
        ("mcp_server.tools", "generator.scoring", "contract only"),
        ("mcp_server.site", "generator.build", "reads only the contract"),
        ("generator.serve", "mcp_server.app", "only the CLI"),
        ("generator.launch", "mcp_server.site", "only the CLI"),
        ("generator.cache.memo", "generator.build", "no stage imports a command"),
        ("generator.cache.outputs", "generator.checks", "no stage imports a command"),
        ("generator.vocabulary", "generator.api.contract", "a leaf"),
    ],
)
def test_the_rules_refuse_the_arrows_that_run_back(importer: str, imported: str, rule: str) -> None:
    broken = allowed(importer, imported)
    assert broken is not None and rule in broken


@pytest.mark.parametrize(
    ("importer", "imported"),
    [
        ("generator.input.records", "generator.vocabulary"),
        ("generator.documents.models", "generator.scoring.types"),
        ("generator.pages.render", "generator.api.files"),
        ("generator.cache.snapshots", "generator.scoring.history"),
        ("generator.cache.manifest", "generator.output.writer"),
        ("generator.output.writer", "generator.digests"),
        ("generator.cli", "mcp_server.app"),
        ("mcp_server.site", "generator.api.contract"),
        ("generator.build", "generator.pages.render"),
        ("generator.diff.sources", "generator.build"),
    ],
)
def test_the_rules_let_the_pipeline_run_down(importer: str, imported: str) -> None:
    assert allowed(importer, imported) is None


def test_imports_are_found_anywhere_in_a_module(tmp_path: Path) -> None:
    package = tmp_path / "generator" / "pages"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    for name in ("views", "charts"):
        (package / f"{name}.py").write_text("")
    (tmp_path / "generator" / "__init__.py").write_text("")
    (tmp_path / "generator" / "build.py").write_text("")
    module = package / "render.py"
    module.write_text(
        "from typing import TYPE_CHECKING\n"
        "from . import views\n"
        "if TYPE_CHECKING:\n    from generator.pages.charts import Chart\n"
        "def f():\n    import generator.build\n"
    )
    graph = import_graph(tmp_path, ["generator"])
    assert graph["generator.pages.render"] == {
        "generator.pages.views",
        "generator.pages.charts",
        "generator.build",
    }
    assert broken_rules(graph) == [
        "generator.pages.render imports generator.build: no stage imports a command"
    ]


def test_a_circle_is_found() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e"}}
    assert circles(graph) == [["a", "b", "c"]]
