"""Netlify-style `_headers` and `_redirects`, generated from `DOCUMENTS`, and read back.

The generated rules are the one source of the hosting behaviour; `serve.py` and the
tests parse these same files (`parse_headers`, `parse_redirects`) and apply them with
Netlify's semantics for the rule forms generated here:

- a pattern is an exact path or ends in `/*` (a splat that also matches the bare
  prefix), compared with the percent-decoded request path; a trailing slash on the
  request does not matter; `_headers` patterns match case-insensitively (like Netlify's
  header parser), `_redirects` case-sensitively;
- every matching `_headers` rule adds its headers (we never set one name twice for a path);
- the first matching `_redirects` rule wins; a rule without `!` applies only when no
  file exists at the request path (existing files shadow it).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, NamedTuple

import msgspec

from generator.api.contract import DOCUMENTS, MODEL, MODEL_HISTORY, DocumentKind
from generator.api.files import (
    BADGE_TYPE,
    BADGES_DIR,
    CSV_TYPE,
    DATAPACKAGE_FILE,
    DOWNLOADS,
    DOWNLOADS_DIR,
    FEED_FILE,
    FEED_TYPE,
    LLMS_FILE,
    LLMS_TYPE,
    NOT_FOUND_FILE,
)
from generator.api.server_card import CARD_FILE, server_card
from generator.api.urls import (
    ALIAS_PREFIX,
    API_PREFIXES,
    HTML_404,
    INDEX_PATH,
    MCP_PATH,
    SiteConfig,
    api_file,
    endpoint_for,
    error_file,
    kind_file,
)
from generator.errors import BuildError

JSON_TYPE = "application/json; charset=utf-8"
# Data changes when the site is rebuilt (at most a few times a day): browsers and shared
# caches may reuse a response for 5 minutes, then serve it stale for up to a day while
# revalidating in the background, or while the origin errors.
API_CACHE_CONTROL = "public, max-age=300, stale-while-revalidate=86400, stale-if-error=86400"
CORS_ALLOW_METHODS = "GET, HEAD, OPTIONS"
CORS_ALLOW_HEADERS = "*"
"""Any request header a page may send (`Accept`, `If-None-Match`, a tracing header): the
data are public and no credentials are involved, so `*` means any name."""
CORS_MAX_AGE = "86400"
PREFLIGHT_HEADERS: tuple[tuple[str, str], ...] = (
    ("Access-Control-Allow-Methods", CORS_ALLOW_METHODS),
    ("Access-Control-Allow-Headers", CORS_ALLOW_HEADERS),
    ("Access-Control-Max-Age", CORS_MAX_AGE),
)
"""What a preflight (`OPTIONS`) needs beyond `Access-Control-Allow-Origin`; sent on every
API response, since a host that answers `OPTIONS` for a file sends that file's headers."""
API_HEADERS: tuple[tuple[str, str], ...] = (
    ("Access-Control-Allow-Origin", "*"),
    ("Access-Control-Expose-Headers", "Link"),  # an alias's canonical URL, for scripts too
    *PREFLIGHT_HEADERS,
    ("Cache-Control", API_CACHE_CONTROL),
    ("Content-Type", JSON_TYPE),
)
DOWNLOAD_HEADERS: tuple[tuple[str, str], ...] = (
    ("Access-Control-Allow-Origin", "*"),
    ("Cache-Control", API_CACHE_CONTROL),
)
"""Every file under `downloads/`; each kind adds its type (`download_type_rules`): the CSV
files and the 404 body `text/csv`, the data package JSON."""
CSV_HEADERS: tuple[tuple[str, str], ...] = (("Content-Type", CSV_TYPE),)
JSON_TYPE_HEADERS: tuple[tuple[str, str], ...] = (("Content-Type", JSON_TYPE),)
# The feed and llms.txt are read by programs too (web feed readers, agents): CORS and the
# API's caching, like the downloads.
FEED_HEADERS: tuple[tuple[str, str], ...] = (
    ("Access-Control-Allow-Origin", "*"),
    ("Cache-Control", API_CACHE_CONTROL),
    ("Content-Type", FEED_TYPE),
)
LLMS_HEADERS: tuple[tuple[str, str], ...] = (
    ("Access-Control-Allow-Origin", "*"),
    ("Cache-Control", API_CACHE_CONTROL),
    ("Content-Type", LLMS_TYPE),
)
# README badges are read by shields.io and by scripts on any origin.
BADGE_HEADERS: tuple[tuple[str, str], ...] = (
    ("Access-Control-Allow-Origin", "*"),
    ("Cache-Control", API_CACHE_CONTROL),
    ("Content-Type", BADGE_TYPE),
)
# The MCP server card is read by clients before they connect, from any origin.
CARD_HEADERS: tuple[tuple[str, str], ...] = (
    ("Access-Control-Allow-Origin", "*"),
    ("Cache-Control", API_CACHE_CONTROL),
    ("Content-Type", JSON_TYPE),
)
CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'none'",
        "script-src 'self'",  # site.js only: no inline script, no eval
        "style-src 'self'",  # site.css only: no inline style
        "img-src 'self' data:",  # the icon is a data: URL
        "connect-src 'self'",  # the compare view fetches the API
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",  # no page is framed by another site (clickjacking)
    )
)
"""What a page may load: its own site's scripts, styles, images and API, nothing inline,
never framed (docs/DECISIONS.md; tests/pages/test_browser_csp.py loads every page type)."""
SITE_HEADERS: tuple[tuple[str, str], ...] = (
    ("X-Content-Type-Options", "nosniff"),
    ("Content-Security-Policy", CONTENT_SECURITY_POLICY),
    ("X-Frame-Options", "DENY"),  # frame-ancestors for browsers that predate it
)
HOSTING_FILES = ("_headers", "_redirects")


