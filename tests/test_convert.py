"""The seed-data converter (scripts/convert_sources.py) and its TOML writer."""

from __future__ import annotations

import datetime as dt
import subprocess
import sys
import tomllib
import urllib.parse
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = ROOT / "scripts"
SOURCES = ROOT.parent / "shared" / "data-sources"
sys.path.insert(0, str(SCRIPTS))

from convert_common import epoch_effort, source_value, suffix_effort, value_bounds  # noqa: E402
from convert_results import epoch_source_name  # noqa: E402
from toml_writer import dumps  # noqa: E402


def test_writer_round_trips_through_tomllib() -> None:
    doc = {
        "id": "x",
        "text": 'quote " backslash \\ newline \n tab \t unicode é',
        "count": 3,
        "small": 1e-05,
        "whole": 2.0,
        "flag": False,
        "day": dt.date(2026, 1, 2),
        "stamp": dt.datetime(2026, 1, 2, tzinfo=dt.UTC),
        "missing": None,
        "empty": [],
        "tags": ["a", "b"],
        "private": {"notes": "kept last"},
        "table": {"inner": 1, "nested": {"deep": "yes"}},
        "items": [{"a": 1, "values": {"k": 0.5}}, {"a": 2}],
    }
    text = dumps(doc, header="generated")
    assert text.startswith("# generated\n")
    assert text.rstrip().endswith('[private]\nnotes = "kept last"')
    parsed = tomllib.loads(text)
    expected = {k: v for k, v in doc.items() if v is not None and v != []}
    assert parsed == expected


def test_writer_refuses_values_toml_or_the_data_cannot_hold() -> None:
    with pytest.raises(ValueError, match="non-finite"):
        dumps({"x": float("nan")})
    with pytest.raises(ValueError, match="UTC"):
        dumps({"x": dt.datetime(2026, 1, 1)})


def test_writer_puts_long_string_arrays_one_item_per_line() -> None:
    text = dumps({"rules": ["a" * 50, "b" * 50]})
    assert text == f'rules = [\n    "{"a" * 50}",\n    "{"b" * 50}",\n]\n'


@pytest.mark.skipif(not SOURCES.is_dir(), reason="the seed folder ../shared is not present")
def test_converter_reproduces_the_committed_data(tmp_path: Path) -> None:
    out = tmp_path / "data"
    for _ in range(2):  # twice into the same folder: stale files go, bytes stay
        subprocess.run(
            [
                sys.executable,
                str(SCRIPTS / "convert_sources.py"),
                "--sources",
                str(SOURCES),
                "--out",
                str(out),
            ],
            check=True,
            capture_output=True,
        )
    written = sorted(p.relative_to(out) for p in out.rglob("*.toml"))
    committed = sorted(p.relative_to(ROOT / "data") for p in (ROOT / "data").rglob("*.toml"))
    assert written == committed
    # methodology.toml is maintained by hand since methodology version 3 (not converted)
    for relative in (r for r in written if r != Path("methodology.toml")):
        assert (out / relative).read_bytes() == (ROOT / "data" / relative).read_bytes(), relative


DATA = ROOT / "data"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("0.9500000000000001", 0.95),  # 95.00% / 100 in binary floating point
        ("0.37520000000000003", 0.3752),
        ("0.40299999999999997", 0.403),
        ("0.9400252525252525", 0.9400252525252525),  # 372.25/396: real precision, kept
        ("0.3333333333333333", 0.3333333333333333),
        ("157.87738467616128", 157.87738467616128),
        ("1576.9", 1576.9),
        ("0.0", 0.0),
    ],
)
def test_source_value_drops_float_noise_only(text: str, expected: float) -> None:
    assert repr(source_value(text)) == repr(expected)


def test_value_bounds_follow_the_unit() -> None:
    assert value_bounds("fraction 0-1") == {"min_value": 0.0, "max_value": 1.0}
    assert value_bounds("fraction 0-1 (despite % in header)") == {
        "min_value": 0.0,
        "max_value": 1.0,
    }
    assert value_bounds("percent 0-100") == {"min_value": 0.0, "max_value": 100.0}
    assert value_bounds("minutes") == {"min_value": 0.0}
    with pytest.raises(ValueError, match="no value bounds"):
        value_bounds("furlongs")


