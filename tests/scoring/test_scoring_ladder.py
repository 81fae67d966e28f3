"""Projection onto the IQ scale and rounding (METHODOLOGY section 1, 3)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from generator.scoring import project, round_half_up, round_to
from generator.scoring.ladder import clamp_iq

UP = [10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0]
DOWN = [60.0, 50.0, 40.0, 30.0, 20.0, 10.0, 5.0]


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (25.0, 92.5),  # between 20 (IQ 85) and 30 (IQ 100): 85 + 15 * (25 - 20) / 10
        (30.0, 100.0),  # exactly on a ladder point
        (44.0, 121.0),  # 115 + 15 * (44 - 40) / 10
        (10.0, 70.0),  # the IQ-70 point itself
        (5.0, 70.0),  # below the IQ-70 point: clamped
        (70.0, 160.0),  # the IQ-160 point itself
        (95.0, 160.0),  # above the IQ-160 point: clamped
    ],
    ids=["interpolate", "on-point", "upper-segment", "floor", "below", "ceiling", "above"],
)
def test_project_higher_is_better(raw: float, expected: float) -> None:
    assert project(UP, "higher_is_better", raw) == pytest.approx(expected)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (35.0, 107.5),  # between 40 (IQ 100) and 30 (IQ 115): 100 + 15 * (40 - 35) / 10
        (7.5, 152.5),  # between 10 (IQ 145) and 5 (IQ 160): 145 + 15 * (10 - 7.5) / 5
        (60.0, 70.0),  # the worst ladder point
        (75.0, 70.0),  # worse than the IQ-70 point: clamped
        (1.0, 160.0),  # better than the IQ-160 point: clamped
    ],
    ids=["interpolate", "top-segment", "floor", "below", "above"],
)
def test_project_lower_is_better_mirrors(raw: float, expected: float) -> None:
    assert project(DOWN, "lower_is_better", raw) == pytest.approx(expected)


def test_project_real_ladder_interpolates_inside_segment() -> None:
    # ARC-AGI-1 ladder: 0.5 lies between 0.462818 (IQ 100) and 0.798322 (IQ 115):
    # 100 + 15 * (0.5 - 0.462818) / (0.798322 - 0.462818) = 100 + 15 * 0.037182 / 0.335504
    ladder = [0.0392151, 0.157912, 0.462818, 0.798322, 0.94788, 0.988174, 0.997402]
    assert project(ladder, "higher_is_better", 0.5) == pytest.approx(101.6623, abs=1e-4)


def test_project_rejects_a_short_ladder() -> None:
    with pytest.raises(ValueError, match="7 points"):
        project([1.0, 2.0], "higher_is_better", 1.5)


def test_clamp_iq() -> None:
    assert (clamp_iq(65.0), clamp_iq(100.0), clamp_iq(170.0)) == (70.0, 100.0, 160.0)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (114.5, 115),  # exactly half: up
        (114.49999, 114),
        (115.5, 116),  # half up, not to even
        (0.5, 1),
        (109.05, 109),
        (-0.5, 0),  # half up is toward +infinity
        (102.49999999999999, 103),  # float noise of an exact 102.5: still up
        (102.4999, 102),
        (1e20 + 0.0, 100000000000000000000),  # large values keep every digit
    ],
)
def test_round_half_up(value: float, expected: int) -> None:
    assert round_half_up(value) == expected


@pytest.mark.parametrize(
    ("value", "digits", "expected"),
    [
        (2.675, 2, 2.68),  # prints as 2.675 -> 2.68 (Python's round gives 2.67)
        (0.00125, 4, 0.0013),
        (7.499999, 4, 7.5),
        (0.1 + 0.2, 6, 0.3),  # 0.30000000000000004 -> 0.3
        (123456789.123456, 4, 123456789.1235),
    ],
)
def test_round_to(value: float, digits: int, expected: float) -> None:
    assert round_to(value, digits) == expected


_ladders = st.lists(
    st.floats(min_value=-1e6, max_value=1e6, allow_nan=False), min_size=7, max_size=7, unique=True
).map(sorted)
_raw = st.floats(min_value=-2e6, max_value=2e6, allow_nan=False)


@given(_ladders, _raw, _raw)
def test_projection_is_monotone_and_bounded(ladder: list[float], a: float, b: float) -> None:
    low, high = min(a, b), max(a, b)
    up_low, up_high = (
        project(ladder, "higher_is_better", low),
        project(ladder, "higher_is_better", high),
    )
    assert 70.0 <= up_low <= up_high <= 160.0
    down = list(reversed(ladder))
    down_low = project(down, "lower_is_better", low)
    down_high = project(down, "lower_is_better", high)
    assert 160.0 >= down_low >= down_high >= 70.0


@given(st.floats(min_value=-1e9, max_value=1e9, allow_nan=False))
def test_round_half_up_is_the_nearest_integer(x: float) -> None:
    rounded = round_half_up(x)
    assert -0.5 - 1e-9 <= rounded - x <= 0.5 + 1e-9
    if abs((x % 1) - 0.5) > 1e-6:  # away from a tie: same as floor(x + 0.5)
        assert rounded == math.floor(x + 0.5)
