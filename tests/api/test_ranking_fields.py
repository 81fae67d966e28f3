"""A ranking's catalog entry and its detail document share one declaration and the same values."""

from __future__ import annotations

from pathlib import Path

import msgspec

from generator.api.contract import (
    Envelope,
    RankingCatalogEntry,
    RankingDetail,
    RankingFields,
    RankingList,
)

SHARED = RankingFields.__struct_fields__


def test_the_shared_fields_are_declared_once() -> None:
    assert issubclass(RankingCatalogEntry, RankingFields)
    assert issubclass(RankingDetail, RankingFields)
    assert RankingCatalogEntry.__struct_fields__ == (*SHARED, "methodology_version")
    # the envelope's fields first, as in every envelope, then the shared ones, then the rows
    envelope = Envelope.__struct_fields__
    assert RankingDetail.__struct_fields__ == (*envelope, *SHARED, "models")


def test_each_detail_agrees_with_its_catalog_entry_on_every_shared_field(built_site: Path) -> None:
    api = built_site / "api" / "v1"
    entries = msgspec.json.decode((api / "rankings.json").read_bytes(), type=RankingList).rankings
    assert entries
    for entry in entries:
        detail = msgspec.json.decode((api / "rankings" / entry.id).read_bytes(), type=RankingDetail)
        assert [getattr(detail, f) for f in SHARED] == [getattr(entry, f) for f in SHARED]
