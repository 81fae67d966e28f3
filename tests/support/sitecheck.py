"""Checks over a built site directory: a link checker and an HTML/accessibility linter.

Used by test_links.py and test_html.py on the sample pages and on the real build.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urldefrag, urljoin, urlsplit

import html5lib

URL_KEYS = frozenset({"url", "image", "modelUrl", "openapi", "docs"})


class _Collector(HTMLParser):
    """Collects href/src attributes and element ids of one page."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.links: list[str] = []
        self.ids: set[str] = set()
        self.external_loads: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if values.get("id"):
            self.ids.add(str(values["id"]))
        for key in ("href", "src"):
            value = values.get(key)
            if value is not None:
                self.links.append(value)
                loads = tag in ("img", "script", "iframe") or (
                    tag == "link" and values.get("rel") in ("stylesheet", "icon", "preload")
                )
                if loads:
                    self.external_loads.append(value)


@dataclass
class BuiltSite:
    """A built site on disk, served at `base_url`."""

    root: Path
    base_url: str
    rewrites: dict[str, str] = field(default_factory=dict)
    checked: int = 0  # URLs checked so far (a check over nothing proves nothing)
    # Read once per site (nothing writes to a site while it is checked): a page's ids, and
    # the file each URL resolves to (the shipped build links some 870 URLs 22,700 times).
    _ids: dict[str, set[str]] = field(default_factory=dict)
    _resolved: dict[str, Path | None] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.base_url = self.base_url.rstrip("/")
        redirects = self.root / "_redirects"
        if redirects.is_file():
            for line in redirects.read_text().splitlines():
                parts = line.split()
                if len(parts) >= 3 and parts[2] == "200" and not line.startswith("#"):
                    self.rewrites[parts[0]] = parts[1]

    def html_pages(self) -> list[Path]:
        return sorted(self.root.rglob("*.html"))

    def json_files(self) -> list[Path]:
        out = []
        for path in sorted((self.root / "api").rglob("*")) if (self.root / "api").is_dir() else []:
            if path.is_file() and (path.suffix in ("", ".json")):
                out.append(path)
        return out

    def page_url(self, page: Path) -> str:
        rel = page.relative_to(self.root).as_posix()
        return f"{self.base_url}/{rel}"

    def resolve(self, url: str) -> Path | None:
        """The file a URL under the base URL is served from, or None if nothing serves it."""
        if url not in self._resolved:
            self._resolved[url] = self._find(url)
        return self._resolved[url]

    def _find(self, url: str) -> Path | None:
        path = url[len(self.base_url) :] or "/"
        path = urlsplit(path).path
        candidates = [path]
        if path in self.rewrites:
            candidates.append(self.rewrites[path])
        for candidate in candidates:
            target = self.root / candidate.lstrip("/")
            if candidate.endswith("/"):
                target = target / "index.html"
            if target.is_file() and target.resolve().is_relative_to(self.root.resolve()):
                return target
        return None

    def ids_of(self, page: Path) -> set[str]:
        if page not in self._ids:
            collector = _Collector()
            collector.feed(page.read_text(encoding="utf-8"))
            self._ids[page] = collector.ids
        return self._ids[page]

    def check_url(self, url: str, where: str) -> str | None:
        """A problem with one absolute URL, or None if it resolves (fragments included)."""
        self.checked += 1
        if not url.startswith(self.base_url + "/") and url != self.base_url:
            return (
                None
                if not url.startswith(("http://127.", "http://localhost"))
                else (f"{where}: {url} points at a local address outside the base URL")
            )
        bare, fragment = urldefrag(url)
        target = self.resolve(bare)
        if target is None:
            return f"{where}: {url} resolves to no file"
        if fragment and target.suffix == ".html" and fragment not in self.ids_of(target):
            return f"{where}: {url} has no element with id {fragment!r}"
        return None


def _json_urls(value: object) -> Iterator[str]:
    if isinstance(value, dict):
        for key, item in value.items():
            if key in URL_KEYS and isinstance(item, str):
                yield item
            else:
                yield from _json_urls(item)
    elif isinstance(value, list):
        for item in value:
            yield from _json_urls(item)


def broken_links(site: BuiltSite, skip_prefixes: tuple[str, ...] = ()) -> list[str]:
    """Every href/src of every page and every url field of every JSON file that is broken."""
    problems = []
    for page in site.html_pages():
        collector = _Collector()
        collector.feed(page.read_text(encoding="utf-8"))
        here = site.page_url(page)
        where = page.relative_to(site.root).as_posix()
        for href in collector.links:
            if href.startswith(("mailto:", "data:")):
                continue
            absolute = urljoin(here, href)
            if any(absolute.startswith(f"{site.base_url}/{p}") for p in skip_prefixes):
                continue
            problem = site.check_url(absolute, where)
            if problem:
                problems.append(problem)
    for path in site.json_files():
        try:
            document = json.loads(path.read_bytes())
        except ValueError:
            continue
        for url in _json_urls(document):
            if "{" in url or "%7b" in url.lower():  # a URI template (the index's `/models/{id}`)
                continue
            problem = site.check_url(url, path.relative_to(site.root).as_posix())
            if problem:
                problems.append(problem)
    return problems


