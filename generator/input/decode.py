"""Decode one parsed data file into its record, reporting every bad field at once.

`msgspec.convert` stops at the first bad field. A file that fails it is walked
field by field instead: each bad field gives its own `(field, problem)`, showing
the offending value, and an unknown field gets up to three close matches. What
remains is a *repaired* record (a bad optional field takes its default, a bad
list item is left out, a bad required text, number, flag, date-time or list
takes a placeholder, listed in `placeholders` for the checks to skip) so that the
cross-record checks of that file still run; a repaired record is only ever used
for checking, never published.
"""

from __future__ import annotations

import datetime as dt
import difflib
import functools
import json
import re
import types
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Annotated, Any, Union, get_args, get_origin

import msgspec

from generator.errors import problem_order
from generator.input.limits import MAX_ALIASES, MAX_FILE_PROBLEMS
from generator.input.records import ALIAS_PATTERN, SLUG_PATTERN
from generator.input.text import LINE_PATTERN, line_problem
from generator.input.urls import GENERAL, URL_PATTERN, is_source_url, url_problem

MAX_SHOWN = 60
# Stand-ins for a bad required value: empty text matches no id or name, no date
# is after the end of time.
PLACEHOLDERS: dict[Any, Any] = {
    str: "",
    bool: False,
    int: 0,
    float: 0.0,
    dt.datetime: dt.datetime.max.replace(tzinfo=dt.UTC),
    list: [],
}


@dataclass
class Decoded:
    """The record (None when it cannot be repaired) and every problem found."""

    record: Any
    problems: list[tuple[str, str]] = field(default_factory=list)
    placeholders: frozenset[str] = frozenset()
    unlisted: int = 0  # problems past `MAX_FILE_PROBLEMS`: counted, not described


class _Failed(Exception):
    """A value that cannot be used, already reported."""


def decode(
    raw: Any, record_type: type[Any], prefix: str = "", reported: Iterable[str] = ()
) -> Decoded:
    """`raw` as `record_type`; values under a `reported` path are bad and already reported."""
    bad = set(reported)
    if not bad:
        try:
            return Decoded(msgspec.convert(raw, type=record_type))
        except msgspec.ValidationError:
            pass  # walk it field by field below
    walker = _Walker(bad)
    try:
        record = walker.value(raw, record_type, prefix)
    except _Failed:
        record = None
    return Decoded(record, walker.problems, frozenset(walker.placeholders), walker.unlisted)


def suggest(wrong: str, known: Iterable[str]) -> str:
    """` (did you mean 'a', 'b'?)` for up to three close matches, or ``.

    Only matches nearly as close as the best one are named (within 0.1 of its
    similarity), so a typo of one id does not also list its merely similar siblings.
    Inside `deferred_suggestions`, a placeholder instead: the matching (the costly part,
    against every known id) is then done only for the problems that are printed.
    """
    if len(wrong) > MAX_SHOWN:
        return ""  # no id is that long; matching would cost as much as the value is long
    if _pending is not None:
        _pending.append((wrong, known))
        return f"{_MARK}{len(_pending) - 1}{_MARK}"
    return _closest(wrong, tuple(sorted(set(known))))


_MARK = "\x00"  # never in a problem of the cross-record checks: text with it is refused
_MARKED = re.compile(f"{_MARK}(\\d+){_MARK}")
_pending: list[tuple[str, Iterable[str]]] | None = None


@contextmanager
def deferred_suggestions() -> Iterator[Callable[[list[str], list[str], int], list[str]]]:
    """Within it, `suggest` only notes what to match. The function it yields takes every
    problem, those made within, and how many are printed: it fills in the printed ones'
    suggestions (each distinct value matched once) and drops the others', so a flood of
    unknown ids costs one match per printed line, not one per problem."""
    global _pending
    pending: list[tuple[str, Iterable[str]]] = []
    _pending = pending
    try:
        yield lambda problems, made, shown: _resolved(problems, set(made), shown, pending)
    finally:
        _pending = None


def _resolved(
    problems: list[str], made: set[str], shown: int, pending: list[tuple[str, Iterable[str]]]
) -> list[str]:
    ordered = sorted(problems, key=problem_order)
    memo: dict[tuple[str, int], str] = {}

    def fill(match: re.Match[str]) -> str:
        index = int(match[1])
        if index >= len(pending):
            return ""
        wrong, known = pending[index]
        key = (wrong, id(known))  # each `known` is kept alive by `pending`: ids stay unique
        if key not in memo:
            memo[key] = _closest(wrong, tuple(sorted(set(known))))
        return memo[key]

    return [
        _MARKED.sub(fill if at < shown else "", problem) if problem in made else problem
        for at, problem in enumerate(ordered)
    ]


