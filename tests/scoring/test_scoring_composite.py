"""Composite, coverage counts and the rank rule (METHODOLOGY section 3)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from generator.scoring import rank_entries
from generator.scoring.composite import (
    composite_score,
    direct_dimension_count,
    evidence_dimension_count,
)
from generator.scoring.types import DimensionEstimate, RankedEntry


def dim(value: float | None, covered: int = 0, evidence: bool | None = None) -> DimensionEstimate:
    return DimensionEstimate(
        slug="d",
        value=value,
        sd=None,
        covered=covered,
        total=2,
        imputed=covered < 1,
        method="test",
        evidence=covered > 0 if evidence is None else evidence,
    )


def test_composite_mean_includes_imputed_dimensions() -> None:
    # (120 + 110 + 5 * 100) / 7 = 730 / 7 = 104.2857
    dims = [dim(120, 1), dim(110, 2), *[dim(100) for _ in range(5)]]
    assert composite_score(dims, 2) == pytest.approx(730 / 7)


def test_composite_needs_min_direct_dimensions() -> None:
    dims = [dim(120, 1), *[dim(100) for _ in range(6)]]
    assert composite_score(dims, 2) is None  # one direct dimension < 2
    assert composite_score(dims, 1) == pytest.approx(720 / 7)  # (120 + 6 * 100) / 7


def test_composite_needs_every_dimension_estimated() -> None:
    dims = [dim(120, 1), dim(110, 1), dim(None), *[dim(100) for _ in range(4)]]
    assert composite_score(dims, 2) is None


def test_coverage_counts() -> None:
    dims = [dim(120, 1), dim(110, 3), dim(100, 0, evidence=True), *[dim(100) for _ in range(4)]]
    assert (direct_dimension_count(dims), evidence_dimension_count(dims)) == (2, 3)


def test_ranks_higher_is_better_ties_by_id() -> None:
    ranked = rank_entries([("b", 110), ("a", 110), ("c", 120), ("d", 90)], "higher_is_better")
    assert ranked == [
        RankedEntry(model_id="c", rank=1, score=120),
        RankedEntry(model_id="a", rank=2, score=110),  # tie with b: id ascending
        RankedEntry(model_id="b", rank=3, score=110),
        RankedEntry(model_id="d", rank=4, score=90),
    ]


def test_ranks_lower_is_better_ties_by_id() -> None:
    ranked = rank_entries([("z", 0.5), ("y", 2.0), ("x", 0.5)], "lower_is_better")
    assert [(e.model_id, e.rank) for e in ranked] == [("x", 1), ("z", 2), ("y", 3)]


def test_ranks_of_nothing() -> None:
    assert rank_entries([], "higher_is_better") == []


@given(
    st.dictionaries(st.text("abcdef", min_size=1, max_size=4), st.integers(70, 160), max_size=30),
    st.sampled_from(["higher_is_better", "lower_is_better"]),
)
def test_ranks_agree_with_scores_and_tie_rule(scores: dict[str, int], direction: str) -> None:
    ranked = rank_entries(list(scores.items()), direction)  # type: ignore[arg-type]
    assert [e.rank for e in ranked] == list(range(1, len(scores) + 1))
    assert {e.model_id: e.score for e in ranked} == scores
    sign = -1 if direction == "higher_is_better" else 1
    keys = [(sign * e.score, e.model_id) for e in ranked]
    assert keys == sorted(keys)
