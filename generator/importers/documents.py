"""The documents an import writes, typed: each model and domain file passes through its record
(generator/input/records.py) on its way to TOML, so one schema decides what a file may hold
and in which order its keys are written (the record's field order); a value the record does
not take fails here, naming the file, not in the loader after the write.

A field left at its default is not written (TOML has no null, and a default says nothing),
so a file holds what was said about the model and no more. The `[private]` table, which no
record holds, is written last as it was.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec

from generator.errors import DataError
from generator.input.records import DomainRecord, ModelRecord

Doc = dict[str, Any]
TYPES: dict[str, type[msgspec.Struct]] = {"models": ModelRecord, "domains": DomainRecord}


def typed(rel: str, doc: Mapping[str, Any], said: Mapping[str, Any] | None = None) -> Doc:
    """`doc` (the file `rel` under data/) checked against its record and laid out in the
    record's order; `said` is the file as it was (what it states is kept as it was written:
    an explicit default, `4` for a float 4.0). `DataError` names the file when the record
    refuses the document."""
    kind = TYPES[rel.split("/", 1)[0]]
    body = {k: v for k, v in doc.items() if k != "private" and v is not None}
    try:
        record = msgspec.convert(body, kind)
    except msgspec.ValidationError as exc:
        raise DataError([f"data/{rel}: {exc}"]) from None
    out: Doc = plain(record, said)
    if "private" in doc:
        out["private"] = doc["private"]
    return out


def plain(value: Any, said: Any = None) -> Any:
    """A record as TOML-ready builtins: fields in declaration order, defaults left out unless
    `said` (the same value as a file stated it) states that very value; a value equal to what
    was said is written as it was said."""
    if isinstance(value, msgspec.Struct):
        was = said if isinstance(said, Mapping) else {}
        out: Doc = {}
        for info in msgspec.structs.fields(value):
            item = getattr(value, info.name)
            stated = info.encode_name in was and was[info.encode_name] == item
            if item is None or (_is_default(item, info) and not stated):
                continue
            out[info.encode_name] = plain(item, was.get(info.encode_name))
        return out
    if isinstance(value, list | tuple):
        items = said if isinstance(said, list) and len(said) == len(value) else [None] * len(value)
        return [plain(item, old) for item, old in zip(value, items, strict=True)]
    if isinstance(value, dict):
        was = said if isinstance(said, Mapping) else {}
        return {key: plain(item, was.get(key)) for key, item in value.items()}
    if said is not None and type(said) is not bool and said == value:
        return said
    return value


def _is_default(value: Any, info: msgspec.structs.FieldInfo) -> bool:
    if info.default is not msgspec.NODEFAULT:
        return bool(value == info.default)
    if info.default_factory is not msgspec.NODEFAULT:
        return bool(value == info.default_factory())
    return False
