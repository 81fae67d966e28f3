"""Links between pages: relative hrefs from one page to any site path, shared across pages.

Pages hold hundreds of thousands of links (every history snapshot and ranking row links a
model), and the same target seen from pages of one depth and first folder has the same
href: `models/a/` from `history/2025-01-31/` and from `history/2025-02-28/` is
`../../models/a/`. `Hrefs` keeps those hrefs (and the anchors made of them) for every page
of such a class, so a link is worked out once per class instead of once per page.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import markupsafe

MEMO_LIMIT = 1 << 18
"""Entries each table of a class's memo holds at most (about 60 MB for its links, 80 MB for
a row layout's cells at the limit, reached past 260,000 models); past it links and cells
are worked out each time, the same bytes, so memory stays bounded at any catalogue size."""


def relative_path(path: str, start: str, base: list[str] | None = None) -> str:
    """`posixpath.relpath(path, start)` for relative site paths, without its two getcwd calls.

    A quarter of page rendering went to `relpath` making both paths absolute. Site paths
    are relative and clean, so the common prefix of their parts is enough; anything else
    (an absolute path, a `..` part) is left to `posixpath.relpath`. `base`: `start`'s
    parts, when the caller has them.
    """
    parts = _parts(path)
    base = _parts(start) if base is None else base
    if ".." in parts or ".." in base or path.startswith("/") or start.startswith("/"):
        return posixpath.relpath(path, start)
    common = 0
    limit = min(len(parts), len(base))
    while common < limit and parts[common] == base[common]:
        common += 1
    rel = [".."] * (len(base) - common) + parts[common:]
    return "/".join(rel) if rel else "."


def _parts(path: str) -> list[str]:
    return [p for p in path.split("/") if p and p != "."]


@dataclass
class Hrefs:
    """Hrefs and anchors, by target, for the pages of one class: one folder depth and one
    first folder. A target whose first folder is not the class's shares no folder with
    any of its pages, so its href is `../` per folder and the target's own parts, the
    same from every page of the class. Only such targets are kept (`Linker.shared`), and
    so is HTML made of them (generator/pages/rows.py): `fragments` (a model page's month row
    starts) and `cells` (a model's name and provider cells, by row layout)."""

    hrefs: dict[str, str] = field(default_factory=dict)
    anchors: dict[tuple[str, str, bool], markupsafe.Markup] = field(default_factory=dict)
    fragments: dict[Any, str] = field(default_factory=dict)
    cells: dict[str, dict[tuple[str, str, str], str]] = field(default_factory=dict)


@dataclass(frozen=True)
class Linker:
    """Turns a site path or a URL under the base URL into an href for one page.

    `memo`: the `Hrefs` of the page's class (`page_class`), shared by every Linker of
    that class; None works every link out each time (the same hrefs).
    """

    base_url: str
    page: str  # site path of the page file, e.g. "models/gpt-5/index.html"
    absolute: bool = False
    memo: Hrefs | None = field(default=None, compare=False, repr=False)

    def site_path(self, url: str) -> str | None:
        """The site path of a URL under the base URL, or None for an outside URL."""
        if "://" not in url:
            return url.lstrip("/")
        base = self.base_url.rstrip("/")
        if url == base:
            return ""
        if url.startswith(base + "/"):
            return url[len(base) + 1 :]
        return None

    def url(self, target: str) -> str:
        """The absolute public URL of a site path or URL."""
        path = self.site_path(target)
        return target if path is None else f"{self.base_url.rstrip('/')}/{path}"

    def anchor(self, text: str, url: str | None, external: bool = False) -> markupsafe.Markup:
        """`<a>` to a page (or an outside URL with `external`), or just the text without a URL.

        A Python helper rather than a Jinja macro: pages have thousands of links.
        """
        if not url:
            return markupsafe.escape(text)
        # Plain strings only: a Markup text equals the str of its characters but escapes
        # differently, so it must never find the str's anchor (nor the str the Markup's).
        memo = self.shared_memo if type(text) is str and type(url) is str else None
        key = (text, url, external)
        if memo is not None:
            found = memo.anchors.get(key)
            if found is not None:
                return found
        href = markupsafe.escape(url if external else self(url))
        rel = ' rel="noopener"' if external else ""
        html = markupsafe.Markup(f'<a href="{href}"{rel}>{markupsafe.escape(text)}</a>')
        if memo is not None and len(memo.anchors) < MEMO_LIMIT and (external or self.shared(url)):
            memo.anchors[key] = html
        return html

    def __call__(self, target: str) -> str:
        memo = self.shared_memo if type(target) is str else None  # as in `anchor`
        if memo is not None:
            found = memo.hrefs.get(target)
            if found is not None:
                return found
        href = self._href(target)
        if memo is not None and len(memo.hrefs) < MEMO_LIMIT and self.shared(target):
            memo.hrefs[target] = href
        return href

    def _href(self, target: str) -> str:
        path = self.site_path(target)
        if path is None:
            return target
        if self.absolute:
            return self.url(path)
        path, hash_, fragment = path.partition("#")
        if not path and hash_:
            return hash_ + fragment
        rel = relative_path(path or ".", self.folder, self.folder_parts)
        if not path or path.endswith("/"):
            rel = "./" if rel == "." else rel + "/"
        return rel + hash_ + fragment

    @cached_property
    def shared_memo(self) -> Hrefs | None:
        """`memo`, for a page whose folder is clean (no `..` part, not absolute): another
        page's href holds for this one only when both are worked out the same way."""
        base = self.folder_parts
        clean = ".." not in base and not self.folder.startswith("/") and not self.absolute
        return self.memo if clean else None

    @cached_property
    def folder(self) -> str:
        """The folder of the page, "." at the top."""
        return posixpath.dirname(self.page) or "."

    @cached_property
    def folder_parts(self) -> list[str]:
        """The parts of `folder` (none at the top): worked out once a page."""
        return _parts(self.folder)

    def shared(self, target: str) -> bool:
        """Whether `target`'s href is the same from every page of this page's class."""
        if self.absolute:
            return False
        path = self.site_path(target)
        if path is None:
            return True  # an outside URL, as it is
        path = path.partition("#")[0]
        parts, base = _parts(path), self.folder_parts
        if ".." in parts or ".." in base or path.startswith("/") or self.folder.startswith("/"):
            return False  # `relative_path` leaves these to `posixpath.relpath`
        return not parts or not base or parts[0] != base[0]


def page_class(page: str) -> tuple[int, str]:
    """The class of a page (its folder depth and first folder): pages of one class share
    the href of every target that `Linker.shared` accepts."""
    base = _parts(posixpath.dirname(page))
    return len(base), base[0] if base else ""
