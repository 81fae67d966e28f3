"""A fast path in front of the SDK's MCP endpoint for the hot, read-only request shape.

The SDK sets up a transport, a dispatcher and a session for every stateless request; for a
`tools/call` of one of our nine tools that costs far more than the answer itself. `FastPath`
answers exactly one request shape directly from the current snapshot:

- a POST whose `Mcp-Protocol-Version` header is absent or a handshake-era version (the SDK's
  legacy stateless path), with no `Mcp-Session-Id`, a JSON `Content-Type` that passes both of
  the SDK's checks, and an `Accept` that admits `application/json`;
- a body that is one JSON-RPC request `{"jsonrpc", "id", "method": "tools/call", "params":
  {"name", "arguments"}}` and nothing else (no `_meta`, no batch, no notification), naming
  one of the nine tools with arguments of exactly the declared types and ranges
  (`generator/api/mcp_tools.py`; checked by `mcp_server.arguments` exactly as on the SDK path).

It answers with the bytes the SDK would send (same status, `Content-Type`, JSON body): the
tool's text and structured content, or for a `ToolError` the SDK's `isError` result text.
Everything else goes to the SDK untouched, with the body replayed. The guards in front of
the endpoint (Host/Origin, body size, JSON-RPC envelope) have run before either path.

Encoded results are cached per snapshot (bounded LRU, by entries and bytes), keyed by tool
and canonical arguments; a snapshot switch empties the cache.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

import msgspec
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.streamable_http import check_accept_headers
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Receive, Scope, Send

from generator.api.mcp_tools import TOOLS_BY_NAME, ToolDeclaration
from mcp_server import tools
from mcp_server.arguments import ArgumentError, check_arguments
from mcp_server.guards import PARSED_BODY, ParsedBody, decode, media_types, read_body, replay
from mcp_server.site import SiteSnapshot, SnapshotStore

JSON = "application/json"
CACHE_ENTRIES = 1024
CACHE_BYTES = 64 * 1024 * 1024
_INT64 = 2**63
_ENCODER = msgspec.json.Encoder()
_KEY_ENCODER = msgspec.json.Encoder(order="sorted")

Args = dict[str, Any]


# --- arguments: accept only what the SDK would take as is ---------------------


def _is_int(value: object, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def call_arguments(tool: ToolDeclaration, args: Args) -> Args | None:
    """The call's keyword arguments if `args` fit the declaration exactly, else None (the
    SDK path then answers with the same checks' one-line error)."""
    try:
        return check_arguments(tool, args)
    except ArgumentError:
        return None


# --- which requests qualify -------------------------------------------------------


def headers_qualify(scope: Scope) -> bool:
    """Headers that take the SDK's legacy stateless path and pass its checks."""
    request = Request(scope)
    headers = request.headers
    versions = headers.getlist("mcp-protocol-version")
    if len(versions) > 1 or (versions and versions[0] not in HANDSHAKE_PROTOCOL_VERSIONS):
        return False
    if "mcp-session-id" in headers or len(headers.getlist("content-type")) != 1:
        return False
    content_type = headers["content-type"]
    named = media_types(content_type)
    if named is None or len(set(named)) != 1:  # `a, b`: refused by the guard in front
        return False
    # The SDK's two checks: the security layer's prefix test and the transport's own.
    if not content_type.lower().startswith(JSON):
        return False
    if JSON not in (part.strip() for part in content_type.split(";")[0].split(",")):
        return False
    has_json, _ = check_accept_headers(request)
    return has_json


def parse_call(message: Any) -> tuple[int | str, str, Args] | None:
    """(id, tool, keyword arguments) of a plain `tools/call` we answer, or None.

    `message` is the decoded body (`guards.decode`)."""
    if not isinstance(message, dict) or message.keys() != {"jsonrpc", "id", "method", "params"}:
        return None
    request_id, params = message["id"], message["params"]
    if message["jsonrpc"] != "2.0" or message["method"] != "tools/call":
        return None
    if not (isinstance(request_id, str) or _is_int(request_id, -_INT64, _INT64 - 1)):
        return None
    if not isinstance(params, dict) or params.keys() != {"name", "arguments"}:
        return None
    name, args = params["name"], params["arguments"]
    if not isinstance(name, str) or name not in TOOLS_BY_NAME or not isinstance(args, dict):
        return None
    kwargs = call_arguments(TOOLS_BY_NAME[name], args)
    return None if kwargs is None else (request_id, name, kwargs)


