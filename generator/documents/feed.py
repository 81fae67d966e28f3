"""The Atom 1.0 feed (RFC 4287) `/feed.atom`: the newest entries of `/changes`.

Every date comes from the data (an entry's date at 00:00 UTC; the feed's `updated` is
its newest entry's), so the same data gives the same bytes. An entry's Atom id is a
`tag:` URI (RFC 4151) made of the site's host, the year 2026 and the change's id.

Atom has no place for a change's fields beyond its text: an entry whose composite at its
month end is provisional (`provisionalAfter`) says so in its summary, as `/changes` does,
and carries the category `provisional` in the methodology's scheme (RFC 4287 4.2.2), which
a feed reader can filter on.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from urllib.parse import urlsplit
from xml.etree import ElementTree as ET

import msgspec

from generator.api.contract import CHANGES, ChangeList
from generator.api.files import FEED_FILE
from generator.api.urls import SiteConfig, api_url, landing_url, methodology_page_url
from generator.encoders import xml_chars
from generator.errors import BuildError

FEED_ENTRIES = 100
ATOM = "http://www.w3.org/2005/Atom"
TITLE = "modelscores: what changed"
TAG_DATE = "2026"  # the tag URI's date: fixed, so ids never change
PROVISIONAL = {"term": "provisional", "label": "provisional composite"}


def feed_url(config: SiteConfig) -> str:
    return f"{config.base}/{FEED_FILE}"


def _timestamp(day: dt.date) -> str:
    return f"{day.isoformat()}T00:00:00Z"


def _tag(config: SiteConfig, change_id: str) -> str:
    host = urlsplit(config.base).hostname or "localhost"
    return f"tag:{host},{TAG_DATE}:{change_id}"


def _sub(parent: ET.Element, name: str, text: str | None = None, **attrs: str) -> ET.Element:
    """A child element; its text and attributes hold XML 1.0 characters only (ElementTree
    escapes markup but writes any character it is given)."""
    element = ET.SubElement(parent, name, {key: xml_chars(value) for key, value in attrs.items()})
    element.text = None if text is None else xml_chars(text)
    return element


def render_feed(documents: Mapping[str, msgspec.Struct], config: SiteConfig) -> bytes:
    """The feed's bytes (UTF-8 XML with a declaration), from the `/changes` document."""
    changes = documents[CHANGES.path]
    if not isinstance(changes, ChangeList):
        raise BuildError(f"feed: document {CHANGES.path} is not a ChangeList")
    feed = ET.Element("feed", {"xmlns": ATOM})
    entries = changes.changes[:FEED_ENTRIES]
    newest = max((c.date for c in entries), default=dt.date(1970, 1, 1))
    _sub(feed, "id", _tag(config, "feed"))
    _sub(feed, "title", TITLE)
    _sub(feed, "updated", _timestamp(newest))
    author = _sub(feed, "author")
    _sub(author, "name", "modelscores")
    _sub(feed, "link", rel="self", type="application/atom+xml", href=feed_url(config))
    _sub(feed, "link", rel="alternate", type="text/html", href=landing_url(config))
    _sub(
        feed,
        "link",
        rel="related",
        type="application/json",
        href=api_url(config, CHANGES.path),
    )
    for change in entries:
        entry = _sub(feed, "entry")
        _sub(entry, "id", _tag(config, change.id))
        _sub(entry, "title", change.title)
        _sub(entry, "updated", _timestamp(change.date))
        _sub(entry, "link", rel="alternate", type="text/html", href=change.url)
        _sub(entry, "category", term=change.kind)
        if change.provisional_after:
            _sub(entry, "category", **PROVISIONAL, scheme=methodology_page_url(config))
        _sub(entry, "summary", change.summary)
    ET.indent(feed)
    data: bytes = ET.tostring(feed, encoding="utf-8", xml_declaration=True)
    return data + b"\n"
