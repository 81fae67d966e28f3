"""Plausibility guards: what an upstream file may change before anything is written.

An upstream can be compromised, cut short, renamed or simply wrong. Before the merge:

- a row dated after its file's own date (the source file record's `as_of`, plus
  `FUTURE_SLACK_DAYS`) is refused, one report line each: a row dated decades ahead once
  stretched the history to 900 month ends;
- a source whose rows would remove more than `MAX_LOSS_SHARE` of its results, or whose values
  move by a factor of ten or more for most models it shares with data/ (percent read as a
  fraction), stops the import with one line naming the source, unless the maintainer accepts
  that source (`modelscores import --accept SOURCE`; the report says so);
- an upstream key that no model matches, whose values equal those of a model whose own key
  no longer appears, is a probable rename: its rows stay that model's (no new model takes
  the original's results), and the report names both.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from generator.importers.collect import Collected, Observation
from generator.importers.upstream import UpstreamError

Doc = dict[str, Any]
Place = tuple[str | None, str, str]  # (domain, benchmark, model)

FUTURE_SLACK_DAYS = 31
"""Days a row may be dated after its file's recorded date (a file record's `as_of` is set
by hand and lags the file a little: Epoch's GSO rows of 2026-04-27 in a file of 2026-04-24)."""
MAX_LOSS_SHARE = 0.25
"""Share of a source's results in data/ that one import may remove without the maintainer
accepting it."""
MIN_GUARDED = 8
"""Results (or shared values) a source needs in data/ before the share guards apply: a
source of three results losing one is no signal."""
SCALE_FACTOR = 10.0
"""A value this many times larger or smaller than the one in data/ has shifted scale."""
MAX_SHIFTED_SHARE = 0.5
"""Share of a source's shared values that may shift scale without the maintainer accepting."""


@dataclass
class Guarded:
    """What the guards found: refused rows, probable renames, accepted stops."""

    refused: list[str] = dataclasses.field(default_factory=list)
    renames: list[str] = dataclasses.field(default_factory=list)
    accepted: list[str] = dataclasses.field(default_factory=list)


def file_dates(collected: Collected) -> dt.date | None:
    """The newest date any file record states: the date for a file that records none."""
    days = [o.file_as_of for o in (*collected.observations, *collected.unmatched) if o.file_as_of]
    return max(days) if days else None


def refuse_future(
    observations: Sequence[Observation], fallback: dt.date | None
) -> tuple[list[Observation], list[str]]:
    """The observations dated no later than their file's date (plus the slack), and one
    report line for each refused."""
    kept: list[Observation] = []
    refused: list[str] = []
    slack = dt.timedelta(days=FUTURE_SLACK_DAYS)
    for obs in observations:
        own = obs.file_as_of or fallback
        if obs.row.date is not None and own is not None and obs.row.date > own + slack:
            refused.append(
                f"{obs.source}: {obs.row.file}: row '{obs.row.row_id}' ({obs.row.key}) is dated"
                f" {obs.row.date}, after its file's date {own} (+{FUTURE_SLACK_DAYS} days):"
                " refused"
            )
        else:
            kept.append(obs)
    return kept, sorted(set(refused))


def _held(docs: Mapping[str, Doc]) -> dict[str, dict[Place, float]]:
    """Each source's unpinned results in data/: (domain, benchmark, model) -> value."""
    out: dict[str, dict[Place, float]] = {}
    for rel, doc in docs.items():
        for result in doc.get("results", []):
            source = result.get("source")
            if not source or result.get("pinned"):
                continue
            if rel.startswith("models/"):
                place: Place = (None, str(result["benchmark"]), rel[7:-5])
                value = result["value"]
            else:
                place = (rel[8:-5], str(result["benchmark"]), str(result["model"]))
                value = result["score"]
            out.setdefault(str(source), {})[place] = float(value)
    return out


def _place(obs: Observation) -> Place:
    return (obs.domain, obs.benchmark, obs.model)


