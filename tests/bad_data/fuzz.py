"""Hypothesis-generated hostile TOML through `load_dataset` and the build.

Run in a child process with a time and a memory bound (tests/input/test_hostile_data.py):

    python -m bad_data.fuzz load WORKDIR    # many documents, the loader only
    python -m bad_data.fuzz build WORKDIR   # fewer, through the whole build

Each example changes the valid fixture in one hostile way (a generated value in place of a
field, a generated `[private]` table, or raw text: deep nesting, long dotted keys) and must
end in a clean load/build or a `DataError` whose every problem is one printable line.
Anything else (a traceback, a hang, memory exhaustion) fails the run. Examples are
derandomised, so a run is the same on every machine.
"""

from __future__ import annotations

import datetime as dt
import math
import shutil
import sys
import tomllib
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rtoml import dumps
from support.paths import FIXTURE_DATA as FIXTURE

from generator.api.urls import SiteConfig
from generator.build import build_site
from generator.errors import DataError
from generator.input.load import load_dataset

A2 = "models/alpha-2.toml"
ZONES = [dt.UTC, *(dt.timezone(dt.timedelta(minutes=m)) for m in (-14 * 60 + 1, -300, 345, 839))]
FIELDS = [
    (A2, ("name",)),
    (A2, ("release_date",)),
    (A2, ("updated",)),
    (A2, ("parameters_b",)),
    (A2, ("prices", "input")),
    (A2, ("results", 2, "value")),
    (A2, ("results", 2, "as_of")),
    (A2, ("id",)),
    ("charts/benchmark-gpqa-diamond.toml", ("title",)),
    ("benchmarks/gpqa-diamond.toml", ("max_value",)),
]

floats = st.floats() | st.sampled_from(
    [1.7e308, -1.7e308, 5e-324, 1e-12, 1e12, 1e9, 1_000_000_000.0000001, 0.0, -0.0]
)
scalars = st.one_of(
    floats,
    st.integers(min_value=-(2**63), max_value=2**63 - 1),
    st.text(max_size=40),  # every code point but surrogates: control characters included
    st.dates(),  # years 1 to 9999
    st.datetimes(timezones=st.sampled_from(ZONES)),
    st.datetimes(),  # no offset
    st.booleans(),
)
keys = st.text(min_size=1, max_size=300)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(keys, inner, max_size=3),
    max_leaves=20,
)


def _deep_array(depth: int) -> str:
    return "a = " + "[" * depth + "]" * depth + "\n"


def _dotted_key(parts: int) -> str:
    return "[private]\n" + ".".join(["k"] * parts) + " = 1\n"


def _deep_header(parts: int) -> str:
    return "[" + ".".join(["t"] * parts) + "]\nx = 1\n"


raw_texts = st.one_of(
    st.integers(1, 5_000).map(_deep_array),
    st.integers(1, 40_000).map(_dotted_key),
    st.integers(1, 5_000).map(_deep_header),
    st.text(max_size=200),  # arbitrary text, NUL and control characters included
)


def _set(doc: Any, path: tuple[Any, ...], value: Any) -> None:
    for part in path[:-1]:
        doc = doc[part]
    doc[path[-1]] = value


def field_edit(rel: str, path: tuple[Any, ...], value: Any) -> Callable[[Path], None]:
    def mutate(data: Path) -> None:
        file = data / rel
        doc = tomllib.loads(file.read_text(encoding="utf-8"))
        _set(doc, path, value)
        file.write_text(_dumps_or_raw(doc), encoding="utf-8")

    return mutate


def private_table(table: Any) -> Callable[[Path], None]:
    def mutate(data: Path) -> None:
        file = data / A2
        doc = tomllib.loads(file.read_text(encoding="utf-8"))
        doc["private"] = table if isinstance(table, dict) else {"value": table}
        file.write_text(_dumps_or_raw(doc), encoding="utf-8")

    return mutate


