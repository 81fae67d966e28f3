"""`modelscores diff`: every kind of change, named once, in text, Markdown and JSON."""

from __future__ import annotations

import json
import os
import resource
import shutil
import subprocess
import sys
import time
import zlib
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner
from support.paths import REPO
from support.servers import python_env

from generator.api.urls import site_config
from generator.build import build_api, build_site
from generator.cli import cli
from generator.diff.changes import NO_CHANGES, compare
from generator.diff.report import DETAILS_ROWS, heading, render
from generator.diff.snapshot import (
    Band,
    Entry,
    ModelSnapshot,
    RankingSnapshot,
    Snapshot,
    read_snapshot,
)
from generator.diff.sources import _data_at_revision
from generator.encoders import github_text
from generator.input.limits import MAX_TREE_BYTES, MAX_TREE_ENTRIES

FIXTURE = Path(__file__).parents[1] / "data"


def _model(
    model_id: str = "m-1", set: dict[str, object] | None = None, **changes: object
) -> ModelSnapshot:
    fields: dict[str, object] = {
        "name": model_id.upper(),
        "iq": 120,
        "iqLow95": 117.0,
        "iqHigh95": 123.0,
        "rank": 1,
        "rankLow": 1,
        "rankHigh": 2,
        "emotionalReasoning": 110,
        "dimensions.reliability.iq": 118,
        "dimensions.reliability.iqLow95": 116.0,
        "dimensions.reliability.iqHigh95": 119.0,
        "cost.inputPer1M": 1.0,
        "cost.effectivePer1M": 3.0,
        "cost.usageMultiplier": 1.0,
        "cost.usageMultiplierSource": "measured",
        "benchmarkResults.gpqa-diamond.value": 0.5,
        "benchmarkResults.gpqa-diamond.projectedIq": 100.0,
    }
    fields.update({k.replace("__", "."): v for k, v in changes.items()})
    fields.update(set or {})
    return ModelSnapshot(id=model_id, name=str(fields["name"]), fields=fields)


def _ranking(
    ranking_id: str, *places: tuple[str, float], band: str | None = None
) -> RankingSnapshot:
    entries = {m: Entry(i, score) for i, (m, score) in enumerate(places, start=1)}
    return RankingSnapshot(ranking_id, ranking_id.title(), entries, band)


def _snapshot(*models: ModelSnapshot, **changes: object) -> Snapshot:
    fields: dict[str, object] = {
        "models": {m.id: m for m in models},
        "rankings": {},
        "benchmarks": {
            "gpqa-diamond": {"id": "gpqa-diamond", "name": "GPQA", "noiseSd": 8.0},
        },
        "methodology": {
            "version": "2026-01-01",
            "parameters": {"peerCount": 3},
            "rules": ["a"],
            "changelog": [{"date": "2026-01-01", "text": "first"}],
        },
    }
    fields.update(changes)
    return Snapshot(**fields)  # type: ignore[arg-type]


def test_identical_builds_have_no_changes() -> None:
    same = _snapshot(_model(), _model("m-2"))
    diff = compare(same, same)
    assert diff.summary == NO_CHANGES
    assert not diff.changed
    assert render(diff, "text") == "no changes\n"
    assert json.loads(render(diff, "json")) == {"summary": "no changes"}


def test_added_removed_and_renamed_models() -> None:
    base = _snapshot(_model("m-1"), _model("m-2"), _model("m-3", name="Three"))
    renamed = _model("m-3b", name="three")  # same display name, new id
    aliased = _model("m-9", name="Nine", aliases=["m-2"])  # lists the old id as an alias
    new = _snapshot(_model("m-1"), renamed, aliased, _model("m-4", iq=101, rank=4))
    diff = compare(base, new)
    assert [m.id for m in diff.models_added] == ["m-4"]
    assert (diff.models_added[0].composite_iq, diff.models_added[0].rank) == (101, 4)
    assert diff.models_removed == []
    # backwards, m-2 lists no alias m-9: that is a removal and an addition, not a rename
    assert [m.id for m in compare(new, base).models_removed] == ["m-4", "m-9"]
    assert [(c.id, c.renamed_from and c.renamed_from.id) for c in diff.models_changed] == [
        ("m-3b", "m-3"),
        ("m-9", "m-2"),
    ]
    assert diff.summary.startswith("1 model added, 2 models renamed")
    text = render(diff, "text")
    assert "renamed: Three (m-3) -> three (m-3b)" in text
    # an added model with its score, range, rank and cost
    assert "composite IQ: 101 (95% range 117-123)" in text
    assert "rank: 4" in text and "effective cost (USD/1M): 3" in text


