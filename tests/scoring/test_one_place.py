"""Each scoring rule and parameter lives in one place: live scores and the history follow it.

The history replay scores each month end with the engine's own functions, so a methodology
parameter changed in the data, or a rule changed where it is written, moves today's scores and
every replayed snapshot alike (no second copy of the engine to forget).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from pathlib import Path

import pytest
from support.history import published

from bench.synth import SynthSpec, write_dataset
from generator.input.load import load_dataset
from generator.input.records import Dataset
from generator.scoring import compute_scores, uncertainty
from generator.scoring.history import Snapshot, SnapshotScores, dataset_as_of, replay
from generator.scoring.ladder import IQ_MAX, IQ_MIN


def _data(root: Path, cross_scale: int | None = None) -> Dataset:
    """A synthetic catalogue (40 models over many months), `sigma_cross_scale` set in its
    `methodology.toml` when given."""
    data = root / "data"
    write_dataset(SynthSpec(models=40, benchmarks=10, seed=3), data)
    if cross_scale is not None:
        path = data / "methodology.toml"
        text, count = re.subn(
            r"(?m)^sigma_cross_scale = .*$", f"sigma_cross_scale = {cross_scale}", path.read_text()
        )
        assert count == 1
        path.write_text(text)
    return load_dataset(data)


def _month_by_month(dataset: Dataset, snapshots: Sequence[Snapshot]) -> list[SnapshotScores]:
    """Each snapshot's month scored as today's scores are (`compute_scores`)."""
    return [published(compute_scores(dataset_as_of(dataset, s.date))) for s in snapshots]


@pytest.fixture(scope="module")
def shipped_rules(tmp_path_factory: pytest.TempPathFactory) -> tuple[Dataset, list[Snapshot]]:
    dataset = _data(tmp_path_factory.mktemp("base"))
    return dataset, replay(dataset)


def test_a_parameter_changed_in_the_data_moves_live_scores_and_every_snapshot(
    tmp_path: Path, shipped_rules: tuple[Dataset, list[Snapshot]]
) -> None:
    base, before = shipped_rules
    changed = _data(tmp_path, cross_scale=20)  # the synthetic data's 100: C's sd 10 -> 3.2
    assert changed.methodology.parameters.sigma_cross_scale == 20.0
    live_before, live_after = compute_scores(base), compute_scores(changed)
    moved = [
        m for m, s in live_after.models.items() if s.composite != live_before.models[m].composite
    ]
    assert len(moved) > len(live_after.models) // 4  # the parameter is read: not vacuous
    after = replay(changed)
    assert [s.date for s in after] == [s.date for s in before]
    # Every snapshot is what the live scoring gives for its month, under the new parameter.
    assert [s.scores for s in after] == _month_by_month(changed, after)
    differs = [a.scores != b.scores for a, b in zip(after, before, strict=True)]
    ranked = [any(m.rank is not None for m in s.scores.models.values()) for s in after]
    assert differs == ranked  # every month with a ranked model moved, and only those


def test_a_rule_changed_in_its_one_place_moves_live_scores_and_every_snapshot(
    monkeypatch: pytest.MonkeyPatch, shipped_rules: tuple[Dataset, list[Snapshot]]
) -> None:
    dataset, before = shipped_rules
    z = dataset.methodology.parameters.interval_z
    # The composite sd rule made a constant 2.5 where it is written (`uncertainty.composite_sd`).
    monkeypatch.setattr(uncertainty, "composite_sd", lambda sds, imputed, rho: 2.5)
    live = compute_scores(dataset)
    after = replay(dataset)
    ranked = [s for s in live.models.values() if s.rank is not None]
    assert ranked and all(s.composite_sd == 2.5 for s in ranked)
    checked = 0
    for snapshot, old in zip(after, before, strict=True):
        for model in snapshot.scores.models.values():
            if model.rank is None:
                assert model.composite_sd is None
                continue
            assert model.composite is not None
            # the range follows the rule too: composite -/+ z * 2.5, clamped to the scale
            low = min(IQ_MAX, max(IQ_MIN, model.composite - z * 2.5))
            high = min(IQ_MAX, max(IQ_MIN, model.composite + z * 2.5))
            assert (model.composite_sd, model.composite_low95, model.composite_high95) == (
                2.5,
                low,
                high,
            )
            assert old.scores.models[model.model_id].composite_sd != 2.5
            checked += 1
    assert checked > 100 and math.isclose(z, 1.96)
    assert [s.scores for s in after] == _month_by_month(dataset, after)
