"""Read and validate data/ into the public `Dataset`.

Every file is TOML. The `[private]` table is split off first (and checked
against `PrivateRecord`), then the rest is converted into its input record.
Unpublished models are loaded for validation only and never enter the
`Dataset`. All problems are collected, each one line `file: field: problem`,
and raised at once as `DataError`.
"""

from __future__ import annotations

import datetime as dt
import errno
import math
import operator
import os
import re
import stat
from collections.abc import Iterable, Iterator, Sequence, Set
from dataclasses import dataclass
from itertools import chain, compress, repeat
from pathlib import Path
from typing import Any, Protocol, TypeVar

import msgspec
import rtoml

from generator.digests import digest
from generator.errors import MAX_SHOWN_PROBLEMS, DataError
from generator.input.decode import decode, deferred_suggestions, shown, shown_field, suggest
from generator.input.limits import (
    MAX_FILE_LINES,
    MAX_FILE_PROBLEMS,
    MAX_FILE_VALUES,
    MAX_TREE_LINES,
    more_problems,
    tree_problems,
)
from generator.input.loaded import Loaded, Records
from generator.input.records import (
    BenchmarkRecord,
    ChartRecord,
    Dataset,
    DomainRecord,
    MethodologyRecord,
    ModelRecord,
    PrivateRecord,
    ProviderRecord,
    SourceRecord,
)
from generator.input.text import has_forbidden, text_problem
from generator.input.validate import check_records, order_benchmarks

MAX_FILE_BYTES = 5 * 1024 * 1024
MAX_DEPTH = 16
"""Tables and arrays inside one another (the data needs 4); rtoml itself stops at about 80."""
MAX_MAGNITUDE = 1e12
MIN_MAGNITUDE = 1e-12
"""Every number is 0 or between these magnitudes: anything else cannot be drawn or stored."""
METHODOLOGY_FILE = "methodology.toml"
FOLDERS: dict[str, type[msgspec.Struct]] = {
    "models": ModelRecord,
    "benchmarks": BenchmarkRecord,
    "domains": DomainRecord,
    "charts": ChartRecord,
    "sources": SourceRecord,
    "providers": ProviderRecord,
}
EARLIEST = dt.date(2000, 1, 1)
LATEST = dt.date(2099, 12, 31)
SYMLINK = "a symbolic link (data/ holds only regular files and folders)"
NOT_REGULAR = "not a regular file (data/ holds only regular files and folders)"
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


class RecordStore(Protocol):
    """Records parsed by an earlier build, by `record_key` (`generator/cache/records.py`)."""

    code: bytes  # the generator's version, part of every key

    def get(self, key: bytes, kind: type[T]) -> T | None: ...

    def put(self, key: bytes, record: msgspec.Struct) -> None: ...


def record_key(code: bytes, kind: type[msgspec.Struct], name: str, data: bytes) -> bytes:
    """What a file's record depends on: the code, the record type, its name and bytes
    (not the data directory's path: a moved or copied `data/` still hits)."""
    return digest(code, kind.__name__.encode(), name.encode(), data)


def load_dataset(data_dir: Path, store: RecordStore | None = None) -> Dataset:
    """Load and validate `data_dir`; raise `DataError` listing every problem.

    With `store`, a file whose bytes an earlier build parsed without a problem is not
    parsed again: its record is taken from the store (the cross-record checks all run).
    """
    return _dataset(_load_records(data_dir, store))


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
        benchmarks=order_benchmarks([b.record for b in records.benchmarks if b.record.ladder]),
        models=tuple(sorted((m.record for m in records.models if m.record.published), key=_id)),
        domains=tuple(sorted((d.record for d in records.domains), key=_id)),
        charts=tuple(sorted((c.record for c in records.charts), key=_id)),
        sources=tuple(sorted((_public(s.record, records) for s in records.sources), key=_id)),
        providers=tuple(sorted((p.record for p in records.providers), key=_id)),
        unscored=order_benchmarks([b.record for b in records.benchmarks if not b.record.ladder]),
    )


