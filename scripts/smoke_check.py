#!/usr/bin/env python3
"""Smoke-check a deployed modelscores site (or a local one) from the outside, as a client.

    python3 scripts/smoke_check.py BASE_URL [--sidecar ORIGIN] [--timeout SECONDS]

BASE_URL is the site's address (a Netlify deploy, `modelscores serve`, `netlify dev`).
Each check is named; the first that fails ends the run with exit 1 and one line
`smoke-check: FAILED <check>: <what was wrong>`. Every check passed: one line per check and
exit 0. Python 3.11's standard library only, so any operator can run it anywhere.

The checks: the API index, the model list and one model with the API's headers (JSON content
type, `Access-Control-Allow-Origin: *`, `nosniff`, a `Cache-Control`); the uniform JSON 404
(`model_not_found`); the bare `/api` alias serving what `/api/v1` serves; a model alias (a
redirect to the canonical id, or a 200 with that model's document, as the contract allows);
the MCP endpoint through the site's own `/api/mcp` (initialize, tools/list naming get_model,
get_model answering with the very document the site serves for that model, so a sidecar
serving another build fails); and, with `--sidecar`, the sidecar's
`/healthz` reporting the same build as the site (methodology version, update time, model
count), so a site switched to a build the sidecar does not serve fails here.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

PROTOCOL_VERSION = "2025-11-25"
MISSING_ID = "no-such-model-smoke-check"
SAFE_ALIAS = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")
MAX_BODY = 16 * 1024 * 1024
REDIRECTS = (301, 302, 307, 308)


class CheckFailed(Exception):
    """One check's failure: what was wrong, in words."""


@dataclass(frozen=True)
class Answer:
    status: int
    headers: Mapping[str, str]
    body: bytes

    def json(self) -> Any:
        try:
            return json.loads(self.body)
        except ValueError:
            raise CheckFailed(f"the body is not JSON ({self.body[:60]!r})") from None


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


@dataclass
class Client:
    base: str
    timeout: float
    _opener: urllib.request.OpenerDirector = field(
        default_factory=lambda: urllib.request.build_opener(_NoRedirect)
    )

    def request(
        self, path: str, body: Any = None, headers: Mapping[str, str] | None = None
    ) -> Answer:
        """GET (or POST `body` as JSON) `path` of the base, redirects not followed."""
        url = path if path.startswith(("http://", "https://")) else self.base + path
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(url, data=data, headers=dict(headers or {}))
        request.add_header("User-Agent", "modelscores-smoke-check")
        try:
            with self._opener.open(request, timeout=self.timeout) as response:
                return Answer(response.status, _lower(response.headers), response.read(MAX_BODY))
        except urllib.error.HTTPError as error:
            return Answer(error.code, _lower(error.headers), error.read(MAX_BODY))
        except (urllib.error.URLError, OSError) as error:
            reason = getattr(error, "reason", error)
            raise CheckFailed(f"{url}: no answer ({reason})") from None


def _lower(headers: Any) -> dict[str, str]:
    return {name.lower(): value for name, value in headers.items()}


API_HEADERS = {
    "content-type": "application/json",
    "access-control-allow-origin": "*",
    "x-content-type-options": "nosniff",
    "cache-control": "public",
}
NETLIFY_DEV_OWN = frozenset({"content-type", "cache-control"})
"""The headers netlify dev's own static server sets on a file, over `_headers` (netlify/cli#990):
Netlify itself applies `_headers`; `--netlify-dev` leaves these two unchecked on files."""