def check_shares(
    docs: Mapping[str, Doc],
    observations: Iterable[Observation],
    accept: Iterable[str],
    guarded: Guarded,
) -> None:
    """Raise `UpstreamError`, one line per source, for a source that would remove too many
    of its results or shift the scale of most of its values; a source in `accept` is let
    through with a report line instead."""
    fresh: dict[Place, list[Observation]] = {}
    for obs in observations:
        fresh.setdefault(_place(obs), []).append(obs)
    accepted = set(accept)
    stops: list[str] = []
    for source, held in sorted(_held(docs).items()):
        problems = [p for p in (_loss(source, held, fresh), _shift(source, held, fresh)) if p]
        for problem in problems:
            if source in accepted:
                guarded.accepted.append(f"{problem}: accepted with --accept {source}")
            else:
                stops.append(
                    f"{problem}: refresh stopped; check the upstream file, then accept it"
                    f" with --accept {source}"
                )
    if stops:
        raise UpstreamError(stops)


def _loss(source: str, held: Mapping[Place, float], fresh: Mapping[Place, Any]) -> str | None:
    gone = [p for p in held if p not in fresh]
    if len(held) < MIN_GUARDED or len(gone) <= MAX_LOSS_SHARE * len(held):
        return None
    return (
        f"source {source}: its upstream rows would remove {len(gone)} of its {len(held)}"
        f" results ({len(gone) / len(held):.0%}, over {MAX_LOSS_SHARE:.0%})"
    )


def _shift(
    source: str, held: Mapping[Place, float], fresh: Mapping[Place, list[Observation]]
) -> str | None:
    pairs = [
        (old, obs.value)
        for place, old in held.items()
        for obs in fresh.get(place, [])[:1]
        if obs.source == source and old != 0 and obs.value != 0
    ]
    shifted = [p for p in pairs if abs(math.log10(abs(p[1] / p[0]))) >= math.log10(SCALE_FACTOR)]
    if len(pairs) < MIN_GUARDED or len(shifted) <= MAX_SHIFTED_SHARE * len(pairs):
        return None
    return (
        f"source {source}: {len(shifted)} of its {len(pairs)} values in data/ move by a factor"
        f" of {SCALE_FACTOR:g} or more (a change of scale, e.g. percent to fraction?)"
    )


def probable_renames(
    docs: Mapping[str, Doc], collected: Collected
) -> tuple[dict[tuple[str, str], str], list[str]]:
    """(source, upstream base key) -> our model, for each unmatched key whose values equal
    those (at least one, two where there are two) of a model's results from that source
    that no row matches any more; and one report line each."""
    matched = {(o.source, *_place(o)) for o in collected.observations}
    missing: dict[tuple[str, str], dict[tuple[str | None, str], float]] = {}
    for source, results in _held(docs).items():
        for (domain, bench, model), value in results.items():
            if (source, domain, bench, model) not in matched:
                missing.setdefault((source, model), {})[(domain, bench)] = value
    unmatched: dict[tuple[str, str], dict[tuple[str | None, str], float]] = {}
    for obs in collected.unmatched:
        unmatched.setdefault((obs.source, obs.base), {})[(obs.domain, obs.benchmark)] = obs.value
    renames: dict[tuple[str, str], str] = {}
    lines: list[str] = []
    for (source, key), values in sorted(unmatched.items()):
        found = [
            model
            for (src, model), old in sorted(missing.items())
            if src == source and _same(old, values)
        ]
        if len(found) == 1 and found[0] not in renames.values():
            renames[(source, key)] = found[0]
            lines.append(
                f"{source}: '{key}' has the results of models/{found[0]}.toml that no row"
                " matches any more: kept as that model's; if the key was renamed upstream,"
                f" map it in data/sources/{source}.toml"
            )
    return renames, lines


def _same(
    old: Mapping[tuple[str | None, str], float], new: Mapping[tuple[str | None, str], float]
) -> bool:
    shared = [k for k in old if k in new]
    return len(shared) >= min(2, len(old)) and all(old[k] == new[k] for k in shared)


def apply_renames(collected: Collected, renames: Mapping[tuple[str, str], str]) -> None:
    """Move each renamed key's unmatched observations to its model."""
    if not renames:
        return
    still: list[Observation] = []
    for obs in collected.unmatched:
        model = renames.get((obs.source, obs.base))
        if model is None:
            still.append(obs)
        else:
            collected.observations.append(dataclasses.replace(obs, model=model))
    collected.unmatched = still
