"""Read and validate data/ into the public `Dataset`.

Every file is TOML. The `[private]` table is split off first (and checked
against `PrivateRecord`), then the rest is converted into its input record.
Unpublished models are loaded for validation only and never enter the
`Dataset`. All problems are collected, each one line `file: field: problem`,
and raised at once as `DataError`.
"""

from __future__ import annotations

import datetime as dt
import math
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import msgspec
import rtoml

from generator.errors import DataError
from generator.input.records import (
    BenchmarkRecord,
    ChartRecord,
    Dataset,
    DomainRecord,
    MethodologyRecord,
    ModelRecord,
    PrivateRecord,
)
from generator.input.validate import Loaded, Records, check_records, order_benchmarks

MAX_FILE_BYTES = 5 * 1024 * 1024
METHODOLOGY_FILE = "methodology.toml"
FOLDERS: dict[str, type[msgspec.Struct]] = {
    "models": ModelRecord,
    "benchmarks": BenchmarkRecord,
    "domains": DomainRecord,
    "charts": ChartRecord,
}
EARLIEST = dt.date(2000, 1, 1)
T = TypeVar("T", bound=msgspec.Struct)


@dataclass(frozen=True)
class DatasetSummary:
    """Counts of what `data/` holds, for `modelscores check`."""

    models: int
    published_models: int
    benchmarks: int
    domains: int
    domain_results: int
    benchmark_results: int
    charts: int

    def describe(self) -> str:
        """One line, e.g. `69 models (67 published), 22 benchmarks, ...`."""
        return (
            f"{self.models} models ({self.published_models} published), "
            f"{self.benchmarks} benchmarks, {self.domains} domains, "
            f"{self.domain_results} domain results, "
            f"{self.benchmark_results} benchmark results, {self.charts} charts"
        )


def load_dataset(data_dir: Path) -> Dataset:
    """Load and validate `data_dir`; raise `DataError` listing every problem."""
    return _dataset(_load_records(data_dir))


def summarize(data_dir: Path) -> DatasetSummary:
    """Validate `data_dir` (raising `DataError`) and count what it holds."""
    records = _load_records(data_dir)
    dataset = _dataset(records)
    return DatasetSummary(
        models=len(records.models),
        published_models=len(dataset.models),
        benchmarks=len(dataset.benchmarks),
        domains=len(dataset.domains),
        domain_results=sum(len(domain.results) for domain in dataset.domains),
        benchmark_results=sum(len(model.results) for model in dataset.models),
        charts=len(dataset.charts),
    )


def _dataset(records: Records) -> Dataset:
    assert records.methodology is not None
    return Dataset(
        methodology=records.methodology.record,
        benchmarks=order_benchmarks([b.record for b in records.benchmarks], records.methodology),
        models=tuple(sorted((m.record for m in records.models if m.record.published), key=_id)),
        domains=tuple(sorted((d.record for d in records.domains), key=_id)),
        charts=tuple(sorted((c.record for c in records.charts), key=_id)),
    )


def _id(record: Any) -> str:
    return str(record.id)


def _load_records(data_dir: Path) -> Records:
    """Read every data file, convert and cross-check; raise `DataError` on any problem."""
    problems: list[str] = []
    if not data_dir.is_dir():
        raise DataError([f"{data_dir}: directory: not found"])
    records = Records()
    methodology_path = data_dir / METHODOLOGY_FILE
    if methodology_path.is_file():
        records.methodology = _load_file(methodology_path, MethodologyRecord, problems)
    else:
        problems.append(f"{methodology_path}: file: missing (every data dir needs one)")
    seen_any = methodology_path.is_file()
    for folder, record_type in FOLDERS.items():
        for path in _record_files(data_dir / folder, problems):
            seen_any = True
            loaded = _load_file(path, record_type, problems)
            if loaded is not None:
                getattr(records, folder).append(loaded)
            else:
                records.broken[folder].add(path.stem)
    problems.extend(_stray_files(data_dir))
    if not seen_any:
        problems.append(f"{data_dir}: directory: no data files")
    problems.extend(check_records(records))
    if problems:
        raise DataError(problems)
    return records


def _record_files(folder: Path, problems: list[str]) -> list[Path]:
    if not folder.is_dir():
        return []
    files = []
    for path in sorted(folder.iterdir()):
        if path.name.startswith("."):
            continue
        if path.is_file() and path.suffix == ".toml":
            files.append(path)
        else:
            problems.append(f"{path}: file: not a .toml data file")
    return files


def _stray_files(data_dir: Path) -> list[str]:
    """TOML files outside the known places would be silently ignored: report them."""
    expected = {METHODOLOGY_FILE, *FOLDERS}
    return [
        f"{path}: file: unexpected data file (use {METHODOLOGY_FILE} or a record folder)"
        for path in sorted(data_dir.iterdir())
        if path.suffix == ".toml" and path.name not in expected
    ]


