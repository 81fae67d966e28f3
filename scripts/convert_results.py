"""Benchmark results and reasoning configurations of models, with provenance from raw/."""

from __future__ import annotations

import datetime as dt
import math
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from convert_common import (
    EFFORT_SUFFIX,
    EPOCH_DATA_URL,
    EPOCH_EXPORT,
    EPOCH_NAME,
    NAMED_EFFORTS,
    SOURCE_PAGES,
    Sources,
    parse_day,
    parse_float,
    slugify,
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
    if "epoch_benchmark_data" in obs["file"]:
        row = epoch_row(sources, obs)
        origin = row.get("Source", "").strip()
        assert obs["source"] == "Epoch AI Benchmarking Hub", obs
        name = EPOCH_NAME
        if origin and not origin.startswith("http"):
            name = f"{origin} via {obs['source']}"
        url = _link(row) or EPOCH_DATA_URL
        as_of = row_date(row)
    else:
        name, url, as_of = SOURCE_PAGES[obs["source"]]
    return {
        "benchmark": bench["id"],
        "value": value,
        "source_name": name,
        "source_url": url,
        "as_of": as_of,
        "harness": harness,
        "source_model": obs["source_key"],
        "note": note,
    }


def model_results(
    sources: Sources,
    catalog: Catalog,
    model: dict[str, str],
    observations: dict[tuple[str, str], dict[str, str]],
) -> list[Doc]:
    """Every catalogue iq/eq value of a models.csv row, in catalogue order."""
    results = []
    for column in catalog.by_column:
        text = model.get(column, "")
        if text == "":
            continue
        obs = observations[(model["id"], column)]
        results.append(result_doc(sources, catalog, obs, float(text)))
    return results


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
            score = parse_float(row.get(EPOCH_SCORE[column], ""))
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
