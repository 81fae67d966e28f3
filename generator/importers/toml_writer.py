"""A small deterministic TOML writer for the files under data/.

Supports what the data files need: strings, booleans, integers, finite floats,
dates, UTC datetimes, arrays of scalars, tables, nested tables and arrays of
tables. Keys are written in the dict's insertion order, so the caller decides
the field order; the same input always gives the same bytes. `None` values are
left out (TOML has no null). Comments can be attached to keys.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")
Comments = Mapping[str, str]


def dumps(doc: Mapping[str, Any], *, header: str = "", comments: Comments | None = None) -> str:
    """Return `doc` as TOML text ending in one newline.

    `comments` maps a dotted key path (e.g. `parameters.legacy_weight`) to a
    comment written on the line above it. Empty lists are left out (every list
    field of the records defaults to empty). A top-level `private` table is
    written last, so the maintainer's notes sit at the end of the file.
    """
    out: list[str] = [f"# {line}".rstrip() for line in header.splitlines()]
    if out:
        out.append("")
    _write_table(out, doc, (), comments or {})
    while out and out[-1] == "":
        out.pop()
    return "\n".join(out) + "\n"


def _is_table(value: Any) -> bool:
    return isinstance(value, Mapping)


def _is_table_array(value: Any) -> bool:
    return (
        isinstance(value, Sequence)
        and not isinstance(value, str)
        and len(value) > 0
        and all(isinstance(item, Mapping) for item in value)
    )


def _write_table(
    out: list[str], table: Mapping[str, Any], path: tuple[str, ...], comments: Comments
) -> None:
    scalars = [(k, v) for k, v in table.items() if _present(v) and not _nested(v)]
    tables = [(k, v) for k, v in table.items() if _is_table(v) and v and k != "private"]
    arrays = [(k, v) for k, v in table.items() if _is_table_array(v)]
    if not path and table.get("private"):
        arrays.append(("private", table["private"]))
    for key, value in scalars:
        comment = comments.get(".".join((*path, key)))
        if comment:
            out.extend(f"# {line}".rstrip() for line in comment.splitlines())
        out.append(f"{_key(key)} = {_long_value(value)}")
    for key, value in tables:
        sub = (*path, key)
        out.append("")
        comment = comments.get(".".join(sub))
        if comment:
            out.extend(f"# {line}".rstrip() for line in comment.splitlines())
        out.append(f"[{'.'.join(_key(part) for part in sub)}]")
        _write_table(out, value, sub, comments)
    for key, items in arrays:
        sub = (*path, key)
        if _is_table(items):
            out.append("")
            out.append(f"[{_key(key)}]")
            _write_table(out, items, sub, comments)
            continue
        for item in items:
            out.append("")
            out.append(f"[[{'.'.join(_key(part) for part in sub)}]]")
            _write_table(out, item, sub, comments)


def _present(value: Any) -> bool:
    if value is None:
        return False
    return not (isinstance(value, list | tuple) and len(value) == 0)


def _nested(value: Any) -> bool:
    return _is_table(value) or _is_table_array(value)


def _key(key: str) -> str:
    return key if BARE_KEY.fullmatch(key) else _string(key)


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return _float(value)
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, dt.datetime):
        return _datetime(value)
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, Sequence):
        return "[" + ", ".join(_value(item) for item in value) + "]"
    raise TypeError(f"cannot write {type(value).__name__} to TOML")


def _long_value(value: Any) -> str:
    """A value; a long array of strings is written one item per line."""
    text = _value(value)
    if len(text) <= 90 or not isinstance(value, list | tuple):
        return text
    if not all(isinstance(item, str) for item in value):
        return text
    return "[\n" + "".join(f"    {_value(item)},\n" for item in value) + "]"


def _float(value: float) -> str:
    if not math.isfinite(value):
        raise ValueError(f"refusing to write a non-finite float: {value!r}")
    text = repr(value)
    if "e" not in text and "." not in text:
        text += ".0"
    return text


def _datetime(value: dt.datetime) -> str:
    if value.tzinfo is None or value.utcoffset() != dt.timedelta(0):
        raise ValueError(f"datetimes must be UTC: {value!r}")
    return value.strftime("%Y-%m-%dT%H:%M:%SZ")


# A basic string's escapes (TOML 1.0): the quote, the backslash, the short forms, and
# \uXXXX for the other control characters; applied by `str.translate` in one C-speed pass.
_SHORT_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\t": "\\t", "\r": "\\r"}
_ESCAPES: dict[int, str] = {code: f"\\u{code:04x}" for code in (*range(0x20), 0x7F)}
_ESCAPES |= {ord(char): escape for char, escape in _SHORT_ESCAPES.items()}


def _string(value: str) -> str:
    return '"' + value.translate(_ESCAPES) + '"'