def test_score_moves_read_as_noise_inside_the_band_and_ranks_as_up_or_down() -> None:
    moved = _model(iq=122, rank=3, dimensions__reliability__iq=121)
    diff = compare(_snapshot(_model()), _snapshot(moved))
    (change,) = diff.models_changed
    # 122 is inside 117..123: noise; rank 3 is outside 1..2; 121 is outside 116..119
    assert change.fields["iq"].within_band is True
    assert change.fields["rank"].within_band is False
    assert change.fields["dimensions.reliability.iq"].within_band is False
    text = render(diff, "text")
    assert "composite IQ: 120 -> 122 (+2, noise: inside the 95% range)" in text
    assert "rank: 1 -> 3 (down 2, outside the 95% range)" in text  # a bigger number is worse
    assert "reliability IQ: 118 -> 121 (+3, outside the 95% range)" in text


def test_every_ranking_place_move_is_reported_with_names() -> None:
    base = _snapshot(
        _model("m-1", name="One"),
        _model("m-2", name="Two"),
        rankings={"gpqa": _ranking("gpqa", ("m-1", 0.6), ("m-2", 0.5))},
    )
    new = _snapshot(
        _model("m-1", name="One"),
        _model("m-2", name="Two", set={"benchmarkResults.gpqa-diamond.value": 0.65}),
        _model("m-3", name="Three"),
        rankings={"gpqa": _ranking("gpqa", ("m-3", 0.7), ("m-2", 0.65), ("m-1", 0.6))},
    )
    diff = compare(base, new)
    (ranking,) = diff.rankings
    assert [(m.name, m.before, m.after) for m in ranking.moves] == [
        ("Three", None, 1),
        ("Two", 2, 2),
        ("One", 1, 3),
    ]
    text = render(diff, "text")
    assert "Three: joined #1" in text
    assert "Two: place #2 -> #2 (score 0.5 -> 0.65)" in text
    assert "One: place #1 -> #3 (down 2)" in text
    # One moved with nothing of its own changed: a neighbour passed it, another joined ahead
    (cause,) = [c for c in diff.causes if c.id == "m-1"]
    assert cause.cause == "a neighbour's rank: down 2 on Gpqa (Two passed it, Three joined ahead)"


def test_causes_name_the_input_and_the_rule() -> None:
    hle = {"benchmarkResults.hle.value": 0.3, "benchmarkResults.hle.projectedIq": 90.0}
    benchmarks = {
        "gpqa-diamond": {"id": "gpqa-diamond", "name": "GPQA", "noiseSd": 8.0},
        "hle": {"id": "hle", "name": "HLE", "noiseSd": 8.0},
    }
    peer = {"cost.usageMultiplierSource": "peer-imputed"}
    base = _snapshot(
        _model("m-1", name="Measured"),
        _model("m-2", name="Peer", set=peer),
        _model("m-3", name="Laddered"),
        _model("m-4", name="Noisy", set=hle),
        benchmarks=benchmarks,
    )
    new = _snapshot(
        _model("m-1", name="Measured", set={"cost.usageMultiplier": 1.5}),
        _model("m-2", name="Peer", set={**peer, "cost.usageMultiplier": 1.25}),
        _model("m-3", name="Laddered", set={"benchmarkResults.gpqa-diamond.projectedIq": 104.0}),
        _model("m-4", name="Noisy", iq=121, set=hle),
        benchmarks={**benchmarks, "hle": {"id": "hle", "name": "HLE", "noiseSd": 6.5}},
    )
    diff = compare(base, new)
    assert [(c.id, c.own_data_changed) for c in diff.models_changed] == [
        ("m-1", True),
        ("m-2", False),
        ("m-3", False),
        ("m-4", False),
    ]
    assert {c.id: c.cause for c in diff.causes} == {
        "m-2": "peer-imputed usage multiplier 1 -> 1.25 (peers changed: Measured)",
        "m-3": "the GPQA ladder changed: its result 0.5 projects to IQ 100 -> 104",
        "m-4": "benchmark noise re-estimated from all models' results: HLE 8 -> 6.5",
    }  # and none for m-1: its own file changed


