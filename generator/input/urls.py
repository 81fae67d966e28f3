"""What a source URL in data/ may be: an http(s) link whose text is where it goes.

A reader follows a source's link by what it shows, so besides the characters a one-line
field refuses (`generator/input/text.py`: `example.org/\u202egpj.exe` reads as
`example.org/exe.jpg`), a URL refuses what makes its host read as another one:

- user info before the host: `https://good.example@evil.example/` goes to evil.example;
- a host that is not ASCII as written: `https://ex\u0430mple.org/` (a Cyrillic `а`) looks
  like example.org; an internationalised name is written in punycode (`xn--...`), which
  shows where the link goes;
- any other character in the host (`%`, `\\`, which a browser reads as `/`, ...);
- a host a browser reads as another one or refuses (the WHATWG URL standard): a last label
  that is a number makes the host an IPv4 address, so `http://010.010.010.010/` goes to
  8.8.8.8, `http://127.1/` to 127.0.0.1 and `http://2130706433/` too; only the canonical
  `a.b.c.d` (each 0 to 255, no leading zero) is taken. An IPv6 literal must be one
  (`ipaddress`), a port 1 to 65535, an `xn--` label punycode that decodes to a non-ASCII
  label, and every label needs a letter or digit (`.`, `-`, `a..b` are no host).

The host is ASCII letters, digits, `.`, `-`, `_` (or an IPv6 literal in brackets) and an
optional `:port`; after it, a path, query or fragment may hold any visible character.
`url_problem` is the rule; `URL_PATTERN`, which the `Url` field's decoder matches, is a quick
yes for the common hosts (names without `xn--`, canonical IPv4) and never a wrong one: a URL
it refuses is asked of `url_problem` (`generator/input/decode.py`).
"""

from __future__ import annotations

import ipaddress
import re

from generator.input.text import NOT_IN_URL, url_character_problem

_OCTET = r"(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])"
_IPV4 = f"{_OCTET}(?:\\.{_OCTET}){{3}}"
_NUMBER = r"(?:[0-9]+|0[xX][0-9A-Fa-f]*)"
"""A label a browser reads as a number (WHATWG "ends in a number")."""
_LABEL = r"(?![xX][nN]--)[_-]*[A-Za-z0-9][A-Za-z0-9_-]*"
_AFTER_HOST = r"(?:[:/?#]|\Z)"
_NAME = f"(?:{_LABEL}\\.)*(?!{_NUMBER}\\.?{_AFTER_HOST}){_LABEL}\\.?"
_PORT_NUMBER = (
    r"(?:[1-9][0-9]{0,3}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5])"
)
_PORT = f"(?::{_PORT_NUMBER}?)?"
"""An optional `:port`, 1 to 65535 without a leading zero (empty: the scheme's own)."""
_REST = f"(?:[!-~]*|[^{NOT_IN_URL}]*)"
"""After the host: printable ASCII but space is tried first (it is never refused; the whole
class costs about 60 ns a character)."""
URL_PATTERN = f"\\Ahttps?://(?:{_IPV4}|{_NAME}){_PORT}(?:[/?#]{_REST})?\\Z"
"""A quick yes for an http(s) URL whose host reads as written (a msgspec pattern); a URL it
refuses may still pass `url_problem`, the rule."""
MAX_URL_LENGTH = 2000
_URL_RE = re.compile(URL_PATTERN)
_SCHEME = re.compile(r"\Ahttps?://")
_AUTHORITY_END = re.compile(r"[/?#\\]")
"""Where a browser ends the host part of an http(s) URL (`\\` is read as `/`)."""
_HOST_CHARS = re.compile(r"[^A-Za-z0-9._:\[\]-]")
_IPV4_RE = re.compile(f"\\A{_IPV4}\\Z")
_NUMBER_RE = re.compile(f"\\A{_NUMBER}\\Z")
_PORT_RE = re.compile(f"\\A{_PORT}\\Z")
_HAS_ALNUM = re.compile(r"[A-Za-z0-9]")
_NOT_IN_URL_RE = re.compile(f"[{NOT_IN_URL}]")
HOST_RULE = "(a host is ASCII letters, digits, '.', '-', '_' and a :port)"
GENERAL = "must be an http(s) URL without spaces"
NUMERIC = "(an IPv4 address is written a.b.c.d, each 0 to 255 without leading zeros)"
_SHOWN = 60


def _cut(text: str) -> str:
    return text if len(text) <= _SHOWN else text[: _SHOWN - 1] + "\u2026"


def is_source_url(text: str) -> bool:
    """Whether data/ takes `text` as a URL: the loader's rule for every URL field, which an
    importer applies to an upstream link before writing it (a refused link is dropped for
    the source file's own URL)."""
    if len(text) > MAX_URL_LENGTH:
        return False
    return _URL_RE.search(text) is not None or url_problem(text) is None


def url_problem(url: str) -> str | None:
    """What makes `url` refused, e.g. `user info "a@" before a URL's host (the link goes to
    b.example)` or the general `must be an http(s) URL without spaces`; None when data/
    takes it (its length aside: `MAX_URL_LENGTH`)."""
    problem = url_character_problem(url)
    scheme = _SCHEME.match(url)
    if problem is not None:
        return problem
    if scheme is None or _NOT_IN_URL_RE.search(url):
        return GENERAL
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
    return _authority_problem(authority)


def _authority_problem(authority: str) -> str | None:
    """The problem of a URL's `host[:port]` of allowed characters, or None."""
    if authority.startswith("["):
        literal, bracket, port = authority.partition("]")
        if not bracket or (port and not port.startswith(":")):
            return f'bad host "{_cut(authority)}" in a URL {HOST_RULE}'
        host = literal + bracket
    else:
        host, colon, after = authority.partition(":")
        port = colon + after
    if _PORT_RE.match(port) is None:
        return f'bad port "{_cut(port[1:])}" in a URL (a port is 1 to 65535, no leading zero)'
    return _host_problem(host)


def _host_problem(host: str) -> str | None:
    if host.startswith("["):
        try:
            ipaddress.IPv6Address(host[1:-1])
        except ValueError:
            return f'bad IPv6 address "{_cut(host)}" in a URL'
        return None
    labels = host.split(".")
    if len(labels) > 1 and not labels[-1]:
        labels.pop()  # `example.org.`: the root's empty label
    if _NUMBER_RE.match(labels[-1]) and _IPV4_RE.match(host) is None:
        return f'numeric host "{_cut(host)}" in a URL {NUMERIC}'
    for label in labels:
        if _HAS_ALNUM.search(label) is None:
            return f'label "{_cut(label)}" in a URL\'s host has no letter or digit'
        if label[:4].lower() == "xn--" and not _is_punycode(label[4:].lower()):
            return (
                f'label "{_cut(label)}" in a URL\'s host is not punycode (an xn-- label is'
                " the ASCII form of a name that is not ASCII)"
            )
    return None


def _is_punycode(code: str) -> bool:
    """Whether `code` (after `xn--`) decodes to a visible non-ASCII label that encodes back
    to it (the stdlib's punycode codec)."""
    try:
        label = code.encode("ascii").decode("punycode")
    except UnicodeError:
        return False
    if label.isascii() or url_character_problem(label) is not None or not label.isprintable():
        return False
    return label.encode("punycode") == code.encode("ascii")
