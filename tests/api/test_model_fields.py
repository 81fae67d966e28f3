"""A model's list row and its detail document share one declaration and the same values."""

from __future__ import annotations

from pathlib import Path

import msgspec

from generator.api.contract import ModelDetail, ModelFields, ModelList, ModelSummary

SHARED = ModelFields.__struct_fields__


def test_the_shared_fields_are_declared_once() -> None:
    assert issubclass(ModelSummary, ModelFields) and issubclass(ModelDetail, ModelFields)
    assert ModelSummary.__struct_fields__ == (*SHARED, "dimensions", "imputed_dimensions")
    # the envelope's versions come first, then every shared field in the row's order
    versioned = ("api_version", "methodology_version", *SHARED)
    assert ModelDetail.__struct_fields__[: len(versioned)] == versioned


def test_each_detail_agrees_with_its_list_row_on_every_shared_field(built_site: Path) -> None:
    api = built_site / "api" / "v1"
    rows = msgspec.json.decode((api / "models.json").read_bytes(), type=ModelList).models
    assert rows
    for row in rows:
        detail = msgspec.json.decode((api / "models" / row.id).read_bytes(), type=ModelDetail)
        assert [getattr(detail, f) for f in SHARED] == [getattr(row, f) for f in SHARED]