def raw_file(text: str) -> Callable[[Path], None]:
    return lambda data: (data / "models" / "hostile.toml").write_text(text, encoding="utf-8")


def _dumps_or_raw(doc: dict[str, Any]) -> str:
    """The document as TOML; a value the writer cannot express becomes its repr (invalid
    TOML on purpose: the parser's one-line error is a fine outcome too)."""
    try:
        return dumps(doc)
    except (TypeError, ValueError):
        return repr(doc)


printable = st.text(st.characters(blacklist_categories=("Cc", "Cs")), min_size=1, max_size=120)
before_update = st.dates(dt.date(2000, 1, 1), dt.date(2026, 1, 15))
PLAUSIBLE = {
    ("name",): printable,
    ("release_date",): before_update,
    ("updated",): st.datetimes(
        dt.datetime(2026, 1, 16), dt.datetime(2099, 1, 1), timezones=st.sampled_from(ZONES)
    ),
    ("parameters_b",): st.floats(1e-12, 1e12),
    ("prices", "input"): st.floats(0, 100_000),
    ("results", 2, "value"): st.floats(0, 1),
    ("results", 2, "as_of"): before_update,
    ("title",): printable,
}
"""Per field, values that may pass validation, so that scoring and drawing see them."""


def near_values(x: float) -> Callable[[Path], None]:
    """Two models' GPQA results one float step apart (the endless-ticks shape)."""

    def mutate(data: Path) -> None:
        field_edit("benchmarks/gpqa-diamond.toml", ("max_value",), 1e12)(data)
        field_edit("models/alpha-1.toml", ("results", 2, "value"), x)(data)
        field_edit(A2, ("results", 2, "value"), min(math.nextafter(x, math.inf), 1e12))(data)

    return mutate


plausible_edits = st.one_of(
    *(
        st.builds(partial(field_edit, rel, path), PLAUSIBLE[path])
        for rel, path in FIELDS
        if path in PLAUSIBLE
    ),
    st.builds(near_values, st.floats(0, 1e12)),
)

edits = st.one_of(
    st.builds(
        lambda field, value: field_edit(field[0], field[1], value), st.sampled_from(FIELDS), values
    ),
    st.builds(private_table, values),
    st.builds(raw_file, raw_texts),
)


def _fresh(work: Path) -> Path:
    data = work / "data"
    if data.exists():
        shutil.rmtree(data)
    shutil.copytree(FIXTURE, data)
    return data


def _one_line_problems(error: DataError) -> None:
    for problem in error.problems:
        assert problem.isprintable(), repr(problem)


def check_load(work: Path, edit: Callable[[Path], None]) -> None:
    data = _fresh(work)
    edit(data)
    try:
        load_dataset(data)
    except DataError as error:
        _one_line_problems(error)


OUTCOMES = {"clean": 0, "refused": 0}


def check_build(work: Path, edit: Callable[[Path], None]) -> None:
    data = _fresh(work)
    edit(data)
    try:
        build_site(data, work / "site_out", SiteConfig())
    except DataError as error:
        _one_line_problems(error)
        OUTCOMES["refused"] += 1
    else:
        OUTCOMES["clean"] += 1


EXAMPLES = {"load": 150, "build": 16}


def run(mode: str, work: Path) -> None:
    check = check_load if mode == "load" else check_build

    @settings(
        max_examples=EXAMPLES[mode],
        deadline=dt.timedelta(seconds=10),
        database=None,
        derandomize=True,
        suppress_health_check=list(HealthCheck),
    )
    @given(edits if mode == "load" else st.one_of(plausible_edits, edits))
    def examples(edit: Callable[[Path], None]) -> None:
        check(work, edit)

    examples()


if __name__ == "__main__":
    run(sys.argv[1], Path(sys.argv[2]))
    print(f"{EXAMPLES[sys.argv[1]]} examples: every one a clean {sys.argv[1]} or one-line errors")
    if sys.argv[1] == "build":
        print(f"{OUTCOMES['clean']} clean builds, {OUTCOMES['refused']} refused")
