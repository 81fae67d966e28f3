"""Benchmark results and reasoning configurations of models, with provenance from raw/."""

from __future__ import annotations

import datetime as dt
import math
import urllib.parse
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from convert_common import (
    EFFORT_SUFFIX,
    EPOCH_DATA_URL,
    EPOCH_EXPORT,
    EPOCH_NAME,
    FAMILIES,
    NAMED_EFFORTS,
    SOURCE_PAGES,
    Sources,
    epoch_effort,
    parse_day,
    parse_float,
    slugify,
    source_value,
    suffix_effort,
)

Doc = dict[str, Any]

# Score column of each Epoch file, per catalogue source column.
EPOCH_SCORE = {
    "arc_agi_1": "Score",
    "arc_agi_2": "Score",
    "simplebench": "Score (AVG@5)",
    "frontiermath_t1_3": "mean_score",
    "frontiermath_t4": "mean_score",
    "otis_mock_aime_2024_2025": "mean_score",
    "gpqa_diamond": "mean_score",
    "swe_bench_verified_epoch": "mean_score",
    "simpleqa_verified": "mean_score",
    "apex_agents": "Pass@1 score",
    "metr_time_horizon_50_min": "Time horizon",
    "hle": "Accuracy",
    "hle_calibration_error": "Calibration Error",
    "terminal_bench_2": "Accuracy mean",
    "swe_bench_verified_bash_only": "% Resolved",
    "gdpval_win_rate": "Win Rate (%)",
    "aider_polyglot": "Percent correct",
    "osworld": "Score",
}
# Date columns of Epoch files, most specific first: own runs carry `Started at`,
# external files a run, evaluation or added date. Files with none use the export date.
DATE_COLUMNS = (
    "Started at",
    "Run date",
    "Date run",
    "Date of evaluation",
    "Evaluation date",
    "Date added",
)
LINK_COLUMNS = ("Log viewer", "Source link", "Source Link", "Source link (site from table)")
HARNESS_KEYS = ("scaffold=", "agent=")
# Sites an Epoch row links to, named where the row's `Source` is a bare URL or names
# another site, so a result's source name always says where its URL points.
HOST_NAMES = {
    "arcprize.org": "ARC Prize Leaderboard",
    "metr.org": "METR - Measuring AI Ability to Complete Long Tasks",
    "lmcouncil.ai": "LM Council",
}
EPOCH_HOSTS = ("epoch.ai", "logs.epoch.ai")
NO_COMMON_EFFORT = (
    "the source has no effort setting in common for this family's benchmarks;"
    " each result is the model's best row"
)


@dataclass(frozen=True)
class Catalog:
    """The iq and eq catalogue rows, keyed by source column."""

    by_column: dict[str, dict[str, str]]

    @classmethod
    def load(cls, sources: Sources) -> Catalog:
        rows = sources.rows("catalog.csv")
        return cls({r["source_column"]: r for r in rows if r["category"] in ("iq", "eq")})


def epoch_row(sources: Sources, obs: dict[str, str]) -> dict[str, str]:
    """The raw Epoch row an observation was taken from (same key, same value, same agent)."""
    score = EPOCH_SCORE[obs["column"]]
    value = float(obs["value"])
    rows = [
        r
        for r in sources.rows(obs["file"])
        if r.get("Model version") == obs["source_key"]
        and _close(parse_float(r.get(score, "")), value)
    ]
    agent = _harness_text(obs["note"])
    if len(rows) > 1 and agent is not None:
        rows = [r for r in rows if agent in (r.get("Agent"), r.get("Scaffold"))] or rows
    if not rows:
        raise ValueError(f"no raw row for {obs['model_id']} {obs['column']} in {obs['file']}")
    # Duplicated leaderboard records: prefer the one that carries a source link.
    rows.sort(key=lambda r: (_link(r) is None, r.get("id", "")))
    return rows[0]


def _close(found: float | None, value: float) -> bool:
    return found is not None and math.isclose(found, value, rel_tol=1e-9, abs_tol=1e-12)


def _harness_text(note: str) -> str | None:
    """The raw agent or scaffold text named in an observation note, unstripped."""
    for key in HARNESS_KEYS:
        if note.startswith(key):
            return note[len(key) :]
    return None


