"""Each upstream adapter on the real files in raw/ (the refresh download), and on small
hostile variants of them: one clear line per problem, never a traceback."""

from __future__ import annotations

import datetime as dt
import json
import shutil
import tomllib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.paths import UPSTREAM_FIXTURE

from generator.importers import (
    epoch,
    eqbench,
    justen,
    litellm,
    livebench,
    lmarena,
    toml_writer,
    upstream,
    valsai,
)
from generator.importers.identity import ModelInfo
from generator.importers.models_dev import read_models_dev
from generator.importers.prices import InfoIndex, find_info
from generator.importers.upstream import UpstreamError, source_value

RAW = UPSTREAM_FIXTURE
MB = 1 << 20
EPOCH = RAW / "epoch_benchmark_data"


def _one(rows: list[epoch.UpstreamRow], key: str, **values: str) -> epoch.UpstreamRow:
    found = [
        r for r in rows if r.key == key and all(r.values.get(c) == v for c, v in values.items())
    ]
    assert len(found) == 1, (key, len(found))
    return found[0]


def test_epoch_own_runs_carry_a_log_link_and_a_start_date() -> None:
    rows = epoch.read_epoch(EPOCH / "gpqa_diamond.csv", "gpqa_diamond.csv", 8 * MB, 50_000)
    row = _one(rows, "gpt-5.5-pre-release_xhigh")
    assert row.values["mean_score"] == "0.9400252525252525"
    assert row.date == dt.date(2026, 4, 24)
    assert row.url is not None and row.url.startswith("https://logs.epoch.ai/inspect-viewer/")
    assert (row.effort, epoch.base_key(row.key)) == ("xhigh", "gpt-5.5-pre-release")


def test_epoch_terminal_bench_rows_have_run_dates_agents_and_links() -> None:
    rows = epoch.read_epoch(EPOCH / "terminalbench_external.csv", "tb.csv", 8 * MB, 50_000)
    for key in ("gpt-5.5", "glm-4.7", "kimi-k2.5"):
        mine = [r for r in rows if epoch.base_key(r.key) == key]
        assert mine, key
        assert all(r.date is not None and r.harness for r in mine), key
    assert all(r.url is None or r.url.startswith("http") for r in rows)


def test_epoch_external_arc_names_the_effort_in_the_row_name() -> None:
    rows = epoch.read_epoch(EPOCH / "arc_agi_external.csv", "arc.csv", 8 * MB, 50_000)
    high = [r for r in rows if r.name.endswith("(High)")]
    assert high and all(r.effort == "high" for r in high)


def test_livebench_category_means_use_the_categories_file() -> None:
    cats = livebench.read_categories(
        RAW / "livebench" / "categories_2026_01_08.json", "categories.json", MB
    )
    assert cats["Agentic Coding"] == ["javascript", "typescript", "python"]
    rows = livebench.read_livebench(
        RAW / "livebench" / "table_2026_01_08.csv", "table.csv", cats, MB, 10_000
    )
    row = _one(rows, "gpt-5.5-xhigh")
    tasks = [float(row.values[t]) for t in cats["Mathematics"]]
    assert row.values["category:Mathematics"] == repr(round(sum(tasks) / len(tasks), 2))
    # the written row's Mathematics tasks (AMPS_Hard, integrals_with_game, math_comp,
    # olympiad): (80 + 87.5 + 81.5 + 83) / 4 = 83.0
    assert row.values["category:Mathematics"] == "83.0"
    assert row.effort == "xhigh" and row.date is None


def test_eqbench_rows_keep_the_sites_names() -> None:
    rows = eqbench.read_eqbench(RAW / "eqbench" / "eqbench3_leaderboard.csv", "eq.csv", MB, 5000)
    row = _one(rows, "*claude-opus-4-8")
    assert row.values["elo_norm"] == "2000.0" and row.date is None


