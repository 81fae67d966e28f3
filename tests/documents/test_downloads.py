"""CSV downloads: RFC 4180, one row per element of the JSON list they mirror, served as CSV."""

from __future__ import annotations

import csv
import io
import json
import math
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from generator.api.files import NOT_FOUND_FILE
from generator.api.hosting import header_rules, headers_for, parse_headers
from generator.documents.downloads import (
    DOMAIN_COLUMNS,
    HISTORY_COLUMNS,
    MODEL_COLUMNS,
    MODEL_HISTORY_COLUMNS,
    RANKING_COLUMNS,
    Cell,
    joined,
    to_csv,
)
from generator.encoders import csv_cell, csv_number
from generator.errors import BuildError
from generator.serve import StaticHost


def _rows(path: Path) -> list[list[str]]:
    data = path.read_bytes()
    assert not data.startswith(b"\xef\xbb\xbf")  # UTF-8 without a byte order mark
    assert data.count(b"\r\n") == data.count(b"\n")  # every line ends in CRLF
    return list(csv.reader(io.StringIO(data.decode("utf-8"), newline="")))


def _json(path: Path) -> Any:
    return json.loads(path.read_bytes())


def test_models_csv_has_one_row_per_model_in_list_order(built_site: Path) -> None:
    header, *rows = _rows(built_site / "downloads" / "models.csv")
    models = _json(built_site / "api" / "v1" / "models.json")["models"]
    assert header == list(MODEL_COLUMNS)
    assert [r[0] for r in rows] == [m["id"] for m in models]
    first = dict(zip(header, rows[0], strict=True))
    assert first["iq"] == ("" if models[0]["iq"] is None else str(models[0]["iq"]))
    assert first["effectivePer1M"] in ("", str(models[0]["cost"]["effectivePer1M"]))


def test_every_ranking_and_domain_csv_matches_its_json(built_site: Path) -> None:
    api = built_site / "api" / "v1"
    for entry in _json(api / "rankings.json")["rankings"]:
        header, *rows = _rows(built_site / "downloads" / "rankings" / f"{entry['id']}.csv")
        ranking = _json(api / "rankings" / entry["id"])
        assert header == list(RANKING_COLUMNS)
        assert [(r[0], r[3]) for r in rows] == [
            (str(m["rank"]), m["id"]) for m in ranking["models"]
        ]
    for entry in _json(api / "domains.json")["domains"]:
        header, *rows = _rows(built_site / "downloads" / "domains" / f"{entry['id']}.csv")
        assert header == list(DOMAIN_COLUMNS)
        assert len(rows) == len(_json(api / "domains" / entry["id"])["models"])


def test_each_models_history_csv_matches_its_json(built_site: Path) -> None:
    api = built_site / "api" / "v1"
    models = _json(api / "models.json")["models"]
    files = sorted((built_site / "downloads" / "model-history").iterdir())
    assert [f.name for f in files] == sorted(f"{m['id']}.csv" for m in models)
    for model in models:
        header, *rows = _rows(built_site / "downloads" / "model-history" / f"{model['id']}.csv")
        points = _json(api / "model-history" / model["id"])["snapshots"]
        assert header == list(MODEL_HISTORY_COLUMNS)
        assert len(rows) == len(points)
        for row, point in zip(rows, points, strict=True):
            cells = dict(zip(header, row, strict=True))
            expected = {**point, **point["dimensions"]}
            assert {
                k: cells[k] for k in ("date", "rank", "iq", "iqLow95", "abstract-reasoning")
            } == {
                k: "" if expected[k] is None else str(expected[k])
                for k in ("date", "rank", "iq", "iqLow95", "abstract-reasoning")
            }
            assert cells["provisional"] == ("true" if point["provisional"] else "false")
    assert any(_rows(f)[1:] for f in files)  # some model has a history


def test_history_csv_has_every_snapshot_row(built_site: Path) -> None:
    header, *rows = _rows(built_site / "downloads" / "history.csv")
    api = built_site / "api" / "v1"
    snapshots = _json(api / "history.json")["snapshots"]
    expected = [
        (s["date"], m["id"])
        for s in snapshots
        for m in _json(api / "history" / s["date"])["models"]
    ]
    assert header == list(HISTORY_COLUMNS)
    assert expected and [(r[0], r[4]) for r in rows] == expected


