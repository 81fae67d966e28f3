"""What changed between two builds (pure: two snapshots in, one `Diff` out, sorted by id)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec

from generator.diff.snapshot import Band, DomainSnapshot, ModelSnapshot, Snapshot


class Move(msgspec.Struct, frozen=True, rename="camel", omit_defaults=True):
    """One value before and after; `within_band` when the base build published a 95% range
    and the new value lies inside it (a move that reads as noise)."""

    before: Any
    after: Any
    within_band: bool | None = None


class ModelRef(msgspec.Struct, frozen=True):
    id: str
    name: str


class ModelChange(msgspec.Struct, frozen=True, rename="camel", omit_defaults=True):
    """A model in both builds whose published numbers or name differ."""

    id: str
    name: str
    renamed_from: ModelRef | None = None
    composite: Move | None = None
    rank: Move | None = None
    emotional_reasoning: Move | None = None
    dimensions: dict[str, Move] = {}
    cost: dict[str, Move] = {}
    results: dict[str, Move] = {}

    @property
    def scores_changed(self) -> bool:
        moves = (self.composite, self.rank, self.emotional_reasoning)
        return any(moves) or bool(self.dimensions)


class DomainChange(msgspec.Struct, frozen=True, rename="camel", omit_defaults=True):
    """One domain leaderboard: models that joined or left it, and moved on it."""

    id: str
    name: str
    added: list[str] = []
    removed: list[str] = []
    composite: dict[str, Move] = {}
    rank: dict[str, Move] = {}


class CatalogueChange(msgspec.Struct, frozen=True, rename="camel", omit_defaults=True):
    """Benchmarks added, removed, or with changed metadata (the fields that differ)."""

    added: list[str] = []
    removed: list[str] = []
    changed: dict[str, dict[str, Move]] = {}


class MethodologyChange(msgspec.Struct, frozen=True, rename="camel", omit_defaults=True):
    version: Move | None = None
    parameters: dict[str, Move] = {}
    rules_changed: bool = False
    changelog_added: list[str] = []


class Diff(msgspec.Struct, frozen=True, rename="camel", omit_defaults=True):
    """Everything a reviewer needs, with a one-line summary."""

    summary: str
    models_added: list[ModelRef] = []
    models_removed: list[ModelRef] = []
    models_changed: list[ModelChange] = []
    domains: list[DomainChange] = []
    benchmarks: CatalogueChange | None = None
    methodology: MethodologyChange | None = None

    @property
    def changed(self) -> bool:
        return self.summary != NO_CHANGES


NO_CHANGES = "no changes"


def compare(base: Snapshot, new: Snapshot) -> Diff:
    """The changes from `base` to `new`."""
    renames = _renames(base.models, new.models)
    renamed_base = set(renames.values())
    added = [new.models[i] for i in sorted(new.models.keys() - base.models.keys() - renames.keys())]
    removed = [
        base.models[i] for i in sorted(base.models.keys() - new.models.keys() - renamed_base)
    ]
    pairs = {i: (base.models[i], new.models[i]) for i in base.models.keys() & new.models.keys()}
    pairs.update({i: (base.models[old], new.models[i]) for i, old in renames.items()})
    changed = [c for i in sorted(pairs) if (c := _model_change(*pairs[i])) is not None]
    domains = [
        change
        for slug in sorted(base.domains.keys() | new.domains.keys())
        if (change := _domain_change(base.domains.get(slug), new.domains.get(slug))) is not None
    ]
    parts = _Parts(
        added=[ModelRef(m.id, m.name) for m in added],
        removed=[ModelRef(m.id, m.name) for m in removed],
        changed=changed,
        domains=domains,
        benchmarks=_catalogue_change(base.benchmarks, new.benchmarks),
        methodology=_methodology_change(base.methodology, new.methodology),
    )
    return Diff(
        summary=parts.summary(),
        models_added=parts.added,
        models_removed=parts.removed,
        models_changed=parts.changed,
        domains=parts.domains,
        benchmarks=parts.benchmarks if parts.benchmarks != CatalogueChange() else None,
        methodology=parts.methodology if parts.methodology != MethodologyChange() else None,
    )


class _Parts(msgspec.Struct, kw_only=True):
    added: list[ModelRef]
    removed: list[ModelRef]
    changed: list[ModelChange]
    domains: list[DomainChange]
    benchmarks: CatalogueChange
    methodology: MethodologyChange

    def summary(self) -> str:
        renamed = sum(1 for c in self.changed if c.renamed_from)
        scored = sum(1 for c in self.changed if c.scores_changed)
        costed = sum(1 for c in self.changed if c.cost)
        results = sum(1 for c in self.changed if c.results)
        catalogue = self.benchmarks
        parts = [
            _count(len(self.added), "model added", "models added"),
            _count(len(self.removed), "model removed", "models removed"),
            _count(renamed, "model renamed", "models renamed"),
            _count(scored, "model with score changes", "models with score changes"),
            _count(costed, "model with cost changes", "models with cost changes"),
            _count(results, "model with result changes", "models with result changes"),
            _count(len(self.domains), "domain leaderboard changed", "domain leaderboards changed"),
            _count(len(catalogue.added), "benchmark added", "benchmarks added"),
            _count(len(catalogue.removed), "benchmark removed", "benchmarks removed"),
            _count(len(catalogue.changed), "benchmark changed", "benchmarks changed"),
        ]
        if self.methodology != MethodologyChange():
            version = self.methodology.version
            parts.append(
                f"methodology {version.before} -> {version.after}"
                if version
                else "methodology changed"
            )
        return ", ".join(p for p in parts if p) or NO_CHANGES


def _count(number: int, one: str, many: str) -> str:
    return "" if number == 0 else f"{number} {one if number == 1 else many}"


def _renames(base: Mapping[str, ModelSnapshot], new: Mapping[str, ModelSnapshot]) -> dict[str, str]:
    """New id -> base id for a model whose id changed: the new one lists the old id as an
    alias, or (failing that) has the same display name."""
    gone = sorted(base.keys() - new.keys())
    renames: dict[str, str] = {}
    for new_id in sorted(new.keys() - base.keys()):
        model = new[new_id]
        match = [old for old in gone if old in model.aliases] or [
            old for old in gone if base[old].name.casefold() == model.name.casefold()
        ]
        if match and match[0] not in renames.values():
            renames[new_id] = match[0]
    return renames


def _move(before: Any, after: Any, band: Band | None = None) -> Move | None:
    if before == after:
        return None
    within = None
    if band is not None and isinstance(after, int | float):
        within = band.holds(after)
    return Move(before, after, within)


def _moves(
    before: Mapping[str, Any], after: Mapping[str, Any], bands: Mapping[str, Band] | None = None
) -> dict[str, Move]:
    bands = bands or {}
    found = {}
    for key in sorted(before.keys() | after.keys()):
        move = _move(before.get(key), after.get(key), bands.get(key))
        if move is not None:
            found[key] = move
    return found


def _model_change(base: ModelSnapshot, new: ModelSnapshot) -> ModelChange | None:
    renamed = ModelRef(base.id, base.name) if (base.id, base.name) != (new.id, new.name) else None
    change = ModelChange(
        id=new.id,
        name=new.name,
        renamed_from=renamed,
        composite=_move(base.iq, new.iq, base.iq_band),
        rank=_move(base.rank, new.rank, base.rank_band),
        emotional_reasoning=_move(base.eq, new.eq),
        dimensions=_moves(base.dimensions, new.dimensions, base.dimension_bands),
        cost=_moves(base.cost, new.cost),
        results=_moves(base.results, new.results),
    )
    return None if change == ModelChange(id=new.id, name=new.name) else change


def _domain_change(base: DomainSnapshot | None, new: DomainSnapshot | None) -> DomainChange | None:
    before = base.entries if base else {}
    after = new.entries if new else {}
    shown = new or base
    assert shown is not None
    both = sorted(before.keys() & after.keys())
    change = DomainChange(
        id=shown.id,
        name=shown.name,
        added=sorted(after.keys() - before.keys()),
        removed=sorted(before.keys() - after.keys()),
        composite=_moves(
            {m: before[m].composite for m in both}, {m: after[m].composite for m in both}
        ),
        rank=_moves({m: before[m].rank for m in both}, {m: after[m].rank for m in both}),
    )
    return None if change == DomainChange(id=shown.id, name=shown.name) else change


def _catalogue_change(
    base: Mapping[str, Mapping[str, Any]], new: Mapping[str, Mapping[str, Any]]
) -> CatalogueChange:
    both = sorted(base.keys() & new.keys())
    changed = {b: moves for b in both if (moves := _moves(base[b], new[b]))}
    return CatalogueChange(
        added=sorted(new.keys() - base.keys()),
        removed=sorted(base.keys() - new.keys()),
        changed=changed,
    )


def _methodology_change(base: Mapping[str, Any], new: Mapping[str, Any]) -> MethodologyChange:
    old_log = {_entry(e) for e in base.get("changelog") or ()}
    return MethodologyChange(
        version=_move(base.get("version"), new.get("version")),
        parameters=_moves(base.get("parameters") or {}, new.get("parameters") or {}),
        rules_changed=base.get("rules") != new.get("rules"),
        changelog_added=sorted(
            text for text in (_entry(e) for e in new.get("changelog") or ()) if text not in old_log
        ),
    )


def _entry(entry: Mapping[str, Any]) -> str:
    return f"{entry.get('date')}: {entry.get('text')}"
