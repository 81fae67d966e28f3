"""vals.ai results, as its public scores table lists them (the `dot-mike/vals-ai-scrape`
`data/scores.csv` layout): one row per benchmark, task and model, with the benchmark's
update date, the accuracy in percent, the cost per test and the reasoning effort; and its
model table (`models.csv`: release date, company, country, open weights, context, a page per
model), read as identity rows for the models it brings in."""

from __future__ import annotations

import re
from pathlib import Path

from generator.importers.livebench import effort_of
from generator.importers.upstream import (
    UpstreamError,
    UpstreamRow,
    clean_text,
    parse_day,
    read_bounded,
    read_csv,
)
from generator.input.urls import is_source_url

COLUMNS = ("benchmark", "task", "model", "accuracy", "benchmark_updated")
MODEL_COLUMNS = ("id", "label", "company", "country", "release_date", "open_source", "vals_url")
PAGE = "https://www.vals.ai/benchmarks/"
MODALITIES = (("image", "images"), ("audio", "audio"), ("video", "videos"))
PUBLISHED = "published"  # a row's date is its table's update date (METHODOLOGY 1.2)
_POINT = re.compile(r"(?<![0-9])([0-9])-([0-9])(?![0-9])")


def read_vals(path: Path, label: str, max_bytes: int, max_rows: int) -> list[UpstreamRow]:
    """Every row; its link is the benchmark's vals.ai page, its date `benchmark_updated`."""
    rows = read_csv(read_bounded(path, label, max_bytes), label, max_rows, COLUMNS)
    out = []
    problems = []
    for number, row in enumerate(rows, start=2):
        try:
            key, bench, task = (clean_text(row[c]) for c in ("model", "benchmark", "task"))
        except ValueError as exc:
            problems.append(f"{label}: row {number}: {exc}")
            continue
        effort = row.get("reasoning_effort", "").strip() or effort_of(key)
        out.append(
            UpstreamRow(
                file=label,
                row_id=f"{bench}/{task}/{key}",
                key=key,
                values={c: v.strip() for c, v in row.items()},
                date=parse_day(row["benchmark_updated"]),
                url=_page(bench),
                effort=effort if effort and effort != "none" else None,
                as_of_kind=PUBLISHED,
            )
        )
    if problems:
        raise UpstreamError(problems)
    return out


def _page(bench: str) -> str | None:
    """The benchmark's page on vals.ai, when its name makes a URL data/ takes; else None
    (the file's URL stands in)."""
    page = PAGE + bench
    plain = bench.replace("-", "").replace("_", "").isalnum()
    return page if plain and is_source_url(page) else None


def read_vals_models(path: Path, label: str, max_bytes: int, max_rows: int) -> list[UpstreamRow]:
    """vals.ai's model table, one identity row per model id; its link is the model's page."""
    rows = read_csv(read_bounded(path, label, max_bytes), label, max_rows, MODEL_COLUMNS)
    out = []
    problems = []
    for number, row in enumerate(rows, start=2):
        try:
            key = clean_text(row["id"])
        except ValueError as exc:
            problems.append(f"{label}: row {number}: {exc}")
            continue
        url = row["vals_url"].strip()
        out.append(
            UpstreamRow(
                file=label,
                row_id=key,
                key=key,
                values={c: v.strip() for c, v in row.items()},
                date=parse_day(row["release_date"]),
                url=url if is_source_url(url) else None,
            )
        )
    if problems:
        raise UpstreamError(problems)
    return out


def identity_values(row: UpstreamRow) -> dict[str, str]:
    """A model-table row in the identity columns new models are made from (Epoch's names)."""
    values = row.values
    return {
        "Model name": values.get("label", ""),
        "Organization": values.get("company", ""),
        "Country": values.get("country", ""),
        "Release date": values.get("release_date", ""),
        "Model accessibility": "Open weights" if values.get("open_source") == "true" else "",
        "Context window": values.get("context_window", ""),
        "Max output tokens": values.get("max_output_tokens", ""),
        "Modalities": _modalities(values),
        "Tool use": values.get("tools", ""),
        "Deprecated": values.get("deprecated", ""),
        "Page": row.url or "",
    }


def _modalities(values: dict[str, str]) -> str:
    """`text,image` and so on, from the table's true/false columns; empty where it states none
    (a voice model's row leaves them blank)."""
    stated = {kind: values.get(column, "") for kind, column in MODALITIES}
    if not any(stated.values()):
        return ""
    return ",".join(["text", *(kind for kind, said in stated.items() if said == "true")])


def model_id(key: str) -> str:
    """A key as our ids write it: without the host's folder, a version's point as a point
    where vals.ai writes a dash or an underscore (`anthropic/claude-opus-5-5` ->
    `claude-opus-5.5`, `meta/muse_spark_1_1` -> `muse-spark-1.1`)."""
    tail = key.rsplit("/", 1)[-1].replace("_", "-")
    return _POINT.sub(r"\1.\2", _POINT.sub(r"\1.\2", tail))
