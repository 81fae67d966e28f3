"""Prices from the identity source (models.dev), litellm as the fallback; pinned prices win."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from generator.importers.identity import ModelInfo

Doc = dict[str, Any]
IMPORTED = ("input", "output", "cache_read", "cache_write")
ORDER = (
    "input",
    "output",
    "cache_read",
    "cache_write",
    "cache_write_1h",
    "cache_storage_hourly",
    "free",
    "rate_limited",
    "source",
    "source_url",
    "as_of",
    "pinned",
    "hosted",
    "tiers",
)


class InfoIndex:
    """A source's entries by the names a model may match them on: each key and its model
    part (`openai/gpt-5.5`, `gpt-5.5`), lower-cased. Built once per source, so matching
    every model costs a lookup per name, not a pass over the source's thousands of keys."""

    def __init__(self, infos: Mapping[str, ModelInfo]) -> None:
        self.infos = infos
        self._keys: dict[str, list[str]] = {}
        for key in infos:
            lower = key.lower()
            for name in {lower, lower.rsplit("/", 1)[-1]}:
                self._keys.setdefault(name, []).append(key)

    def keys(self, name: str) -> list[str]:
        """The keys matching the lower-cased `name`."""
        return self._keys.get(name, [])


def find_info(
    model_id: str, doc: Mapping[str, Any], index: InfoIndex, mapped: Mapping[str, str]
) -> ModelInfo | None:
    """The entry for a model: the source's mapping, else the id or an alias as the entry's
    model part (`openai/gpt-5.5`, `gpt-5.5`), first-party providers before resellers."""
    if model_id in mapped:
        return index.infos.get(mapped[model_id])
    names = {model_id.lower(), *(str(a).lower() for a in doc.get("aliases", []))}
    hits = [key for name in names for key in index.keys(name)]
    if not hits:
        return None
    return index.infos[min(hits, key=lambda key: (key.startswith("openrouter/"), key))]


def price_doc(
    old: Mapping[str, Any],
    primary: tuple[str, ModelInfo, dt.date | None] | None,
    fallback: tuple[str, ModelInfo, dt.date | None] | None,
) -> tuple[Doc, str | None]:
    """The new `[prices]` table and, for a pinned one that upstream disagrees with, a conflict."""
    chosen = primary if primary is not None and primary[1].prices else fallback
    if chosen is None or not chosen[1].prices:
        return dict(old), None
    source, info, as_of = chosen
    replaced = (*IMPORTED, "source", "source_url", "as_of", "tiers")
    new: Doc = {k: v for k, v in old.items() if k not in replaced}
    new |= info.prices
    label = f"{source}:{info.key}"
    if fallback is not None and chosen is primary:
        for name in ("cache_read", "cache_write"):
            if name not in new and name in fallback[1].prices:
                new[name] = fallback[1].prices[name]
                label += f"; {name} {fallback[0]}:{fallback[1].key}"
    new |= {"source": label, "source_url": info.url, "as_of": as_of}
    tiers = [{"above_tokens": t.above_tokens, **t.prices} for t in info.tiers if t.prices]
    if tiers:
        new["tiers"] = tiers
    if old.get("pinned"):
        differs = [k for k in IMPORTED if k in new and old.get(k) != new[k]]
        conflict = f"kept pinned prices; {label} says " + ", ".join(
            f"{k} {new[k]!r}" for k in differs
        )
        return dict(old), (conflict if differs else None)
    return {k: new[k] for k in ORDER if new.get(k) is not None} | {
        k: v for k, v in new.items() if k not in ORDER
    }, None
