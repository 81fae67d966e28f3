"""A tiny TOML writer for test fixtures: what `data/` files hold, plus NaN and infinities.

The corpus parses a valid fixture file with `tomllib`, changes one thing, and writes it back
with `dumps`, so each broken input differs from a valid one by exactly that change.
"""

from __future__ import annotations

import datetime as dt
import json
import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

_BARE = re.compile(r"^[A-Za-z0-9_-]+$")


def dumps(document: Mapping[str, Any]) -> str:
    """Serialise a mapping as TOML: scalars and inline arrays first, then tables."""
    lines: list[str] = []
    _table(lines, (), document)
    return "\n".join(lines).strip("\n") + "\n"


def _key(key: str) -> str:
    return key if _BARE.match(key) else json.dumps(key)


def _is_table_array(value: Any) -> bool:
    return (
        isinstance(value, Sequence)
        and not isinstance(value, str)
        and bool(value)
        and all(isinstance(item, Mapping) for item in value)
    )


def scalar(value: Any) -> str:
    """One TOML value written inline."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, dt.datetime | dt.date | dt.time):
        return value.isoformat()
    if isinstance(value, Mapping):
        return "{ " + ", ".join(f"{_key(k)} = {scalar(v)}" for k, v in value.items()) + " }"
    if isinstance(value, Sequence):
        return "[" + ", ".join(scalar(item) for item in value) + "]"
    raise TypeError(f"cannot write {value!r} as TOML")


def _table(lines: list[str], path: tuple[str, ...], table: Mapping[str, Any]) -> None:
    nested = []
    for key, value in table.items():
        if isinstance(value, Mapping) or _is_table_array(value):
            nested.append((key, value))
        else:
            lines.append(f"{_key(key)} = {scalar(value)}")
    for key, value in nested:
        sub = (*path, key)
        header = ".".join(_key(part) for part in sub)
        if isinstance(value, Mapping):
            lines.extend(["", f"[{header}]"])
            _table(lines, sub, value)
        else:
            for item in value:
                lines.extend(["", f"[[{header}]]"])
                _table(lines, sub, item)
