"""The promoted chart "the frontier over time", drawn from the replayed history snapshots.

A small hand-made history (four month ends) pins the per-month maxima, the choice of
the top providers and their lines; the share page and the PNG preview are rendered
from the sample documents with that history in place of their one snapshot.
"""

from __future__ import annotations

import datetime as dt
import re
import struct

import msgspec
import pytest
from markupsafe import escape
from msgspec.structs import replace
from support.documents import BASE, sample_documents
from support.sitecheck import contrast_ratio

from generator.api.contract import (
    HISTORY,
    HISTORY_NOTE,
    HISTORY_SNAPSHOT,
    HistoryDetail,
    HistoryEntry,
    HistoryList,
    HistorySnapshot,
    HistoryTopModel,
)
from generator.api.urls import SiteConfig
from generator.pages import svg
from generator.pages.charts import frontier, frontier_lines
from generator.pages.plots import LINE_COLOURS, FrontierLines, Holder
from generator.pages.render import render_pages
from generator.pages.sitedocs import SiteDocuments

# Each month end's leaderboard in rank order: (model, provider, composite IQ).
HISTORY_ROWS: dict[str, list[tuple[str, str, int]]] = {
    "2025-12-31": [],  # nothing ranked yet: left out of the chart
    "2026-01-31": [("A1", "Acme", 120), ("B1", "Bolt", 115), ("C1", "Cee", 110)],
    "2026-02-28": [
        ("B2", "Bolt", 128), ("A1", "Acme", 121), ("C1", "Cee", 110), ("D1", "Dee", 105)
    ],
    "2026-03-31": [
        ("A2", "Acme", 131),
        ("B2", "Bolt", 128),
        ("D2", "Dee", 125),
        ("A1", "Acme", 121),
        ("C1", "Cee", 112),
    ],
}  # fmt: skip


def _snapshots() -> list[HistoryDetail]:
    template = sample_documents()[HISTORY_SNAPSHOT.api_path("2026-01-31")]
    assert isinstance(template, HistoryDetail)
    snapshots = []
    for date, rows in HISTORY_ROWS.items():
        entries = [
            HistoryEntry(
                id=model.lower(), name=model, provider=provider, rank=rank, iq=iq,
                iq_low95=None, iq_high95=None, rank_low=None, rank_high=None, provisional=False,
                url=f"{BASE}/models/{model.lower()}/",
            )
            for rank, (model, provider, iq) in enumerate(rows, 1)
        ]  # fmt: skip
        day = dt.date.fromisoformat(date)
        counts = {
            "model_count": len(entries) + 1,
            "ranked_model_count": len(entries),
            "result_count": 3 * len(entries),
            "release_dated_result_count": len(entries),
        }
        snapshots.append(replace(template, date=day, models=entries, **counts))
    return snapshots


def test_best_per_month_and_per_top_provider_hand_checked() -> None:
    plot = frontier_lines(_snapshots(), providers=3)
    # 2025-12 ranks nobody: skipped. Best overall = rank 1 of each month:
    #   Jan A1 120, Feb B2 128, Mar A2 131.
    # Latest (March) best model per provider, by rank: Acme A2 (1), Bolt B2 (2),
    # Dee D2 (3), Cee C1 (5) -> the top 3 providers are Acme, Bolt, Dee; Cee is left out.
    #   Acme: Jan A1 120, Feb A1 121 (its best then), Mar A2 131
    #   Bolt: Jan B1 115, Feb B2 128, Mar B2 128
    #   Dee:  Jan none (no model yet), Feb D1 105, Mar D2 125
    assert plot.months == ("2026-01-31", "2026-02-28", "2026-03-31")
    assert plot.skipped == 1
    assert plot.best.values == (Holder("A1", 120), Holder("B2", 128), Holder("A2", 131))
    assert [(line.label, line.values) for line in plot.providers] == [
        ("Acme", (Holder("A1", 120), Holder("A1", 121), Holder("A2", 131))),
        ("Bolt", (Holder("B1", 115), Holder("B2", 128), Holder("B2", 128))),
        ("Dee", (None, Holder("D1", 105), Holder("D2", 125))),
    ]


def test_top_providers_default_to_five_and_follow_the_latest_ranks() -> None:
    # four providers in March, so all four, in the order of their best model's rank
    plot = frontier_lines(_snapshots())
    assert [line.label for line in plot.providers] == ["Acme", "Bolt", "Dee", "Cee"]
    assert plot.providers[3].values == (Holder("C1", 110), Holder("C1", 110), Holder("C1", 112))


def test_table_and_summary_name_every_plotted_value() -> None:
    plot = frontier_lines(_snapshots(), providers=3)
    assert plot.table.columns == ("Month end", "Best model", "Best IQ", "Acme", "Bolt", "Dee")
    assert plot.table.rows == (
        ("2026-01-31", "A1", "120", "120 (A1)", "115 (B1)", "–"),
        ("2026-02-28", "B2", "128", "121 (A1)", "128 (B2)", "105 (D1)"),
        ("2026-03-31", "A2", "131", "131 (A2)", "128 (B2)", "125 (D2)"),
    )
    assert "3 month ends from 2026-01-31 to 2026-03-31" in plot.summary
    assert "A2 at IQ 131" in plot.summary and "snapshot: Acme, Bolt, Dee." in plot.summary
    assert "The 1 earlier month ends rank no model" in plot.summary


