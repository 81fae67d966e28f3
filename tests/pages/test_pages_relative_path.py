"""`relative_path` is `posixpath.relpath` for site paths, minus the getcwd calls."""

from __future__ import annotations

import posixpath

from hypothesis import given
from hypothesis import strategies as st

from generator.pages.links import relative_path

PART = st.sampled_from(["models", "gpt-5", "a.b", "index.html", "rankings", "x", ".", "..", ""])
PATH = st.lists(PART, max_size=5).map("/".join)


@given(path=PATH, start=PATH, lead_path=st.booleans(), lead_start=st.booleans())
def test_same_as_relpath(path: str, start: str, lead_path: bool, lead_start: bool) -> None:
    path = ("/" if lead_path else "") + (path or ".")
    start = ("/" if lead_start else "") + (start or ".")
    if path.startswith("/") != start.startswith("/"):
        return  # relpath mixes in the working directory: not a case pages produce
    assert relative_path(path, start) == posixpath.relpath(path, start)


def test_examples() -> None:
    assert relative_path("models/gpt-5/", "rankings/composite-iq") == "../../models/gpt-5"
    assert relative_path("rankings/composite-iq", "rankings/composite-iq") == "."
    assert relative_path("index.html", ".") == "index.html"
