"""The biology study's results summary (Justen, arXiv 2505.06108;
`preprint/data/log_results/<date>_summary.csv`): one row per prompt schema, benchmark
and model, the 10-run mean accuracy, and the log file names, which start with the run's
timestamp (`2024-10-30T21-08-20-04-00_gpqa_....json`): the row's own date is its first run."""

from __future__ import annotations

import re
from pathlib import Path

from generator.importers.upstream import (
    UpstreamError,
    UpstreamRow,
    clean_text,
    parse_day,
    read_bounded,
    read_csv,
)

COLUMNS = ("path", "inspect_model_name", "benchmark", "prompt_schema", "mean_accuracy", "filenames")
RUN_DAY = re.compile(r"'(\d{4}-\d{2}-\d{2})T")


def read_justen(path: Path, label: str, max_bytes: int, max_rows: int) -> list[UpstreamRow]:
    """Every row, dated by its earliest run."""
    rows = read_csv(read_bounded(path, label, max_bytes), label, max_rows, COLUMNS)
    out = []
    problems = []
    for number, row in enumerate(rows, start=2):
        try:
            key, row_id = clean_text(row["inspect_model_name"]), clean_text(row["path"])
        except ValueError as exc:
            problems.append(f"{label}: row {number}: {exc}")
            continue
        days = sorted(d for d in (parse_day(m) for m in RUN_DAY.findall(row["filenames"])) if d)
        out.append(
            UpstreamRow(
                file=label,
                row_id=row_id,
                key=key,
                values={c: v.strip() for c, v in row.items() if c != "filenames"},
                date=days[0] if days else None,
                name=row.get("epoch_model_name", "").strip(),
            )
        )
    if problems:
        raise UpstreamError(problems)
    return out
