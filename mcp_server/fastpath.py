"""The fast path: the SDK's own answers to plain tool calls, kept and replayed.

The SDK sets up a transport, a dispatcher and a session for every stateless request, then
serialises the answer with pydantic: for a large answer that costs far more than the
answer itself. `FastPath` stands in front of the SDK's endpoint for one request shape:

- a POST whose `Mcp-Protocol-Version` header is absent or a handshake-era version (the SDK's
  legacy stateless path), with no `Mcp-Session-Id`, a JSON `Content-Type` that passes both of
  the SDK's checks, and an `Accept` that admits `application/json`;
- a body that is one JSON-RPC request `{"jsonrpc", "id", "method": "tools/call", "params":
  {"name", "arguments"}}` and nothing else (no `_meta`, no batch, no notification), naming
  one of the nine tools with arguments that pass `mcp_server.arguments` (the SDK path's own
  checks, `generator/api/mcp_tools.py`).

The first such call of a tool with given arguments goes to the SDK, which answers it; its
status, headers and the `result` of its JSON-RPC response are kept for the current snapshot.
A later call with the same tool, arguments and protocol version gets those bytes again, in a
response framed by the SDK's own `JSONRPCResponse` serialisation with the new request's id.
No byte of an answer is made here: the cache only replays what the SDK sent. Everything else
goes to the SDK untouched, the body replayed. The guards in front of the endpoint (Host and
Origin, body size, JSON-RPC envelope) have run before either.

The cache is bounded (LRU, by entries and bytes); a snapshot switch empties it. An answer is
kept only if the snapshot did not change while the SDK made it.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

import msgspec
from mcp.server.streamable_http import check_accept_headers
from mcp_types import JSONRPCResponse
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from generator.api.mcp_tools import TOOLS_BY_NAME, ToolDeclaration
from mcp_server.arguments import ArgumentError, check_arguments
from mcp_server.guards import PARSED_BODY, ParsedBody, decode, media_types, read_body, replay
from mcp_server.site import SiteError, SiteSnapshot, SnapshotStore

JSON = "application/json"
CACHE_ENTRIES = 1024
CACHE_BYTES = 64 * 1024 * 1024
_INT64 = 2**63
_KEY_ENCODER = msgspec.json.Encoder(order="sorted")
_EMPTY_RESULT = b"{}}"  # how the SDK's frame of an empty result ends

Args = dict[str, Any]


# --- which requests qualify -------------------------------------------------------


def call_arguments(tool: ToolDeclaration, args: Args) -> Args | None:
    """The call's keyword arguments if `args` fit the declaration exactly, else None (the
    SDK then answers with the same checks' one-line error)."""
    try:
        return check_arguments(tool, args)
    except ArgumentError:
        return None


