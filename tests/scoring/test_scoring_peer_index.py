"""`PeerIndex.closest` returns what a full scan of every model, sorted by the key, returns."""

from __future__ import annotations

import datetime as dt
import math

from hypothesis import given, settings
from hypothesis import strategies as st
from support.scoring import make_model

from generator.input.records import ModelRecord
from generator.scoring.cost import PeerIndex

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


def _days_apart(one: dt.date | None, other: dt.date | None) -> float:
    return math.inf if one is None or other is None else float(abs((one - other).days))


def _scan(
    model: ModelRecord,
    models: dict[str, ModelRecord],
    composites: dict[str, float | None],
    count: int,
) -> list[str]:
    """The reference: every other measured model with a composite, sorted by (composite
    distance, days between the release dates or infinity, id), the first `count`."""
    own = composites[model.id]
    if own is None:
        return []
    keyed = []
    for peer in models.values():
        iq = composites[peer.id]
        if peer.id != model.id and peer.usage is not None and iq is not None:
            days = _days_apart(model.release_date, peer.release_date)
            keyed.append(((abs(iq - own), days, peer.id), peer.id))
    return [peer_id for _, peer_id in sorted(keyed)[:count]]


@settings(max_examples=300, deadline=None)
@given(rows=st.lists(ROW, min_size=1, max_size=30), count=st.integers(0, 5))
def test_index_matches_full_scan(
    rows: list[tuple[float | None, bool, dt.date | None]], count: int
) -> None:
    models, composites = _population(rows)
    index = PeerIndex(models, composites)
    for model in models.values():
        expected = _scan(model, models, composites, count)
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