def _link(row: dict[str, str]) -> str | None:
    for column in LINK_COLUMNS:
        text = row.get(column, "").strip()
        if text.startswith("http"):
            return text
    source = row.get("Source", "").strip()
    return source if source.startswith("http") else None


def row_date(row: dict[str, str]) -> dt.date:
    """The as-of date of a raw Epoch row."""
    for column in DATE_COLUMNS:
        day = parse_day(row.get(column, ""))
        if day is not None:
            return day
    return EPOCH_EXPORT


def result_doc(sources: Sources, catalog: Catalog, obs: dict[str, str], value: float) -> Doc:
    """One `[[results]]` entry of a model file."""
    bench = catalog.by_column[obs["column"]]
    harness_text = _harness_text(obs["note"])
    harness = harness_text.strip() if harness_text else None
    note = obs["note"] if harness is None and obs["note"] else None
    effort = None
    if "epoch_benchmark_data" in obs["file"]:
        row = epoch_row(sources, obs)
        assert obs["source"] == "Epoch AI Benchmarking Hub", obs
        url = _link(row) or EPOCH_DATA_URL
        name = epoch_source_name(row.get("Source", "").strip(), url)
        as_of = row_date(row)
        effort = epoch_effort(obs["source_key"], row.get("Name", ""))
    else:
        name, url, as_of = SOURCE_PAGES[obs["source"]]
        if obs["source"] == "LiveBench":
            effort = suffix_effort(obs["source_key"])
    return {
        "benchmark": bench["id"],
        "value": value,
        "source_name": name,
        "source_url": url,
        "as_of": as_of,
        "harness": harness,
        "source_model": obs["source_key"],
        "effort": effort,
        "note": note,
    }


def epoch_source_name(origin: str, url: str) -> str:
    """`<site> via Epoch AI, AI Benchmarking Hub`, the site being where `url` points."""
    host = urllib.parse.urlsplit(url).netloc
    if host in EPOCH_HOSTS:
        site = origin if origin and not origin.startswith("http") else None
    else:
        named = HOST_NAMES.get(host)
        if origin.startswith("http") or not origin:
            site = named
        elif named and named != origin:
            site = f"{origin} ({named})"
        else:
            site = origin
    if site is None and host not in EPOCH_HOSTS:
        raise ValueError(f"no site name for {url} (add its host to HOST_NAMES)")
    return f"{site} via {EPOCH_NAME}" if site else EPOCH_NAME


def model_results(
    sources: Sources,
    catalog: Catalog,
    model: dict[str, str],
    observations: dict[tuple[str, str], dict[str, str]],
) -> list[Doc]:
    """Every catalogue iq/eq value of a models.csv row, in catalogue order, each benchmark
    family at one effort setting (see `settle_family`)."""
    chosen = {
        column: observations[(model["id"], column)]
        for column in catalog.by_column
        if model.get(column, "") != ""
    }
    mixed: set[str] = set()
    for columns in family_columns(catalog, chosen).values():
        mixed |= settle_family(sources, catalog, columns, chosen)
    results = []
    for column, obs in chosen.items():
        doc = result_doc(sources, catalog, obs, source_value(obs["value"]))
        if column in mixed:
            doc["mixed_effort"] = NO_COMMON_EFFORT
        results.append(doc)
    return results


def family_columns(catalog: Catalog, chosen: dict[str, dict[str, str]]) -> dict[str, list[str]]:
    """The model's Epoch-sourced columns of each benchmark family it has two or more of."""
    families: dict[str, list[str]] = defaultdict(list)
    for column, obs in chosen.items():
        family = FAMILIES.get(catalog.by_column[column]["id"])
        if family and "epoch_benchmark_data" in obs["file"]:
            families[family].append(column)
    return {family: columns for family, columns in families.items() if len(columns) > 1}


def settle_family(
    sources: Sources, catalog: Catalog, columns: list[str], chosen: dict[str, dict[str, str]]
) -> set[str]:
    """Put one benchmark family of a model on one effort setting, in place.

    The merge took each benchmark's best row, so a family could mix settings (ARC-AGI-1
    at 'Minimal' beside ARC-AGI-2 at 'High'). Among the settings the source has a row
    for on every benchmark of the family, the one with the best summed value is used.
    Returns the columns left mixed because no setting is common to all of them.
    """
    efforts = {_effort_of(sources, chosen[column]) for column in columns}
    if len(efforts - {None}) < 2:
        return set()
    signs = {
        c: 1 if catalog.by_column[c]["direction"] == "higher_is_better" else -1 for c in columns
    }
    options = {c: effort_rows(sources, chosen[c], signs[c]) for c in columns}
    common = set.intersection(*(set(rows) for rows in options.values()))
    if not common:
        return set(columns)

    def total(effort: str) -> float:
        return sum(signs[c] * float(options[c][effort]["value"]) for c in columns)

    best = max(sorted(common), key=total)
    for column in columns:
        chosen[column] = options[column][best]
    return set()


