"""One import: read data/ and the upstream files, merge, validate a full copy, swap it in.

Nothing is written unless the whole new tree loads without a problem: the new tree is
written into a temporary sibling folder, checked with the loader, and swapped in file
by file only then (files that did not change are not touched).
"""

from __future__ import annotations

import datetime as dt
import os
import shutil
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec

from generator.errors import DataError
from generator.importers import epoch, valsai
from generator.importers.collect import Bounds, Collected, Observation, base_key, collect
from generator.importers.configurations import configurations
from generator.importers.confusable import looks
from generator.importers.documents import typed
from generator.importers.merge import (
    Changes,
    best_rows,
    label_mixed_efforts,
    merge_domain_rows,
    merge_results,
    midnight,
    newest_date,
    result_doc,
)
from generator.importers.newmodels import Decision, plan_new_models, valid_fields
from generator.importers.plausible import (
    Guarded,
    apply_renames,
    check_shares,
    file_dates,
    probable_renames,
    refuse_future,
)
from generator.importers.prices import (
    PRICE_ROLES,
    Found,
    InfoIndex,
    find_infos,
    identity_infos,
    offers,
    price_doc,
)
from generator.importers.publish import Standing, standing
from generator.importers.releases import (
    refuse_early,
    release_claims,
    release_disagreements,
)
from generator.importers.runs import merge_runs, task_runs
from generator.importers.toml_writer import dumps
from generator.importers.upstream import UpstreamError
from generator.input.load import load_dataset, parse_toml, read_data_file
from generator.input.providers import ProviderTable
from generator.input.records import BenchmarkRecord, DomainRecord, ProviderRecord, SourceRecord
from generator.ladders.status import unscored_benchmarks

Doc = dict[str, Any]
HEADER = (
    "Written by `modelscores import` from data/sources/ (see data/README.md). Edit by hand"
    "\nfreely: a value you correct, mark `pinned = true` and no import overwrites it."
)
IDENTITY_FILE = "epoch_benchmark_data/epoch_capabilities_index.csv"
VALS_MODELS_FILE = "valsai/models.csv"  # vals.ai's model table: identity of the models it adds


@dataclass
class Outcome:
    """What one import did (for the report)."""

    written: list[str] = field(default_factory=list)
    changes: Changes = field(default_factory=Changes)
    decisions: list[Decision] = field(default_factory=list)
    unmatched: dict[str, list[str]] = field(default_factory=dict)
    excluded: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    uncatalogued: list[str] = field(default_factory=list)
    unscored: list[str] = field(default_factory=list)  # catalogued, no ladder yet (1.3)
    counts: dict[str, int] = field(default_factory=dict)
    standings: dict[str, Standing] = field(default_factory=dict)  # every model, by id
    guarded: Guarded = field(default_factory=Guarded)  # what the plausibility guards found

    @property
    def drafts(self) -> list[str]:
        """Each unpublished model and why it is one."""
        return [f"{m}: {s.reason}" for m, s in self.standings.items() if not s.published]


