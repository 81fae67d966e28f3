"""Why a model moved when nothing of its own changed: one line, naming the input that changed
and the rule it moved the model through.

A model's *own* data is what its file says, as the build publishes it: names and facts,
prices and their source, a measured usage multiplier, its benchmark results and their
provenance. Everything else in its document is derived, and moves with other inputs:

- a **peer-imputed** (or lineage-imputed) usage multiplier, and with it the effective cost,
  follows the measured multipliers of its peers;
- a result's **projected IQ** follows its benchmark's ladder;
- a benchmark's **noise** (`noiseSd`) is re-estimated from every model's results, and
  weighs each result in the dimension estimates;
- **methodology parameters** enter every estimate;
- the **priors** (the population prior and the cross-dimension prior an imputed dimension
  is drawn from) are refitted on all models' scores, so a changed, added or removed model
  moves the others' estimates a little;
- and a place on a ranking moves when a **neighbour** passes, joins or leaves.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from generator.diff.snapshot import ModelSnapshot, Snapshot


class Shift(NamedTuple):
    """A value before and after (a benchmark's noise), or a place (None: not on the ranking)."""

    before: Any
    after: Any


DERIVED_TOP = frozenset(
    {"iq", "iqSd", "iqLow95", "iqHigh95", "rank", "rankLow", "rankHigh", "emotionalReasoning"}
)
DERIVED_PREFIXES = ("dimensions.", "iqCoverage.", "emotionalReasoning")
DERIVED_COST = frozenset({"cost.effectivePer1M", "cost.usageMultiplierSource"})
MEASURED = "measured"
MAX_PARTS = 3


@dataclass(frozen=True)
class Inputs:
    """What changed between the builds, for the explanations."""

    base: Snapshot
    new: Snapshot
    own: set[str]
    """Models whose own data changed."""
    added: list[str]
    removed: list[str]
    noise: Mapping[str, Shift] = field(default_factory=dict)
    """Benchmark id -> its `noiseSd` move."""
    parameters: Mapping[str, tuple[Any, Any]] = field(default_factory=dict)
    ladders: list[str] = field(default_factory=list)
    """Names of the benchmarks whose ladder changed (`changed_ladders`)."""


def changed_ladders(base: Snapshot, new: Snapshot) -> list[str]:
    """The benchmarks on which some model's unchanged result now projects to another IQ."""
    found = set()
    for model_id, now in new.models.items():
        old = base.models.get(model_id)
        if old is None:
            continue
        for path, after in now.fields.items():
            if path.endswith(".projectedIq") and old.fields.get(path) not in (None, after):
                value_path = path.removesuffix("projectedIq") + "value"
                if old.fields.get(value_path) == now.fields.get(value_path):
                    found.add(path.split(".")[1])
    return sorted(new.benchmarks.get(b, {}).get("name", b) for b in found)


def own_fields(model: ModelSnapshot) -> dict[str, Any]:
    """The fields of a model's document that come from its own file."""
    measured = model.fields.get("cost.usageMultiplierSource") in (MEASURED, None)
    return {
        path: value
        for path, value in model.fields.items()
        if path not in DERIVED_TOP
        and not path.startswith(DERIVED_PREFIXES)
        and path not in DERIVED_COST
        and not path.endswith(".projectedIq")
        and (path != "cost.usageMultiplier" or measured)
    }


def own_inputs_changed(base: ModelSnapshot, new: ModelSnapshot) -> bool:
    return own_fields(base) != own_fields(new)


def explain(model_id: str, inputs: Inputs, moved: Sequence[tuple[str, Shift]]) -> str:
    """`moved`: (ranking id, the model's places before and after) on each ranking it moved."""
    """The cause of `model_id`'s moves, in one line."""
    old = inputs.base.models.get(model_id)
    now = inputs.new.models.get(model_id)
    parts: list[str] = []
    if old is not None and now is not None:
        parts += _parameters(inputs)
        parts += _usage(old, now, inputs)
        parts += _ladders(old, now, inputs)
        parts += _noise(now, inputs)
        if not parts and _scores_moved(old, now):
            parts.append(_prior(old, now, inputs))
    if not parts:
        parts.append(_neighbours(model_id, moved, inputs))
    shown = parts[:MAX_PARTS]
    more = len(parts) - len(shown)
    return "; ".join(shown) + (f"; and {more} more" if more else "")


def _value(raw: Any) -> str:
    return f"{raw:.6g}" if isinstance(raw, float) else str(raw)


def _usage(old: ModelSnapshot, now: ModelSnapshot, inputs: Inputs) -> list[str]:
    path = "cost.usageMultiplier"
    source = now.fields.get("cost.usageMultiplierSource")
    before, after = old.fields.get(path), now.fields.get(path)
    if before == after or source in (MEASURED, None):
        return []
    peers = [
        inputs.new.models[i].name
        for i in sorted(inputs.own)
        if i in inputs.new.models and _measured_usage_changed(i, inputs)
    ]
    peers += inputs.added + inputs.removed
    whose = f" (peers changed: {', '.join(peers[:5])})" if peers else ""
    return [f"{source} usage multiplier {_value(before)} -> {_value(after)}{whose}"]


def _measured_usage_changed(model_id: str, inputs: Inputs) -> bool:
    old = inputs.base.models.get(model_id)
    now = inputs.new.models[model_id]
    path = "cost.usageMultiplier"
    return old is None or old.fields.get(path) != now.fields.get(path)


def _ladders(old: ModelSnapshot, now: ModelSnapshot, inputs: Inputs) -> list[str]:
    found = []
    for path, after in sorted(now.fields.items()):
        if not path.endswith(".projectedIq"):
            continue
        before = old.fields.get(path)
        value_path = path.removesuffix("projectedIq") + "value"
        same_value = old.fields.get(value_path) == now.fields.get(value_path)
        if before is not None and before != after and same_value:
            bench = path.split(".")[1]
            name = inputs.new.benchmarks.get(bench, {}).get("name", bench)
            found.append(
                f"the {name} ladder changed: its result {_value(now.fields.get(value_path))}"
                f" projects to IQ {_value(before)} -> {_value(after)}"
            )
    return found


def _noise(now: ModelSnapshot, inputs: Inputs) -> list[str]:
    moves = [
        f"{inputs.new.benchmarks.get(bench, {}).get('name', bench)}"
        f" {_value(move.before)} -> {_value(move.after)}"
        for bench, move in sorted(inputs.noise.items())
        if f"benchmarkResults.{bench}.value" in now.fields
    ]
    if not moves:
        return []
    return [f"benchmark noise re-estimated from all models' results: {', '.join(moves)}"]


def _parameters(inputs: Inputs) -> list[str]:
    return [
        f"methodology parameter {name} {_value(before)} -> {_value(after)}"
        for name, (before, after) in sorted(inputs.parameters.items())
    ]


def _scores_moved(old: ModelSnapshot, now: ModelSnapshot) -> bool:
    return any(
        old.fields.get(path) != value
        for path, value in now.fields.items()
        if path in DERIVED_TOP or path.startswith(DERIVED_PREFIXES)
    )


def _prior(old: ModelSnapshot, now: ModelSnapshot, inputs: Inputs) -> str:
    imputed = sorted(
        path.split(".")[1]
        for path, value in now.fields.items()
        if path.startswith("dimensions.")
        and path.endswith(".imputed")
        and value is True
        and old.fields.get(path.removesuffix("imputed") + "iq")
        != now.fields.get(path.removesuffix("imputed") + "iq")
    )
    which = (
        f"its imputed {', '.join(imputed)} from the cross-dimension prior"
        if imputed
        else "its estimates' population prior"
    )
    return f"a refitted prior: {which}, refitted on all models' scores ({_triggers(inputs)})"


def _triggers(inputs: Inputs) -> str:
    """The changed inputs, briefly: whose own data, which models came or went."""
    parts = []
    own = [inputs.new.models[i].name for i in sorted(inputs.own) if i in inputs.new.models]
    if own:
        parts.append(f"changed: {', '.join(own[:5])}")
    if inputs.added:
        parts.append(f"added: {', '.join(inputs.added[:5])}")
    if inputs.removed:
        parts.append(f"removed: {', '.join(inputs.removed[:5])}")
    if inputs.ladders:
        parts.append(f"ladder changed: {', '.join(inputs.ladders[:5])}")
    if inputs.noise:
        parts.append(f"noise re-estimated: {', '.join(sorted(inputs.noise)[:5])}")
    if inputs.parameters:
        parts.append(f"methodology parameters: {', '.join(sorted(inputs.parameters))}")
    return "; ".join(parts) or "no input of the comparison names the change"


def _neighbours(model_id: str, moved: Sequence[tuple[str, Shift]], inputs: Inputs) -> str:
    """A place moved while the model's own scores did not: who passed it, joined or left."""
    if not moved:
        return f"a refitted prior ({_triggers(inputs)})"
    ranking_id, move = moved[0]
    ranking = (inputs.new.rankings.get(ranking_id) or inputs.base.rankings[ranking_id]).name
    more = f" (and on {len(moved) - 1} more rankings)" if len(moved) > 1 else ""
    if move.before is None or move.after is None:
        return f"it {'joined' if move.before is None else 'left'} {ranking}{more}"
    direction = "up" if move.after < move.before else "down"
    crossed = _crossed(model_id, ranking_id, inputs)
    around = ", ".join(crossed[:3]) if crossed else f"others moved: {_triggers(inputs)}"
    places = abs(move.after - move.before)
    return f"a neighbour's rank: {direction} {places} on {ranking} ({around}){more}"


def _crossed(model_id: str, ranking_id: str, inputs: Inputs) -> list[str]:
    """The models that changed sides around `model_id` on the ranking: passed it, fell behind
    it, joined ahead of it or left from ahead of it, each named with what it did."""
    old = inputs.base.rankings.get(ranking_id)
    now = inputs.new.rankings.get(ranking_id)
    before = old.entries if old else {}
    after = now.entries if now else {}
    mine_before, mine_after = before[model_id].place, after[model_id].place
    names = {**{m.id: m.name for m in inputs.base.models.values()}}
    names.update({m.id: m.name for m in inputs.new.models.values()})
    found = []
    for other in sorted(before.keys() | after.keys(), key=lambda i: (i not in after, i)):
        if other == model_id:
            continue
        was = before[other].place < mine_before if other in before else None
        now_ahead = after[other].place < mine_after if other in after else None
        name = names.get(other, other)
        if was is None and now_ahead:
            found.append(f"{name} joined ahead")
        elif now_ahead is None and was:
            found.append(f"{name} left from ahead")
        elif was is not None and now_ahead is not None and was != now_ahead:
            found.append(f"{name} {'passed it' if now_ahead else 'fell behind it'}")
    return found
