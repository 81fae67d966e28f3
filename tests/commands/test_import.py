"""`modelscores import` end to end: upstream files into a copy of the shipped data/ (the small
files of tests/upstream/; the whole upstream of raw/, where downloaded, for the shipped data).

Idempotent (a second import changes no byte), people win (a pinned value survives and is
reported as a conflict), a broken upstream file changes nothing, and the shipped data is
the importer's output with provenance on every imported result.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import shutil
from pathlib import Path

import pytest
import rtoml
from click.testing import CliRunner, Result
from support.paths import ACCEPT_ALL, UPSTREAM_FIXTURE, UPSTREAM_RAW, needs_raw

from generator.cli import cli
from generator.errors import DataError
from generator.importers.run import write_checked

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "data"
RAW = UPSTREAM_FIXTURE  # small files in each upstream format (tests/upstream/README.md)
# The Terminal-Bench 2.0 rows the curated merge dropped (issue 25).
TERMINAL_BENCH_ADDED = (
    "deepseek-v3.2", "gemini-2.5-flash", "glm-4.7", "glm-5", "gpt-5.2-codex", "gpt-5.4",
    "gpt-5.5", "kimi-k2.5", "minimax-m2.1", "minimax-m2.5",
)  # fmt: skip


def _tree(root: Path) -> dict[str, str]:
    return {
        str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def _import(data: Path, raw: Path = RAW, *extra: str) -> Result:
    args = ["import", "--data-dir", str(data), "--raw", str(raw), *ACCEPT_ALL, *extra]
    return CliRunner().invoke(cli, args)


@pytest.fixture(scope="module")
def baseline(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The shipped data/ imported once from the small upstream files."""
    data = tmp_path_factory.mktemp("baseline") / "data"
    shutil.copytree(SHIPPED, data)
    result = _import(data, RAW)
    assert result.exit_code == 0, result.output
    return data


@pytest.fixture
def data(baseline: Path, tmp_path: Path) -> Path:
    shutil.copytree(baseline, tmp_path / "data")
    return tmp_path / "data"


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


GPQA = 'benchmark = "gpqa-diamond"\nvalue = 0.9400252525252525\n'


