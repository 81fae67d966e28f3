"""`modelscores serve`: the built site over HTTP with the static host's semantics.

The app interprets the generated `_headers` and `_redirects` itself (parsed with
`hosting.parse_*`), the way Netlify does for the rule forms the build generates:
existing files shadow non-forced rules, the first matching rule wins, a 200 rule
rewrites, a 404 rule answers its target's body with status 404, and headers are
chosen by the request path (so 404s carry CORS too). The MCP sidecar, made by the CLI,
is mounted at `/api/mcp`.
"""

from __future__ import annotations

import mimetypes
import os
import re
from collections.abc import Sequence
from pathlib import Path

import msgspec
from starlette.responses import PlainTextResponse, RedirectResponse, Response
from starlette.types import ASGIApp, Receive, Scope, Send

from generator.api.contract import ERROR_CODES, Error
from generator.api.hosting import (
    HOSTING_FILES,
    HeaderRule,
    RedirectRule,
    first_redirect,
    headers_for,
    parse_headers,
    parse_redirects,
    pattern_matches,
)
from generator.api.urls import ALIAS_PREFIX, HTML_404, MCP_PATH, SiteConfig
from generator.build import BuildReport, build_site
from generator.cache.report import up_to_date_report

DEFAULT_TYPE = "application/octet-stream"
API_NOT_FOUND_NAME = "not_found.json"
API_NOT_FOUND = (
    msgspec.json.format(
        msgspec.json.encode(Error(error=ERROR_CODES["not_found"], code="not_found")), indent=2
    )
    + b"\n"
)
"""The site's `not_found` document, for an API path when the site has none left."""
GET_METHODS = ("GET", "HEAD")


# --- building before serving ------------------------------------------------


def prepare_site(
    data_dir: Path, out_dir: Path, config: SiteConfig, *, build: bool = True
) -> BuildReport | None:
    """Build the site unless it is current (the rule `modelscores build` asks,
    `up_to_date_report`) or building is off; return the build's report, if any."""
    if not build or up_to_date_report(data_dir, out_dir, config) is not None:
        return None
    return build_site(data_dir, out_dir, config)


# --- the static host ----------------------------------------------------------


