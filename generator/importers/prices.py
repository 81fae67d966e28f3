"""Prices in the order a buyer would trust them: the lab's own listing, then its cloud
partners', then resellers' (data/providers/ says which price-file provider is which); a
listing no provider entry names is never taken. Between equals, a live listing before a
retired one, models.dev before litellm. Pinned prices win."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from generator.importers.identity import ModelInfo
from generator.input.providers import PriceKind, ProviderTable
from generator.input.records import SourceRecord

Doc = dict[str, Any]
IMPORTED = ("input", "output", "cache_read", "cache_write")
PRICE_ROLES = ("prices", "fallback-prices")  # the source roles that price, trusted in order
REPLACED = (*IMPORTED, "source", "source_url", "as_of", "kind", "retired", "tiers")
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
    "kind",
    "retired",
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


def find_infos(
    model_id: str, doc: Mapping[str, Any], index: InfoIndex, mapped: Mapping[str, str]
) -> list[ModelInfo]:
    """A model's entries in one source: the source's mapping, else every entry whose key or
    model part (`openai/gpt-5.5`, `gpt-5.5`) is the model's id or an alias."""
    if model_id in mapped:
        found = index.infos.get(mapped[model_id])
        return [found] if found is not None else []
    names = {model_id.lower(), *(str(a).lower() for a in doc.get("aliases", []))}
    return [index.infos[key] for key in sorted({k for name in names for k in index.keys(name)})]


def find_info(
    model_id: str, doc: Mapping[str, Any], index: InfoIndex, mapped: Mapping[str, str]
) -> ModelInfo | None:
    """The one entry for a model's identity: its mapping, else a match, OpenRouter's last."""
    hits = find_infos(model_id, doc, index, mapped)
    return min(hits, key=lambda i: (i.key.startswith("openrouter/"), i.key)) if hits else None


@dataclass(frozen=True)
class Offer:
    """One listing's price of a model: which source and entry, its kind, and whether the
    listing says the model is retired (a deprecation date on or before the file's date)."""

    source: str
    info: ModelInfo
    as_of: dt.date | None
    kind: PriceKind
    retired: bool
    rank: tuple[Any, ...]


class Found(NamedTuple):
    """An entry of a price source found for a model."""

    source: str
    role: int  # the source's place in PRICE_ROLES
    info: ModelInfo
    as_of: dt.date | None  # the source file's date
    mapped: bool  # named by the source's own mapping (a reviewed choice)


def offers(lab: str, found: Sequence[Found], labs: ProviderTable, current: str = "") -> list[Offer]:
    """The priced entries `found` as offers, the most trusted first: by kind (the lab's own,
    its cloud partners', resellers'), a priced listing before one with a zero or missing
    input or output price (a free tier), a live one before a retired one, the lab's order of
    its listings, a mapped entry, the listing the price comes from now (`current`,
    `source:key`), then the reseller's entry id, models.dev before litellm, the key. An
    entry whose host no provider entry names, exactly, is left out: a new name that sorts
    first (`!!!cheap`, `Anthropic` beside `anthropic`) cannot win, and a new key that sorts
    first under a trusted host does not displace the listing in use."""
    named = {h for p in labs.providers.values() for h in (*p.first_party, *p.cloud)}
    out = []
    for source, role, info, as_of, mapped in found:
        trust = labs.price_rank(lab, info.host)
        kind = labs.price_kind(lab, info.host)
        if trust is None or kind is None or not info.prices or info.host not in named:
            continue
        retired = info.deprecated or (
            info.retires_on is not None and as_of is not None and info.retires_on <= as_of
        )
        free = not all(info.prices.get(k) for k in ("input", "output"))
        used = f"{source}:{info.key}" == current
        rank = (free, trust[0], retired, trust[1], not mapped, not used, trust[2], role, info.key)
        out.append(Offer(source, info, as_of, kind, retired, rank))
    return sorted(out, key=lambda o: o.rank)


def price_doc(old: Mapping[str, Any], ranked: Sequence[Offer]) -> tuple[Doc, str | None]:
    """The new `[prices]` table from the most trusted offer (cache prices it lacks from the
    same host's listing in another source) and, for a pinned table upstream disagrees with,
    a conflict. Without an offer the table is kept as it is."""
    if not ranked:
        return dict(old), None
    chosen = ranked[0]
    info = chosen.info
    new: Doc = {k: v for k, v in old.items() if k not in REPLACED}
    new |= info.prices
    label = f"{chosen.source}:{info.key}"
    for other in ranked[1:]:
        if other.info.host != info.host or other.source == chosen.source:
            continue
        for name in ("cache_read", "cache_write"):
            if name not in new and name in other.info.prices:
                new[name] = other.info.prices[name]
                label += f"; {name} {other.source}:{other.info.key}"
    new |= {
        "source": label,
        "source_url": info.url,
        "as_of": chosen.as_of,
        "kind": chosen.kind,
        "retired": chosen.retired or None,
    }
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


def identity_infos(
    models: Mapping[str, Mapping[str, Any]],
    collected: Any,
    sources: Mapping[str, SourceRecord],
) -> dict[str, ModelInfo | None]:
    """Each model's entry in the identity source (models.dev): its mapping, else its id or
    an alias as an entry's model part."""
    out: dict[str, ModelInfo | None] = {}
    for source in sources.values():
        if "identity" not in source.roles or source.id not in collected.identity:
            continue
        index = InfoIndex(collected.identity[source.id])
        names = {
            str(name).lower(): model_id
            for model_id, doc in sorted(models.items(), reverse=True)
            for name in (*doc.get("aliases", []), model_id)
        }
        mapped = {names.get(m.model.lower(), m.model): m.key for m in source.models}
        for model_id, doc in models.items():
            out.setdefault(model_id, find_info(model_id, doc, index, mapped))
    return out