@needs_raw
def test_the_shipped_data_is_the_importers_output(tmp_path: Path) -> None:
    data = tmp_path / "data"
    shutil.copytree(SHIPPED, data)
    before = _tree(data)
    result = _import(data, UPSTREAM_RAW, "--format", "json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["changed"] is False and report["files"] == []
    assert _tree(data) == before


def test_import_twice_the_second_changes_nothing(data: Path) -> None:
    model = data / "models" / "gpt-5.5.toml"
    imported = model.read_bytes()
    _edit(model, GPQA, 'benchmark = "gpqa-diamond"\nvalue = 0.5\n')
    first = _import(data)
    assert first.exit_code == 0, first.output
    assert "models/gpt-5.5.toml: gpqa-diamond: 0.5 -> 0.9400252525252525" in first.output
    assert model.read_bytes() == imported
    after_first = _tree(data)
    second = _import(data)
    assert second.exit_code == 0, second.output
    assert "No changes: data/ already matches the upstream files." in second.output
    assert _tree(data) == after_first


def test_a_pinned_correction_survives_and_is_a_conflict(data: Path) -> None:
    model = data / "models" / "gpt-5.5.toml"
    _edit(model, GPQA, 'benchmark = "gpqa-diamond"\nvalue = 0.93\n')
    _edit(
        model,
        'row_id = "FUv4EUwR78nAsdGbiwiLEr"\n',
        'row_id = "FUv4EUwR78nAsdGbiwiLEr"\npinned = true\n',
    )
    result = _import(data, RAW, "--format", "json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["conflicts"] == [
        "models/gpt-5.5.toml: gpqa-diamond: kept pinned 0.93; upstream epoch row"
        " 'FUv4EUwR78nAsdGbiwiLEr' says 0.9400252525252525"
    ]
    results = rtoml.load(model)["results"]
    gpqa = next(r for r in results if r["benchmark"] == "gpqa-diamond")
    assert (gpqa["value"], gpqa["pinned"]) == (0.93, True)
    again = _import(data, RAW, "--format", "json")
    assert json.loads(again.output)["changed"] is False


def test_a_truncated_upstream_file_fails_cleanly_and_changes_nothing(
    data: Path, tmp_path: Path
) -> None:
    raw = tmp_path / "raw"
    shutil.copytree(RAW, raw)
    tb = raw / "epoch_benchmark_data" / "terminalbench_external.csv"
    tb.write_bytes(tb.read_bytes()[:-1])  # the last line's break cut off
    _edit(data / "models" / "gpt-5.5.toml", GPQA, 'benchmark = "gpqa-diamond"\nvalue = 0.5\n')
    before = _tree(data)
    result = _import(data, raw)
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    assert result.output.splitlines() == [
        "epoch_benchmark_data/terminalbench_external.csv: file: does not end with a line"
        " break (truncated?)",
        "Aborted: 1 data error",
    ]
    assert _tree(data) == before


def test_an_upstream_value_outside_the_benchmarks_bounds_is_one_line(
    data: Path, tmp_path: Path
) -> None:
    raw = tmp_path / "raw"
    shutil.copytree(RAW, raw)
    _edit(raw / "epoch_benchmark_data" / "gpqa_diamond.csv", "0.9400252525252525", "94.00")
    before = _tree(data)
    result = _import(data, raw)
    assert result.exit_code == 1
    assert result.output.splitlines() == [
        "epoch_benchmark_data/gpqa_diamond.csv: row 'FUv4EUwR78nAsdGbiwiLEr': mean_score:"
        " 94.0 is outside the bounds 0.0..1.0 of 'gpqa-diamond'",
        "Aborted: 1 data error",
    ]
    assert _tree(data) == before


def test_a_mapping_in_the_source_file_brings_in_a_key(data: Path) -> None:
    """An unmatched key (EQ-Bench's `chatgpt-4o-latest`) mapped by hand to a model."""
    before = _import(data, RAW, "--format", "json")
    assert "chatgpt-4o-latest" in json.loads(before.output)["unmatched"]["eqbench"]
    with (data / "sources" / "eqbench.toml").open("a", encoding="utf-8") as handle:
        handle.write('\n[[models]]\nkey = "chatgpt-4o-latest"\nmodel = "gpt-5.5"\n')
    result = _import(data, RAW, "--format", "json")
    report = json.loads(result.output)
    assert "chatgpt-4o-latest" not in report["unmatched"].get("eqbench", [])
    eq = [
        r
        for r in rtoml.load(data / "models" / "gpt-5.5.toml")["results"]
        if r["benchmark"] == "eq-bench-3"
    ]
    assert eq[0]["source_model"] in ("gpt-5.5", "chatgpt-4o-latest")  # the better row wins


def test_every_imported_result_has_a_source_a_link_and_a_date() -> None:
    models = {p.stem: rtoml.load(p) for p in (SHIPPED / "models").glob("*.toml")}
    domains = [rtoml.load(p) for p in (SHIPPED / "domains").glob("*.toml")]
    rows = [(m, r) for m, doc in models.items() for r in doc.get("results", [])]
    rows += [(r["model"], r) for d in domains for r in d.get("results", [])]
    sourced = [(m, r) for m, r in rows if "source" in r]
    assert len(sourced) == len(rows) - 1  # acme-nova-2-preview's hand-entered, pinned result
    for model_id, row in sourced:
        assert row["source_url"].startswith("https://"), (model_id, row)
        assert row["row_id"], (model_id, row)
        if row.get("as_of_kind") == "not-before":
            assert row["as_of"] == models[model_id]["release_date"], (model_id, row)
    for model_id in TERMINAL_BENCH_ADDED:
        benches = {r["benchmark"] for r in models[model_id]["results"]}
        assert "terminal-bench-2" in benches, model_id


def test_new_models_follow_the_sources_publish_rule() -> None:
    claude = rtoml.load(SHIPPED / "models" / "claude-3-7-sonnet.toml")
    assert claude.get("published", True) is True
    assert "claude-3-7-sonnet-20250219" in claude["aliases"]
    dims = {
        rtoml.load(SHIPPED / "benchmarks" / f"{r['benchmark']}.toml").get("dimension")
        for r in claude["results"]
    }
    assert len(dims - {None}) >= 3
    configs = {c["id"]: c for c in claude["reasoning_configurations"]}
    sixteen = configs["claude-3-7-sonnet-20250219_16k"]  # Epoch AI's `_16K` rows
    assert (sixteen["effort_key"], sixteen["values"]["arcAgi1"]) == ("16K", 0.286)
    draft = rtoml.load(SHIPPED / "models" / "codex-mini.toml")
    assert draft["published"] is False


def test_pinned_prices_survive_and_tier_prices_are_imported(data: Path) -> None:
    model = data / "models" / "gpt-5.5.toml"
    _edit(model, "[prices]\ninput = 5.0\n", "[prices]\ninput = 4.0\npinned = true\n")
    result = _import(data, RAW, "--format", "json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["conflicts"] == [
        "models/gpt-5.5.toml: prices: kept pinned prices; models-dev:openai/gpt-5.5 says input 5.0"
    ]
    prices = rtoml.load(model)["prices"]
    assert (prices["input"], prices["pinned"]) == (4.0, True)
    shipped = rtoml.load(SHIPPED / "models" / "gpt-5.5.toml")["prices"]
    assert shipped["tiers"] == [
        {"above_tokens": 272000, "input": 10.0, "output": 45.0, "cache_read": 1.0}
    ]  # models.dev's [[cost.tiers]] of providers/openai/models/gpt-5.5.toml


def test_dry_run_reports_in_markdown_and_writes_nothing(data: Path, tmp_path: Path) -> None:
    _edit(data / "models" / "gpt-5.5.toml", GPQA, 'benchmark = "gpqa-diamond"\nvalue = 0.5\n')
    before = _tree(data)
    report = tmp_path / "build" / "import-report.md"  # an artefact: its folder is made
    result = _import(data, RAW, "--dry-run", "--format", "markdown", "--report", str(report))
    assert result.exit_code == 0, result.output
    assert report.read_text(encoding="utf-8") == result.output
    lines = result.output.splitlines()
    assert lines[:3] == ["# Import report", "", "1 file changed."]
    assert "## Changes (1)" in lines
    assert _tree(data) == before


def test_a_pinned_domain_row_survives_and_exclusions_are_reported(data: Path) -> None:
    finance = data / "domains" / "finance.toml"
    _edit(
        finance,
        'model = "gpt-5.5"\nscore = 70.25\n',
        'model = "gpt-5.5"\nscore = 70.0\npinned = true\n',
    )
    result = _import(data, RAW, "--format", "json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["conflicts"] == [
        "domains/finance.toml: gpt-5.5/corpfin-v2: kept pinned 70.0; upstream valsai row"
        " 'corp_fin_v2/overall/openai/gpt-5.5' says 70.25"
    ]
    rows = rtoml.load(finance)["results"]
    mine = [r for r in rows if (r["model"], r["benchmark"]) == ("gpt-5.5", "corpfin-v2")]
    assert [(r["score"], r["pinned"]) for r in mine] == [(70.0, True)]
    assert json.loads(_import(data, RAW, "--format", "json").output)["files"] == []
    assert (
        "epoch: tiny-recursion-model on arc-agi-1: a small task-specific model trained for"
        " ARC, not a general model" in report["excluded"]
    )


def test_vals_rows_carry_their_tables_date_and_new_tables_are_listed(data: Path) -> None:
    """A vals.ai row's date is its table's update (`published`, METHODOLOGY 1.2); a table
    no feed reads (the fixture's `cyber`) is named in the report, so a maintainer sees it."""
    result = _import(data, RAW, "--format", "json")
    report = json.loads(result.output)
    assert report["uncatalogued"] == [
        "valsai: valsai/scores_overall.csv: cyber (CyberBench v1.1, 2 rows, updated 2026-10-01)"
    ]
    gpqa = rtoml.load(data / "models" / "gpt-5.5.toml")["results"]
    mine = [r for r in gpqa if r["benchmark"] == "gpqa-diamond-valsai"]
    assert [(r["value"], r["as_of_kind"], r["effort"]) for r in mine] == [
        (92.5, "published", "xhigh")
    ]
    rows = rtoml.load(data / "domains" / "legal.toml")["results"]
    mine = [r for r in rows if (r["model"], r["benchmark"]) == ("gpt-5.5", "legalbench")]
    assert [(r["as_of"], r["as_of_kind"]) for r in mine] == [(dt.date(2026, 10, 1), "published")]


def test_a_vals_model_comes_in_from_the_model_table_and_is_published_by_the_one_rule(
    baseline: Path,
) -> None:
    """`grok/grok-9-9` (a fixture row, released 2026-08-20, after vals.ai's [publish] date)
    becomes grok-9.9: its identity from valsai/models.csv, its lab's one name and country
    from data/providers/ (SpaceXAI is xAI), published with direct results in two dimensions
    (academic: GPQA; programmatic: SWE-bench, both with fitted ladders)."""
    doc = rtoml.load(baseline / "models" / "grok-9.9.toml")
    assert (doc["name"], doc["provider"], doc["country"]) == (
        "Grok 9.9",
        "xAI",
        "United States of America",
    )
    assert (doc["release_date"], doc["context_window"], doc["open_weights"]) == (
        dt.date(2026, 8, 20),
        256000,
        False,
    )
    assert (doc["modalities"], doc["tool_use"], doc["identity_url"]) == (
        ["text", "image"],
        True,
        "https://www.vals.ai/models/grok_grok-9-9",
    )
    assert "deprecated" not in doc  # not deprecated: the default, not written
    assert "published" not in doc  # published: the default
    assert sorted(r["benchmark"] for r in doc["results"]) == [
        "gpqa-diamond-valsai",
        "swe-bench-valsai",
    ]


def test_a_missing_raw_folder_is_one_line(data: Path, tmp_path: Path) -> None:
    result = _import(data, tmp_path / "nowhere")
    assert result.exit_code == 1
    assert result.output.splitlines() == [
        f"{tmp_path / 'nowhere'}: directory: the upstream files' folder is not found",
        "Aborted: 1 data error",
    ]


AIDER_LINK = "https://aider.chat/docs/leaderboards/#polyglot-leaderboard"
COMMAND_A = "c4ai-command-a-03-2025"


@pytest.mark.parametrize(
    "link",
    [
        "https://user@aider.chat/docs/",  # user info: the link goes elsewhere than it reads
        "https://\u4f8b\u3048.jp/x",  # a host not ASCII as written
        "https://aider%2echat/docs/",  # '%' in the host
    ],
)
def test_an_upstream_link_the_data_refuses_falls_back_to_the_files_url(
    data: Path, tmp_path: Path, link: str
) -> None:
    """An upstream row's link that the loader's URL rule refuses is dropped for the source
    file's own URL (as a non-http(s) link is), so one odd row does not fail the import."""
    raw = tmp_path / "raw"
    shutil.copytree(RAW, raw)
    table = raw / "epoch_benchmark_data" / "aider_polyglot_external.csv"
    lines = table.read_text(encoding="utf-8").splitlines(keepends=True)
    (at,) = [n for n, line in enumerate(lines) if line.startswith(COMMAND_A + ",")]
    assert AIDER_LINK in lines[at]
    lines[at] = lines[at].replace(AIDER_LINK, link)
    table.write_text("".join(lines), encoding="utf-8")
    result = _import(data, raw)
    assert result.exit_code == 0, result.output
    model = rtoml.loads((data / "models" / f"{COMMAND_A}.toml").read_text(encoding="utf-8"))
    (aider,) = [r for r in model["results"] if r["benchmark"] == "aider-polyglot"]
    assert aider["source_url"] == "https://epoch.ai/data/benchmark_data.zip"


def test_a_written_file_the_loader_refuses_is_named_in_data_not_a_temporary_copy(
    data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The import loads a full copy of data/ with its changes before moving them in: a
    problem found there names the file under the data/ folder given, never the copy's
    temporary folder (deleted by the time the line is read)."""
    monkeypatch.chdir(data.parent)
    model = Path("data") / "models" / f"{COMMAND_A}.toml"
    text = model.read_text(encoding="utf-8").replace(AIDER_LINK, "https://user@aider.chat/")
    with pytest.raises(DataError) as caught:
        write_checked(Path("data"), {f"models/{COMMAND_A}.toml": text})
    assert caught.value.problems == [
        f'{model}: results[0].source_url: user info "user@" before a URL\'s host (the link'
        ' goes to aider.chat) (value: "https://user@aider.chat/")'
    ]
    assert "https://user@" not in model.read_text(encoding="utf-8")


def test_the_report_counts_published_models_and_lists_each_draft(data: Path) -> None:
    report = json.loads(_import(data, RAW, "--format", "json").output)
    docs = [rtoml.load(p) for p in sorted((data / "models").glob("*.toml"))]
    drafts = [d["id"] for d in docs if d.get("published") is False]
    counts = report["counts"]
    assert counts["published models"] == counts["models"] - len(drafts) > 0
    assert sorted(line.split(":")[0] for line in report["drafts"]) == sorted(drafts)
    assert "acme-nova-2-preview: held by hand (a [private] table)" in "\n".join(report["drafts"])


def test_task_runs_are_imported_and_a_model_gone_upstream_keeps_its_dated_runs(
    data: Path, tmp_path: Path
) -> None:
    """Every vals.ai row of a model becomes a dated run with its seconds and dollars (fed
    benchmark or not: `cyber` is no feed's); a model the next table no longer lists keeps the
    runs it had, each with its date (issue 46)."""
    runs = rtoml.load(data / "models" / "gpt-5.5.toml")["task_runs"]
    assert len(runs) == 9
    cyber = next(r for r in runs if r["suite"] == "cyber")
    assert (cyber["latency_sec"], cyber["cost_usd"], cyber["effort"]) == (600.0, 1.2, "xhigh")
    assert cyber["source"] == "valsai" and cyber["source_url"].startswith("https://www.vals.ai/")
    assert cyber["as_of"] == dt.date(2026, 10, 1)
    raw = tmp_path / "raw"
    shutil.copytree(RAW, raw)
    table = raw / "valsai" / "scores_overall.csv"
    lines = table.read_text(encoding="utf-8").splitlines(keepends=True)
    table.write_text("".join(x for x in lines if ",openai/gpt-5.5," not in x), encoding="utf-8")
    result = _import(data, raw)
    assert result.exit_code == 0, result.output
    assert rtoml.load(data / "models" / "gpt-5.5.toml")["task_runs"] == runs
