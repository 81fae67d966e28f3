"""Cross-record checks of the loaded data files (pure: records in, problems out).

Each problem is one line `file: field: problem`. References to a record whose
own file failed to load are not reported again (no cascades).
"""

from __future__ import annotations

import datetime as dt
import unicodedata
from collections.abc import Iterable, Sequence
from typing import Any

from generator.input.decode import shown_field, suggest
from generator.input.limits import MAX_FILE_PROBLEMS, more_problems
from generator.input.loaded import Loaded, Records
from generator.input.provenance import check_provenance
from generator.input.providers import check_providers
from generator.input.records import (
    BenchmarkRecord,
    MethodologyRecord,
    ModelRecord,
)
from generator.input.values import check_values
from generator.vocabulary import DIMENSION_COUNT_WORD, DIMENSION_SLUGS, LADDER_IQS


def check_records(records: Records) -> list[str]:
    """Every cross-record problem of `records`, at most `MAX_FILE_PROBLEMS` a file listed."""
    return _capped(_check_records(records))


def _capped(problems: list[str]) -> list[str]:
    """The first `MAX_FILE_PROBLEMS` problems of each file, and one line counting the rest."""
    counts: dict[str, int] = {}
    kept = []
    for problem in problems:
        label = problem.partition(": ")[0]
        counts[label] = counts.get(label, 0) + 1
        if counts[label] <= MAX_FILE_PROBLEMS:
            kept.append(problem)
    return kept + [
        f"{label}: file: {more_problems(count - MAX_FILE_PROBLEMS)} with other records (only"
        f" the first {MAX_FILE_PROBLEMS} of a file are listed)"
        for label, count in counts.items()
        if count > MAX_FILE_PROBLEMS
    ]


def _check_records(records: Records) -> list[str]:
    problems = _check_methodology(records.methodology)
    groups = (
        records.models,
        records.benchmarks,
        records.domains,
        records.charts,
        records.sources,
        records.providers,
    )
    for group in groups:
        problems += _duplicate_ids(group)
    problems += _check_benchmarks(records.benchmarks, DIMENSION_SLUGS)
    problems += _check_models(records)
    problems += _check_unique_across_models(records.models)
    problems += _check_aliases(records.models)
    problems += _check_lineage(records)
    problems += _check_domains(records)
    problems += _check_charts(records)
    problems += check_provenance(records)
    problems += check_providers(records)
    problems += check_values(records)
    return problems


def order_benchmarks(benchmarks: Iterable[BenchmarkRecord]) -> tuple[BenchmarkRecord, ...]:
    """Catalogue order: iq by dimension order then id, then eq by id."""
    order = {slug: i for i, slug in enumerate(DIMENSION_SLUGS)}

    def key(b: BenchmarkRecord) -> tuple[int, int, str]:
        if b.category == "iq":
            return (0, order.get(b.dimension or "", len(order)), b.id)
        return (1, 0, b.id)

    return tuple(sorted(benchmarks, key=key))


def _problem(label: str, where: str, what: str) -> str:
    return f"{label}: {shown_field(where)}: {what}"


def _check_methodology(methodology: Loaded[MethodologyRecord] | None) -> list[str]:
    """The methodology's dimensions are the declared ones (`vocabulary.DIMENSIONS`), in order."""
    if methodology is None:
        return []
    found = [d.slug for d in methodology.record.dimensions]
    if found == list(DIMENSION_SLUGS):
        return []
    shown = ", ".join(found) or "none"
    expected = ", ".join(DIMENSION_SLUGS)
    return [
        _problem(
            methodology.label,
            "dimensions",
            f"must be exactly the {DIMENSION_COUNT_WORD} dimensions in order ({expected});"
            f" got {shown}",
        )
    ]


def _duplicate_ids(group: Sequence[Loaded[Any]]) -> list[str]:
    first: dict[str, str] = {}
    problems = []
    for item in group:
        record_id = item.record.id
        if record_id in first:
            problems.append(
                _problem(item.label, "id", f"duplicate id '{record_id}' (also {first[record_id]})")
            )
        else:
            first[record_id] = item.label
    return problems


def check_ladder(label: str, where: str, ladder: Sequence[float], direction: str) -> list[str]:
    """A ladder has one point per IQ step, strictly monotone in the benchmark's direction."""
    if len(ladder) != len(LADDER_IQS):
        return [_problem(label, where, f"must have 7 points (IQ 70..160), got {len(ladder)}")]
    rising = direction == "higher_is_better"
    for index in range(1, len(ladder)):
        low, high = ladder[index - 1], ladder[index]
        if (high <= low) if rising else (high >= low):
            trend = "increasing" if rising else "decreasing"
            return [
                _problem(
                    label,
                    f"{where}[{index}]",
                    f"must be strictly {trend} for {direction} ({low!r} then {high!r})",
                )
            ]
    return []


