"""Upstream models we do not have: a model file each, published when it meets its source's
rule (released on or after a date, direct results in at least N of the 7 dimensions),
otherwise an unpublished draft; older models are listed as unmatched keys only."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from generator.importers.collect import Observation
from generator.importers.identity import ModelInfo
from generator.importers.upstream import parse_day

Doc = dict[str, Any]
DATED = re.compile(r"-(?:\d{4}-\d{2}-\d{2}|\d{8})$")
SLUG = re.compile(r"[^a-z0-9._-]+")
ACCESS_OPEN = "Open weights"


@dataclass(frozen=True)
class Decision:
    """What happened to one upstream model key."""

    key: str
    model: str | None
    published: bool
    reason: str
    source: str = ""


def model_id_for(key: str) -> str:
    """`claude-3-7-sonnet-20250219` -> `claude-3-7-sonnet`; `openai/gpt-oss-20b` ->
    `gpt-oss-20b`."""
    tail = key.rsplit("/", 1)[-1]
    slug = SLUG.sub("-", DATED.sub("", tail).lower()).strip("-._")
    return slug[:64].rstrip("-._")


def plan_new_models(
    unmatched: list[Observation],
    rule_of: Mapping[str, tuple[dt.date, int]],
    taken: set[str],
    dimension_of: Mapping[str, str],
    identity: Mapping[str, Mapping[str, str]],
    infos: Mapping[str, ModelInfo],
) -> tuple[dict[str, Doc], list[Decision]]:
    """New model documents and one decision per unmatched key of a source with a rule.

    `identity` maps an upstream key (as written) to its identity row (Epoch's capabilities
    index: `Display name`, `Organization`, `Country`, `Release date`, `Model accessibility`);
    `infos` are models.dev entries by model part, for open weights, prices and limits.
    """
    groups: dict[str, list[Observation]] = {}
    for obs in unmatched:
        if obs.source in rule_of and obs.domain is None:
            groups.setdefault(obs.base, []).append(obs)
    docs: dict[str, Doc] = {}
    decisions: list[Decision] = []
    for base, rows in sorted(groups.items()):
        since, needed = rule_of[rows[0].source]
        released = _release(rows, identity)
        if released is None or released < since:
            decisions.append(
                Decision(
                    base,
                    None,
                    False,
                    f"released {released or 'unknown'}, before {since}: not imported",
                    rows[0].source,
                )
            )
            continue
        model_id = model_id_for(base)
        if not model_id or model_id in taken or model_id in docs:
            decisions.append(
                Decision(
                    base,
                    None,
                    False,
                    f"id '{model_id}' is taken: map the key by hand",
                    rows[0].source,
                )
            )
            continue
        dims = sorted({dimension_of[o.benchmark] for o in rows if o.benchmark in dimension_of})
        published = len(dims) >= needed
        docs[model_id] = _doc(model_id, base, rows, released, published, identity, infos)
        why = f"released {released}, direct results in {len(dims)} of 7 ({', '.join(dims)})"
        rule = f"rule: on/after {since} and {needed}+ dimensions"
        decisions.append(Decision(base, model_id, published, f"{why}; {rule}", rows[0].source))
    return docs, decisions


def _release(rows: list[Observation], identity: Mapping[str, Mapping[str, str]]) -> dt.date | None:
    days = [parse_day(o.row.values.get("Release date", "")) for o in rows]
    days += [parse_day(identity.get(o.base, {}).get("Release date", "")) for o in rows]
    found = sorted(d for d in days if d is not None)
    return found[0] if found else None


def _doc(
    model_id: str,
    base: str,
    rows: list[Observation],
    released: dt.date,
    published: bool,
    identity: Mapping[str, Mapping[str, str]],
    infos: Mapping[str, ModelInfo],
) -> Doc:
    ident = identity.get(base, {})
    values = rows[0].row.values
    info = infos.get(model_id) or infos.get(base.lower())
    name = _name(ident.get("Model name", ""), info, base)
    aliases = sorted({a for a in (name, base) if a.lower() != model_id}, key=str.lower)
    organization = (
        (ident.get("Organization") or values.get("Organization") or "Unknown").split(",")[0].strip()
    )
    country = (ident.get("Country") or values.get("Country") or "Unknown").split(",")[0].strip()
    open_weights = (
        info.open_weights
        if info is not None and info.open_weights is not None
        else ident.get("Model accessibility", "").startswith(ACCESS_OPEN)
    )
    doc: Doc = {
        "id": model_id,
        "name": name,
        "aliases": aliases,
        "provider": organization or "Unknown",
        "country": country or "Unknown",
        "release_date": released,
        "context_window": info.context_window if info else None,
        "max_output_tokens": info.max_output_tokens if info else None,
        "knowledge_cutoff": info.knowledge_cutoff if info else None,
        "open_weights": bool(open_weights),
        "published": None if published else False,
        "updated": None,  # set after the results are merged
        "results": [],
    }
    return doc


def _name(model_name: str, info: ModelInfo | None, base: str) -> str:
    if info is not None and info.name:
        return info.name
    if model_name.strip():
        return model_name.strip()
    return base
