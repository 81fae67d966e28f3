"""The loader's value scan (`generator/input/load.py`): its quick pass over whole containers
finds and rewrites exactly what the plain item walk does, and `text.has_forbidden` is
`NOT_IN_TEXT` for every code point.

`_walk` below is the item walk as it was before the quick pass (`_plain_and_clean`) was
added: it visits every key and value, in order. Both run on the same generated documents
(tables, arrays of tables, text with refused characters, zeros, -0.0, NaN, infinities,
64-bit integers (TOML's), dates and date-times in and out of range), and must give the same problems
in the same order and leave the same document (a -0.0 made 0.0, a date-time made UTC).
"""

from __future__ import annotations

import copy
import datetime as dt
import math
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from generator.input.load import (
    MAX_MAGNITUDE,
    MIN_MAGNITUDE,
    _path,
    _plain_and_clean,
    _scan_key,
    _scan_values,
    _value_problem,
)
from generator.input.text import NOT_IN_TEXT, has_forbidden


def _walk(value: Any, steps: tuple[Any, ...], found: list[tuple[str, str]]) -> None:
    if isinstance(value, dict):
        if NOT_IN_TEXT.search("".join(value)):
            found += (problem for key in value for problem in _scan_key(key, _path((*steps, key))))
        items: Any = value.items()
    else:
        items = enumerate(value)
    for key, item in items:
        if isinstance(item, dict | list):
            _walk(item, (*steps, key), found)
            continue
        kind = type(item)
        if kind is str:
            if NOT_IN_TEXT.search(item) is None:
                continue
        elif (kind is float or kind is int) and MIN_MAGNITUDE <= abs(item) <= MAX_MAGNITUDE:
            continue
        elif isinstance(item, float) and item == 0:
            value[key] = 0.0
            continue
        elif isinstance(item, dt.datetime) and item.utcoffset() is not None:
            value[key] = item.astimezone(dt.UTC)
        problem = _value_problem(item)
        if problem is not None:
            found.append((_path((*steps, key)), problem))


def _walked(value: dict[str, Any]) -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    _walk(value, (), found)
    return found


def test_has_forbidden_is_not_in_text_for_every_code_point() -> None:
    for code in range(0x110000):
        char = chr(code)
        expected = NOT_IN_TEXT.search(char) is not None
        assert has_forbidden(char) is expected, hex(code)
        assert has_forbidden(f"ab{char}c") is expected, hex(code)
    assert has_forbidden("plain ASCII\ttext\r\n") is False
    assert has_forbidden("é\x7f") is True and has_forbidden("é\ufffe") is True


_BAD = st.sampled_from(["\x00", "\x1f", "\x7f", "\x85", "\ufffe", "\U0010ffff", "\ufdd0"])
TEXT = st.one_of(
    st.text(alphabet=st.characters(codec="utf-8"), max_size=8),
    st.builds(lambda a, bad, b: a + bad + b, st.text(max_size=3), _BAD, st.text(max_size=3)),
)
KEY = st.one_of(st.sampled_from(["value", "id", "name", "as_of"]), TEXT)
EDGES = [0, 0.0, -0.0, math.nan, math.inf, -math.inf, 2**63 - 1, -(2**63), 1e-13, 1e12, 1e-12]
NUMBER = st.one_of(
    st.integers(min_value=-(10**14), max_value=10**14),
    st.sampled_from(EDGES),
    st.floats(allow_nan=True, allow_infinity=True),
)
DATE = st.dates(min_value=dt.date(1990, 1, 1), max_value=dt.date(2110, 12, 31))
OFFSET = st.sampled_from([None, dt.UTC, dt.timezone(dt.timedelta(hours=-5))])
DATETIME = st.builds(
    lambda day, zone: dt.datetime(day.year, day.month, day.day, 12, tzinfo=zone), DATE, OFFSET
)
SCALAR = st.one_of(TEXT, NUMBER, st.booleans(), DATE, DATETIME, st.times())
PLAIN = st.one_of(st.sampled_from(["gpqa", "https://example.org/a"]), st.just(0.3), DATE)
TABLE_OF_SCALARS = st.dictionaries(KEY, st.one_of(PLAIN, SCALAR), max_size=5)
DOCUMENT = st.recursive(
    st.dictionaries(KEY, SCALAR, max_size=4),
    lambda inner: st.one_of(
        st.dictionaries(KEY, st.one_of(SCALAR, inner, st.lists(TABLE_OF_SCALARS)), max_size=4),
        st.dictionaries(KEY, st.lists(st.one_of(SCALAR, inner), max_size=4), max_size=3),
    ),
    max_leaves=30,
)


@settings(max_examples=400, deadline=None)
@given(DOCUMENT)
def test_the_scan_finds_and_rewrites_what_the_item_walk_does(document: dict[str, Any]) -> None:
    walked = copy.deepcopy(document)
    expected = _walked(walked)
    assert _scan_values(document) == expected
    assert repr(document) == repr(walked)  # -0.0 and date-times rewritten alike


def test_an_array_of_clean_tables_with_one_bad_value_is_named_at_its_place() -> None:
    """The quick pass over the 3 tables fails on one value; the walk names it."""
    ok = {"benchmark": "gpqa", "value": 0.5, "as_of": dt.date(2026, 1, 10)}
    results = [dict(ok), dict(ok, value=-0.0), dict(ok, value=1e13), dict(ok, name="a\x00")]
    document = {"id": "m", "results": results}
    assert _scan_values(document) == [
        (
            "results[2].value",
            "number out of range (1e+13; every number is 0 or 1e-12..1e12 in size)",
        ),
        ("results[3].name", "control character U+0000 in text"),
    ]
    assert math.copysign(1, results[1]["value"]) == 1  # -0.0 became 0.0


def test_the_quick_pass_decides_clean_tables_and_arrays_of_tables() -> None:
    ok = {"benchmark": "gpqa", "value": 0.5, "n": 3, "on": True, "as_of": dt.date(2026, 1, 1)}
    assert _plain_and_clean(ok) and _plain_and_clean([dict(ok), dict(ok)])
    assert _plain_and_clean(["a", 1, 2.5]) and _plain_and_clean({}) and _plain_and_clean([])
    for bad in ("a\x00", 0, 0.0, 1e13, math.nan, dt.date(1999, 12, 31), dt.datetime(2026, 1, 1)):
        assert not _plain_and_clean(dict(ok, value=bad)), bad
        assert not _plain_and_clean([dict(ok), dict(ok, value=bad)]), bad
    assert not _plain_and_clean({"a\x7f": 1.0}) and not _plain_and_clean([{"a\x7f": 1.0}])
    assert not _plain_and_clean({"inner": {}}) and not _plain_and_clean([[1.0]])
