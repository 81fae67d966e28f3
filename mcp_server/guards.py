"""ASGI guards in front of the MCP endpoint: DNS-rebinding checks and JSON-RPC envelope checks.

Both act on requests to one path only and pass everything else through untouched.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import msgspec
from mcp.server.transport_security import TransportSecurityMiddleware, TransportSecuritySettings
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

ANY = "*"
PARSE_ERROR = -32700
INVALID_REQUEST = -32600
INVALID_PARAMS = -32602


class _Security(TransportSecurityMiddleware):
    """The SDK's Host/Origin checks (421/403), plus `*` meaning any value."""

    def _validate_host(self, host: str | None) -> bool:
        return ANY in self.settings.allowed_hosts or super()._validate_host(host)

    def _validate_origin(self, origin: str | None) -> bool:
        return ANY in self.settings.allowed_origins or super()._validate_origin(origin)


def _on_path(scope: Scope, path: str) -> bool:
    return scope["type"] == "http" and str(scope["path"]).rstrip("/") == path


class RebindingGuard:
    """Reject requests whose `Host` or `Origin` is not allowed (DNS-rebinding protection)."""

    def __init__(self, app: ASGIApp, settings: TransportSecuritySettings, path: str) -> None:
        self.app = app
        self.security = _Security(settings)
        self.path = path

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if _on_path(scope, self.path):
            refusal = await self.security.validate_request(Request(scope), is_post=False)
            if refusal is not None:
                await refusal(scope, receive, send)
                return
        await self.app(scope, receive, send)


# --- the request body, read and parsed once ------------------------------------

PARSED_BODY = "modelscores.parsed_body"
"""Scope key under which `JsonRpcGuard` hands the parsed body to the apps behind it."""


@dataclass(frozen=True)
class ParsedBody:
    """A POST body to the MCP endpoint: its bytes and the JSON value they decode to."""

    raw: bytes
    message: Any


async def read_body(receive: Receive) -> tuple[list[Message], bytes]:
    """Every `http.request` message of the body (to replay) and the body's bytes."""
    messages: list[Message] = []
    body = bytearray()
    while True:
        message = await receive()
        messages.append(message)
        if message["type"] != "http.request":
            break
        body.extend(message.get("body", b""))
        if not message.get("more_body", False):
            break
    return messages, bytes(body)


def replay(messages: list[Message], receive: Receive) -> Receive:
    """A `receive` that hands out the messages already read, then the real ones."""

    async def replayed() -> Message:
        return messages.pop(0) if messages else await receive()

    return replayed


def decode(body: bytes) -> tuple[Any, str | None]:
    """The JSON value of a body, or (None, why) when it does not parse (not JSON, too deep,
    or not UTF-8: a short reason, never the body itself)."""
    try:
        return msgspec.json.decode(body), None
    except UnicodeDecodeError:  # its `start` counts from the string's start, not the body's
        return None, f"the body is not UTF-8 (byte {_bad_byte(body)})"
    except RecursionError:
        return None, "the body is nested too deeply"
    except msgspec.DecodeError as exc:
        return None, str(exc)[:120]


def _bad_byte(body: bytes) -> int:
    """The offset in `body` of its first byte that is not UTF-8 (0 if there is none)."""
    try:
        body.decode("utf-8")
    except UnicodeDecodeError as exc:
        return exc.start
    return 0


def envelope_problem(body: bytes) -> tuple[int, str] | None:
    """The JSON-RPC error for a body the SDK would mishandle, or None (see `message_problem`)."""
    message, error = decode(body)
    if error is not None:
        return PARSE_ERROR, f"Parse error: {error}"
    return message_problem(message)


def message_problem(message: Any) -> tuple[int, str] | None:
    """The JSON-RPC error for a message the SDK would mishandle, or None to let the SDK answer.

    The SDK takes a message whose `id` is neither a string nor an integer (an object, a
    boolean, a float, even `1e999`) for a notification and answers 202 with no body; JSON-RPC
    wants an Invalid Request error, as for a batch (MCP has none), a non-object message and a
    `jsonrpc` other than "2.0" (the SDK calls those Invalid params). A body that does not
    parse as JSON is a Parse error (`envelope_problem`), and a `tools/call` without a tool
    name gets Invalid params before dispatch.
    """
    if isinstance(message, list):
        return INVALID_REQUEST, "Invalid Request: batches are not supported"
    if not isinstance(message, dict):
        return INVALID_REQUEST, "Invalid Request: a message must be a JSON object"
    if message.get("jsonrpc") != "2.0":
        return INVALID_REQUEST, 'Invalid Request: jsonrpc must be "2.0"'
    if "id" in message and (
        isinstance(message["id"], bool) or not isinstance(message["id"], str | int)
    ):
        return INVALID_REQUEST, "Invalid Request: id must be a string or an integer"
    if "method" in message and not isinstance(message["method"], str):
        return INVALID_REQUEST, "Invalid Request: method must be a string"
    if message.get("method") == "tools/call":
        return _tool_call_problem(message.get("params"))
    return None


