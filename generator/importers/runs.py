"""Task runs: the seconds and dollars one task took, per run of one of our models in a
vals.ai table (`latency`, `cost_per_test`), on every benchmark the table lists (fed or not),
for the task fit (`generator/scoring/speed.py`, docs/METHODOLOGY.md 6.1).

Each import rewrites the runs of every model the table lists; a model the table no longer
lists keeps the runs it had, each with its date, so no figure outlives its date unstated."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from generator.importers.collect import base_key
from generator.importers.matching import Matcher
from generator.importers.upstream import UpstreamError, UpstreamRow, parse_number, source_value
from generator.input.provenance import before_release
from generator.input.records import SourceRecord

Doc = dict[str, Any]
FORMAT = "valsai"  # the adapter whose tables carry runs
COLUMNS = (("latency", "latency_sec"), ("cost_per_test", "cost_usd"))
MAX_VALUE = 1_000_000.0  # seconds or dollars per task: beyond it, a broken cell


def task_runs(
    tables: Mapping[str, list[UpstreamRow]],
    sources: Mapping[str, SourceRecord],
    models: Mapping[str, Mapping[str, Any]],
) -> dict[str, list[Doc]]:
    """Model id -> its runs, sorted; `UpstreamError` naming each bad cell."""
    out: dict[str, list[Doc]] = {}
    problems: list[str] = []
    for source in sources.values():
        matcher = Matcher(models, source, base_key(FORMAT))
        for spec in source.files:
            if spec.format != FORMAT:
                continue
            for row in tables.get(spec.path, []):
                run = _run(row, source.id, spec.url, matcher, models, problems)
                if run is not None:
                    out.setdefault(run.pop("model"), []).append(run)
    if problems:
        raise UpstreamError(problems)
    return {m: sorted(runs, key=_order) for m, runs in sorted(out.items())}


def _run(
    row: UpstreamRow,
    source: str,
    file_url: str,
    matcher: Matcher,
    models: Mapping[str, Mapping[str, Any]],
    problems: list[str],
) -> Doc | None:
    suite = row.values.get("benchmark", "")
    if row.date is None or not suite or matcher.excluded_reason(row.key, suite) is not None:
        return None
    match = matcher.match(row)
    if match is None:
        return None
    released = models[match.model].get("release_date")
    if isinstance(released, dt.date) and before_release(row.date, released):
        return None  # another model's run under a reused name (as for results)
    values: Doc = {}
    for column, name in COLUMNS:
        try:
            number = parse_number(row.values.get(column, ""))
        except ValueError:
            problems.append(f"{row.file}: row '{row.row_id}': {column}: not a number")
            continue
        if number is not None and number > MAX_VALUE:
            problems.append(f"{row.file}: row '{row.row_id}': {column}: {number!r} is too large")
        elif number is not None and number > 0:  # zero or less: not measured
            values[name] = source_value(number)
    if not values:
        return None
    run = {
        "model": match.model,
        "suite": suite,
        **values,
        "source_model": row.key,
        "effort": match.effort or row.effort,
        "harness": match.harness or row.harness,
        "source": source,
        "source_url": row.url or file_url,
        "as_of": row.date,
    }
    return {k: v for k, v in run.items() if v is not None}


def _order(run: Doc) -> tuple[str, str, str, str]:
    return (run["suite"], run["source_model"], run.get("effort", ""), run.get("harness", ""))


def merge_runs(label: str, old: list[Doc], new: list[Doc] | None, changed: list[str]) -> list[Doc]:
    """A model's runs after an import: the table's when it lists the model, else the old."""
    if new is None or new == old:
        return old
    changed.append(f"{label}: task_runs: {len(old)} -> {len(new)} runs (vals.ai latency and cost)")
    return new
