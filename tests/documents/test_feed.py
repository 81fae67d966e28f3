"""The changes feed: /changes from the data only, and /feed.atom as strict Atom 1.0."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from xml.etree import ElementTree as ET

import feedparser
import msgspec
from support.scoring import make_methodology, make_model, result, standard_benchmarks

from generator.api.contract import CHANGES, ChangeList
from generator.api.urls import SiteConfig
from generator.documents.changes import changes_documents
from generator.documents.common import envelope
from generator.documents.feed import render_feed
from generator.input.records import ChangelogRecord, Dataset
from generator.scoring.history import replay

ATOM = "{http://www.w3.org/2005/Atom}"


def _dataset() -> Dataset:
    """a: released 5 Jan, IQ 130 on arc-a and math-a dated 10 Jan; b: released 20 Jan,
    IQ 140 on the same two dated 3 Feb (so a drops from rank 1 to rank 2 in February). Two
    direct dimensions each: both composites are provisional (provisional_below = 3)."""

    def dated(benchmark: str, value: float, day: dt.date) -> object:
        return msgspec.structs.replace(result(benchmark, value), as_of=day)

    a = make_model("a", [dated(b, 1.3, dt.date(2026, 1, 10)) for b in ("arc-a", "math-a")],
                   release_date=dt.date(2026, 1, 5))  # fmt: skip
    b = make_model("b", [dated(b, 1.4, dt.date(2026, 2, 3)) for b in ("arc-a", "math-a")],
                   release_date=dt.date(2026, 1, 20))  # fmt: skip
    stamped = dt.datetime(2026, 3, 1, tzinfo=dt.UTC)  # the data's newest date: February ended
    return Dataset(
        methodology=msgspec.structs.replace(make_methodology(), updated=stamped),
        benchmarks=standard_benchmarks(), models=(a, b), domains=(), charts=(),
    )  # fmt: skip


def test_changes_are_dated_by_the_data_newest_first() -> None:
    dataset = _dataset()
    doc = changes_documents(dataset, replay(dataset), SiteConfig(), envelope(dataset))
    changes = doc[CHANGES.path]
    assert isinstance(changes, ChangeList)
    rows = [(c.id, c.date.isoformat(), c.rank_before, c.rank_after) for c in changes.changes]
    assert rows == [
        ("results:b:2026-02", "2026-02-03", None, 1),  # b unranked at the end of January
        ("released:b", "2026-01-20", None, None),
        ("results:a:2026-01", "2026-01-10", None, 1),
        ("released:a", "2026-01-05", None, None),
    ]


def test_results_that_rank_nothing_say_so_in_words() -> None:
    # c has one result (one direct dimension; a composite needs two): unranked before and
    # after, so its entry says so instead of "none -> none, unranked -> unranked".
    dataset = _dataset()
    c = make_model("c", [msgspec.structs.replace(result("arc-a", 1.2), as_of=dt.date(2026, 2, 9))])
    dataset = msgspec.structs.replace(dataset, models=(*dataset.models, c))
    doc = changes_documents(dataset, replay(dataset), SiteConfig(), envelope(dataset))[CHANGES.path]
    assert isinstance(doc, ChangeList)
    summaries = {c.id: c.summary for c in doc.changes}
    assert summaries["results:c:2026-02"] == (
        "New results on arc-a; no composite IQ or rank yet at the month end."
    )
    assert summaries["results:b:2026-02"] == (
        "New results on arc-a, math-a; composite IQ none -> 140 (provisional), rank unranked -> 1"
        " (month ends)."
    )


def test_results_of_the_newest_evidence_month_have_its_month_end() -> None:
    # Stamped 27 February, the data's newest date is before February's end, but the history
    # ends at the month end of the month holding the newest evidence (b's February results,
    # METHODOLOGY 1.2): February's end is replayed, so b's results there have a standing.
    dataset = _dataset()
    stamped = dt.datetime(2026, 2, 27, tzinfo=dt.UTC)
    dataset = msgspec.structs.replace(
        dataset, methodology=msgspec.structs.replace(dataset.methodology, updated=stamped)
    )
    doc = changes_documents(dataset, replay(dataset), SiteConfig(), envelope(dataset))[CHANGES.path]
    assert isinstance(doc, ChangeList)
    b = next(c for c in doc.changes if c.id == "results:b:2026-02")
    assert "their month has not ended" not in b.summary
    assert b.rank_after is not None


def test_results_dated_by_the_release_say_so() -> None:
    # b's two results have no date upstream: both carry its release date, 20 January, as a
    # "not before" date, so they count in January, and the summary says so.
    dataset = _dataset()
    a, b = dataset.models
    undated = [
        msgspec.structs.replace(r, as_of=dt.date(2026, 1, 20), as_of_kind="not-before")
        for r in b.results
    ]
    dataset = msgspec.structs.replace(
        dataset, models=(a, msgspec.structs.replace(b, results=undated))
    )
    doc = changes_documents(dataset, replay(dataset), SiteConfig(), envelope(dataset))[CHANGES.path]
    assert isinstance(doc, ChangeList)
    (entry,) = [c for c in doc.changes if c.id.startswith("results:b:")]
    assert (entry.id, entry.date) == ("results:b:2026-01", dt.date(2026, 1, 20))
    assert entry.summary == (
        "New results on arc-a, math-a; composite IQ none -> 140 (provisional), rank unranked -> 1"
        " (month ends)."
        " Dated by the model's release (the source gives no date): arc-a, math-a."
    )


def test_each_composite_of_an_entry_says_whether_it_is_provisional() -> None:
    # a's acad-a result of 10 February is its third direct dimension (arc-a, math-a,
    # acad-a: 3, not below provisional_below = 3): its January composite (2 dimensions) is
    # provisional, its February one not. b's February composite rests on 2: provisional.
    dataset = _dataset()
    a, b = dataset.models
    third = msgspec.structs.replace(result("acad-a", 1.3), as_of=dt.date(2026, 2, 10))
    a = msgspec.structs.replace(a, results=[*a.results, third])
    dataset = msgspec.structs.replace(dataset, models=(a, b))
    doc = changes_documents(dataset, replay(dataset), SiteConfig(), envelope(dataset))[CHANGES.path]
    assert isinstance(doc, ChangeList)
    flags = {c.id: (c.provisional_before, c.provisional_after) for c in doc.changes}
    assert flags == {
        "results:a:2026-02": (True, False),
        "results:b:2026-02": (False, True),  # unranked in January: nothing provisional
        "released:b": (False, False),
        "results:a:2026-01": (False, True),
        "released:a": (False, False),
    }
    summaries = {c.id: c.summary for c in doc.changes}
    assert "composite IQ 130 (provisional) -> 130, rank 1 -> 2" in summaries["results:a:2026-02"]
    # The Atom feed: the summary as in /changes, and the category `provisional` on the
    # entries whose composite at their month end is provisional
    feed = feedparser.parse(render_feed({CHANGES.path: doc}, SiteConfig()))
    assert not feed.bozo, feed.get("bozo_exception")
    assert len(feed.entries) == len(doc.changes)
    for entry, change in zip(feed.entries, doc.changes, strict=True):
        terms = [t.term for t in entry.tags]
        assert terms == [change.kind, *(["provisional"] if change.provisional_after else [])]
        assert entry.summary == change.summary
    marked = [t for e in feed.entries for t in e.tags if t.term == "provisional"]
    assert len(marked) == 2
    assert all(t.scheme.endswith("/methodology/") for t in marked)


def _methodology_changes(changelog: list[ChangelogRecord]) -> list[tuple[str, str]]:
    dataset = _dataset()
    methodology = msgspec.structs.replace(dataset.methodology, changelog=changelog)
    dataset = msgspec.structs.replace(dataset, methodology=methodology)
    doc = changes_documents(dataset, replay(dataset), SiteConfig(), envelope(dataset))[CHANGES.path]
    assert isinstance(doc, ChangeList)
    return [(c.id, c.summary) for c in doc.changes if c.kind == "methodology"]


def test_a_new_changelog_entry_renames_no_published_one() -> None:
    # The changelog is newest first and grows at the top. Ids count each date's entries
    # from its oldest, so the two 2026-01-01 entries stay :1 (newer) and :0 (older) when a
    # third of that date and one of 2026-03-01 are put above them; the order stays the
    # changelog's.
    def entry(day: int, month: int, text: str) -> ChangelogRecord:
        return ChangelogRecord(date=dt.date(2026, month, day), text=text)

    old = [entry(1, 1, "newer"), entry(1, 1, "older")]
    assert _methodology_changes(old) == [
        ("methodology:2026-01-01:1", "newer"),
        ("methodology:2026-01-01:0", "older"),
    ]
    grown = [entry(1, 3, "march"), entry(1, 1, "newest of january"), *old]
    assert _methodology_changes(grown) == [
        ("methodology:2026-03-01:0", "march"),
        ("methodology:2026-01-01:2", "newest of january"),
        ("methodology:2026-01-01:1", "newer"),
        ("methodology:2026-01-01:0", "older"),
    ]


def _text(element: ET.Element, name: str) -> str:
    child = element.find(ATOM + name)
    assert child is not None and child.text, name
    return child.text


def test_the_feed_is_atom_with_every_required_element(built_site: Path) -> None:
    # RFC 4287 4.1.1 / 4.1.2: a feed has id, title, updated and an author (here at feed
    # level); each entry id, title, updated and an alternate link. Ids are unique.
    root = ET.fromstring((built_site / "feed.atom").read_bytes())
    assert root.tag == ATOM + "feed"
    for name in ("id", "title", "updated"):
        _text(root, name)
    assert root.find(f"{ATOM}author/{ATOM}name") is not None
    assert root.find(f"{ATOM}link[@rel='self']") is not None
    entries = root.findall(ATOM + "entry")
    changes = json.loads((built_site / "api" / "v1" / "changes.json").read_bytes())["changes"]
    assert entries and len(entries) == min(len(changes), 100)
    ids = [_text(e, "id") for e in entries]
    assert len(set(ids)) == len(ids)
    for entry, change in zip(entries, changes, strict=False):
        assert _text(entry, "title") == change["title"]
        assert _text(entry, "updated") == change["date"] + "T00:00:00Z"
        link = entry.find(f"{ATOM}link[@rel='alternate']")
        assert link is not None and link.get("href") == change["url"]
    assert _text(root, "updated") == max(_text(e, "updated") for e in entries)


def test_a_strict_atom_parser_reads_the_feed_as_changes_says(built_site: Path) -> None:
    """feedparser sets `bozo` on any XML or feed error; its entries match /changes."""
    feed = feedparser.parse((built_site / "feed.atom").read_bytes())
    assert not feed.bozo, feed.get("bozo_exception")
    assert feed.version == "atom10"
    changes = json.loads((built_site / "api" / "v1" / "changes.json").read_bytes())["changes"]
    assert len(feed.entries) == min(len(changes), 100) > 0
    for entry, change in zip(feed.entries, changes, strict=False):
        assert entry.id.endswith(":" + change["id"]) and entry.id.startswith("tag:")
        assert entry.title == change["title"]
        assert entry.link == change["url"]
        assert entry.summary == change["summary"]
        assert entry.updated == change["date"] + "T00:00:00Z"
        assert entry.updated_parsed[:3] == tuple(int(p) for p in change["date"].split("-"))
    assert feed.feed.updated == max(c["date"] for c in changes[:100]) + "T00:00:00Z"
    assert {link.rel for link in feed.feed.links} >= {"self", "alternate"}


def test_every_page_links_the_feed_in_its_head(built_site: Path) -> None:
    for page in ("index.html", "history/index.html", "methodology/index.html"):
        head = (built_site / page).read_text().split("</head>")[0]
        assert 'type="application/atom+xml"' in head and "feed.atom" in head, page