def _is_int(value: object, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


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
    """(id, tool, arguments as sent) of a plain `tools/call` whose answer can be kept, or
    None. `message` is the decoded body (`guards.decode`)."""
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
    if call_arguments(TOOLS_BY_NAME[name], args) is None:
        return None
    return request_id, name, args


# --- the SDK's frame around a result ---------------------------------------------


def frame(request_id: int | str) -> bytes:
    """What the SDK sends before a result for `request_id` (`{"jsonrpc":"2.0","id":...,
    "result":`): its own `JSONRPCResponse`, serialised as its transport does, cut at the
    (empty) result. The result and a closing `}` follow."""
    empty = JSONRPCResponse(jsonrpc="2.0", id=request_id, result={})
    framed = empty.model_dump_json(by_alias=True, exclude_unset=True).encode()
    if not framed.endswith(_EMPTY_RESULT):  # pragma: no cover - an SDK change
        raise RuntimeError(f"unexpected JSON-RPC frame from the SDK: {framed!r}")
    return framed[: -len(_EMPTY_RESULT)]


@dataclass(frozen=True)
class Answer:
    """What the SDK sent for a call, less the request's id: status, headers (without
    `content-length`) and the bytes of the JSON-RPC `result`."""

    status: int
    headers: tuple[tuple[bytes, bytes], ...]
    result: bytes

    @classmethod
    def of(cls, start: Message, body: bytes, request_id: int | str) -> Answer | None:
        """The answer in the SDK's response to `request_id`, or None if it is not a plain
        200 JSON-RPC result (then nothing is kept)."""
        head = frame(request_id)
        if start.get("status") != 200 or not body.startswith(head) or not body.endswith(b"}"):
            return None
        headers = tuple(
            (bytes(k), bytes(v)) for k, v in start.get("headers", ()) if k != b"content-length"
        )
        return cls(200, headers, body[len(head) : -1])

    def response(self, request_id: int | str) -> tuple[Message, Message]:
        """The `http.response.start` and body messages that answer `request_id`."""
        body = b"%b%b}" % (frame(request_id), self.result)
        length = (b"content-length", str(len(body)).encode())
        start = {"type": "http.response.start", "status": self.status}
        start["headers"] = [*self.headers, length]
        return start, {"type": "http.response.body", "body": body}


class ResultCache:
    """The SDK's answers of one snapshot, least recently used out first."""

    def __init__(self, max_entries: int = CACHE_ENTRIES, max_bytes: int = CACHE_BYTES) -> None:
        self.max_entries = max_entries
        self.max_bytes = max_bytes
        self._site: SiteSnapshot | None = None
        self._entries: OrderedDict[bytes, Answer] = OrderedDict()
        self._bytes = 0

    def get(self, site: SiteSnapshot, key: bytes) -> Answer | None:
        if site is not self._site:
            return None
        value = self._entries.get(key)
        if value is not None:
            self._entries.move_to_end(key)
        return value

    def put(self, site: SiteSnapshot, key: bytes, value: Answer) -> None:
        if site is not self._site:
            self._site, self._bytes = site, 0
            self._entries.clear()
        size = len(value.result)
        if size > self.max_bytes or key in self._entries:
            return
        self._entries[key] = value
        self._bytes += size
        while len(self._entries) > self.max_entries or self._bytes > self.max_bytes:
            _, dropped = self._entries.popitem(last=False)
            self._bytes -= len(dropped.result)


class FastPath:
    """ASGI app: replay the SDK's answer to a plain `tools/call` it answered before, hand
    anything else (and the first call) to `sdk`."""

    def __init__(
        self, sdk: ASGIApp, store: SnapshotStore, cache: ResultCache | None = None
    ) -> None:
        self.sdk = sdk
        self.store = store
        self.cache = cache or ResultCache()
        self.taken = 0
        """Qualifying calls: answered from the cache, or by the SDK and kept."""
        self.answered = 0
        """Calls answered from the cache rather than by the SDK."""

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
        self.taken += 1
        request_id, name, args = call
        version = Request(scope).headers.get("mcp-protocol-version", "")
        key = b"\0".join((version.encode(), name.encode(), _KEY_ENCODER.encode(args)))
        site = self.store.peek()
        if site is None:  # a check of the disk is due: made on a worker thread
            try:
                site = await run_in_threadpool(self.store.current)
            except SiteError:  # no build to answer from: the SDK's tool says so
                await self.sdk(scope, receive, send)
                return
        kept = self.cache.get(site, key)
        if kept is not None:
            self.answered += 1
            for reply in kept.response(request_id):
                await send(reply)
            return
        await self._ask_sdk(scope, receive, send, request_id, key, site)

    async def _ask_sdk(
        self,
        scope: Scope,
        receive: Receive,
        send: Send,
        request_id: int | str,
        key: bytes,
        site: SiteSnapshot,
    ) -> None:
        """The SDK answers (passed on as it comes); its answer is kept for `site` if the
        snapshot is still `site` once it has answered."""
        start: Message = {}
        body = bytearray()

        async def send_and_keep(message: Message) -> None:
            nonlocal start
            if message["type"] == "http.response.start":  # a copy: middleware may add to it
                start = {**message, "headers": list(message.get("headers", ()))}
            elif message["type"] == "http.response.body":
                body.extend(message.get("body", b""))
            await send(message)

        await self.sdk(scope, receive, send_and_keep)
        answer = Answer.of(start, bytes(body), request_id)
        if answer is not None and self.store.latest() is site:
            self.cache.put(site, key, answer)
