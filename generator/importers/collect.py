"""Read every source's upstream files with its format's adapter, and turn feed rows into
observations: one upstream value of one of our models on one benchmark."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from generator.importers import (
    epoch,
    eqbench,
    justen,
    litellm,
    livebench,
    lmarena,
    models_dev,
    valsai,
)
from generator.importers.identity import ModelInfo
from generator.importers.matching import Matcher
from generator.importers.upstream import (
    UpstreamError,
    UpstreamRow,
    parse_number,
    source_value,
    text_problem,
)
from generator.input.records import SourceFileRecord, SourceRecord

RowReader = Callable[[Path, str, int, int], list[UpstreamRow]]
TABLES: dict[str, RowReader] = {
    "epoch": epoch.read_epoch,
    "eqbench": eqbench.read_eqbench,
    "valsai": valsai.read_vals,
    "valsai-models": valsai.read_vals_models,
    "justen": justen.read_justen,
    "lmarena": lmarena.read_lmarena,
}
SIDE_FILES = ("livebench-categories",)
BENCHMARK = "benchmark"  # the column a table that holds several benchmarks names each by
_TAIL = re.compile(
    r"-(?:(?:xhigh|high|medium|low|minimal)(?:-effort|thinking)?|thinking-\d+k|thinking|reasoning)$"
)


def base_key(fmt: str) -> Callable[[str], str]:
    """How a format writes a key without its effort (`gpt-5.5_xhigh`, `gpt-5.5-xhigh`)."""
    if fmt == "epoch":
        return epoch.base_key
    if fmt == "livebench":
        return lambda key: _TAIL.sub("", key)
    if fmt == "valsai":  # `anthropic/claude-opus-5-5-thinking` -> `claude-opus-5.5`
        return lambda key: valsai.model_id(_TAIL.sub("", key))
    return lambda key: key


@dataclass(frozen=True)
class Bounds:
    """What an observation is checked against: the benchmark's direction and value bounds."""

    higher_is_better: bool
    min_value: float | None
    max_value: float | None


@dataclass(frozen=True)
class Observation:
    """One upstream value of one of our models on one (domain) benchmark."""

    source: str
    source_name: str
    benchmark: str
    domain: str | None
    model: str
    value: float
    row: UpstreamRow
    effort: str | None
    harness: str | None
    file_url: str
    file_as_of: dt.date | None = None  # the upstream file's date (its source file record)
    base: str = ""  # the upstream key without its effort suffix
    format: str = ""  # the upstream file's format (its adapter)