def _public(source: SourceRecord, records: Records) -> SourceRecord:
    """`source` without its mappings to unpublished models (they would leak them)."""
    published = {
        name.lower()
        for m in records.models
        if m.record.published
        for name in (m.record.id, *m.record.aliases)
    }
    kept = [m for m in source.models if m.model.lower() in published]
    return (
        source if len(kept) == len(source.models) else msgspec.structs.replace(source, models=kept)
    )


def _id(record: Any) -> str:
    return str(record.id)


def check_tree(data_dir: Path) -> None:
    """Raise `DataError` when `data_dir` is missing, a link, or past a whole-tree limit
    (`generator/input/limits.py`): what is checked before any file is read."""
    if data_dir.is_symlink():
        raise DataError([f"{data_dir}: directory: {SYMLINK}"])
    if not data_dir.is_dir():
        raise DataError([f"{data_dir}: directory: not found"])
    too_much = tree_problems(data_dir)
    if too_much:
        raise DataError(too_much)


def _load_records(data_dir: Path, store: RecordStore | None = None) -> Records:
    """Read every data file, convert and cross-check; raise `DataError` on any problem."""
    problems: list[str] = []
    check_tree(data_dir)
    records = Records()
    tally = Tally()
    methodology_path = data_dir / METHODOLOGY_FILE
    kind = _entry_kind(methodology_path)
    if kind == "file":
        records.methodology = _load_file(
            methodology_path, MethodologyRecord, problems, store, tally
        )
    elif kind is None:
        problems.append(f"{methodology_path}: file: missing (every data dir needs one)")
    else:
        problems.append(f"{methodology_path}: file: {_refusal(kind)}")
    seen_any = kind is not None
    unread = 0
    for folder, record_type in FOLDERS.items():
        for path, kind in _record_files(data_dir / folder, problems):
            seen_any = True
            loaded = None
            if len(problems) >= MAX_SHOWN_PROBLEMS or tally.amount > MAX_TREE_LINES:
                unread += 1  # more would not be printed, or the tree is past its size
            elif kind == "file":
                loaded = _load_file(path, record_type, problems, store, tally)
            else:
                problems.append(f"{path}: file: {_refusal(kind)}")
            if loaded is not None:
                getattr(records, folder).append(loaded)
            else:
                records.broken[folder].add(path.stem)
    problems.extend(_stray_files(data_dir))
    if not seen_any:
        problems.append(f"{data_dir}: directory: no data files")
    if tally.amount > MAX_TREE_LINES:
        problems.append(
            f"{data_dir}: directory: more than {MAX_TREE_LINES:,} lines or values of data files"
            f" (the limit is {MAX_TREE_LINES:,}); {unread:,} files not checked"
        )
    elif unread:
        problems.append(
            f"{data_dir}: directory: {unread:,} more data files not checked (stopped after"
            f" {MAX_SHOWN_PROBLEMS} problems)"
        )
    if unread or tally.amount > MAX_TREE_LINES:  # cross-record checks need every record
        raise DataError(problems)
    with deferred_suggestions() as resolve:
        crossed = check_records(records)
        problems.extend(crossed)
        if problems:
            raise DataError(resolve(problems, crossed, MAX_SHOWN_PROBLEMS))
    return records


def _entry_kind(path: Path) -> str | None:
    """`file`, `dir`, `symlink` or `other` for `path` itself (never following a link);
    None if it does not exist."""
    try:
        mode = path.lstat().st_mode
    except FileNotFoundError:
        return None
    except OSError:
        return "other"
    if stat.S_ISLNK(mode):
        return "symlink"
    if stat.S_ISDIR(mode):
        return "dir"
    return "file" if stat.S_ISREG(mode) else "other"


def _refusal(kind: str) -> str:
    return SYMLINK if kind == "symlink" else NOT_REGULAR


def ignored(parts: Sequence[str]) -> bool:
    """Whether the entry at `parts` (its path inside data/) is left alone, unread and
    unchecked: a name starting with `.` at the top of data/ (`.gitkeep`, `.git/`) or in a
    record folder, but a `.`-named `.toml` file there (`models/.x.toml`: data nobody would
    read, refused by `_record_files`). `build` and `diff git:REV` both ask this."""
    if not parts:
        return False
    if parts[0].startswith("."):
        return True
    name = parts[1] if len(parts) > 1 and parts[0] in FOLDERS else ""
    return name.startswith(".") and not (len(parts) == 2 and name.endswith(".toml"))


