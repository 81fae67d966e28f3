"""The page filters that keep what they worked out give what working it out again gives.

`whole` (a 95% range end as a whole IQ point, half up) keeps each value's text: every
history snapshot row shows two range ends, and 2-decimal IQs repeat across rows.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from generator.pages import formats
from generator.pages.formats import whole as _whole


def _worked_out(value: float | int) -> str:
    return str(Decimal(repr(value)).quantize(Decimal(1), rounding=ROUND_HALF_UP) + 0)


VALUES = st.one_of(
    st.integers(-(10**6), 10**6),
    st.floats(-1e6, 1e6, allow_nan=False),
    st.integers(-20000, 20000).map(lambda n: n / 100),  # the API's 2-decimal IQs
)


@given(values=st.lists(VALUES, max_size=30))
def test_kept_range_ends_are_the_ones_worked_out(values: list[float | int]) -> None:
    for value in values + values:  # the second time from what was kept
        assert _whole(value) == _worked_out(value)


def test_half_up_and_no_negative_zero_whichever_comes_first() -> None:
    # 112.5 rounds up to 113 (half up, not to even); -0.4 is "0", not "-0", whether
    # -0.0 or 0.0 (equal keys) was seen first.
    assert [_whole(v) for v in (112.5, 112.49, -0.4, -0.0, 0.0, 0, 1, 1.0)] == [
        "113", "112", "0", "0", "0", "0", "1", "1",
    ]  # fmt: skip
    assert _whole(None) == "–"


def test_what_is_kept_stops_at_its_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(formats, "_WHOLES", {})
    monkeypatch.setattr(formats, "WHOLES_LIMIT", 3)
    values = [v / 10 for v in range(1000, 1010)]
    assert [_whole(v) for v in values] == [_worked_out(v) for v in values]
    assert len(formats._WHOLES) == 3