@functools.lru_cache(maxsize=1024)
def _closest(wrong: str, known: tuple[str, ...]) -> str:
    matches = difflib.get_close_matches(wrong, known, n=3, cutoff=0.6)
    if not matches:
        return ""
    ratios = [difflib.SequenceMatcher(None, wrong, match).ratio() for match in matches]
    matches = [m for m, r in zip(matches, ratios, strict=True) if r >= ratios[0] - 0.1]
    return " (did you mean " + ", ".join(f"'{m}'" for m in matches) + "?)"


def shown_field(field: str) -> str:
    """A field path as printed: cut like a value, so a 4 MB key makes a short line."""
    return field if len(field) <= MAX_SHOWN else field[: MAX_SHOWN - 1] + "…"


def shown(value: Any) -> str:
    """A value as a contributor would write it in TOML, shortened."""
    if isinstance(value, bool):
        text = "true" if value else "false"
    elif isinstance(value, str):
        text = json.dumps(value, ensure_ascii=False)
    elif isinstance(value, dt.date):
        text = value.isoformat()
    elif isinstance(value, dict):
        text = "a table"
    elif isinstance(value, list):
        text = f"a list of {len(value)}"
    else:
        text = repr(value)
    return text if len(text) <= MAX_SHOWN else text[: MAX_SHOWN - 1] + "…"


_MSGSPEC_AT = re.compile(r"^(?P<msg>.*?)(?: - at `\$(?P<path>[^`]*)`)?$", re.S)
_FIELD_MSG = re.compile(
    r"^Object (?P<what>contains unknown field|missing required field) `(?P<name>[^`]+)`$"
)
_STEP = re.compile(r"\.([^.\[]+)|\[(\d+)\]")
ONE_LINE = "must be one line of visible text"
URL = GENERAL
_PATTERN_MEANINGS = {
    f"Expected `str` matching regex {LINE_PATTERN!r}": ONE_LINE,
    f"Expected `array` of length <= {MAX_ALIASES}": f"at most {MAX_ALIASES} aliases a model",
    f"Expected `str` matching regex {SLUG_PATTERN!r}": (
        "must be a slug: 1 to 64 of a-z, 0-9, '.', '_', '-', starting and ending"
        " with a letter or digit"
    ),
    f"Expected `str` matching regex {URL_PATTERN!r}": URL,
    f"Expected `str` matching regex {ALIAS_PATTERN!r}": (
        "must be an alias: 1 to 100 of A-Z, a-z, 0-9, space, '.', '_', '-', '(', ')', '+',"
        " ',', not starting or ending with a space, not '.' or '..'"
    ),
}


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
    msg = _PATTERN_MEANINGS.get(msg, msg)
    return path or "$", " ".join(msg.split())


def _join(prefix: str, step: str) -> str:
    if not prefix:
        return step
    return prefix + step if step.startswith("[") else f"{prefix}.{step}"


def _value_at(value: Any, relative: str) -> Any:
    """The value at a msgspec-relative path like `[3]` or `.a[1]`; raise KeyError if unknown."""
    for name, index in _STEP.findall(relative):
        if index:
            value = value[int(index)]
        elif isinstance(value, dict):
            value = value[name]
        else:
            raise KeyError(name)
    return value


def _base(annotation: Any) -> Any:
    """`str` for `Annotated[str, Meta(max_length=...)]`, `list` for `list[float]`, else the
    annotation; None for a patterned string (an id or a reference: no placeholder fits)."""
    if get_origin(annotation) is Annotated:
        base, *metas = get_args(annotation)
        if any(getattr(meta, "pattern", None) for meta in metas):
            return None
        return _base(base)
    return get_origin(annotation) or annotation


def _struct_of(annotation: Any) -> tuple[type[msgspec.Struct] | None, bool]:
    """(Struct type, is a list of it) when `annotation` is S, S | None or list[S]."""
    origin = get_origin(annotation)
    if isinstance(annotation, type) and issubclass(annotation, msgspec.Struct):
        return annotation, False
    if origin in (Union, types.UnionType):
        members = [a for a in get_args(annotation) if a is not type(None)]
        if len(members) == 1:
            return _struct_of(members[0])[0], False
    if origin is list:
        (item,) = get_args(annotation)
        inner, nested = _struct_of(item)
        return (inner, True) if inner is not None and not nested else (None, False)
    return None, False