def run_import(
    data_dir: Path, raw_dir: Path, *, dry_run: bool = False, accept: Sequence[str] = ()
) -> Outcome:
    """Import `raw_dir` into `data_dir`; raise `DataError`/`UpstreamError` and write nothing
    on any problem. A source in `accept` passes the share guards (plausible.py), reported."""
    if not raw_dir.is_dir():
        raise UpstreamError([f"{raw_dir}: directory: the upstream files' folder is not found"])
    dataset = load_dataset(data_dir)  # the tree must be valid before anything is read
    docs = _read_docs(data_dir)
    sources = _sources(data_dir, dataset.sources)
    # unscored benchmarks too: their results are imported for `modelscores ladders fit`
    benchmarks = {b.id: b for b in (*dataset.benchmarks, *dataset.unscored)}
    domains = {
        d: msgspec.convert(doc, DomainRecord, strict=False) for d, doc in _domain_docs(docs).items()
    }
    bounds = _bounds(benchmarks, domains)
    models = _model_docs(docs)
    outcome = Outcome()
    collected = _collect(raw_dir, sources, models, bounds, {}, outcome.guarded)
    renames, outcome.guarded.renames = probable_renames(docs, collected)
    apply_renames(collected, renames)
    new_docs, decisions, field_notes = _new_models(collected, sources, models, dataset.providers)
    if new_docs:
        models = {**models, **new_docs}
        collected = _collect(raw_dir, sources, models, bounds, renames, outcome.guarded)
    outcome.unmatched = _unmatched(collected.unmatched, decisions)
    outcome.excluded = sorted(set(collected.excluded))
    outcome.notes = collected.notes + field_notes
    outcome.uncatalogued = collected.uncatalogued
    outcome.unscored = unscored_benchmarks(dataset)
    released = {m: _day(d.get("release_date")) for m, d in models.items()}
    collected.observations, outcome.changes.refused = refuse_early(collected.observations, released)
    check_shares(docs, collected.observations, accept, outcome.guarded)  # may stop the import
    outcome.changes.release_dates = release_disagreements(
        released,
        {
            m
            for m, d in models.items()
            if d.get("release_date_source") and d.get("release_date_note")
        },
        release_claims(collected.observations, identity_infos(models, collected, sources)),
    )
    needed = dataset.methodology.parameters.min_direct_dimensions
    labs = ProviderTable(dataset.providers)
    updated = _merge(
        docs, new_docs, collected, sources, benchmarks, domains, bounds, needed, outcome, labs
    )
    outcome.decisions = [_decided(d, outcome.standings) for d in decisions]
    outcome.counts = _counts(updated)
    texts = {
        rel: dumps(typed(rel, doc, docs.get(rel)), header=HEADER) for rel, doc in updated.items()
    }
    changed = {
        rel: text for rel, text in texts.items() if _current(data_dir / rel) != text.encode()
    }
    outcome.written = sorted(changed)
    if changed:  # a dry run loads the new tree too: every check the real run makes
        write_checked(data_dir, changed, apply=not dry_run)
    return outcome


def _collect(
    raw_dir: Path,
    sources: Mapping[str, SourceRecord],
    models: Mapping[str, Doc],
    bounds: Mapping[tuple[str | None, str], Bounds],
    renames: Mapping[tuple[str, str], str],
    guarded: Guarded,
) -> Collected:
    """Every source's rows, those dated after their file refused, renamed keys applied."""
    collected = collect(raw_dir, sources, models, bounds)
    fallback = file_dates(collected)
    collected.observations, refused = refuse_future(collected.observations, fallback)
    collected.unmatched, refused_new = refuse_future(collected.unmatched, fallback)
    guarded.refused = sorted({*refused, *refused_new})
    apply_renames(collected, renames)
    return collected


def _sources(data_dir: Path, loaded: Sequence[SourceRecord]) -> dict[str, SourceRecord]:
    """Each source with all its mappings: the loaded copy leaves out those to drafts (no page
    may name a draft), but a mapping to a draft still says whose rows they are."""
    out = {}
    for source in loaded:
        text = read_data_file(data_dir / "sources" / f"{source.id}.toml").decode("utf-8")
        out[source.id] = msgspec.convert(parse_toml(text), SourceRecord, strict=False)
    return out


def _day(value: Any) -> dt.date | None:
    return value if isinstance(value, dt.date) else None


def _read_docs(data_dir: Path) -> dict[str, Doc]:
    docs = {}
    for folder in ("models", "domains"):
        for path in sorted((data_dir / folder).glob("*.toml")):
            docs[f"{folder}/{path.name}"] = parse_toml(read_data_file(path).decode("utf-8"))
    return docs


def _model_docs(docs: Mapping[str, Doc]) -> dict[str, Doc]:
    return {rel[7:-5]: doc for rel, doc in docs.items() if rel.startswith("models/")}


def _domain_docs(docs: Mapping[str, Doc]) -> dict[str, Doc]:
    return {
        rel[8:-5]: {k: v for k, v in doc.items() if k != "private"}
        for rel, doc in docs.items()
        if rel.startswith("domains/")
    }


def _bounds(
    benchmarks: Mapping[str, BenchmarkRecord], domains: Mapping[str, DomainRecord]
) -> dict[tuple[str | None, str], Bounds]:
    out: dict[tuple[str | None, str], Bounds] = {
        (None, b.id): Bounds(b.direction == "higher_is_better", b.min_value, b.max_value)
        for b in benchmarks.values()
    }
    for domain in domains.values():
        for b in domain.benchmarks:
            out[(domain.id, b.id)] = Bounds(
                b.direction == "higher_is_better", b.min_value, b.max_value
            )
    return out


