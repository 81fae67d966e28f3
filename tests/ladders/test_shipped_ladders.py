"""Every fitted ladder in data/ is what `modelscores ladders fit` makes of the data today:
refitting each gives its file byte for byte (docs/METHODOLOGY.md 1.3)."""

from __future__ import annotations

import pytest
from support.paths import SHIPPED_DATA

from generator.input.load import load_dataset
from generator.input.records import Dataset
from generator.ladders.run import fit_one
from generator.ladders.write import fitted_text


def _fitted() -> list[str]:
    """The benchmark files of data/ that hold a fitted ladder (read as text: no load)."""
    return sorted(
        path.stem
        for path in (SHIPPED_DATA / "benchmarks").glob("*.toml")
        if "\n[ladder_fit]\n" in path.read_text(encoding="utf-8")
    )


FITTED = _fitted()


@pytest.fixture(scope="module")
def shipped() -> Dataset:
    return load_dataset(SHIPPED_DATA)


def test_the_fitted_files_are_the_fitted_benchmarks(shipped: Dataset) -> None:
    assert FITTED == sorted(b.id for b in shipped.benchmarks if b.ladder_fit is not None)


@pytest.mark.skipif(not FITTED, reason="data/ holds no fitted ladder yet")
@pytest.mark.slow  # a fit holds each of its models out in turn: about 2 s each on shipped data
@pytest.mark.parametrize("benchmark_id", FITTED)
def test_refitting_gives_the_stored_ladder_byte_for_byte(
    shipped: Dataset, benchmark_id: str
) -> None:
    benchmark = next(b for b in shipped.benchmarks if b.id == benchmark_id)
    path = SHIPPED_DATA / "benchmarks" / f"{benchmark_id}.toml"
    stored = path.read_text(encoding="utf-8")
    refit = fitted_text(stored, fit_one(shipped, benchmark, None))
    assert refit == stored, (
        f"{path.name}: the data changed under its fitted ladder; run"
        f" `./modelscores ladders fit {benchmark_id} --write` and review the change"
    )
