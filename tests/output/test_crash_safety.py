"""Crash safety: a killed, starved or blocked build never leaves a mixed or empty site.

Each trial starts the real `python -m generator build` in a child process and kills it
with SIGKILL after a delay drawn from a seeded generator. Afterwards the output directory
must hold exactly the previous complete site or exactly the new complete site, compared
file by file through a hash manifest. The two datasets differ in the methodology version,
which is in every JSON envelope, so a mix of old and new files cannot pass for either.
The trials' children are forked from one parent that has imported the build once
(tests/support/bounded.py): a kill during an interpreter's start and imports (0.3 s of CPU
a child) would only find the old site.
"""

from __future__ import annotations

import contextlib
import os
import random
import re
import resource
import shutil
import signal
import statistics
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.bounded import BoundedRunner, Started
from support.paths import FIXTURE_DATA, REPO, TESTS
from support.servers import python_env
from support.sitetree import (
    Manifest,
    build_in_process,
    manifest_diff,
    permissions_enforced,
    run_build,
    tree_manifest,
    without_dac_override,
)

from generator.cache.manifest import cache_path, history_cache_path, records_cache_path
from generator.cache.scores import kept_scores_path
from generator.output.writer import spare_path

SEED = 20251122
TRIALS = int(os.environ.get("MODELSCORES_CRASH_TRIALS", "20"))


def _variant(src: Path, dest: Path, suffix: str = "crash") -> Path:
    """Copy the fixture with the methodology version changed (every envelope changes)."""
    shutil.copytree(src, dest)
    path = dest / "methodology.toml"
    text = path.read_text(encoding="utf-8")
    new, count = re.subn(
        r'^(version\s*=\s*"[^"]*)"', rf'\1-{suffix}"', text, count=1, flags=re.MULTILINE
    )
    assert count == 1, "methodology.toml has no top-level version line"
    path.write_text(new, encoding="utf-8")
    return dest


def _write_phase(parent: Path, out_name: str = "site_out") -> set[str]:
    """The build's staging and old trees beside `out_dir` (not the site, not its build cache)."""
    prefixes = (f".{out_name}.staging-", f".{out_name}.old-")
    return {name for name in os.listdir(parent) if name.startswith(prefixes)}


def build_args(data_dir: Path, out_dir: Path) -> list[str]:
    """The arguments of `python -m generator` that build `data_dir` into `out_dir`."""
    return ["build", "--data-dir", str(data_dir), "--out-dir", str(out_dir)]


def start_build(runner: BoundedRunner, data_dir: Path, out_dir: Path) -> Started:
    """The build of `data_dir` into `out_dir` forked warm, its output dropped."""
    devnull = Path(os.devnull)
    return runner.start("generator", build_args(data_dir, out_dir), devnull, devnull)


class Sites:
    """Two datasets and the manifests of their complete builds."""

    def __init__(self, root: Path, runner: BoundedRunner) -> None:
        self.runner = runner
        self.data = {"old": root / "data-old", "new": root / "data-new"}
        shutil.copytree(FIXTURE_DATA, self.data["old"])
        _variant(FIXTURE_DATA, self.data["new"])
        # A third site, never a trial's target: left as the spare tree, so that the next
        # build updates a tree that differs from its target in every API file.
        self.mid = _variant(FIXTURE_DATA, root / "data-mid", "mid")
        self.manifest: dict[str, Manifest] = {}
        for name, data_dir in self.data.items():
            out = root / f"reference-{name}" / "site_out"
            result = runner.run("generator", build_args(data_dir, out), root, 120)
            assert result.returncode == 0, result.stderr
            self.manifest[name] = tree_manifest(out)
        self.seconds = self._trial_seconds(root / "trial-like")
        assert self.manifest["old"] != self.manifest["new"]
        changed = {
            k
            for k in self.manifest["old"]
            if self.manifest["old"][k] != self.manifest["new"].get(k)
        }
        assert len(changed) > 10, "the two sites must differ in many files to detect a mix"
        self.window = self._write_window(root / "window")

    def _trial_seconds(self, scratch: Path) -> float:
        """Seconds one trial's build runs: the other dataset built over a site whose build
        caches hold both (a cold build replays every history month and can take several
        times as long, so uniform kills timed by it would mostly come after the end)."""
        out = scratch / "site_out"
        for data in (self.data["new"], self.data["old"]):
            build_in_process(data, out)
        started = time.monotonic()
        result = self.runner.run("generator", build_args(self.data["new"], out), scratch, 120)
        assert result.returncode == 0, result.stderr
        return time.monotonic() - started

    def _write_window(self, scratch: Path, repeat: int = 3) -> float:
        """Seconds a staging tree exists beside the output during one rebuild (the median
        of `repeat`: the machine's load makes single measurements vary 5-fold).

        Measured with a spare tree in place that differs from the target in every API file,
        which the writer renames to a staging name and updates (shorter than a full
        staging, which a rebuild after a killed one does).
        """
        out = scratch / "site_out"
        windows = []
        for _ in range(repeat):
            for data in (self.mid, self.data["old"]):
                build_in_process(data, out)
            windows.append(self._staged_seconds(out, scratch))
        return statistics.median(windows)

    def _staged_seconds(self, out: Path, scratch: Path) -> float:
        # From the first sight of a staging tree to the last: the writer makes an empty
        # one (mkdtemp), removes it and renames the spare to that name, and a look between
        # the two must not end the window.
        child = start_build(self.runner, self.data["new"], out)
        appeared: float | None = None
        last = 0.0
        while not child.poll():
            if _write_phase(scratch):
                last = time.monotonic()
                appeared = last if appeared is None else appeared
            time.sleep(0.0002)
        assert child.wait(60).returncode == 0 and appeared is not None
        return last - appeared

    def which(self, out: Path) -> str:
        """'old' or 'new' if `out` is exactly one of the two complete sites."""
        found = tree_manifest(out)
        for name, manifest in self.manifest.items():
            if found == manifest:
                return name
        detail = {name: manifest_diff(m, found) for name, m in self.manifest.items()}
        raise AssertionError(f"{out} is neither the old nor the new site: {detail}")