@dataclass(frozen=True)
class HeaderRule:
    """One `_headers` block: a path pattern and the headers it adds."""

    pattern: str
    headers: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class RedirectRule:
    """One `_redirects` line: `from to status[!]`."""

    source: str
    target: str
    status: int
    force: bool = False


# --- generation -------------------------------------------------------------


def header_rules(
    model_aliases: Mapping[str, Sequence[str]] | None = None,
) -> tuple[HeaderRule, ...]:
    """The header rules: each model alias's canonical `Link`; JSON, CORS and caching on the
    API; CSV, CORS and caching on the downloads; the feed and llms.txt alike with their
    types; nosniff, the content security policy and no framing on everything."""
    return (
        *canonical_links(model_aliases or {}),
        HeaderRule(f"{ALIAS_PREFIX}/*", API_HEADERS),
        HeaderRule(f"/{DOWNLOADS_DIR}/*", DOWNLOAD_HEADERS),
        *download_type_rules(),
        HeaderRule(f"/{BADGES_DIR}/*", BADGE_HEADERS),
        HeaderRule(f"/{FEED_FILE}", FEED_HEADERS),
        HeaderRule(f"/{LLMS_FILE}", LLMS_HEADERS),
        HeaderRule(f"/{CARD_FILE}", CARD_HEADERS),
        HeaderRule("/*", SITE_HEADERS),
    )


def download_type_rules() -> tuple[HeaderRule, ...]:
    """`Content-Type` under `downloads/`: one `_headers` rule per CSV kind (its folder, or
    its file), the 404 bodies' folder, and the data package. A single `/downloads/*` type
    would also match `datapackage.json`, and two matching rules would send two types."""
    patterns = dict.fromkeys(
        "/" + (d.pattern.rsplit("/", 1)[0] + "/*" if "{" in d.pattern else d.pattern)
        for d in DOWNLOADS
    )
    errors = "/" + NOT_FOUND_FILE.rsplit("/", 1)[0] + "/*"
    return (
        *(HeaderRule(pattern, CSV_HEADERS) for pattern in [*patterns, errors]),
        HeaderRule(f"/{DATAPACKAGE_FILE}", JSON_TYPE_HEADERS),
    )


