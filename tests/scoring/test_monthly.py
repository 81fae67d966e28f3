"""The history's column-wise month scoring (`monthly.py`) gives the plain path's numbers exactly.

`score_snapshot` scores a month's dimensions column-wise; `score_snapshot_plainly` scores one
model at a time with `estimate_values`. Both are compared as msgpack bytes (floats exactly,
-0.0 apart from 0.0) on every month of a synthetic catalogue and on hypothesis-drawn models,
and each estimate's value, sd, evidence and coverage against `estimate_values`.
"""

from __future__ import annotations

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.scoring import (
    iq_results,
    make_benchmark,
    make_dataset,
    make_model,
    standard_benchmarks,
)

from bench.synth import SynthSpec, write_dataset
from generator.input.load import load_dataset
from generator.input.records import Dataset, ModelRecord
from generator.scoring import monthly
from generator.scoring.columns import PLAIN_SUM
from generator.scoring.engine import (
    build_population,
    estimate_models,
    estimate_values,
    gather_results,
)
from generator.scoring.history import (
    dataset_as_of,
    score_snapshot,
    score_snapshot_plainly,
    scoring_inputs,
    snapshot_dates,
)
from generator.scoring.month_population import MonthPopulation, month_population
from generator.scoring.monthly import month_values
from generator.scoring.observations import ResultMemo
from generator.vocabulary import DIMENSION_SLUGS

# Python 3.12's `sum` of floats compensates (Neumaier): there the column-wise path declines
# (`PLAIN_SUM`) and only the tests of that fallback apply.
left_to_right = pytest.mark.skipif(not PLAIN_SUM, reason="sum() compensates on this Python")


def _months(tmp_path_factory: pytest.TempPathFactory) -> list[Dataset]:
    """Every month of 300 synthetic models, as the replay scores them (scoring inputs)."""
    data = tmp_path_factory.mktemp("synth") / "data"
    write_dataset(SynthSpec(models=300, benchmarks=21, seed=5), data)
    dataset = load_dataset(data)
    inputs = scoring_inputs(dataset)
    return [dataset_as_of(inputs, date) for date in snapshot_dates(dataset)]


def _month(dataset: Dataset, memo: ResultMemo | None = None) -> tuple[list[str], MonthPopulation]:
    models, found = gather_results(dataset, memo)
    return list(models), month_population(dataset, [r.flat for r in found.values()])


def _same_population(dataset: Dataset, memo: ResultMemo | None = None) -> None:
    """`month_population` against `build_population`: offsets, noise (and the summaries
    behind it), direct estimates, means and predictor, as msgpack bytes."""
    ids, month = _month(dataset, memo)
    _, found = gather_results(dataset, memo)
    plain = build_population(dataset, {m: r.grouped for m, r in found.items()})
    assert msgspec.msgpack.encode(month.population(ids)) == msgspec.msgpack.encode(plain)


def _same_estimates(dataset: Dataset, memo: ResultMemo | None = None) -> None:
    """`month_values` row by row against `estimate_values`, floats as their bytes."""
    models, _ = gather_results(dataset, memo)
    _, month = _month(dataset, memo)
    values = month_values(models, month, dataset.methodology.parameters)
    assert values is not None
    plain = estimate_models(dataset, estimate_values, memo).dimensions
    for row, model_id in enumerate(models):
        for column, estimate in enumerate(plain[model_id]):
            has = bool(values.has[row, column])
            column_wise = (
                float(values.value[row, column]) if has else None,
                float(values.sd[row, column]) if has else None,
                bool(values.evidence[row, column]),
                int(values.covered[row, column]),
            )
            expected = (estimate.value, estimate.sd, estimate.evidence, estimate.covered)
            assert msgspec.msgpack.encode(column_wise) == msgspec.msgpack.encode(expected)


def _same_snapshot(dataset: Dataset, memo: ResultMemo | None = None) -> None:
    fast = msgspec.msgpack.encode(score_snapshot(dataset, memo))
    assert fast == msgspec.msgpack.encode(score_snapshot_plainly(dataset, memo))