def encode_result(site: SiteSnapshot, name: str, kwargs: Args) -> bytes:
    """The JSON of the `CallToolResult` the SDK sends for this call."""
    try:
        answer = tools.call(site, TOOLS_BY_NAME[name], kwargs)
    except (ToolError, ArgumentError) as exc:
        text = f"Error executing tool {name}: {exc}"
        return _ENCODER.encode({"content": [{"text": text, "type": "text"}], "isError": True})
    return _ENCODER.encode(
        {
            "content": [
                *({"text": text, "type": "text"} for text in answer.texts()),
                *(link.block() for link in answer.links),
            ],
            "isError": False,
            "structuredContent": answer.data,
        }
    )


class ResultCache:
    """Encoded results of one snapshot, least recently used out first."""

    def __init__(self, max_entries: int = CACHE_ENTRIES, max_bytes: int = CACHE_BYTES) -> None:
        self.max_entries = max_entries
        self.max_bytes = max_bytes
        self._site: SiteSnapshot | None = None
        self._entries: OrderedDict[bytes, bytes] = OrderedDict()
        self._bytes = 0

    def get(self, site: SiteSnapshot, key: bytes) -> bytes | None:
        if site is not self._site:
            return None
        value = self._entries.get(key)
        if value is not None:
            self._entries.move_to_end(key)
        return value

    def put(self, site: SiteSnapshot, key: bytes, value: bytes) -> None:
        if site is not self._site:
            self._site, self._bytes = site, 0
            self._entries.clear()
        if len(value) > self.max_bytes or key in self._entries:
            return
        self._entries[key] = value
        self._bytes += len(value)
        while len(self._entries) > self.max_entries or self._bytes > self.max_bytes:
            _, dropped = self._entries.popitem(last=False)
            self._bytes -= len(dropped)


class FastPath:
    """ASGI app: answer a plain `tools/call` directly, hand anything else to `sdk`."""

    def __init__(
        self, sdk: ASGIApp, store: SnapshotStore, cache: ResultCache | None = None
    ) -> None:
        self.sdk = sdk
        self.store = store
        self.cache = cache or ResultCache()
        self.answered = 0
        """Requests answered here rather than by the SDK."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "POST" or not headers_qualify(scope):
            await self.sdk(scope, receive, send)
            return
        parsed = scope.get(PARSED_BODY)
        if isinstance(parsed, ParsedBody):  # read and decoded once, by JsonRpcGuard
            message = parsed.message
        else:  # no guard in front (a bare FastPath): read and decode here
            messages, body = await read_body(receive)
            receive = replay(messages, receive)
            message, _ = decode(body)
        call = parse_call(message)
        if call is None:
            await self.sdk(scope, receive, send)
            return
        request_id, name, kwargs = call
        result = await self._result(name, kwargs)
        payload = b'{"jsonrpc":"2.0","id":%b,"result":%b}' % (_ENCODER.encode(request_id), result)
        self.answered += 1
        await Response(payload, media_type=JSON)(scope, receive, send)

    async def _result(self, name: str, kwargs: Args) -> bytes:
        """From the cache, or computed on a worker thread (as the SDK runs the sync tools)."""
        key = name.encode() + b"\0" + _KEY_ENCODER.encode(kwargs)
        site = self.store.peek()
        if site is not None:
            cached = self.cache.get(site, key)
            if cached is not None:
                return cached

        def compute() -> tuple[SiteSnapshot, bytes]:
            current = self.store.current()
            return current, encode_result(current, name, kwargs)

        computed_on, result = await run_in_threadpool(compute)
        self.cache.put(computed_on, key, result)
        return result
