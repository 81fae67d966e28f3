"""The publish rule (generator/importers/publish.py): one rule for every source, never
unpublishing, and a held draft left as it is."""

from __future__ import annotations

from generator.importers.publish import direct_dimensions, standing

DIMENSION_OF = {"gpqa": "academic", "aime": "math", "swe": "coding", "eq": "emotion"}


def _results(*benchmarks: str) -> list[dict[str, str]]:
    return [{"benchmark": b} for b in benchmarks]


def test_direct_dimensions_count_each_dimension_once_and_skip_unscored_benchmarks() -> None:
    found = direct_dimensions(_results("gpqa", "gpqa", "aime", "elo"), DIMENSION_OF)
    assert found == ("academic", "math")


def test_a_draft_with_enough_dimensions_is_published_whatever_brought_them() -> None:
    state = standing(False, False, _results("aime", "swe"), DIMENSION_OF, 2)
    assert (state.published, state.dimensions) == (True, ("coding", "math"))
    assert state.reason == "direct results in 2 of 7 dimensions (coding, math): 2+ publish it"


def test_a_draft_short_of_the_rule_stays_a_draft_and_says_why() -> None:
    state = standing(False, False, _results("aime"), DIMENSION_OF, 2)
    assert not state.published
    assert state.reason == "direct results in 1 of 7 dimensions (math); 2 are needed to publish"


def test_a_published_model_stays_published_without_results() -> None:
    assert standing(True, False, [], DIMENSION_OF, 2).published


def test_a_held_draft_is_not_promoted() -> None:
    state = standing(False, True, _results("gpqa", "aime", "swe"), DIMENSION_OF, 2)
    assert not state.published and state.reason.startswith("held by hand")
