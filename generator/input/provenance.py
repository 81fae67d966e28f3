"""Checks of imported provenance: sources named by results exist, "not before" dates hold,
no result is another model's (dated long before its model's release).

A result or domain row imported from an upstream file names its source
(`data/sources/<id>.toml`); a row whose upstream gives no date of its own carries the
model's release date with `as_of_kind = "not-before"`. A source's feeds name known
benchmarks and its model mappings known models.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import TYPE_CHECKING

from generator.input.decode import suggest

if TYPE_CHECKING:
    from generator.input.loaded import Records

PRE_RELEASE_DAYS = 30
"""A result dated more than this many days before its model's release is another model's
(an earlier version under a reused name: docs/METHODOLOGY.md 1.2), unless pinned with a reason."""


def before_release(as_of: dt.date, released: dt.date | None) -> bool:
    """Whether a result dated `as_of` is too early to be the model released on `released`."""
    return released is not None and (released - as_of).days > PRE_RELEASE_DAYS


Row = tuple[str, str | None, str | None, dt.date, bool]
"""where, source, as_of_kind, as_of, and whether it is pinned with a reason (a `note`)"""


def check_provenance(records: Records) -> list[str]:
    """Every provenance problem of `records` (one line `file: field: problem` each)."""
    sources = {s.record.id for s in records.sources} | records.broken["sources"]
    release = {m.record.id: m.record.release_date for m in records.models}
    # a release date after its file's `updated` is refused by itself: no result is judged by it
    trusted = {
        m.record.id
        for m in records.models
        if m.record.release_date is None or m.record.release_date <= m.record.updated.date()
    }
    problems: list[str] = []
    for item in records.models:
        rows = [
            (f"results[{i}]", r.source, r.as_of_kind, r.as_of, r.pinned and bool(r.note))
            for i, r in enumerate(item.record.results)
        ] + [
            (f"task_runs[{i}]", r.source, "published", r.as_of, False)
            for i, r in enumerate(item.record.task_runs)
        ]
        problems += _check_rows(
            item.label,
            rows,
            sources,
            item.record.release_date,
            judged=item.record.id in trusted,
        )
        model = item.record
        if (model.release_date_source is None) != (model.release_date_note is None):
            missing = (
                "release_date_note" if model.release_date_note is None else "release_date_source"
            )
            problems.append(
                f"{item.label}: {missing}: missing (a release date settled by hand states"
                " both its source and why)"
            )
    for domain in records.domains:
        for index, row in enumerate(domain.record.results):
            released = release.get(row.model)
            problems += _check_rows(
                domain.label,
                [
                    (
                        f"results[{index}]",
                        row.source,
                        row.as_of_kind,
                        row.as_of,
                        row.pinned and bool(row.note),
                    )
                ],
                sources,
                released,
                unknown_model=row.model not in release,
                judged=row.model in trusted,
            )
    problems += _check_sources(records)
    return problems


def _check_rows(
    label: str,
    rows: Iterable[Row],
    sources: set[str],
    released: dt.date | None,
    *,
    unknown_model: bool = False,
    judged: bool = True,
) -> list[str]:
    problems = []
    for where, source, kind, as_of, kept in rows:
        if source is not None and source not in sources:
            problems.append(
                f"{label}: {where}.source: unknown source '{source}'" + suggest(source, sources)
            )
        if judged and not kept and before_release(as_of, released):
            problems.append(
                f"{label}: {where}.as_of: {as_of} is more than {PRE_RELEASE_DAYS} days before"
                f" the model's release {released}: another model's result (pin it with a"
                " `note` saying why it is this model's)"
            )
        if kind != "not-before" or unknown_model:
            continue
        if released is None:
            problems.append(
                f"{label}: {where}.as_of_kind: 'not-before' needs the model's release_date"
            )
        elif as_of != released:
            problems.append(
                f"{label}: {where}.as_of: a 'not-before' date must be the model's"
                f" release_date {released}, not {as_of}"
            )
    return problems


def _check_sources(records: Records) -> list[str]:
    bench_ids = {b.record.id for b in records.benchmarks} | records.broken["benchmarks"]
    domain_benches = {d.record.id: {b.id for b in d.record.benchmarks} for d in records.domains}
    model_ids = {m.record.id for m in records.models} | records.broken["models"]
    names = {n.lower() for m in records.models for n in (m.record.id, *m.record.aliases)}
    problems: list[str] = []
    for item in records.sources:
        source, label = item.record, item.label
        files = {f.path for f in source.files}
        for index, feed in enumerate(source.feeds):
            where = f"feeds[{index}]"
            if feed.domain is None:
                known = bench_ids
            elif feed.domain in domain_benches:
                known = domain_benches[feed.domain]
            else:
                if feed.domain not in records.broken["domains"]:
                    problems.append(
                        f"{label}: {where}.domain: unknown domain '{feed.domain}'"
                        + suggest(feed.domain, domain_benches)
                    )
                continue
            if feed.benchmark not in known and not records.broken["benchmarks"]:
                problems.append(
                    f"{label}: {where}.benchmark: unknown benchmark '{feed.benchmark}'"
                    + suggest(feed.benchmark, known)
                )
            if feed.file not in files:
                problems.append(
                    f"{label}: {where}.file: '{feed.file}' is not one of this source's files"
                    + suggest(feed.file, files)
                )
        keys: dict[tuple[str, str], int] = {}
        for index, mapping in enumerate(source.models):
            key = (mapping.key, repr(sorted(mapping.filter.items())))
            where = f"models[{index}]"
            if mapping.model not in model_ids and mapping.model.lower() not in names:
                problems.append(
                    f"{label}: {where}.model: unknown model '{mapping.model}'"
                    + suggest(mapping.model, model_ids)
                )
            if key in keys:
                problems.append(
                    f"{label}: {where}.key: duplicate key '{mapping.key}'"
                    f" (also models[{keys[key]}])"
                )
            keys.setdefault(key, index)
    return problems
