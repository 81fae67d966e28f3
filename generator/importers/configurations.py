"""Reasoning configurations: one per upstream key with an explicit effort level or
thinking-token budget (Epoch AI's `<model>_<effort>` rows), its values keyed by benchmark
field (the key's best row per benchmark)."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Mapping
from typing import Any

from generator.importers.collect import Observation

Doc = dict[str, Any]
EFFORT_KEY = re.compile(r"\A(?P<base>.+)_(?P<effort>xhigh|high|medium|low|minimal|none|max|\d+K)\Z")
NAMED = ("none", "minimal", "low", "medium", "high", "xhigh", "max")
SUFFIXED_FORMATS = ("epoch",)


def configurations(
    observations: Iterable[Observation],
    fields: Mapping[str, str],
    higher_is_better: Mapping[str, bool],
    names: Mapping[str, str],
) -> dict[str, list[Doc]]:
    """Model id -> its configurations, sorted by id. `names` maps a source id to its name."""
    values: dict[tuple[str, str, str], dict[str, float]] = {}
    dates: dict[tuple[str, str, str], dt.date] = {}
    urls: dict[tuple[str, str, str], str] = {}
    for obs in observations:
        match = EFFORT_KEY.match(obs.row.key)
        if obs.domain is not None or obs.format not in SUFFIXED_FORMATS or match is None:
            continue
        key = (obs.model, obs.source, obs.row.key)
        field = fields[obs.benchmark]
        held = values.setdefault(key, {}).get(field)
        better = held is None or (obs.value > held) == higher_is_better[obs.benchmark]
        if better and obs.value != held:
            values[key][field] = obs.value
        day = obs.row.date or obs.file_as_of
        if day is not None:
            dates[key] = max(day, dates.get(key, day))
        urls.setdefault(key, obs.file_url)
    out: dict[str, list[Doc]] = {}
    for key in sorted(values):
        model, source, upstream = key
        out.setdefault(model, []).append(
            _doc(upstream, source, names[source], urls[key], dates.get(key), values[key])
        )
    for docs in out.values():
        docs.sort(key=lambda d: d["id"])
    return out


def _doc(
    key: str, source: str, name: str, url: str, captured: dt.date | None, values: dict[str, float]
) -> Doc:
    match = EFFORT_KEY.match(key)
    assert match is not None
    effort = match["effort"]
    return {
        "id": re.sub(r"[^a-z0-9._-]+", "-", key.lower()).strip("-._")[:64],
        "source_model": match["base"],
        "source_model_id": key,
        "effort_key": effort,
        "effort_label": effort if effort in NAMED else f"{effort} thinking-token budget",
        "reasoning": effort != "none",
        "source": source,
        "source_name": name,
        "source_url": url,
        "captured": captured.isoformat() if captured else None,
        "values": dict(sorted(values.items())),
    }
