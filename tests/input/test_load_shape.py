"""The loader's size checks (`generator/input/load.py`) give what they gave before they were
made faster.

`_shape` counts a level at a time and walks again, depth first, only a document past a limit;
`_shape_walk` is that depth-first walk, the whole of `_shape` before. Both run on generated
documents under small limits, so that many stop part-way: the count at the point the walk
stops is added to the tree's tally, so it must be the same number. `read_data_file` asks for
the size the file has; a file longer than `fstat` said is read on as before.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.input import load
from generator.input.load import MAX_FILE_BYTES, _Refused, _shape, _shape_walk, read_data_file

SCALAR = st.one_of(st.integers(), st.floats(), st.text(max_size=3), st.booleans())
KEY = st.text(alphabet="abcdef", min_size=1, max_size=3)
VALUE = st.recursive(
    SCALAR,
    lambda inner: st.one_of(st.lists(inner, max_size=6), st.dictionaries(KEY, inner, max_size=6)),
    max_leaves=60,
)
DOCUMENT = st.dictionaries(KEY, VALUE, max_size=6)


@settings(max_examples=200, deadline=None)  # 600 took 9 s
@given(DOCUMENT, st.integers(1, 80), st.integers(1, 8))
def test_shape_stops_where_the_depth_first_walk_stops(
    document: dict[str, Any], values: int, depth: int
) -> None:
    with mock.patch.multiple(load, MAX_FILE_VALUES=values, MAX_DEPTH=depth):
        assert _shape(document) == _shape_walk(document)


def test_shape_within_and_past_the_limits() -> None:
    # {"a": [[1, 2], {"b": []}]}: 1 (the file) + 1 + 2 + 2 + 1 = 7 values; 4 levels deep
    document = {"a": [[1, 2], {"b": []}]}
    assert _shape(document) == _shape_walk(document) == (4, 7)
    with mock.patch.multiple(load, MAX_FILE_VALUES=3, MAX_DEPTH=16):
        # the walk stops at the first array: 1 + 1 (a) + 2 (its items) = 4 > 3, depth 2
        assert _shape(document) == _shape_walk(document) == (2, 4)
    with mock.patch.multiple(load, MAX_FILE_VALUES=100, MAX_DEPTH=2):
        # depth first: `{"b": []}` is popped first (last pushed), at depth 2: 3 > 2
        assert _shape(document) == _shape_walk(document) == (3, 5)


def _read_as_before(path: Path) -> bytes:
    with path.open("rb") as file:
        data = file.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise _Refused(f"too large ({len(data)} bytes; the limit is 5 MB)")
    return data


@pytest.mark.parametrize("size", [0, 1, 4096, MAX_FILE_BYTES, MAX_FILE_BYTES + 1])
def test_read_data_file_reads_every_byte_up_to_the_limit(tmp_path: Path, size: int) -> None:
    path = tmp_path / "a.toml"
    path.write_bytes(b"x" * size)
    if size > MAX_FILE_BYTES:
        with pytest.raises(_Refused, match=f"too large \\({size} bytes"):
            read_data_file(path)
    else:
        assert read_data_file(path) == _read_as_before(path) == b"x" * size


@pytest.mark.parametrize("size", [10, MAX_FILE_BYTES, MAX_FILE_BYTES + 7])
def test_read_data_file_reads_a_file_longer_than_its_stat_said(tmp_path: Path, size: int) -> None:
    """A file that grew between `fstat` and the read (`fstat` made to say 3 bytes) is read
    as far as the limit, as the single 5 MB read did."""
    path = tmp_path / "a.toml"
    path.write_bytes(b"y" * size)
    real_fstat = os.fstat

    def small_fstat(fd: int) -> os.stat_result:
        info = real_fstat(fd)
        return os.stat_result((*info[:6], 3, *info[7:]))  # index 6 is st_size

    with mock.patch.object(load.os, "fstat", small_fstat):
        if size > MAX_FILE_BYTES:
            with pytest.raises(_Refused, match=f"too large \\({MAX_FILE_BYTES + 1} bytes"):
                read_data_file(path)
        else:
            assert read_data_file(path) == b"y" * size