def test_vals_rows_are_dated_by_benchmark_update_and_link_to_its_page() -> None:
    rows = valsai.read_vals(RAW / "valsai" / "scores_overall.csv", "vals.csv", MB, 50_000)
    row = _one(rows, "openai/gpt-5.5", benchmark="tax_eval_v2")
    assert (row.date, row.as_of_kind, row.url, row.effort) == (
        dt.date(2026, 9, 1),
        "published",  # the table's update date: run between the release and then (1.2)
        "https://www.vals.ai/benchmarks/tax_eval_v2",
        "xhigh",
    )
    assert row.values["accuracy"] == "70.25"


def test_vals_model_table_rows_are_identity_rows_in_the_epoch_columns() -> None:
    rows = valsai.read_vals_models(RAW / "valsai" / "models.csv", "models.csv", MB, 1000)
    row = _one(rows, "kimi/kimi-k2.5-thinking")
    assert (row.date, row.url) == (
        dt.date(2026, 1, 27),
        "https://www.vals.ai/models/kimi_kimi-k2.5-thinking",
    )
    assert valsai.identity_values(row) == {
        "Model name": "Kimi K2.5 (Thinking)",
        "Organization": "Moonshot AI",
        "Country": "China",
        "Release date": "2026-01-27",
        "Model accessibility": "Open weights",
        "Context window": "262144",
        "Max output tokens": "65536",
        "Modalities": "text,image",  # images true, audio and videos false
        "Tool use": "true",
        "Deprecated": "false",
        "Page": "https://www.vals.ai/models/kimi_kimi-k2.5-thinking",
    }


@pytest.mark.parametrize(
    ("key", "expected"),
    [
        ("anthropic/claude-opus-5-5", "claude-opus-5.5"),
        ("meta/muse_spark_1_3_max", "muse-spark-1.3-max"),
        ("openai/gpt-6.1-sol", "gpt-6.1-sol"),
        ("alibaba/qwen3-235b-a22b", "qwen3-235b-a22b"),  # 3-235: not a version's point
        ("fireworks/nemotron-lightning-3p5-30b-a3b", "nemotron-lightning-3p5-30b-a3b"),
        ("together/meta-llama/Llama-4-Scout-17B-16E-Instruct", "Llama-4-Scout-17B-16E-Instruct"),
    ],
)
def test_vals_keys_become_ids_with_a_point_for_a_version(key: str, expected: str) -> None:
    assert valsai.model_id(key) == expected


def test_biology_study_rows_are_dated_by_their_first_run() -> None:
    rows = justen.read_justen(
        RAW / "bio_benchmarks_justen" / "20250507_summary.csv", "bio.csv", MB, 10_000
    )
    row = _one(rows, "anthropic/claude-2.0", benchmark="gpqa", prompt_schema="zero_shot")
    assert row.date == dt.date(2024, 10, 30)
    assert "filenames" not in row.values


def test_lmarena_ratings_by_category() -> None:
    rows = lmarena.read_lmarena(
        RAW / "lmarena" / "leaderboard-text-style-control.json", "arena.json", 4 * MB, 100_000
    )
    row = _one(rows, "gemini-3-pro", category="chinese")
    assert float(row.values["rating"]) == 1500.25


def test_models_dev_identity_prices_tiers_and_base_model_inheritance() -> None:
    infos, notes = read_models_dev(
        RAW / "models_dev", "models_dev", "https://x/providers", MB, 5000
    )
    gpt = infos["openai/gpt-5.5"]
    assert (gpt.release_date, gpt.knowledge_cutoff, gpt.open_weights) == (
        dt.date(2026, 4, 23),
        "2025-12-01",
        False,
    )
    assert gpt.prices == {"input": 5.0, "output": 30.0, "cache_read": 0.5}
    assert gpt.tiers[0].above_tokens == 272_000 and gpt.tiers[0].prices["input"] == 10.0
    assert gpt.url == "https://x/providers/openai/models/gpt-5.5.toml"
    # google/gemini-2.5-pro names the base `_models/google/gemini-2.5-pro.toml`: the
    # base's identity with the provider file's own prices.
    gemini = infos["google/gemini-2.5-pro"]
    assert gemini.name and gemini.release_date is not None and gemini.prices
    assert infos["openrouter/qwen/qwen3-235b-a22b-thinking-2507"].prices
    assert any("glm-5.2" in n and "own fields only" in n for n in notes)


