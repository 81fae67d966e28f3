"""One encoder per output format: any text in, text that format cannot misread out.

Data values come from strangers (`SECURITY.md`). Validation already refuses most hostile
text, but each output format has its own injection rules, so every text value that reaches
a CSV cell, an XML document or a Markdown line goes through the encoder of that format:

- `csv_cell`: a cell a spreadsheet would read as a formula (one starting with `=`, `+`,
  `-`, `@`, their full-width forms, a tab or a carriage return, or any of those after
  leading white space) gets a leading `'`, as OWASP's CSV-injection guide recommends.
  `csv_number` writes a number (never `-0`). Quoting is left to the `csv` module.
- `xml_chars`: only XML 1.0 characters (anything else becomes U+FFFD), for a serialiser
  that escapes markup itself (ElementTree); `xml_text` and `xml_attr` also escape markup
  (and the white space a parser would normalise), for XML written as text (SVG).
- `markdown_text`: one line of inline Markdown (CommonMark with GitHub's extensions) that
  renders as exactly the given text: no line break, no emphasis, link, image, code, HTML,
  entity, table cell, heading, list or quote, no math, and no `@mention` that would notify
  someone on GitHub.
- `github_text`: the same line for a comment GitHub renders (the diff report), where GitHub
  also links, after parsing, what its text holds: `@user` (a notification), `#123`,
  `GH-123`, `:emoji:`, `www.` and `scheme:` URLs and e-mail addresses. An empty HTML comment
  (`<!-- -->`) splits each such word, so it shows literally, links nothing and pings no one.

A leaf module: it imports nothing from the generator, so every stage may use it.
"""

from __future__ import annotations

import math
import re

# --- CSV -------------------------------------------------------------------------

FORMULA_STARTS = frozenset("=+-@\t\r\uff1d\uff0b\uff0d\uff20")
"""First characters that make a spreadsheet evaluate a cell (OWASP, plus the full-width
forms some spreadsheets fold to ASCII)."""


PLAIN_STARTS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
"""First characters after which no text is a formula (none is a formula character or white
space): a writer may pass such a cell as it is without asking `is_formula`."""


def is_formula(cell: str) -> bool:
    """Whether a spreadsheet could read `cell` as a formula: it starts with a formula
    character, or white space and then one."""
    return cell[:1] in FORMULA_STARTS or cell.lstrip()[:1] in FORMULA_STARTS


def csv_cell(text: str) -> str:
    """`text` for a CSV cell: prefixed with `'` when it could start a formula."""
    return "'" + text if is_formula(text) else text


def csv_number(value: float | int) -> str:
    """A number for a CSV cell (`repr` of a float, so it reads back exactly); `-0.0` is `0.0`."""
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"cannot publish {value} as a number")
        return repr(value + 0.0)  # -0.0 + 0.0 == 0.0
    return str(value)


# --- XML -------------------------------------------------------------------------

_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
"""Anything outside XML 1.0's `Char` production."""
REPLACEMENT = "\ufffd"
_XML_TEXT = {"&": "&amp;", "<": "&lt;", ">": "&gt;", "\r": "&#13;"}
_XML_ATTR = {**_XML_TEXT, '"': "&quot;", "'": "&#x27;", "\t": "&#9;", "\n": "&#10;"}
_XML_TEXT_RE = re.compile("[&<>\r]")
_XML_ATTR_RE = re.compile("[&<>\r\"'\t\n]")


def xml_chars(text: str) -> str:
    """`text` with every character XML 1.0 cannot hold replaced by U+FFFD."""
    return _NOT_XML.sub(REPLACEMENT, text)


def xml_text(text: str) -> str:
    """`text` as XML character data: only XML characters, markup and CR escaped."""
    return _XML_TEXT_RE.sub(lambda m: _XML_TEXT[m[0]], xml_chars(text))


def xml_attr(text: str) -> str:
    """`text` as a quoted XML attribute value (either quote), kept exactly by a parser:
    white space a parser would normalise is written as a character reference."""
    return _XML_ATTR_RE.sub(lambda m: _XML_ATTR[m[0]], xml_chars(text))


# --- Markdown --------------------------------------------------------------------

LINE_BREAKS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
"""Every character `str.splitlines` splits at."""
_BREAKS = re.compile(f"[{re.escape(LINE_BREAKS)}]+")
_MARKDOWN_PUNCTUATION = re.compile(r"([\\`*\[\]<>#|~$&!]|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9]))")
_LEADING_MARKER = re.compile(r"\A(?:[-+=]|\d{1,9}(?=[.)]))")
MENTION_BREAK = "&#8203;"
"""A zero-width space after `@`: GitHub links and notifies no one for `@&#8203;name`."""


def markdown_text(text: str) -> str:
    """`text` as one line of inline Markdown that renders as the text itself.

    Line breaks become spaces and white space at either end is dropped (Markdown drops it
    too, and leading spaces could start a code block); every ASCII punctuation character
    that can start a construct is backslash-escaped (but `_` between two ASCII letters or
    digits, which never delimits emphasis: `list_models` stays readable), as is a leading
    list, heading or setext marker; `@` is followed by a zero-width space.
    """
    return _markdown_line(text).replace("@", "@" + MENTION_BREAK)


def _markdown_line(text: str) -> str:
    """`text` as one line of inline Markdown, every construct escaped (but `@`)."""
    line = _BREAKS.sub(" ", text).strip()
    line = _MARKDOWN_PUNCTUATION.sub(r"\\\1", line)
    marker = _LEADING_MARKER.match(line)
    if marker is not None:
        end = marker.end()
        line = "\\" + line if not line[0].isdigit() else line[:end] + "\\" + line[end:]
    return line


WORD_BREAK = "<!-- -->"
"""An empty HTML comment: GitHub renders nothing for it, and it ends the text node that its
mention, reference, emoji and link finders read, so `@<!-- -->user` is `@user`, unlinked."""
_GITHUB_WORDS = re.compile(
    r"(?i)(?P<sha>(?<![a-z0-9])(?=[0-9]*[a-f])[0-9a-f]{7,40}(?![a-z0-9]))"
    r"|[@:#]|(?<![a-z0-9])gh-|www(?=\.)"
)
"""Where GitHub would start a link in text: after `@` (mentions, teams, e-mail), `:`
(emoji, `https:`, `mailto:`), `#` (`#123`, `owner/repo#123`), `GH-` (`GH-123`), and
between `www` and its dot (GFM's `www.` autolinks); and a word of 7 to 40 hex digits with
a letter among them (a commit SHA, alone or as `user@sha`, `repo@sha`). HTML character
references such as `&#64;` do not help: GitHub decodes them before it looks."""
_SHA_PIECE = 6
"""A SHA is cut after its first character and then every 6: no piece is 7 long."""


def _github_break(match: re.Match[str]) -> str:
    sha = match["sha"]
    if sha is None:
        return match[0] + WORD_BREAK
    pieces = [sha[0], *(sha[i : i + _SHA_PIECE] for i in range(1, len(sha), _SHA_PIECE))]
    return WORD_BREAK.join(pieces)


def github_text(text: str) -> str:
    """`text` as one line of Markdown for a GitHub comment: `markdown_text`'s escapes, and
    every place where GitHub would link, mention or draw an emoji broken by `WORD_BREAK`."""
    return _GITHUB_WORDS.sub(_github_break, _markdown_line(text))
