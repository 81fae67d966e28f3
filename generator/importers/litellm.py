"""litellm's model price JSON (`model_prices_and_context_window_backup.json`): model key ->
USD per token (input, output, cache read and creation), context/output limits, who lists
it (`litellm_provider`), the listing's own page (`source`) and its `deprecation_date`.
Used as the fallback price source."""

from __future__ import annotations

import datetime as dt
import math
from pathlib import Path
from typing import Any

from generator.importers.identity import ModelInfo
from generator.importers.upstream import (
    UpstreamError,
    clean_text,
    parse_day,
    read_bounded,
    read_json,
)
from generator.input.urls import is_source_url

PER_TOKEN = {
    "input": "input_cost_per_token",
    "output": "output_cost_per_token",
    "cache_read": "cache_read_input_token_cost",
    "cache_write": "cache_creation_input_token_cost",
}


def read_litellm(
    path: Path, label: str, url: str, max_bytes: int, max_rows: int
) -> dict[str, ModelInfo]:
    """Every model key with a price, USD per 1M tokens."""
    doc = read_json(read_bounded(path, label, max_bytes), label)
    if not isinstance(doc, dict):
        raise UpstreamError([f"{label}: file: expected an object of model -> prices"])
    if len(doc) > max_rows:
        raise UpstreamError([f"{label}: rows: more than the limit of {max_rows} rows"])
    out = {}
    problems = []
    for key, entry in doc.items():
        if key == "sample_spec" or not isinstance(entry, dict):
            continue
        try:
            name = clean_text(key)
            host = entry.get("litellm_provider")
            listing = entry.get("source")
            out[name] = ModelInfo(
                key=name,
                url=listing if isinstance(listing, str) and is_source_url(listing) else url,
                context_window=_count(entry.get("max_input_tokens")),
                max_output_tokens=_count(entry.get("max_output_tokens")),
                prices=_prices(entry),
                host=clean_text(host) if isinstance(host, str) else name.split("/", 1)[0],
                retires_on=_day(entry.get("deprecation_date")),
            )
        except ValueError as exc:
            problems.append(f"{label}: {key[:80]}: {exc}")
    if problems:
        raise UpstreamError(problems)
    return out


def _count(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


def _prices(entry: dict[str, Any]) -> dict[str, float]:
    out = {}
    for name, column in PER_TOKEN.items():
        value = entry.get(column)
        if value is None:
            continue
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or not math.isfinite(value)
        ):
            raise ValueError(f"{column}: not a number")
        per_million = float(f"{value * 1_000_000:.12g}")
        if not 0 <= per_million <= 100_000:
            raise ValueError(f"{column}: {value} is outside 0..0.1 per token")
        out[name] = per_million
    return out


def _day(value: Any) -> dt.date | None:
    return parse_day(value) if isinstance(value, str) else None
