"""Bulk downloads: the model list, every ranking, every domain and the history as CSV
(the whole history in one file and each snapshot in its own).

RFC 4180 (CRLF line ends, fields quoted only when needed), UTF-8 without a byte order
mark, a header row, columns in a fixed order, rows in the JSON document's order; an
empty field is a null. Each file is made from the published document it mirrors, so a
CSV never says anything its JSON twin does not. Their paths and kinds are published
declarations (`generator/api/files.py`); this module makes their bytes.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import partial
from typing import Literal, TypeVar

import msgspec

from generator.api.contract import (
    DIMENSION_SLUGS,
    DOMAIN,
    DOMAINS,
    HISTORY,
    HISTORY_SNAPSHOT,
    MODEL_HISTORY,
    MODELS,
    RANKING,
    RANKINGS,
    DomainDetail,
    DomainList,
    HistoryDetail,
    HistoryList,
    ModelHistory,
    ModelList,
    ModelSummary,
    RankingDetail,
    RankingList,
)
from generator.api.files import (
    DOMAIN_CSV,
    HISTORY_CSV,
    MODEL_HISTORY_CSV,
    MODELS_CSV,
    NOT_FOUND_COLUMNS,
    NOT_FOUND_FILE,
    NOT_FOUND_ROW,
    RANKING_CSV,
    SNAPSHOT_CSV,
    DownloadKind,
    domain_download,
    history_download,
    model_history_download,
    models_download,
    ranking_download,
    snapshot_download,
)
from generator.documents.common import Published
from generator.encoders import PLAIN_STARTS, csv_cell, csv_number
from generator.errors import BuildError

Cell = str | int | float | bool | None
MODEL_COLUMNS = (
    "id", "name", "provider", "country", "rank", "iq", "iqLow95", "iqHigh95", "rankLow",
    "rankHigh", *DIMENSION_SLUGS, "emotionalReasoning",
    "inputPer1M", "outputPer1M", "usageMultiplier", "usageMultiplierSource", "effectivePer1M",
    "releaseDate", "openSource", "url", "priceSource", "priceSourceUrl", "priceAsOf",
    "provisional", *(f"{slug}-imputed" for slug in DIMENSION_SLUGS),
    "responseTimeSec", "costPerTaskUsd", "taskSource", "taskAsOf", "speedRuns", "costRuns",
    "knowledgeCutoff", "postCutoffResults",
)  # fmt: skip
RANKING_COLUMNS = ("rank", "rankLow", "rankHigh", "id", "name", "provider", "score", "provisional")
DOMAIN_COLUMNS = (
    "model", "modelName", "compositeIq", "rankStatus", "benchmarksCovered", "benchmarksTotal",
    "estimateLow95", "estimateHigh95",
)  # fmt: skip
HISTORY_COLUMNS = (
    "date", "rank", "rankLow", "rankHigh", "id", "name", "provider", "iq", "iqLow95", "iqHigh95",
    "resultCount", "releaseDatedResultCount",  # the snapshot's, on each of its rows
    "provisional",
)  # fmt: skip
MODEL_HISTORY_COLUMNS = (
    "date", "rank", "rankLow", "rankHigh", "iq", "iqLow95", "iqHigh95", *DIMENSION_SLUGS,
    "provisional",
)  # fmt: skip

ColumnType = Literal["string", "integer", "number", "boolean", "date"]
"""A column's type, in Frictionless Table Schema words (`datapackage.json` publishes them)."""
_STRING: ColumnType = "string"
_INTEGER: ColumnType = "integer"
_NUMBER: ColumnType = "number"
_BOOLEAN: ColumnType = "boolean"
_DATE: ColumnType = "date"
COLUMN_TYPES: dict[str, ColumnType] = {
    "id": _STRING, "name": _STRING, "provider": _STRING, "country": _STRING,
    "url": _STRING, "model": _STRING, "modelName": _STRING, "rankStatus": _STRING,
    "usageMultiplierSource": _STRING, "priceSource": _STRING, "priceSourceUrl": _STRING,
    "rank": _INTEGER, "rankLow": _INTEGER, "rankHigh": _INTEGER, "iq": _INTEGER,
    "emotionalReasoning": _INTEGER, "compositeIq": _INTEGER, "benchmarksCovered": _INTEGER,
    "benchmarksTotal": _INTEGER, "resultCount": _INTEGER, "releaseDatedResultCount": _INTEGER,
    **{slug: _INTEGER for slug in DIMENSION_SLUGS},
    "iqLow95": _NUMBER, "iqHigh95": _NUMBER, "score": _NUMBER, "inputPer1M": _NUMBER,
    "outputPer1M": _NUMBER, "usageMultiplier": _NUMBER, "effectivePer1M": _NUMBER,
    "estimateLow95": _NUMBER, "estimateHigh95": _NUMBER,
    "openSource": _BOOLEAN, "provisional": _BOOLEAN,
    **{f"{slug}-imputed": _BOOLEAN for slug in DIMENSION_SLUGS},
    "date": _DATE, "releaseDate": _DATE, "priceAsOf": _DATE,
    "responseTimeSec": _NUMBER, "costPerTaskUsd": _NUMBER, "taskSource": _STRING,
    "taskAsOf": _DATE, "speedRuns": _INTEGER, "costRuns": _INTEGER,
    "knowledgeCutoff": _STRING,  # a month (2025-04) or a day: no one date type holds both
    "postCutoffResults": _INTEGER,
}  # fmt: skip
"""The type of every column above, by name (a name means the same in every file): the
data package's field types (`generator/documents/datapackage.py`) read it, and a column
without one fails the build there and `tests/documents/test_datapackage.py`."""


