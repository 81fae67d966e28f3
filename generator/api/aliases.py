"""How a name a person or agent gives finds a model: one rule for MCP, `explain` and hosting.

A model is found by its id, any of its `aliases` (former ids, provider API ids, the display
name), or its display name, ignoring case. Validation keeps aliases unique against every id
and alias ignoring case, so only a display name shared with another model's alias or id can
clash: ids win over aliases, aliases over names, and among names the smallest id.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import NamedTuple


class Names(NamedTuple):
    """What one model may be called."""

    id: str
    name: str
    aliases: Sequence[str]


def name_keys(models: Iterable[Names]) -> dict[str, str]:
    """Lower-cased (casefolded) name, alias or id to the model id."""
    by_id_desc = sorted(models, key=lambda m: m.id, reverse=True)
    keys = {m.name.casefold(): m.id for m in by_id_desc}
    keys.update({alias.casefold(): m.id for m in by_id_desc for alias in m.aliases})
    keys.update({m.id.casefold(): m.id for m in by_id_desc})
    return keys


def resolve(keys: Mapping[str, str], query: str) -> str | None:
    """The id of the model `query` names (surrounding space ignored), or None."""
    return keys.get(query.strip().casefold())