def test_lines_differ_by_marker_and_are_labelled_directly() -> None:
    drawn = frontier_lines(_snapshots(), providers=3).draw(720, 400)
    # one polyline per series (Dee's two points included), best line thickest
    lines = re.findall(r'<polyline points="([^"]+)"[^>]*stroke="(#[0-9a-f]{6})"', drawn)
    assert [colour for _, colour in lines] == [svg.HIGHLIGHT, *LINE_COLOURS[:3]]
    assert len(lines[3][0].split()) == 2
    # markers: 3 rings on the best line + 1 in its label; Acme circles, Bolt squares,
    # Dee triangles: one per value plus one beside the label
    rings = len(re.findall(r'<circle[^>]*fill="none"', drawn))
    assert (rings, drawn.count("<circle") - rings) == (3 + 1, 3 + 1)
    assert drawn.count("<rect") == 3 + 1
    assert drawn.count("<polygon") == 2 + 1
    for label in ("Best overall", "Acme", "Bolt", "Dee"):
        assert f">{label}</text>" in drawn


def test_line_colours_meet_non_text_contrast() -> None:
    for colour in (svg.HIGHLIGHT, *LINE_COLOURS):
        assert contrast_ratio(colour, "#ffffff") >= 3, colour


def test_no_ranked_snapshot_draws_an_empty_chart() -> None:
    plot = frontier_lines(_snapshots()[:1])
    assert plot == FrontierLines((), plot.best, (), skipped=1)
    assert "No data" in plot.draw(720, 400)
    assert plot.summary == "No snapshot of the replayed history ranks a model yet."


def _with_history(snapshots: list[HistoryDetail]) -> dict[str, msgspec.Struct]:
    documents = sample_documents()
    base = documents[HISTORY.path]
    assert isinstance(base, HistoryList)
    del documents[HISTORY_SNAPSHOT.api_path("2026-01-31")]
    summaries = []
    for s in snapshots:
        date = s.date.isoformat()
        documents[HISTORY_SNAPSHOT.api_path(date)] = s
        top = s.models[0] if s.models else None
        summaries.append(
            HistorySnapshot(
                date=s.date,
                model_count=s.model_count,  # one unranked model at each month end
                ranked_model_count=s.ranked_model_count,
                result_count=s.result_count,
                release_dated_result_count=s.release_dated_result_count,
                top_model=HistoryTopModel(
                    id=top.id, name=top.name, iq=top.iq, provisional=False, url=top.url
                )
                if top
                else None,
                url=f"{BASE}/api/v1/history/{date}",
            )
        )
    documents[HISTORY.path] = replace(base, snapshots=summaries)
    return documents


@pytest.fixture(scope="module")
def pages() -> dict[str, bytes]:
    return render_pages(_with_history(_snapshots()), SiteConfig(base_url=BASE))


def test_the_chart_reads_the_history_documents() -> None:
    docs = SiteDocuments(_with_history(_snapshots()))
    assert frontier(docs, providers=3) == frontier_lines(_snapshots(), providers=3)


def test_share_page_draws_the_lines_with_a_table_fallback(pages: dict[str, bytes]) -> None:
    html = pages["charts/frontier/index.html"].decode()
    assert f'<meta property="og:image" content="{BASE}/charts/frontier.png">' in html
    assert '<meta property="og:image:width" content="1200">' in html
    assert 'role="img"' in html and html.count("<polyline") == 5  # best + 4 providers
    assert '<th scope="col">Cee</th>' in html and "<td>131 (A2)</td>" in html


def test_share_page_says_what_the_replay_is(pages: dict[str, bytes]) -> None:
    # Today's methodology over each month end's evidence, cost not replayed: the note of
    # every history document, with a link to the snapshots.
    html = pages["charts/frontier/index.html"].decode()
    assert f'<p class="note">{escape(HISTORY_NOTE)} <a href="../../history/">' in html


def test_preview_is_a_1200_by_630_png(pages: dict[str, bytes]) -> None:
    data = pages["charts/frontier.png"]
    # PNG signature, then the IHDR chunk: length 13, type, width and height (big-endian)
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    assert struct.unpack(">II", data[16:24]) == (1200, 630)


def test_history_page_links_every_snapshot_page_json_and_csv(pages: dict[str, bytes]) -> None:
    html = pages["history/index.html"].decode()
    for date, rows in HISTORY_ROWS.items():
        top = (
            f'<a href="../models/{rows[0][0].lower()}/">{rows[0][0]}</a></td>'
            f'<td class="num">{rows[0][2]}</td>'
            if rows
            else '–</td><td class="num">–</td>'
        )
        assert (
            f'<tr><th scope="row"><a href="{date}/">{date}</a></th>'
            f'<td class="num">{len(rows) + 1}</td><td class="num">{len(rows)}</td>'
            f'<td class="num">{3 * len(rows)}</td><td class="num">{len(rows)}</td><td>{top}'
            f'<td><a href="../api/v1/history/{date}">JSON</a> · '
            f'<a href="../downloads/history/{date}.csv" download>CSV</a></td></tr>'
        ) in html
    assert '<p>Chart: <a href="../charts/frontier/">The frontier over time</a>' in html
    snapshot = pages["history/2026-02-28/index.html"].decode()
    assert '<a href="../../downloads/history/2026-02-28.csv" download>' in snapshot
