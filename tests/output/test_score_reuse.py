"""Today's scores from their kept price-independent part equal full scoring, byte for byte.

`reuse_scores` takes `score_models`' part from the file beside the site
(`generator/cache/scores.py`) when the scoring inputs and the code are the ones it
was kept under, and recomputes only cost and domains. A price edit must be served from
the file; any change to a scoring input must not be; a damaged file must read as empty.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import msgspec
import pytest
from support.paths import FIXTURE_DATA

from bench.synth import SynthSpec, write_dataset
from generator.cache.scores import KeptScores, kept_scores_path, reuse_scores
from generator.input.load import load_dataset
from generator.input.records import Dataset, ModelRecord
from generator.scoring import compute_scores

Change = Callable[[Dataset], Dataset]


@pytest.fixture(scope="module", params=["fixture", "synthetic"])
def dataset(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Dataset:
    """tests/data, and 120 synthetic models with lineages, legacy values and prices."""
    if request.param == "fixture":
        return load_dataset(FIXTURE_DATA)
    data = tmp_path_factory.mktemp("synth") / "data"
    write_dataset(SynthSpec(models=120, benchmarks=14, seed=7), data)
    return load_dataset(data)


def _full(dataset: Dataset) -> bytes:
    return msgspec.msgpack.encode(compute_scores(dataset))


def _kept(dataset: Dataset, out: Path) -> None:
    """A build's score stage on `dataset`: the kept part written beside `out`."""
    store = KeptScores(out)
    reuse_scores(dataset, store)
    assert not store.hit and kept_scores_path(out).is_file()


def _with_model(dataset: Dataset, pick: Callable[[ModelRecord], bool], change: Change) -> Dataset:
    """`dataset` with the first model (by id) that `pick` accepts changed by `change`."""
    target = min((m for m in dataset.models if pick(m)), key=lambda m: m.id)
    models = tuple(change(m) if m is target else m for m in dataset.models)  # type: ignore[arg-type]
    return msgspec.structs.replace(dataset, models=models)


def _price(dataset: Dataset) -> Dataset:
    def raise_output(model: ModelRecord) -> ModelRecord:
        prices = model.prices
        output = prices.output * 1.01 if prices.output is not None else None
        return msgspec.structs.replace(model, prices=msgspec.structs.replace(prices, output=output))

    return _with_model(dataset, lambda m: bool(m.prices.output), raise_output)  # type: ignore[arg-type]


def test_a_price_change_is_served_from_the_kept_part(dataset: Dataset, tmp_path: Path) -> None:
    out = tmp_path / "site_out"
    _kept(dataset, out)
    changed = _price(dataset)
    store = KeptScores(out)
    scores = reuse_scores(changed, store)
    assert store.hit
    assert msgspec.msgpack.encode(scores) == _full(changed) != _full(dataset)


def test_the_kept_part_reads_no_price(dataset: Dataset, tmp_path: Path) -> None:
    """Kept before a price change, reused after it: still the full scoring's bytes."""
    out = tmp_path / "site_out"
    _kept(_price(dataset), out)
    store = KeptScores(out)
    assert msgspec.msgpack.encode(reuse_scores(dataset, store)) == _full(dataset)
    assert store.hit


def _result(change: Callable[[object], dict[str, object]]) -> Change:
    """A change to the first result of the first model (by id) with results."""

    def apply(dataset: Dataset) -> Dataset:
        def edit(model: ModelRecord) -> ModelRecord:
            first = msgspec.structs.replace(model.results[0], **change(model.results[0]))
            return msgspec.structs.replace(model, results=[first, *model.results[1:]])

        return _with_model(dataset, lambda m: bool(m.results), edit)

    return apply


def _benchmark_noise(dataset: Dataset) -> Dataset:
    used = {r.benchmark for m in dataset.models for r in m.results}
    target = min(b.id for b in dataset.benchmarks if b.category == "iq" and b.id in used)
    benchmarks = tuple(
        msgspec.structs.replace(b, noise=1.5) if b.id == target else b for b in dataset.benchmarks
    )
    return msgspec.structs.replace(dataset, benchmarks=benchmarks)


def _parameter(dataset: Dataset) -> Dataset:
    methodology = dataset.methodology
    parameters = msgspec.structs.replace(methodology.parameters, interval_z=1.5)
    return msgspec.structs.replace(
        dataset, methodology=msgspec.structs.replace(methodology, parameters=parameters)
    )


def _lineage(dataset: Dataset) -> Dataset:
    return _with_model(
        dataset,
        lambda m: m.lineage is not None and m.lineage.predecessor is not None,
        lambda m: msgspec.structs.replace(m, lineage=None),  # type: ignore[arg-type]
    )


SCORING_INPUTS: dict[str, Change] = {
    "result value": _result(lambda r: {"value": r.value * 0.97}),  # type: ignore[attr-defined]
    "result source": _result(lambda r: {"source_url": "https://example.org/other"}),
    "benchmark noise": _benchmark_noise,
    "methodology parameter": _parameter,
    "lineage": _lineage,
}


@pytest.mark.parametrize("name", sorted(SCORING_INPUTS))
def test_a_scoring_input_change_is_scored_again(
    name: str, dataset: Dataset, tmp_path: Path
) -> None:
    changed = SCORING_INPUTS[name](dataset)
    # Not vacuous: the published scores differ, so a kept part served here would be wrong.
    assert _full(changed) != _full(dataset)
    out = tmp_path / "site_out"
    _kept(dataset, out)
    store = KeptScores(out)
    scores = reuse_scores(changed, store)
    assert not store.hit
    assert msgspec.msgpack.encode(scores) == _full(changed)


def _truncate(path: Path) -> None:
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])


def _edit(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[-20] ^= 1  # inside the encoded scores: their digest no longer matches
    path.write_bytes(bytes(data))


def _malformed(path: Path) -> None:
    path.write_bytes(b"\x93\x01\xc4\x00\xc4\x00")  # msgpack, but an entry short of its scores


DAMAGE: dict[str, Callable[[Path], None]] = {
    "missing": lambda path: path.unlink(),
    "truncated": _truncate,
    "edited": _edit,
    "malformed": _malformed,
}


@pytest.mark.parametrize("name", sorted(DAMAGE))
def test_a_damaged_file_reads_as_empty(name: str, dataset: Dataset, tmp_path: Path) -> None:
    out = tmp_path / "site_out"
    _kept(dataset, out)
    DAMAGE[name](kept_scores_path(out))
    store = KeptScores(out)
    assert msgspec.msgpack.encode(reuse_scores(dataset, store)) == _full(dataset)
    assert not store.hit


def test_other_code_is_not_served(dataset: Dataset, tmp_path: Path) -> None:
    """The key commits to the generator's version: another version scores again."""
    out = tmp_path / "site_out"
    _kept(dataset, out)
    store = KeptScores(out)
    store.code = b"another version"
    reuse_scores(dataset, store)
    assert not store.hit
