"""Which characters a text value in data/ may hold, and how to name one that it may not.

Every text value and key refuses control characters (C0 but tab, line feed and carriage
return; DEL; C1), surrogates and non-characters (U+FDD0..U+FDEF and the last two code
points of every plane, U+FFFE and U+FFFF among them): none is XML, none belongs in
interchanged text. A one-line field (a name, a provider, a title, a label, a source name)
also refuses every line break (U+2028 and U+2029 included), tab, bidi control and
invisible format character (zero-width spaces and joiners, the byte order mark, soft
hyphen, tag characters: Unicode's `Cf` category) and the Hangul fillers that render as
blank: such a field is printed in a single line, a table cell or an agent's summary, where
these could add a line or make one name look like another. For the same reason it refuses
the other default-ignorable code points (variation selectors, the combining grapheme
joiner, ...), the blank Braille pattern, every space but U+0020, and a value that is empty
or starts or ends with a space. A URL (a source's link, which a reader follows) refuses the
same characters as a one-line field, and every space: `example.org/\u202egpj.exe` reads
as `example.org/exe.jpg` (its host: `generator/input/urls.py`).
"""

from __future__ import annotations

import re

_NONCHARACTERS = "\ufdd0-\ufdef" + "".join(
    f"{chr(plane << 16 | 0xFFFE)}{chr(plane << 16 | 0xFFFF)}" for plane in range(17)
)
_CONTROLS = "\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f"
_SURROGATES = "\ud800-\udfff"
NOT_IN_TEXT = re.compile(f"[{_CONTROLS}{_SURROGATES}{_NONCHARACTERS}]")
"""Characters no text value or key may hold."""
_ASCII_NOT_IN_TEXT = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
"""The characters of `NOT_IN_TEXT` that are ASCII."""


def has_forbidden(text: str) -> bool:
    """Whether `text` holds a character of `NOT_IN_TEXT`. An ASCII text is searched for the
    ASCII ones only: the whole class (a pair of non-characters in every plane) costs about
    60 ns a character, the ASCII one 7 (tests/input/test_text_rules.py compares the two)."""
    if text.isascii():
        return _ASCII_NOT_IN_TEXT.search(text) is not None
    return NOT_IN_TEXT.search(text) is not None


_BREAKS = "\t\n\r\x0b\x0c\x1c-\x1e\x85\u2028\u2029"
_BIDI = "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
# Unicode 14's `Cf` (format) characters besides the bidi controls, plus U+13439..U+1343F
# (`Cf` from Unicode 15); tests/input/test_text_rules.py checks the list against unicodedata.
_FORMAT = (
    "\u00ad\u0600-\u0605\u06dd\u070f\u0890\u0891\u08e2\u180e\u200b-\u200d\u2060-\u2064"
    "\u206a-\u206f\ufeff\ufff9-\ufffb\U000110bd\U000110cd\U00013430-\U0001343f"
    "\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0001\U000e0020-\U000e007f"
)
_BLANK = "\u115f\u1160\u3164\uffa0\u2800"  # Hangul fillers, the blank Braille pattern
# Unicode's Default_Ignorable_Code_Point besides the `Cf` above (drawn as nothing when not
# understood): the combining grapheme joiner, Khmer inherent vowels, Mongolian variation
# selectors, variation selectors and their supplement, and the reserved ignorable ranges.
_IGNORABLE = "\u034f\u17b4\u17b5\u180b-\u180f\u2065\ufe00-\ufe0f\ufff0-\ufff8\U000e0000-\U000e0fff"
_SPACES = "\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000"  # white space but U+0020
_NOT_IN_LINE = (
    f"{_CONTROLS}{_SURROGATES}{_NONCHARACTERS}{_BREAKS}{_BIDI}{_FORMAT}{_BLANK}{_IGNORABLE}"
    f"{_SPACES}"
)
_LINE = f"[^{_NOT_IN_LINE} ](?:[^{_NOT_IN_LINE}]*[^{_NOT_IN_LINE} ])?"
_ASCII_LINE = "[!-~](?:[ -~]*[!-~])?"  # the same rule for printable ASCII (never refused)
LINE_PATTERN = f"\\A(?:{_ASCII_LINE}|{_LINE})\\Z"
"""A one-line field's whole value (a msgspec pattern: matched with `re.search`): not empty,
no space at either end, no character of `_NOT_IN_LINE` anywhere. Printable ASCII is tried
first: it matches the same values, 4 to 13 times as fast (the class of `_LINE` costs about
60 ns a character; tests/input/test_fast_patterns.py compares the two)."""
_NOT_IN_LINE_RE = re.compile(f"[{_NOT_IN_LINE}]")
NOT_IN_URL = f"\\s{_NOT_IN_LINE}"
"""Characters a URL may not hold (a class's contents: white space and `_NOT_IN_LINE`)."""

_TEXT_KINDS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(f"[{chars}]"), kind)
    for chars, kind in (
        (_CONTROLS, "control character"),
        (_SURROGATES, "surrogate"),
        (_NONCHARACTERS, "non-character"),
    )
)
_LINE_KINDS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(f"[{_BREAKS}]"), "line break or tab"),
    *_TEXT_KINDS,
    (re.compile(f"[{_BIDI}]"), "bidi control"),
    (re.compile(f"[{_FORMAT}]"), "invisible format character"),
    (re.compile(f"[{_BLANK}]"), "blank filler character"),
    (re.compile(f"[{_IGNORABLE}]"), "invisible character"),
    (re.compile(f"[{_SPACES}]"), "white space character"),
)


def _describe(char: str, kinds: tuple[tuple[re.Pattern[str], str], ...]) -> str:
    """`bidi control U+202E`: the kind of a refused character and its code point."""
    kind = next((kind for chars, kind in kinds if chars.match(char)), "character")
    return f"{kind} U+{ord(char):04X}"


def text_problem(text: str) -> str | None:
    """The problem of a text value or key holding a character no text may hold, e.g.
    `non-character U+FFFE in text`."""
    bad = NOT_IN_TEXT.search(text)
    return None if bad is None else f"{_describe(bad[0], _TEXT_KINDS)} in text"


def line_problem(text: str) -> str | None:
    """The problem of a one-line field's value, e.g. `bidi control U+202E in a one-line
    field`; None when the value is fine."""
    bad = _NOT_IN_LINE_RE.search(text)
    if bad is not None:
        return f"{_describe(bad[0], _LINE_KINDS)} in a one-line field"
    if not text.strip(" "):
        return "blank value in a one-line field"
    if text != text.strip(" "):
        return "space at the start or end of a one-line field"
    return None


def url_character_problem(text: str) -> str | None:
    """The problem of a URL holding a character a one-line field may not hold, e.g. `bidi
    control U+202E in a URL`; None otherwise (its form is `generator/input/urls.py`'s)."""
    bad = _NOT_IN_LINE_RE.search(text)
    return None if bad is None else f"{_describe(bad[0], _LINE_KINDS)} in a URL"