def _check_benchmarks(
    benchmarks: list[Loaded[BenchmarkRecord]], dimensions: tuple[str, ...]
) -> list[str]:
    problems: list[str] = []
    fields: dict[str, str] = {}
    for item in benchmarks:
        bench, label = item.record, item.label
        if "ladder" not in item.placeholders and bench.ladder:  # none: unscored
            problems += check_ladder(label, "ladder", bench.ladder, bench.direction)
        if bench.category == "iq" and bench.dimension is None:
            problems.append(_problem(label, "dimension", "an iq benchmark needs a dimension"))
        elif bench.category == "eq" and bench.dimension is not None:
            problems.append(_problem(label, "dimension", "an eq benchmark has no dimension"))
        elif bench.dimension is not None and bench.dimension not in dimensions:
            problems.append(
                _problem(
                    label,
                    "dimension",
                    f"unknown dimension '{bench.dimension}'" + suggest(bench.dimension, dimensions),
                )
            )
        if bench.field in fields:
            problems.append(
                _problem(
                    label, "field", f"duplicate field '{bench.field}' (also {fields[bench.field]})"
                )
            )
        fields.setdefault(bench.field, label)
        problems += _check_dates_and_fit(label, bench)
        if not any(p.startswith(("ladder", "fitted_iq", "updated")) for p in item.placeholders):
            problems += _check_ladder_fit(label, bench)  # a bad field is reported by itself
    return problems


FIT_PARAMETERS = {"logistic-4": 4, "linear": 2, "log-linear": 2}
"""How many parameters each fitted curve has (`generator/ladders/curves.py`)."""


def _check_ladder_fit(label: str, bench: BenchmarkRecord) -> list[str]:
    """A fitted ladder (docs/METHODOLOGY.md 1.3) has a ladder, its fitted range and a fit that
    names its curve's parameters and is not dated after the file."""
    fit = bench.ladder_fit
    if fit is None:
        return []
    if not bench.ladder:
        return [_problem(label, "ladder_fit", "a fit needs the ladder it made (ladder is empty)")]
    if bench.fitted_iq is None:
        return [_problem(label, "fitted_iq", "a fitted ladder states its fitted IQ range")]
    wanted = FIT_PARAMETERS[fit.method]
    if len(fit.parameters) != wanted:
        return [
            _problem(
                label,
                "ladder_fit.parameters",
                f"{fit.method} has {wanted} parameters, got {len(fit.parameters)}",
            )
        ]
    if fit.check_models > fit.models:
        return [
            _problem(
                label,
                "ladder_fit.check_models",
                f"{fit.check_models} is more than the {fit.models} models of the fit",
            )
        ]
    if fit.as_of > bench.updated.date():
        return [
            _problem(
                label,
                "ladder_fit.as_of",
                f"{fit.as_of} is after the file's updated {bench.updated.date()}",
            )
        ]
    return []


def _check_dates_and_fit(label: str, bench: BenchmarkRecord) -> list[str]:
    """A publication date names its source; a fitted range is two ascending ladder IQs."""
    problems = []
    if (bench.published_on is None) != (bench.published_on_source is None):
        problems.append(
            _problem(label, "published_on", "published_on and published_on_source go together")
        )
    fitted = bench.fitted_iq
    if fitted is not None and not (
        fitted[0] < fitted[1] and fitted[0] in LADDER_IQS and fitted[1] in LADDER_IQS
    ):
        problems.append(
            _problem(label, "fitted_iq", f"must be two ascending ladder IQs {LADDER_IQS}")
        )
    return problems


def _check_models(records: Records) -> list[str]:
    bench_ids = {b.record.id for b in records.benchmarks} | records.broken["benchmarks"]
    fields = {b.record.field for b in records.benchmarks}
    problems: list[str] = []
    for item in records.models:
        problems += _check_results(item, bench_ids)
        problems += _check_model_dates(item)
        problems += _duplicates(
            item.label,
            "reasoning_configurations",
            [c.id for c in item.record.reasoning_configurations],
        )
        problems += _duplicates(item.label, "revisions", [r.id for r in item.record.revisions])
        if not records.broken["benchmarks"]:
            problems += _check_config_values(item, fields)
    return problems