def _load_file(path: Path, record_type: type[T], problems: list[str]) -> Loaded[T] | None:
    """Read one file into its record; append problems and return None on failure."""
    raw = _read_toml(path, problems)
    if raw is None:
        return None
    private = raw.pop("private", None)
    found = len(problems)
    if private is not None:
        _convert(private, PrivateRecord, path, problems, prefix="private")
    problems.extend(f"{path}: {field}: {problem}" for field, problem in _scan_values(raw))
    if len(problems) > found:
        return None
    record = _convert(raw, record_type, path, problems)
    if record is None:
        return None
    if getattr(record, "id", path.stem) != path.stem and record_type is not MethodologyRecord:
        problems.append(f"{path}: id: must equal the file name '{path.stem}'")
        return None
    return Loaded(str(path), record)


def _read_toml(path: Path, problems: list[str]) -> dict[str, Any] | None:
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            problems.append(f"{path}: file: too large ({size} bytes; the limit is 5 MB)")
            return None
        data = path.read_bytes()
    except OSError as exc:
        problems.append(f"{path}: file: cannot read ({exc.strerror or exc})")
        return None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        problems.append(f"{path}: file: not UTF-8 (byte 0x{data[exc.start]:02x} at {exc.start})")
        return None
    try:
        return parse_toml(text)
    except tomllib.TOMLDecodeError as exc:
        problems.append(f"{path}: {_toml_problem(str(exc))}")
        return None


def parse_toml(text: str) -> dict[str, Any]:
    """Parse a TOML document: rtoml (Rust, about 7x faster) and, on error, tomllib.

    Both give the same values for every valid file (dates, datetimes, numbers alike);
    tomllib is asked again only for a file rtoml rejects, so that every syntax error
    is reported with tomllib's message and position (and tomllib has the last word).
    """
    try:
        parsed: dict[str, Any] = rtoml.loads(text)
    except ValueError:  # rtoml.TomlParsingError, or any value rtoml cannot represent
        return tomllib.loads(text)
    return parsed


_TOML_AT = re.compile(r"^(?P<msg>.*) \(at line (?P<line>\d+), column (?P<col>\d+)\)$")


def _toml_problem(message: str) -> str:
    """`line N: invalid TOML: ...` from a tomllib error message."""
    match = _TOML_AT.match(message)
    if match:
        return f"line {match['line']}: invalid TOML: {match['msg']} (column {match['col']})"
    return f"file: invalid TOML: {message}"


def _convert(
    raw: Any, record_type: type[T], path: Path, problems: list[str], prefix: str = ""
) -> T | None:
    try:
        return msgspec.convert(raw, type=record_type)
    except msgspec.ValidationError as exc:
        field, problem = validation_problem(str(exc))
        if prefix:
            field = prefix if field == "$" else f"{prefix}.{field}"
        problems.append(f"{path}: {field}: {problem}")
        return None


_MSGSPEC_AT = re.compile(r"^(?P<msg>.*?)(?: - at `\$(?P<path>[^`]*)`)?$", re.S)
_FIELD_MSG = re.compile(
    r"^Object (?P<what>contains unknown field|missing required field) `(?P<name>[^`]+)`$"
)


def validation_problem(message: str) -> tuple[str, str]:
    """(field path, problem) from a msgspec error, e.g. `results[3].value`."""
    match = _MSGSPEC_AT.match(message)
    assert match is not None
    msg, path = match["msg"], (match["path"] or "").lstrip(".")
    field_match = _FIELD_MSG.match(msg)
    if field_match:
        name = field_match["name"]
        path = f"{path}.{name}" if path else name
        msg = "unknown field" if field_match["what"].startswith("contains") else "missing"
    return path or "$", " ".join(msg.split())


def _scan_values(value: Any, path: str = "") -> list[tuple[str, str]]:
    """Values msgspec would accept but the data must not hold: NaN and infinity,
    date-times without a UTC offset, dates before 2000."""
    found: list[tuple[str, str]] = []
    if isinstance(value, dict):
        for key, item in value.items():
            found += _scan_values(item, f"{path}.{key}" if path else str(key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _scan_values(item, f"{path}[{index}]")
    elif isinstance(value, float) and not math.isfinite(value):
        found.append((path, f"not a finite number ({value})"))
    elif isinstance(value, dt.datetime):
        if value.utcoffset() is None:
            found.append((path, "a date-time needs a UTC offset (e.g. 2026-04-24T00:00:00Z)"))
        elif value.date() < EARLIEST:
            found.append((path, f"date {value.date()} is before 2000"))
    elif isinstance(value, dt.date) and value < EARLIEST:
        found.append((path, f"date {value} is before 2000"))
    return found
