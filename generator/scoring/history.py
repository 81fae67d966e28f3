"""Score history, replayed from the data: today's methodology over the evidence of each month end.

A snapshot at date D scores the dataset as it stood then: the models released on or
before D (a model without a release date enters with its first result) and, of each,
the results that count by D: a result counts from the latest of its own date, its
benchmark's publication date and its model's release (docs/METHODOLOGY.md 1.2, `counts_from`; a
result whose upstream row has no date carries its model's release date, marked
`as_of_kind = "not-before"`; each snapshot counts those it placed). The methodology,
ladders and benchmark catalogue are today's, so a snapshot says "what today's method
makes of that date's evidence", not what anyone published then. Prices exist only as
current values: the cost of a snapshot is not a replay and is never published. The
month ends run from the earliest counted result's to the month end of the month holding
the newest evidence date (`newest_evidence`).

A snapshot keeps only what the history publishes (`SnapshotModel`): each model's
dimension values, composite, rank, 95% range, rank band and whether the composite is
provisional. It is scored by `score_snapshot` from `scoring_inputs` (the dataset without
what that scoring never reads: names, prices, domains...), so its scores are a function
of those inputs alone and can be reused by their digest (`SnapshotStore`, kept between
builds by `generator/cache/snapshots.py`).
"""

from __future__ import annotations

import bisect
import datetime as dt
from collections.abc import Iterable, Mapping, Sequence
from typing import Protocol, overload

import msgspec
import numpy as np

from generator.digests import digest
from generator.input.records import (
    BenchmarkRecord,
    BenchmarkResultRecord,
    Dataset,
    MethodologyRecord,
    ModelRecord,
)
from generator.scoring.composite import direct_dimension_count, is_provisional
from generator.scoring.engine import estimate_models
from generator.scoring.observations import ResultMemo
from generator.scoring.tasks import TaskMap, in_process
from generator.scoring.types import RankBand
from generator.scoring.uncertainty import uncertainties
from generator.vocabulary import DIMENSION_SLUGS

EPOCH = dt.datetime(1970, 1, 1, tzinfo=dt.UTC)


class SnapshotModel(msgspec.Struct, array_like=True, frozen=True, kw_only=True):
    """What the history publishes of one model at one month end (as in `ModelScores`)."""

    model_id: str
    dimensions: tuple[float | None, ...]  # the unrounded values, in dimension order
    composite: float | None
    iq: int | None
    rank: int | None
    composite_sd: float | None
    composite_low95: float | None
    composite_high95: float | None
    rank_band: RankBand | None
    # No default: the msgpack of a snapshot kept without it (9 items) fails to decode, a miss
    provisional: bool  # as `ModelScores.provisional` (docs/METHODOLOGY.md 3.3)


class SnapshotScores(msgspec.Struct, array_like=True, frozen=True, kw_only=True):
    """Every model of one snapshot, by id."""

    models: dict[str, SnapshotModel]


class ResultCounts(msgspec.Struct, frozen=True, kw_only=True):
    """How many benchmark results a snapshot placed, and how many of them by release date
    (`as_of_kind = "not-before"`: the upstream row has no date, so the model's release
    date stands in; the value existed no earlier than that)."""

    placed: int
    by_release_date: int


class Snapshot(msgspec.Struct, frozen=True, kw_only=True):
    """The scores of the dataset as it stood at the end of one month."""

    date: dt.date
    dataset: Dataset
    scores: SnapshotScores
    results: ResultCounts


def count_results(dataset: Dataset) -> ResultCounts:
    """The benchmark results of `dataset`'s models, and those dated "not before"."""
    kinds = [r.as_of_kind for m in dataset.models for r in m.results]
    return ResultCounts(placed=len(kinds), by_release_date=kinds.count("not-before"))


class SnapshotStore(Protocol):
    """Snapshot scores kept by the digest of their scoring inputs (a build cache), as the
    msgpack of `SnapshotScores` (`get` returns only bytes that decode as one)."""

    def get(self, key: bytes) -> bytes | None: ...

    def put(self, key: bytes, scores: bytes) -> None: ...