def folded_name(name: str) -> str:
    """What a name looks like to a reader: compatibility forms (full-width letters,
    ligatures, superscripts) as their plain letters, any case, runs of white space as one
    space. Two names alike here are one name to a reader."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


def _check_unique_across_models(models: Sequence[Loaded[ModelRecord]]) -> list[str]:
    """A display name (alike after NFKC, case and space folding: `folded_name`), a revision
    id or a reasoning-configuration id belongs to one model only: a copied file that keeps
    them would be found by the name of the original (or one that looks like it), or publish
    the original's checkpoints under the copy."""
    problems: list[str] = []
    names: dict[str, str] = {}
    revisions: dict[str, str] = {}
    configs: dict[str, str] = {}
    for item in models:
        model, label = item.record, item.label
        owner = names.setdefault(folded_name(model.name), label)
        if owner != label and model.name:
            problems.append(
                _problem(label, "name", f"duplicate name '{model.name}' (also {owner})")
            )
        for where, ids, seen in (
            ("revisions", [r.id for r in model.revisions], revisions),
            ("reasoning_configurations", [c.id for c in model.reasoning_configurations], configs),
        ):
            for index, item_id in enumerate(ids):
                owner = seen.setdefault(item_id, label)
                if owner != label:
                    problems.append(
                        _problem(
                            label,
                            f"{where}[{index}].id",
                            f"id '{item_id}' belongs to another model ({owner})",
                        )
                    )
    return problems


def _check_aliases(models: Sequence[Loaded[ModelRecord]]) -> list[str]:
    """Every alias names one model only: unique, ignoring case, across all ids and aliases.

    An alias may differ from its own model's id in case alone (`GPT-5.5` of `gpt-5.5`).
    """
    taken = {m.record.id.lower(): (m, "the id") for m in models}
    problems = []
    for item in models:
        for index, alias in enumerate(item.record.aliases):
            owner, kind = taken.setdefault(alias.lower(), (item, f"aliases[{index}]"))
            own_id_recased = kind == "the id" and alias != item.record.id
            if owner is item and (kind == f"aliases[{index}]" or own_id_recased):
                continue  # a new alias, or its own id in another case
            also = kind if owner is item else f"{kind} of {owner.label}"
            problem = f"duplicate alias '{alias}' (also {also})"
            problems.append(_problem(item.label, f"aliases[{index}]", problem))
    return problems


def _check_results(item: Loaded[ModelRecord], bench_ids: set[str]) -> list[str]:
    problems = []
    seen: dict[str, int] = {}
    for index, result in enumerate(item.record.results):
        where = f"results[{index}].benchmark"
        if result.benchmark not in bench_ids:
            problems.append(
                _problem(
                    item.label,
                    where,
                    f"unknown benchmark '{result.benchmark}'"
                    + suggest(result.benchmark, bench_ids),
                )
            )
        if result.benchmark in seen:
            problems.append(
                _problem(
                    item.label,
                    where,
                    f"duplicate result for '{result.benchmark}'"
                    f" (also results[{seen[result.benchmark]}])",
                )
            )
        seen.setdefault(result.benchmark, index)
    return problems


def _check_model_dates(item: Loaded[ModelRecord]) -> list[str]:
    model = item.record
    updated = model.updated.date()
    dated: list[tuple[str, dt.date | None]] = [("release_date", model.release_date)]
    dated += [(f"results[{i}].as_of", r.as_of) for i, r in enumerate(model.results)]
    dated += [
        (f"revisions[{i}].available_date", r.available_date) for i, r in enumerate(model.revisions)
    ]
    if model.usage is not None:
        dated.append(("usage.as_of", model.usage.as_of))
    return [
        _problem(item.label, where, f"{day} is after the file's updated {updated}")
        for where, day in dated
        if day is not None and day > updated
    ]


def _check_config_values(item: Loaded[ModelRecord], fields: set[str]) -> list[str]:
    return [
        _problem(
            item.label,
            f"reasoning_configurations[{index}].values.{key}",
            "unknown benchmark field" + suggest(key, fields),
        )
        for index, config in enumerate(item.record.reasoning_configurations)
        for key in config.values
        if key not in fields
    ]


def _duplicates(label: str, where: str, ids: Sequence[str]) -> list[str]:
    seen: dict[str, int] = {}
    problems = []
    for index, item_id in enumerate(ids):
        if item_id in seen:
            problems.append(
                _problem(
                    label,
                    f"{where}[{index}].id",
                    f"duplicate id '{item_id}' (also {where}[{seen[item_id]}])",
                )
            )
        seen.setdefault(item_id, index)
    return problems