def test_a_model_finds_its_price_entry_by_id_or_alias() -> None:
    keys = (
        "openrouter/acme/rocket-2", "zeta/Rocket-2", "acme/rocket-2", "rocket-2-mini",
        "acme/other", "openrouter/only/here",
    )  # fmt: skip
    index = InfoIndex({key: ModelInfo(key=key, url=f"u/{key}") for key in keys})

    def found(model_id: str, aliases: tuple[str, ...] = (), **mapped: str) -> str | None:
        info = find_info(model_id, {"aliases": list(aliases)}, index, mapped)
        return None if info is None else info.key

    # The model part, any case: first-party before resellers, then by key (acme < zeta).
    assert found("rocket-2") == "acme/rocket-2"
    assert found("ROCKET-2") == "acme/rocket-2"
    assert found("here") == "openrouter/only/here"  # a reseller when nobody else has it
    assert found("x", aliases=("Acme/Other",)) == "acme/other"  # an alias, as a whole key
    assert found("rocket") is None  # a prefix is not a match
    # The source's own mapping wins, even over a name that matches.
    assert found("rocket-2", **{"rocket-2": "rocket-2-mini"}) == "rocket-2-mini"
    assert found("rocket-2", **{"rocket-2": "gone"}) is None


def test_litellm_prices_per_million() -> None:
    infos = litellm.read_litellm(
        RAW / "litellm" / "model_prices_and_context_window_backup.json",
        "l.json",
        "u",
        16 * MB,
        20_000,
    )
    assert infos["gpt-5.5"].prices == {"input": 5.0, "output": 30.0, "cache_read": 0.5}
    assert infos["gpt-5.5"].context_window == 1_050_000


def test_source_value_drops_float_noise_only() -> None:
    assert source_value(0.9500000000000001) == 0.95
    assert source_value(0.9400252525252525) == 0.9400252525252525


# --- hostile variants -------------------------------------------------------------


def _copy(tmp: Path, name: str, text: str | bytes) -> Path:
    path = tmp / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def _problems(exc: pytest.ExceptionInfo[UpstreamError]) -> list[str]:
    return exc.value.problems


def test_a_file_over_its_size_limit_is_refused_before_parsing(tmp_path: Path) -> None:
    path = tmp_path / "gpqa.csv"
    shutil.copy(EPOCH / "gpqa_diamond.csv", path)
    with pytest.raises(UpstreamError) as exc:
        epoch.read_epoch(path, "gpqa.csv", 1000, 50_000)
    (line,) = _problems(exc)
    assert line.startswith("gpqa.csv: file: ") and "more than the limit of 1000" in line


def test_a_table_over_its_row_limit_is_refused(tmp_path: Path) -> None:
    with pytest.raises(UpstreamError) as exc:
        epoch.read_epoch(EPOCH / "gpqa_diamond.csv", "gpqa.csv", 8 * MB, 3)
    assert _problems(exc) == ["gpqa.csv: rows: more than the limit of 3 rows"]