@dataclass
class Collected:
    """Everything read from upstream."""

    observations: list[Observation] = field(default_factory=list)
    unmatched: list[Observation] = field(default_factory=list)  # model "" (no match yet)
    excluded: list[str] = field(default_factory=list)
    identity: dict[str, dict[str, ModelInfo]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    tables: dict[str, list[UpstreamRow]] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    uncatalogued: list[str] = field(default_factory=list)  # upstream benchmarks no feed reads


def collect(
    raw: Path,
    sources: Mapping[str, SourceRecord],
    models: Mapping[str, Mapping[str, Any]],
    bounds: Mapping[tuple[str | None, str], Bounds],
) -> Collected:
    """Read every source's files under `raw`; raise `UpstreamError` on any problem."""
    out = Collected()
    for source in sources.values():
        try:
            _collect_source(raw, source, models, bounds, out)
        except UpstreamError as exc:
            out.problems += exc.problems
    if out.problems:
        raise UpstreamError(out.problems)
    return out


def _collect_source(
    raw: Path,
    source: SourceRecord,
    models: Mapping[str, Mapping[str, Any]],
    bounds: Mapping[tuple[str | None, str], Bounds],
    out: Collected,
) -> None:
    tables: dict[str, list[UpstreamRow]] = {}
    for spec in source.files:
        path, label = raw / spec.path, spec.path
        if spec.format in TABLES:
            tables[spec.path] = TABLES[spec.format](path, label, spec.max_bytes, spec.max_rows)
        elif spec.format == "livebench":
            categories = _side_file(source, "livebench-categories")
            cats = livebench.read_categories(
                raw / categories.path, categories.path, categories.max_bytes
            )
            tables[spec.path] = livebench.read_livebench(
                path, label, cats, spec.max_bytes, spec.max_rows
            )
        elif spec.format == "models-dev":
            infos, notes = models_dev.read_models_dev(
                path, label, spec.url, spec.max_bytes, spec.max_rows
            )
            out.identity[source.id] = infos
            out.notes += notes
        elif spec.format == "litellm":
            out.identity[source.id] = litellm.read_litellm(
                path, label, spec.url, spec.max_bytes, spec.max_rows
            )
        elif spec.format not in SIDE_FILES:
            raise UpstreamError(
                [f"data/sources/{source.id}.toml: files: unknown format '{spec.format}'"]
            )
    out.tables |= tables
    specs = {spec.path: spec for spec in source.files}
    formats = {spec.path: spec.format for spec in source.files}
    for feed in source.feeds:
        matcher = Matcher(models, source, base_key(formats.get(feed.file, "")))
        limits = bounds.get((feed.domain, feed.benchmark))
        if limits is None:
            continue  # the loader reports an unknown benchmark
        for row in tables.get(feed.file, []):
            if any(row.values.get(col) != want for col, want in feed.filter.items()):
                continue
            _observe(
                source,
                feed.benchmark,
                feed.domain,
                feed.column,
                feed.scale,
                feed.name,
                row,
                matcher,
                limits,
                specs[feed.file],
                out,
            )
    out.uncatalogued += not_fed(source, tables)


def not_fed(source: SourceRecord, tables: Mapping[str, list[UpstreamRow]]) -> list[str]:
    """The benchmarks a table names in its `benchmark` column (vals.ai's tables) that no feed
    of `source` reads: what is new upstream, one line each with its name, rows and date."""
    out = []
    for path, rows in sorted(tables.items()):
        fed = {f.filter.get(BENCHMARK) for f in source.feeds if f.file == path}
        found: dict[str, list[UpstreamRow]] = {}
        for row in rows:
            name = row.values.get(BENCHMARK)
            if name and name not in fed:
                found.setdefault(name, []).append(row)
        for name, its in sorted(found.items()):
            title = its[0].values.get("benchmark_name", name)
            days = sorted(str(r.date) for r in its if r.date)
            newest = f", updated {days[-1]}" if days else ""
            out.append(f"{source.id}: {path}: {name} ({title}, {len(its)} rows{newest})")
    return out


def _side_file(source: SourceRecord, fmt: str) -> SourceFileRecord:
    for spec in source.files:
        if spec.format == fmt:
            return spec
    raise UpstreamError([f"data/sources/{source.id}.toml: files: a '{fmt}' file is needed"])


def _observe(
    source: SourceRecord,
    benchmark: str,
    domain: str | None,
    column: str,
    scale: float,
    name: str | None,
    row: UpstreamRow,
    matcher: Matcher,
    limits: Bounds,
    spec: SourceFileRecord,
    out: Collected,
) -> None:
    where = f"{row.file}: row '{row.row_id}': {column}"
    if column not in row.values:
        out.problems.append(f"{row.file}: header: missing column '{column}'")
        return
    try:
        number = parse_number(row.values[column])
    except ValueError:
        out.problems.append(f"{where}: not a number ({row.values[column][:40]!r})")
        return
    if number is None:
        return
    value = source_value(number * scale)
    low, high = limits.min_value, limits.max_value
    if (low is not None and value < low) or (high is not None and value > high):
        out.problems.append(
            f"{where}: {value!r} is outside the bounds {low}..{high} of '{benchmark}'"
        )
        return
    reason = matcher.excluded_reason(row.key, benchmark)
    if reason is not None:
        out.excluded.append(f"{source.id}: {row.key} on {benchmark}: {reason}")
        return
    match = matcher.match(row)
    found = Observation(
        source=source.id,
        source_name=name or _row_source_name(source, row),
        benchmark=benchmark,
        domain=domain,
        model="" if match is None else match.model,
        value=value,
        row=row,
        effort=(match and match.effort) or row.effort,
        harness=(match and match.harness) or row.harness,
        file_url=spec.url,
        file_as_of=spec.as_of,
        base=matcher.base(row.key),
        format=spec.format,
    )
    (out.unmatched if match is None else out.observations).append(found)


def _row_source_name(source: SourceRecord, row: UpstreamRow) -> str:
    """`<site> via <source>` for a row a hub relays from another site, else the source."""
    origin = row.values.get("Source", "").strip()
    if origin and not origin.startswith("http") and len(origin) <= 200 and not text_problem(origin):
        return f"{origin} via {source.name}"
    return source.name