def _effort_of(sources: Sources, obs: dict[str, str]) -> str | None:
    return epoch_effort(obs["source_key"], epoch_row(sources, obs).get("Name", ""))


def effort_rows(sources: Sources, obs: dict[str, str], sign: int) -> dict[str, dict[str, str]]:
    """The observation re-pointed at the best row (`sign` 1: highest, -1: lowest) of each
    effort setting the source has for the model."""
    match = EFFORT_SUFFIX.match(obs["source_key"])
    base = match["base"] if match else obs["source_key"]
    score = EPOCH_SCORE[obs["column"]]
    found: dict[str, dict[str, str]] = {}
    for row in sources.rows(obs["file"]):
        key = row.get("Model version", "")
        if key != base and not key.startswith(base + "_"):
            continue
        effort = epoch_effort(key, row.get("Name", ""))
        value = row.get(score, "")
        if effort is None or parse_float(value) is None:
            continue
        if effort not in found or sign * float(value) > sign * float(found[effort]["value"]):
            found[effort] = {**obs, "source_key": key, "value": value}
    return found


# --- reasoning configurations ------------------------------------------------


def epoch_bases(model_id: str, observations: list[dict[str, str]]) -> set[str]:
    """The Epoch model keys of a model, with the effort suffix removed."""
    bases = set()
    for obs in observations:
        if obs["model_id"] != model_id or "epoch_benchmark_data" not in obs["file"]:
            continue
        match = EFFORT_SUFFIX.match(obs["source_key"])
        bases.add(match["base"] if match else obs["source_key"])
    return bases


def reasoning_configurations(sources: Sources, catalog: Catalog, bases: set[str]) -> list[Doc]:
    """One configuration per Epoch key `<base>_<effort>` with an explicit effort level
    or thinking-token budget, its values keyed by benchmark field (best row per file)."""
    values: dict[str, dict[str, float]] = defaultdict(dict)
    dates: dict[str, dt.date] = {}
    for column, bench in catalog.by_column.items():
        if column not in EPOCH_SCORE:
            continue
        for row in sources.rows(_epoch_file(sources, column)):
            key = row.get("Model version", "")
            match = EFFORT_SUFFIX.match(key)
            text = row.get(EPOCH_SCORE[column], "")
            score = source_value(text) if parse_float(text) is not None else None
            if not match or match["base"] not in bases or score is None:
                continue
            if match["effort"] == "unknown":
                continue
            field = bench["field"]
            values[key][field] = max(score, values[key].get(field, score))
            dates[key] = max(row_date(row), dates.get(key, dt.date.min))
    return [_config_doc(key, values[key], dates[key]) for key in sorted(values, key=slugify)]


def _config_doc(key: str, values: dict[str, float], captured: dt.date) -> Doc:
    match = EFFORT_SUFFIX.match(key)
    assert match is not None
    effort = match["effort"]
    label = effort if effort in NAMED_EFFORTS else f"{effort} thinking-token budget"
    return {
        "id": slugify(key),
        "source_model": match["base"],
        "source_model_id": key,
        "effort_key": effort,
        "effort_label": label,
        "reasoning": effort != "none",
        "source": "epoch",
        "source_name": EPOCH_NAME,
        "source_url": EPOCH_DATA_URL,
        "captured": captured.isoformat(),
        "values": dict(sorted(values.items())),
    }


_EPOCH_FILES: dict[str, str] = {}


def _epoch_file(sources: Sources, column: str) -> str:
    """The raw Epoch file of a catalogue column (from any observation of it)."""
    if not _EPOCH_FILES:
        for obs in sources.rows("observations.csv"):
            if "epoch_benchmark_data" in obs["file"]:
                _EPOCH_FILES.setdefault(obs["column"], obs["file"])
    return _EPOCH_FILES[column]