def test_each_snapshot_has_its_own_csv_matching_its_json(built_site: Path) -> None:
    api = built_site / "api" / "v1"
    snapshots = _json(api / "history.json")["snapshots"]
    assert snapshots
    for s in snapshots:
        header, *rows = _rows(built_site / "downloads" / "history" / f"{s['date']}.csv")
        models = _json(api / "history" / s["date"])["models"]
        assert header == list(HISTORY_COLUMNS)
        assert [(r[0], r[1], r[4]) for r in rows] == [
            (s["date"], str(m["rank"]), m["id"]) for m in models
        ]
        counts = [str(s["resultCount"]), str(s["releaseDatedResultCount"])]
        assert all(r[10:12] == counts for r in rows)
        flags = ["true" if m["provisional"] else "false" for m in models]
        assert [r[header.index("provisional")] for r in rows] == flags


def test_quotes_commas_and_newlines_round_trip() -> None:
    cells = ['Model "X", large', "line\nbreak", None, 1.5, True]
    data = to_csv(["a", "b", "c", "d", "e"], [cells])
    assert data.startswith(b"a,b,c,d,e\r\n")
    assert list(csv.reader(io.StringIO(data.decode(), newline="")))[1] == [
        'Model "X", large',
        "line\nbreak",
        "",
        "1.5",
        "true",
    ]


def test_downloads_are_served_as_csv_and_the_api_as_json(built_site: Path) -> None:
    rules = parse_headers((built_site / "_headers").read_text())
    assert [r for r in rules if r.headers[0][0] != "Link"] == list(header_rules())
    csv_types = [v for k, v in headers_for(rules, "/downloads/models.csv") if k == "Content-Type"]
    assert csv_types == ["text/csv; charset=utf-8; header=present"]
    api_types = [v for k, v in headers_for(rules, "/api/v1/models") if k == "Content-Type"]
    assert api_types == ["application/json; charset=utf-8"]


def test_an_unknown_download_is_a_csv_404_as_its_content_type_says(built_site: Path) -> None:
    """Not the HTML 404 page under the folder's `text/csv` (served by `modelscores serve`)."""
    host = StaticHost(built_site)
    for path in ("/downloads/rankings/no-such-ranking.csv", "/downloads/nothing"):
        response = host.respond(path)
        assert response.status_code == 404, path
        assert response.headers["content-type"].startswith("text/csv"), path
        assert response.body == (built_site / NOT_FOUND_FILE).read_bytes(), path
    assert host.respond("/downloads/models.csv").status_code == 200


def test_to_csv_refuses_what_is_not_a_finite_number() -> None:
    for value in (math.inf, -math.inf, math.nan):
        with pytest.raises(ValueError, match="cannot publish"):
            to_csv(["a", "b"], [[1.5, value]])


def test_the_whole_history_is_its_snapshots_joined(built_site: Path) -> None:
    """history.csv, as the build joins it from the snapshots' files, is `to_csv` of all
    their rows; a part with other columns is refused."""
    history = json.loads((built_site / "api" / "v1" / "history.json").read_bytes())
    parts = [
        (built_site / "downloads" / "history" / f"{s['date']}.csv").read_bytes()
        for s in history["snapshots"]
    ]
    whole = (built_site / "downloads" / "history.csv").read_bytes()
    assert len(parts) > 0 and joined(HISTORY_COLUMNS, parts) == whole
    assert joined(HISTORY_COLUMNS, []) == to_csv(HISTORY_COLUMNS, [])
    with pytest.raises(BuildError, match="other columns"):
        joined(HISTORY_COLUMNS, [*parts, to_csv(RANKING_COLUMNS, [])])


ANY_CELL = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from([0.0, -0.0, 5e-324, -5e-324, 1e16, 1e308]),
    st.text(max_size=8),
    st.sampled_from(["", "=1", " -2", "\t", "＋x", "@a", 'q"q', "a,b", "l\nb"]),
)


@given(st.lists(st.lists(ANY_CELL, min_size=3, max_size=3), max_size=8))
def test_every_cell_is_written_as_its_encoder_writes_it(rows: list[list[Cell]]) -> None:
    """`to_csv` passes ints, None and finite floats to the `csv` writer as they are (it
    writes `str`, an empty field and `repr`): the same text as `csv_cell`/`csv_number`
    of every cell, booleans as `true`/`false`, `-0.0` as `0.0`."""

    def reference(cell: Cell) -> str:
        if cell is None:
            return ""
        if isinstance(cell, bool):
            return "true" if cell else "false"
        return csv_cell(cell) if isinstance(cell, str) else csv_number(cell)

    out = io.StringIO(newline="")
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerows([["a", "b", "c"], *([reference(c) for c in row] for row in rows)])
    assert to_csv(["a", "b", "c"], rows) == out.getvalue().encode("utf-8")
