"""Raw-value checks (generator/input/values.py): bounds per benchmark; efforts are labels.

The bad-data corpus covers each error's exact line through a build; these cover what is
accepted (efforts mixed within a family, an unbounded time) and reasoning-configuration values.
"""

from __future__ import annotations

import datetime as dt

from generator.input.loaded import Loaded, Records
from generator.input.records import (
    BenchmarkRecord,
    BenchmarkResultRecord,
    ModelRecord,
    ReasoningConfigurationRecord,
)
from generator.input.values import check_values

DAY = dt.date(2026, 1, 1)
LADDER = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7]


def _bench(
    bench_id: str, field: str, high: float | None = 1.0, family: str = "quiz"
) -> BenchmarkRecord:
    return BenchmarkRecord(
        id=bench_id,
        field=field,
        name=bench_id,
        category="iq",
        dimension="academic-reasoning",
        direction="higher_is_better",
        family=family,
        min_value=0.0,
        max_value=high,
        ladder=LADDER,
        source_name="Test",
        source_url="https://example.org/",
        updated=dt.datetime(2026, 1, 1, tzinfo=dt.UTC),
    )


def _result(bench: str, value: float, effort: str, why: str | None = None) -> BenchmarkResultRecord:
    return BenchmarkResultRecord(
        benchmark=bench,
        value=value,
        source_name="Test",
        source_url="https://example.org/",
        as_of=DAY,
        effort=effort,
        mixed_effort=why,
    )


def _records(
    results: list[BenchmarkResultRecord],
    configs: list[ReasoningConfigurationRecord] | None = None,
    benches: list[BenchmarkRecord] | None = None,
) -> Records:
    model = ModelRecord(
        id="m",
        name="M",
        provider="P",
        country="C",
        open_weights=False,
        updated=dt.datetime(2026, 1, 2, tzinfo=dt.UTC),
        results=results,
        reasoning_configurations=configs or [],
    )
    benches = benches or [_bench("a", "a"), _bench("b", "b")]
    return Records(
        models=[Loaded("m.toml", model)],
        benchmarks=[Loaded(f"{b.id}.toml", b) for b in benches],
    )


def test_one_effort_per_family_passes() -> None:
    assert check_values(_records([_result("a", 0.5, "high"), _result("b", 0.4, "high")])) == []


def test_efforts_mixed_within_a_family_are_labels_not_errors() -> None:
    # METHODOLOGY 1.1 (version 3): each benchmark takes the model's best row at any setting
    records = _records([_result("a", 0.5, "high"), _result("b", 0.4, "low")])
    assert check_values(records) == []
    why = "the source has no common setting"
    stated = _records([_result("a", 0.5, "high", why), _result("b", 0.4, "low")])
    assert check_values(stated) == []


def test_efforts_in_different_families_do_not_mix() -> None:
    benches = [_bench("a", "a", family="one"), _bench("b", "b", family="two")]
    records = _records([_result("a", 0.5, "high"), _result("b", 0.4, "low")], benches=benches)
    assert check_values(records) == []


def test_a_benchmark_without_upper_bound_accepts_any_large_value() -> None:
    benches = [_bench("a", "a", high=None), _bench("b", "b")]
    assert check_values(_records([_result("a", 1e6, "high")], benches=benches)) == []


def test_reasoning_configuration_values_are_bounded_too() -> None:
    config = ReasoningConfigurationRecord(
        id="m-high",
        source_model="m",
        source_model_id="m_high",
        effort_key="high",
        reasoning=True,
        values={"a": 0.5, "b": 1.2},
    )
    assert check_values(_records([], [config])) == [
        "m.toml: reasoning_configurations[0].values.b: 1.2 is outside the bounds [0.0, 1.0]"
        " of benchmark 'b'"
    ]