def to_csv(columns: Sequence[str], rows: Iterable[Sequence[Cell]]) -> bytes:
    """RFC 4180 text: a header row, then one line per row; None is an empty field.

    Every text cell goes through `csv_cell` (no cell can start a spreadsheet formula) and
    every number through `csv_number` (no `-0.0`).
    """
    out = io.StringIO(newline="")
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow([csv_cell(column) for column in columns])
    writer.writerows(map(_cells, rows))
    return out.getvalue().encode("utf-8")


def _cells(row: Sequence[Cell]) -> list[Cell]:
    """`row` as `csv.writer` should write it. The writer already writes None as an empty
    field, an int as `str` and a float as `repr`, which is `csv_number` of a finite float
    once `-0.0` is `0.0` (`x + 0.0`; `x - x == 0.0` only when x is finite), and a text
    starting with a letter or digit is its own `csv_cell`: those cells pass as they are,
    the rest go through `_text` (other text, a bool, inf or nan)."""
    return [
        cell
        if (kind := type(cell)) is int or cell is None
        else cell + 0.0  # type: ignore[operator]
        if kind is float and cell - cell == 0.0  # type: ignore[operator]
        else cell
        if kind is str and cell[:1] in PLAIN_STARTS  # type: ignore[index]
        else _text(cell)
        for cell in row
    ]


def _text(cell: Cell) -> str:
    if cell is None:
        return ""
    if isinstance(cell, bool):
        return "true" if cell else "false"
    if isinstance(cell, str):
        return csv_cell(cell)
    return csv_number(cell)


def _unset(value: object) -> Cell:
    return None if value is msgspec.UNSET else value  # type: ignore[return-value]


def _model_row(m: ModelSummary) -> list[Cell]:
    dims = msgspec.structs.astuple(m.dimensions)
    c = m.cost
    return [
        m.id, m.name, m.provider, m.country, m.rank, m.iq, m.iq_low95, m.iq_high95, m.rank_low,
        m.rank_high, *dims, m.emotional_reasoning, c.input_per_1m, c.output_per_1m,
        c.usage_multiplier, c.usage_multiplier_source, c.effective_per_1m,
        m.release_date.isoformat() if m.release_date else None, m.open_source, m.url,
        c.price_source, c.price_source_url, c.price_as_of.isoformat() if c.price_as_of else None,
        m.provisional, *(slug in m.imputed_dimensions for slug in DIMENSION_SLUGS),
        m.speed.response_time_sec, m.cost_per_task.usd, m.speed_source.source,
        m.speed_source.as_of.isoformat() if m.speed_source.as_of else None,
        m.speed_source.runs, m.cost_per_task.runs,
        m.knowledge_cutoff, m.post_cutoff_results,
    ]  # fmt: skip


def _model_history_rows(history: ModelHistory) -> list[list[Cell]]:
    return [
        [p.date.isoformat(), p.rank, p.rank_low, p.rank_high, p.iq, p.iq_low95, p.iq_high95,
         *msgspec.structs.astuple(p.dimensions), p.provisional]
        for p in history.snapshots
    ]  # fmt: skip


def _ranking_rows(r: RankingDetail) -> list[list[Cell]]:
    return [
        [
            m.rank,
            _unset(m.rank_low),
            _unset(m.rank_high),
            m.id,
            m.name,
            m.provider,
            m.score,
            _unset(m.provisional),
        ]
        for m in r.models
    ]


def _domain_rows(d: DomainDetail) -> list[list[Cell]]:
    return [
        [e.model, e.model_name, e.composite_iq, e.rank_status, e.benchmarks_covered,
         e.benchmarks_total, _unset(e.estimate_low95), _unset(e.estimate_high95)]
        for e in d.models
    ]  # fmt: skip


def _history_rows(snapshots: Iterable[HistoryDetail]) -> list[list[Cell]]:
    return [
        [date, e.rank, e.rank_low, e.rank_high, e.id, e.name, e.provider, e.iq, e.iq_low95,
         e.iq_high95, results, dated, e.provisional]
        for s in snapshots
        for date, results, dated in [
            (s.date.isoformat(), s.result_count, s.release_dated_result_count)
        ]
        for e in s.models
    ]  # fmt: skip


