"""What an identity or price source says about one model (models.dev, litellm)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field


@dataclass(frozen=True)
class PriceTier:
    """Prices above a context size (USD per 1M tokens)."""

    above_tokens: int
    prices: dict[str, float]


@dataclass(frozen=True)
class ModelInfo:
    """One upstream model entry: identity fields and prices (USD per 1M tokens)."""

    key: str
    url: str
    name: str | None = None
    release_date: dt.date | None = None
    knowledge_cutoff: str | None = None
    open_weights: bool | None = None
    context_window: int | None = None
    max_output_tokens: int | None = None
    prices: dict[str, float] = field(default_factory=dict)
    tiers: tuple[PriceTier, ...] = ()
    host: str = ""  # who lists the price: models.dev's provider folder, litellm's provider
    deprecated: bool = False  # the listing says the model is retired
    retires_on: dt.date | None = None  # the day the listing says it is retired
