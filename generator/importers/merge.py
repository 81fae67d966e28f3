"""Apply observations to data/ documents: each model's best published row per benchmark
(at any setting, labelled with it: docs/METHODOLOGY.md section 1.1), one domain row per model,
benchmark and harness; values entered by hand (`pinned = true`) are never overwritten."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from generator.importers.collect import Bounds, Observation

Doc = dict[str, Any]
MIXED = "best published row per benchmark at any setting (methodology v3, 1.1)"


@dataclass
class Changes:
    """What an import changed, with reasons, for the report."""

    changed: list[str] = field(default_factory=list)
    conflicts: list[str] = field(default_factory=list)
    undated: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)  # rows dated long before the release
    release_dates: list[str] = field(default_factory=list)  # sources disagreeing on one


def best_rows(
    observations: Iterable[Observation], bounds: Mapping[tuple[str | None, str], Bounds]
) -> dict[tuple[str | None, str, str, str], Observation]:
    """The best observation per (domain, benchmark, model, harness); scored and EQ
    benchmarks (domain None) keep one row per model whatever its harness."""
    best: dict[tuple[str | None, str, str, str], Observation] = {}
    for obs in sorted(observations, key=_stable):
        harness = (obs.harness or "") if obs.domain is not None else ""
        key = (obs.domain, obs.benchmark, obs.model, harness)
        held = best.get(key)
        if held is None or _better(obs, held, bounds[(obs.domain, obs.benchmark)]):
            best[key] = obs
    return best


def _stable(obs: Observation) -> tuple[str, str, str, str]:
    return (obs.source, obs.row.file, obs.row.row_id, obs.row.key)


def _better(new: Observation, held: Observation, bound: Bounds) -> bool:
    if new.value != held.value:
        return (new.value > held.value) == bound.higher_is_better
    # Equal values: the dated row, then the earlier date (the value existed since).
    return (new.row.date is not None, -(new.row.date or dt.date.min).toordinal()) > (
        held.row.date is not None,
        -(held.row.date or dt.date.min).toordinal(),
    )


def result_doc(obs: Observation, released: dt.date | None, *, domain: bool) -> Doc | None:
    """A result (or domain row) for `obs`: its own date, else the release date as a
    not-before date; None when it has neither."""
    as_of, kind = obs.row.date, obs.row.as_of_kind
    if as_of is None:
        as_of, kind = released, "not-before"
    if as_of is None:
        return None
    doc: Doc = {"benchmark": obs.benchmark}
    if domain:
        doc = {"model": obs.model, "benchmark": obs.benchmark, "score": obs.value}
    else:
        doc["value"] = obs.value
    doc |= {
        "source_name": obs.source_name,
        "source_url": obs.row.url or obs.file_url,
        "as_of": as_of,
        "as_of_kind": kind,
        "harness": obs.harness,
        "source_model": obs.row.key,
        "effort": obs.effort,
        "source": obs.source,
        "row_id": obs.row.row_id,
    }
    return doc


def merge_results(
    label: str,
    old: list[Doc],
    fresh: Mapping[str, Doc],
    fed: set[str],
    order: Mapping[str, int],
    changes: Changes,
) -> list[Doc]:
    """A model's results: hand results of benchmarks no source feeds and pinned results
    kept; every other fed benchmark's result is the upstream best."""
    kept = {r["benchmark"]: r for r in old if r["benchmark"] not in fed or r.get("pinned")}
    before = {r["benchmark"]: r for r in old}
    for bench, new in fresh.items():
        held = kept.get(bench)
        if held is not None:
            if held.get("pinned") and held["value"] != new["value"]:
                changes.conflicts.append(
                    f"{label}: {bench}: kept pinned {held['value']!r}; upstream"
                    f" {new['source']} row '{new['row_id']}' says {new['value']!r}"
                )
            continue
        kept[bench] = new
        _describe(label, bench, before.get(bench), new, "value", changes)
    for bench, gone in before.items():
        if bench not in kept:
            changes.changed.append(
                f"{label}: {bench}: removed {gone['value']!r} (no upstream row maps to this model)"
            )
    return [kept[b] for b in sorted(kept, key=lambda b: (order.get(b, len(order)), b))]