class _Rules:
    """The site's hosting rules, re-read whenever a rebuild replaces the files."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._key: tuple[int, ...] | None = None
        self.headers: Sequence[HeaderRule] = ()
        self.redirects: Sequence[RedirectRule] = ()

    def current(self) -> _Rules:
        key = tuple(v for name in HOSTING_FILES for v in _stat_key(self.root / name))
        if key != self._key:
            self.headers = parse_headers(_read_text(self.root / "_headers"))
            self.redirects = parse_redirects(_read_text(self.root / "_redirects"))
            self._key = key
        return self


def _stat_key(path: Path) -> tuple[int, int, int]:
    try:
        st = path.stat()
    except OSError:
        return (0, 0, 0)
    return (st.st_ino, st.st_mtime_ns, st.st_size)


def _read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8") if _inside(path.parent, path) else ""
    except OSError:
        return ""


MAX_PATH_BYTES = 4096
MAX_NAME_BYTES = 255


def _site_file(root: Path, path: str) -> Path | None:
    """The file a request path names (a directory's index.html), or None.

    None also for anything the file system cannot answer for (a name over 255 bytes, a
    path over 4 KB, any other OSError) and for anything that resolves outside `root`
    (a symlink planted in the site): the caller answers those with the site's 404.
    """
    parts = [p for p in path.split("/") if p]
    if any(p in (".", "..") or "\\" in p or "\0" in p for p in parts):
        return None
    if len(parts) == 1 and parts[0] in HOSTING_FILES:
        return None  # hosting rules are configuration, never served
    try:
        if len(os.fsencode(path)) > MAX_PATH_BYTES or any(
            len(os.fsencode(p)) > MAX_NAME_BYTES for p in parts
        ):
            return None
        candidate = root.joinpath(*parts)
        if candidate.is_dir():
            candidate = candidate / "index.html"
        return candidate if candidate.is_file() and _inside(root, candidate) else None
    except (OSError, ValueError):  # ValueError: a name the file system cannot encode
        return None


def _inside(root: Path, candidate: Path) -> bool:
    """Whether `candidate`, every symlink resolved, is still under `root` (resolved too)."""
    try:
        return candidate.resolve(strict=True).is_relative_to(root.resolve(strict=True))
    except (OSError, RuntimeError):  # RuntimeError: a symlink loop
        return False


def _body(file: Path | None) -> bytes | None:
    if file is None:
        return None
    try:
        return file.read_bytes()
    except OSError:
        return None


class StaticHost:
    """Serves one built site directory with its `_headers` and `_redirects`."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.rules = _Rules(root)

    def respond(self, path: str) -> Response:
        """The response to a GET (or HEAD) of `path`."""
        rules = self.rules.current()
        folded = _folded(path)
        if folded != path:
            return self._not_found(rules, folded)
        file = _site_file(self.root, path)
        status, served = 200, file
        rule = first_redirect(rules.redirects, path, file_exists=file is not None)
        if rule is not None and rule.status in (301, 302, 303, 307, 308):
            return RedirectResponse(rule.target, status_code=rule.status)
        if rule is not None:
            if "://" in rule.target:
                return PlainTextResponse("Proxy target not reachable locally", status_code=502)
            status, served = rule.status, _site_file(self.root, rule.target)
        elif file is None:
            status, served = 404, _site_file(self.root, HTML_404)
        body = _body(served)
        if body is None:  # a rule whose target is missing: the 404 of the path
            return self._not_found(rules, path)
        headers = self._headers(rules, path, served)
        return Response(body, status, headers=headers)  # the server drops a HEAD's body

    def _not_found(self, rules: _Rules, path: str) -> Response:
        """The 404 the rules give `path` (an API path's JSON error), with its headers: the
        first matching 404 rule whose file exists, else the HTML page. Under the API, with
        no error document left, the API's general JSON 404, so an API client always reads
        the uniform JSON error with the API headers."""
        api = _is_api(path)
        targets = [r.target for r in rules.redirects if r.status == 404 and _matches(r, path)]
        for target in [*targets, HTML_404]:
            if api and not target.endswith(".json"):
                continue  # the site's HTML page is not an API answer
            served = _site_file(self.root, target)
            body = _body(served)
            if body is not None:
                return Response(body, 404, headers=self._headers(rules, path, served))
        if api:
            headers = self._headers(rules, path, Path(API_NOT_FOUND_NAME))
            return Response(API_NOT_FOUND, 404, headers=headers)
        return PlainTextResponse("Not Found", status_code=404)

    def preflight(self, path: str) -> Response:
        """The answer to `OPTIONS path`: no body, the headers a GET of `path` would carry
        (on the API: CORS with the allowed methods and headers)."""
        rules = self.rules.current()
        headers = self._headers(rules, _folded(path), None)
        headers.pop("content-type", None)
        return Response(None, 204, headers=headers)

    def _headers(self, rules: _Rules, path: str, served: Path | None) -> dict[str, str]:
        guessed = mimetypes.guess_type(served.name)[0] if served is not None else None
        headers = {"content-type": guessed or DEFAULT_TYPE}
        for name, value in headers_for(rules.headers, path):
            key = name.lower()
            headers[key] = value if key == "content-type" else _merge(headers.get(key), value)
        return headers


def _folded(path: str) -> str:
    """`path` as the site's rules spell it: repeated slashes made one, and a first segment
    that differs from the API prefix only in case (`/API/v1/...`) in the prefix's case.

    A path that changes here is not served as a file: `//api/v1/models/x` and `/API/v1/...`
    get the JSON 404 with the API headers (a static host matches rules case-sensitively and
    would give the HTML page)."""
    folded = re.sub("/{2,}", "/", path)
    first, sep, rest = folded.lstrip("/").partition("/")
    prefix = ALIAS_PREFIX.strip("/")
    if first != prefix and first.lower() == prefix:
        folded = f"/{prefix}{sep}{rest}"
    return folded


def _is_api(path: str) -> bool:
    """Whether `path` is under the API prefixes (`/api/v1` is under `/api`)."""
    return path == ALIAS_PREFIX or path.startswith(ALIAS_PREFIX + "/")


def _matches(rule: RedirectRule, path: str) -> bool:
    return pattern_matches(rule.source, path)


def _merge(old: str | None, value: str) -> str:
    return value if old is None else f"{old}, {value}"


class StaticApp:
    """ASGI app for a `StaticHost`: every path (no router: any byte may be in a path)."""

    def __init__(self, site_dir: Path) -> None:
        self.host = StaticHost(site_dir)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await _lifespan(receive, send)
            return
        if scope["type"] != "http":
            return
        if scope["method"] in GET_METHODS:
            response = self.host.respond(scope["path"])
        elif scope["method"] == "OPTIONS":
            response = self.host.preflight(scope["path"])
        else:
            allow = ", ".join((*GET_METHODS, "OPTIONS"))
            response = PlainTextResponse("Method Not Allowed", 405, headers={"Allow": allow})
        await response(scope, receive, send)


async def _lifespan(receive: Receive, send: Send) -> None:
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await send({"type": "lifespan.shutdown.complete"})
            return


def create_static_app(site_dir: Path) -> StaticApp:
    """An ASGI app serving `site_dir` like the static host would."""
    return StaticApp(site_dir)


HEALTH_PATH = "/healthz"


class _Dispatch:
    """`/api/mcp` and `/healthz` to the MCP app (which also owns the lifespan), so both
    answer exactly as on the standalone sidecar; everything else static."""

    def __init__(self, static: ASGIApp, mcp: ASGIApp | None) -> None:
        self.static = static
        self.mcp = mcp

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.mcp is not None and (
            scope["type"] == "lifespan"
            or (scope["type"] == "http" and scope["path"].rstrip("/") in (MCP_PATH, HEALTH_PATH))
        ):
            await self.mcp(scope, receive, send)
            return
        await self.static(scope, receive, send)


def create_app(site_dir: Path, sidecar: ASGIApp | None) -> ASGIApp:
    """The preview server: the static site, plus `sidecar` (the MCP app the CLI made) at
    /api/mcp."""
    return _Dispatch(create_static_app(site_dir), sidecar)
