"""Bad data never half-publishes: the exact problem line, exit code 1, no traceback, and the
previous `site_out/` byte-for-byte unchanged, for every case of the corpus.

The corpus (`tests/bad_data/corpus.py`) is a table of minimal changes to the valid fixture
`tests/data/`. Each case runs `modelscores build` over a broken copy into an output directory
that holds the previous complete site; cases run in process through click's test runner,
and a sample (plus every case that needs real file permissions) runs `python -m generator
build` in a child process.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from bad_data.corpus import CASES, Case
from click.testing import CliRunner
from support.paths import FIXTURE_DATA
from support.sitetree import (
    Manifest,
    permissions_enforced,
    run_build,
    tree_manifest,
    without_dac_override,
)

from generator.cli import cli

IN_CHILD = {
    "syntax-unclosed-string",
    "unknown-field-in-private-table",
    "empty-data-dir",
    "huge-file",
    "file-and-folder-names-not-utf8",
}


@pytest.fixture(scope="module")
def previous_site(built_site: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A complete site built from the valid fixture: what each failed build must keep (the
    session's build, copied once for this module; each test's output directory is a
    hard-linked clone of this copy, see `_clone_site`)."""
    site = tmp_path_factory.mktemp("previous") / "site_out"
    shutil.copytree(built_site, site, symlinks=True)
    return site


@pytest.fixture(scope="module")
def previous_manifest(previous_site: Path, built_site: Path) -> Manifest:
    """What every test's output directory holds before its build (hashed once, not per test)."""
    manifest = tree_manifest(previous_site)
    assert manifest == tree_manifest(built_site)
    return manifest


def _clone_site(site: Path, out: Path) -> None:
    """`out` as a copy of `site` whose directories are new and whose files are hard links.

    Copying the site's 144 files took about 94 ms a test (creating the files), linking them
    12 ms. The build never writes into an existing inode (generator/output/writer.py: it
    stages a new tree and swaps it in), and a failed build must not touch `out` at all: any
    write, chmod, removal or addition still shows in `tree_manifest(out)`. A write into a
    linked file would also show in this module's copy (`previous_site`), which the next test
    compares against `previous_manifest`; the session's `built_site` is never linked.
    """
    shutil.copytree(site, out, symlinks=True, copy_function=os.link)


def _prepare(case: Case, previous_site: Path, tmp_path: Path) -> tuple[Path, Path]:
    data = tmp_path / "data"
    shutil.copytree(FIXTURE_DATA, data)
    case.mutate(data)
    out = tmp_path / "site_out"
    _clone_site(previous_site, out)
    return data, out


def _check(case: Case, data: Path, code: int, stdout: str, stderr: str) -> None:
    assert "Traceback" not in stdout + stderr
    assert stderr.splitlines() == case.lines(data)
    assert stdout == ""
    assert code == 1


def test_corpus_has_at_least_forty_distinct_cases() -> None:
    names = [case.name for case in CASES]
    assert len(names) == len(set(names)) >= 40
    assert IN_CHILD <= set(names)
    assert all(case.expected for case in CASES)


def test_fixture_itself_is_valid(previous_site: Path) -> None:
    assert (previous_site / "api" / "v1" / "models.json").is_file()


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
def test_bad_data_fails_cleanly_and_keeps_the_previous_site(
    case: Case, previous_site: Path, previous_manifest: Manifest, tmp_path: Path
) -> None:
    data, out = _prepare(case, previous_site, tmp_path)
    before = tree_manifest(out)
    assert before == previous_manifest
    if case.needs_permissions:
        if not permissions_enforced():
            pytest.skip("root without setpriv ignores file modes")
        prefix = without_dac_override()
        result = run_build(data, out, prefix=prefix)
        _check(case, data, result.returncode, result.stdout, result.stderr)
    else:
        runner = CliRunner()
        outcome = runner.invoke(cli, ["build", "--data-dir", str(data), "--out-dir", str(out)])
        assert isinstance(outcome.exception, SystemExit), outcome.exception
        _check(case, data, outcome.exit_code, outcome.stdout, outcome.stderr)
    assert tree_manifest(out) == before


@pytest.mark.parametrize("case", [c for c in CASES if c.name in IN_CHILD], ids=lambda c: c.name)
def test_bad_data_in_a_real_process(case: Case, previous_site: Path, tmp_path: Path) -> None:
    """The same promise from `python -m generator build` itself: stderr, exit status, files."""
    data, out = _prepare(case, previous_site, tmp_path)
    before = tree_manifest(out)
    result = run_build(data, out)
    _check(case, data, result.returncode, result.stdout, result.stderr)
    assert tree_manifest(out) == before


def test_missing_data_dir(previous_site: Path, tmp_path: Path) -> None:
    out = tmp_path / "site_out"
    _clone_site(previous_site, out)
    before = tree_manifest(out)
    missing = tmp_path / "no-data-here"
    outcome = CliRunner().invoke(cli, ["build", "--data-dir", str(missing), "--out-dir", str(out)])
    assert outcome.exit_code == 1
    assert outcome.stderr.splitlines() == [
        f"{missing}: directory: not found",
        "Aborted: 1 data error",
    ]
    assert tree_manifest(out) == before