def _tool_call_problem(params: Any) -> tuple[int, str] | None:
    """`tools/call` needs a tool name (the SDK answers its absence with a 200)."""
    if not isinstance(params, dict) or not isinstance(params.get("name"), str):
        return INVALID_PARAMS, "Invalid params: tools/call needs a string name"
    if not isinstance(params.get("arguments", {}), dict):
        return INVALID_PARAMS, "Invalid params: tools/call arguments must be an object"
    return None


def error_response(status: int, code: int, message: str) -> JSONResponse:
    """A JSON-RPC error with no id (the request's id is unknown or unreadable)."""
    body = {"jsonrpc": "2.0", "id": None, "error": {"code": code, "message": message}}
    return JSONResponse(body, status)


class BodyLimit:
    """Answer 413 with a JSON-RPC error to a body over `max_bytes` (declared or sent), before
    anything reads or parses it; the body the app behind gets is replayed."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    def _refusal(self) -> JSONResponse:
        message = f"Invalid Request: the body is over the {self.max_bytes:,}-byte limit"
        return error_response(413, INVALID_REQUEST, message)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = Request(scope).headers.get("content-length", "")
        if declared.isdigit() and int(declared) > self.max_bytes:
            await self._refusal()(scope, receive, send)
            return
        messages: list[Message] = []
        size = 0
        while True:
            message = await receive()
            messages.append(message)
            if message["type"] != "http.request":
                break
            size += len(message.get("body", b""))
            if size > self.max_bytes:
                await self._refusal()(scope, receive, send)
                return
            if not message.get("more_body", False):
                break
        await self.app(scope, replay(messages, receive), send)


CONFLICTING_TYPES = (INVALID_REQUEST, "Invalid Request: conflicting Content-Type headers")
JSON_MEDIA_TYPE = "application/json"
UNSUPPORTED_TYPE = (
    INVALID_REQUEST,
    f"Unsupported Media Type: Content-Type must be {JSON_MEDIA_TYPE}",
)
"""The SDK transport's own 415 answer, word for word."""
MAX_CONTENT_TYPE_CHARS = 1024
"""Longest `Content-Type` value read (`application/json; charset=utf-8` is 31); a longer one
is refused unread, as not JSON."""
_TOKEN = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")
_QUOTED = re.compile(r'"((?:[\t !#-\[\]-~\x80-\xff]|\\[\t -~\x80-\xff])*)"')
"""RFC 9110's token and quoted-string (5.6.2, 5.6.4). Matched at one place only, each is one
left-to-right pass: no character can start both a plain and an escaped character."""
_ESCAPED = re.compile(r"\\(.)")


def media_types(value: str) -> list[str] | None:
    """The media types a `Content-Type` value names, each normalised: lower case, spaces
    around `;` and `=` dropped and a quoted parameter value unquoted, so two spellings with
    one meaning compare equal; None when it is not a `,`-separated list of RFC 9110 media
    types (`type/subtype` of tokens, then `;name=value` parameters, a value a token or a
    quoted string): an unmatched quote, an empty type or list item, a space inside a type.

    A `,` outside quotes starts another type (a proxy joins repeated header lines so); one
    inside a quoted parameter value does not. The value is read once from left to right,
    each place at most once (an unmatched quote ends the reading)."""
    types: list[str] = []
    at = 0
    while True:
        read = _media_type(value, _after_spaces(value, at))
        if read is None:
            return None
        named, at = read
        types.append(named)
        if at == len(value):
            return types
        at += 1  # past the `,` that `_media_type` stopped at


def _media_type(value: str, at: int) -> tuple[str, int] | None:
    """(the media type at `at`, normalised; where it ends: the end or a `,`), or None."""
    kind = _TOKEN.match(value, at)
    if kind is None or not value.startswith("/", kind.end()):
        return None
    subtype = _TOKEN.match(value, kind.end() + 1)
    if subtype is None:
        return None
    parts, at = [f"{kind[0]}/{subtype[0]}".lower()], subtype.end()
    while True:
        at = _after_spaces(value, at)
        if at == len(value) or value[at] == ",":
            return ";".join(parts), at
        if value[at] != ";":
            return None
        at = _after_spaces(value, at + 1)
        if at == len(value) or value[at] in ";,":
            continue  # an empty parameter (`application/json;`), which RFC 9110 allows
        read = _parameter(value, at)
        if read is None:
            return None
        parameter, at = read
        parts.append(parameter)


def _after_spaces(value: str, at: int) -> int:
    while at < len(value) and value[at] in " \t":
        at += 1
    return at


def _parameter(value: str, at: int) -> tuple[str, int] | None:
    """(`name=value` in lower case, unquoted; where it ends) for the parameter at `at`."""
    name = _TOKEN.match(value, at)
    if name is None or not value.startswith("=", name.end()):
        return None
    setting = _QUOTED.match(value, name.end() + 1) or _TOKEN.match(value, name.end() + 1)
    if setting is None:
        return None
    text = _ESCAPED.sub(r"\1", setting[1]) if setting[0].startswith('"') else setting[0]
    return f"{name[0]}={text}".lower(), setting.end()