def _new_models(
    collected: Collected,
    sources: Mapping[str, SourceRecord],
    models: Mapping[str, Doc],
    providers: Sequence[ProviderRecord],
) -> tuple[dict[str, Doc], list[Decision], list[str]]:
    """New model documents, one decision per unmatched key, and notes on fields left out."""
    since = {s.id: s.publish.released_on_or_after for s in sources.values() if s.publish}
    taken = {m.lower() for m in models} | {
        str(a).lower() for d in models.values() for a in d.get("aliases", [])
    }
    names = {str(d["name"]).lower() for d in models.values()}
    identity: dict[str, dict[str, str]] = {}
    for row in collected_identity(collected):
        identity.setdefault(epoch.base_key(row.key), row.values)
    for row in collected.tables.get(VALS_MODELS_FILE, []):
        identity.setdefault(base_key("valsai")(row.key), valsai.identity_values(row))
    infos = {
        k.rsplit("/", 1)[-1].lower(): v
        for s in ("litellm", "models-dev")
        for k, v in collected.identity.get(s, {}).items()
    }
    docs, decisions = plan_new_models(
        collected.unmatched, since, taken, identity, infos, _labs(models)
    )
    notes = [n for d in decisions if d.model for n in valid_fields(docs[d.model], d.key)]
    docs, decisions = _not_look_alikes(docs, decisions, models)
    labs = ProviderTable(providers)
    for doc in docs.values():
        lab = labs.find(str(doc["provider"]))  # one name per lab (data/providers/)
        if lab is not None:
            doc["provider"], doc["country"] = lab.name, lab.country
        if str(doc["name"]).lower() in names:
            doc["name"] = next(a for a in [*doc["aliases"], doc["id"]] if a)  # keep names unique
            if str(doc["name"]).lower() in names:
                doc["name"] = doc["id"]
        names.add(str(doc["name"]).lower())
        doc["aliases"] = [a for a in doc["aliases"] if a.lower() not in taken and a != doc["id"]]
        taken |= {a.lower() for a in doc["aliases"]} | {doc["id"]}
    return docs, decisions, notes


def _not_look_alikes(
    docs: dict[str, Doc], decisions: list[Decision], models: Mapping[str, Doc]
) -> tuple[dict[str, Doc], list[Decision]]:
    """The new models whose name does not look like another model's name or alias (the
    confusable skeleton: `confusable.py`) without being it; each other one skipped."""
    if not docs:
        return docs, decisions
    seen: dict[str, str] = {}
    for model_id, held in sorted(models.items()):
        for name in (str(held["name"]), *map(str, held.get("aliases", []))):
            seen.setdefault(looks(name), model_id)
    kept: dict[str, Doc] = {}
    out: list[Decision] = []
    for decision in decisions:
        doc = docs.get(decision.model or "")
        if doc is None:
            out.append(decision)
            continue
        name = str(doc["name"])
        twin = seen.get(looks(name))
        if twin is not None and not _same_letters(name, models[twin]):
            why = (
                f"its name {name!r} looks like models/{twin}.toml's (Unicode confusables):"
                " not imported; map the key by hand if it is that model"
            )
            out.append(Decision(decision.key, None, False, why, decision.source))
            continue
        seen.setdefault(looks(name), str(doc["id"]))
        kept[str(doc["id"])] = doc
        out.append(decision)
    return kept, out


def _same_letters(name: str, doc: Mapping[str, Any]) -> bool:
    """Whether `name` is one of `doc`'s names up to case (a real namesake, renamed below)."""
    return name.lower() in {str(n).lower() for n in (doc["name"], *doc.get("aliases", []))}


def _labs(models: Mapping[str, Doc]) -> dict[str, tuple[str, str]]:
    """models.dev provider folder -> (provider, country) as data/ names that lab: the most
    common among models priced from that folder (ties: the first by name)."""
    seen: dict[str, dict[tuple[str, str], int]] = {}
    for doc in models.values():
        source = str((doc.get("prices") or {}).get("source", ""))
        if source.startswith("models-dev:") and "/" in source:
            folder = source.removeprefix("models-dev:").split("/", 1)[0]
            lab = (str(doc["provider"]), str(doc["country"]))
            seen.setdefault(folder, {}).setdefault(lab, 0)
            seen[folder][lab] += 1
    return {f: min(c, key=lambda lab: (-c[lab], lab)) for f, c in sorted(seen.items())}


