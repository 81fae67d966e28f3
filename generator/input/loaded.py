"""The records read from a data dir, each with the file it came from.

What the loader hands the checks (`validate`, `values`, `provenance`), in its own module so
that the checks import it and not each other.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Generic, TypeVar

from generator.input.records import (
    BenchmarkRecord,
    ChartRecord,
    DomainRecord,
    MethodologyRecord,
    ModelRecord,
    ProviderRecord,
    SourceRecord,
)

R = TypeVar("R")


@dataclass(frozen=True)
class Loaded(Generic[R]):
    """A record and the file it came from (as given, e.g. `data/models/gpt-5.toml`)."""

    label: str
    record: R
    placeholders: frozenset[str] = frozenset()  # bad fields standing in a repaired record


def _no_broken() -> dict[str, set[str]]:
    return {
        "models": set(),
        "benchmarks": set(),
        "domains": set(),
        "charts": set(),
        "sources": set(),
        "providers": set(),
    }


@dataclass
class Records:
    """Everything read from a data dir, unpublished models included."""

    methodology: Loaded[MethodologyRecord] | None = None
    models: list[Loaded[ModelRecord]] = field(default_factory=list)
    benchmarks: list[Loaded[BenchmarkRecord]] = field(default_factory=list)
    domains: list[Loaded[DomainRecord]] = field(default_factory=list)
    charts: list[Loaded[ChartRecord]] = field(default_factory=list)
    sources: list[Loaded[SourceRecord]] = field(default_factory=list)
    providers: list[Loaded[ProviderRecord]] = field(default_factory=list)
    broken: dict[str, set[str]] = field(default_factory=_no_broken)