def _check_lineage(records: Records) -> list[str]:
    models = {m.record.id: m for m in records.models}
    problems = []
    for item in records.models:
        lineage = item.record.lineage
        if lineage is None or lineage.predecessor is None:
            continue
        pred_id = lineage.predecessor
        where = "lineage.predecessor"
        pred = models.get(pred_id)
        if pred is None:
            if pred_id not in records.broken["models"]:
                problems.append(
                    _problem(
                        item.label,
                        where,
                        f"unknown model '{pred_id}'"
                        + suggest(pred_id, models.keys() - {item.record.id}),
                    )
                )
            continue
        if not pred.record.published:
            problems.append(_problem(item.label, where, f"'{pred_id}' is unpublished"))
        pred_family = pred.record.lineage.family if pred.record.lineage else None
        if pred_family != lineage.family:
            problems.append(
                _problem(
                    item.label,
                    where,
                    f"'{pred_id}' is not compatible: its family is '{pred_family}',"
                    f" not '{lineage.family}'",
                )
            )
        cycle = _cycle_from(item.record.id, models)
        if cycle and item.record.id == min(cycle):
            problems.append(
                _problem(item.label, where, "predecessor cycle " + " -> ".join([*cycle, cycle[0]]))
            )
    return problems


def _cycle_from(start: str, models: dict[str, Loaded[ModelRecord]]) -> list[str]:
    """The predecessor chain from `start` if it comes back to `start`, else []."""
    chain = [start]
    current = models[start].record
    while current.lineage is not None and current.lineage.predecessor is not None:
        nxt = current.lineage.predecessor
        if nxt == start:
            return chain
        if nxt in chain or nxt not in models:
            return []
        chain.append(nxt)
        current = models[nxt].record
    return []


def _check_domains(records: Records) -> list[str]:
    published = {m.record.id for m in records.models if m.record.published}
    unpublished = {m.record.id for m in records.models if not m.record.published}
    known = published | unpublished | records.broken["models"]
    problems: list[str] = []
    for item in records.domains:
        domain, label = item.record, item.label
        if not domain.benchmarks:
            problems.append(_problem(label, "benchmarks", "a domain needs at least one benchmark"))
        for index, bench in enumerate(domain.benchmarks):
            if f"benchmarks[{index}].ladder" in item.placeholders:
                continue
            problems += check_ladder(
                label, f"benchmarks[{index}].ladder", bench.ladder, bench.direction
            )
        problems += _duplicates(label, "benchmarks", [b.id for b in domain.benchmarks])
        bench_ids = {b.id for b in domain.benchmarks}
        updated = domain.updated.date()
        rows: dict[tuple[str, str, str], int] = {}
        for index, row in enumerate(domain.results):
            where = f"results[{index}]"
            if row.model in unpublished:
                problems.append(
                    _problem(
                        label,
                        f"{where}.model",
                        f"names unpublished model '{row.model}' (would leak it)",
                    )
                )
            elif row.model not in known:
                problems.append(
                    _problem(
                        label,
                        f"{where}.model",
                        f"unknown model '{row.model}'" + suggest(row.model, published),
                    )
                )
            if row.benchmark not in bench_ids:
                problems.append(
                    _problem(
                        label,
                        f"{where}.benchmark",
                        f"unknown benchmark '{row.benchmark}' in this domain"
                        + suggest(row.benchmark, bench_ids),
                    )
                )
            if row.as_of > updated:
                problems.append(
                    _problem(
                        label,
                        f"{where}.as_of",
                        f"{row.as_of} is after the file's updated {updated}",
                    )
                )
            key = (row.model, row.benchmark, row.harness or "")
            if key in rows:
                problems.append(
                    _problem(
                        label,
                        where,
                        f"duplicate row for '{row.model}' on '{row.benchmark}'"
                        f" with the same harness (also results[{rows[key]}])",
                    )
                )
            rows.setdefault(key, index)
    return problems


def _check_charts(records: Records) -> list[str]:
    bench_ids = {b.record.id for b in records.benchmarks} | records.broken["benchmarks"]
    return [
        _problem(
            item.label,
            f"related_benchmarks[{index}]",
            f"unknown benchmark '{bench_id}'" + suggest(bench_id, bench_ids),
        )
        for item in records.charts
        for index, bench_id in enumerate(item.record.related_benchmarks)
        if bench_id not in bench_ids
    ]