DOT_DATA_FILE = "a data file whose name starts with '.' is never read (rename or remove it)"


def _record_files(folder: Path, problems: list[str]) -> list[tuple[Path, str]]:
    """The `.toml` entries of one record folder with their kind (see `_entry_kind`);
    anything else there is one problem line.

    A symlink (to a file or a folder) is refused without being followed, so nothing
    outside data/ is ever read, listed or named.
    """
    kind = _entry_kind(folder)
    if kind is None:
        return []
    if kind != "dir":
        problems.append(f"{folder}: directory: {_refusal(kind)}")
        return []
    entries = []
    for path in sorted(folder.iterdir()):
        if ignored((folder.name, path.name)):
            continue
        kind = _entry_kind(path) or "other"
        if path.name.startswith(".") and kind != "dir":  # `.x.toml`
            problems.append(f"{path}: file: {DOT_DATA_FILE}")
        elif path.suffix == ".toml" and kind != "dir":
            entries.append((path, kind))
        elif kind == "dir":  # its files would not be read
            problems.append(f"{path}: directory: unknown folder ({folder.name}/ holds .toml files)")
        elif kind == "file":
            problems.append(f"{path}: file: not a .toml data file")
        else:
            problems.append(f"{path}: file: {_refusal(kind)}")
    return entries


DOCUMENTED_FILES = ("README.md",)
"""Files at the top of data/ that are not data (data/README.md documents the layout)."""


def _stray_files(data_dir: Path) -> list[str]:
    """Every entry at the top of data/ but `methodology.toml`, the record folders and the
    documented files is refused: a stray folder (`modles/`, a typo) or file would be
    silently not read. Names starting with `.` (`.gitkeep`) are left alone."""
    expected = {METHODOLOGY_FILE, *FOLDERS}
    problems = []
    for path in sorted(data_dir.iterdir()):
        if path.name in expected or ignored((path.name,)):
            continue
        kind = _entry_kind(path) or "other"
        if kind == "dir":
            folders = ", ".join(sorted(FOLDERS))
            hint = suggest(path.name, FOLDERS) or f" (the data folders are {folders})"
            problems.append(f"{path}: directory: unknown folder{hint}")
        elif kind != "file":
            problems.append(f"{path}: file: {_refusal(kind)}")
        elif path.suffix == ".toml":
            problems.append(
                f"{path}: file: unexpected data file (use {METHODOLOGY_FILE} or a record folder)"
            )
        elif path.name not in DOCUMENTED_FILES:
            problems.append(
                f"{path}: file: unexpected file (data/ holds"
                f" {', '.join(DOCUMENTED_FILES)}, {METHODOLOGY_FILE} and the data folders)"
            )
    return problems


@dataclass
class Tally:
    """Lines or values (whichever is more) of the data files read so far."""

    amount: int = 0


def _load_file(
    path: Path,
    record_type: type[T],
    problems: list[str],
    store: RecordStore | None = None,
    tally: Tally | None = None,
) -> Loaded[T] | None:
    """Read one file into its record, appending every problem it has.

    A file with bad fields still yields its repaired record (see `decode`), so its
    cross-record checks run too; None when even that fails.
    """
    data = _read_bytes(path, problems)
    if data is None:
        return None
    tally = Tally() if tally is None else tally
    if store is None:
        return _parse_file(path, data, record_type, problems, tally)
    key = record_key(store.code, record_type, path.name, data)  # the folder follows the type
    kept = store.get(key, record_type)
    if kept is not None:
        tally.amount += data.count(b"\n")  # parsed before without a problem: about its lines
        return Loaded(str(path), kept)
    before = len(problems)
    loaded = _parse_file(path, data, record_type, problems, tally)
    if loaded is not None and len(problems) == before and not loaded.placeholders:
        store.put(key, loaded.record)
    return loaded


