"""`downloads/datapackage.json`: every CSV column typed, `frictionless validate` passes, and
pandas and DuckDB load each file with the declared types to the values its cells say."""

from __future__ import annotations

import csv
import datetime as dt
import json
import math
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import duckdb
import pandas as pd
import pytest

from generator.api.files import DATAPACKAGE_FILE, DOWNLOADS_DIR
from generator.documents.downloads import (
    COLUMN_TYPES,
    DOMAIN_COLUMNS,
    HISTORY_COLUMNS,
    MODEL_COLUMNS,
    MODEL_HISTORY_COLUMNS,
    RANKING_COLUMNS,
)

FRICTIONLESS = shutil.which("frictionless", path=str(Path(sys.executable).parent))
EVERY_TABLE = (MODEL_COLUMNS, RANKING_COLUMNS, DOMAIN_COLUMNS, HISTORY_COLUMNS)
PANDAS_TYPES = {"integer": "Int64", "number": "Float64", "boolean": "boolean", "string": "string"}
DUCKDB_TYPES = {
    "integer": "BIGINT",
    "number": "DOUBLE",
    "boolean": "BOOLEAN",
    "string": "VARCHAR",
    "date": "DATE",
}
Value = str | int | float | bool | dt.date | None
PARSE: dict[str, Callable[[str], Value]] = {
    "integer": int,
    "number": float,
    "boolean": {"true": True, "false": False}.__getitem__,
    "string": str,
    "date": dt.date.fromisoformat,
}


def test_every_csv_column_has_a_declared_type() -> None:
    untyped = {c for table in (*EVERY_TABLE, MODEL_HISTORY_COLUMNS) for c in table} - set(
        COLUMN_TYPES
    )
    assert not untyped, f"declare their types in COLUMN_TYPES (downloads.py): {sorted(untyped)}"


@pytest.fixture(scope="module")
def package(built_site: Path) -> dict[str, Any]:
    descriptor: dict[str, Any] = json.loads((built_site / DATAPACKAGE_FILE).read_bytes())
    return descriptor


def test_the_package_credits_every_source_with_its_licence(
    package: dict[str, Any], built_site: Path
) -> None:
    methodology = json.loads((built_site / "api/v1/methodology").read_bytes())
    assert package["sources"] == [
        {"title": s["name"], "path": s["url"], "licence": s["licence"], "credit": s["credit"]}
        for s in methodology["sources"]
    ]
    assert package["sources"]


def _frictionless(folder: Path) -> dict[str, Any]:
    assert FRICTIONLESS is not None, "frictionless is a test dependency (pyproject.toml)"
    run = subprocess.run(
        [FRICTIONLESS, "validate", "--json", "datapackage.json"],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=120,
    )
    report: dict[str, Any] = json.loads(run.stdout)
    assert (run.returncode == 0) == report["valid"], run.stderr
    return report


@pytest.mark.slow
def test_frictionless_validate_passes_and_fails_on_a_wrong_type(
    built_site: Path, tmp_path: Path
) -> None:
    report = _frictionless(built_site / DOWNLOADS_DIR)
    assert report["valid"], report["errors"] or [t["errors"] for t in report["tasks"]]
    assert report["stats"]["tasks"] > 10
    # The same files with one integer cell made text: the types are checked.
    copy = shutil.copytree(built_site / DOWNLOADS_DIR, tmp_path / "downloads")
    models = copy / "models.csv"
    header, first, *rest = models.read_bytes().split(b"\r\n")
    rank = header.split(b",").index(b"rank")
    cells = first.split(b",")
    cells[rank] = b"first"
    models.write_bytes(b"\r\n".join([header, b",".join(cells), *rest]))
    broken = _frictionless(copy)
    assert not broken["valid"]
    (task,) = [t for t in broken["tasks"] if t["name"] == "models"]
    assert [e["type"] for e in task["errors"]] == ["type-error"]


def _expected(path: Path, fields: list[dict[str, str]]) -> list[list[Value]]:
    """Each cell of the file as its declared type says, by hand: empty is null."""
    with path.open(newline="", encoding="utf-8") as f:
        header, *rows = list(csv.reader(f))
    assert header == [field["name"] for field in fields]
    parse = [PARSE[field["type"]] for field in fields]
    return [[p(cell) if cell else None for p, cell in zip(parse, row, strict=True)] for row in rows]


def _plain(value: Any) -> Value:
    """A pandas or DuckDB cell as a Python value (missing is None, a timestamp a date)."""
    if (
        value is None
        or value is pd.NA
        or value is pd.NaT
        or (isinstance(value, float) and math.isnan(value))
    ):
        return None
    if isinstance(value, pd.Timestamp):
        return value.date()
    if hasattr(value, "item"):  # a NumPy scalar
        plain: Value = value.item()
        return plain
    return value  # type: ignore[no-any-return]


def _pandas(path: Path, fields: list[dict[str, str]]) -> list[list[Value]]:
    dates = [f["name"] for f in fields if f["type"] == "date"]
    frame = pd.read_csv(
        path,
        dtype={f["name"]: PANDAS_TYPES[f["type"]] for f in fields if f["type"] != "date"},
        parse_dates=dates,
        date_format="%Y-%m-%d",
        keep_default_na=False,
        na_values=[""],
        true_values=["true"],
        false_values=["false"],
    )
    for field in fields:
        if field["type"] != "date":
            assert str(frame[field["name"]].dtype) == PANDAS_TYPES[field["type"]], field
    return [[_plain(v) for v in row] for row in frame.itertuples(index=False)]


def _duckdb(path: Path, fields: list[dict[str, str]]) -> list[list[Value]]:
    columns = {f["name"]: DUCKDB_TYPES[f["type"]] for f in fields}
    with duckdb.connect() as connection:
        relation = connection.read_csv(
            str(path), header=True, columns=columns, auto_detect=False, quotechar='"'
        )
        rows = relation.fetchall()
    return [[_plain(v) for v in row] for row in rows]


def test_pandas_and_duckdb_load_every_csv_with_its_types(
    package: dict[str, Any], built_site: Path
) -> None:
    folder = built_site / DOWNLOADS_DIR
    typed = {f["type"] for r in package["resources"] for f in r["schema"]["fields"]}
    assert typed == set(PARSE)  # every declared type is loaded somewhere below
    for resource in package["resources"]:
        path, fields = folder / resource["path"], resource["schema"]["fields"]
        expected = _expected(path, fields)
        assert expected, resource["path"]
        assert _pandas(path, fields) == expected, resource["path"]
        assert _duckdb(path, fields) == expected, resource["path"]
