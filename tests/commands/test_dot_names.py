"""Names starting with `.` in `data/`: `build` and `diff git:REV` read the same tree the same
way (one predicate, `generator.input.load.ignored`). A dot-named entry at the top of data/
or in a record folder is left alone by both; a dot-named `.toml` in a record folder is data
nobody would read, refused by both. Before, `data/.root -> /` built and the diff of the
same commit failed (`git:HEAD: data/.root: file: a symbolic link ...`)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from support.paths import FIXTURE_DATA

from generator.cli import cli


def _committed(tmp_path: Path) -> Path:
    """A repository whose data/ (the fixture, plus the caller's changes) is committed."""
    repo = tmp_path / "repo"
    shutil.copytree(FIXTURE_DATA, repo / "data")
    return repo


def _commit(repo: Path) -> None:
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@example.org"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "-A", "data"], check=True)
    subprocess.run([*git, "commit", "-qm", "data"], check=True)


def _build(repo: Path) -> Result:
    out = repo.parent / "site_out"
    return CliRunner().invoke(
        cli, ["build", "--data-dir", str(repo / "data"), "--out-dir", str(out)]
    )


def _diff(repo: Path, monkeypatch: pytest.MonkeyPatch) -> Result:
    monkeypatch.chdir(repo)
    return CliRunner().invoke(cli, ["diff", "git:HEAD", "data"])


def test_dot_named_entries_are_left_alone_by_build_and_diff(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _committed(tmp_path)
    data = repo / "data"
    (data / ".root").symlink_to("/")
    (data / ".models").mkdir()
    shutil.copy(data / "models" / "alpha-2.toml", data / ".models" / "x.toml")
    (data / "models" / ".notes.md").write_text("scratch\n", encoding="utf-8")
    (data / "models" / ".drafts").mkdir()
    (data / "models" / ".drafts" / "y.toml").write_text("x = [\n", encoding="utf-8")
    _commit(repo)
    os.mkfifo(data / ".fifo")  # git cannot hold one: the working tree's side has it
    built = _build(repo)
    assert built.exit_code == 0, built.output
    diffed = _diff(repo, monkeypatch)
    assert diffed.exit_code == 0, diffed.output
    assert "Traceback" not in diffed.output


def test_a_dot_named_data_file_in_a_record_folder_is_refused_by_build_and_diff(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _committed(tmp_path)
    shutil.copy(repo / "data" / "models" / "alpha-2.toml", repo / "data" / "models" / ".x.toml")
    _commit(repo)
    why = "file: a data file whose name starts with '.' is never read (rename or remove it)"
    built = _build(repo)
    assert built.exit_code == 1 and "Traceback" not in built.output
    assert built.stderr.splitlines() == [
        f"{repo / 'data' / 'models' / '.x.toml'}: {why}",
        "Aborted: 1 data error",
    ]
    diffed = _diff(repo, monkeypatch)
    assert diffed.exit_code == 1 and "Traceback" not in diffed.output
    assert f"git:HEAD: data/models/.x.toml: {why}" in diffed.stderr.splitlines()
