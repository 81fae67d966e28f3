"""The pages' `escape` is markupsafe's: the same Markup for every value a template prints.

`generator/pages/render.py` rebinds `escape` in the compiled templates' modules to a
quicker function for plain str and int values; autoescaping must not change at all.
"""

from __future__ import annotations

import enum
from typing import Any

import markupsafe
from hypothesis import given
from hypothesis import strategies as st

from generator.pages import render


class _Html:
    def __html__(self) -> str:
        return "<b>kept</b>"


class _Text(str):
    pass


class _Level(enum.IntEnum):
    HIGH = 3


VALUES = st.one_of(
    st.text(),
    st.text(alphabet="<>&'\"a1 –").map(str),
    st.integers(),
    st.floats(allow_nan=False),
    st.booleans(),
    st.none(),
    st.text(alphabet="<>&'\"a").map(markupsafe.Markup),
    st.text(alphabet="<>&'\"a").map(_Text),
    st.just(_Html()),
    st.just(_Level.HIGH),
)


@given(value=VALUES)
def test_escape_is_markupsafes(value: Any) -> None:
    ours, theirs = render.escape(value), markupsafe.escape(value)
    assert ours == theirs and type(ours) is type(theirs) is markupsafe.Markup


def test_hostile_text_is_escaped() -> None:
    assert render.escape("<script>'&\"") == "&lt;script&gt;&#39;&amp;&#34;"
    assert render.escape(-12) == "-12"


def test_every_page_template_prints_through_it() -> None:
    env = render._environment()
    names = env.list_templates()
    assert "model.html" in names and "base.html" in names and "macros.html" in names
    for name in names:
        namespace = env.get_template(name).root_render_func.__globals__
        assert namespace["escape"] is render.escape, name


def test_a_page_escapes_what_it_prints() -> None:
    env = render._environment()
    html = env.from_string("{{ a }}|{{ b }}|{{ c }}|{{ d }}").render(
        a="<i>", b=7, c=markupsafe.Markup("<i>"), d=_Text("<&>")
    )
    assert html == "&lt;i&gt;|7|<i>|&lt;&amp;&gt;"