ALIAS_STATUS = 301
"""A page alias's redirect: followed for GET by every HTTP client library (308 is not by
Python's urllib before 3.11 nor Java's HttpURLConnection, and Netlify does not support
307); docs/DECISIONS.md."""
API_ALIAS_STATUS = 200
"""An API alias is a rewrite: the canonical file's bytes under the alias path, with the API
headers and a `Link: rel="canonical"`. A redirect response is not a file, so a static host
sends it without the custom headers (no CORS): a browser's cross-origin fetch of a redirect
fails (docs/DECISIONS.md)."""


def alias_sources(model_id: str, aliases: Sequence[str]) -> list[str]:
    """The spellings of a model's aliases a static host can match: each as declared, and
    all in lower case (Netlify's patterns have no case-insensitive form); never the id.

    An alias with a space is left out: a `_redirects` pattern cannot hold a space, and
    Netlify compares the decoded request path with the pattern as written, so `%20` in a
    pattern matches no request for it. MCP and `explain` still resolve such aliases.
    """
    spellings = [*aliases, *(alias.lower() for alias in aliases)]
    return [s for s in dict.fromkeys(spellings) if s != model_id and " " not in s]


ALIASED_KINDS: tuple[DocumentKind[Any], ...] = (MODEL, MODEL_HISTORY)
"""The documents named by a model id, whose paths also answer for the model's aliases."""


def _api_aliases(
    model_aliases: Mapping[str, Sequence[str]],
) -> Iterator[tuple[str, str, str]]:
    """(alias path, canonical path, canonical file) of every model alias's API documents,
    under both prefixes."""
    for model_id, aliases in sorted(model_aliases.items()):
        for alias in alias_sources(model_id, aliases):
            for kind in ALIASED_KINDS:
                for prefix in API_PREFIXES:
                    yield (
                        _alias_path(kind, prefix, alias),
                        prefix + kind.api_path(model_id),
                        _canonical_file(kind, prefix, model_id),
                    )


def _alias_path(kind: DocumentKind[Any], prefix: str, alias: str) -> str:
    return prefix + kind.api_path(alias)


def _canonical_file(kind: DocumentKind[Any], prefix: str, model_id: str) -> str:
    return "/" + api_file(kind.api_path(model_id), prefix)


def _alias_page(alias: str) -> str:
    return ("/" + MODEL.page_path(alias)).rstrip("/")


def _canonical_page(model_id: str) -> str:
    return "/" + MODEL.page_path(model_id)


def canonical_links(model_aliases: Mapping[str, Sequence[str]]) -> list[HeaderRule]:
    """`Link: <canonical>; rel="canonical"` on each alias path of a model's API documents,
    and on the canonical path and the file it is served from (naming the canonical path, as
    is usual): a host that picks headers by the rewritten file's path (netlify dev does)
    then sends the same `Link`.

    Header patterns match any case (`/models/GPT-5.5` also matches `/models/gpt-5.5`), so
    one rule per path in lower case.
    """
    links: dict[str, str] = {}
    for source, target, file in _api_aliases(model_aliases):
        for path in (file, target, source):
            links.setdefault(path.lower(), f'<{target}>; rel="canonical"')
    return [HeaderRule(path, (("Link", link),)) for path, link in links.items()]


def alias_rules(model_aliases: Mapping[str, Sequence[str]]) -> list[RedirectRule]:
    """`/models/{alias}` rewritten (200) to the file of `/models/{id}`, and the same for
    the model's history, under both API prefixes; the model's page redirected (301).

    Not forced: an existing file always wins, so a rule can never shadow a real document.
    """
    rules = [
        RedirectRule(source, file, API_ALIAS_STATUS)
        for source, _, file in _api_aliases(model_aliases)
    ]
    for model_id, aliases in sorted(model_aliases.items()):
        for alias in alias_sources(model_id, aliases):
            rules.append(RedirectRule(_alias_page(alias), _canonical_page(model_id), ALIAS_STATUS))
    return rules


