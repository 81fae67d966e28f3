"""The import's typed documents (generator/importers/documents.py): a model file passes
through ModelRecord on its way to TOML."""

from __future__ import annotations

import datetime as dt

import pytest

from generator.errors import DataError
from generator.importers.documents import typed

UPDATED = dt.datetime(2026, 1, 2, tzinfo=dt.UTC)


def _model(**extra: object) -> dict[str, object]:
    return {
        "results": [{"source_name": "S", "value": 0.5, "as_of": dt.date(2026, 1, 1),
                     "benchmark": "gpqa-diamond", "source_url": "https://s.example/x",
                     "pinned": False}],
        "open_weights": False, "updated": UPDATED, "country": "X", "provider": "P",
        "name": "M 1", "id": "m-1", **extra,
    }  # fmt: skip


def test_keys_come_in_the_records_order_and_defaults_are_left_out() -> None:
    out = typed("models/m-1.toml", _model(published=True, release_date_precision="day"))
    assert list(out) == ["id", "name", "provider", "country", "open_weights", "updated", "results"]
    assert list(out["results"][0]) == ["benchmark", "value", "source_name", "source_url", "as_of"]


def test_what_the_file_stated_is_kept_as_it_was_written() -> None:
    said = _model(release_date_precision="day", lineage={"family": "m", "generation": 4})
    out = typed("models/m-1.toml", said, said)
    assert out["release_date_precision"] == "day"  # an explicit default, stated by hand
    assert out["lineage"] == {"family": "m", "generation": 4}  # not 4.0
    assert type(out["lineage"]["generation"]) is int


def test_a_value_the_record_refuses_names_the_file() -> None:
    with pytest.raises(DataError) as caught:
        typed("models/m-1.toml", _model(open_weights="yes"))
    assert caught.value.problems == [
        "data/models/m-1.toml: Expected `bool`, got `str` - at `$.open_weights`"
    ]


def test_the_private_table_is_written_last_as_it_was() -> None:
    out = typed("models/m-1.toml", {"private": {"notes": "n"}, **_model()})
    assert list(out)[-1] == "private" and out["private"] == {"notes": "n"}


def test_a_default_the_file_stated_otherwise_is_left_out() -> None:
    """A draft promoted: the file said `published = false`, the import says published."""
    said = _model(published=False)
    assert "published" not in typed("models/m-1.toml", _model(published=True), said)
