"""Every fitted ladder in data/ is what `modelscores ladders fit` makes of the data today:
refitting each gives its file byte for byte (docs/METHODOLOGY.md 1.3)."""

from __future__ import annotations

import pytest
from support.paths import SHIPPED_DATA

from generator.input.load import load_dataset
from generator.ladders.run import fit_one
from generator.ladders.write import fitted_text

FITTED = sorted(b.id for b in load_dataset(SHIPPED_DATA).benchmarks if b.ladder_fit is not None)


@pytest.mark.skipif(not FITTED, reason="data/ holds no fitted ladder yet")
@pytest.mark.parametrize("benchmark_id", FITTED)
def test_refitting_gives_the_stored_ladder_byte_for_byte(benchmark_id: str) -> None:
    dataset = load_dataset(SHIPPED_DATA)
    benchmark = next(b for b in dataset.benchmarks if b.id == benchmark_id)
    path = SHIPPED_DATA / "benchmarks" / f"{benchmark_id}.toml"
    stored = path.read_text(encoding="utf-8")
    refit = fitted_text(stored, fit_one(dataset, benchmark, None))
    assert refit == stored, (
        f"{path.name}: the data changed under its fitted ladder; run"
        f" `./modelscores ladders fit {benchmark_id} --write` and review the change"
    )
