"""The float fast path of rounding gives exactly the decimal rule's result.

`round_half_up` and `round_to` answer from floats when the value is far from a .5 and
take the decimal path (`_exact_*`, METHODOLOGY's rule) otherwise; these compare the two
on arbitrary floats and on values built to sit on, or next to, a .5 at every precision.
"""

from __future__ import annotations

import math

from hypothesis import example, given, settings
from hypothesis import strategies as st

from generator.scoring import rounding
from generator.scoring.rounding import round_half_up, round_to

FLOATS = st.floats(min_value=-1e7, max_value=1e7, allow_nan=False, allow_infinity=False)
DIGITS = st.integers(0, 8)


def _same(a: float, b: float) -> bool:
    return a == b and math.copysign(1, a) == math.copysign(1, b)


@settings(max_examples=1000)
@given(FLOATS, DIGITS)
@example(2.675, 2)
@example(-0.0, 2)
@example(-0.004, 2)
@example(0.00125, 4)
@example(102.49999999999999, 0)
@example(1e9, 3)
def test_round_to_equals_the_decimal_rule(x: float, digits: int) -> None:
    assert _same(round_to(x, digits), rounding._exact_round_to(x, digits))


@settings(max_examples=1000)
@given(FLOATS)
@example(114.5)
@example(-114.5)
@example(102.49999999999999)
def test_round_half_up_equals_the_decimal_rule(x: float) -> None:
    assert round_half_up(x) == rounding._exact_half_up(x)


@settings(max_examples=1000)
@given(st.integers(-(10**8), 10**8), DIGITS, st.integers(-3000, 3000))
def test_values_next_to_a_half_round_as_the_decimal_rule(k: int, digits: int, ulps: int) -> None:
    """k + .5 at `digits` decimals, moved by a few thousand ULPs either way."""
    x = (k + 0.5) / 10**digits
    for _ in range(abs(ulps) % 50):
        x = math.nextafter(x, math.inf if ulps > 0 else -math.inf)
    x += ulps * 1e-12 * max(1.0, abs(x))
    assert _same(round_to(x, digits), rounding._exact_round_to(x, digits))
    assert round_half_up(x) == rounding._exact_half_up(x)
