"""`github_text` (generator/encoders.py): a data value in a comment GitHub renders shows as
itself and GitHub links, mentions and draws nothing in it.

GitHub finds `@user`, `#123`, `GH-123`, `:emoji:`, `www.` and `scheme:` URLs and e-mail
addresses in the text nodes of the rendered comment, after CommonMark has decoded escapes
and character references (so `\\@` and `&#64;` still notify: github/cmark-gfm#181). The
check here renders with a CommonMark parser (markdown-it-py) and reads every text node as
GitHub's finders would.
"""

from __future__ import annotations

import re

from hypothesis import example, given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from markdown_it.token import Token

from generator.encoders import github_text

MARKDOWN = MarkdownIt("commonmark").enable(["table", "strikethrough"])
HOSTILE = [
    "@octocat",
    "cc @github/security-team please",
    "fixes #1 and #123, owner/repo#7, GH-42",
    ":tada: :+1: :shipit:",
    "www.evil.example/path",
    "WWW.Evil.Example",
    "https://evil.example/?q=1",
    "mailto:someone@example.com",
    "x@example.com",
    "<img src=x onerror=alert(1)>",
    "<!-- hidden --> [link](https://evil.example)",
    "&#64;octocat &commat;octocat",
    "fixed in 1e6d096 and a94a8fe5ccb19ba61c4c0873d391e987982fbbd3",
    "octocat@1e6d096, octocat/repo@DEADBEEF1, (cafe123).",
]
TRICKS = st.sampled_from(
    [*HOSTILE, "@", "#", ":", "www", ".", "gh-", "1", " ", "\n", "\\", "<", "a", "1234567"]
)
TEXT = st.lists(st.one_of(TRICKS, st.text(max_size=6)), max_size=10).map("".join)
# What GitHub would link or draw, if it were in one text node.
# A commit SHA: 7 to 40 hex digits, one a letter, as a word of its own (a text node starts
# one: `@<!-- -->1e6d096` would link the commit).
GITHUB_FINDS = re.compile(
    r"(?i)[@:#].|www\.|(?<![a-z0-9])gh-\d"
    r"|(?<![a-z0-9])(?=[0-9]*[a-f])[0-9a-f]{7,40}(?![a-z0-9])"
)


def _text_nodes(markdown: str) -> list[str]:
    """The rendered text nodes of one line; fails on any element but the empty comment."""
    (paragraph_open, inline, paragraph_close) = MARKDOWN.parse(markdown)
    assert (paragraph_open.type, paragraph_close.type) == ("paragraph_open", "paragraph_close")
    children: list[Token] = inline.children or []
    nodes = []
    for child in children:
        if child.type == "html_inline":
            assert child.content == "<!-- -->", markdown
            nodes.append("")
        else:
            assert child.type == "text", (child.type, markdown)
            nodes.append(child.content)
    return nodes


def _shown(text: str) -> str:
    """One line, ends trimmed (`markdown_text`'s rules)."""
    return re.sub("[\r\n\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]+", " ", text).strip()


@settings(deadline=None, max_examples=300)
@given(TEXT)
@example("@octocat")
def test_github_text_shows_the_text_and_github_finds_nothing_to_link(text: str) -> None:
    shown = _shown(text.replace("\x00", "\ufffd"))
    out = github_text(text)
    if not shown:
        assert MARKDOWN.render(out) == ""
        return
    nodes = _text_nodes(out)
    assert "".join(nodes) == shown  # literally the text: no invisible character added
    for node in nodes:
        assert not GITHUB_FINDS.search(node), (text, node)


def test_each_hostile_string_shows_literally_and_pings_no_one() -> None:
    for text in HOSTILE:
        nodes = _text_nodes(github_text(text))
        assert "".join(nodes) == text
        assert not any(GITHUB_FINDS.search(node) for node in nodes), text
    assert github_text("@octocat") == "@<!-- -->octocat"
    assert github_text("1e6d096") == "1<!-- -->e6d096"
    assert github_text("a@cafe1234") == "a@<!-- -->c<!-- -->afe123<!-- -->4"
    assert github_text("1234567 abcdefgh") == "1234567 abcdefgh"  # no SHA: digits, a g
    assert github_text("list_models 1.5") == "list_models 1.5"  # plain text stays plain