@pytest.fixture(scope="module")
def runner() -> Iterator[BoundedRunner]:
    env = python_env()
    env["PYTHONPATH"] = f"{REPO}:{TESTS}"
    runner = BoundedRunner(env, REPO, memory=None, cpu=None)
    yield runner
    runner.close()


@pytest.fixture(scope="module")
def sites(disk_temp: Path, runner: BoundedRunner) -> Sites:
    return Sites(Path(tempfile.mkdtemp(prefix="crash-", dir=disk_temp)), runner)


@pytest.fixture
def tmp_path(disk_temp: Path) -> Path:
    """This module's `tmp_path` is on disk (`disk_temp`) even when the run's are on tmpfs:
    the trials aim kills at a write phase measured on the same file system as the sites."""
    return Path(tempfile.mkdtemp(prefix="trial-", dir=disk_temp))


def _kill_after(
    runner: BoundedRunner, data_dir: Path, out: Path, delay: float, aim: bool
) -> tuple[int, bool]:
    """Start the build of `data_dir` into `out`, SIGKILL it after `delay` s; return (exit
    status, killed mid-write).

    With `aim`, the clock starts when a new entry (the build's staging tree) appears in
    `parent`, which aims the kill at the write-and-swap phase. "Mid-write" means such an
    entry existed at the moment of the kill.
    """
    parent = out.parent
    before = _write_phase(parent)
    child = start_build(runner, data_dir, out)
    try:
        if aim:
            deadline = time.monotonic() + 60
            while not _write_phase(parent) - before and not child.poll():
                assert time.monotonic() < deadline, "the build never started writing"
                time.sleep(0.0005)
        time.sleep(delay)
        mid_write = bool(_write_phase(parent) - before)
    finally:
        child.kill()  # a no-op if it has ended (the child is not reaped before `wait`)
    return child.wait(60).returncode, mid_write


