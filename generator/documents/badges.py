"""README badges: one shields.io endpoint file per published model (`badges/<id>.json`).

shields.io's endpoint format allows exactly its own keys (`schemaVersion`, `label`,
`message`, `color`, ...) and rejects any other, so a badge carries no API envelope and is
served outside `/api/v1` (docs/DECISIONS.md); an unknown id gets the site's 404 (no
`_redirects` rule: their count is budgeted per model). Made from the model list: a badge says what
the leaderboard says (composite IQ, rank, provisional), never more.
"""

from __future__ import annotations

import msgspec

from generator.api.contract import ModelSummary

LABEL = "modelscores"
CACHE_SECONDS = (
    3600  # shields re-reads a badge at most hourly (the site rebuilds a few times a day)
)
TOP_COLOURS = ((3, "brightgreen"), (10, "green"), (25, "yellowgreen"))
RANKED_COLOUR = "blue"
PROVISIONAL_COLOUR = "yellow"
UNRANKED_COLOUR = "lightgrey"


class Badge(msgspec.Struct, frozen=True, rename="camel", omit_defaults=True):
    """shields.io's endpoint schema (https://shields.io/badges/endpoint-badge), the keys used."""

    schema_version: int
    label: str
    message: str
    color: str
    cache_seconds: int | None = None


def message(model: ModelSummary) -> str:
    """ "IQ 126 · #3", "IQ 126 · #3 provisional", "IQ 118 · unranked", or "unranked"."""
    if model.iq is None:
        return "unranked"
    if model.rank is None:
        return f"IQ {model.iq} · unranked"
    return f"IQ {model.iq} · #{model.rank}" + (" provisional" if model.provisional else "")


def colour(model: ModelSummary) -> str:
    """Green shades for the top 25, blue for other ranks; yellow while provisional, grey
    without a rank."""
    if model.iq is None or model.rank is None:
        return UNRANKED_COLOUR
    if model.provisional:
        return PROVISIONAL_COLOUR
    return next((c for top, c in TOP_COLOURS if model.rank <= top), RANKED_COLOUR)


def _encode(badge: Badge) -> bytes:
    return msgspec.json.encode(badge) + b"\n"


def badge(model: ModelSummary) -> bytes:
    return _encode(Badge(1, LABEL, message(model), colour(model), CACHE_SECONDS))
