"""Upstream models we do not have: a model file each when released on or after its source's
date (`[publish]` of data/sources/<id>.toml), else listed as unmatched keys only. Each new
file starts as a draft; the publish rule (publish.py) settles it once its results are in."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import msgspec

from generator.importers.collect import Observation
from generator.importers.identity import ModelInfo
from generator.importers.upstream import parse_day
from generator.input.records import Alias, Line, Modality
from generator.input.urls import is_source_url

Doc = dict[str, Any]
DATED = re.compile(r"-(?:\d{4}-\d{2}-\d{2}|\d{8})$")
SLUG = re.compile(r"[^a-z0-9._-]+")
ACCESS_OPEN = "Open weights"
BOOLEANS = {"true": True, "false": False}


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
    since_of: Mapping[str, dt.date],
    taken: set[str],
    identity: Mapping[str, Mapping[str, str]],
    infos: Mapping[str, ModelInfo],
    labs: Mapping[str, tuple[str, str]],
) -> tuple[dict[str, Doc], list[Decision]]:
    """New model documents (drafts) and one decision per unmatched key of a source with a
    `[publish]` date.

    `identity` maps an upstream key (as written) to its identity row (Epoch's capabilities
    index: `Display name`, `Organization`, `Country`, `Release date`, `Model accessibility`);
    `infos` are models.dev entries by model part, for the release date, open weights, prices
    and limits; `labs` names the lab of a models.dev provider folder as data/ does.
    """
    groups: dict[str, list[Observation]] = {}
    for obs in unmatched:
        if obs.source in since_of and obs.domain is None:
            groups.setdefault(obs.base, []).append(obs)
    docs: dict[str, Doc] = {}
    decisions: list[Decision] = []
    for base, rows in sorted(groups.items()):
        source = min(o.source for o in rows)
        since = since_of[source]
        model_id = model_id_for(base)
        info = infos.get(model_id) or infos.get(base.lower())
        released = _release(rows, identity, info)
        if released is None or released < since:
            why = f"released {released or 'unknown'}, before {since}: not imported"
            decisions.append(Decision(base, None, False, why, source))
            continue
        if not model_id or model_id in taken or model_id in docs:
            why = f"id '{model_id}' is taken: map the key by hand"
            decisions.append(Decision(base, None, False, why, source))
            continue
        docs[model_id] = _doc(model_id, base, rows, released, identity, info, labs)
        decisions.append(Decision(base, model_id, False, f"released {released}", source))
    return docs, decisions


def _release(
    rows: list[Observation], identity: Mapping[str, Mapping[str, str]], info: ModelInfo | None
) -> dt.date | None:
    days = [parse_day(o.row.values.get("Release date", "")) for o in rows]
    days += [parse_day(identity.get(o.base, {}).get("Release date", "")) for o in rows]
    days.append(info.release_date if info is not None else None)
    found = sorted(d for d in days if d is not None)
    return found[0] if found else None


def _doc(
    model_id: str,
    base: str,
    rows: list[Observation],
    released: dt.date,
    identity: Mapping[str, Mapping[str, str]],
    info: ModelInfo | None,
    labs: Mapping[str, tuple[str, str]],
) -> Doc:
    ident = identity.get(base, {})
    values = rows[0].row.values
    name = _name(ident.get("Model name", ""), info, base)
    tail = base.rsplit("/", 1)[-1]  # an alias names the model, not the source's folder
    aliases = sorted({a for a in (name, tail) if a.lower() != model_id}, key=str.lower)
    lab = labs.get(info.key.split("/", 1)[0], ("", "")) if info is not None else ("", "")
    organization = (
        (ident.get("Organization") or values.get("Organization") or lab[0] or "Unknown")
        .split(",")[0]
        .strip()
    )
    country = (
        (ident.get("Country") or values.get("Country") or lab[1] or "Unknown").split(",")[0].strip()
    )
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
        "context_window": (info and info.context_window) or _count(ident, "Context window"),
        "max_output_tokens": (info and info.max_output_tokens)
        or _count(ident, "Max output tokens"),
        "knowledge_cutoff": info.knowledge_cutoff if info else None,
        "modalities": [m for m in ident.get("Modalities", "").split(",") if m],
        "tool_use": BOOLEANS.get(ident.get("Tool use", "")),
        "deprecated": ident.get("Deprecated") == "true",
        "identity_url": ident.get("Page") or None,
        "open_weights": bool(open_weights),
        "published": False,  # until the publish rule settles it (publish.py)
        "updated": None,  # set after the results are merged
        "results": [],
    }
    return doc


def _count(ident: Mapping[str, str], column: str) -> int | None:
    """A positive whole number an identity row states, else None."""
    text = ident.get(column, "").strip()
    return int(text) if text.isdigit() and int(text) > 0 else None


def _name(model_name: str, info: ModelInfo | None, base: str) -> str:
    if info is not None and info.name:
        return info.name
    if model_name.strip():
        return model_name.strip()
    return base


def valid_fields(doc: Doc, key: str) -> list[str]:
    """Make a new model's upstream-made fields valid data/ fields in place: an alias that
    is not one (`openai/gpt-5.5:free` holds `/` and `:`) is left out, an invalid name
    becomes the id, a provider or country `Unknown`, a link or modality is dropped; one
    note per field changed, so an upstream key never fails the import."""
    notes: list[str] = []
    where = f"models/{doc['id']}.toml (new, from '{key}')"
    left = [a for a in doc["aliases"] if not _valid(a, Alias)]
    notes += [f"{where}: alias {a!r} left out: not a valid alias" for a in left]
    doc["aliases"] = [a for a in doc["aliases"] if a not in left]
    if not _valid(doc["name"], Line):
        notes.append(f"{where}: name {doc['name']!r} is not a one-line name: the id instead")
        doc["name"] = doc["id"]
    for name in ("provider", "country"):
        if not _valid(doc[name], Line):
            notes.append(f"{where}: {name} {doc[name]!r} is not a one-line name: Unknown")
            doc[name] = "Unknown"
    if doc["identity_url"] is not None and not is_source_url(doc["identity_url"]):
        notes.append(f"{where}: identity_url left out: not a source URL")
        doc["identity_url"] = None
    modalities = [m for m in doc["modalities"] if _valid(m, Modality)]
    if modalities != doc["modalities"]:
        notes.append(f"{where}: modalities other than text, image, audio, video left out")
        doc["modalities"] = modalities
    return notes


def _valid(value: Any, kind: Any) -> bool:
    try:
        msgspec.convert(value, kind)
    except msgspec.ValidationError:
        return False
    return True
