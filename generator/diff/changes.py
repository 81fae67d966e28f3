"""What changed between two builds (pure: two snapshots in, one `Diff` out, sorted by id).

Every published field of every model, every ranking and domain leaderboard place by place,
the benchmark catalogue and the methodology; and for each model that moved although nothing
of its own changed, the cause (`generator/diff/causes.py`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec

from generator.diff.causes import Inputs, Shift, changed_ladders, explain, own_inputs_changed
from generator.diff.snapshot import Band, ModelSnapshot, RankingSnapshot, Snapshot


class Move(msgspec.Struct, frozen=True, rename="camel", omit_defaults=True):
    """One value before and after; `within_band` when the base build published a 95% range
    for it (true: the new value lies inside, a move that reads as noise)."""

    before: Any
    after: Any
    within_band: bool | None = None


class ModelRef(msgspec.Struct, frozen=True):
    id: str
    name: str


class ModelEntry(msgspec.Struct, frozen=True, rename="camel", omit_defaults=True):
    """An added or removed model: its scores, their range, its rank and rank band, how many
    of its dimensions are imputed, whether its composite is provisional, its cost."""

    id: str
    name: str
    rank: int | None = None
    rank_low: int | None = None
    rank_high: int | None = None
    composite_iq: float | None = None
    iq_low95: float | None = None
    iq_high95: float | None = None
    imputed: int | None = None
    provisional: bool | None = None
    emotional_reasoning: float | None = None
    effective_per_1m: float | None = None
    dimensions: dict[str, Any] = {}


class InsertionMoves(msgspec.Struct, frozen=True, rename="camel", omit_defaults=True):
    """The moves an insertion alone caused: set when models were added and no other input
    changed (no model's own data, no removal, no methodology or catalogue change beyond
    the noise re-estimated from every result), so every other model moved only by it."""

    models: int  # models that moved
    most_places: int  # the largest place move on any ranking
    most_iq: float  # the largest composite IQ move
    outside_band: int  # models whose composite left the base build's 95% range


class ModelChange(msgspec.Struct, frozen=True, rename="camel", omit_defaults=True):
    """A model in both builds whose published document differs: every changed field."""

    id: str
    name: str
    own_data_changed: bool
    renamed_from: ModelRef | None = None
    fields: dict[str, Move] = {}


class PlaceMove(msgspec.Struct, frozen=True, rename="camel", omit_defaults=True):
    """A model's place on one ranking: `before` None when it joined, `after` None when it
    left; `score` when its score there changed."""

    id: str
    name: str
    before: int | None
    after: int | None
    score: Move | None = None
    within_band: bool | None = None


class RankingChange(msgspec.Struct, frozen=True, rename="camel", omit_defaults=True):
    id: str
    name: str
    moves: list[PlaceMove] = []


class Cause(msgspec.Struct, frozen=True):
    """Why a model moved when nothing of its own changed, in one line."""

    id: str
    name: str
    cause: str


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
    """Everything a reviewer needs, with a one-line summary first."""

    summary: str
    models_added: list[ModelEntry] = []
    models_removed: list[ModelEntry] = []
    models_changed: list[ModelChange] = []
    causes: list[Cause] = []
    insertion: InsertionMoves | None = None
    rankings: list[RankingChange] = []
    benchmarks: CatalogueChange | None = None
    methodology: MethodologyChange | None = None

    @property
    def changed(self) -> bool:
        return self.summary != NO_CHANGES


NO_CHANGES = "no changes"
PROVISIONAL_BELOW = 3
"""A composite on fewer direct dimensions is provisional (METHODOLOGY v4), where the model
document does not say so itself (`provisional`)."""


def compare(base: Snapshot, new: Snapshot) -> Diff:
    """The changes from `base` to `new`."""
    renames = _renames(base.models, new.models)
    added = sorted(new.models.keys() - base.models.keys() - renames.keys())
    removed = sorted(base.models.keys() - new.models.keys() - set(renames.values()))
    pairs = {i: (base.models[i], new.models[i]) for i in base.models.keys() & new.models.keys()}
    pairs.update({i: (base.models[old], new.models[i]) for i, old in renames.items()})
    names = {**{m.id: m.name for m in base.models.values()}, **_names(new)}
    changed = [c for i in sorted(pairs) if (c := _model_change(*pairs[i])) is not None]
    rankings = [
        change
        for key in _ranking_order(base, new)
        if (change := _ranking_change(key, base, new, names, renames)) is not None
    ]
    catalogue = _catalogue_change(base.benchmarks, new.benchmarks)
    methodology = _methodology_change(base.methodology, new.methodology)
    inputs = Inputs(
        base=base,
        new=new,
        own={c.id for c in changed if c.own_data_changed},
        added=[names[i] for i in added],
        removed=[names[i] for i in removed],
        noise={
            b: Shift(m["noiseSd"].before, m["noiseSd"].after)
            for b, m in catalogue.changed.items()
            if "noiseSd" in m
        },
        parameters={k: (m.before, m.after) for k, m in methodology.parameters.items()},
        ladders=changed_ladders(base, new),
    )
    moved = {c.id for c in changed} | {m.id for r in rankings for m in r.moves}
    causes = [
        Cause(i, names[i], explain(i, inputs, rankings_moved(i, rankings)))
        for i in sorted(moved - inputs.own - set(added) - set(removed))
    ]
    diff = Diff(
        summary="",
        models_added=[_entry(new.models[i]) for i in added],
        models_removed=[_entry(base.models[i]) for i in removed],
        models_changed=changed,
        causes=causes,
        rankings=rankings,
        benchmarks=catalogue if catalogue != CatalogueChange() else None,
        methodology=methodology if methodology != MethodologyChange() else None,
    )
    if added and _insertion_only(diff):
        diff = msgspec.structs.replace(diff, insertion=_insertion_moves(diff, set(added)))
    return msgspec.structs.replace(diff, summary=summary(diff))


def _insertion_only(diff: Diff) -> bool:
    """Whether added models are the only input that changed."""
    catalogue = diff.benchmarks or CatalogueChange()
    return (
        not diff.models_removed
        and not any(c.own_data_changed for c in diff.models_changed)
        and diff.methodology is None
        and not catalogue.added
        and not catalogue.removed
        and all(set(moves) == {"noiseSd"} for moves in catalogue.changed.values())
    )


def _insertion_moves(diff: Diff, added: set[str]) -> InsertionMoves:
    places = [
        abs(m.after - m.before)
        for r in diff.rankings
        for m in r.moves
        if m.before is not None and m.after is not None
    ]
    iq = [
        abs(move.after - move.before)
        for c in diff.models_changed
        if (move := c.fields.get("iq")) is not None
        and isinstance(move.before, int | float)
        and isinstance(move.after, int | float)
    ]
    outside = sum(
        1
        for c in diff.models_changed
        if (move := c.fields.get("iq")) is not None and move.within_band is False
    )
    moved = {c.id for c in diff.causes} - added
    return InsertionMoves(
        models=len(moved),
        most_places=max(places, default=0),
        most_iq=max(iq, default=0),
        outside_band=outside,
    )


def rankings_moved(model_id: str, rankings: list[RankingChange]) -> list[tuple[str, Shift]]:
    """(ranking id, its places before and after) for each ranking the model moved on."""
    return [(r.id, Shift(m.before, m.after)) for r in rankings for m in r.moves if m.id == model_id]


def summary(diff: Diff) -> str:
    own = sum(1 for c in diff.models_changed if c.own_data_changed)
    renamed = sum(1 for c in diff.models_changed if c.renamed_from)
    domains = sum(1 for r in diff.rankings if r.id.startswith("domain:"))
    catalogue = diff.benchmarks or CatalogueChange()
    parts = [
        _count(len(diff.models_added), "model added", "models added"),
        _count(len(diff.models_removed), "model removed", "models removed"),
        _count(renamed, "model renamed", "models renamed"),
        _count(own, "model changed by its own data", "models changed by their own data"),
        _count(len(diff.causes), "model moved by other inputs", "models moved by other inputs")
        if diff.insertion is None
        else _count(
            diff.insertion.models,
            "model moved only by the insertion",
            "models moved only by the insertion",
        ),
        _count(len(diff.rankings) - domains, "ranking changed", "rankings changed"),
        _count(domains, "domain leaderboard changed", "domain leaderboards changed"),
        _count(len(catalogue.added), "benchmark added", "benchmarks added"),
        _count(len(catalogue.removed), "benchmark removed", "benchmarks removed"),
        _count(len(catalogue.changed), "benchmark changed", "benchmarks changed"),
    ]
    if diff.methodology is not None:
        version = diff.methodology.version
        parts.append(
            f"methodology {version.before} -> {version.after}" if version else "methodology changed"
        )
    return ", ".join(p for p in parts if p) or NO_CHANGES


def _count(number: int, one: str, many: str) -> str:
    return "" if number == 0 else f"{number} {one if number == 1 else many}"


def _names(snapshot: Snapshot) -> dict[str, str]:
    return {m.id: m.name for m in snapshot.models.values()}


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
    if band is not None and isinstance(after, int | float) and not isinstance(after, bool):
        within = band.holds(after)
    return Move(before, after, within)


def _moves(before: Mapping[str, Any], after: Mapping[str, Any]) -> dict[str, Move]:
    return {
        key: move
        for key in sorted(before.keys() | after.keys())
        if (move := _move(before.get(key), after.get(key))) is not None
    }


def _model_change(base: ModelSnapshot, new: ModelSnapshot) -> ModelChange | None:
    renamed = ModelRef(base.id, base.name) if (base.id, base.name) != (new.id, new.name) else None
    fields = {
        path: move
        for path in _field_order(base.fields.keys() | new.fields.keys())
        if (move := _move(base.fields.get(path), new.fields.get(path), base.band(path)))
    }
    if not fields and renamed is None:
        return None
    return ModelChange(
        id=new.id,
        name=new.name,
        own_data_changed=renamed is not None or own_inputs_changed(base, new),
        renamed_from=renamed,
        fields=fields,
    )


_FIELD_ORDER = ("name", "iq", "rank", "emotionalReasoning", "cost.", "dimensions.")


def _field_order(paths: set[str]) -> list[str]:
    """The headline numbers first, then cost, dimensions, results, the rest; by path."""

    def key(path: str) -> tuple[int, str]:
        for index, start in enumerate(_FIELD_ORDER):
            if path == start or (start.endswith(".") and path.startswith(start)):
                return index, path
        return len(_FIELD_ORDER), path

    return sorted(paths, key=key)


def _entry(model: ModelSnapshot) -> ModelEntry:
    fields = model.fields
    dimensions = {
        path.split(".")[1]: value
        for path, value in fields.items()
        if path.startswith("dimensions.") and path.endswith(".iq")
    }
    imputed = [
        value
        for path, value in fields.items()
        if path.startswith("dimensions.") and path.endswith(".imputed")
    ]
    direct = sum(1 for value in imputed if value is False)
    provisional = fields.get("provisional")
    if not isinstance(provisional, bool) and fields.get("iq") is not None and imputed:
        provisional = direct < PROVISIONAL_BELOW
    return ModelEntry(
        id=model.id,
        name=model.name,
        rank=fields.get("rank"),
        rank_low=fields.get("rankLow"),
        rank_high=fields.get("rankHigh"),
        composite_iq=fields.get("iq"),
        iq_low95=fields.get("iqLow95"),
        iq_high95=fields.get("iqHigh95"),
        imputed=sum(1 for value in imputed if value is True) if imputed else None,
        provisional=provisional if isinstance(provisional, bool) else None,
        emotional_reasoning=fields.get("emotionalReasoning"),
        effective_per_1m=fields.get("cost.effectivePer1M"),
        dimensions=dimensions,
    )


def _ranking_order(base: Snapshot, new: Snapshot) -> list[str]:
    """The new build's rankings in its order (composite, cost, dimensions, benchmarks, then
    the domains), then any the base had alone."""
    return [*new.rankings, *(k for k in base.rankings if k not in new.rankings)]


def _ranking_change(
    key: str, base: Snapshot, new: Snapshot, names: Mapping[str, str], renames: Mapping[str, str]
) -> RankingChange | None:
    old = base.rankings.get(key)
    now = new.rankings.get(key)
    shown = now or old
    assert shown is not None
    before = {_renamed(i, renames): e for i, e in (old.entries if old else {}).items()}
    after = now.entries if now else {}
    moves = []
    for model_id in sorted(
        before.keys() | after.keys(), key=lambda i: _place_key(i, after, before)
    ):
        was, now_entry = before.get(model_id), after.get(model_id)
        if was == now_entry:
            continue
        score = _move(was.score if was else None, now_entry.score if now_entry else None)
        moves.append(
            PlaceMove(
                id=model_id,
                name=names.get(model_id, model_id),
                before=was.place if was else None,
                after=now_entry.place if now_entry else None,
                score=score if was and now_entry else None,
                within_band=_noise(model_id, shown, base, new, renames)
                if was and now_entry and score is not None
                else None,
            )
        )
    return RankingChange(shown.id, shown.name, moves) if moves else None


def _renamed(base_id: str, renames: Mapping[str, str]) -> str:
    """A base id as the new build calls it."""
    return next((new for new, old in renames.items() if old == base_id), base_id)


def _place_key(
    model_id: str, after: Mapping[str, Any], before: Mapping[str, Any]
) -> tuple[int, str]:
    entry = after.get(model_id) or before.get(model_id)
    return (entry.place if entry else 0, model_id)


def _noise(
    model_id: str,
    ranking: RankingSnapshot,
    base: Snapshot,
    new: Snapshot,
    renames: Mapping[str, str],
) -> bool | None:
    """True when the model's new value on this ranking lies inside the base build's band
    (asked only of a model whose score there moved: a place moved by neighbours alone is
    not the model's noise; its cause says who moved)."""
    path = ranking.band_path
    old = base.models.get(renames.get(model_id, model_id))
    now = new.models.get(model_id)
    if path is None or old is None or now is None:
        return None
    band = old.band(path)
    value = now.fields.get(path)
    if band is None or not isinstance(value, int | float):
        return None
    return band.holds(value)


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
    old_log = {_log_entry(e) for e in base.get("changelog") or ()}
    return MethodologyChange(
        version=_move(base.get("version"), new.get("version")),
        parameters=_moves(base.get("parameters") or {}, new.get("parameters") or {}),
        rules_changed=base.get("rules") != new.get("rules"),
        changelog_added=sorted(
            text
            for text in (_log_entry(e) for e in new.get("changelog") or ())
            if text not in old_log
        ),
    )


def _log_entry(entry: Mapping[str, Any]) -> str:
    return f"{entry.get('date')}: {entry.get('text')}"
