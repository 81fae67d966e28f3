"""Byte-exact manifests of an output tree, and running the real build in a child process."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from generator.api.urls import SiteConfig
from generator.build import build_site
from generator.cache.manifest import cache_path, history_cache_path, records_cache_path
from generator.cache.scores import kept_scores_path
from support.paths import FIXTURE_DATA, REPO
from support.servers import python_env

Manifest = dict[str, str]


def drop_caches(out_dir: Path) -> None:
    """Remove the caches beside the site at `out_dir` (build, records, scores, history)."""
    for path in (cache_path(out_dir), records_cache_path(out_dir), kept_scores_path(out_dir)):
        path.unlink(missing_ok=True)
    shutil.rmtree(history_cache_path(out_dir), ignore_errors=True)


def tree_manifest(root: Path) -> Manifest:
    """Map every entry under `root` to its kind and content hash (`{}` if `root` is missing).

    Directories, symlinks (by target) and regular files (by SHA-256 of their bytes and their
    permission bits) all count, so two equal manifests mean byte-for-byte equal trees.
    """
    if not root.exists():
        return {}
    base = root.resolve()
    manifest: Manifest = {".": "dir"}
    for dirpath, dirnames, filenames in os.walk(base):
        dirnames.sort()
        for name in sorted(dirnames + filenames):
            path = Path(dirpath) / name
            rel = path.relative_to(base).as_posix()
            if path.is_symlink():
                manifest[rel] = "link:" + os.readlink(path)
            elif path.is_dir():
                manifest[rel] = "dir"
            else:
                mode = oct(path.stat().st_mode & 0o777)
                manifest[rel] = f"{mode}:{hashlib.sha256(path.read_bytes()).hexdigest()}"
    return manifest


def manifest_diff(left: Manifest, right: Manifest, limit: int = 8) -> str:
    """A short human description of how two manifests differ."""
    missing = sorted(set(left) - set(right))
    extra = sorted(set(right) - set(left))
    changed = sorted(k for k in set(left) & set(right) if left[k] != right[k])
    parts = []
    for label, keys in (("missing", missing), ("extra", extra), ("changed", changed)):
        if keys:
            parts.append(f"{label} {len(keys)}: {keys[:limit]}")
    return "; ".join(parts) or "identical"


def build_command(data_dir: Path, out_dir: Path, *extra: str) -> list[str]:
    """The argv of `python -m generator build` for a data and an output directory."""
    return [
        sys.executable,
        "-m",
        "generator",
        "build",
        "--data-dir",
        str(data_dir),
        "--out-dir",
        str(out_dir),
        *extra,
    ]


def without_dac_override() -> list[str]:
    """A command prefix that makes a root child obey file permissions (empty if not root).

    Root bypasses permission bits through CAP_DAC_OVERRIDE; dropping it (and
    CAP_DAC_READ_SEARCH) from the bounding set before exec makes `chmod 000` and
    read-only directories mean what they say, like they do in a non-root CI runner.
    """
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        return []
    return [setpriv, "--bounding-set", "-dac_override,-dac_read_search"]


def permissions_enforced() -> bool:
    """Whether a child build can be made to obey file modes (non-root, or root via setpriv)."""
    return os.geteuid() != 0 or bool(without_dac_override())


def run_build(
    data_dir: Path,
    out_dir: Path,
    *extra: str,
    prefix: Sequence[str] = (),
    preexec_fn: Callable[[], None] | None = None,
    timeout: float = 120,
) -> subprocess.CompletedProcess[str]:
    """Run the real build in a child process and capture its output."""
    return subprocess.run(
        [*prefix, *build_command(data_dir, out_dir, *extra)],
        capture_output=True,
        text=True,
        env=python_env(),
        cwd=REPO,
        preexec_fn=preexec_fn,
        timeout=timeout,
        check=False,
    )


def build_in_process(data_dir: Path, out_dir: Path) -> Path:
    """What `modelscores build --data-dir DATA --out-dir OUT` does (its default base URL is
    `SiteConfig()`'s), in this process: for a build that only sets a test up, where a child
    would only add an interpreter's start."""
    build_site(data_dir, out_dir, SiteConfig())
    return out_dir


def build_fixture_site(out_dir: Path, data_dir: Path = FIXTURE_DATA, *extra: str) -> Path:
    """Build `data_dir` (default: the valid fixture) into `out_dir` with the real CLI."""
    result = run_build(data_dir, out_dir, *extra)
    assert result.returncode == 0, result.stderr
    return out_dir
