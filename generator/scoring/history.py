"""Score history, replayed from the data: today's methodology over the evidence of each month end.

A snapshot at date D scores the dataset as it stood then: the models released on or
before D (a model without a release date enters with its first result) and, of each,
the results with `as_of` on or before D. The methodology, ladders and benchmark
catalogue are today's, so a snapshot says "what today's method makes of that date's
evidence", not what anyone published then. Prices exist only as current values: the
cost of a snapshot is not a replay and is never published.
"""

from __future__ import annotations

import bisect
import datetime as dt
from collections.abc import Iterable

import msgspec

from generator.input.records import Dataset, ModelRecord
from generator.scoring.engine import compute_scores
from generator.scoring.types import Scores


class Snapshot(msgspec.Struct, frozen=True, kw_only=True):
    """The scores of the dataset as it stood at the end of one month."""

    date: dt.date
    dataset: Dataset
    scores: Scores


def month_end(day: dt.date) -> dt.date:
    """The last day of `day`'s month."""
    first_of_next = dt.date(day.year + day.month // 12, day.month % 12 + 1, 1)
    return first_of_next - dt.timedelta(days=1)


def entry_date(model: ModelRecord) -> dt.date | None:
    """When a model enters the history: its release date, else its first result."""
    if model.release_date is not None:
        return model.release_date
    return min((r.as_of for r in model.results), default=None)


def snapshot_dates(dataset: Dataset) -> list[dt.date]:
    """Every month end from the earliest result to the newest result or release."""
    results = [r.as_of for m in dataset.models for r in m.results]
    if not results:
        return []
    entries = [d for m in dataset.models if (d := entry_date(m)) is not None]
    last = month_end(max([*results, *entries]))
    dates = [month_end(min(results))]
    while dates[-1] < last:
        dates.append(month_end(dates[-1] + dt.timedelta(days=1)))
    return dates


def dataset_as_of(dataset: Dataset, date: dt.date) -> Dataset:
    """The dataset as it stood at `date`: released models, results dated on or before it."""
    models = tuple(
        msgspec.structs.replace(m, results=[r for r in m.results if r.as_of <= date])
        for m in dataset.models
        if (entered := entry_date(m)) is not None and entered <= date
    )
    domains = tuple(
        msgspec.structs.replace(d, results=[r for r in d.results if r.as_of <= date])
        for d in dataset.domains
    )
    return msgspec.structs.replace(dataset, models=models, domains=domains)


def _event_dates(dataset: Dataset) -> list[dt.date]:
    """Every date on which the dataset as of a date can change: entries and results."""
    dates = [d for m in dataset.models if (d := entry_date(m)) is not None]
    dates += [r.as_of for m in dataset.models for r in m.results]
    dates += [r.as_of for d in dataset.domains for r in d.results]
    return sorted(set(dates))


def replay(dataset: Dataset, dates: Iterable[dt.date] | None = None) -> list[Snapshot]:
    """One snapshot per month end (or per given date, ascending), oldest first.

    A date with no release or result since the previous one shares that snapshot's
    dataset and scores (it would score the same records again).
    """
    events = _event_dates(dataset)
    snapshots: list[Snapshot] = []
    for date in snapshot_dates(dataset) if dates is None else dates:
        if snapshots and _unchanged(events, snapshots[-1].date, date):
            snapshots.append(msgspec.structs.replace(snapshots[-1], date=date))
            continue
        then = dataset_as_of(dataset, date)
        snapshots.append(Snapshot(date=date, dataset=then, scores=compute_scores(then)))
    return snapshots


def _unchanged(events: list[dt.date], previous: dt.date, date: dt.date) -> bool:
    """No event in (previous, date]."""
    return previous <= date and bisect.bisect_right(events, previous) == bisect.bisect_right(
        events, date
    )
