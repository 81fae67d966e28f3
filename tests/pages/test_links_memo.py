"""Hrefs shared by the pages of one class give the hrefs and anchors each page would make alone.

`generator/pages/links.py` keeps a target's href for every page of one folder depth and
first folder when the target shares no first folder with them. A memo that kept a
page-specific href would publish a wrong link on the next page; these tests compare a
memoised run against fresh Linkers over many pages and targets, and check that the
comparison catches a memo that keeps too much.
"""

from __future__ import annotations

from collections.abc import Callable

import markupsafe
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.pages import links
from generator.pages.links import Hrefs, Linker, page_class

BASE = "https://scores.example"
FOLDER = st.sampled_from(["models", "history", "rankings", "a", "x.y", "index.html", ".", ".."])
PAGE = st.lists(FOLDER, max_size=3).map(lambda parts: "/".join([*parts, "index.html"]))
TARGET = st.one_of(
    st.tuples(
        st.lists(st.sampled_from(["models", "history", "a", "b", ".", "..", ""]), max_size=4),
        st.sampled_from(["", "/", "#top", "/#f"]),
        st.sampled_from(["", "/", BASE + "/"]),
    ).map(lambda t: t[2] + "/".join(t[0]) + t[1]),
    st.sampled_from(["#cost", "https://other.example/x", BASE, ""]),
)
TEXT = st.sampled_from(["GPT <5>", "a & b", "plain"])


def _links(memo: dict[tuple[int, str], Hrefs] | None, page: str) -> Linker:
    shared = None if memo is None else memo.setdefault(page_class(page), Hrefs())
    return Linker(BASE, page, memo=shared)


def _compare(calls: list[tuple[str, str, str, bool]]) -> list[str]:
    """The pages, in order, whose memoised href or anchor differs from a fresh Linker's."""
    memo: dict[tuple[int, str], Hrefs] = {}
    wrong = []
    for page, target, text, external in calls:
        memoised, fresh = _links(memo, page), _links(None, page)
        if memoised(target) != fresh(target):
            wrong.append(f"{page} -> {target}")
        if target and memoised.anchor(text, target, external) != fresh.anchor(
            text, target, external
        ):
            wrong.append(f"{page} -> <a> {target}")
    return wrong


CALLS = st.lists(st.tuples(PAGE, TARGET, TEXT, st.booleans()), max_size=40)


@settings(max_examples=300, deadline=None)
@given(calls=CALLS)
def test_memoised_links_are_the_links_each_page_makes_alone(
    calls: list[tuple[str, str, str, bool]],
) -> None:
    assert _compare(calls) == []


def test_a_page_with_a_dotdot_folder_takes_nothing_from_its_class() -> None:
    """`a/..` is the top folder, yet of the class of `a/b` (depth 2, first folder `a`):
    its links are worked out alone (hypothesis found this one)."""
    calls = [
        ("a/b/index.html", "x/", "x", False),  # "../../x/", kept for the class
        ("a/../index.html", "x/", "x", False),  # "x/", not the class's "../../x/"
    ]
    assert _compare(calls) == []


def test_a_memo_that_keeps_page_specific_hrefs_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison has teeth: keep every href (a stale one for pages of another folder)
    and it finds the wrong link."""
    always: Callable[[Linker, str], bool] = lambda _self, _target: True  # noqa: E731
    monkeypatch.setattr(Linker, "shared", always)
    calls = [
        ("models/a/index.html", "models/a/", "a", False),  # "./" from its own page
        ("models/c/index.html", "models/a/", "a", False),  # same class: "../a/"
    ]
    assert _compare(calls) == [
        "models/c/index.html -> models/a/",
        "models/c/index.html -> <a> models/a/",
    ]


def test_shared_targets_are_the_ones_outside_the_pages_first_folder() -> None:
    memo = Hrefs()
    first = Linker(BASE, "models/a/index.html", memo=memo)
    assert first("history/2025-01-31/") == "../../history/2025-01-31/"
    assert first("models/b/") == "../b/"
    assert first(BASE + "/rankings/x/#top") == "../../rankings/x/#top"
    assert memo.hrefs == {
        "history/2025-01-31/": "../../history/2025-01-31/",
        BASE + "/rankings/x/#top": "../../rankings/x/#top",
    }
    second = Linker(BASE, "models/c/index.html", memo=memo)
    assert second("models/b/") == "../b/"
    assert second("models/c/") == "./"


def test_a_markup_text_never_takes_a_plain_texts_anchor() -> None:
    """Markup("<b>x</b>") == "<b>x</b>" as strings, but only the str is escaped."""
    memo = Hrefs()
    link = Linker(BASE, "history/d/index.html", memo=memo)
    plain = link.anchor("<b>x</b>", "models/x/")
    assert plain == '<a href="../../models/x/">&lt;b&gt;x&lt;/b&gt;</a>'
    marked = link.anchor(markupsafe.Markup("<b>x</b>"), "models/x/")
    assert marked == '<a href="../../models/x/"><b>x</b></a>'
    assert link.anchor("<b>x</b>", "models/x/") == plain


def test_the_memo_stops_growing_at_its_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(links, "MEMO_LIMIT", 2)
    memo = Hrefs()
    link = Linker(BASE, "history/d/index.html", memo=memo)
    hrefs = [link(f"models/m{i}/") for i in range(5)]
    assert hrefs == [f"../../models/m{i}/" for i in range(5)]
    assert len(memo.hrefs) == 2
