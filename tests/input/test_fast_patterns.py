"""The one-line and URL patterns (`generator/input/text.py`, `generator/input/urls.py`) try
printable ASCII first; they must accept exactly what the single-class patterns did.

`OLD_LINE` and `OLD_URL` below are the patterns as they were. Both are matched against every
code point (alone, inside a value, at either end, after a URL's path) and generated texts
mixing ASCII, spaces, breaks and the refused characters.
"""

from __future__ import annotations

import re
import sys

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.input.records import Line, Url
from generator.input.text import _NOT_IN_LINE, LINE_PATTERN, NOT_IN_URL
from generator.input.urls import _IPV4, _NAME, _PORT, URL_PATTERN

OLD_LINE = re.compile(f"\\A[^{_NOT_IN_LINE} ](?:[^{_NOT_IN_LINE}]*[^{_NOT_IN_LINE} ])?\\Z")
OLD_URL = re.compile(f"\\Ahttps?://(?:{_IPV4}|{_NAME}){_PORT}(?:[/?#][^{NOT_IN_URL}]*)?\\Z")
NEW_LINE = re.compile(LINE_PATTERN)
NEW_URL = re.compile(URL_PATTERN)


def _same(text: str) -> None:
    assert bool(NEW_LINE.search(text)) == bool(OLD_LINE.search(text)), repr(text)
    url = f"https://example.org/{text}"
    assert bool(NEW_URL.search(url)) == bool(OLD_URL.search(url)), repr(url)


def _edges() -> set[int]:
    """Every code point below U+0800 (ASCII, Latin-1, C1), and each character named in the
    refused class with its neighbours: where a class's answer can change."""
    named = {ord(char) for char in _NOT_IN_LINE}
    return {*range(0x800), *(code + step for code in named for step in (-1, 0, 1))}


def test_code_points_alone_inside_and_at_either_end() -> None:
    for code in sorted(_edges()):
        if 0 <= code <= sys.maxunicode:
            char = chr(code)
            for text in (char, f"a{char}b", f"{char}ab", f"ab{char}", f"a {char}"):
                _same(text)


ALPHABET = st.one_of(
    st.characters(min_codepoint=0x20, max_codepoint=0x7E),
    st.sampled_from(["\t", "\n", "\x7f", "\x85", "\u00a0", "\u202e", "\u200b", "\ufffe", "é"]),
    st.characters(codec="utf-8"),
)


@settings(max_examples=2000, deadline=None)
@given(st.text(alphabet=ALPHABET, max_size=12))
def test_generated_texts_match_as_before(text: str) -> None:
    _same(text)


def test_the_record_fields_use_the_patterns() -> None:
    # a one-line field and a URL field refuse and accept through them
    assert msgspec.convert("GPT-4.1 mini", type=Line) == "GPT-4.1 mini"
    assert msgspec.convert("https://example.org/a?b=1#c", type=Url)
    for bad_line in ("GPT-4.1 ", "GPT\u202e-4.1", ""):
        assert not NEW_LINE.search(bad_line)
    assert not NEW_URL.search("https://example.org/a b")
