"""A small, deterministic TOML writer for the synthetic data files.

Handles exactly what `data/` files hold: strings, booleans, integers, floats,
dates, datetimes, arrays of scalars, tables and arrays of tables. Keys keep the
order of the input mapping; `None` values are left out (TOML has no null).
"""

from __future__ import annotations

import datetime as dt
import json
import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")


def dumps(document: Mapping[str, Any]) -> str:
    """Serialise a mapping as a TOML document."""
    lines: list[str] = []
    _table(lines, (), document)
    return "\n".join(lines).lstrip("\n") + "\n"


def _key(key: str) -> str:
    return key if _BARE_KEY.match(key) else json.dumps(key)


def _is_table(value: Any) -> bool:
    return isinstance(value, Mapping)


def _is_table_array(value: Any) -> bool:
    return (
        isinstance(value, Sequence)
        and not isinstance(value, str)
        and len(value) > 0
        and all(isinstance(item, Mapping) for item in value)
    )


def _scalar(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"TOML cannot hold {value!r}")
        text = repr(value)
        return text if any(c in text for c in ".en") else text + ".0"
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, dt.datetime):
        return value.isoformat().replace("+00:00", "Z")
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, Mapping):
        inner = ", ".join(f"{_key(k)} = {_scalar(v)}" for k, v in value.items() if v is not None)
        return "{ " + inner + " }" if inner else "{}"
    if isinstance(value, Sequence):
        return "[" + ", ".join(_scalar(item) for item in value) + "]"
    raise TypeError(f"cannot write {type(value).__name__} as TOML")


def _table(lines: list[str], path: tuple[str, ...], table: Mapping[str, Any]) -> None:
    for key, value in table.items():
        if value is None or _is_table(value) or _is_table_array(value):
            continue
        lines.append(f"{_key(key)} = {_scalar(value)}")
    for key, value in table.items():
        if _is_table(value):
            sub = (*path, key)
            lines.append("")
            lines.append("[" + ".".join(_key(k) for k in sub) + "]")
            _table(lines, sub, value)
        elif _is_table_array(value):
            sub = (*path, key)
            for item in value:
                lines.append("")
                lines.append("[[" + ".".join(_key(k) for k in sub) + "]]")
                _table(lines, sub, item)