@dataclass
class Smoke:
    """The checks, in order; what one learns (a model id) the next uses."""

    client: Client
    sidecar: str | None
    unchecked: frozenset[str] = frozenset()
    model_id: str = ""
    site: dict[str, Any] = field(default_factory=dict)
    document: dict[str, Any] = field(default_factory=dict)

    def checks(self) -> list[tuple[str, Callable[[], str]]]:
        found = [
            ("api-index", self.api_index),
            ("models", self.models),
            ("model", self.model),
            ("json-404", self.json_404),
            ("api-alias", self.api_alias),
            ("model-alias", self.model_alias),
            ("mcp-initialize", self.mcp_initialize),
            ("mcp-tools-list", self.mcp_tools_list),
            ("mcp-get-model", self.mcp_get_model),
        ]
        if self.sidecar is not None:
            found.append(("sidecar-health", self.sidecar_health))
        return found

    def _api_headers(self, answer: Answer, what: str) -> None:
        """The headers every API answer carries, a 404 included."""
        for name, value in API_HEADERS.items():
            if name not in self.unchecked and not answer.headers.get(name, "").startswith(value):
                raise CheckFailed(f"{what}: {name} is {answer.headers.get(name)!r}, not {value!r}")

    def _ok_json(self, answer: Answer, what: str) -> Any:
        if answer.status != 200:
            raise CheckFailed(f"{what}: status {answer.status}, not 200")
        self._api_headers(answer, what)
        return answer.json()

    def api_index(self) -> str:
        self.site = self._ok_json(self.client.request("/api/v1"), "GET /api/v1")
        return f"methodology {self.site.get('methodologyVersion')}"

    def models(self) -> str:
        listed = self._ok_json(self.client.request("/api/v1/models"), "GET /api/v1/models")
        models = listed.get("models") if isinstance(listed, dict) else None
        if not models:
            raise CheckFailed("GET /api/v1/models: no models listed")
        self.model_id = str(models[0]["id"])
        self.site["models"] = [str(m["id"]) for m in models]
        return f"{len(models)} models"

    def model(self) -> str:
        path = f"/api/v1/models/{self.model_id}"
        document = self._ok_json(self.client.request(path), f"GET {path}")
        if document.get("id") != self.model_id:
            raise CheckFailed(f"GET {path}: id is {document.get('id')!r}")
        self.document = document
        return self.model_id

    def json_404(self) -> str:
        path = f"/api/v1/models/{MISSING_ID}"
        answer = self.client.request(path)
        if answer.status != 404:
            raise CheckFailed(f"GET {path}: status {answer.status}, not 404")
        self._api_headers(answer, f"GET {path}")
        code = answer.json().get("code")
        if code != "model_not_found":
            raise CheckFailed(f"GET {path}: code {code!r}, not 'model_not_found'")
        return "model_not_found"

    def api_alias(self) -> str:
        for path in ("", f"/models/{self.model_id}"):
            alias, canonical = (
                self.client.request(f"/api{path}"),
                self.client.request(f"/api/v1{path}"),
            )
            if (alias.status, alias.body) != (200, canonical.body):
                raise CheckFailed(f"GET /api{path}: not what /api/v1{path} serves")
        return "/api = /api/v1"

    def model_alias(self) -> str:
        for model_id in self.site.get("models", []):
            path = f"/api/v1/models/{model_id}"
            document = self.client.request(path).json()
            aliases = [a for a in document.get("aliases") or () if SAFE_ALIAS.fullmatch(a)]
            for alias in aliases:
                if alias != model_id:
                    return self._alias_answers(alias, model_id)
        return "skipped (no model has an alias)"

    def _alias_answers(self, alias: str, model_id: str) -> str:
        """A redirect to the canonical path, or the canonical document itself (200)."""
        path = f"/api/v1/models/{urllib.parse.quote(alias)}"
        canonical = f"/api/v1/models/{model_id}"
        answer = self.client.request(path)
        if answer.status in REDIRECTS:
            target = urllib.parse.urlsplit(answer.headers.get("location", "")).path
            if target != canonical:
                raise CheckFailed(f"GET {path}: redirects to {target!r}, not {canonical}")
            answer = self.client.request(canonical)
        elif (link := answer.headers.get("link")) and f"{canonical}>" not in link:
            raise CheckFailed(f"GET {path}: its canonical link {link!r} is not {canonical}")
        document = self._ok_json(answer, f"GET {path}")
        if document.get("id") != model_id:
            raise CheckFailed(f"GET {path}: answers {document.get('id')!r}, not {model_id}")
        return f"{alias} -> {model_id}"

    def _mcp(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        body = {"jsonrpc": "2.0", "id": 1, "method": method, "params": params}
        headers = {
            "Content-Type": "application/json",
            "Accept": "application/json, text/event-stream",
            "MCP-Protocol-Version": PROTOCOL_VERSION,
        }
        answer = self.client.request("/api/mcp", body, headers)
        if answer.status != 200:
            raise CheckFailed(f"POST /api/mcp {method}: status {answer.status}, not 200")
        message = _json_rpc_message(answer)
        if "result" not in message:
            raise CheckFailed(f"POST /api/mcp {method}: {message.get('error')}")
        result: dict[str, Any] = message["result"]
        return result

    def mcp_initialize(self) -> str:
        params = {
            "protocolVersion": PROTOCOL_VERSION,
            "capabilities": {},
            "clientInfo": {"name": "modelscores-smoke-check", "version": "1"},
        }
        result = self._mcp("initialize", params)
        return str(result.get("serverInfo", {}).get("name"))

    def mcp_tools_list(self) -> str:
        tools = [tool.get("name") for tool in self._mcp("tools/list", {}).get("tools", [])]
        if "get_model" not in tools:
            raise CheckFailed(f"tools/list has no get_model ({tools})")
        return f"{len(tools)} tools"

    def mcp_get_model(self) -> str:
        params = {"name": "get_model", "arguments": {"id": self.model_id}}
        result = self._mcp("tools/call", params)
        if result.get("isError"):
            raise CheckFailed(f"get_model {self.model_id}: {json.dumps(result)[:200]}")
        answered = result.get("structuredContent") or {}
        if answered.get("id") != self.model_id:
            raise CheckFailed(f"get_model {self.model_id}: answered {answered.get('id')!r}")
        if answered != self.document:
            differ = sorted(
                k
                for k in answered.keys() | self.document.keys()
                if answered.get(k) != self.document.get(k)
            )
            raise CheckFailed(
                f"get_model {self.model_id}: not the site's document (differs in {differ[:5]}):"
                " the sidecar serves another build"
            )
        return f"{self.model_id}, the same document as the site's"

    def sidecar_health(self) -> str:
        assert self.sidecar is not None
        answer = self.client.request(self.sidecar.rstrip("/") + "/healthz")
        if answer.status != 200:
            raise CheckFailed(f"{self.sidecar}/healthz: status {answer.status}, not 200")
        health = answer.json()
        served = (health.get("methodologyVersion"), health.get("updatedAt"), health.get("models"))
        site = (
            self.site.get("methodologyVersion"),
            self.site.get("updatedAt"),
            len(self.site.get("models", [])),
        )
        if served != site:
            raise CheckFailed(f"the sidecar serves {served}, the site {site}")
        return "same build as the site"


def _json_rpc_message(answer: Answer) -> dict[str, Any]:
    """The JSON-RPC answer, sent as JSON or as one server-sent event."""
    if answer.headers.get("content-type", "").startswith("text/event-stream"):
        lines = answer.body.decode(errors="replace").splitlines()
        data = [line.removeprefix("data:").strip() for line in lines if line.startswith("data:")]
        answer = Answer(answer.status, answer.headers, "".join(data).encode())
    message = answer.json()
    if not isinstance(message, dict):
        raise CheckFailed("the answer is not a JSON-RPC message")
    return message


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="smoke-check", description=__doc__.split("\n")[1])
    parser.add_argument("base_url", help="the site's address, e.g. https://scores.example.org")
    parser.add_argument("--sidecar", help="the MCP sidecar's origin, to check its /healthz")
    parser.add_argument("--timeout", type=float, default=20, help="seconds per request")
    parser.add_argument(
        "--netlify-dev",
        action="store_true",
        help="BASE_URL is a local `netlify dev`: its static server's own Content-Type and"
        " Cache-Control on files are not checked (Netlify applies _headers; netlify dev not)",
    )
    args = parser.parse_args(argv)
    unchecked = NETLIFY_DEV_OWN if args.netlify_dev else frozenset()
    smoke = Smoke(Client(args.base_url.rstrip("/"), args.timeout), args.sidecar, unchecked)
    for name, check in smoke.checks():
        try:
            detail = check()
        except CheckFailed as failure:
            print(f"smoke-check: FAILED {name}: {failure}", file=sys.stderr)
            return 1
        except (KeyError, TypeError, AttributeError) as error:
            print(f"smoke-check: FAILED {name}: unexpected answer ({error!r})", file=sys.stderr)
            return 1
        print(f"smoke-check: ok {name}: {detail}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
