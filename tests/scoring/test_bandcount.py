"""The vectorised rank-band counts against the definition, pair by pair, on adversarial inputs."""

from __future__ import annotations

import math
from unittest.mock import patch

import numpy as np
from hypothesis import example, given, settings
from hypothesis import strategies as st

from generator.scoring import bandcount
from generator.scoring.bandcount import clear_counts
from generator.scoring.types import RankBand
from generator.scoring.uncertainty import rank_bands


def _z(c_j: float, sd_j: float, c_i: float, sd_i: float) -> float:
    """`z_ji` as METHODOLOGY 3.1 defines it, with Python floats."""
    scale = math.sqrt(sd_i * sd_i + sd_j * sd_j)
    gap = c_j - c_i
    if scale > 0:
        return gap / scale
    return math.copysign(math.inf, gap) if gap else 0.0


def _pairwise(items: list[tuple[float, float]], z: float) -> tuple[list[int], list[int]]:
    """Per model, the models clearly above (`z_ji >= z`) and clearly below (`z_ji <= -z`)."""
    above, below = [], []
    for i, (c_i, sd_i) in enumerate(items):
        scores = [_z(c_j, sd_j, c_i, sd_i) for j, (c_j, sd_j) in enumerate(items) if j != i]
        above.append(sum(s >= z for s in scores))
        below.append(sum(s <= -z for s in scores))
    return above, below


# Scores that tie, sit one float step apart or within the float margin (1e-9) of each other;
# sds that are 0, square to 0 (1e-200), or form 3-4-5 and 5-12-13 triangles, so that with
# binary z many gaps land exactly on z * sqrt(sd_i^2 + sd_j^2).
scores = st.one_of(
    st.sampled_from(
        [100.0, math.nextafter(100.0, 200.0), 100.0 + 1e-9, 100.0 + 2e-9, 99.0, 101.0, 110.0]
    ),
    st.integers(0, 160).map(lambda q: 80 + q / 4),
    st.floats(min_value=0, max_value=200, allow_nan=False),
)
sds = st.one_of(
    st.sampled_from([0.0, 1e-200, 1e-12, 0.75, 1.0, 1.25, 3.0, 4.0, 5.0, 12.0, 13.0]),
    st.floats(min_value=0, max_value=20, allow_nan=False),
)
models = st.lists(st.tuples(scores, sds), max_size=60)


@given(
    models,
    st.sampled_from([0.5, 1.0, 1.96, 2.0, 4.0]),
    st.sampled_from([1e-6, 0.5, 4.0, 1e6]),
    st.sampled_from([1, 7, 1 << 20]),
)
@example([], 1.96, 4.0, 1 << 20)
@example([(100.0, 3.0)], 1.96, 4.0, 1 << 20)
@example([(100.0, 0.0)] * 5 + [(100.5, 0.0)], 2.0, 4.0, 1)
@example([(100.0, 3.0), (110.0, 4.0), (105.0, 4.0), (90.0, 4.0), (100.0, 4.0)], 2.0, 0.5, 7)
# c_j one float step short of c_i + z * scale, yet z_ji >= z; and c_j at c_i + z * scale,
# yet z_ji < z: float rounding the margin (`_EDGE`) must absorb, on either threshold
@example([(10.64380563004188, 0.75), (29.13245465852987, 9.21385021175472)], 2.0, 1e-6, 1 << 20)
@example(
    [(142.40300874343097, 14.978466915630058), (173.6619536298372, 4.463847859215345)],
    2.0,
    1e-6,
    1 << 20,
)
@settings(max_examples=400, deadline=None)
def test_counts_are_the_definitions_on_adversarial_input(
    items: list[tuple[float, float]], z: float, checks: float, pairs: int
) -> None:
    # The group size (`_CHECKS`: one sd per group up to a single group) and the slices of
    # pair checks (`_PAIRS`) change only the work done, never a count.
    with patch.object(bandcount, "_CHECKS", checks), patch.object(bandcount, "_PAIRS", pairs):
        above, below = clear_counts(
            np.array([c for c, _ in items], dtype=np.float64),
            np.array([sd for _, sd in items], dtype=np.float64),
            z,
        )
    assert (above.tolist(), below.tolist()) == _pairwise(items, z)


def test_zero_sds_make_any_gap_clear_and_a_tie_not() -> None:
    # a, b 100 (sd 0); c 100.5 (sd 0); d 99 (sd 1); z = 1.96:
    #   a vs b: gap 0, scale 0: z = 0, neither clear
    #   c vs a, b: gap 0.5, scale 0: z_ca = +inf, c clearly above both (and they below it)
    #   d vs a, b: (99 - 100) / sqrt(0 + 1) = -1; d vs c: -1.5 / 1 = -1.5: not clear
    # a, b: low 1 + #{c} = 2, high 4 - 0 = 4; c: low 1, high 4 - #{a, b} = 2; d: 1 to 4
    bands = rank_bands(
        {"a": (100.0, 0.0), "b": (100.0, 0.0), "c": (100.5, 0.0), "d": (99.0, 1.0)}, 1.96
    )
    assert bands == {
        "a": RankBand(low=2, high=4),
        "b": RankBand(low=2, high=4),
        "c": RankBand(low=1, high=2),
        "d": RankBand(low=1, high=4),
    }


def test_no_models_and_one_model() -> None:
    assert rank_bands({}, 1.96) == {}
    assert rank_bands({"a": (50.0, 0.0)}, 1.96) == {"a": RankBand(low=1, high=1)}


def test_many_tied_models_with_zero_sd_are_counted_in_bounded_slices() -> None:
    # 3,000 models at one score with sd 0 and one just above: every pair of the 3,000 ties
    # (z 0), the one above is +inf over each. Ties are never pair-checked, so this is quick.
    items = [(100.0, 0.0)] * 3000 + [(100.25, 0.0)]
    above, below = clear_counts(
        np.array([c for c, _ in items]), np.array([sd for _, sd in items]), 1.96
    )
    assert above.tolist() == [1] * 3000 + [0]
    assert below.tolist() == [0] * 3000 + [3000]
