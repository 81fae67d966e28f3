"""Typed access to the computed API documents that the pages and charts are drawn from.

`render.build_documents` returns `dict[api path, Struct]`; this wrapper checks each
document's type once and answers the lookups pages need (a model's detail, the
ranking of a benchmark, the domains a model appears in) without recomputing anything.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cached_property
from typing import TypeVar

import msgspec

from generator.api.contract import (
    BENCHMARKS,
    CHARTS,
    DOMAIN,
    DOMAINS,
    HISTORY,
    HISTORY_SNAPSHOT,
    METHODOLOGY,
    MODEL,
    MODELS,
    RANKING,
    RANKINGS,
    BenchmarkMetadata,
    DocumentKind,
    DomainDetail,
    HistoryEntry,
    ModelDetail,
    RankingCatalogEntry,
    RankingDetail,
)
from generator.errors import BuildError

_T = TypeVar("_T", bound=msgspec.Struct)


def _get(
    documents: Mapping[str, msgspec.Struct], kind: DocumentKind[_T], value: str | None = None
) -> _T:
    path = kind.api_path(value)
    document = documents.get(path)
    if not isinstance(document, kind.response):
        expected, found = kind.response.__name__, type(document).__name__
        raise BuildError(f"pages: document {path}: expected {expected}, found {found}")
    return document


class SiteDocuments:
    """The computed documents, typed, with the cross-references pages need."""

    def __init__(self, documents: Mapping[str, msgspec.Struct]) -> None:
        self.documents = documents
        self.models = _get(documents, MODELS)
        self.benchmarks = _get(documents, BENCHMARKS)
        self.rankings = _get(documents, RANKINGS)
        self.charts = _get(documents, CHARTS)
        self.methodology = _get(documents, METHODOLOGY)
        self.domains = _get(documents, DOMAINS)
        self.model_details = {m.id: _get(documents, MODEL, m.id) for m in self.models.models}
        self.ranking_details = {
            r.id: _get(documents, RANKING, r.id) for r in self.rankings.rankings
        }
        self.domain_details = {d.id: _get(documents, DOMAIN, d.id) for d in self.domains.domains}
        self.history = _get(documents, HISTORY)
        self.history_details = {
            s.date.isoformat(): _get(documents, HISTORY_SNAPSHOT, s.date.isoformat())
            for s in self.history.snapshots
        }
        self._model_urls = {m.id: m.url for m in self.models.models}
        self._standings: dict[str, list[tuple[DomainDetail, int, int]]] | None = None
        self._history: dict[str, list[tuple[str, HistoryEntry]]] | None = None

    def model_url(self, model_id: str) -> str | None:
        """The public profile URL of a published model, or None."""
        return self._model_urls.get(model_id)

    def model_history(self, model_id: str) -> list[tuple[str, int, int, bool]]:
        """`(snapshot date, rank, iq, provisional)` at every month end where the model was
        ranked."""
        return [(d, e.rank, e.iq, e.provisional) for d, e in self.model_history_entries(model_id)]

    def model_history_entries(self, model_id: str) -> list[tuple[str, HistoryEntry]]:
        """`(snapshot date, the model's entry)` at every month end where it was ranked."""
        if self._history is None:
            self._history = {}
            for date, snapshot in self.history_details.items():
                for entry in snapshot.models:
                    self._history.setdefault(entry.id, []).append((date, entry))
        return self._history.get(model_id, [])

    def ranked_models(self) -> list[ModelDetail]:
        """Models with a composite rank, best first."""
        ranked = [m for m in self.model_details.values() if m.rank is not None]
        return sorted(ranked, key=lambda m: (m.rank or 0, m.id))

    def benchmark(self, benchmark_id: str) -> BenchmarkMetadata | None:
        """The metadata of a scored benchmark, by id or source field."""
        return self._benchmarks.get(benchmark_id)

    @cached_property
    def _benchmarks(self) -> dict[str, BenchmarkMetadata]:
        """Each benchmark by id and by source field; the first in catalog order wins."""
        found: dict[str, BenchmarkMetadata] = {}
        for b in self.benchmarks.benchmarks:
            found.setdefault(b.id, b)
            found.setdefault(b.field, b)
        return found

    def benchmark_ranking(self, benchmark: BenchmarkMetadata) -> RankingDetail | None:
        """The benchmark's ranking: catalog entry of type benchmark, matched by id then field."""
        entries = self.rankings_of_type("benchmark")
        by_id = [r for r in entries if r.id == benchmark.id]
        by_field = [r for r in entries if r.field == benchmark.field]
        found = by_id or by_field
        return self.ranking_details[found[0].id] if found else None

    def rankings_of_type(self, kind: str) -> list[RankingCatalogEntry]:
        """Catalog entries of one ranking type, in catalog order."""
        return [r for r in self.rankings.rankings if r.ranking_type == kind]

    def domain_standings(self, model_id: str) -> list[tuple[DomainDetail, int, int]]:
        """Every domain the model has a composite in: (domain, position, models in domain).

        Indexed on first use: one pass over every domain instead of one per model page.
        """
        if self._standings is None:
            self._standings = {}
            for domain in self.domain_details.values():
                for position, entry in enumerate(domain.models, 1):
                    standing = (domain, position, len(domain.models))
                    self._standings.setdefault(entry.model, []).append(standing)
        return list(self._standings.get(model_id, ()))