def test_a_score_moved_by_nothing_named_is_a_refitted_prior() -> None:
    base = _snapshot(_model("m-1", name="Changed"), _model("m-2", name="Other"))
    new = _snapshot(
        _model("m-1", name="Changed", set={"benchmarkResults.gpqa-diamond.value": 0.6}),
        _model("m-2", name="Other", set={"dimensions.reliability.iq": 117}),
    )
    (cause,) = compare(base, new).causes
    assert cause.cause == (
        "a refitted prior: its estimates' population prior, refitted on all models' scores"
        " (changed: Changed)"
    )


def test_a_methodology_parameter_is_a_cause_and_a_change() -> None:
    methodology = {
        "version": "2026-02-01",
        "parameters": {"peerCount": 4},
        "rules": ["a"],
        "changelog": [
            {"date": "2026-01-01", "text": "first"},
            {"date": "2026-02-01", "text": "second"},
        ],
    }
    diff = compare(_snapshot(_model()), _snapshot(_model(iq=121), methodology=methodology))
    assert diff.methodology is not None
    assert diff.methodology.parameters["peerCount"].after == 4
    assert diff.methodology.changelog_added == ["2026-02-01: second"]
    (cause,) = diff.causes
    assert cause.cause == "methodology parameter peerCount 3 -> 4"
    assert diff.summary == "1 model moved by other inputs, methodology 2026-01-01 -> 2026-02-01"
    markdown = render(diff, "markdown")
    assert "|  | version | 2026-01-01 | 2026-02-01 |  |" in markdown
    assert "|  | parameter peerCount | 3 | 4 | \\+1 |" in markdown


def test_markdown_escapes_names_from_data_and_collapses_long_sections() -> None:
    hostile = _model(name="![x](https://tracker.example/p.png) | cell\n## forged")
    markdown = render(compare(_snapshot(_model()), _snapshot(hostile)), "markdown")
    assert "![x]" not in markdown
    assert (
        "\\!\\[x\\](https:<!-- -->//tracker.example/p.png) \\| cell \\#<!-- -->\\#<!-- --> forged"
        in markdown
    )
    assert "\n## forged" not in markdown
    many = [_model(f"m-{n}") for n in range(DETAILS_ROWS + 1)]
    moved = [_model(f"m-{n}", cost__inputPer1M=2.0) for n in range(DETAILS_ROWS + 1)]
    long = render(compare(_snapshot(*many), _snapshot(*moved)), "markdown")
    assert f"<details><summary>{DETAILS_ROWS + 1} rows</summary>" in long
    assert long.index("**") < long.index("<details>")  # the summary line stays outside


def test_json_has_the_summary_first_and_camel_case_fields() -> None:
    diff = compare(_snapshot(_model()), _snapshot(_model(iq=121)))
    document = json.loads(render(diff, "json"))
    assert list(document)[0] == "summary"
    assert document["modelsChanged"][0]["fields"]["iq"] == {
        "before": 120,
        "after": 121,
        "withinBand": True,
    }


# --- end to end, on the fixture data ----------------------------------------------


@pytest.fixture(scope="module")
def fixture_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("base") / "site"
    result = CliRunner().invoke(cli, ["build", "--data-dir", str(FIXTURE), "--out-dir", str(out)])
    assert result.exit_code == 0, result.output
    return out


def _diff(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["diff", *args])
    return result.exit_code, result.output


def test_one_price_change_names_that_model_and_its_cost_only(
    fixture_site: Path, tmp_path: Path
) -> None:
    data = tmp_path / "data"
    shutil.copytree(FIXTURE, data)
    model = data / "models" / "alpha-1.toml"
    text = model.read_text(encoding="utf-8")
    model.write_text(text.replace("input = 1.0", "input = 2.0"), encoding="utf-8")
    code, output = _diff(str(fixture_site), str(data), "--format", "json")
    assert code == 0
    diff = json.loads(output)
    assert diff["summary"] == "1 model changed by its own data, 1 ranking changed"
    (change,) = diff["modelsChanged"]
    assert (change["id"], change["ownDataChanged"]) == ("alpha-1", True)
    # 1 input + 4 output at a measured multiplier of 2: (1 + 4) * 2 = 10 -> (2 + 4) * 2 = 12
    assert change["fields"] == {
        "cost.effectivePer1M": {"before": 10.0, "after": 12.0},
        "cost.inputPer1M": {"before": 1.0, "after": 2.0},
        "cost.ioPer1M": {"before": 5.0, "after": 6.0},
    }
    (ranking,) = diff["rankings"]
    assert ranking["id"] == "effective-cost"
    assert ranking["moves"] == [
        {
            "id": "alpha-1",
            "name": "Alpha 1",
            "before": 2,
            "after": 2,
            "score": {"before": 10.0, "after": 12.0},
        }
    ]
    assert set(diff) == {"summary", "modelsChanged", "rankings"}  # no cause: its own file


