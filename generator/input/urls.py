"""What a source URL in data/ may be: an http(s) link whose text is where it goes.

A reader follows a source's link by what it shows, so besides the characters a one-line
field refuses (`generator/input/text.py`: `example.org/\u202egpj.exe` reads as
`example.org/exe.jpg`), a URL refuses what makes its host read as another one:

- user info before the host: `https://good.example@evil.example/` goes to evil.example;
- a host that is not ASCII as written: `https://ex\u0430mple.org/` (a Cyrillic `а`) looks
  like example.org; an internationalised name is written in punycode (`xn--...`), which
  shows where the link goes;
- any other character in the host (`%`, `\\`, which a browser reads as `/`, ...).

The host is ASCII letters, digits, `.`, `-`, `_` (or an IPv6 literal in brackets) and an
optional `:port`; after it, a path, query or fragment may hold any visible character.
"""

from __future__ import annotations

import re

from generator.input.text import NOT_IN_URL, url_character_problem

_HOST = r"(?:[A-Za-z0-9._-]+|\[[0-9A-Fa-f:.]+\])(?::[0-9]{0,5})?"
URL_PATTERN = f"\\Ahttps?://{_HOST}(?:[/?#][^{NOT_IN_URL}]*)?\\Z"
"""An http(s) URL whose host reads as written (a msgspec pattern; `url_problem` names what
it refuses)."""
MAX_URL_LENGTH = 2000
_URL_RE = re.compile(URL_PATTERN)
_HOST_RE = re.compile(f"\\A{_HOST}\\Z")
_SCHEME = re.compile(r"\Ahttps?://")
_AUTHORITY_END = re.compile(r"[/?#\\]")
"""Where a browser ends the host part of an http(s) URL (`\\` is read as `/`)."""
_HOST_CHARS = re.compile(r"[^A-Za-z0-9._:\[\]-]")
HOST_RULE = "(a host is ASCII letters, digits, '.', '-', '_' and a :port)"
_SHOWN = 60


def _cut(text: str) -> str:
    return text if len(text) <= _SHOWN else text[: _SHOWN - 1] + "\u2026"


def is_source_url(text: str) -> bool:
    """Whether data/ takes `text` as a URL: the loader's rule for every URL field, which an
    importer applies to an upstream link before writing it (a refused link is dropped for
    the source file's own URL)."""
    return len(text) <= MAX_URL_LENGTH and _URL_RE.search(text) is not None


def url_problem(url: str) -> str | None:
    """What makes `url` refused, e.g. `user info "a@" before a URL's host (the link goes to
    b.example)`; None when it passes `URL_PATTERN`, or when only the pattern's general
    message fits (not http(s), a space in the path)."""
    problem = url_character_problem(url)
    scheme = _SCHEME.match(url)
    if problem is not None or scheme is None:
        return problem
    rest = url[scheme.end() :]
    end = _AUTHORITY_END.search(rest)
    authority = rest if end is None else rest[: end.start()]
    if "@" in authority:
        userinfo, _, host = authority.rpartition("@")
        goes_to = _cut(host) if host else "no host"
        return f'user info "{_cut(userinfo)}@" before a URL\'s host (the link goes to {goes_to})'
    bad = _HOST_CHARS.search(authority + (end[0] if end is not None and end[0] == "\\" else ""))
    if bad is not None and not bad[0].isascii():
        return f"non-ASCII U+{ord(bad[0]):04X} in a URL's host (write the host in punycode, xn--)"
    if bad is not None:
        return f"'{bad[0]}' in a URL's host {HOST_RULE}"
    if not authority:
        return "no host in a URL"
    if _HOST_RE.match(authority) is None:
        return f'bad host "{_cut(authority)}" in a URL {HOST_RULE}'
    return None
