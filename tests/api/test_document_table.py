"""The table of documents (`generator.api.contract.DOCUMENTS`) is where every document lives."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from generator.api.contract import (
    DOCUMENTS,
    MODEL,
    MODEL_HISTORY,
    MODELS,
    RANKINGS,
    DocumentKind,
    ModelHistory,
)
from generator.api.urls import API_PREFIXES, api_file, api_path_of_file, endpoint_for

REPO = Path(__file__).resolve().parents[2]


def test_every_built_document_is_a_kind_of_the_table_at_its_file_with_its_page(
    built_site: Path,
) -> None:
    api_root = built_site / "api" / "v1"
    seen = set()
    for file in sorted(p for p in api_root.rglob("*") if p.is_file()):
        rel = file.relative_to(api_root).as_posix()
        path = api_path_of_file(rel)
        if rel == "openapi.json":
            assert path is None
            continue
        assert path is not None, rel
        kind = endpoint_for(path)
        assert kind is not None and api_file(path) == f"api/v1/{rel}"
        seen.add(kind)
        page = kind.page_path(kind.path_value(path))
        assert (built_site / page / "index.html").is_file(), (path, page)
    assert seen == set(DOCUMENTS)


def test_a_kind_fills_its_parameter_in_path_file_and_page() -> None:
    assert MODEL.api_path("gpt-5") == "/models/gpt-5"
    assert MODEL.file_path("gpt-5") == "models/gpt-5"
    assert MODEL.page_path("gpt-5") == "models/gpt-5/"
    assert [api_file(MODEL.api_path("x"), prefix) for prefix in API_PREFIXES] == [
        "api/v1/models/x",
        "api/models/x",
    ]
    assert (MODELS.rewritten, RANKINGS.file, MODEL.rewritten) == (True, "rankings.json", False)
    with pytest.raises(ValueError, match="no value for {id}"):
        MODEL.api_path()


def test_a_parameter_inside_the_path_is_filled_and_read_back() -> None:
    """`/models/{id}/history`: the parameter is a middle segment of the path, the last of
    the file (another folder: `models/{id}` is already a file)."""
    assert MODEL_HISTORY.api_path("gpt-5") == "/models/gpt-5/history"
    assert api_file("/models/gpt-5/history") == "api/v1/model-history/gpt-5"
    assert api_path_of_file("model-history/gpt-5") == "/models/gpt-5/history"
    assert endpoint_for("/models/gpt-5/history") is MODEL_HISTORY
    assert endpoint_for("/models/gpt-5/history/x") is None
    assert (MODEL_HISTORY.path_value("/models/a.b/history"), MODEL_HISTORY.folder) == (
        "a.b",
        "model-history",
    )
    assert MODEL_HISTORY.collection == MODEL.collection == "/models"
    assert MODEL_HISTORY.rewritten and MODEL_HISTORY.page_path("x") == MODEL.page_path("x")
    assert MODELS.path_value("/models") is None
    with pytest.raises(ValueError, match="not of the form"):
        MODEL_HISTORY.path_value("/models/x")
    with pytest.raises(ValueError, match="single-segment"):
        MODEL_HISTORY.path_value("/models/a/b/history")


def test_a_parameter_must_be_a_path_segment_and_the_file_name() -> None:
    for path, file in (("/m{id}", "m/{id}"), ("/m/{id}", "m/{id}.json")):
        with pytest.raises(ValueError, match="must be a path segment"):
            DocumentKind(
                path=path,
                response=ModelHistory,
                summary="x",
                file=file,
                page="m/",
                param="id",
                not_found_code="model_not_found",
            )


def _code_strings(path: Path) -> list[tuple[int, str]]:
    """Every string constant of a module (f-string parts included), docstrings left out."""
    tree = ast.parse(path.read_text())
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
    }
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in docstrings
    ]


def test_the_endpoint_paths_are_written_down_once() -> None:
    """No second hand-written list: outside the table, no code string starts with a path."""
    prefixes = tuple({"/" + kind.path.split("/")[1] for kind in DOCUMENTS if kind.path != "/"})
    sources = [p for d in ("generator", "mcp_server") for p in sorted((REPO / d).rglob("*.py"))]
    found = [
        f"{source.relative_to(REPO)}:{line}: {text!r}"
        for source in sources
        if source != REPO / "generator" / "api" / "contract.py"
        for line, text in _code_strings(source)
        if text.startswith(prefixes)
    ]
    assert found == []


def test_the_path_check_sees_f_strings(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text('"""/models in a docstring is prose."""\nx = f"/models/{1}"\n')
    assert _code_strings(module) == [(2, "/models/")]