def test_effort_is_read_from_each_source_naming() -> None:
    assert epoch_effort("gpt-5.5_xhigh") == "xhigh"
    assert epoch_effort("claude-opus-4-5-20251101_16K") == "16K"
    assert epoch_effort("claude-opus-4-5-20251101_unknown") is None
    assert epoch_effort("gemini-3-flash-preview", "Gemini 3 Flash Preview (Minimal)") == "minimal"
    assert epoch_effort("gpt-5.1-codex-max") is None
    assert suffix_effort("claude-opus-4-5-20251101-thinking-64k-high-effort") == "high"
    assert suffix_effort("claude-4-sonnet-20250514-thinking-64k") == "64K"
    assert suffix_effort("gemini-2.5-pro-06-05-highthinking") == "high"
    assert suffix_effort("gpt-5.1-codex-max") is None


def test_epoch_source_names_say_where_the_url_points() -> None:
    arc = "https://arcprize.org/leaderboard"
    assert epoch_source_name(arc, arc) == "ARC Prize Leaderboard via Epoch AI, AI Benchmarking Hub"
    assert (
        epoch_source_name("SimpleBench Leaderboard", "https://lmcouncil.ai/benchmarks")
        == "SimpleBench Leaderboard (LM Council) via Epoch AI, AI Benchmarking Hub"
    )
    zip_url = "https://epoch.ai/data/benchmark_data.zip"
    assert epoch_source_name("", zip_url) == "Epoch AI, AI Benchmarking Hub"
    with pytest.raises(ValueError, match="no site name"):
        epoch_source_name("https://unknown.example/x", "https://unknown.example/x")


def _shipped_results() -> list[tuple[str, dict[str, object]]]:
    rows: list[tuple[str, dict[str, object]]] = []
    for path in sorted((DATA / "models").glob("*.toml")):
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
        rows += [(path.name, r) for r in doc.get("results", [])]
    for path in sorted((DATA / "domains").glob("*.toml")):
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
        rows += [(path.name, {**r, "value": r["score"]}) for r in doc.get("results", [])]
    return rows


def test_shipped_values_carry_no_float_noise() -> None:
    noisy = [
        (name, r["benchmark"], r["value"])
        for name, r in _shipped_results()
        if source_value(repr(r["value"])) != r["value"]
    ]
    assert noisy == []


# Where each named origin publishes; a result relayed by Epoch may also link Epoch itself.
ORIGIN_HOSTS = {
    "Epoch AI, AI Benchmarking Hub": {"epoch.ai", "logs.epoch.ai"},
    "ARC Prize Leaderboard": {"arcprize.org"},
    "Aider LLM Leaderboards": {"aider.chat"},
    "Anthropic annoucement": {"www.anthropic.com"},  # sic, the source's spelling
    "METR - Measuring AI Ability to Complete Long Tasks": {"metr.org"},
    "OS World Website": {"os-world.github.io"},
    "SimpleBench Leaderboard": {"simple-bench.com"},
    "SimpleBench Leaderboard (LM Council)": {"lmcouncil.ai"},
    "Terminal-Bench v2 Leaderboard": {"www.tbench.ai"},
    "swebench.com leaderboard (bash only)": {"www.swebench.com"},
    "LiveBench": {"livebench.ai"},
    "EQ-Bench 3 (eqbench.com)": {"eqbench.com"},
    "Spiral-Bench v1 (eqbench.com)": {"eqbench.com"},
}


def test_shipped_model_results_name_the_site_their_url_points_to() -> None:
    disagree = []
    for path in sorted((DATA / "models").glob("*.toml")):
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
        if doc.get("published", True) is False:
            continue
        for result in doc.get("results", []):
            origin, via, hub = result["source_name"].partition(" via ")
            allowed = ORIGIN_HOSTS.get(origin, set())
            if via:
                allowed = allowed | ORIGIN_HOSTS.get(hub, set())
            host = urllib.parse.urlsplit(result["source_url"]).netloc
            if host not in allowed:
                disagree.append((path.name, result["benchmark"], result["source_name"], host))
    assert disagree == []


def test_gemini_3_flash_arc_results_share_one_effort_setting() -> None:
    doc = tomllib.loads((DATA / "models" / "gemini-3-flash.toml").read_text(encoding="utf-8"))
    arc = {r["benchmark"]: r for r in doc["results"] if r["benchmark"].startswith("arc-agi")}
    assert set(arc) == {"arc-agi-1", "arc-agi-2"}
    assert {r["effort"] for r in arc.values()} == {"minimal"}
    assert (arc["arc-agi-1"]["value"], arc["arc-agi-2"]["value"]) == (0.215, 0.0333)