def _decided(decision: Decision, standings: Mapping[str, Standing]) -> Decision:
    """A new model's decision as the publish rule settled it after the merge."""
    if decision.model is None:
        return decision
    state = standings[decision.model]
    why = f"{decision.reason}; {state.reason}"
    return Decision(decision.key, decision.model, state.published, why, decision.source)


def collected_identity(collected: Collected) -> list[Any]:
    """Identity rows read by the Epoch source (its capabilities-index file)."""
    return collected.tables.get(IDENTITY_FILE, [])


def _unmatched(unmatched: list[Observation], decisions: list[Decision]) -> dict[str, list[str]]:
    created = {d.key for d in decisions if d.model is not None}
    out: dict[str, set[str]] = {}
    for obs in unmatched:
        if obs.base not in created:
            out.setdefault(obs.source, set()).add(obs.row.key)
    return {source: sorted(keys) for source, keys in sorted(out.items())}


def _merge(
    docs: dict[str, Doc],
    new_docs: Mapping[str, Doc],
    collected: Collected,
    sources: Mapping[str, SourceRecord],
    benchmarks: Mapping[str, BenchmarkRecord],
    domains: Mapping[str, DomainRecord],
    bounds: Mapping[tuple[str | None, str], Bounds],
    needed: int,
    outcome: Outcome,
    labs: ProviderTable,
) -> dict[str, Doc]:
    out = dict(docs)
    for model_id, doc in new_docs.items():
        out[f"models/{model_id}.toml"] = doc
    models = _model_docs(out)
    best = best_rows(collected.observations, bounds)
    fed = {f.benchmark for s in sources.values() for f in s.feeds if f.domain is None}
    order = {b: i for i, b in enumerate(benchmarks)}
    families = {b.id: b.family for b in benchmarks.values() if b.family}
    fresh: dict[str, dict[str, Doc]] = {m: {} for m in models}
    rows: dict[str, list[Doc]] = {d: [] for d in domains}
    for (domain, bench, model_id, _), obs in sorted(
        best.items(), key=lambda kv: tuple(x or "" for x in kv[0])
    ):
        owner = models.get(model_id)
        if owner is None:
            continue
        made = result_doc(obs, owner.get("release_date"), domain=domain is not None)
        if made is None:
            outcome.changes.undated.append(
                f"{model_id}: {bench}: {obs.source} row '{obs.row.row_id}' has no date"
                " and the model no release date"
            )
        elif domain is None:
            fresh[model_id][bench] = made
        else:
            rows[domain].append(made)  # kept below for models published after this merge
    configs = configurations(
        collected.observations,
        {b.id: b.field for b in benchmarks.values()},
        {b.id: b.direction == "higher_is_better" for b in benchmarks.values()},
        {s.id: s.name for s in sources.values()},
    )
    imported = {s.id for s in sources.values() if "results" in s.roles}
    doc_names = {
        str(name).lower(): model_id
        for model_id, doc in sorted(models.items(), reverse=True)
        for name in (*doc.get("aliases", []), model_id)
    }
    indexes = {source: InfoIndex(infos) for source, infos in collected.identity.items()}
    # the publish rule counts scored evidence only: an unscored benchmark's result gives no
    # composite until its ladder is fitted
    dimension_of = {b.id: b.dimension for b in benchmarks.values() if b.dimension and b.ladder}
    runs = task_runs(collected.tables, sources, models)
    for model_id, doc in sorted(models.items()):
        label = f"models/{model_id}.toml"
        results = merge_results(
            label, list(doc.get("results", [])), fresh[model_id], fed, order, outcome.changes
        )
        label_mixed_efforts(results, families)
        new = {k: v for k, v in doc.items() if k not in ("results", "private")}
        new["results"] = results
        kept = [
            c for c in doc.get("reasoning_configurations", []) if c.get("source") not in imported
        ]
        new["reasoning_configurations"] = sorted(
            kept + configs.get(model_id, []), key=lambda c: str(c["id"])
        )
        new["prices"] = _prices(model_id, doc, indexes, sources, outcome, doc_names, labs)
        new["task_runs"] = merge_runs(
            label, list(doc.get("task_runs", [])), runs.get(model_id), outcome.changes.changed
        )
        if model_id in new_docs and not new["prices"]:
            outcome.notes.append(f"{label}: no price: no price file (models.dev, litellm) lists it")
        state = standing(
            doc.get("published", True) is not False,
            "private" in doc,
            results,
            dimension_of,
            needed,
        )
        outcome.standings[model_id] = state
        new["published"] = None if state.published else False
        if state.published and doc.get("published") is False and model_id not in new_docs:
            outcome.changes.changed.append(f"{label}: published: a draft until now; {state.reason}")
        day = newest_date(new)
        new["updated"] = midnight(day) if day else doc.get("updated")
        if "private" in doc:
            new["private"] = doc["private"]
        out[label] = new
    for domain_id, made_rows in rows.items():
        rows_of = [r for r in made_rows if outcome.standings[r["model"]].published]
        label = f"domains/{domain_id}.toml"
        doc = docs[label]
        fed_here = {f.benchmark for s in sources.values() for f in s.feeds if f.domain == domain_id}
        order_here = {b["id"]: i for i, b in enumerate(doc["benchmarks"])}
        merged = merge_domain_rows(
            label, list(doc.get("results", [])), rows_of, fed_here, order_here, outcome.changes
        )
        new = {k: v for k, v in doc.items() if k not in ("results", "private")}
        new["results"] = merged
        days = [r["as_of"] for r in merged]
        if days:
            new["updated"] = midnight(max(days))
        if "private" in doc:
            new["private"] = doc["private"]
        out[label] = new
    return out


