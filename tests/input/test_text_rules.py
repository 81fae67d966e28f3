"""Which characters a text value and a one-line field may hold (generator/input/text.py),
checked against Unicode's own tables (unicodedata), not against the module's lists."""

from __future__ import annotations

import json
import re
import sys
import unicodedata

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.input.decode import decode
from generator.input.records import BenchmarkResultRecord, ChartRecord, Line, Url
from generator.input.text import LINE_PATTERN, line_problem, text_problem
from generator.input.urls import is_source_url, url_problem
from generator.input.validate import folded_name

NONCHARACTERS = [
    *range(0xFDD0, 0xFDF0),
    *(plane << 16 | low for plane in range(17) for low in (0xFFFE, 0xFFFF)),
]


def format_characters() -> list[int]:
    """Every code point of category Cf (a scan of all of Unicode: in the test, not at import)."""
    return [c for c in range(sys.maxunicode + 1) if unicodedata.category(chr(c)) == "Cf"]


def test_every_non_character_is_refused_in_any_text() -> None:
    assert len(NONCHARACTERS) == 66
    for code in NONCHARACTERS:
        assert text_problem(f"a{chr(code)}b") == f"non-character U+{code:04X} in text"


def test_every_format_character_bidi_control_and_line_separator_is_refused_in_a_line() -> None:
    found = format_characters()
    assert {0x200B, 0x200D, 0x202E, 0x2066, 0x2069, 0xFEFF, 0xE0041} <= set(found)
    for code in [*found, 0x2028, 0x2029, 0x85, 0x0A, 0x0D, 0x09, 0x0B, 0x0C, 0x1C, 0x3164]:
        problem = line_problem(f"x{chr(code)}y")
        assert problem is not None and f"U+{code:04X} in a one-line field" in problem
    assert line_problem("x\u202ey") == "bidi control U+202E in a one-line field"
    assert line_problem("x\u200by") == "invisible format character U+200B in a one-line field"


@settings(deadline=None, max_examples=500)
@given(st.text(max_size=30))
def test_a_line_that_passes_is_one_visible_line(text: str) -> None:
    if line_problem(text) is None:
        assert len(text.splitlines()) <= 1 and "\t" not in text
        assert not any(unicodedata.category(c) in ("Cc", "Cf", "Cs", "Zl", "Zp") for c in text)
        assert text_problem(text) is None
        assert text.strip() == text != ""
        assert not any(unicodedata.category(c) == "Zs" and c != " " for c in text)
        assert not any(ord(c) in DEFAULT_IGNORABLE for c in text)
    # the msgspec pattern and the function agree
    try:
        msgspec.convert(text, type=Line)
        matched = True
    except msgspec.ValidationError:
        matched = False
    assert matched == (line_problem(text) is None) == bool(re.search(LINE_PATTERN, text))


DEFAULT_IGNORABLE = frozenset(
    code
    for low, high in [  # Unicode 15 DerivedCoreProperties.txt, Default_Ignorable_Code_Point
        (0x00AD, 0x00AD),
        (0x034F, 0x034F),
        (0x061C, 0x061C),
        (0x115F, 0x1160),
        (0x17B4, 0x17B5),
        (0x180B, 0x180F),
        (0x200B, 0x200F),
        (0x202A, 0x202E),
        (0x2060, 0x206F),
        (0x3164, 0x3164),
        (0xFE00, 0xFE0F),
        (0xFEFF, 0xFEFF),
        (0xFFA0, 0xFFA0),
        (0xFFF0, 0xFFF8),
        (0x1BCA0, 0x1BCA3),
        (0x1D173, 0x1D17A),
        (0xE0000, 0xE0FFF),
    ]  # fmt: skip
    for code in range(low, high + 1)
)


def test_every_default_ignorable_code_point_and_odd_space_is_refused_in_a_line() -> None:
    """Look-alikes of a name: `GPT-4.1` with an invisible mark, a variation selector, a
    fixed-width space or the blank Braille pattern (red-team round 4: each built)."""
    spaces = [c for c in range(sys.maxunicode + 1) if unicodedata.category(chr(c)) == "Zs"]
    assert 0xA0 in spaces and 0x3000 in spaces and 0x20 in spaces
    for code in [*DEFAULT_IGNORABLE, *(c for c in spaces if c != 0x20), 0x2800]:
        for text in (f"GPT-4.1{chr(code)}", f"{chr(code)}GPT-4.1", f"GPT{chr(code)}-4.1"):
            problem = line_problem(text)
            assert problem is not None and f"U+{code:04X} in a one-line field" in problem
            assert not re.search(LINE_PATTERN, text)


@pytest.mark.parametrize("text", ["", " ", "  ", "GPT-4.1 ", " GPT-4.1", "\u3000", "\u2800"])
def test_blank_and_padded_values_are_refused_in_a_line(text: str) -> None:
    assert line_problem(text) is not None
    assert not re.search(LINE_PATTERN, text)


