"""The pages' Jinja machinery does what Jinja's own does, quicker.

`generator/pages/render.py` rebinds `escape` in the compiled templates' modules to a
quicker function for plain str and int values (autoescaping must not change at all), and
its Context calls links and built-in methods directly (a callable that asks for the
context must still get it).
"""

from __future__ import annotations

import datetime
import enum
from typing import Any

import jinja2
import markupsafe
from hypothesis import given
from hypothesis import strategies as st

from generator.pages import render
from generator.pages.links import Linker


class _Html:
    def __html__(self) -> str:
        return "<b>kept</b>"


class _Text(str):
    pass


class _Level(enum.IntEnum):
    HIGH = 3


class _StrProxy:
    """Reports str as its class (as proxies do) but prints through its own `__html__`."""

    @property  # type: ignore[misc]
    def __class__(self) -> type:
        return str

    def __html__(self) -> str:
        return "<b>proxied</b>"


class _IntProxy(_StrProxy):
    @property  # type: ignore[misc]
    def __class__(self) -> type:
        return int


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
    st.just(_StrProxy()),
    st.just(_IntProxy()),
)


@given(value=VALUES)
def test_escape_is_markupsafes(value: Any) -> None:
    ours, theirs = render.escape(value), markupsafe.escape(value)
    assert ours == theirs and type(ours) is type(theirs) is markupsafe.Markup


def test_a_proxy_reporting_str_or_int_keeps_its_html() -> None:
    """markupsafe picks by type(), not __class__, which a proxy can report falsely."""
    assert render.escape(_StrProxy()) == markupsafe.Markup("<b>proxied</b>")
    assert render.escape(_IntProxy()) == markupsafe.Markup("<b>proxied</b>")


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


def test_calls_that_ask_for_the_context_still_get_it() -> None:
    env = render._environment()

    @jinja2.pass_context
    def who(context: Any) -> str:
        return str(context["name"])

    page = "{{ who() }} {{ day.isoformat() }} {{ names.get('a') }} {{ link('x/') }}"
    html = env.from_string(page).render(
        who=who,
        name="<ctx>",
        day=datetime.date(2025, 1, 31),
        names={"a": "&"},
        link=Linker("https://s.example", "models/m/index.html"),
    )
    assert html == "&lt;ctx&gt; 2025-01-31 &amp; ../../x/"