@left_to_right
def test_every_month_of_a_synthetic_catalogue_scores_as_the_plain_path(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    months = _months(tmp_path_factory)
    memo = ResultMemo(months[0].benchmarks, DIMENSION_SLUGS)
    deepest = 0
    for then in reversed(months):  # newest first, as the replay scores them
        _same_snapshot(then, memo)
        _same_population(then, memo)
        _same_estimates(then, memo)
        generations = monthly._generations({m.id: m for m in then.models})
        assert generations is not None
        deepest = max(deepest, len(generations))
    assert len(months) > 40 and deepest >= 4  # many months, lineages several deep


_IDS = [b.id for b in standard_benchmarks()]


@st.composite
def _models(draw: st.DrawFn) -> list[ModelRecord]:
    count = draw(st.integers(min_value=1, max_value=9))
    models = []
    for index in range(count):
        chosen = draw(st.lists(st.sampled_from(_IDS), unique=True, max_size=10))
        iqs = {bid.replace("-", "_"): draw(st.floats(55, 175)) for bid in chosen}
        parent = draw(st.sampled_from([None, *(f"m{i}" for i in range(index))]))
        legacy = draw(st.none() | st.floats(70, 160))
        model = make_model(f"m{index}", iq_results(**iqs), predecessor=parent, legacy=legacy)
        models.append(model)
    return models


@left_to_right
@settings(max_examples=150, deadline=None)
@given(
    _models(),
    st.integers(1, 3),
    st.dictionaries(st.sampled_from(_IDS), st.floats(2, 20), max_size=4),
    st.sampled_from([0.0, 2.0, 5.5]),
)
def test_drawn_models_score_as_the_plain_path(
    models: list[ModelRecord], minimum: int, fixed: dict[str, float], shrinkage: float
) -> None:
    """Lineages, legacy estimates, sparse dimensions, one to three direct dimensions needed,
    benchmarks whose noise the catalogue fixes, several offset shrinkages."""
    benchmarks = [
        msgspec.structs.replace(b, noise=fixed.get(b.id, b.noise)) for b in standard_benchmarks()
    ]
    dataset = make_dataset(
        models, benchmarks, min_direct_dimensions=minimum, offset_shrinkage=shrinkage
    )
    _same_snapshot(dataset)
    _same_population(dataset)
    _same_estimates(dataset)


def test_a_lineage_cycle_is_left_to_the_plain_path() -> None:
    """The loader rejects cycles; were one to come through, the plain path's order stands."""
    a = make_model("a", iq_results(math_a=110, code_a=120), predecessor="b")
    b = make_model("b", iq_results(math_a=100, code_a=90), predecessor="a")
    dataset = make_dataset([a, b])
    models, _ = gather_results(dataset)
    _, month = _month(dataset)
    assert month_values(models, month, dataset.methodology.parameters) is None
    _same_snapshot(dataset)


def test_without_a_left_to_right_sum_the_plain_path_scores(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    dataset = make_dataset([make_model("a", iq_results(math_a=110, code_a=120))])
    models, _ = gather_results(dataset)
    _, month = _month(dataset)
    params = dataset.methodology.parameters
    assert (month_values(models, month, params) is not None) == PLAIN_SUM
    monkeypatch.setattr(monthly, "PLAIN_SUM", False)
    assert month_values(models, month, params) is None
    _same_snapshot(dataset)


def test_a_division_by_zero_is_left_to_the_plain_path() -> None:
    """A noise of 1e-200 squares to 0.0: the plain path's `1 / sigma**2` raises, and the
    column-wise path (whose numpy would give inf, then nan, clamped to IQ 70) declines, so a
    snapshot raises as the plain path does. The loader refuses such a number; only a
    dataset made in code gets here."""
    assert 1e-200**2 == 0.0
    benchmarks = [
        make_benchmark("math-a", "mathematical-reasoning", noise=1e-200) if b.id == "math-a" else b
        for b in standard_benchmarks()
    ]
    dataset = make_dataset([make_model("a", iq_results(math_a=110, code_a=120))], benchmarks)
    models, _ = gather_results(dataset)
    _, month = _month(dataset)
    assert month_values(models, month, dataset.methodology.parameters) is None
    with pytest.raises(ZeroDivisionError):
        score_snapshot_plainly(dataset)
    with pytest.raises(ZeroDivisionError):
        score_snapshot(dataset)


def test_offsets_and_direct_estimates_by_hand() -> None:
    """Math: m1 has math-a 110, math-b 100; m2 has math-a 120 alone (shrinkage 2).

    m1 alone has two results: math-a adds 110 - 100 = 10, math-b adds 100 - 110 = -10, so
    the offsets are 10 / (1 + 2) = 3.33 and -3.33 (m2 is seen, adds nothing). Direct math
    estimates: m1 (110 - 3.33 + 100 + 3.33) / 2 = 105, m2 120 - 3.33 = 116.67.
    """
    m1 = make_model("m1", iq_results(math_a=110, math_b=100))
    m2 = make_model("m2", iq_results(math_a=120))
    dataset = make_dataset([m1, m2])
    _, month = _month(dataset)
    math_column = DIMENSION_SLUGS.index("mathematical-reasoning")
    assert month.offsets["mathematical-reasoning"] == pytest.approx(
        {"math-a": 10 / 3, "math-b": -10 / 3}
    )
    assert month.direct[:, math_column].tolist() == pytest.approx([105.0, 120 - 10 / 3])
    assert month.present[:, math_column].tolist() == [True, True]
    assert not month.present[:, DIMENSION_SLUGS.index("programmatic-reasoning")].any()
    _same_population(dataset)
    _same_snapshot(dataset)


def test_a_month_without_models_scores_nothing() -> None:
    dataset = make_dataset([])
    assert score_snapshot(dataset).models == {}
    _same_snapshot(dataset)
