"""Upstream model keys -> our model ids: a source's own mapping first, then model ids and
aliases (ignoring case), each tried on the key as written and without its effort suffix."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from generator.importers.upstream import UpstreamRow
from generator.input.records import SourceModelRecord, SourceRecord


@dataclass(frozen=True)
class Match:
    """Our model for an upstream row, with the mapping's effort and harness if it sets them."""

    model: str
    effort: str | None = None
    harness: str | None = None


class Matcher:
    """Finds our model for an upstream row of one source."""

    def __init__(
        self,
        models: Mapping[str, Mapping[str, Any]],
        source: SourceRecord,
        base: Callable[[str], str],
    ) -> None:
        self.names: dict[str, str] = {}
        for model_id, doc in sorted(models.items()):
            self.names.setdefault(model_id.lower(), model_id)
            for alias in doc.get("aliases", []):
                self.names.setdefault(str(alias).lower(), model_id)
        self.mappings: dict[str, list[SourceModelRecord]] = {}
        for mapping in source.models:
            self.mappings.setdefault(mapping.key, []).append(mapping)
        self.excluded = {(e.key, e.benchmark) for e in source.exclusions}
        self.reasons = {(e.key, e.benchmark): e.reason for e in source.exclusions}
        self.base = base

    def excluded_reason(self, key: str, benchmark: str) -> str | None:
        """Why `key` (on `benchmark`) is left out, if it is."""
        for candidate in (key, self.base(key)):
            for where in ((candidate, None), (candidate, benchmark)):
                if where in self.reasons:
                    return self.reasons[where]
        return None

    def match(self, row: UpstreamRow) -> Match | None:
        """Our model for `row`, or None (an unmatched key)."""
        for candidate in _unique((row.key, self.base(row.key))):
            for mapping in self.mappings.get(candidate, []):
                if all(row.values.get(col) == want for col, want in mapping.filter.items()):
                    model = self.names.get(mapping.model.lower(), mapping.model)
                    return Match(model, mapping.effort, mapping.harness)
        for candidate in _unique((row.key, self.base(row.key))):
            if candidate in self.mappings:
                return None  # mapped, but this row fails the mapping's filter
            found = self.names.get(candidate.lower())
            if found is not None:
                return Match(found)
        return None


def _unique(items: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(items))