def _parse_file(
    path: Path, data: bytes, record_type: type[T], problems: list[str], tally: Tally
) -> Loaded[T] | None:
    raw = _read_toml(path, data, problems, tally)
    if raw is None:
        return None
    private = raw.pop("private", None)
    found: list[tuple[str, str]] = []
    if private is not None:  # never published, but held to the same characters
        private_scan = _scan_values({"private": private})
        reported = (where for where, _ in private_scan)
        found += private_scan + decode(private, PrivateRecord, "private", reported).problems
    scanned = _scan_values(raw)
    decoded = decode(raw, record_type, reported=(where for where, _ in scanned))
    found += scanned + decoded.problems
    problems.extend(
        f"{path}: {shown_field(field)}: {problem}" for field, problem in found[:MAX_FILE_PROBLEMS]
    )
    more = len(found) - MAX_FILE_PROBLEMS + decoded.unlisted
    if more > 0:
        problems.append(
            f"{path}: file: {more_problems(more)} (only the first {MAX_FILE_PROBLEMS} of a"
            " file are listed)"
        )
    record = decoded.record
    if record is None:
        return None
    record_id = getattr(record, "id", path.stem)
    if record_id != path.stem and record_type is not MethodologyRecord:
        problems.append(
            f"{path}: id: must equal the file name '{path.stem}' (value: {shown(record_id)})"
        )
        return None
    return Loaded(str(path), record, decoded.placeholders)


def _read_bytes(path: Path, problems: list[str]) -> bytes | None:
    try:
        return read_data_file(path)
    except _Refused as refused:
        problems.append(f"{path}: file: {refused}")
    except OSError as exc:
        problems.append(f"{path}: file: cannot read ({exc.strerror or exc})")
    return None


def _read_toml(
    path: Path, data: bytes, problems: list[str], tally: Tally | None = None
) -> dict[str, Any] | None:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        problems.append(f"{path}: file: not UTF-8 (byte 0x{data[exc.start]:02x} at {exc.start})")
        return None
    lines = text.count("\n") + (not text.endswith("\n"))
    if lines > MAX_FILE_LINES:  # refused before parsing
        problems.append(f"{path}: file: {lines:,} lines (the limit is {MAX_FILE_LINES:,})")
        return None
    try:
        parsed = parse_toml(text)
    except TomlError as exc:
        problems.append(f"{path}: {exc}")
        return None
    depth, count = _shape(parsed)
    if tally is not None:
        tally.amount += max(lines, count)
    if depth > MAX_DEPTH:
        problems.append(f"{path}: file: nested too deeply (more than {MAX_DEPTH} levels)")
        return None
    if count > MAX_FILE_VALUES:
        problems.append(f"{path}: file: more than {MAX_FILE_VALUES:,} values (the limit)")
        return None
    return parsed


class _Refused(Exception):
    """A data file that is not read at all (its problem is the message)."""


_SMALL_FILE = 1024 * 1024


