"""`modelscores diff git:REV`: a problem in the revision's data is named as `git:REV` and the
path inside the repository, never the temporary folder it was built in."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from support.paths import FIXTURE_DATA

from generator.cli import cli
from generator.diff import snapshot


def _repo(tmp_path: Path) -> tuple[Path, list[str]]:
    repo = tmp_path / "repo"
    shutil.copytree(FIXTURE_DATA, repo / "data")
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@example.org"]
    subprocess.run([*git, "init", "-q"], check=True)
    return repo, git


def _commit(git: list[str]) -> None:
    subprocess.run([*git, "add", "-A", "data"], check=True)
    subprocess.run([*git, "commit", "-qm", "data"], check=True)


def _no_machine_path(output: str, *paths: Path) -> None:
    assert "Traceback" not in output
    assert "modelscores-diff-" not in output and tempfile.gettempdir() not in output, output
    for path in paths:
        assert str(path) not in output, output


def test_a_data_error_in_the_old_tree_names_the_revision_and_the_repository_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo, git = _repo(tmp_path)
    model = repo / "data" / "models" / "alpha-2.toml"
    good = model.read_text(encoding="utf-8")
    model.write_text(good.replace('name = "', 'nme = "', 1), encoding="utf-8")
    (repo / "data" / "benchmarks" / "gpqa-diamond.toml").write_text("x = [\n", encoding="utf-8")
    _commit(git)
    model.write_text(good, encoding="utf-8")
    shutil.copy(FIXTURE_DATA / "benchmarks" / "gpqa-diamond.toml", repo / "data" / "benchmarks")
    monkeypatch.chdir(repo)
    result = CliRunner().invoke(cli, ["diff", "git:HEAD", "data"])
    assert result.exit_code == 1
    _no_machine_path(result.output, tmp_path)
    lines = result.stderr.splitlines()
    assert lines[-1] == "Aborted: 3 data errors"
    assert all(line.startswith("git:HEAD: data/") for line in lines[:-1]), lines
    assert "git:HEAD: data/models/alpha-2.toml: name: missing" in lines
    assert "git:HEAD: data/models/alpha-2.toml: nme: unknown field (did you mean 'name'?)" in lines


def test_an_error_in_a_revision_outside_data_files_names_no_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo, git = _repo(tmp_path)
    (repo / "data" / "methodology.toml").unlink()
    _commit(git)
    monkeypatch.chdir(repo)
    result = CliRunner().invoke(cli, ["diff", "git:HEAD", str(FIXTURE_DATA)])
    assert result.exit_code == 1
    _no_machine_path(result.output, tmp_path)
    assert result.stderr.splitlines()[0].startswith("git:HEAD: data"), result.stderr


def test_a_problem_reading_the_revisions_build_names_no_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Reading the build made of a revision (a document over the size limit, say) names the
    revision's build, not the temporary folder it is in."""
    repo, git = _repo(tmp_path)
    _commit(git)
    monkeypatch.chdir(repo)
    monkeypatch.setattr(snapshot, "MAX_DOCUMENT_BYTES", 10)
    result = CliRunner().invoke(cli, ["diff", "git:HEAD", str(FIXTURE_DATA)])
    assert result.exit_code == 1
    _no_machine_path(result.output, tmp_path)
    assert result.output.startswith("Error: git:HEAD: build: api/v1/"), result.output