def _resolve(name: str, names: Mapping[str, str]) -> str:
    return names.get(name.lower(), name)


def _prices(
    model_id: str,
    doc: Doc,
    indexes: Mapping[str, InfoIndex],
    sources: Mapping[str, SourceRecord],
    outcome: Outcome,
    doc_names: Mapping[str, str],
    labs: ProviderTable,
) -> Doc:
    old = dict(doc.get("prices") or {})
    found = []
    for source in sources.values():
        for role, name in enumerate(PRICE_ROLES):
            if name in source.roles and source.id in indexes:
                mapped = {_resolve(m.model, doc_names): m.key for m in source.models}
                as_of = next((f.as_of for f in source.files), None)
                for info in find_infos(model_id, doc, indexes[source.id], mapped):
                    found.append(Found(source.id, role, info, as_of, model_id in mapped))
    current = str(old.get("source", "")).split(";", 1)[0]  # `litellm:key; cache_read ...`
    new, conflict = price_doc(old, offers(str(doc.get("provider", "")), found, labs, current))
    if conflict:
        outcome.changes.conflicts.append(f"models/{model_id}.toml: prices: {conflict}")
    if new != old:
        changed = sorted(k for k in set(new) | set(old) if new.get(k) != old.get(k))
        outcome.changes.changed.append(
            f"models/{model_id}.toml: prices: {', '.join(changed)} from {new.get('source')}"
        )
    return new


def _counts(docs: Mapping[str, Doc]) -> dict[str, int]:
    models = [d for rel, d in docs.items() if rel.startswith("models/")]
    results = [r for d in models for r in d.get("results", [])]
    return {
        "models": len(models),
        "published models": sum(1 for d in models if d.get("published") is not False),
        "results": len(results),
        "results with their own date": sum(
            1 for r in results if r.get("source") and not r.get("as_of_kind")
        ),
        "results dated by their table's update": sum(
            1 for r in results if r.get("as_of_kind") == "published"
        ),
        "results dated not-before release": sum(
            1 for r in results if r.get("as_of_kind") == "not-before"
        ),
        "results by hand (no source)": sum(1 for r in results if not r.get("source")),
        "pinned results": sum(1 for r in results if r.get("pinned")),
    }


def _current(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except OSError:
        return None


def write_checked(data_dir: Path, changed: Mapping[str, str], *, apply: bool = True) -> None:
    """Write a full copy with the changes, load it (raising on any problem), then move
    each changed file into place (an atomic rename per file); without `apply`, only check."""
    parent = data_dir.resolve().parent
    with tempfile.TemporaryDirectory(prefix=".import-", dir=parent) as tmp:
        copy = Path(tmp) / "data"
        shutil.copytree(data_dir, copy, symlinks=True)
        for rel, text in changed.items():
            (copy / rel).parent.mkdir(parents=True, exist_ok=True)
            (copy / rel).write_text(text, encoding="utf-8")
        try:
            load_dataset(copy)
        except DataError as exc:  # named in data_dir: the copy is gone once the line is read
            raise DataError(p.replace(str(copy), str(data_dir)) for p in exc.problems) from None
        if not apply:
            return
        for rel in changed:
            target = data_dir / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            os.replace(copy / rel, target)