def test_a_truncated_file_and_a_missing_column_are_one_line(tmp_path: Path) -> None:
    text = (EPOCH / "gpqa_diamond.csv").read_text(encoding="utf-8")
    cut = _copy(tmp_path, "cut.csv", text[: len(text) // 2] + '"unterminated')
    with pytest.raises(UpstreamError) as exc:
        epoch.read_epoch(cut, "cut.csv", 8 * MB, 50_000)
    assert _problems(exc) == ["cut.csv: file: does not end with a line break (truncated?)"]
    renamed = _copy(tmp_path, "renamed.csv", text.replace("Model version", "Model", 1))
    with pytest.raises(UpstreamError) as exc:
        epoch.read_epoch(renamed, "renamed.csv", 8 * MB, 50_000)
    assert _problems(exc) == ["renamed.csv: header: missing column 'Model version'"]


def test_control_characters_and_bad_encoding_are_refused(tmp_path: Path) -> None:
    head = "model_name,elo_norm\n"
    bad = _copy(tmp_path, "eq.csv", head + "evil\x1b[2Jname,1500\n")
    with pytest.raises(UpstreamError) as exc:
        eqbench.read_eqbench(bad, "eq.csv", MB, 100)
    assert _problems(exc) == [
        "eq.csv: row 2: model_name: control character U+001B in a one-line field"
    ]
    latin = _copy(tmp_path, "latin.csv", (head + "caf\xe9,1500\n").encode("latin-1"))
    with pytest.raises(UpstreamError) as exc:
        eqbench.read_eqbench(latin, "latin.csv", MB, 100)
    assert _problems(exc) == ["latin.csv: file: not UTF-8 (byte 23)"]


def test_json_that_does_not_parse_or_nests_too_deep(tmp_path: Path) -> None:
    broken = _copy(tmp_path, "l.json", '{"gpt-5.5": {"input_cost_per_token": 5e-06')
    with pytest.raises(UpstreamError) as exc:
        litellm.read_litellm(broken, "l.json", "u", MB, 100)
    (line,) = _problems(exc)
    assert line.startswith("l.json: file: not valid JSON")
    deep = _copy(tmp_path, "d.json", "[" * 100 + "]" * 100)
    with pytest.raises(UpstreamError) as exc:
        lmarena.read_lmarena(deep, "d.json", MB, 100)
    assert _problems(exc) == ["d.json: file: nested deeper than 32"]
    nan = _copy(tmp_path, "n.json", '{"text": {"m": {"rating": NaN}}}')
    with pytest.raises(UpstreamError) as exc:
        lmarena.read_lmarena(nan, "n.json", MB, 100)
    assert _problems(exc)[0].startswith("n.json: file: not valid JSON")


@pytest.mark.parametrize(
    ("document", "depth"),
    [
        ("1", 1),
        ("[]", 1),  # an empty container adds no level
        ('{"a": []}', 2),
        ('{"a": [1]}', 3),  # a scalar counts as a level
        ('[[1], {"b": {"c": "d"}}, 2]', 4),
        ("[" * 31 + "]" * 31, 31),
        ("[" * 32 + "1" + "]" * 32, 33),  # past the limit: reported as soon as it is seen
    ],
)
def test_the_depth_of_a_json_document(document: str, depth: int) -> None:
    assert upstream._depth(json.loads(document)) == depth


def test_a_symlinked_upstream_file_is_not_followed(tmp_path: Path) -> None:
    link = tmp_path / "gpqa.csv"
    link.symlink_to(EPOCH / "gpqa_diamond.csv")
    with pytest.raises(UpstreamError) as exc:
        epoch.read_epoch(link, "gpqa.csv", 8 * MB, 50_000)
    assert _problems(exc) == ["gpqa.csv: file: not a regular file (links are not followed)"]


def test_a_models_dev_price_out_of_range_names_the_file(tmp_path: Path) -> None:
    root = tmp_path / "models_dev" / "acme" / "models"
    root.mkdir(parents=True)
    (root / "m.toml").write_text('name = "M"\n[cost]\ninput = -1\noutput = 2\n')
    with pytest.raises(UpstreamError) as exc:
        read_models_dev(tmp_path / "models_dev", "models_dev", "https://x", MB, 10)
    assert _problems(exc) == ["models_dev/acme/models/m.toml: cost.input: -1 is outside 0..100000"]


def _string_char_by_char(value: str) -> str:
    """toml_writer._string before 2026-11-26 (a loop over the characters), kept to compare."""
    short = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\t": "\\t", "\r": "\\r"}
    chars = []
    for char in value:
        if char in short:
            chars.append(short[char])
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            chars.append(f"\\u{ord(char):04x}")
        else:
            chars.append(char)
    return '"' + "".join(chars) + '"'


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(codec="utf-8") | st.sampled_from('"\\\n\t\r\x00\x1f\x7f')))
def test_a_toml_string_is_escaped_as_the_character_loop_did_and_reads_back(value: str) -> None:
    written = toml_writer._string(value)
    assert written == _string_char_by_char(value)
    assert tomllib.loads(f"x = {written}") == {"x": value}