def _rewritten_paths(api_paths: Iterable[str]) -> dict[DocumentKind[Any], list[str]]:
    """The published paths of each kind served through a rewrite, in `DOCUMENTS` order.

    A parameterised kind gets its published paths (sorted), each an exact rule: a
    placeholder rule (`/models/:id/history`) would match unknown ids too, and Netlify
    answers a rewrite to a missing file with the site's HTML 404, never falling through to
    the JSON 404 rules below. So these rules grow with the catalogue, two per model
    (docs/DECISIONS.md, "Issue 29's constant-size rules"; `python -m bench.redirects`).
    """
    published: dict[DocumentKind[Any], list[str]] = {}
    for path in api_paths:
        kind = endpoint_for(path)
        if kind is not None and kind.param is not None and kind.rewritten:
            published.setdefault(kind, []).append(path)
    return {
        kind: [kind.path] if kind.param is None else sorted(published.get(kind, []))
        for kind in DOCUMENTS
        if kind.rewritten
    }


def redirect_rules(
    config: SiteConfig,
    html_404: bool,
    model_aliases: Mapping[str, Sequence[str]] | None = None,
    api_paths: Iterable[str] = (),
) -> tuple[RedirectRule, ...]:
    """The redirect rules in order: MCP proxy, rewrites (`api_paths`: the published
    documents' API paths), alias redirects (`model_aliases`: model id to its aliases),
    then 404s, most specific first."""
    rules: list[RedirectRule] = []
    if config.mcp_origin is not None:
        target = config.mcp_origin.rstrip("/") + MCP_PATH
        rules.append(RedirectRule(MCP_PATH, target, 200, force=True))
    rewritten = _rewritten_paths(api_paths)
    for prefix in API_PREFIXES:
        for kind, paths in rewritten.items():
            for path in paths:
                source = prefix + ("" if path == INDEX_PATH else path)
                rules.append(RedirectRule(source, "/" + kind_file(kind, path, prefix), 200))
    if model_aliases:
        rules += alias_rules(model_aliases)
    collections = {k.collection: k.not_found_code for k in DOCUMENTS if k.not_found_code}
    for collection, code in collections.items():
        for prefix in API_PREFIXES:
            rules.append(RedirectRule(f"{prefix}{collection}/*", "/" + error_file(code), 404))
    rules.append(RedirectRule(f"{ALIAS_PREFIX}/*", "/" + error_file("not_found"), 404))
    rules.append(RedirectRule(f"/{DOWNLOADS_DIR}/*", "/" + NOT_FOUND_FILE, 404))
    if html_404:
        rules.append(RedirectRule("/*", "/" + HTML_404, 404))
    return tuple(rules)


def render_headers(rules: Iterable[HeaderRule]) -> str:
    """`_headers` text."""
    blocks = [
        "\n".join([rule.pattern, *(f"  {name}: {value}" for name, value in rule.headers)])
        for rule in rules
    ]
    return "# Generated by modelscores build: do not edit.\n" + "\n".join(blocks) + "\n"


REDIRECTS_HEADER = "# Generated by modelscores build: do not edit. First match wins.\n"


def render_redirects(rules: Iterable[RedirectRule]) -> str:
    """`_redirects` text: one rule a line, its fields separated by one space (no padding to
    the widest rule: one long alias would widen every line; docs/DECISIONS.md)."""
    return REDIRECTS_HEADER + "".join(f"{_line(rule)}\n" for rule in rules)


def _line(rule: RedirectRule) -> str:
    return f"{rule.source} {rule.target} {rule.status}{'!' if rule.force else ''}"


def _line_bytes(rule: RedirectRule) -> int:
    """Bytes of a rule's line in `render_redirects`, its newline included."""
    return len(_line(rule).encode()) + 1


MAX_REDIRECT_RULES = 100_000
"""`_redirects` rules at most. Hosts refuse or slow down on rule files far larger (Netlify
advises wildcards from 10,000 rules on); 20,000 models without aliases need 40,000."""
MAX_REDIRECT_BYTES = 16 * 1024 * 1024
"""`_redirects` bytes at most: a rule is as long as its paths, and aliases may be 100
characters, so the rule limit alone let 300 models with 32 long aliases write 18 MB. The
rule limit's catalogue (49,988 models, two history rules each) with every id as long as the
longest shipped one (43 characters) writes 12.8 MiB (`tests/api/test_redirects_size.py`)."""


class _Linear(NamedTuple):
    """A byte length `fixed + per_char * len(value)` of a path made from one value."""

    fixed: int
    per_char: int

    @staticmethod
    def of(make: Callable[[str], str]) -> _Linear:
        one, two = len(make("x").encode()), len(make("xx").encode())
        return _Linear(one - (two - one), two - one)


