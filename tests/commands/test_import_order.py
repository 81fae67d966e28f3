"""Importing upstream rows in two refreshes gives the same data/ as importing them in one
(issue 43): a model first seen with one dimension, or not seen at all, ends as the one-step
import leaves it once the rest of its rows arrive.

The upstream is tests/upstream/; the start is the shipped data imported from it, without the
models LiveBench alone brings in; the first refresh holds back some of their LiveBench rows,
or has them with one category blank (one dimension: a draft)."""

from __future__ import annotations

import csv
import hashlib
import io
import json
import shutil
from pathlib import Path

import pytest
import rtoml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.paths import ALL_SOURCES, SHIPPED_DATA, UPSTREAM_FIXTURE

from generator.importers.run import run_import

TABLE = "livebench/table_2026_01_08.csv"
CATEGORIES = "livebench/categories_2026_01_08.json"
RAW = UPSTREAM_FIXTURE
# LiveBench keys of models that only LiveBench feeds (removed from the start).
KEYS = ("claude-fable-5-xhigh-effort", "minimax-m3", "qwen3.6-flash")


def _tree(root: Path) -> dict[str, str]:
    return {
        str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def _livebench_only(data: Path) -> list[str]:
    """Models whose every result is LiveBench's, named by no other file."""
    texts = {p: p.read_text(encoding="utf-8") for p in sorted(data.rglob("*.toml"))}
    out = []
    for path in sorted((data / "models").glob("*.toml")):
        results = rtoml.loads(texts[path]).get("results", [])
        named = any(f'"{path.stem}"' in t for p, t in texts.items() if p != path)
        if results and {r.get("source") for r in results} == {"livebench"} and not named:
            out.append(path.stem)
    return out


@pytest.fixture(scope="module")
def start(tmp_path_factory: pytest.TempPathFactory) -> Path:
    data = tmp_path_factory.mktemp("start") / "data"
    shutil.copytree(SHIPPED_DATA, data)
    run_import(data, RAW, accept=ALL_SOURCES)
    gone = _livebench_only(data)
    assert {"claude-fable-5", "minimax-m3", "qwen3.6-flash"} <= set(gone), gone
    for model_id in gone:
        (data / "models" / f"{model_id}.toml").unlink()
    return data


def _first_refresh(raw: Path, held: set[str], blank: bool) -> None:
    """`raw`'s LiveBench table without the `held` keys' rows, or (`blank`) with their
    Mathematics tasks empty."""
    tasks = json.loads((RAW / CATEGORIES).read_text(encoding="utf-8"))["Mathematics"]
    text = (RAW / TABLE).read_text(encoding="utf-8")
    rows = list(csv.reader(io.StringIO(text, newline="")))
    header, kept = rows[0], [rows[0]]
    for row in rows[1:]:
        if row and row[0] in held:
            if not blank:
                continue
            row = [("" if header[i] in tasks else cell) for i, cell in enumerate(row)]
        kept.append(row)
    out = io.StringIO(newline="")
    csv.writer(out, lineterminator="\n").writerows(kept)
    (raw / TABLE).write_text(out.getvalue(), encoding="utf-8")


@pytest.mark.slow
@settings(
    max_examples=5,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(held=st.sets(st.sampled_from(KEYS), min_size=1), blank=st.booleans())
def test_two_refreshes_give_the_data_one_gives(
    start: Path, tmp_path: Path, held: set[str], blank: bool
) -> None:
    work = Path(tmp_path) / hashlib.sha256(repr((sorted(held), blank)).encode()).hexdigest()[:12]
    shutil.rmtree(work, ignore_errors=True)
    raw = work / "raw"
    shutil.copytree(RAW, raw)
    _first_refresh(raw, held, blank)
    twice, once = work / "twice", work / "once"
    shutil.copytree(start, twice)
    shutil.copytree(start, once)
    run_import(twice, raw, accept=ALL_SOURCES)
    shutil.copy(RAW / TABLE, raw / TABLE)
    run_import(twice, raw, accept=ALL_SOURCES)
    run_import(once, raw, accept=ALL_SOURCES)
    assert _tree(twice) == _tree(once)
    shutil.rmtree(work)