def test_a_data_side_is_built_into_the_api_files_a_whole_build_writes(tmp_path: Path) -> None:
    """`build_api` (what diff builds a data side into) gives the very API files of a full
    build with the same configuration, and nothing else."""
    config = site_config("http://127.0.0.1:8000")
    out = tmp_path / "site_out"
    build_site(FIXTURE, out, config)
    api = build_api(FIXTURE, config)
    written = {
        p.relative_to(out).as_posix(): p.read_bytes()
        for p in out.rglob("*")
        if p.is_file() and p.relative_to(out).parts[0] == "api"
    }
    assert api == written


def test_two_identical_builds_say_no_changes(fixture_site: Path) -> None:
    assert _diff(str(fixture_site), str(fixture_site)) == (0, "no changes\n")
    assert _diff(str(fixture_site), str(FIXTURE), "--fail-on-change") == (0, "no changes\n")


def test_fail_on_change_exits_1(fixture_site: Path, tmp_path: Path) -> None:
    data = tmp_path / "data"
    shutil.copytree(FIXTURE, data)
    _add_gamma_2(data)
    code, output = _diff(str(fixture_site), str(data), "--fail-on-change", "--format", "markdown")
    assert code == 1
    assert output.startswith("## modelscores diff\n\n**1 model added")
    assert "| Gamma 2 (gamma-2) | composite IQ |  |" in output


def _add_gamma_2(data: Path) -> None:
    text = (data / "models" / "gamma-1.toml").read_text(encoding="utf-8")
    text = text.replace('id = "gamma-1"', 'id = "gamma-2"').replace("Gamma 1", "Gamma 2")
    (data / "models" / "gamma-2.toml").write_text(text, encoding="utf-8")


def test_published_bands_are_read_from_the_build(fixture_site: Path, tmp_path: Path) -> None:
    base = tmp_path / "base"
    shutil.copytree(fixture_site, base)
    models = json.loads((base / "api" / "v1" / "models.json").read_text(encoding="utf-8"))
    model_file = base / "api" / "v1" / "models" / models["models"][0]["id"]
    first = json.loads(model_file.read_text(encoding="utf-8"))
    first.update(iqLow95=first["iq"] - 3, iqHigh95=first["iq"] + 3, rankLow=1, rankHigh=2)
    model_file.unlink()  # a hard link of the fixture's: replaced, not written through
    model_file.write_text(json.dumps(first), encoding="utf-8")
    snapshot = read_snapshot(base)
    model = snapshot.models[first["id"]]
    assert model.band("iq") == Band(first["iq"] - 3.0, first["iq"] + 3.0)
    assert model.band("rank") == Band(1.0, 2.0)