def test_names_alike_to_a_reader_fold_to_one() -> None:
    alike = ["GPT-4.1", "gpt-4.1", "\uff27\uff30\uff34-4.1", "GPT-4.\u00b9"]
    assert {folded_name(name) for name in alike} == {"gpt-4.1"}
    assert folded_name("Alpha   1") == folded_name("ALPHA 1") != folded_name("Alpha 2")


def test_ordinary_names_in_many_scripts_are_one_line() -> None:
    names = ["GPT-5.5 (high)", "Qwen3-235B-A22B", "ERNIE 4.5 文心", "Jamba 1.5 Ἀ",
             "DeepSeek-R1 «Zero»", "عربي", "עברית", "Ünïcødé – dash"]  # fmt: skip
    for name in names:
        assert line_problem(name) is None, name


@pytest.mark.parametrize(
    ("record", "raw", "expected"),
    [
        (
            ChartRecord,
            {"id": "c", "title": "a\u2028b", "description": "ok\nand more", "kind": "frontier"},
            ("title", 'line break or tab U+2028 in a one-line field (value: "a\u2028b")'),
        ),
    ],
)
def test_the_decoder_names_the_field_and_the_code_point(
    record: type[msgspec.Struct], raw: dict[str, object], expected: tuple[str, str]
) -> None:
    assert decode(raw, record).problems == [expected]


def test_a_multi_line_description_keeps_its_line_breaks() -> None:
    raw = {"id": "c", "title": "t", "description": "one\ntwo\u2028three", "kind": "frontier"}
    assert decode(raw, ChartRecord).problems == []


@settings(deadline=None, max_examples=500)
@given(st.text(max_size=20))
def test_a_url_that_passes_holds_only_visible_characters(tail: str) -> None:
    """A source URL refuses what a one-line field refuses, and every space; the decoder's
    pattern and `url_problem` agree."""
    url = f"https://example.org/{tail}"
    try:
        msgspec.convert(url, type=Url)
        matched = True
    except msgspec.ValidationError:
        matched = False
    assert matched == (url_problem(url) is None and not any(c.isspace() for c in url))
    if matched:
        assert not any(unicodedata.category(c) in ("Cc", "Cf", "Cs", "Zl", "Zp", "Zs") for c in url)
        assert not any(ord(c) in DEFAULT_IGNORABLE for c in url)


def test_the_decoder_names_a_url_field_and_its_bidi_control() -> None:
    result = {
        "benchmark": "gpqa-diamond",
        "value": 0.5,
        "source_name": "s",
        "source_url": "https://example.org/\u202egpj.exe",
        "as_of": "2026-01-15",
    }
    expected = 'bidi control U+202E in a URL (value: "https://example.org/\u202egpj.exe")'
    assert decode(result, BenchmarkResultRecord).problems == [("source_url", expected)]
    result["source_url"] = "https://example.org/gpqa"
    assert decode(result, BenchmarkResultRecord).problems == []


@pytest.mark.parametrize(
    ("url", "problem"),
    [
        ("https://good.example@evil.example/", 'user info "good.example@"'),
        ("https://user:pass@example.org/x", 'user info "user:pass@"'),
        ("https://a@b@evil.example", 'user info "a@b@" before a URL\'s host (the link goes to'),
        ("https://ex\u0430mple.org/", "non-ASCII U+0430 in a URL's host"),
        ("https://\u4f8b\u3048.jp/", "non-ASCII U+4F8B in a URL's host"),
        ("https://\uff45xample.org/", "non-ASCII U+FF45 in a URL's host"),  # fullwidth e
        ("https://evil.example\\good.example/", "'\\' in a URL's host"),
        ("https://good.example%40evil.example/", "'%' in a URL's host"),
        ("https:///path", "no host in a URL"),
        ("https://example.org:80x/", 'bad port "80x" in a URL (a port is 1 to 65535'),
    ],
)
def test_a_url_whose_text_is_not_where_it_goes_is_refused(url: str, problem: str) -> None:
    with pytest.raises(msgspec.ValidationError):
        msgspec.convert(url, type=Url)
    found = url_problem(url)
    assert found is not None and found.startswith(problem), found


@pytest.mark.parametrize(
    "url",
    [
        "https://medium.com/@user/post",  # an @ in the path, query or fragment is no user info
        "https://example.org/x?by=@user#@top",
        "https://example.org?q=a@b",
        "https://xn--80ak6aa92e.com/",  # punycode: what the reader sees is where it goes
        "https://Example.ORG:8443/a_b",
        "http://[2001:db8::1]:8080/x",
        "https://example.org",
        "https://example.org/\u4f8b\u3048",  # non-ASCII stays allowed in the path
    ],
)
def test_a_url_whose_host_reads_as_written_passes(url: str) -> None:
    assert _url_problems(url) == []
    assert url_problem(url) is None and is_source_url(url)


