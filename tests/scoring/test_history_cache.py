"""The history's snapshots: scored from their inputs alone, and reused only when those match.

Each snapshot is scored by `score_snapshot` from `scoring_inputs` (the dataset without what
that scoring never reads); both must give exactly what `compute_scores` publishes for the
dataset as it stood then. The snapshot cache (`generator/cache/snapshots.py`) may then
only ever save work: a damaged, foreign or stale entry is scored again.
"""

from __future__ import annotations

import datetime as dt
import shutil
from collections.abc import Callable
from pathlib import Path

import msgspec
import pytest
from support.history import published
from support.paths import FIXTURE_DATA

from bench.synth import SynthSpec, write_dataset
from generator.api.urls import SiteConfig
from generator.build import build_site
from generator.cache.manifest import history_cache_path
from generator.cache.snapshots import SnapshotCache
from generator.digests import digest
from generator.input.load import load_dataset
from generator.input.records import Dataset
from generator.output.pool import map_ordered
from generator.scoring import compute_scores
from generator.scoring.history import (
    HELD,
    Snapshot,
    SnapshotScores,
    _SnapshotKeys,
    dataset_as_of,
    replay,
    replay_months,
    score_snapshot,
    scoring_inputs,
)

CODE = b"test code version"


@pytest.fixture(scope="module")
def synthetic(tmp_path_factory: pytest.TempPathFactory) -> Dataset:
    """120 synthetic models with results spread over many months, lineages and legacy values."""
    data = tmp_path_factory.mktemp("synth") / "data"
    write_dataset(SynthSpec(models=120, benchmarks=14, seed=7), data)
    return load_dataset(data)


@pytest.fixture(scope="module")
def replayed(synthetic: Dataset) -> list[Snapshot]:
    """`replay(synthetic)` with no cache, computed once: the tests below only read it (the
    first test checks it against full scoring of every month)."""
    return replay(synthetic)


def _reference(dataset: Dataset) -> list[SnapshotScores]:
    """Every month scored in full by `compute_scores`, reduced to what history publishes."""
    return [published(compute_scores(s.dataset)) for s in replay(dataset)]


@pytest.mark.parametrize("source", ["synthetic", "shipped"])
def test_snapshots_equal_full_scoring_of_each_month(
    source: str,
    synthetic: Dataset,
    replayed: list[Snapshot],
    shipped_scores: tuple[Dataset, object],
) -> None:
    dataset = synthetic if source == "synthetic" else shipped_scores[0]
    snapshots = replayed if source == "synthetic" else replay(dataset)
    assert len(snapshots) > 3
    assert [s.scores for s in snapshots] == _reference(dataset)
    ranked = [sum(m.rank is not None for m in s.scores.models.values()) for s in snapshots]
    assert len(set(ranked)) > 2 and ranked[-1] > 0  # the months differ: not vacuous


def test_scoring_inputs_leave_out_only_what_scoring_never_reads(
    synthetic: Dataset, replayed: list[Snapshot]
) -> None:
    stripped = scoring_inputs(synthetic)
    assert all(m.name == "" and m.results for m in stripped.models if m.results)
    assert stripped.domains == () and synthetic.domains != ()
    date = replayed[-4].date
    assert score_snapshot(dataset_as_of(stripped, date)) == published(
        compute_scores(dataset_as_of(synthetic, date))
    )