def test_a_git_revision_of_data_is_built_and_compared(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = tmp_path / "repo"
    shutil.copytree(FIXTURE, repo / "data")
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@example.org"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "data"], check=True)
    subprocess.run([*git, "commit", "-qm", "data"], check=True)
    _add_gamma_2(repo / "data")
    monkeypatch.chdir(repo)
    code, output = _diff("git:HEAD", "data")
    assert code == 0, output
    assert output.splitlines()[0].startswith("1 model added, ")


def test_a_committed_symlink_in_data_is_one_line_and_exit_1(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`git archive` carries symlinks; one to an absolute path made tarfile's data filter
    raise (a traceback), one inside the tree would be extracted: both are refused."""
    repo = tmp_path / "repo"
    shutil.copytree(FIXTURE, repo / "data")
    (repo / "data/models/evil.toml").symlink_to("/etc/passwd")
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@example.org"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "data"], check=True)
    subprocess.run([*git, "commit", "-qm", "data"], check=True)
    monkeypatch.chdir(repo)
    code, output = _diff("git:HEAD", "data")
    assert code == 1
    assert "Traceback" not in output
    assert output.strip().splitlines()[-1] == (
        "Error: git:HEAD: data/models/evil.toml: file: a symbolic link"
        " (data/ holds only regular files and folders)"
    )


def test_a_side_that_is_no_build_is_one_line_and_exit_1(tmp_path: Path) -> None:
    code, output = _diff(str(tmp_path), str(tmp_path))
    assert code == 1
    assert output.strip().endswith(
        f"{tmp_path}: neither a built site (no api/v1/models.json) nor a data directory"
        " (no methodology.toml); for a git revision write git:REV"
    )
    assert "Traceback" not in output
    code, output = _diff("git:no-such-revision", str(tmp_path))
    assert code == 1
    assert "git:no-such-revision:" in output


def test_data_a_build_refuses_at_its_charts_is_refused_by_diff_alike(
    fixture_site: Path, tmp_path: Path
) -> None:
    """A data side is not drawn into pages, but its charts are: what stops a build there
    stops the comparison with the same line."""
    data = tmp_path / "data"
    shutil.copytree(FIXTURE, data)
    chart = data / "charts" / "benchmark-gpqa-diamond.toml"
    text = chart.read_text(encoding="utf-8")
    chart.write_text(text.replace('"benchmark-scores",', '"benchmark-scores", "iq-ranges",'))
    build = CliRunner().invoke(
        cli, ["build", "--data-dir", str(data), "--out-dir", str(tmp_path / "out")]
    )
    assert build.exit_code == 1
    error = build.output.strip().splitlines()[-1]
    assert "must name exactly one kind" in error
    code, output = _diff(str(fixture_site), str(data))
    assert (code, output.strip().splitlines()[-1]) == (1, error)
    assert "Traceback" not in output


# --- a hostile revision: listed with sizes first, refused in one line, never read whole ------

ZEROS = 1_200_000_000  # bytes of the blob (about 1.2 MB in git)
SECONDS = 30
MEMORY = 1 << 30  # bytes of address space of the bounded child


def _limits() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
    resource.setrlimit(resource.RLIMIT_CPU, (SECONDS, SECONDS))


def _repo_with(tmp_path: Path, entries: Callable[[list[str]], None]) -> Path:
    """A repository whose one commit holds the fixture's data/ plus what `entries` adds to
    the index (given the git command prefix)."""
    repo = tmp_path / "repo"
    shutil.copytree(FIXTURE, repo / "data")
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@example.org"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "data"], check=True)
    entries(git)
    subprocess.run([*git, "commit", "-qm", "data"], check=True)
    return repo


def _add(git: list[str], mode: str, object_id: str, path: str) -> None:
    info = f"{mode},{object_id},{path}"
    subprocess.run([*git, "update-index", "--add", "--cacheinfo", info], check=True)


# The object id of ZEROS zero bytes: sha1(b"blob 1200000000\0" + bytes(ZEROS)), computed once
# (hashlib, 1.2 GB in 4 MiB chunks); `git cat-file -s` below confirms git reads it as that.
ZEROS_ID = "40978b7e57408628fff9a0d00c9b3c4e7eb4ac14"


def _write_zeros_object(repo: Path) -> str:
    """The loose object of ZEROS zero bytes, compressed as it is written (about 5 MB on disk,
    2 s of CPU; `git hash-object` took a minute)."""
    path = repo / ".git" / "objects" / ZEROS_ID[:2] / ZEROS_ID[2:]
    path.parent.mkdir(parents=True, exist_ok=True)
    compressor = zlib.compressobj(1)
    chunk = bytes(1 << 22)
    with path.open("wb") as file:
        file.write(compressor.compress(f"blob {ZEROS}\0".encode()))
        for start in range(0, ZEROS, len(chunk)):
            file.write(compressor.compress(chunk[: min(len(chunk), ZEROS - start)]))
        file.write(compressor.flush())
    size = subprocess.run(
        ["git", "-C", str(repo), "cat-file", "-s", ZEROS_ID], capture_output=True, text=True
    )
    assert size.stdout.strip() == str(ZEROS), size.stderr
    return ZEROS_ID


def _diff_bounded(repo: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "generator", "diff", "git:HEAD", "data"],
        capture_output=True,
        text=True,
        cwd=repo,
        env={**python_env(), "PYTHONPATH": str(REPO)},
        preexec_fn=_limits,
        timeout=SECONDS,
        check=False,
    )


@pytest.mark.slow
def test_a_revision_holding_a_huge_file_is_refused_from_its_listed_size(tmp_path: Path) -> None:
    def zeros(git: list[str]) -> None:
        _add(git, "100644", _write_zeros_object(Path(git[2])), "data/models/zeros.toml")

    repo = _repo_with(tmp_path, zeros)
    started = time.monotonic()
    result = _diff_bounded(repo)
    assert time.monotonic() - started < SECONDS
    assert result.returncode == 1, result.stderr
    assert result.stdout == ""
    assert result.stderr == (
        f"Error: git:HEAD: data/models/zeros.toml: file: too large ({ZEROS} bytes;"
        " the limit is 5 MB)\n"
    )


def test_a_revision_over_the_file_count_or_holding_a_submodule_is_one_line(
    tmp_path: Path,
) -> None:
    def many(git: list[str]) -> None:
        blob = subprocess.run(
            [*git, "hash-object", "-w", "--stdin"], input="", capture_output=True, text=True
        ).stdout.strip()
        entries = "".join(f"100644 {blob}\tdata/extra/{n}.toml\n" for n in range(MAX_TREE_ENTRIES))
        subprocess.run([*git, "update-index", "--index-info"], input=entries, text=True)

    result = _diff_bounded(_repo_with(tmp_path / "many", many))
    assert (result.returncode, result.stderr) == (
        1,
        f"Error: git:HEAD: data: directory: more than {MAX_TREE_ENTRIES:,} files"
        f" (the limit is {MAX_TREE_ENTRIES:,})\n",
    )

    def heavy(git: list[str]) -> None:
        """Files each under the 5 MB limit, together over the tree's bytes limit."""
        blob = (
            subprocess.run(
                [*git, "hash-object", "-w", "--stdin"], input=bytes(5_000_000), capture_output=True
            )
            .stdout.decode()
            .strip()
        )
        count = MAX_TREE_BYTES // 5_000_000 + 1
        entries = "".join(f"100644 {blob}\tdata/extra/{n}.toml\n" for n in range(count))
        subprocess.run([*git, "update-index", "--index-info"], input=entries, text=True)

    result = _diff_bounded(_repo_with(tmp_path / "heavy", heavy))
    assert (result.returncode, result.stderr) == (
        1,
        "Error: git:HEAD: data: directory: more than 256 MiB of files (the limit is 256 MiB)\n",
    )

    def submodule(git: list[str]) -> None:
        _add(git, "160000", "1" * 40, "data/models/vendored")

    result = _diff_bounded(_repo_with(tmp_path / "sub", submodule))
    assert (result.returncode, result.stderr) == (
        1,
        "Error: git:HEAD: data/models/vendored: file: not a regular file"
        " (data/ holds only regular files and folders)\n",
    )


def test_a_revision_is_streamed_file_for_file(tmp_path: Path) -> None:
    """What is read back from a revision is byte for byte what was committed."""
    repo = _repo_with(tmp_path, lambda git: None)
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    previous = Path.cwd()
    os.chdir(repo)
    try:
        data = _data_at_revision("HEAD", scratch)
    finally:
        os.chdir(previous)
    copied = {p.relative_to(data): p.read_bytes() for p in data.rglob("*") if p.is_file()}
    committed = {p.relative_to(FIXTURE): p.read_bytes() for p in FIXTURE.rglob("*") if p.is_file()}
    assert copied == committed


@pytest.mark.parametrize("linked", ["api/v1/models/alpha-1", "api/v1/models"])
def test_a_symlinked_document_in_a_built_site_is_not_followed(
    fixture_site: Path, tmp_path: Path, linked: str
) -> None:
    """A document (or a folder of them) that is a symlink is refused in one line, never read:
    a built site from elsewhere cannot point the comparison at a file outside it."""
    site = tmp_path / "site"
    shutil.copytree(fixture_site, site, copy_function=os.link)
    outside = tmp_path / "outside"
    shutil.move(site / linked, outside)
    (site / linked).symlink_to(outside)
    code, output = _diff(str(fixture_site), str(site))
    assert code == 1
    assert output.startswith(f"Error: {site}/{linked}")
    assert output.endswith(": a symbolic link (a build holds only regular files)\n")
    assert output.count("\n") == 1


# --- one input of each kind: every ranking that moved, a cause for every bystander ---------


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, (path, old)
    path.write_text(text.replace(old, new), encoding="utf-8")


KINDS: dict[str, tuple[str, Callable[[Path], None]]] = {
    # kind: (the side that is edited, the edit)
    "a result": (
        "new",
        lambda d: _edit(
            d / "models/alpha-2.toml",
            'benchmark = "arc-agi-1"\nvalue = 0.5',
            'benchmark = "arc-agi-1"\nvalue = 0.7',
        ),
    ),
    "a price": ("new", lambda d: _edit(d / "models/alpha-2.toml", "input = 2.0", "input = 3.0")),
    "a usage figure": (
        "new",
        lambda d: _edit(d / "models/alpha-1.toml", "multiplier = 2.0", "multiplier = 3.0"),
    ),
    "a new model": ("new", _add_gamma_2),
    "a removed model": ("base", _add_gamma_2),
    "a benchmark ladder": (
        "new",
        lambda d: _edit(
            d / "benchmarks/gpqa-diamond.toml",
            "ladder = [0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9]",
            "ladder = [0.3, 0.35, 0.45, 0.6, 0.7, 0.8, 0.9]",
        ),
    ),
    "a methodology parameter": (
        "new",
        lambda d: _edit(
            d / "methodology.toml",
            "sigma_domain_prior = 10",
            "sigma_domain_prior = 3",
        ),
    ),
}


def _places(data: Path) -> dict[tuple[str, str], tuple[int, object]]:
    """(ranking, model) -> (place, score) on every ranking and domain leaderboard of a build
    of `data`, read from the published documents themselves."""
    files = build_api(data, site_config("http://127.0.0.1:8000"))
    found: dict[tuple[str, str], tuple[int, object]] = {}
    for path, raw in files.items():
        parts = path.split("/")
        if parts[:3] == ["api", "v1", "rankings"] and len(parts) == 4:
            for entry in json.loads(raw)["models"]:
                found[(parts[3], entry["id"])] = (entry["rank"], entry["score"])
        if parts[:3] == ["api", "v1", "domains"] and len(parts) == 4:
            for place, entry in enumerate(json.loads(raw)["models"], start=1):
                found[(f"domain:{parts[3]}", entry["model"])] = (place, entry["compositeIQ"])
    return found


def _own_file_changed(base: Path, new: Path, model_id: str) -> bool:
    before, after = base / "models" / f"{model_id}.toml", new / "models" / f"{model_id}.toml"
    return not (before.is_file() and after.is_file()) or before.read_bytes() != after.read_bytes()


@pytest.mark.slow
@pytest.mark.parametrize("kind", list(KINDS))
def test_one_input_of_each_kind_every_move_reported_and_explained(
    kind: str, tmp_path: Path
) -> None:
    side, edit = KINDS[kind]
    base, new = tmp_path / "base", tmp_path / "new"
    shutil.copytree(FIXTURE, base)
    shutil.copytree(FIXTURE, new)
    edit(base if side == "base" else new)
    code, output = _diff(str(base), str(new), "--format", "json")
    assert code == 0, output
    diff = json.loads(output)

    # every ranking place or score that moved, and nothing else
    before, after = _places(base), _places(new)
    moved = {key for key in before.keys() | after.keys() if before.get(key) != after.get(key)}
    assert moved, kind  # each kind of input moves at least one ranking
    reported = {(r["id"], m["id"]) for r in diff["rankings"] for m in r["moves"]}
    assert reported == moved

    # a cause for every model that moved while its own file did not change; none otherwise
    came_or_went = {m["id"] for m in diff.get("modelsAdded", []) + diff.get("modelsRemoved", [])}
    touched = {c["id"] for c in diff.get("modelsChanged", [])} | {m for _, m in moved}
    causes = {c["id"]: c["cause"] for c in diff.get("causes", [])}
    for model_id in sorted(touched - came_or_went):
        if _own_file_changed(base, new, model_id):
            assert model_id not in causes, (kind, model_id)
        else:
            assert causes.get(model_id), (kind, model_id)
    for change in diff.get("modelsChanged", []):
        assert change["ownDataChanged"] == _own_file_changed(base, new, change["id"])

    # the same report as Markdown: the summary first, each moved ranking named
    code, markdown = _diff(str(base), str(new), "--format", "markdown")
    assert markdown.startswith(f"## modelscores diff\n\n**{github_text(diff['summary'])}**\n")
    if "insertion" in diff:  # only models were added: the others' moves in one line
        assert kind == "a new model" and "### Moved only by the insertion\n" in markdown
        assert diff["insertion"]["models"] == len(causes)
        return
    for ranking in diff["rankings"]:
        assert f"### {github_text(heading(ranking['id'], ranking['name']))}\n" in markdown
    for model_id, cause in causes.items():
        assert github_text(cause) in markdown, model_id


def test_markdown_fits_a_pull_request_comment_however_large_the_change() -> None:
    """3,000 changed models: the Markdown keeps every section and cuts the longest, saying
    how many rows it left out; JSON keeps them all."""
    base = _snapshot(*(_model(f"m-{n}") for n in range(3000)))
    new = _snapshot(*(_model(f"m-{n}", cost__inputPer1M=2.0, iq=121) for n in range(3000)))
    diff = compare(base, new)
    markdown = render(diff, "markdown")
    assert len(markdown) < 60_000  # GitHub refuses a comment over 65,536 characters
    assert "more rows: the whole report is `modelscores diff --format json`" in markdown
    assert len(json.loads(render(diff, "json"))["modelsChanged"]) == 3000


def test_a_place_move_is_noise_only_when_the_model_itself_moved_inside_its_band() -> None:
    composite = "composite-iq"
    base = _snapshot(
        _model("m-1", name="One"),
        _model("m-2", name="Two", iq=118, rank=2, rankLow=1, rankHigh=3),
        rankings={composite: _ranking(composite, ("m-1", 120), ("m-2", 118), band="rank")},
    )
    new = _snapshot(
        _model("m-1", name="One", iq=117, rank=2),
        _model("m-2", name="Two", iq=118, rank=1, rankLow=1, rankHigh=3),
        rankings={composite: _ranking(composite, ("m-2", 118), ("m-1", 117), band="rank")},
    )
    (ranking,) = compare(base, new).rankings
    moves = {m.id: m for m in ranking.moves}
    # One's score moved (120 -> 117) and its new place 2 lies in its published rank range 1..2
    assert moves["m-1"].within_band is True
    # Two's score did not move: it rose because One fell, which is a neighbour, not noise
    assert moves["m-2"].within_band is None


def _inserted(**other: object) -> tuple[Snapshot, Snapshot]:
    """Two models, then a third inserted ahead of them (its composite on two direct
    dimensions, five imputed); `other` changes m-2's own data in the new build too."""
    composite = "composite-iq"
    base = _snapshot(
        _model("m-1", name="One"),
        _model("m-2", name="Two", iq=118, rank=2),
        rankings={composite: _ranking(composite, ("m-1", 120), ("m-2", 118), band="rank")},
    )
    imputed = {f"dimensions.d{n}.imputed": n >= 2 for n in range(7)}
    added = _model("m-3", name="Three", iq=125, rank=1, rankLow=1, rankHigh=3, set=imputed)
    new = _snapshot(
        _model("m-1", name="One", iq=119, rank=2),
        _model("m-2", name="Two", iq=118, rank=3, **other),
        added,
        rankings={
            composite: _ranking(composite, ("m-3", 125), ("m-1", 119), ("m-2", 118), band="rank")
        },
    )
    return base, new


def test_a_one_model_insertion_names_it_once_and_sums_up_the_rest_in_one_line() -> None:
    diff = compare(*_inserted())
    assert diff.summary == (
        "1 model added, 2 models moved only by the insertion, 1 ranking changed"
    )
    (entry,) = diff.models_added
    assert (entry.rank_low, entry.rank_high, entry.imputed, entry.provisional) == (1, 3, 5, True)
    text = render(diff, "text")
    assert text.count("Three") == 2  # the line naming it, and the summary of the others
    assert "composite IQ: 125 (95% range 117-123, 5 of 7 dimensions imputed, provisional)" in text
    assert "rank: 1 (rank band 1-3)" in text
    assert (
        "  2 other models moved only because Three joined: places by at most 1, composite IQ"
        " by at most 1 (all inside their 95% ranges); every move is in `--format json`"
    ) in text.splitlines()
    assert "One" not in text and "Two" not in text  # no row per model moved by it
    assert len(json.loads(render(diff, "json"))["rankings"][0]["moves"]) == 3  # JSON has all


def test_an_insertion_beside_another_change_lists_every_move() -> None:
    diff = compare(*_inserted(cost__inputPer1M=2.0))  # Two's own price changed as well
    assert diff.insertion is None
    assert "1 model moved by other inputs" in diff.summary
    assert "One" in render(diff, "text")