@pytest.mark.slow
def test_sigkill_at_random_moments_leaves_old_or_new_site(
    sites: Sites, runner: BoundedRunner, tmp_path: Path
) -> None:
    rng = random.Random(SEED)
    out = tmp_path / "site_out"
    build_in_process(sites.data["old"], out)
    state = sites.which(out)
    outcomes = {"killed": 0, "killed mid-write": 0, "finished": 0, "now new": 0}
    for trial in range(TRIALS):
        target = "new" if state == "old" else "old"
        # One trial in three: uniform over the whole run; the others aimed at the writing phase.
        aim = trial % 3 != 0
        if aim:  # the spare differs from the target, as when the window was measured
            build_in_process(sites.mid, out)
            build_in_process(sites.data[state], out)
        delay = rng.uniform(0.0, sites.window) if aim else rng.uniform(0.0, sites.seconds * 1.1)
        status, mid_write = _kill_after(runner, sites.data[target], out, delay, aim)
        killed = status == -signal.SIGKILL
        outcomes["killed" if killed else "finished"] += 1
        outcomes["killed mid-write"] += killed and mid_write
        state = sites.which(out)  # raises unless exactly the old or the new site
        outcomes["now new"] += state == "new"
        if status == 0:
            assert state == target
    # The next ordinary build recovers from whatever the kills left behind.
    result = run_build(sites.data["new"], out)
    assert result.returncode == 0, result.stderr
    assert sites.which(out) == "new"
    # The site, its caches and the spare tree the writer updates next time.
    kept = {
        "site_out",
        cache_path(out).name,
        history_cache_path(out).name,
        records_cache_path(out).name,
        kept_scores_path(out).name,
        spare_path(out).name,
    }
    leftovers = sorted(p.name for p in tmp_path.iterdir() if p.name not in kept)
    assert leftovers == [], f"staging debris after a clean build: {leftovers}"
    print(f"crash trials (seed {SEED}, write window {sites.window:.3f} s): {outcomes}")
    assert outcomes["killed"] >= TRIALS // 2, outcomes
    assert outcomes["killed mid-write"] >= TRIALS // 4, outcomes


def _limit_file_size(limit: int) -> None:
    """In the child: a file may not grow past `limit` bytes (writes fail with EFBIG)."""
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))


def _assert_clear_failure(result: subprocess.CompletedProcess[str]) -> None:
    assert result.returncode == 1, (result.returncode, result.stderr)
    assert "Traceback" not in result.stderr + result.stdout
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    assert len(lines[0]) < 300


def test_file_size_limit_reports_error_and_keeps_old_site(sites: Sites, tmp_path: Path) -> None:
    """A write that fails part-way (RLIMIT_FSIZE: EFBIG, like a full disk) keeps the old site."""
    out = tmp_path / "site_out"
    build_in_process(sites.data["old"], out)
    result = run_build(sites.data["new"], out, preexec_fn=lambda: _limit_file_size(2048))
    _assert_clear_failure(result)
    assert sites.which(out) == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        cache_path(out).name,
        history_cache_path(out).name,
        records_cache_path(out).name,
        kept_scores_path(out).name,
        "site_out",
    ]


@contextlib.contextmanager
def _small_tmpfs(where: Path, size: str) -> Iterator[Path]:
    where.mkdir()
    if os.geteuid() != 0 or not shutil.which("mount"):
        pytest.skip("mounting a small tmpfs needs root; RLIMIT_FSIZE test covers CI")
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)],
        capture_output=True,
        check=False,
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount tmpfs here: {mounted.stderr!r}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def _fill(disk: Path, leave: int) -> None:
    """Fill the file system of `disk` until only about `leave` bytes are free."""
    stats = os.statvfs(disk)
    free = stats.f_bavail * stats.f_frsize
    with open(disk / "filler", "wb") as handle:
        handle.write(b"\0" * max(0, free - leave))


@pytest.mark.slow
def test_full_disk_reports_error_and_keeps_old_site(sites: Sites, tmp_path: Path) -> None:
    """A real full disk (a small tmpfs) mid-build: one clear error, the old site intact."""
    with _small_tmpfs(tmp_path / "disk", "64m") as disk:
        out = disk / "site_out"
        build_in_process(sites.data["old"], out)
        _fill(disk, leave=64 * 1024)
        result = run_build(sites.data["new"], out)
        _assert_clear_failure(result)
        assert "No space left on device" in result.stderr
        assert sites.which(out) == "old"
        assert sorted(p.name for p in disk.iterdir()) == [
            cache_path(out).name,
            history_cache_path(out).name,
            records_cache_path(out).name,
            kept_scores_path(out).name,
            "filler",
            "site_out",
        ]


def test_unwritable_output_parent_reports_error_and_keeps_old_site(
    sites: Sites, tmp_path: Path
) -> None:
    if not permissions_enforced():
        pytest.skip("root without setpriv ignores file modes")
    parent = tmp_path / "locked"
    out = parent / "site_out"
    build_in_process(sites.data["old"], out)
    parent.chmod(0o555)
    try:
        result = run_build(sites.data["new"], out, prefix=without_dac_override())
    finally:
        parent.chmod(0o755)
    _assert_clear_failure(result)
    assert sites.which(out) == "old"


def test_output_path_under_a_file_reports_error(sites: Sites, tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("x", encoding="utf-8")
    result = run_build(sites.data["old"], blocker / "site_out")
    _assert_clear_failure(result)
    assert blocker.read_text(encoding="utf-8") == "x"
