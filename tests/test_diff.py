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

import msgspec
import pytest
from click.testing import CliRunner
from support.paths import REPO
from support.servers import python_env

from generator.api.urls import site_config
from generator.build import build_api, build_site
from generator.cli import cli
from generator.diff.changes import NO_CHANGES, compare
from generator.diff.report import escape, render
from generator.diff.snapshot import (
    Band,
    DomainEntry,
    DomainSnapshot,
    ModelSnapshot,
    Snapshot,
    read_snapshot,
)
from generator.diff.sources import _data_at_revision
from generator.input.limits import MAX_TREE_BYTES, MAX_TREE_ENTRIES

FIXTURE = Path(__file__).parent / "data"


def _model(model_id: str = "m-1", **changes: object) -> ModelSnapshot:
    fields: dict[str, object] = {
        "id": model_id,
        "name": model_id.upper(),
        "rank": 1,
        "iq": 120,
        "eq": 110,
        "dimensions": {"reliability": 118, "computer-use": None},
        "cost": {"inputPer1M": 1.0, "outputPer1M": 4.0, "effectivePer1M": 3.0},
        "results": {"gpqa-diamond": 0.5},
    }
    fields.update(changes)
    return msgspec.convert(fields, ModelSnapshot, from_attributes=True)


def _snapshot(*models: ModelSnapshot, **changes: object) -> Snapshot:
    fields: dict[str, object] = {
        "models": {m.id: m for m in models},
        "benchmarks": {"gpqa-diamond": {"id": "gpqa-diamond", "name": "GPQA", "direction": "up"}},
        "methodology": {
            "version": "2026-01-01",
            "parameters": {"peerCount": 3},
            "rules": ["a"],
            "changelog": [{"date": "2026-01-01", "text": "first"}],
        },
        "domains": {
            "coding": DomainSnapshot(
                "coding", "Coding", {"m-1": DomainEntry(1, 130.0), "m-2": DomainEntry(2, 120.0)}
            )
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
    aliased = _model("m-9", name="Nine", aliases=("m-2",))  # lists the old id as an alias
    new = _snapshot(_model("m-1"), renamed, aliased, _model("m-4"))
    diff = compare(base, new)
    assert [m.id for m in diff.models_added] == ["m-4"]
    assert diff.models_removed == []
    # backwards, m-2 lists no alias m-9: that is a removal and an addition, not a rename
    assert [m.id for m in compare(new, base).models_removed] == ["m-4", "m-9"]
    assert [(c.id, c.renamed_from and c.renamed_from.id) for c in diff.models_changed] == [
        ("m-3b", "m-3"),
        ("m-9", "m-2"),
    ]
    assert diff.summary == "1 model added, 2 models renamed"
    text = render(diff, "text")
    assert "renamed: Three (m-3) -> three (m-3b)" in text


def test_score_rank_and_dimension_moves_read_as_noise_inside_the_band() -> None:
    banded = _model(
        iq_band=Band(117.0, 123.0),
        rank_band=Band(1.0, 2.0),
        dimension_bands={"reliability": Band(116.0, 119.0)},
    )
    moved = _model(iq=122, rank=3, eq=111, dimensions={"reliability": 121, "computer-use": 100})
    diff = compare(_snapshot(banded), _snapshot(moved))
    (change,) = diff.models_changed
    # 122 is inside 117..123: noise; rank 3 is outside 1..2; 121 is outside 116..119
    assert change.composite is not None and change.composite.within_band is True
    assert change.rank is not None and change.rank.within_band is False
    assert change.dimensions["reliability"].within_band is False
    assert change.dimensions["computer-use"].within_band is None  # no band published
    assert change.emotional_reasoning is not None and change.emotional_reasoning.after == 111
    assert diff.summary == "1 model with score changes"
    text = render(diff, "text")
    assert "composite IQ: 120 -> 122 (+2, noise: inside the 95% range)" in text
    assert "rank: 1 -> 3 (+2, outside the 95% range)" in text
    assert "computer-use IQ: none -> 100" in text


def test_cost_and_result_changes() -> None:
    cheaper = _model(
        cost={"inputPer1M": 0.5, "outputPer1M": 4.0, "effectivePer1M": 2.25},
        results={"gpqa-diamond": 0.55, "hle": 0.1},
    )
    diff = compare(_snapshot(_model()), _snapshot(cheaper))
    (change,) = diff.models_changed
    assert list(change.cost) == ["effectivePer1M", "inputPer1M"]
    assert list(change.results) == ["gpqa-diamond", "hle"]
    assert diff.summary == "1 model with cost changes, 1 model with result changes"
    # 2.25 - 3.0 = -0.75
    assert "effective cost (USD/1M): 3 -> 2.25 (-0.75)" in render(diff, "text")


def test_domain_leaderboard_changes() -> None:
    domains = {
        "coding": DomainSnapshot(
            "coding", "Coding", {"m-2": DomainEntry(1, 131.0), "m-3": DomainEntry(2, 125.0)}
        )
    }
    diff = compare(_snapshot(), _snapshot(domains=domains))
    (change,) = diff.domains
    assert (change.added, change.removed) == (["m-3"], ["m-1"])
    assert change.composite["m-2"].after == 131.0
    assert (change.rank["m-2"].before, change.rank["m-2"].after) == (2, 1)
    assert diff.summary == "1 domain leaderboard changed"


def test_benchmark_catalogue_and_methodology_changes() -> None:
    benchmarks = {
        "gpqa-diamond": {"id": "gpqa-diamond", "name": "GPQA Diamond", "direction": "up"},
        "hle": {"id": "hle", "name": "HLE"},
    }
    methodology = {
        "version": "2026-02-01",
        "parameters": {"peerCount": 4},
        "rules": ["a"],
        "changelog": [
            {"date": "2026-01-01", "text": "first"},
            {"date": "2026-02-01", "text": "second"},
        ],
    }
    diff = compare(_snapshot(), _snapshot(benchmarks=benchmarks, methodology=methodology))
    assert diff.benchmarks is not None and diff.methodology is not None
    assert diff.benchmarks.added == ["hle"]
    back = compare(_snapshot(benchmarks=benchmarks), _snapshot())
    assert back.benchmarks is not None and back.benchmarks.removed == ["hle"]
    assert list(diff.benchmarks.changed["gpqa-diamond"]) == ["name"]
    assert diff.methodology.parameters["peerCount"].after == 4
    assert diff.methodology.changelog_added == ["2026-02-01: second"]
    assert diff.summary == (
        "1 benchmark added, 1 benchmark changed, methodology 2026-01-01 -> 2026-02-01"
    )
    markdown = render(diff, "markdown")
    assert "|  | version | 2026-01-01 | 2026-02-01 |  |" in markdown
    assert "|  | parameter peerCount | 3 | 4 | +1 |" in markdown


def test_markdown_escapes_names_from_data() -> None:
    hostile = _model(name="![x](https://tracker.example/p.png) | cell")
    markdown = render(compare(_snapshot(_model()), _snapshot(hostile)), "markdown")
    assert "![x]" not in markdown
    assert "\\!\\[x\\](https://tracker.example/p.png) \\| cell" in markdown
    assert escape("a|b [c](d) *e* <f>") == "a\\|b \\[c\\](d) \\*e\\* \\<f\\>"


def test_json_has_the_summary_first_and_camel_case_fields() -> None:
    diff = compare(_snapshot(_model()), _snapshot(_model(iq=121)))
    document = json.loads(render(diff, "json"))
    assert list(document)[0] == "summary"
    assert document["modelsChanged"][0]["composite"] == {"before": 120, "after": 121}


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
    assert diff["summary"] == "1 model with cost changes"
    (change,) = diff["modelsChanged"]
    assert change["id"] == "alpha-1"
    assert change["cost"]["inputPer1M"] == {"before": 1.0, "after": 2.0}
    assert set(change) == {"id", "name", "cost"}
    assert set(diff) == {"summary", "modelsChanged"}


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
    assert "- Gamma 2 (gamma-2)" in output


def _add_gamma_2(data: Path) -> None:
    text = (data / "models" / "gamma-1.toml").read_text(encoding="utf-8")
    text = text.replace('id = "gamma-1"', 'id = "gamma-2"').replace("Gamma 1", "Gamma 2")
    (data / "models" / "gamma-2.toml").write_text(text, encoding="utf-8")


def test_published_bands_are_read_from_the_build(fixture_site: Path, tmp_path: Path) -> None:
    base = tmp_path / "base"
    shutil.copytree(fixture_site, base)
    models_file = base / "api" / "v1" / "models.json"
    document = json.loads(models_file.read_text(encoding="utf-8"))
    first = document["models"][0]
    first.update(iqLow95=first["iq"] - 3, iqHigh95=first["iq"] + 3, rankLow=1, rankHigh=2)
    models_file.write_text(json.dumps(document), encoding="utf-8")
    snapshot = read_snapshot(base)
    model = snapshot.models[first["id"]]
    assert model.iq_band == Band(first["iq"] - 3.0, first["iq"] + 3.0)
    assert model.rank_band == Band(1.0, 2.0)


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
    assert output.splitlines()[0] == "1 model added"


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