def _alias_forms() -> list[tuple[_Linear, _Linear, int]]:
    """(source by alias, target by model id, status) of the rules of one alias spelling, as
    `alias_rules` makes them."""
    forms = [
        (
            _Linear.of(partial(_alias_path, kind, prefix)),
            _Linear.of(partial(_canonical_file, kind, prefix)),
            API_ALIAS_STATUS,
        )
        for kind in ALIASED_KINDS
        for prefix in API_PREFIXES
    ]
    forms.append((_Linear.of(_alias_page), _Linear.of(_canonical_page), ALIAS_STATUS))
    return forms


_ALIAS_FORMS = _alias_forms()
_RULES_PER_ALIAS = len(_ALIAS_FORMS)
"""Rules of one alias spelling: each aliased document under each prefix, and the page."""


class _AliasSize(NamedTuple):
    rules: int
    bytes: int


def _alias_size(model_id: str, aliases: Sequence[str]) -> _AliasSize:
    """Rules and bytes `alias_rules` writes for one model's aliases, by arithmetic."""
    spellings = alias_sources(model_id, aliases)
    count, chars = len(spellings), sum(len(s.encode()) for s in spellings)
    id_chars = len(model_id.encode())
    size = 0
    for source, target, status in _ALIAS_FORMS:
        line = source.fixed + target.fixed + target.per_char * id_chars + len(str(status)) + 3
        size += count * line + source.per_char * chars
    return _AliasSize(count * _RULES_PER_ALIAS, size)


def check_redirects(
    config: SiteConfig,
    html_404: bool,
    model_aliases: Mapping[str, Sequence[str]] | None = None,
    api_paths: Iterable[str] = (),
) -> None:
    """A `BuildError` naming what makes `_redirects` too large (arguments as for
    `redirect_rules`). The alias rules, which may be most of them, are counted and measured
    by arithmetic, never made: a refusal costs about as much as reading the aliases."""
    aliases, api_paths = model_aliases or {}, list(api_paths)
    others = redirect_rules(config, html_404, None, api_paths)
    by_model = {model_id: _alias_size(model_id, names) for model_id, names in aliases.items()}
    alias_rules_ = sum(size.rules for size in by_model.values())
    rules = len(others) + alias_rules_
    alias_bytes = sum(size.bytes for size in by_model.values())
    size = len(REDIRECTS_HEADER) + sum(map(_line_bytes, others)) + alias_bytes
    if rules > MAX_REDIRECT_RULES:
        cause = _too_large_because("rules", rules, alias_rules_, by_model, aliases, api_paths)
        raise BuildError(
            f"_redirects: {rules:,} rules (the limit is {MAX_REDIRECT_RULES:,}): {cause}"
        )
    if size > MAX_REDIRECT_BYTES:
        cause = _too_large_because("bytes", size, alias_bytes, by_model, aliases, api_paths)
        raise BuildError(
            f"_redirects: {size:,} bytes (the limit is {_bytes(MAX_REDIRECT_BYTES)}): {cause}"
        )


def render_hosting(
    config: SiteConfig,
    html_404: bool,
    model_aliases: Mapping[str, Sequence[str]] | None = None,
    api_paths: Iterable[str] = (),
) -> dict[str, bytes]:
    """The two hosting files and the MCP server card, by site path (arguments as for
    `redirect_rules`); a `BuildError` naming what makes `_redirects` too large, before any
    rule is made (`check_redirects`)."""
    aliases = model_aliases or {}
    api_paths = list(api_paths)
    check_redirects(config, html_404, aliases, api_paths)
    text = render_redirects(redirect_rules(config, html_404, aliases, api_paths)).encode()
    card = msgspec.json.format(msgspec.json.encode(server_card(config)), indent=2) + b"\n"
    return {
        "_headers": render_headers(header_rules(model_aliases)).encode(),
        "_redirects": text,
        CARD_FILE: card,
    }


