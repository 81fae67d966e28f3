"""`postCutoff` on every result and `postCutoffResults` on every model (METHODOLOGY 1.4)."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
from pathlib import Path

import msgspec
from support.scoring import make_benchmark

from generator.documents.contamination import (
    NO_CUTOFF,
    NO_PUBLICATION,
    REFRESHED,
    cutoff_day,
    post_cutoff,
)


def test_a_month_cutoff_is_its_last_day() -> None:
    # 2024 is a leap year: February ends on the 29th; a day cutoff is that day
    assert cutoff_day("2024-02") == dt.date(2024, 2, 29)
    assert cutoff_day("2025-02") == dt.date(2025, 2, 28)
    assert cutoff_day("2025-08-31") == dt.date(2025, 8, 31)
    assert cutoff_day("2025-02-30") is None and cutoff_day("2025-4") is None
    assert cutoff_day(None) is None


def test_a_benchmark_published_after_the_cutoff_is_post_cutoff() -> None:
    bench = msgspec.structs.replace(make_benchmark("b", "d"), published_on=dt.date(2025, 5, 1))
    # cutoff 2025-04 = 2025-04-30 < 2025-05-01: after
    assert post_cutoff(bench, cutoff_day("2025-04")) == (True, None)
    # cutoff 2025-05 = 2025-05-31 >= 2025-05-01: before (a question of May may be in May's data)
    assert post_cutoff(bench, cutoff_day("2025-05")) == (False, None)
    # the same day is not after it
    assert post_cutoff(bench, dt.date(2025, 5, 1)) == (False, None)


def test_unknown_dates_and_live_benchmarks_give_null_with_the_reason() -> None:
    bench = make_benchmark("b", "d")  # no published_on
    assert post_cutoff(bench, dt.date(2025, 1, 31)) == (None, NO_PUBLICATION)
    dated = msgspec.structs.replace(bench, published_on=dt.date(2026, 1, 1))
    assert post_cutoff(dated, None) == (None, NO_CUTOFF)
    live = msgspec.structs.replace(dated, refreshes_questions=True)
    assert post_cutoff(live, dt.date(2025, 1, 31)) == (None, REFRESHED)


def test_every_model_with_a_cutoff_flags_each_result(shipped_site: Path) -> None:
    api = shipped_site / "api" / "v1"
    models = json.loads((api / "models.json").read_text())["models"]
    with_cutoff = [m for m in models if m["knowledgeCutoff"] is not None]
    assert len(with_cutoff) >= 60
    flags = {True: 0, False: 0, None: 0}
    for row in models:
        detail = json.loads((api / "models" / row["id"]).read_text())
        results = detail["benchmarkResults"].values()
        cutoff = cutoff_day(detail["knowledgeCutoff"])
        for result in results:
            flags[result["postCutoff"]] += 1
            # null exactly when a note says why
            assert (result["postCutoff"] is None) == (result["postCutoffNote"] is not None)
            if cutoff is None:
                assert result["postCutoffNote"] == NO_CUTOFF
        expected = (
            None
            if cutoff is None
            else sum(1 for r in results if r["category"] == "iq" and r["postCutoff"])
        )
        assert detail["postCutoffResults"] == row["postCutoffResults"] == expected
        if cutoff is not None:
            assert detail["knowledgeCutoffSource"] == {
                "name": "models.dev",
                "url": "https://models.dev/",
            }
    assert flags[True] > 0 and flags[False] > 0 and flags[None] > 0


def test_the_model_csv_and_page_carry_the_cutoff(shipped_site: Path) -> None:
    rows = list(
        csv.DictReader(io.StringIO((shipped_site / "downloads" / "models.csv").read_text()))
    )
    row = next(r for r in rows if r["knowledgeCutoff"])
    detail = json.loads((shipped_site / "api" / "v1" / "models" / row["id"]).read_text())
    assert row["postCutoffResults"] == str(detail["postCutoffResults"])
    page = (shipped_site / "models" / row["id"] / "index.html").read_text()
    assert f"Knowledge cutoff {detail['knowledgeCutoff']}" in page
    assert "After knowledge cutoff" in page
