"""Hostile upstream files, in the real upstream formats (copies of tests/upstream/ with one
file changed), against `modelscores import`: one line per problem, nothing written to data/
where the import stops, and upstream text shown literally in every report format.

The data each case starts from is the shipped data/ as the small upstream files make it
(every source accepted once, `ACCEPT_ALL`): each case then imports its changed files without
accepting anything, as the weekly refresh does.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import resource
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
import rtoml
from click.testing import CliRunner, Result
from markdown_it import MarkdownIt
from support.paths import ACCEPT_ALL, SHIPPED_DATA, UPSTREAM_FIXTURE
from support.servers import python_env

from generator.cli import cli
from generator.encoders import WORD_BREAK
from generator.errors import log_text
from generator.importers.plausible import MAX_LOSS_SHARE

GPQA = "epoch_benchmark_data/gpqa_diamond.csv"
VALS = "valsai/scores_overall.csv"
EQ = "eqbench/eqbench3_leaderboard.csv"
LITELLM = "litellm/model_prices_and_context_window_backup.json"
HOSTILE_KEY = (
    "[x](https://evil.example/a) ![i](https://evil.example/p.png) <img src=x onerror=alert(1)>"
    " @octocat #12 GH-7 www.evil.example ##[error]pwned [r]: https://evil.example/ref"
)


def _tree(root: Path) -> dict[str, str]:
    return {
        str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


@pytest.fixture(scope="module")
def baseline(tmp_path_factory: pytest.TempPathFactory) -> Path:
    data = tmp_path_factory.mktemp("baseline") / "data"
    shutil.copytree(SHIPPED_DATA, data)
    result = _import(data, UPSTREAM_FIXTURE, *ACCEPT_ALL)
    assert result.exit_code == 0, result.output
    return data


def _import(data: Path, raw: Path, *extra: str) -> Result:
    return CliRunner().invoke(cli, ["import", "--data-dir", str(data), "--raw", str(raw), *extra])


def _hostile(
    baseline: Path, tmp_path: Path, path: str, change: Callable[[str], str]
) -> tuple[Path, Path]:
    """A copy of data/ and of the upstream files with `path` changed by `change`."""
    raw = tmp_path / "raw"
    shutil.copytree(UPSTREAM_FIXTURE, raw)
    target = raw / path
    target.write_text(change(target.read_text(encoding="utf-8")), encoding="utf-8")
    data = tmp_path / "data"
    shutil.copytree(baseline, data)
    return data, raw


def _stopped(result: Result, data: Path, before: dict[str, str], *lines: str) -> None:
    """The import failed with exactly `lines` (then the count line) and wrote nothing."""
    assert result.exit_code == 1, result.output
    out = result.output.splitlines()
    assert out[:-1] == list(lines), result.output
    assert out[-1].startswith("Aborted: ")
    assert _tree(data) == before


def _csv_column(text: str, column: str, change: Callable[[str], str]) -> str:
    rows = list(csv.DictReader(io.StringIO(text)))
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(rows[0]), lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({**row, column: change(row[column])})
    return out.getvalue()


# --- plausibility -------------------------------------------------------------------------


@pytest.mark.parametrize("dry_run", [False, True])
def test_a_file_cut_to_its_header_stops_the_refresh_in_one_line(
    baseline: Path, tmp_path: Path, dry_run: bool
) -> None:
    data, raw = _hostile(baseline, tmp_path, VALS, lambda text: text.splitlines()[0] + "\n")
    before = _tree(data)
    result = _import(data, raw, *(["--dry-run"] if dry_run else []))
    _stopped(
        result,
        data,
        before,
        f"source valsai: its upstream rows would remove 24 of its 24 results (100%, over"
        f" {MAX_LOSS_SHARE:.0%}): refresh stopped; check the upstream file, then accept it with"
        " --accept valsai",
    )


def test_an_accepted_loss_goes_through_and_the_report_says_so_first(
    baseline: Path, tmp_path: Path
) -> None:
    data, raw = _hostile(baseline, tmp_path, VALS, lambda text: text.splitlines()[0] + "\n")
    result = _import(data, raw, "--accept", "valsai", "--format", "markdown")
    assert result.exit_code == 0, result.output
    sections = result.output.split("\n## ")
    assert sections[1].startswith("Accepted by the maintainer (--accept) (1)\n- source valsai")
    assert "accepted with --accept valsai" in sections[1].replace("<!-- -->", "")


def test_percent_read_as_a_fraction_stops_the_refresh(baseline: Path, tmp_path: Path) -> None:
    """vals.ai's accuracy switched from 70.25 to 0.7025: inside every benchmark's bounds,
    but a change of scale for all 24 of its values in data/."""
    data, raw = _hostile(
        baseline,
        tmp_path,
        VALS,
        lambda t: _csv_column(t, "accuracy", lambda v: str(float(v) / 100)),
    )
    before = _tree(data)
    _stopped(
        _import(data, raw),
        data,
        before,
        "source valsai: 24 of its 24 values in data/ move by a factor of 10 or more (a change"
        " of scale, e.g. percent to fraction?): refresh stopped; check the upstream file, then"
        " accept it with --accept valsai",
    )


def test_rows_dated_after_their_file_are_refused_one_line_each(
    baseline: Path, tmp_path: Path
) -> None:
    """A run dated 2099 in Epoch's file of 2026-04-24: the history stretched to 900 month
    ends and `updatedAt` into the future. It is refused; nothing in data/ is dated 2099."""
    data, raw = _hostile(
        baseline, tmp_path, GPQA, lambda t: t.replace(",2026-04-17T16:", ",2099-04-17T16:", 1)
    )
    result = _import(data, raw, "--format", "json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["refusedFuture"] == [
        f"epoch: {GPQA}: row 'VJezHrJ5YPCbpui8pZgcJg' (claude-opus-4-7_xhigh) is dated"
        " 2099-04-17, after its file's date 2026-04-24 (+31 days): refused"
    ], report["refusedFuture"]
    assert not any("2099" in p.read_text(encoding="utf-8") for p in data.rglob("*.toml"))


def test_a_renamed_key_keeps_the_original_model_and_is_reported(
    baseline: Path, tmp_path: Path
) -> None:
    """Epoch renames `claude-opus-4-7_xhigh` in one file: the new key would be a new model
    (released 2026-04-16, after the source's publish date) that takes the original's result."""
    data, raw = _hostile(
        baseline,
        tmp_path,
        GPQA,
        lambda t: t.replace("\nclaude-opus-4-7_xhigh,", "\nclaude-opus-4-7-v2_xhigh,", 1),
    )
    result = _import(data, raw, "--format", "json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["probableRenames"] == [
        "epoch: 'claude-opus-4-7-v2' has the results of models/claude-opus-4.7.toml that no row"
        " matches any more: kept as that model's; if the key was renamed upstream, map it in"
        " data/sources/epoch.toml"
    ]
    assert not (data / "models/claude-opus-4-7-v2.toml").exists()
    assert "claude-opus-4-7-v2" not in {d["key"] for d in report["newModels"]}
    gpqa = (data / "models/claude-opus-4.7.toml").read_text(encoding="utf-8")
    assert 'source_model = "claude-opus-4-7-v2_xhigh"' in gpqa  # the value stays the model's


# --- identity -----------------------------------------------------------------------------


def _new_epoch_row(key: str) -> Callable[[str], str]:
    """Epoch's GPQA file with one more run: Claude Opus 4.7's row under `key`, its own id
    and score (so it is no rename of a row that went away)."""

    def change(text: str) -> str:
        row = next(line for line in text.splitlines() if line.startswith("claude-opus-4-7_xhigh,"))
        new = row.replace("claude-opus-4-7_xhigh", key).replace("0.9015151515151515", "0.5")
        return text + new.replace("VJezHrJ5YPCbpui8pZgcJg", "HostileRun0000000000001") + "\n"

    return change


def test_a_look_alike_name_is_a_duplicate_not_a_new_model(baseline: Path, tmp_path: Path) -> None:
    """`gрt-5.5` with a Cyrillic Er: NFKC keeps it, a reader cannot tell it from GPT-5.5."""
    data, raw = _hostile(
        baseline,
        tmp_path,
        GPQA,
        _new_epoch_row("gрt-5.5_xhigh"),
    )
    result = _import(data, raw, "--format", "json")
    assert result.exit_code == 0, result.output
    decision = next(d for d in json.loads(result.output)["newModels"] if d["key"] == "gрt-5.5")
    assert decision["model"] is None
    assert "looks like models/gpt-5.5.toml's (Unicode confusables)" in decision["reason"]
    assert not any("gрt" in p.read_text(encoding="utf-8") for p in data.rglob("*.toml"))


@pytest.mark.parametrize("dry_run", [False, True])
def test_a_key_with_a_slash_and_a_colon_becomes_a_model_with_valid_aliases(
    baseline: Path, tmp_path: Path, dry_run: bool
) -> None:
    """`openai/gpt-9:free` made an alias the loader refuses: the whole import failed (and
    `--dry-run`, which skipped the loader, reported success)."""
    data, raw = _hostile(
        baseline,
        tmp_path,
        GPQA,
        _new_epoch_row("openai/gpt-9:free_xhigh"),
    )
    before = _tree(data)
    result = _import(data, raw, "--format", "json", *(["--dry-run"] if dry_run else []))
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert "models/gpt-9-free.toml" in report["files"]
    assert (
        "models/gpt-9-free.toml (new, from 'openai/gpt-9:free'): alias 'gpt-9:free' left out:"
        " not a valid alias" in report["notes"]
    )
    if dry_run:
        assert _tree(data) == before
    else:
        made = rtoml.load(data / "models/gpt-9-free.toml")
        assert made["name"] == "openai/gpt-9:free" and made.get("aliases", []) == []


# --- output injection ---------------------------------------------------------------------


def _with_key(key: str) -> Callable[[str], str]:
    return lambda text: text + f"{key},1500.0,70.0" + ",12.00" * 11 + ",1400.0,1600.0\n"


def test_upstream_text_is_encoded_for_markdown_text_and_json(
    baseline: Path, tmp_path: Path
) -> None:
    data, raw = _hostile(baseline, tmp_path, EQ, _with_key(HOSTILE_KEY))
    reports = {}
    for output in ("markdown", "text", "json"):
        result = _import(data, raw, "--dry-run", "--format", output)
        assert result.exit_code == 0, result.output
        reports[output] = result.output
    tokens = MarkdownIt("commonmark").enable(["table", "strikethrough"]).parse(reports["markdown"])
    inline = [c for t in tokens for c in t.children or []]
    kinds = {t.type for t in tokens} | {c.type for c in inline}
    assert not kinds & {"link_open", "image", "html_block"}, kinds
    assert {c.content for c in inline if c.type == "html_inline"} == {WORD_BREAK}  # no other
    unmatched = next(line for line in reports["markdown"].splitlines() if "octocat" in line)
    for live in ("@octocat", "#12", "GH-7", "www.evil", "https://"):  # GitHub would link these
        assert live not in unmatched, unmatched
    assert "[r]: " not in reports["markdown"]  # no reference definition
    assert HOSTILE_KEY.replace("##[", "#\\#[") in reports["text"]
    assert "##[" not in reports["text"]
    assert (
        reports["json"].isascii()
        and HOSTILE_KEY in json.loads(reports["json"])["unmatched"]["eqbench"]
    )


@pytest.mark.parametrize(
    "key",
    ["\x1b[2J\x1b[31mforged", "a\u2028::error::forged", "x\u202egpj.exe", "::warning::x\x07y"],
)
def test_a_key_with_controls_is_one_escaped_line_and_nothing_is_written(
    baseline: Path, tmp_path: Path, key: str
) -> None:
    data, raw = _hostile(baseline, tmp_path, EQ, _with_key(key))
    before = _tree(data)
    result = _import(data, raw)
    assert result.exit_code == 1, result.output
    lines = result.output.splitlines()
    assert len(lines) == 2 and lines[0].startswith(f"{EQ}: row 7: model_name: "), lines
    assert result.output.isprintable() or set(result.output) - set(result.output.strip()) <= {"\n"}
    assert not any(line.lstrip().startswith("::") for line in lines)
    assert _tree(data) == before


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("::warning::x", "\\::warning::x"),
        ("  ::add-mask::y", "  \\::add-mask::y"),
        ("a ##[error]b", "a #\\#[error]b"),
        ("ok a::b", "ok a::b"),
        ("\x1b[31mred\nforged", "\\x1b[31mred\\nforged"),
    ],
)
def test_log_text_breaks_workflow_commands_and_escapes(text: str, shown: str) -> None:
    assert log_text(text) == shown


# --- prices -------------------------------------------------------------------------------


def test_a_hostile_price_listing_never_replaces_the_first_party_price(
    baseline: Path, tmp_path: Path
) -> None:
    """A models.dev folder `Anthropic` (the lab's own host up to case, sorting before
    `anthropic`) offering Claude Fable 5 (matched by name, not by a mapping) at zero input,
    and a litellm key that sorts first naming the lab as its provider: the price stays the
    lab's own listing (the `Anthropic` one replaced it)."""

    def cheaper(text: str) -> str:
        doc = json.loads(text)
        doc["!!!/claude-fable-5"] = {
            "litellm_provider": "anthropic", "input_cost_per_token": 1e-9,
            "output_cost_per_token": 1e-9, "mode": "chat",
        }  # fmt: skip
        return json.dumps(doc)

    data, raw = _hostile(baseline, tmp_path, LITELLM, cheaper)
    own = raw / "models_dev/anthropic/models/claude-fable-5.toml"
    fake = raw / "models_dev/Anthropic/models/claude-fable-5.toml"
    fake.parent.mkdir(parents=True)
    fake.write_text(
        own.read_text(encoding="utf-8").replace("input = 10.00", "input = 0.0"), encoding="utf-8"
    )
    before = (data / "models/claude-fable-5.toml").read_text(encoding="utf-8")
    result = _import(data, raw)
    assert result.exit_code == 0, result.output
    after = (data / "models/claude-fable-5.toml").read_text(encoding="utf-8")
    assert after == before
    assert 'source = "models-dev:anthropic/claude-fable-5"' in after


def test_a_models_dev_file_name_no_field_may_hold_is_left_out_with_a_note(
    baseline: Path, tmp_path: Path
) -> None:
    """models.dev keys are its file names: one with a bidi override is left out, noted
    escaped, and the import goes on."""
    data, raw = _hostile(baseline, tmp_path, LITELLM, lambda text: text)
    own = raw / "models_dev/anthropic/models/claude-fable-5.toml"
    (own.parent / "claude-\u202eelbaf-5.toml").write_bytes(own.read_bytes())
    result = _import(data, raw)
    assert result.exit_code == 0, result.output
    assert (
        "- models_dev: a file left out: its name has a bidi control U+202E in a one-line field"
        in result.output
    )
    assert "\u202e" not in result.output


# --- bounded ------------------------------------------------------------------------------

MEMORY = 1024**3  # address space of each child, as the hostile corpus's builds
CPU_SECONDS = 60


def _limits() -> None:  # pragma: no cover - runs in the child
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
    resource.setrlimit(resource.RLIMIT_CPU, (CPU_SECONDS, CPU_SECONDS))


@pytest.mark.parametrize(
    ("path", "change", "status", "line"),
    [
        (VALS, lambda t: t.splitlines()[0] + "\n", 1, "source valsai: its upstream rows would"),
        (
            VALS,
            lambda t: _csv_column(t, "accuracy", lambda v: str(float(v) / 100)),
            1,
            "source valsai: 24 of its 24 values in data/ move by a factor of 10",
        ),
        (GPQA, lambda t: t.replace(",2026-04-17T16:", ",2099-04-17T16:", 1), 0, "- epoch: "),
        (EQ, _with_key("\x1b]0;pwned\x07"), 1, f"{EQ}: row 7: model_name: control character"),
    ],
)
def test_each_hostile_file_ends_the_real_command_in_bounded_time_and_memory(
    baseline: Path,
    tmp_path: Path,
    path: str,
    change: Callable[[str], str],
    status: int,
    line: str,
) -> None:
    """`python -m generator import` itself, in a child under 1 GiB of address space and 60 s
    of CPU: the expected exit status and line, no traceback."""
    data, raw = _hostile(baseline, tmp_path, path, change)
    done = subprocess.run(
        [sys.executable, "-m", "generator", "import", "--data-dir", str(data), "--raw", str(raw)],
        capture_output=True, text=True, timeout=180, env=python_env(), preexec_fn=_limits,
        check=False,
    )  # fmt: skip
    assert done.returncode == status, done.stderr[-2000:]
    assert line in done.stdout + done.stderr
    assert "Traceback" not in done.stderr and "\x1b" not in done.stdout + done.stderr