def _too_large_because(
    unit: str,
    total: int,
    from_aliases: int,
    by_model: Mapping[str, _AliasSize],
    model_aliases: Mapping[str, Sequence[str]],
    api_paths: Iterable[str],
) -> str:
    """What makes `_redirects` too large, in `unit` (rules or bytes): the aliases, when they
    make most of it (naming the model with the most), else the models' history rewrites
    (naming the longest id)."""
    if 2 * from_aliases > total:
        weight = {m: s.rules if unit == "rules" else s.bytes for m, s in by_model.items()}
        most = min(weight, key=lambda model_id: (-weight[model_id], model_id))
        return (
            f"{from_aliases:,} of its {total:,} {unit} are for the aliases of"
            f" {sum(1 for size in by_model.values() if size.rules):,} models (the most:"
            f" models/{most}.toml, {len(model_aliases[most])} aliases): fewer or shorter aliases"
        )
    ids = [
        value
        for path in _rewritten_paths(api_paths).get(MODEL_HISTORY, [])
        if (value := MODEL_HISTORY.path_value(path))
    ]
    if not ids:
        return "its fixed rules"
    longest = max(ids, key=lambda model_id: (len(model_id), model_id))
    return (
        f"the history rewrites of {len(ids):,} models (the longest id: models/{longest}.toml,"
        f" {len(longest)} characters): fewer models or shorter ids"
    )


def _bytes(size: int) -> str:
    mib = 1024 * 1024
    return f"{size // mib} MiB" if size % mib == 0 else f"{size:,} bytes"


# --- reading and matching ---------------------------------------------------


def parse_headers(text: str) -> tuple[HeaderRule, ...]:
    """Parse `_headers` text (the subset generated above; raises ValueError otherwise)."""
    rules: list[HeaderRule] = []
    pattern: str | None = None
    headers: list[tuple[str, str]] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if not raw[0].isspace():
            if pattern is not None:
                rules.append(HeaderRule(pattern, tuple(headers)))
            pattern, headers = line, []
            continue
        name, sep, value = line.partition(":")
        if pattern is None or not sep:
            raise ValueError(f"_headers line {number}: expected `Name: value` under a path")
        headers.append((name.strip(), value.strip()))
    if pattern is not None:
        rules.append(HeaderRule(pattern, tuple(headers)))
    return tuple(rules)


def parse_redirects(text: str) -> tuple[RedirectRule, ...]:
    """Parse `_redirects` text: `from to status[!]` lines (raises ValueError otherwise)."""
    rules: list[RedirectRule] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        parts = line.split()
        if len(parts) != 3 or not re.fullmatch(r"[1-5]\d\d!?", parts[2]):
            raise ValueError(f"_redirects line {number}: expected `from to status`: {raw!r}")
        source, target, status = parts
        rules.append(RedirectRule(source, target, int(status.rstrip("!")), status.endswith("!")))
    return tuple(rules)


def _normalise(path: str) -> str:
    return path.rstrip("/") or "/"


def pattern_matches(pattern: str, path: str, *, ignore_case: bool = False) -> bool:
    """Whether a rule pattern (exact, or ending in `/*`) matches a request path.

    `path` is percent-decoded (as ASGI gives it); the pattern is compared as written, as
    Netlify does (netlify dev: a request for `/a%25201` matches the pattern `/a%201`).
    """
    path = _normalise(path)
    if ignore_case:
        pattern, path = pattern.lower(), path.lower()
    if pattern.endswith("/*"):
        prefix = pattern[:-2]
        return path == (prefix or "/") or path.startswith(prefix + "/")
    return path == _normalise(pattern)


def headers_for(rules: Sequence[HeaderRule], path: str) -> list[tuple[str, str]]:
    """Every header the rules add to a response for `path`, in rule order."""
    found: list[tuple[str, str]] = []
    for rule in rules:
        if pattern_matches(rule.pattern, path, ignore_case=True):
            found.extend(rule.headers)
    return found


def first_redirect(
    rules: Sequence[RedirectRule], path: str, *, file_exists: bool
) -> RedirectRule | None:
    """The rule that applies to `path`: forced rules always, others only without a file."""
    for rule in rules:
        if (rule.force or not file_exists) and pattern_matches(rule.source, path):
            return rule
    return None