T = TypeVar("T")
S = TypeVar("S")


def document_as(documents: Mapping[str, msgspec.Struct], path: str, kind: type[T]) -> T:
    document = documents[path]
    if isinstance(document, Published):  # kept from the last build: read back only if needed
        document = document.load()
    if not isinstance(document, kind):
        raise BuildError(f"downloads: document {path} is not a {kind.__name__}")
    return document


class Download(msgspec.Struct, frozen=True):
    """One CSV file: its site path, the API documents it is made from, and how."""

    path: str
    sources: tuple[str, ...]
    make: Callable[[], bytes]
    kind: DownloadKind | None  # None: the 404 body, no data
    columns: tuple[str, ...]
    parts: tuple[str, ...] = ()
    """Downloads whose rows, in order, are this one's: `join` makes it from their bytes."""
    join: Callable[[Sequence[bytes]], bytes] | None = None


def download_jobs(documents: Mapping[str, msgspec.Struct]) -> list[Download]:
    """Every CSV download, not yet made: a build reuses those whose sources did not change."""
    models = document_as(documents, MODELS.path, ModelList)
    jobs = [
        Download(
            models_download(),
            (MODELS.path,),
            partial(_csv, MODEL_COLUMNS, _model_rows, models),
            MODELS_CSV,
            MODEL_COLUMNS,
        )
    ]
    for model in models.models:
        path = MODEL_HISTORY.api_path(model.id)
        points = partial(document_as, documents, path, ModelHistory)  # when the CSV is made
        one_model = partial(_csv_of, MODEL_HISTORY_COLUMNS, _model_history_rows, points)
        jobs.append(
            Download(
                model_history_download(model.id),
                (path,),
                one_model,
                MODEL_HISTORY_CSV,
                MODEL_HISTORY_COLUMNS,
            )
        )
    for entry in document_as(documents, RANKINGS.path, RankingList).rankings:
        path = RANKING.api_path(entry.id)
        ranking = document_as(documents, path, RankingDetail)
        csv_path = ranking_download(entry.id)
        rows = partial(_csv, RANKING_COLUMNS, _ranking_rows, ranking)
        jobs.append(Download(csv_path, (path,), rows, RANKING_CSV, RANKING_COLUMNS))
    for summary in document_as(documents, DOMAINS.path, DomainList).domains:
        path = DOMAIN.api_path(summary.id)
        domain = document_as(documents, path, DomainDetail)
        csv_path = domain_download(domain.id)
        rows = partial(_csv, DOMAIN_COLUMNS, _domain_rows, domain)
        jobs.append(Download(csv_path, (path,), rows, DOMAIN_CSV, DOMAIN_COLUMNS))
    history = document_as(documents, HISTORY.path, HistoryList)
    paths = [HISTORY_SNAPSHOT.api_path(s.date.isoformat()) for s in history.snapshots]
    snapshots = [document_as(documents, path, HistoryDetail) for path in paths]
    every = partial(_csv, HISTORY_COLUMNS, _history_rows, snapshots)
    parts = tuple(snapshot_download(s.date.isoformat()) for s in snapshots)
    join = partial(joined, HISTORY_COLUMNS)
    jobs.append(
        Download(
            history_download(),
            (HISTORY.path, *paths),
            every,
            HISTORY_CSV,
            HISTORY_COLUMNS,
            parts,
            join,
        )
    )
    for path, snapshot in zip(paths, snapshots, strict=True):
        csv_path = snapshot_download(snapshot.date.isoformat())
        one = partial(_csv, HISTORY_COLUMNS, _history_rows, [snapshot])
        jobs.append(Download(csv_path, (path,), one, SNAPSHOT_CSV, HISTORY_COLUMNS))
    not_found = partial(to_csv, NOT_FOUND_COLUMNS, [NOT_FOUND_ROW])
    jobs.append(Download(NOT_FOUND_FILE, (), not_found, None, NOT_FOUND_COLUMNS))
    return jobs


def _model_rows(models: ModelList) -> Iterable[list[Cell]]:
    return map(_model_row, models.models)


def _csv(columns: Sequence[str], rows: Callable[[S], Iterable[Sequence[Cell]]], source: S) -> bytes:
    return to_csv(columns, rows(source))


def _csv_of(
    columns: Sequence[str], rows: Callable[[S], Iterable[Sequence[Cell]]], source: Callable[[], S]
) -> bytes:
    return to_csv(columns, rows(source()))


def joined(columns: Sequence[str], parts: Sequence[bytes]) -> bytes:
    """The CSV of `columns` whose rows are those of `parts` (CSV files of the same columns),
    in order: the same bytes as `to_csv` of all their rows, without writing a cell again."""
    header = to_csv(columns, [])
    if any(not part.startswith(header) for part in parts):
        raise BuildError("downloads: a part of a joined CSV has other columns")
    # One copy of the rows (views of the parts), not a slice of each, then header + body.
    return b"".join([header, *(memoryview(part)[len(header) :] for part in parts)])
