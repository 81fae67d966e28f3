"""`dimension_scores_many` (a month's dimension IQs rounded together) equals `dimension_scores`
row by row, with values missing or not, on and next to a .5."""

from __future__ import annotations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from generator.documents.models import dimension_scores, dimension_scores_many

VALUE = (
    st.none()
    | st.floats(min_value=-1e7, max_value=1e7, allow_nan=False, allow_infinity=False)
    | st.builds(lambda k, ulps: (k + 0.5) + ulps * 2e-14, st.integers(40, 200), st.integers(-9, 9))
)


@given(st.lists(st.tuples(*[VALUE] * 7), max_size=12))
@example([])
@example([(114.5, 102.49999999999999, 102.49, None, None, 99.5, 1e9)])
def test_rows_rounded_together_equal_each_row(rows: list[tuple[float | None, ...]]) -> None:
    assert dimension_scores_many(rows) == [dimension_scores(row) for row in rows]


def test_a_row_not_seven_long_is_refused() -> None:
    with pytest.raises(ValueError, match="not 7 long"):
        dimension_scores_many([(100.0,) * 7, (100.0,) * 6])