def read_data_file(path: Path) -> bytes:
    """The bytes of a regular file of at most `MAX_FILE_BYTES`, never through a symlink.

    The checks are made on the opened file itself (no window between check and read),
    and a FIFO or device is refused before a single byte is read from it. A small file is
    read with a request of its size and one byte more (asked for 5 MB, Python allocates them:
    0.02 ms a file); a larger one with one request of the limit, which measured faster for
    4 MB files (read at their size, they made the C heap shrink and grow again: 0.5 s more
    page faults over 22 of them).
    """
    flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise _Refused(SYMLINK) from None
        raise
    with os.fdopen(fd, "rb") as file:
        info = os.fstat(file.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise _Refused(NOT_REGULAR)
        data = file.read((info.st_size if info.st_size < _SMALL_FILE else MAX_FILE_BYTES) + 1)
        if len(data) > info.st_size:  # grown since: read on as far as the limit
            data += file.read(MAX_FILE_BYTES + 1 - len(data))
    size = max(info.st_size, len(data))
    if size > MAX_FILE_BYTES:
        raise _Refused(f"too large ({size} bytes; the limit is 5 MB)")
    return data


class TomlError(ValueError):
    """A document rtoml refused, as `line N: invalid TOML: problem (column C)`."""


def parse_toml(text: str) -> dict[str, Any]:
    """Parse a TOML document with rtoml (Rust: linear time, nesting capped at about 80).

    There is deliberately no second parser: tomllib, asked again after rtoml refused,
    grew quadratically on a long dotted key and recursed without bound on deep arrays.
    """
    try:
        parsed: dict[str, Any] = rtoml.loads(text)
    except ValueError as exc:  # rtoml.TomlParsingError, or a value rtoml cannot represent
        raise TomlError(_toml_problem(str(exc))) from None
    return parsed


_TOML_AT = re.compile(r"\A(?P<msg>.*) at line (?P<line>\d+) column (?P<col>\d+)\Z", re.S)


def _toml_problem(message: str) -> str:
    """`line N: invalid TOML: ...` from an rtoml error message, on one line."""
    match = _TOML_AT.match(message)
    if match is None:
        if message.strip() == "recursion limit":
            return f"file: invalid TOML: nested too deeply (more than {MAX_DEPTH} levels)"
        return f"file: invalid TOML: {' '.join(message.split())}"
    text = " ".join(match["msg"].split())
    if text.startswith("cannot recurse further"):
        text = f"nested too deeply (more than {MAX_DEPTH} levels)"
    return f"line {match['line']}: invalid TOML: {text} (column {match['col']})"


def _shape(value: Any) -> tuple[int, int]:
    """How many tables and arrays are nested inside one another, and how many values (tables
    and arrays included) there are; the walk stops as soon as either passes its limit.

    Counted a level at a time, in C (a tuple per table made it 2.5x as slow: 0.90 against
    0.39 s for 22 files of 33,000 tables); a file past a limit is walked again by
    `_shape_walk`, whose order decides the count at the point it stops (which the tree's
    tally adds up)."""
    level: list[Any] = [value]
    depth, count = 0, 1
    while level:
        depth += 1
        count += sum(map(len, level))
        if count > MAX_FILE_VALUES or depth > MAX_DEPTH:
            return _shape_walk(value)
        level = _containers(level)
    return depth, count


_CONTAINER = (dict, list)


def _containers(level: list[Any]) -> list[Any]:
    """The tables and arrays directly inside the tables and arrays of `level`."""
    tables = list(map(isinstance, level, repeat(dict)))
    children = list(
        chain(
            chain.from_iterable(map(dict.values, compress(level, tables))),
            chain.from_iterable(compress(level, map(operator.not_, tables))),
        )
    )
    return list(compress(children, map(isinstance, children, repeat(_CONTAINER))))


def _shape_walk(value: Any) -> tuple[int, int]:
    """`_shape` one container at a time, depth first, stopping where a limit is passed."""
    deepest, count = 0, 1
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        children = item.values() if isinstance(item, dict) else item
        deepest = max(deepest, depth + 1)
        count += len(children)
        if count > MAX_FILE_VALUES or deepest > MAX_DEPTH:
            break
        below = depth + 1
        stack += [(child, below) for child in children if isinstance(child, (dict, list))]
    return deepest, count


def _scan_values(value: Any, path: str = "") -> list[tuple[str, str]]:
    """Values msgspec would accept but the data must not hold (NaN, infinities and
    magnitudes outside 1e-12..1e12, date-times without a UTC offset, dates outside
    2000..2099, control characters, surrogates and non-characters: `text.text_problem`);
    date-times are normalised to UTC and `-0.0` to `0.0` in place.

    `value` is at most `MAX_DEPTH` deep (checked by `_read_toml`). A path is only made for
    a value with a problem, and the keys of a table are searched in one pass."""
    found: list[tuple[str, str]] = []
    _scan_into(value, (path,) if path else (), found)
    return found


def _scan_into(value: Any, steps: tuple[str, ...], found: list[tuple[str, str]]) -> None:
    if _plain_and_clean(value):
        return
    if isinstance(value, dict):
        if has_forbidden("".join(value)):
            found += (problem for key in value for problem in _scan_key(key, _path((*steps, key))))
        items: Iterable[tuple[Any, Any]] = value.items()
    else:
        items = enumerate(value)
    for key, item in items:
        if isinstance(item, dict | list):
            _scan_into(item, (*steps, key), found)
            continue
        kind = type(item)
        if kind is str:
            if not has_forbidden(item):
                continue
        elif (kind is float or kind is int) and MIN_MAGNITUDE <= abs(item) <= MAX_MAGNITUDE:
            continue  # the common case, decided here
        elif isinstance(item, float) and item == 0:
            value[key] = 0.0  # -0.0 is never published with its sign
            continue
        elif isinstance(item, dt.datetime) and item.utcoffset() is not None:
            value[key] = item.astimezone(dt.UTC)
        problem = _value_problem(item)
        if problem is not None:
            found.append((_path((*steps, key)), problem))


_PLAIN = frozenset({str, int, float, bool, dt.date})
"""The exact types of the values `_plain_and_clean` decides on (all else: the item walk)."""


def _plain_and_clean(value: dict[str, Any] | list[Any]) -> bool:
    """Whether `_scan_into` would find nothing in `value` and rewrite nothing: its keys and
    values (or, for an array of tables, its tables' keys and values) are all text, numbers,
    booleans and dates, none with a problem, no number 0. Decided a kind at a time over the
    whole container, most of it in C (the item walk costs about 0.6 us a value); a table
    or array inside, a date-time, a zero or any problem leave it to the item walk."""
    if isinstance(value, dict):
        if has_forbidden("".join(value)):
            return False
        items: list[Any] = list(value.values())
    else:
        items = value
        if items and set(map(type, items)) == {dict}:  # an array of tables
            if has_forbidden("".join(set(chain.from_iterable(items)))):
                return False  # each key once: the tables mostly repeat theirs
            items = list(chain.from_iterable(map(dict.values, items)))
    types = list(map(type, items))
    kinds = set(types)
    if not kinds <= _PLAIN:
        return False
    if str in kinds and has_forbidden("".join(_of_types(items, types, {str}))):
        return False  # one character class: a join makes no match its parts lack
    if int in kinds or float in kinds:
        sizes = list(map(abs, _of_types(items, types, _NUMBERS)))
        nan = any(map(operator.ne, sizes, sizes))
        if nan or min(sizes) < MIN_MAGNITUDE or max(sizes) > MAX_MAGNITUDE:
            return False
    if dt.date in kinds:
        days = list(_of_types(items, types, {dt.date}))
        if min(days) < EARLIEST or max(days) > LATEST:
            return False
    return True


_NUMBERS = frozenset({int, float})


def _of_types(items: list[Any], types: list[type], wanted: Set[type]) -> Iterator[Any]:
    """The items whose exact type (`types`, item by item) is in `wanted` (not a bool for
    `int`), picked in C (of 165,000 values, the numbers in 4.4 ms against a comprehension's
    5.6, the dates in 3.7 against 5.2)."""
    return compress(items, map(wanted.__contains__, types))


def _path(steps: tuple[Any, ...]) -> str:
    """`results[3].value` from its steps (a key, or an index into an array)."""
    text = ""
    for step in steps:
        if isinstance(step, int):
            text += f"[{step}]"
        else:
            text = f"{text}.{step}" if text else str(step)
    return text


def _scan_key(key: str, path: str) -> list[tuple[str, str]]:
    problem = text_problem(key)
    return [] if problem is None else [(path, problem.removesuffix(" in text") + " in a key")]


def _value_problem(value: Any) -> str | None:
    if isinstance(value, str):
        return text_problem(value)
    if isinstance(value, bool):
        return None
    if isinstance(value, float) and not math.isfinite(value):
        return f"not a finite number ({value})"
    if (
        isinstance(value, int | float)
        and value
        and not (MIN_MAGNITUDE <= abs(value) <= MAX_MAGNITUDE)
    ):
        return f"number out of range ({float(value):.3g}; every number is 0 or 1e-12..1e12 in size)"
    if isinstance(value, dt.datetime):
        if value.utcoffset() is None:
            return "a date-time needs a UTC offset (e.g. 2026-04-24T00:00:00Z)"
        return _date_problem(value.astimezone(dt.UTC).date())
    if isinstance(value, dt.date):
        return _date_problem(value)
    return None


def _date_problem(day: dt.date) -> str | None:
    if day < EARLIEST:
        return f"date {day} is before 2000"
    if day > LATEST:
        return f"date {day} is after {LATEST.year}"
    return None