def test_a_price_or_name_edit_keeps_every_snapshot_a_result_edit_only_later_ones(
    synthetic: Dataset,
) -> None:
    cache: dict[bytes, bytes] = {}
    store = _DictStore(cache)
    first = replay(synthetic, store=store, code=CODE)
    assert store.puts > 0
    store.puts = 0
    model = next(m for m in synthetic.models if m.prices.output is not None)
    priced = msgspec.structs.replace(
        model,
        name=model.name + " renamed",
        prices=msgspec.structs.replace(model.prices, output=(model.prices.output or 0) + 1),
    )
    assert replay(_with(synthetic, priced), store=store, code=CODE)[-1].scores == first[-1].scores
    assert store.puts == 0  # nothing scored again
    # A result from the middle of the history moved later: the months before it are kept.
    middle = first[len(first) // 2].date
    target, old = next(
        (m, r)
        for m in synthetic.models
        for r in m.results
        if middle - dt.timedelta(days=30) < r.as_of <= middle
    )
    moved = msgspec.structs.replace(old, as_of=first[-1].date - dt.timedelta(days=1))
    edited = _with(
        synthetic,
        msgspec.structs.replace(target, results=[moved if r is old else r for r in target.results]),
    )
    again = replay(edited, store=store, code=CODE)
    assert 0 < store.puts <= sum(s.date >= old.as_of for s in again) < len(again)
    assert [s.scores for s in again] == [s.scores for s in replay(edited)]
    assert [s.scores for s in again] == _reference(edited)


def test_another_code_version_scores_again(synthetic: Dataset) -> None:
    store = _DictStore({})
    replay(synthetic, store=store, code=CODE)
    scored = store.puts
    replay(synthetic, store=store, code=CODE + b"'")
    assert store.puts == 2 * scored


class _DictStore:
    def __init__(self, kept: dict[bytes, bytes]) -> None:
        self.kept = kept
        self.puts = 0

    def get(self, key: bytes) -> bytes | None:
        return self.kept.get(key)

    def put(self, key: bytes, scores: bytes) -> None:
        self.kept[key] = scores
        self.puts += 1


def _with(dataset: Dataset, model: object) -> Dataset:
    assert isinstance(model, type(dataset.models[0]))
    models = tuple(model if m.id == model.id else m for m in dataset.models)
    return msgspec.structs.replace(dataset, models=models)


# --- the cache on disk, through whole builds ------------------------------------------


def _tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def _spread_results(data: Path) -> None:
    """Date the fixture's results over three months (it has January only)."""
    for path, month in (("alpha-1", "2025-11"), ("beta-1", "2025-12")):
        model = data / "models" / f"{path}.toml"
        text = model.read_text(encoding="utf-8")
        model.write_text(text.replace("as_of = 2026-01-10", f"as_of = {month}-10"), "utf-8")


@pytest.fixture
def built(tmp_path: Path) -> tuple[Path, Path]:
    data = tmp_path / "data"
    shutil.copytree(FIXTURE_DATA, data)
    _spread_results(data)
    site = tmp_path / "site" / "site_out"
    build_site(data, site, SiteConfig(), workers=1)
    return data, site


Tree = dict[str, bytes]


@pytest.fixture(scope="module")
def clean_builds() -> dict[tuple[tuple[str, bytes], ...], Tree]:
    """The tree of a clean build, by the bytes of the data it was built from: the five
    damaged-cache tests edit the fixture the same way, so the same bytes are built clean once."""
    return {}


def _clean(data: Path, tmp_path: Path, builds: dict[tuple[tuple[str, bytes], ...], Tree]) -> Tree:
    """The tree a clean build (a fresh output folder, no cache) makes of `data`."""
    inputs = tuple(sorted(_tree(data).items()))
    if inputs not in builds:
        out = tmp_path / "clean" / "site_out"
        shutil.rmtree(out.parent, ignore_errors=True)
        build_site(data, out, SiteConfig(), workers=1)
        builds[inputs] = _tree(out)
    return builds[inputs]


def test_a_build_keeps_one_file_per_scored_month(built: tuple[Path, Path]) -> None:
    _, site = built
    files = sorted(p.name for p in history_cache_path(site).iterdir())
    history = msgspec.json.decode((site / "api" / "v1" / "history.json").read_bytes())
    assert len(files) == len(history["snapshots"]) == 3
    assert all(len(name) == 64 for name in files)  # hex keys, no temporary left


def _truncate(folder: Path) -> None:
    for path in folder.iterdir():
        path.write_bytes(path.read_bytes()[:20])


def _garbage(folder: Path) -> None:
    for path in folder.iterdir():
        path.write_bytes(b"\x93not msgpack at all")


def _foreign(folder: Path) -> None:
    """Each month's file holds another month's entry (a foreign key)."""
    paths = sorted(folder.iterdir())
    contents = [p.read_bytes() for p in paths]
    for path, data in zip(paths, contents[1:] + contents[:1], strict=True):
        path.write_bytes(data)


def _edited_scores(folder: Path) -> None:
    """The scores changed, the recorded digest not (a rank bumped by one)."""
    for path in folder.iterdir():
        entry = msgspec.msgpack.decode(path.read_bytes())
        scores = msgspec.msgpack.decode(entry[3], type=SnapshotScores)
        first = next(m for m in scores.models.values() if m.rank is not None)
        changed = msgspec.structs.replace(first, rank=(first.rank or 0) + 1)
        models = {**scores.models, first.model_id: changed}
        entry[3] = msgspec.msgpack.encode(SnapshotScores(models=models))
        path.write_bytes(msgspec.msgpack.encode(entry))


def _other_shape(folder: Path) -> None:
    """The scores replaced by msgpack of another shape, the digest recomputed over it (only
    a crafted file: the key holds the code's digest). `get` refuses it; kept, `Months`
    would raise while the history's documents are made."""
    for path in folder.iterdir():
        entry = msgspec.msgpack.decode(path.read_bytes())
        entry[3] = msgspec.msgpack.encode({"models": "not a table"})
        entry[2] = digest(entry[3])
        path.write_bytes(msgspec.msgpack.encode(entry))


def _other_format(folder: Path) -> None:
    for path in folder.iterdir():
        entry = msgspec.msgpack.decode(path.read_bytes())
        entry[0] += 1
        path.write_bytes(msgspec.msgpack.encode(entry))


@pytest.mark.parametrize(
    "damage", [_truncate, _garbage, _foreign, _edited_scores, _other_shape, _other_format]
)
def test_a_damaged_snapshot_is_scored_again(
    built: tuple[Path, Path],
    tmp_path: Path,
    clean_builds: dict[tuple[tuple[str, bytes], ...], Tree],
    damage: Callable[[Path], None],
) -> None:
    data, site = built
    folder = history_cache_path(site)
    damage(folder)
    cache = SnapshotCache(site)
    assert [cache.get(bytes.fromhex(p.name)) for p in sorted(folder.iterdir())] == [None] * 3
    # A new name: the history's documents are made again (a price edit keeps them, and the
    # build cache would stop the build before the history), but not its scoring inputs,
    # so every month is looked up in the damaged snapshot cache.
    model = data / "models" / "alpha-2.toml"
    text = model.read_text(encoding="utf-8")
    model.write_text(text.replace('name = "Alpha 2"', 'name = "Alpha Two"', 1), encoding="utf-8")
    build_site(data, site, SiteConfig(), workers=1)
    assert _tree(site) == _clean(data, tmp_path, clean_builds)
    cache = SnapshotCache(site)
    assert all(cache.get(bytes.fromhex(p.name)) for p in folder.iterdir())  # rewritten whole


def test_an_old_result_moved_in_time_rebuilds_the_history_it_changes(
    built: tuple[Path, Path],
    tmp_path: Path,
    clean_builds: dict[tuple[tuple[str, bytes], ...], Tree],
) -> None:
    data, site = built
    before = set(p.name for p in history_cache_path(site).iterdir())
    model = data / "models" / "beta-1.toml"
    model.write_text(
        model.read_text(encoding="utf-8").replace("as_of = 2025-12-10", "as_of = 2026-01-05", 1),
        encoding="utf-8",
    )
    build_site(data, site, SiteConfig(), workers=1)
    assert _tree(site) == _clean(data, tmp_path, clean_builds)
    after = set(p.name for p in history_cache_path(site).iterdir())
    assert len(after) == 3 and 0 < len(after - before) < 3  # November's snapshot was reused


def test_remembered_model_digests_give_the_fresh_key_at_every_month(
    synthetic: Dataset, replayed: list[Snapshot]
) -> None:
    inputs = scoring_inputs(synthetic)
    shared = _SnapshotKeys(inputs, CODE)
    keys, encoded = [], []
    for snapshot in replayed:
        then = dataset_as_of(inputs, snapshot.date)
        keys.append(shared.key(then))
        encoded.append(msgspec.msgpack.encode(then))
        assert keys[-1] == _SnapshotKeys(inputs, CODE).key(then)
    # Months with the same inputs (a month with domain results only) share a key, others not.
    assert len(set(keys)) == len(set(encoded)) > len(keys) // 2
    other = msgspec.structs.replace(inputs, benchmarks=inputs.benchmarks[1:])
    assert shared.key(dataset_as_of(other, snapshot.date)) != keys[-1]


def test_months_scored_in_worker_processes_are_the_same(
    synthetic: Dataset, replayed: list[Snapshot]
) -> None:
    def in_two_workers(task: Callable[[int], bytes], count: int) -> list[bytes]:
        return map_ordered(task, count, workers=2, minimum=2)

    assert replay(synthetic, run=in_two_workers) == replayed


def test_replayed_months_are_made_when_read_from_the_bytes_the_store_keeps(
    synthetic: Dataset, replayed: list[Snapshot]
) -> None:
    store = _DictStore({})
    months = replay_months(synthetic, store=store, code=CODE)
    assert len(months) == len(replayed)
    assert list(months) == replayed
    assert months[-1] == replayed[-1] and months[1:4] == replayed[1:4]
    # What the store keeps decodes to the scores of its month, and the build holds those
    # bytes and the group of months being read only: a month read again after the next
    # group is made again, equal.
    scores = [s.scores for s in replayed]
    assert store.kept and all(
        msgspec.msgpack.decode(data, type=SnapshotScores) in scores for data in store.kept.values()
    )
    first = months[0]
    assert months[0] is first and len(months) > HELD
    assert months[HELD] == replayed[HELD]
    assert months[0] is not first and months[0] == first
    # A second replay takes every month from the store and gives the same snapshots.
    store.puts = 0
    assert list(replay_months(synthetic, store=store, code=CODE)) == replayed
    assert store.puts == 0