@settings(deadline=None, max_examples=500)
@given(st.text(alphabet=st.sampled_from("aZ0195xXn.-_:@[]%\\/?#\u0430\uff45"), max_size=16))
def test_the_url_pattern_and_url_problem_agree_on_hosts(authority: str) -> None:
    """Whatever follows `https://`, the decoder's pattern refuses exactly what `url_problem`
    names (so every refusal gets its own line, never only the pattern's)."""
    url = f"https://{authority}"
    try:
        msgspec.convert(url, type=Url)
        matched = True
    except msgspec.ValidationError:
        matched = False
    problem = url_problem(url)
    assert not matched or problem is None, problem  # the pattern: a quick yes, never a wrong one
    problems = _url_problems(url)
    assert problems == ([] if problem is None else [("source_url", _shown(problem, url))])
    assert is_source_url(url) == (problem is None)


def _url_problems(url: str) -> list[tuple[str, str]]:
    """The loader's problems with a result whose `source_url` is `url`."""
    result = {
        "benchmark": "gpqa-diamond",
        "value": 0.5,
        "source_name": "s",
        "source_url": url,
        "as_of": "2026-01-15",
    }
    decoded = decode(result, BenchmarkResultRecord)
    if not decoded.problems:
        assert decoded.record.source_url == url
    return decoded.problems


def _shown(problem: str, url: str) -> str:
    return f"{problem} (value: {json.dumps(url, ensure_ascii=False)})"


NUMERIC = "(an IPv4 address is written a.b.c.d, each 0 to 255 without leading zeros)"


@pytest.mark.parametrize(
    ("url", "problem"),
    [
        # A host whose last label is a number is an IPv4 address to a browser (WHATWG URL
        # standard): octal, hex, fewer parts and one number go elsewhere than they read.
        ("http://010.010.010.010/", f'numeric host "010.010.010.010" in a URL {NUMERIC}'),
        ("http://0x7f.1/", f'numeric host "0x7f.1" in a URL {NUMERIC}'),
        ("http://2130706433/", f'numeric host "2130706433" in a URL {NUMERIC}'),
        ("http://127.1/", f'numeric host "127.1" in a URL {NUMERIC}'),
        ("http://999.1.1.1/", f'numeric host "999.1.1.1" in a URL {NUMERIC}'),
        ("http://1.2.3.4.5/", f'numeric host "1.2.3.4.5" in a URL {NUMERIC}'),
        ("http://example.0x/", f'numeric host "example.0x" in a URL {NUMERIC}'),
        ("http://1.2.3.4./", f'numeric host "1.2.3.4." in a URL {NUMERIC}'),
        ("http://a.example:65536/", 'bad port "65536" in a URL (a port is 1 to 65535'),
        ("http://a.example:0/", 'bad port "0" in a URL (a port is 1 to 65535'),
        ("http://a.example:080/", 'bad port "080" in a URL (a port is 1 to 65535'),
        ("http://[1::2::3]/", 'bad IPv6 address "[1::2::3]" in a URL'),
        ("http://[1:2]/", 'bad IPv6 address "[1:2]" in a URL'),
        ("http://[::1]x/", 'bad host "[::1]x" in a URL'),
        ("http://xn--/", 'label "xn--" in a URL\'s host is not punycode'),
        ("http://xn--zz-zzzz.example/", 'label "xn--zz-zzzz" in a URL\'s host is not punycode'),
        ("http://xn--a.example/", 'label "xn--a" in a URL\'s host is not punycode'),
        ("http://xn--abc-.example/", 'label "xn--abc-" in a URL\'s host is not punycode'),
        ("http://./", 'label "" in a URL\'s host has no letter or digit'),
        ("http://-/", 'label "-" in a URL\'s host has no letter or digit'),
        ("http://_/", 'label "_" in a URL\'s host has no letter or digit'),
        ("http://a.-.example/", 'label "-" in a URL\'s host has no letter or digit'),
        ("http://a..example/", 'label "" in a URL\'s host has no letter or digit'),
    ],
)
def test_a_host_a_browser_reads_otherwise_or_refuses_is_refused(url: str, problem: str) -> None:
    found = url_problem(url)
    assert found is not None and found.startswith(problem), found
    assert not is_source_url(url)
    assert _url_problems(url) == [("source_url", _shown(found, url))]


@pytest.mark.parametrize(
    "url",
    [
        "http://8.8.8.8/",
        "http://0.0.0.0:1/",
        "http://255.255.255.255:65535/x",
        "http://10.1.2.3a/",  # its last label is no number: a name, as written
        "https://example.org./",  # the root's empty label at the end
        "https://a-b_c.example/",
        "https://xn--mnchen-3ya.de/",
        "https://XN--MNCHEN-3YA.example/",
        "http://[::1]/",
        "http://[::ffff:1.2.3.4]:8080/",
        "https://example.org:/x",  # an empty port is the default one
    ],
)
def test_a_host_a_browser_reads_as_written_passes(url: str) -> None:
    assert url_problem(url) is None and is_source_url(url)
    assert _url_problems(url) == []
