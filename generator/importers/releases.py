"""Which upstream rows can be a model's at all (not dated long before its release), and
where the sources disagree with our release dates."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence

from generator.importers.collect import Observation
from generator.importers.identity import ModelInfo
from generator.importers.upstream import parse_day
from generator.input.provenance import PRE_RELEASE_DAYS, before_release


def refuse_early(
    observations: Sequence[Observation], released: Mapping[str, dt.date | None]
) -> tuple[list[Observation], list[str]]:
    """The observations that may be their model's, and one report line for each refused:
    a row dated more than `PRE_RELEASE_DAYS` before its model's release is another model's
    (an earlier version under a reused name: METHODOLOGY.md 1.2)."""
    kept: list[Observation] = []
    refused: list[str] = []
    for obs in observations:
        day, release = obs.row.date, released.get(obs.model)
        if day is not None and before_release(day, release):
            where = f"{obs.domain}/{obs.benchmark}" if obs.domain else obs.benchmark
            refused.append(
                f"{obs.model}: {where}: {obs.source} row '{obs.row.row_id}' ({obs.row.key},"
                f" {day}) is more than {PRE_RELEASE_DAYS} days before the release {release}:"
                " another model's result, refused"
            )
        else:
            kept.append(obs)
    return kept, sorted(set(refused))


RELEASE_SLACK_DAYS = 31
"""Release dates further apart than this between our data and a source are listed."""


def release_claims(
    observations: Sequence[Observation],
    infos: Mapping[str, ModelInfo | None],
) -> dict[str, dict[str, dt.date]]:
    """What each source says a model's release date is: an upstream row's own `Release date`
    (Epoch's tables), and the identity source's entry (`infos`: model -> entry); by model,
    then by `source:key`."""
    out: dict[str, dict[str, dt.date]] = {}
    for obs in observations:
        day = parse_day(obs.row.values.get("Release date", ""))
        if day is not None:
            out.setdefault(obs.model, {})[f"{obs.source}:{obs.row.key}"] = day
    for model_id, info in infos.items():
        if info is not None and info.release_date is not None:
            out.setdefault(model_id, {})[f"models-dev:{info.key}"] = info.release_date
    return out


def release_disagreements(
    released: Mapping[str, dt.date | None],
    pinned: set[str],
    claims: Mapping[str, Mapping[str, dt.date]],
) -> list[str]:
    """One line per model whose release date a source puts more than `RELEASE_SLACK_DAYS`
    away, unless the date is pinned with its source and reason."""
    lines = []
    for model_id, said in sorted(claims.items()):
        ours = released.get(model_id)
        if ours is None or model_id in pinned:
            continue
        far = {k: d for k, d in sorted(said.items()) if abs((d - ours).days) > RELEASE_SLACK_DAYS}
        if far:
            others = ", ".join(f"{k} says {d} ({(d - ours).days:+d} days)" for k, d in far.items())
            lines.append(
                f"{model_id}: release_date {ours}; {others}: correct it, or pin it with"
                " release_date_source and release_date_note"
            )
    return lines