def month_end(day: dt.date) -> dt.date:
    """The last day of `day`'s month."""
    first_of_next = dt.date(day.year + day.month // 12, day.month % 12 + 1, 1)
    return first_of_next - dt.timedelta(days=1)


Published = Mapping[str, dt.date]  # benchmark id -> its publication date (where stated)


def publication_dates(benchmarks: Iterable[BenchmarkRecord]) -> dict[str, dt.date]:
    """Each benchmark's publication date, where the data states one."""
    return {b.id: b.published_on for b in benchmarks if b.published_on is not None}


def counts_from(
    result: BenchmarkResultRecord, published: Published, release: dt.date | None
) -> dt.date:
    """When a result counts in the history (docs/METHODOLOGY.md 1.2, version 4): the latest of its
    own date, its benchmark's publication and its model's release, so no month end ranks a
    model on a benchmark that did not exist yet (nor before the model did)."""
    dates = [result.as_of, published.get(result.benchmark), release]
    return max(d for d in dates if d is not None)


def _counted(model: ModelRecord, published: Published) -> list[dt.date]:
    return [counts_from(r, published, model.release_date) for r in model.results]


def entry_date(model: ModelRecord, published: Published | None = None) -> dt.date | None:
    """When a model enters the history: its release date, else its first result's."""
    if model.release_date is not None:
        return model.release_date
    return min(_counted(model, published or {}), default=None)


def newest_date(dataset: Dataset) -> dt.date | None:
    """The newest date the data states: a result, release, domain result or file stamp.

    The build reads no clock, so this is its "today": no month end after it is replayed.
    """
    dates = _event_dates(dataset)
    stamps = [m.updated for m in dataset.models] + [b.updated for b in dataset.benchmarks]
    dates += [s.date() for s in [*stamps, dataset.methodology.updated]]
    return max(dates, default=None)


def newest_evidence(dataset: Dataset) -> dt.date | None:
    """The newest evidence date (docs/METHODOLOGY.md 1.2): a result's date of any kind or a
    release. Dates that are not evidence (a price's read date, a file's stamp, a domain
    result, which no history number reads) never extend the history."""
    dates = [r.as_of for m in dataset.models for r in m.results]
    dates += [m.release_date for m in dataset.models if m.release_date is not None]
    return max(dates, default=None)


def snapshot_dates(dataset: Dataset) -> list[dt.date]:
    """Every month end from the month of the earliest counted result to the month holding
    the newest evidence date (`newest_evidence`), both included."""
    published = publication_dates(dataset.benchmarks)
    results = [d for m in dataset.models for d in _counted(m, published)]
    newest = newest_evidence(dataset)
    if not results or newest is None:
        return []
    dates: list[dt.date] = []
    end, last = month_end(min(results)), month_end(newest)
    while end <= last:
        dates.append(end)
        end = month_end(end + dt.timedelta(days=1))
    return dates


def dataset_as_of(dataset: Dataset, date: dt.date) -> Dataset:
    """The dataset as it stood at `date`: released models, results dated on or before it."""
    return _Timeline(dataset).as_of(date)


class _Timeline:
    """`as_of(date)` for many dates: each model's entry and latest result found once; a
    model whose results all date from before `date` is taken whole (most of them)."""

    def __init__(self, dataset: Dataset) -> None:
        self._dataset = dataset
        published = publication_dates(dataset.benchmarks)
        kept = [
            (m, entered)
            for m in dataset.models
            if (entered := entry_date(m, published)) is not None
        ]
        self._models = [m for m, _ in kept]
        self._counted = [_counted(m, published) for m in self._models]
        self._entered = np.array([entered.toordinal() for _, entered in kept], dtype=np.int64)
        self._latest = np.array(
            [
                max(counted, default=entered).toordinal()
                for counted, (_, entered) in zip(self._counted, kept, strict=True)
            ],
            dtype=np.int64,
        )
        self._placed = np.array([len(m.results) for m in self._models], dtype=np.int64)
        self._by_release = np.array([_by_release(m.results) for m in self._models], dtype=np.int64)

    def _rows(self, date: dt.date) -> tuple[list[int], list[int]]:
        """The models entered by `date`, and the places among them of those with a result
        after it."""
        day = date.toordinal()
        rows = np.flatnonzero(self._entered <= day)
        return rows.tolist(), np.flatnonzero(self._latest[rows] > day).tolist()

    def as_of(self, date: dt.date) -> Dataset:
        rows, partial = self._rows(date)
        found = [self._models[i] for i in rows]
        for place in partial:
            found[place] = _results_as_of(found[place], self._counted[rows[place]], date)
        domains = tuple(
            msgspec.structs.replace(d, results=[r for r in d.results if r.as_of <= date])
            for d in self._dataset.domains
        )
        return msgspec.structs.replace(self._dataset, models=tuple(found), domains=domains)

    def results(self, date: dt.date) -> ResultCounts:
        """`count_results(self.as_of(date))`, counted from each model's totals."""
        rows, partial = self._rows(date)
        cut = [rows[place] for place in partial]
        placed = int(self._placed[rows].sum()) - int(self._placed[cut].sum())
        by_release = int(self._by_release[rows].sum()) - int(self._by_release[cut].sum())
        for row in cut:
            kept = _kept(self._models[row].results, self._counted[row], date)
            placed, by_release = placed + len(kept), by_release + _by_release(kept)
        return ResultCounts(placed=placed, by_release_date=by_release)


def _by_release(results: Iterable[BenchmarkResultRecord]) -> int:
    return sum(1 for r in results if r.as_of_kind == "not-before")


def _kept(
    results: Sequence[BenchmarkResultRecord], counted: Sequence[dt.date], date: dt.date
) -> list[BenchmarkResultRecord]:
    """The results that count by `date` (`counted`: when each one counts)."""
    return [r for r, day in zip(results, counted, strict=True) if day <= date]


def _results_as_of(model: ModelRecord, counted: Sequence[dt.date], date: dt.date) -> ModelRecord:
    return msgspec.structs.replace(model, results=_kept(model.results, counted, date))


def _event_dates(dataset: Dataset) -> list[dt.date]:
    """Every date on which the dataset as of a date can change: entries and results."""
    published = publication_dates(dataset.benchmarks)
    dates = [d for m in dataset.models if (d := entry_date(m, published)) is not None]
    dates += [d for m in dataset.models for d in _counted(m, published)]
    dates += [r.as_of for d in dataset.domains for r in d.results]
    return sorted(set(dates))


def score_snapshot(dataset: Dataset, memo: ResultMemo | None = None) -> SnapshotScores:
    """The published part of `compute_scores`, by the same functions: each model's
    dimensions (`estimate_models` without the detail only a model's own documents show),
    composite, IQ, rank, composite sd, range, rank band and whether the composite is
    provisional.

    Leaves out the dimension rankings' bands, EQ, cost and domains, which no history
    document shows. `memo` keeps the models' projected results from one month to the
    next (made for `dataset`'s benchmarks).
    """
    estimates = estimate_models(dataset, memo=memo, detail=False)
    params = dataset.methodology.parameters
    z, rho, below = params.interval_z, params.imputed_correlation, params.provisional_below
    spread = uncertainties(
        estimates.dimensions, estimates.composites, estimates.ranks, z, rho=rho, per_dimension=False
    )
    return SnapshotScores(
        models={
            m: SnapshotModel(
                model_id=m,
                dimensions=tuple(d.value for d in estimates.dimensions[m]),
                composite=estimates.composites[m],
                iq=estimates.published_iq.get(m),
                rank=estimates.ranks.get(m),
                composite_sd=spread[m].sd,
                composite_low95=spread[m].low95,
                composite_high95=spread[m].high95,
                rank_band=spread[m].band,
                provisional=is_provisional(
                    estimates.composites[m], direct_dimension_count(estimates.dimensions[m]), below
                ),
            )
            for m in estimates.models
        }
    )


def scoring_inputs(dataset: Dataset) -> Dataset:
    """`dataset` with only what `score_snapshot` (and the date filter) reads.

    Kept: each model's id, release date, lineage, legacy estimate and results (benchmark,
    value, date); each benchmark's scoring fields; the methodology's version, parameters
    and dimensions. Gone: names, prices, usage, speed, sources, notes, domains, charts.
    `tests/scoring/test_history_cache.py` checks that scoring this gives the same snapshot.
    """
    return Dataset(
        methodology=_methodology_inputs(dataset.methodology),
        benchmarks=tuple(_benchmark_inputs(b) for b in dataset.benchmarks),
        models=tuple(_model_inputs(m) for m in dataset.models),
        domains=(),
        charts=(),
    )


def _methodology_inputs(methodology: MethodologyRecord) -> MethodologyRecord:
    return MethodologyRecord(
        version=methodology.version,
        summary="",
        updated=EPOCH,
        cost_unit="",
        parameters=methodology.parameters,
        dimensions=methodology.dimensions,
    )


def _benchmark_inputs(benchmark: BenchmarkRecord) -> BenchmarkRecord:
    return msgspec.structs.replace(
        benchmark, name="", description="", source_name="", source_url="", updated=EPOCH
    )


def _model_inputs(model: ModelRecord) -> ModelRecord:
    return ModelRecord(
        id=model.id,
        name="",
        provider="",
        country="",
        release_date=model.release_date,
        open_weights=False,
        updated=EPOCH,
        legacy_abstract_estimate=model.legacy_abstract_estimate,
        lineage=model.lineage,
        results=[
            BenchmarkResultRecord(
                benchmark=r.benchmark, value=r.value, source_name="", source_url="", as_of=r.as_of
            )
            for r in model.results
        ],
    )


class _SnapshotKeys:
    """`key(then)`: the digest a snapshot's scores are kept under, for `then` =
    `dataset_as_of(inputs, date)` of the `inputs` it was made with.

    It commits to the generator's `code` and to the whole of `then`: the methodology,
    the benchmarks and each model's msgpack bytes, in order. A model's bytes are
    digested once per result count: as of any date a model keeps the results dated on
    or before it, a nested family of sets, so the count names the set
    (`tests/scoring/test_history_cache.py` compares the remembered digests with fresh ones).
    """

    def __init__(self, inputs: Dataset, code: bytes) -> None:
        self._code = code
        self._fixed = (inputs.methodology, inputs.benchmarks)
        self._head = self._head_of(inputs)
        self._models: dict[tuple[str, int], bytes] = {}

    def key(self, then: Dataset) -> bytes:
        if then.domains or then.charts:
            raise ValueError("scoring inputs hold no domains or charts")
        fixed = (then.methodology, then.benchmarks)
        head = self._head if fixed == self._fixed else self._head_of(then)
        return digest(head, b"".join(self._model(m) for m in then.models))

    def _head_of(self, inputs: Dataset) -> bytes:
        encode = msgspec.msgpack.encode
        return digest(
            b"snapshot", self._code, encode(inputs.methodology), encode(inputs.benchmarks)
        )

    def _model(self, model: ModelRecord) -> bytes:
        known = self._models.get((model.id, len(model.results)))
        if known is None:
            known = digest(msgspec.msgpack.encode(model))
            self._models[(model.id, len(model.results))] = known
        return known


def replay(
    dataset: Dataset,
    dates: Iterable[dt.date] | None = None,
    *,
    store: SnapshotStore | None = None,
    code: bytes = b"",
    run: TaskMap = in_process,
) -> list[Snapshot]:
    """One snapshot per month end (or per given date, ascending), oldest first: every
    snapshot of `replay_months`, made at once."""
    return list(replay_months(dataset, dates, store=store, code=code, run=run))


def replay_months(
    dataset: Dataset,
    dates: Iterable[dt.date] | None = None,
    *,
    store: SnapshotStore | None = None,
    code: bytes = b"",
    run: TaskMap = in_process,
) -> Months:
    """One snapshot per month end (or per given date, ascending), oldest first, each made
    when read (`Months`).

    A date with no release or result since the previous one shares that snapshot's
    scores (it would score the same records again). With a `store`, a snapshot whose
    scoring inputs (and `code`, the generator's version) were scored before is taken
    from it, and every snapshot scored here is put in it. The months left to score are
    independent: `run` may score them in worker processes (`generator/output/pool.py`),
    newest first; each comes back as msgpack and is put back in month order, so the result
    is the same.
    """
    events = _event_dates(dataset)
    inputs = scoring_inputs(dataset)
    keys = _SnapshotKeys(inputs, code)
    full, scored = _Timeline(dataset), _Timeline(inputs)
    chosen: list[dt.date] = []
    found: dict[dt.date, bytes | None] = {}  # None: to be scored
    pending: list[tuple[dt.date, bytes, Dataset]] = []
    for date in snapshot_dates(dataset) if dates is None else dates:
        if not chosen or not _unchanged(events, chosen[-1], date):
            then = scored.as_of(date)
            key = keys.key(then) if store is not None else b""
            found[date] = store.get(key) if store is not None else None
            if found[date] is None:
                pending.append((date, key, then))
        chosen.append(date)
    # Newest first: a month holds every model and result of the ones before it, so the
    # costliest run first and the workers finish together (the results are put back in order).
    last = len(pending) - 1
    memo = ResultMemo(inputs.benchmarks, DIMENSION_SLUGS)
    encoded = run(
        lambda i: msgspec.msgpack.encode(score_snapshot(pending[last - i][2], memo)), last + 1
    )
    for (date, key, _), data in zip(pending, reversed(encoded), strict=True):
        found[date] = data
        if store is not None:
            store.put(key, data)
    months: list[bytes] = []
    for date in chosen:
        kept = found.get(date)  # none: unchanged since the month before, whose it shares
        months.append(months[-1] if kept is None else kept)
    return Months(chosen, months, full)


class Months(Sequence[Snapshot]):
    """The replayed snapshots, each made when read: its scores decoded from the msgpack
    the replay kept, the dataset and result counts as of its date. Only the group of
    `HELD` months being read is kept, so a reader that takes them in turn does not hold
    every model at every month end (about 6x the msgpack). Not one month: freeing each
    month's objects before the next is read scatters the next one's through the freed
    memory, and the history documents took 1.2-1.5x the CPU (10,000 synthetic models);
    eight at a time is as fast as holding them all. Dates that share scores share their
    bytes, and their decoded scores within a group."""

    def __init__(self, dates: list[dt.date], scores: list[bytes], full: _Timeline) -> None:
        self._dates = dates
        self._scores = scores
        self._full = full
        self._group = -1
        self._held: dict[int, Snapshot] = {}

    def __len__(self) -> int:
        return len(self._dates)

    @overload
    def __getitem__(self, index: int) -> Snapshot: ...

    @overload
    def __getitem__(self, index: slice) -> list[Snapshot]: ...

    def __getitem__(self, index: int | slice) -> Snapshot | list[Snapshot]:
        if isinstance(index, slice):
            return [self[i] for i in range(len(self))[index]]
        index = range(len(self))[index]  # IndexError past either end
        held = self._held.get(index)
        if held is not None:
            return held
        if index // HELD != self._group:
            self._held.clear()
            self._group = index // HELD
        date, data = self._dates[index], self._scores[index]
        before = self._held.get(index - 1)
        shared = before is not None and self._scores[index - 1] is data
        snapshot = Snapshot(
            date=date,
            dataset=self._full.as_of(date),
            scores=before.scores if before is not None and shared else _SCORES.decode(data),
            results=self._full.results(date),
        )
        self._held[index] = snapshot
        return snapshot


HELD = 8
"""Months a `Months` keeps made while they are read (see its docstring)."""
_SCORES = msgspec.msgpack.Decoder(SnapshotScores)


def _unchanged(events: list[dt.date], previous: dt.date, date: dt.date) -> bool:
    """No event in (previous, date]."""
    return previous <= date and bisect.bisect_right(events, previous) == bisect.bisect_right(
        events, date
    )
