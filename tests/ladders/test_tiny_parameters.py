"""A fitted figure whose magnitude is under the smallest the data holds is stored as 0: the
optimiser leaves a logistic's floor at 3e-13 for a percent benchmark whose weakest models
score near zero (vals.ai's AIME, GPQA, LiveCodeBench, SWE-bench), and the loader refuses a
number between 0 and 1e-12 (generator/input/load.py MIN_MAGNITUDE)."""

from __future__ import annotations

from generator.input.load import MIN_MAGNITUDE
from generator.ladders.fit import six


def test_a_figure_under_the_datas_smallest_magnitude_is_stored_as_zero() -> None:
    assert six(3.35188e-13) == 0.0
    assert six(-6.33838e-22) == 0.0
    assert six(MIN_MAGNITUDE) == MIN_MAGNITUDE  # the smallest the data holds is kept
    assert six(98.12504) == 98.125  # six significant digits, as before