def content_type_problem(scope: Scope) -> tuple[int, int, str] | None:
    """(HTTP status, JSON-RPC code, message) for a request whose `Content-Type` is not one
    JSON media type, or None.

    400 `CONFLICTING_TYPES` when it names more than one: two header lines that differ, or one
    line listing two (`application/json, text/plain`); the SDK reads only the first line and
    accepts it if any listed type is JSON, a proxy or cache in front may read another. 415
    `UNSUPPORTED_TYPE` when the one type is not `application/json` (in any case) or there is
    none: what the SDK's transport answers, where its security layer answered a plain-text 400.
    """
    found: set[str] = set()
    for value in Request(scope).headers.getlist("content-type"):
        named = media_types(value) if len(value) <= MAX_CONTENT_TYPE_CHARS else None
        if named is None:
            return 415, *UNSUPPORTED_TYPE
        found.update(named)
    if len(found) > 1:
        return 400, *CONFLICTING_TYPES
    if not found or next(iter(found)).split(";", 1)[0] != JSON_MEDIA_TYPE:
        return 415, *UNSUPPORTED_TYPE
    return None


def as_plain_json(scope: Scope) -> Scope:
    """`scope` with one `Content-Type: application/json` header, for a request whose type
    `content_type_problem` accepted: the SDK compares the type exactly (`Application/JSON`
    would get its 415), and a parameter it never reads (the body must be UTF-8 whatever a
    `charset` says) could be re-read as a list once unquoted."""
    headers = [(k, v) for k, v in scope["headers"] if k.lower() != b"content-type"]
    return {**scope, "headers": [*headers, (b"content-type", JSON_MEDIA_TYPE.encode())]}


class JsonRpcGuard:
    """Answer 400 with a JSON-RPC error to a POST whose envelope is malformed (415 to one
    that is not JSON, `content_type_problem`).

    Runs inside the body-size limit, so the body it buffers is bounded. The app behind it
    gets the body replayed, and its parsed form under `PARSED_BODY` in the scope, so nothing
    after the guard reads or decodes it again.
    """

    def __init__(self, app: ASGIApp, path: str) -> None:
        self.app = app
        self.path = path

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not (_on_path(scope, self.path) and scope["method"] == "POST"):
            await self.app(scope, receive, send)
            return
        refusal = content_type_problem(scope)
        if refusal is not None:
            await error_response(*refusal)(scope, receive, send)
            return
        scope = as_plain_json(scope)
        messages, body = await read_body(receive)
        message, error = decode(body)
        problem: tuple[int, str] | None
        if error is not None:
            problem = (PARSE_ERROR, f"Parse error: {error}")
        else:
            problem = message_problem(message)
        if problem is not None:
            await error_response(400, *problem)(scope, receive, send)
            return
        parsed = {**scope, PARSED_BODY: ParsedBody(body, message)}
        await self.app(parsed, replay(messages, receive), short_errors(send))


MAX_ERROR_CHARS = 200
"""Longest JSON-RPC error message passed on: the SDK's validation errors quote pydantic
(several paragraphs, the offending input, documentation links)."""
_ERROR_START = b'{"jsonrpc":"2.0","id":'


def short_message(message: str) -> str:
    """An error message cut to its first line, without a validator's link, at most
    `MAX_ERROR_CHARS` characters."""
    first = message.split("\n", 1)[0].split(" [type=", 1)[0].split("For further information")[0]
    first = first.strip()
    return first if len(first) <= MAX_ERROR_CHARS else first[: MAX_ERROR_CHARS - 1] + "\u2026"


def _shortened(body: bytes) -> bytes | None:
    """The body with its JSON-RPC error message shortened, or None to leave it as it is.
    Whatever its size: the SDK's error quotes the request (an unknown id twice), which the
    body limit bounds; a body over 64 KiB was once passed on whole."""
    if not body.startswith(_ERROR_START) or b'"error":' not in body:
        return None
    message, error = decode(body)
    if error is not None or not isinstance(message, dict) or "error" not in message:
        return None
    detail = message["error"]
    if not isinstance(detail, dict) or not isinstance(detail.get("message"), str):
        return None
    shorter = short_message(detail["message"])
    if shorter == detail["message"] and "data" not in detail:
        return None
    brief = {key: value for key, value in detail.items() if key != "data"}
    return msgspec.json.encode({**message, "error": {**brief, "message": shorter}})


def short_errors(send: Send) -> Send:
    """A `send` that shortens a JSON-RPC error the SDK answers with (one-body responses)."""
    start: Message | None = None

    async def sending(message: Message) -> None:
        nonlocal start
        if message["type"] == "http.response.start":
            start = message
            return
        if start is not None and message["type"] == "http.response.body":
            pending, start = start, None
            body = message.get("body", b"")
            shorter = None if message.get("more_body") else _shortened(body)
            if shorter is not None:
                length = str(len(shorter)).encode()
                headers = [
                    (name, length if name.lower() == b"content-length" else value)
                    for name, value in pending.get("headers", [])
                ]
                pending = {**pending, "headers": headers}
                message = {**message, "body": shorter}
            await send(pending)
        await send(message)

    return sending
