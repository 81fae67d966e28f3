"""Field-by-field decoding: every bad field reported, values shown, a repaired record kept."""

from __future__ import annotations

import datetime as dt

from generator.errors import problem_order
from generator.input.decode import decode, shown, suggest
from generator.input.records import BenchmarkRecord, ModelRecord

UPDATED = dt.datetime(2026, 1, 10, tzinfo=dt.UTC)


def _model(**changes: object) -> dict[str, object]:
    raw: dict[str, object] = {
        "id": "m-1",
        "name": "M 1",
        "provider": "P",
        "country": "X",
        "open_weights": False,
        "updated": UPDATED,
        "prices": {"input": 1.0, "output": 2.0},
        "results": [
            {
                "benchmark": "b-1",
                "value": 0.5,
                "source_name": "s",
                "source_url": "https://example.org",
                "as_of": dt.date(2026, 1, 1),
            },
            {
                "benchmark": "b-2",
                "value": 0.6,
                "source_name": "s",
                "source_url": "https://example.org",
                "as_of": dt.date(2026, 1, 1),
            },
        ],
    }
    raw.update(changes)
    return raw


def test_a_valid_file_decodes_in_one_pass_with_no_problem() -> None:
    decoded = decode(_model(), ModelRecord)
    assert decoded.problems == []
    assert decoded.record.prices.input == 1.0


def test_every_bad_field_is_reported_and_the_rest_is_kept() -> None:
    raw = _model(prices={"input": -3.0, "output": 2.0}, contxt_window=5, open_weights="no")
    raw["results"][1]["value"] = "high"  # type: ignore[index]
    decoded = decode(raw, ModelRecord)
    assert decoded.problems == [
        ("contxt_window", "unknown field (did you mean 'context_window'?)"),
        ("open_weights", 'Expected `bool`, got `str` (value: "no")'),
        ("prices.input", "Expected `float` >= 0.0 (value: -3.0)"),
        ("results[1].value", 'Expected `float`, got `str` (value: "high")'),
    ]
    # repaired: the bad optional price takes its default, the bad required flag and
    # value take placeholders; the good fields survive for the cross-record checks
    record = decoded.record
    assert (record.prices.input, record.prices.output) == (None, 2.0)
    assert [r.benchmark for r in record.results] == ["b-1", "b-2"]
    assert decoded.placeholders == {"open_weights", "results[1].value"}


def test_a_result_row_that_cannot_be_repaired_is_left_out() -> None:
    raw = _model()
    raw["results"][1]["benchmark"] = "Not A Slug"  # type: ignore[index]
    decoded = decode(raw, ModelRecord)
    assert [r.benchmark for r in decoded.record.results] == ["b-1"]


def test_a_bad_id_or_a_bad_required_table_leaves_no_record() -> None:
    assert decode(_model(id="Not A Slug"), ModelRecord).record is None
    assert decode(_model(results="none"), ModelRecord).record is not None  # list placeholder
    bad_lineage = decode(_model(lineage={"family": "f"}), ModelRecord)
    assert bad_lineage.problems == [("lineage.generation", "missing")]
    assert bad_lineage.record.lineage is None  # optional: dropped, the record stays


def test_already_reported_values_are_not_reported_twice() -> None:
    raw = {
        "id": "b-1",
        "field": "b1",
        "name": "B",
        "category": "iq",
        "dimension": "reliability",
        "direction": "higher_is_better",
        "ladder": [float("nan"), 1, 2, 3, 4, 5, 6],
        "source_name": "s",
        "source_url": "https://example.org",
        "updated": UPDATED,
    }
    decoded = decode(raw, BenchmarkRecord, reported=["ladder[0]"])
    assert decoded.problems == []
    assert decoded.placeholders == frozenset()  # an optional field: left out, not stood in for
    assert decoded.record.ladder == []  # (left out: an unscored benchmark)
    assert decoded.record.dimension == "reliability"


def test_a_bad_table_value_is_named_by_its_key() -> None:
    config = {
        "id": "c",
        "source_model": "m",
        "source_model_id": "m",
        "effort_key": "high",
        "reasoning": True,
        "values": {"gpqa": 0.5, "arcAgi1": "x"},
    }
    decoded = decode(_model(reasoning_configurations=[config]), ModelRecord)
    assert decoded.problems == [
        (
            "reasoning_configurations[0].values.arcAgi1",
            'Expected `float`, got `str` (value: "x")',
        )
    ]


def test_suggestions_name_only_the_closest_matches() -> None:
    known = ["academic-reasoning", "mathematical-reasoning", "programmatic-reasoning"]
    assert suggest("academic-reasonin", known) == " (did you mean 'academic-reasoning'?)"
    assert suggest("alpha-0", ["alpha-1", "alpha-2", "zeta"]) == (
        " (did you mean 'alpha-2', 'alpha-1'?)"
    )
    assert suggest("quux", known) == ""


def test_values_are_shown_as_written_in_toml_and_shortened() -> None:
    assert shown(True) == "true"
    assert shown("a b") == '"a b"'
    assert shown(dt.date(2026, 1, 2)) == "2026-01-02"
    assert shown([1, 2]) == "a list of 2"
    assert shown("x" * 100) == '"' + "x" * 58 + "…"


def test_problems_sort_by_file_then_field_with_numbers_in_order() -> None:
    lines = [
        "b.toml: id: x",
        "a.toml: results[10].value: x",
        "a.toml: results[9].value: x",
        "a.toml: name: x",
    ]
    assert sorted(lines, key=problem_order) == [
        "a.toml: name: x",
        "a.toml: results[9].value: x",
        "a.toml: results[10].value: x",
        "b.toml: id: x",
    ]
