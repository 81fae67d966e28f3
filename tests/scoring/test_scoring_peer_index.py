"""`PeerIndex.closest` returns exactly what the full scan `closest_peers` returns."""

from __future__ import annotations

import datetime as dt

from hypothesis import given, settings
from hypothesis import strategies as st
from support.scoring import make_model

from generator.input.records import ModelRecord
from generator.scoring.cost import PeerIndex, closest_peers

# Composites on a coarse grid so that distance ties (the key's second and third parts) are common.
COMPOSITE = st.none() | st.integers(140, 300).map(lambda v: v / 2)
DAY = st.none() | st.integers(0, 6).map(lambda d: dt.date(2026, 1, 1) + dt.timedelta(days=d))
ROW = st.tuples(COMPOSITE, st.booleans(), DAY)


def _population(
    rows: list[tuple[float | None, bool, dt.date | None]],
) -> tuple[dict[str, ModelRecord], dict[str, float | None]]:
    models = {
        f"m{i:02d}": make_model(f"m{i:02d}", usage=1.5 if measured else None, release_date=day)
        for i, (_, measured, day) in enumerate(rows)
    }
    composites = {f"m{i:02d}": iq for i, (iq, _, _) in enumerate(rows)}
    return models, composites


@settings(max_examples=300, deadline=None)
@given(rows=st.lists(ROW, min_size=1, max_size=30), count=st.integers(0, 5))
def test_index_matches_full_scan(
    rows: list[tuple[float | None, bool, dt.date | None]], count: int
) -> None:
    models, composites = _population(rows)
    index = PeerIndex(models, composites)
    for model in models.values():
        expected = [p.id for p in closest_peers(model, models, composites, count)]
        assert [p.id for p in index.closest(model, count)] == expected


def test_ties_broken_by_date_then_id() -> None:
    # Own composite 100; m1 and m2 both at distance 2, m3 at distance 1.
    # m3 first (closest); then m1 and m2 tie on distance: m2 released the same day wins (0 days).
    rows: list[tuple[float | None, bool, dt.date | None]] = [
        (100.0, False, dt.date(2026, 1, 1)),
        (102.0, True, dt.date(2026, 1, 5)),
        (98.0, True, dt.date(2026, 1, 1)),
        (101.0, True, None),
    ]
    models, composites = _population(rows)
    peers = PeerIndex(models, composites).closest(models["m00"], 2)
    assert [p.id for p in peers] == ["m03", "m02"]
