"""models.dev's provider/model TOML files (`providers/<provider>/models/<model>.toml`,
kept as `<provider>/models/<model>.toml`) and its shared base models
(`models/<org>/<model>.toml`, kept as `_models/<org>/<model>.toml`).

A provider file may name a `base_model`: its fields are the base's, overridden table by
table by its own. Each entry gives identity (name, release date, knowledge cutoff, open
weights, context and output limits) and prices: `[cost]` input, output, cache read and
write, and `[[cost.tiers]]` prices above a context size.
"""

from __future__ import annotations

import datetime as dt
import math
from pathlib import Path
from typing import Any

from generator.importers.identity import ModelInfo, PriceTier
from generator.importers.upstream import (
    UpstreamError,
    clean_text,
    parse_day,
    read_bounded,
    read_toml,
    text_problem,
)
from generator.input.urls import is_source_url
from generator.input.values import cutoff_day

BASES = "_models"
PRICE_KEYS = ("input", "output", "cache_read", "cache_write")


def read_models_dev(
    root: Path, label: str, url: str, max_bytes: int, max_files: int
) -> tuple[dict[str, ModelInfo], list[str]]:
    """Every `<provider>/<model>` entry under `root`, keyed so, and notes for the report
    (an entry whose base model is not in the download keeps its own fields only)."""
    if root.is_symlink() or not root.is_dir():
        raise UpstreamError([f"{label}: directory: not found (or a link)"])
    files = _files(root, label, max_files)
    bases = {_key(p.relative_to(root)): p for p in files if p.relative_to(root).parts[0] == BASES}
    out: dict[str, ModelInfo] = {}
    problems: list[str] = []
    notes: list[str] = []
    for path in files:
        rel = path.relative_to(root)
        if rel.parts[0] == BASES:
            continue
        key = _key(rel)
        where = f"{label}/{path.relative_to(root)}"
        if text_problem(key) is not None:  # a file name no data/ field may hold
            notes.append(f"{label}: a file left out: its name has a {text_problem(key)}")
            continue
        try:
            doc = read_toml(read_bounded(path, where, max_bytes), where)
            base_name = doc.get("base_model")
            if base_name is not None:
                base_name = clean_text(str(base_name))
                base = bases.get(str(base_name))
                if base is None:
                    notes.append(
                        f"{where}: base_model '{base_name}' not downloaded: own fields only"
                    )
                else:
                    doc = _inherit(read_toml(read_bounded(base, where, max_bytes), where), doc)
            link = f"{url.rstrip('/')}/{rel.as_posix()}"
            out[key] = _info(key, doc, link if is_source_url(link) else url)
        except UpstreamError as exc:
            problems += exc.problems
        except (ValueError, TypeError) as exc:
            problems.append(f"{where}: {exc}")
    if problems:
        raise UpstreamError(problems)
    return out, notes


def _files(root: Path, label: str, max_files: int) -> list[Path]:
    found: list[Path] = []
    for path in sorted(root.rglob("*.toml")):
        if len(found) >= max_files:
            raise UpstreamError([f"{label}: directory: more than the limit of {max_files} files"])
        rel = path.relative_to(root).parts
        if len(rel) >= 3 and (rel[0] == BASES or rel[1] == "models"):
            found.append(path)
    return found


def _key(rel: Path) -> str:
    """`openai/models/gpt-5.5.toml` -> `openai/gpt-5.5`; `_models/google/x.toml` -> `google/x`."""
    parts = rel.with_suffix("").parts
    return "/".join(parts[1:]) if parts[0] == BASES else "/".join((parts[0], *parts[2:]))


def _inherit(base: dict[str, Any], own: dict[str, Any]) -> dict[str, Any]:
    merged = dict(base)
    for key, value in own.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = {**merged[key], **value}
        else:
            merged[key] = value
    return merged


def _info(key: str, doc: dict[str, Any], url: str) -> ModelInfo:
    cost = doc.get("cost", {})
    limit = doc.get("limit", {})
    if not isinstance(cost, dict) or not isinstance(limit, dict):
        raise ValueError("cost and limit must be tables")
    name = doc.get("name")
    knowledge = doc.get("knowledge")
    open_weights = doc.get("open_weights")
    return ModelInfo(
        key=key,
        url=url,
        name=clean_text(name) if isinstance(name, str) else None,
        release_date=_day(doc.get("release_date")),
        knowledge_cutoff=knowledge
        if isinstance(knowledge, str) and cutoff_day(knowledge)
        else None,
        open_weights=open_weights if isinstance(open_weights, bool) else None,
        context_window=_count(limit.get("context")),
        max_output_tokens=_count(limit.get("output")),
        prices=_prices(cost),
        tiers=tuple(_tier(t) for t in cost.get("tiers", []) if isinstance(t, dict)),
        host=key.split("/", 1)[0],
        deprecated=doc.get("status") == "deprecated",
    )


def _day(value: Any) -> dt.date | None:
    if isinstance(value, dt.date):
        return value
    return parse_day(value) if isinstance(value, str) else None


def _count(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


def _prices(cost: dict[str, Any]) -> dict[str, float]:
    out = {}
    for name in PRICE_KEYS:
        value = cost.get(name)
        if value is None:
            continue
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or not math.isfinite(value)
        ):
            raise ValueError(f"cost.{name}: not a number")
        if not 0 <= value <= 100_000:
            raise ValueError(f"cost.{name}: {value} is outside 0..100000")
        out[name] = float(value)
    return out


def _tier(tier: dict[str, Any]) -> PriceTier:
    size = tier.get("tier", {}).get("size") if isinstance(tier.get("tier"), dict) else None
    above = _count(size)
    if above is None:
        raise ValueError("cost.tiers: tier.size must be a positive integer")
    return PriceTier(above_tokens=above, prices=_prices(tier))
