"""`history_inputs`: the key of the history's documents covers everything they are made from.

Two datasets with the same `history_inputs` must give the same `history_part`: here every
field the key leaves out is changed (prices, usage, aliases, provenance, texts the history
does not show), and the documents must not move. A field the documents read but the key
missed would make them differ (`tests/output/test_history_reuse.py` shows what a build
with such a key would publish).
"""

from __future__ import annotations

import msgspec
from support.paths import FIXTURE_DATA

from generator.api.urls import SiteConfig
from generator.documents.assemble import history_inputs, history_part, history_paths
from generator.input.load import load_dataset
from generator.input.records import (
    BenchmarkResultRecord,
    Dataset,
    ModelRecord,
    PricesRecord,
    SpeedRecord,
)
from generator.scoring.history import replay

replace = msgspec.structs.replace


def _result(r: BenchmarkResultRecord) -> BenchmarkResultRecord:
    return replace(
        r,
        source_name="Elsewhere",
        source_url="https://example.org/elsewhere",
        harness=None if r.harness else "other-harness",
        source_model="other",
        note="a note",
        row_id="row-9",
        pinned=not r.pinned,
    )


def _model(m: ModelRecord) -> ModelRecord:
    return replace(
        m,
        aliases=[f"{m.id}-other"],
        country="Elsewhere",
        parameters_b=7.0,
        active_parameters_b=None,
        context_window=4096,
        max_output_tokens=None,
        knowledge_cutoff="2020",
        open_weights=not m.open_weights,
        prices=PricesRecord(),
        usage=None,
        speed=SpeedRecord(),
        revisions=[],
        reasoning_configurations=[],
        results=[_result(r) for r in m.results],
    )


def _unshown(dataset: Dataset) -> Dataset:
    """`dataset` with every field outside `history_inputs` changed."""
    methodology = replace(
        dataset.methodology, summary="Another summary", cost_unit="EUR", rules=["another rule"]
    )
    benchmarks = tuple(
        replace(b, name="B", description="D", source_name="S", source_url="https://example.org/s")
        for b in dataset.benchmarks
    )
    return replace(
        dataset,
        methodology=methodology,
        benchmarks=benchmarks,
        models=tuple(_model(m) for m in dataset.models),
        charts=(),
    )


def test_what_the_key_leaves_out_does_not_move_the_history() -> None:
    dataset = load_dataset(FIXTURE_DATA)
    other = _unshown(dataset)
    assert other != dataset
    assert history_inputs(other) == history_inputs(dataset)
    config = SiteConfig()
    made = history_part(dataset, replay(dataset), config)
    assert history_part(other, replay(other), config) == made
    assert [path for _, path in history_paths(dataset)] == list(made)


def test_what_the_history_shows_moves_the_key() -> None:
    dataset = load_dataset(FIXTURE_DATA)
    key = history_inputs(dataset)
    first = dataset.models[0]
    for model in (
        replace(first, name="Renamed"),
        replace(first, provider="Another lab"),
        replace(first, release_date=None),
        replace(first, results=first.results[1:]),
        replace(first, results=[replace(first.results[0], value=first.results[0].value / 2)]),
        replace(first, results=[replace(first.results[0], as_of_kind="not-before")]),
    ):
        edited = replace(dataset, models=(model, *dataset.models[1:]))
        assert history_inputs(edited) != key, model