def _describe(
    label: str, bench: str, old: Doc | None, new: Doc, key: str, changes: Changes
) -> None:
    if old is None:
        changes.changed.append(
            f"{label}: {bench}: added {new[key]!r} ({new['source']} row '{new['row_id']}')"
        )
        return
    parts = []
    if old[key] != new[key]:
        why = (
            f"best row at any setting is '{new.get('source_model')}'"
            if old.get("source_model") != new.get("source_model")
            else "the best of this key's rows (another harness, run or variant)"
        )
        parts.append(f"{old[key]!r} -> {new[key]!r} ({why})")
    if old.get("as_of") != new["as_of"]:
        how = {None: "the row's own date", "published": "the table's update date"}.get(
            new.get("as_of_kind"), "not-before release date"
        )
        parts.append(f"as_of {old.get('as_of')} -> {new['as_of']} ({how})")
    if old.get("source_url") != new["source_url"]:
        parts.append(f"link -> {new['source_url']}")
    if parts:
        changes.changed.append(f"{label}: {bench}: " + "; ".join(p for p in parts if p))


def label_mixed_efforts(results: list[Doc], families: Mapping[str, str]) -> None:
    """Mark the results of a benchmark family whose best rows come from different settings."""
    groups: dict[str, list[Doc]] = {}
    for result in results:
        family = families.get(result["benchmark"])
        if family is not None:
            groups.setdefault(family, []).append(result)
    for members in groups.values():
        efforts = {r.get("effort") for r in members}
        for result in members:
            if len(efforts) > 1 and not result.get("pinned"):
                result["mixed_effort"] = MIXED
            elif result.get("mixed_effort") == MIXED:
                del result["mixed_effort"]


def merge_domain_rows(
    label: str,
    old: list[Doc],
    fresh: list[Doc],
    fed: set[str],
    order: Mapping[str, int],
    changes: Changes,
) -> list[Doc]:
    """A domain's rows: hand rows of unfed benchmarks and pinned rows kept, the rest upstream."""

    def key(row: Mapping[str, Any]) -> tuple[str, str, str]:
        return (row["model"], row["benchmark"], row.get("harness") or "")

    kept = {key(r): r for r in old if r["benchmark"] not in fed or r.get("pinned")}
    before = {key(r): r for r in old}
    for new in fresh:
        held = kept.get(key(new))
        if held is not None:
            if held.get("pinned") and held["score"] != new["score"]:
                changes.conflicts.append(
                    f"{label}: {'/'.join(k for k in key(new) if k)}: kept pinned"
                    f" {held['score']!r}; upstream {new['source']} row '{new['row_id']}'"
                    f" says {new['score']!r}"
                )
            continue
        kept[key(new)] = new
        _describe(
            label, "/".join(k for k in key(new) if k), before.get(key(new)), new, "score", changes
        )
    for row_key, gone in before.items():
        if row_key not in kept:
            changes.changed.append(
                f"{label}: {'/'.join(k for k in row_key if k)}: removed {gone['score']!r}"
                " (no upstream row maps to it)"
            )
    return [
        kept[k] for k in sorted(kept, key=lambda k: (order.get(k[1], len(order)), k[1], k[0], k[2]))
    ]


def newest_date(doc: Mapping[str, Any]) -> dt.date | None:
    """The newest date a model file states (release, results, revisions, usage, prices, runs)."""
    days: list[dt.date] = []
    for value in (
        doc.get("release_date"),
        (doc.get("usage") or {}).get("as_of"),
        (doc.get("prices") or {}).get("as_of"),
    ):
        if isinstance(value, dt.date):
            days.append(value)
    days += [r["as_of"] for r in doc.get("results", [])]
    days += [r["available_date"] for r in doc.get("revisions", [])]
    days += [r["as_of"] for r in doc.get("task_runs", [])]
    return max(days) if days else None


def midnight(day: dt.date) -> dt.datetime:
    return dt.datetime(day.year, day.month, day.day, tzinfo=dt.UTC)