def _line_problem(raw: Any, step: str, url: bool) -> str | None:
    try:
        value = _value_at(raw, step)
    except (KeyError, IndexError, TypeError, ValueError):
        return None
    if not isinstance(value, str):
        return None
    return url_problem(value) if url else line_problem(value)


class _Walker:
    def __init__(self, reported: set[str]) -> None:
        self.reported = reported
        self.problems: list[tuple[str, str]] = []
        self.placeholders: set[str] = set()
        self.unlisted = 0

    def value(self, raw: Any, annotation: Any, path: str) -> Any:
        if get_origin(annotation) is Annotated and isinstance(raw, list):
            base, *metas = get_args(annotation)
            limits = [m.max_length for m in metas if getattr(m, "max_length", None) is not None]
            if get_origin(base) is list and not (limits and len(raw) > min(limits)):
                return self.value(raw, base, path)  # a bounded list within its bound
        struct, is_list = _struct_of(annotation)
        if struct is not None and is_list and isinstance(raw, list):
            return self._items(raw, struct, path)
        if struct is not None and not is_list and isinstance(raw, dict):
            return self._struct(raw, struct, path)
        if get_origin(annotation) is dict and isinstance(raw, dict):
            return self._table(raw, annotation, path)
        if get_origin(annotation) is list and isinstance(raw, list):
            return self._list(raw, get_args(annotation)[0], path)
        return self._leaf(raw, annotation, path)

    def _list(self, raw: Sequence[Any], item_type: Any, path: str) -> list[Any]:
        """A list of plain values item by item, so every bad item is named; any bad item
        fails the whole list (a ladder or alias list with a hole is no repair)."""
        items, failed = [], False
        for index, item in enumerate(raw):
            try:
                items.append(self._leaf(item, item_type, f"{path}[{index}]"))
            except _Failed:
                failed = True
        if failed:
            raise _Failed
        return items

    def _table(self, raw: dict[str, Any], annotation: Any, path: str) -> dict[str, Any]:
        """A `dict[str, X]` value by value, so a bad one is named by its key."""
        value_type = get_args(annotation)[1]  # TOML keys are always strings
        kept = {}
        for key, item in raw.items():
            try:
                kept[key] = self._leaf(item, value_type, _join(path, key))
            except _Failed:
                pass
        return kept

    def _items(self, raw: Sequence[Any], struct: type[msgspec.Struct], path: str) -> list[Any]:
        kept = []
        for index, item in enumerate(raw):
            try:
                kept.append(self.value(item, struct, f"{path}[{index}]"))
            except _Failed:
                pass
        return kept

    def _struct(self, raw: dict[str, Any], struct: type[msgspec.Struct], path: str) -> Any:
        fields = {f.encode_name: f for f in msgspec.structs.fields(struct)}
        for key in raw:
            if key not in fields and _join(path, key) not in self.reported:
                if len(self.problems) >= MAX_FILE_PROBLEMS:  # 420,000 unknown keys: count them
                    self.unlisted += 1
                    continue
                self.problems.append((_join(path, key), "unknown field" + suggest(key, fields)))
        values: dict[str, Any] = {}
        failed = False
        for key, info in fields.items():
            where = _join(path, key)
            if key not in raw:
                if info.required:
                    self.problems.append((where, "missing"))
                    failed = True
                continue
            try:
                values[info.name] = self.value(raw[key], info.type, where)
            except _Failed:
                if info.required and _base(info.type) in PLACEHOLDERS:
                    values[info.name] = PLACEHOLDERS[_base(info.type)]
                    self.placeholders.add(where)
                else:
                    failed = failed or info.required
        if failed:
            raise _Failed
        return struct(**values)

    def _leaf(self, raw: Any, annotation: Any, path: str) -> Any:
        if any(p == path or p.startswith((path + ".", path + "[")) for p in self.reported):
            raise _Failed
        try:
            return msgspec.convert(raw, type=annotation)
        except msgspec.ValidationError as exc:
            relative, problem = validation_problem(str(exc))
            relative = "" if relative == "$" else relative
            if problem == URL and not relative and isinstance(raw, str) and is_source_url(raw):
                return raw  # the pattern is a quick yes: `xn--` names and IPv6 are asked here
            step = relative if relative.startswith("[") or not relative else "." + relative
            if problem in (ONE_LINE, URL):  # name the character: `bidi control U+202E in ...`
                problem = _line_problem(raw, step, problem == URL) or problem
            if not problem.startswith("Invalid enum value"):  # that one names the value
                try:
                    problem += f" (value: {shown(_value_at(raw, step))})"
                except (KeyError, IndexError, TypeError, ValueError):
                    pass
            self.problems.append((path + step if path else step.lstrip("."), problem))
            raise _Failed from None
