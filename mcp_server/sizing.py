"""Size controls of the tools: `fields` picks members, `limit` and `cursor` page a list.

A call that passes none of the size controls (`ToolArgument.sizes`) gets the answer a client
of AI IQ's connector expects, unchanged. A sized call gets the members asked for (the
envelope and `id` always kept; in rows `id`), one page of the tool's list
(`ToolDeclaration.pages`) with `nextCursor` (null on the last page), and a one-line summary
instead of the long one.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Mapping, Sequence
from typing import Any

import msgspec

from generator.api.mcp_tools import KEPT_IN_ROWS, KEPT_MEMBERS, NEXT_CURSOR, ToolDeclaration
from mcp_server.arguments import ArgumentError
from mcp_server.text import one_line

_CURSOR = re.compile(r"o(0|[1-9]\d{0,8})")


def encode_cursor(offset: int) -> str:
    """The opaque cursor of the page that starts at `offset`."""
    return base64.urlsafe_b64encode(f"o{offset}".encode()).decode().rstrip("=")


def decode_cursor(cursor: str) -> int:
    """The offset a cursor from `encode_cursor` names (`ArgumentError` for anything else)."""
    try:
        text = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode("ascii")
    except (binascii.Error, ValueError):
        text = ""
    match = _CURSOR.fullmatch(text)
    if match is None or cursor != encode_cursor(int(match.group(1))):
        raise ArgumentError("Argument 'cursor' is not a nextCursor this server gave.")
    return int(match.group(1))


def is_sized(declaration: ToolDeclaration, arguments: Mapping[str, Any]) -> bool:
    """Whether the call passes any size control (a non-null one)."""
    return any(a.sizes and arguments.get(a.name) is not None for a in declaration.arguments)


def pick(
    document: Mapping[str, Any], fields: Sequence[str], kept: Sequence[str] = KEPT_MEMBERS
) -> dict[str, Any]:
    """The members of `document` named in `fields`, plus the `kept` ones, in document order."""
    wanted = {*fields, *kept}
    return {key: value for key, value in document.items() if key in wanted}


def resize(
    declaration: ToolDeclaration,
    data: Mapping[str, Any],
    *,
    limit: int | None,
    fields: Sequence[str] | None,
    cursor: str | None,
) -> tuple[dict[str, Any], str]:
    """The sized answer of a tool's full answer `data`, and its one-line summary."""
    sized = dict(data)
    line = f"{declaration.title}"
    if declaration.pages is not None:
        rows = list(data[declaration.pages])
        offset = 0 if cursor is None else decode_cursor(cursor)
        if offset > len(rows):
            raise ArgumentError("Argument 'cursor' is past the end of this list.")
        end = len(rows) if limit is None else min(len(rows), offset + limit)
        sized[declaration.pages] = rows[offset:end]
        following = encode_cursor(end) if end < len(rows) else None
        sized[NEXT_CURSOR] = following
        more = f"next page: cursor {following}" if following else "the last page"
        line += f": {declaration.pages} {offset + 1}-{end} of {len(rows)}; {more}"
    if fields is not None:
        if declaration.picks_in is None:
            sized = pick(sized, [*fields, NEXT_CURSOR])
        else:
            rows = sized[declaration.picks_in]
            sized[declaration.picks_in] = [pick(row, fields, KEPT_IN_ROWS) for row in rows]
        line += f" (members: {', '.join(fields)})"
        return sized, "\n".join([line + ".", *kept_values(declaration, sized)])
    return sized, line + "."


def kept_values(declaration: ToolDeclaration, sized: Mapping[str, Any]) -> list[str]:
    """The values a `fields` answer kept, as compact JSON: a line per row of a list, else one
    line for the object (the envelope left out), so the text says what the data says."""
    if declaration.picks_in is not None:
        return [_compact(row) for row in sized[declaration.picks_in]]
    envelope = {*KEPT_MEMBERS, NEXT_CURSOR} - {"id"}
    return [_compact({k: v for k, v in sized.items() if k not in envelope})]


def _compact(value: Any) -> str:
    """`value` as one line of JSON, every line break and control character escaped."""
    return one_line(msgspec.json.encode(value).decode())