def reachable(site: BuiltSite, start: str = "") -> set[str]:
    """Site paths of every file reached by following href/src links from the page at
    `start` (a site path; the landing page by default), pages crawled in turn."""
    first = site.resolve(f"{site.base_url}/{start}")
    assert first is not None, start
    seen, queue = {first}, [first]
    while queue:
        page = queue.pop()
        collector = _Collector()
        collector.feed(page.read_text(encoding="utf-8"))
        for href in collector.links:
            target = site.resolve(urldefrag(urljoin(site.page_url(page), href))[0])
            if target is not None and target not in seen:
                seen.add(target)
                if target.suffix == ".html":
                    queue.append(target)
    return {path.relative_to(site.root).as_posix() for path in seen}


def external_loads(site: BuiltSite) -> list[str]:
    """Subresources (img, script, stylesheet) a page would load from outside the site."""
    out = []
    for page in site.html_pages():
        collector = _Collector()
        collector.feed(page.read_text(encoding="utf-8"))
        for src in collector.external_loads:
            if src.startswith("data:"):
                continue
            absolute = urljoin(site.page_url(page), src)
            if not absolute.startswith(site.base_url + "/"):
                out.append(f"{page.relative_to(site.root)}: loads {src}")
    return out


_NS = "{http://www.w3.org/1999/xhtml}"
_SVG = "{http://www.w3.org/2000/svg}"


def html_problems(text: str, name: str) -> list[str]:
    """HTML validity (html5lib strict parse) and basic accessibility problems of one page."""
    problems: list[str] = []
    parser = html5lib.HTMLParser(strict=True, namespaceHTMLElements=True)
    try:
        root = parser.parse(text)
    except html5lib.html5parser.ParseError as exc:
        return [f"{name}: HTML parse error: {exc}"]
    if root.get("lang") != "en":
        problems.append(f"{name}: <html> has no lang")
    title = root.find(f"{_NS}head/{_NS}title")
    if title is None or not (title.text or "").strip():
        problems.append(f"{name}: no <title>")
    if root.find(f".//{_NS}meta[@name='viewport']") is None:
        problems.append(f"{name}: no viewport meta")
    if len(root.findall(f".//{_NS}h1")) != 1:
        problems.append(f"{name}: expected exactly one <h1>")
    for landmark in ("main", "header", "footer", "nav"):
        if root.find(f".//{_NS}{landmark}") is None:
            problems.append(f"{name}: no <{landmark}> landmark")
    ids = [el.get("id") for el in root.iter() if el.get("id")]
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    if duplicates:
        problems.append(f"{name}: duplicate ids {duplicates}")
    for img in root.iter(f"{_NS}img"):
        if img.get("alt") is None:
            problems.append(f"{name}: <img src={img.get('src')}> has no alt")
    for table in root.iter(f"{_NS}table"):
        if table.find(f"{_NS}caption") is None:
            problems.append(f"{name}: a table has no <caption>")
        headers = list(table.iter(f"{_NS}th"))
        if not headers:
            problems.append(f"{name}: a table has no <th>")
        if any(th.get("scope") not in ("col", "row") for th in headers):
            problems.append(f"{name}: a <th> has no scope")
    for svg in root.iter(f"{_SVG}svg"):
        if svg.get("aria-hidden") == "true":  # decoration beside the numbers it draws
            continue
        # role=group: a chart whose points are named and take the focus (role=img would
        # make them presentational)
        if svg.get("role") not in ("img", "group") or svg.find(f"{_SVG}title") is None:
            problems.append(f"{name}: an <svg> lacks role=img (or group) and <title>")
        if svg.find(f"{_SVG}desc") is None:
            problems.append(f"{name}: an <svg> has no <desc>")
    for a in root.iter(f"{_NS}a"):
        label = "".join(a.itertext()).strip() or a.get("aria-label") or ""
        if not label and a.find(f".//{_NS}img[@alt]") is None:
            problems.append(f"{name}: a link has no text ({a.get('href')})")
    for control in root.iter(f"{_NS}input"):
        ident = control.get("id")
        labelled = control.get("aria-label") or (
            ident and root.find(f".//{_NS}label[@for='{ident}']") is not None
        )
        if control.get("type") != "hidden" and not labelled:
            problems.append(f"{name}: an <input> has no label")
    return problems


def contrast_ratio(foreground: str, background: str) -> float:
    """WCAG contrast ratio of two #rrggbb colours."""

    def luminance(colour: str) -> float:
        channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
        linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    high, low = sorted((luminance(foreground), luminance(background)), reverse=True)
    return (high + 0.05) / (low + 0.05)
