"""HTTP assertions shared by the `serve` and `netlify dev` tests: one definition of
what the hosted API must answer, checked against any server of a built site."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx

from generator.api.contract import DOCUMENTS, ERROR_CODES
from generator.api.hosting import API_CACHE_CONTROL, JSON_TYPE, headers_for, parse_headers
from generator.api.urls import API_PREFIXES, INDEX_PATH, api_file, api_path_of_file, endpoint_for

UNKNOWN = "no-such-thing"


@dataclass(frozen=True)
class Expected:
    """One request and what must come back."""

    path: str
    status: int
    body: bytes
    code: str | None = None  # the error code of a 404


def _api_paths(site_dir: Path) -> Iterator[str]:
    """Every API path (relative to /api/v1) the site holds a document for."""
    root = site_dir / "api" / "v1"
    for file in sorted(root.rglob("*")):
        rel = file.relative_to(root).as_posix()
        path = api_path_of_file(rel) if file.is_file() else None
        if path is not None:  # not openapi.json
            yield path


def found(site_dir: Path) -> list[Expected]:
    """Every endpoint under both prefixes, plus both OpenAPI documents: 200 with the file."""
    expected = []
    for path in _api_paths(site_dir):
        for prefix in API_PREFIXES:
            data = (site_dir / api_file(path, prefix)).read_bytes()
            url_path = prefix if path == INDEX_PATH else prefix + path
            expected.append(Expected(url_path, 200, data))
    for prefix in API_PREFIXES:
        openapi = f"{prefix}/openapi.json"
        expected.append(Expected(openapi, 200, (site_dir / openapi.lstrip("/")).read_bytes()))
    return expected


def not_found(site_dir: Path) -> list[Expected]:
    """Unknown ids per collection and unknown API paths: 404 with the exact JSON body."""
    cases: list[tuple[str, str]] = []
    for prefix in API_PREFIXES:
        for kind in DOCUMENTS:  # every collection with a not-found code, history included
            if kind.not_found_code is not None:  # a model's history: /models/{UNKNOWN}/history
                cases.append((prefix + kind.api_path(UNKNOWN), kind.not_found_code))
        cases.append((f"{prefix}/{UNKNOWN}", "not_found"))
    cases += [("/api/v2/models", "not_found"), ("/api/v1/models/x/y", "model_not_found")]
    cases += [("/api/v1/model-history/" + UNKNOWN, "not_found")]  # the file folder: no 404 rule
    return [
        Expected(path, 404, (site_dir / f"api/_errors/{code}.json").read_bytes(), code)
        for path, code in cases
    ]


def expected_headers(site_dir: Path, path: str) -> dict[str, str]:
    """The headers the site's own `_headers` assigns to a request path (lower-case names)."""
    rules = parse_headers((site_dir / "_headers").read_text(encoding="utf-8"))
    return {name.lower(): value for name, value in headers_for(rules, path)}


def check(
    client: httpx.Client, site_dir: Path, case: Expected, *, server_sets_headers: bool
) -> None:
    """Assert one response: status, exact body, CORS, and the JSON/caching headers.

    With `server_sets_headers=False` (netlify dev, which lets its static server's
    Cache-Control and Content-Type win: netlify/cli#990) those two are checked in the
    parsed `_headers` instead of on the wire.
    """
    response = client.get(case.path)
    where = f"GET {case.path}"
    assert response.status_code == case.status, f"{where}: {response.status_code}"
    assert response.content == case.body, f"{where}: body differs"
    assert response.headers.get("access-control-allow-origin") == "*", where
    if case.code is not None:
        body = json.loads(response.content)
        assert body == {"error": ERROR_CODES[case.code], "code": case.code}, where
    wanted = expected_headers(site_dir, case.path)
    assert wanted["cache-control"] == API_CACHE_CONTROL, where
    assert wanted["content-type"] == JSON_TYPE, where
    if server_sets_headers:
        assert response.headers["cache-control"] == API_CACHE_CONTROL, where
        assert response.headers["content-type"] == JSON_TYPE, where
        assert response.headers["x-content-type-options"] == "nosniff", where


# --- model aliases (tests/data: alpha-1 declares `Alpha-1` and `Alpha 1`; alpha-3 its dated
# revision `alpha-3-20260105`) -------------------------------------------------------------

ALIAS_REDIRECTS: tuple[tuple[str, str], ...] = (
    ("/api/v1/models/Alpha-1", "/api/v1/models/alpha-1"),  # a display-name alias
    ("/api/models/Alpha-1", "/api/models/alpha-1"),  # the bare alias tree alike
    ("/api/v1/models/alpha-3-20260105", "/api/v1/models/alpha-3"),  # a dated revision
    ("/api/models/alpha-3-20260105/", "/api/models/alpha-3"),
    ("/models/Alpha-1", "/models/alpha-1/"),  # the model's page
    ("/api/v1/models/Alpha-1/history", "/api/v1/models/alpha-1/history"),  # its history
    ("/api/models/alpha-3-20260105/history", "/api/models/alpha-3/history"),
)
ALIAS_MISSES = (
    "/api/v1/models/Alpha-9",  # no such alias
    "/api/v1/models/ALPHA-1",  # another case: a static host cannot match it
    "/api/models/Alpha%201",  # an alias with a space: no hosting rule can hold it
    "/api/v1/models/Alpha-9/history",
)


def check_alias_redirects(client: httpx.Client, site_dir: Path) -> None:
    """Each API alias answers 200 with the canonical document's bytes, CORS and a
    `Link: rel="canonical"` (a rewrite: a static host sends no custom header on a redirect);
    a page alias answers 301 to the page. Unknown names and forms no rule holds get the
    JSON 404."""
    for path, target in ALIAS_REDIRECTS:
        response = client.get(path)
        if target.endswith("/"):  # a page
            assert response.status_code == 301, f"GET {path}: {response.status_code}"
            assert httpx.URL(response.headers["location"]).path == target, f"GET {path}"
            response = client.get(path, follow_redirects=True)
        else:
            assert response.headers["access-control-allow-origin"] == "*", f"GET {path}"
            assert response.headers.get("link") == f'<{target}>; rel="canonical"', f"GET {path}"
        assert response.status_code == 200, f"GET {path}: {response.status_code}"
        assert response.content == _served(site_dir, target), f"GET {path}"
    body = (site_dir / "api/_errors/model_not_found.json").read_bytes()
    for path in ALIAS_MISSES:
        response = client.get(path)
        assert (response.status_code, response.content) == (404, body), f"GET {path}"
        assert response.headers["access-control-allow-origin"] == "*", f"GET {path}"


def _served(site_dir: Path, target: str) -> bytes:
    """The bytes a canonical path serves: its page, its API document, or its file."""
    if target.endswith("/"):
        return (site_dir / target.lstrip("/") / "index.html").read_bytes()
    for prefix in sorted(API_PREFIXES, key=len, reverse=True):
        if target.startswith(prefix + "/") and endpoint_for(target[len(prefix) :]):
            return (site_dir / api_file(target[len(prefix) :], prefix)).read_bytes()
    return (site_dir / target.lstrip("/")).read_bytes()


def all_cases(site_dir: Path) -> list[Expected]:
    """Every endpoint and every 404 case."""
    return found(site_dir) + not_found(site_dir)


def endpoint_count(site_dir: Path) -> int:
    """How many distinct endpoint paths the site serves (for sanity checks)."""
    return sum(1 for p in _api_paths(site_dir) if endpoint_for(p) or p == INDEX_PATH)
