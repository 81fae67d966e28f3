"""What the history's months reuse or leave out must not change a number.

`ResultMemo` keeps each model's projected results from one scoring to the next;
`estimate_values` is `estimate_dimensions` without the detail only a model's own documents
show. Both are checked against the plain path on a synthetic catalogue (every month of
it) and on hypothesis-drawn models, and the memo against a changed model.
"""

from __future__ import annotations

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.scoring import iq_results, make_dataset, make_model, standard_benchmarks

from bench.synth import SynthSpec, write_dataset
from generator.input.load import load_dataset
from generator.input.records import Dataset, ModelRecord
from generator.scoring.engine import Estimates, estimate_models, estimate_values
from generator.scoring.history import dataset_as_of, scoring_inputs, snapshot_dates
from generator.scoring.observations import (
    ResultMemo,
    best_results,
    group_by_dimension,
    projections,
)
from generator.scoring.types import DimensionEstimate
from generator.vocabulary import DIMENSION_SLUGS

# What `estimate_values` keeps of each estimate: everything the history and the
# predecessor prior read (the rest stays at its default).
_KEPT = (
    "slug",
    "value",
    "sd",
    "covered",
    "total",
    "imputed",
    "method",
    "evidence",
    "prior_mean",
    "prior_sd",
    "prior_source",
)


@pytest.fixture(scope="module")
def months(tmp_path_factory: pytest.TempPathFactory) -> list[Dataset]:
    """Every month of 150 synthetic models, as the replay scores them (scoring inputs)."""
    data = tmp_path_factory.mktemp("synth") / "data"
    write_dataset(SynthSpec(models=150, benchmarks=14, seed=11), data)
    dataset = load_dataset(data)
    inputs = scoring_inputs(dataset)
    return [dataset_as_of(inputs, date) for date in snapshot_dates(dataset)]


def _kept(estimate: DimensionEstimate) -> tuple[object, ...]:
    return tuple(getattr(estimate, field) for field in _KEPT)


def _assert_values_match(full: Estimates, lean: Estimates) -> None:
    assert full.composites == lean.composites and full.ranks == lean.ranks
    assert full.population == lean.population
    for model_id, estimates in full.dimensions.items():
        assert [_kept(e) for e in estimates] == [_kept(e) for e in lean.dimensions[model_id]]
        for estimate in lean.dimensions[model_id]:
            assert estimate.inputs == estimate.projections == estimate.offsets == ()
            assert estimate.low95 is None and estimate.high95 is None


def test_memo_and_lean_estimates_equal_plain_scoring_every_month(months: list[Dataset]) -> None:
    memo = ResultMemo(months[0].benchmarks, DIMENSION_SLUGS)
    for then in reversed(months):  # newest first, as the replay scores them
        plain = estimate_models(then)
        lean = estimate_models(then, estimate_values, memo)
        assert lean.chosen == plain.chosen and lean.projected == plain.projected
        _assert_values_match(plain, lean)
    scored = sum(len(then.models) for then in months)
    assert scored // 2 < memo.hits < scored  # the memo served, and not always: not vacuous


def test_memo_projects_a_model_again_when_its_results_change() -> None:
    memo = ResultMemo(standard_benchmarks(), DIMENSION_SLUGS)
    before = make_model("m", iq_results(math_a=110, code_a=100))
    after = make_model("m", iq_results(math_a=130, code_a=100))  # same id, another value
    first = memo.results(before)
    assert memo.results(before) is first
    changed = memo.results(after)
    # math_a projects raw x to 100x (tests/support/scoring.py): 1.3 -> 130
    assert changed.projected["math-a"].iq == pytest.approx(130.0)
    assert first.projected["math-a"].iq == pytest.approx(110.0)
    benchmarks = {b.id: b for b in standard_benchmarks()}
    chosen = best_results(after, benchmarks)
    assert changed.chosen == chosen
    assert changed.grouped == group_by_dimension(projections(chosen), benchmarks, DIMENSION_SLUGS)


def test_a_memo_serves_only_its_own_benchmarks() -> None:
    dataset = make_dataset([make_model("m", iq_results(math_a=110))])
    memo = ResultMemo(dataset.benchmarks[1:], DIMENSION_SLUGS)
    with pytest.raises(ValueError, match="one benchmark catalogue"):
        estimate_models(dataset, memo=memo)


_IDS = [b.id for b in standard_benchmarks()]


@st.composite
def _models(draw: st.DrawFn) -> list[ModelRecord]:
    count = draw(st.integers(min_value=1, max_value=7))
    models = []
    for index in range(count):
        chosen = draw(st.lists(st.sampled_from(_IDS), unique=True, max_size=9))
        iqs = {bid.replace("-", "_"): draw(st.floats(60, 170)) for bid in chosen}
        parent = draw(st.sampled_from([None, *(f"m{i}" for i in range(index))]))
        legacy = draw(st.none() | st.floats(70, 160))
        model = make_model(f"m{index}", iq_results(**iqs), predecessor=parent, legacy=legacy)
        models.append(model)
    return models


@settings(max_examples=60, deadline=None)
@given(_models(), st.lists(st.integers(0, 6), max_size=4))
def test_lean_estimates_with_a_shared_memo_equal_plain_ones(
    models: list[ModelRecord], drops: list[int]
) -> None:
    """Scorings of one run sharing a memo, each with some models' last result dropped."""
    memo = ResultMemo(make_dataset(models).benchmarks, DIMENSION_SLUGS)
    for drop in [None, *drops]:
        variant = [
            msgspec.structs.replace(m, results=m.results[:-1]) if i == drop else m
            for i, m in enumerate(models)
        ]
        dataset = make_dataset(variant)
        plain = estimate_models(dataset)
        _assert_values_match(plain, estimate_models(dataset, estimate_values, memo))
        assert estimate_models(dataset, memo=memo) == plain
