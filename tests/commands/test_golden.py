"""Golden output: the API and hosting files built from tests/data, byte for byte.

tests/golden/ holds the expected `api/` tree, `_headers` and `_redirects`. Pages are
left to tests/pages/test_pages.py (their PNG previews depend on the rasteriser). Regenerate
only on purpose, and review the diff: `pytest tests/commands/test_golden.py --update-golden`.
"""

from __future__ import annotations

import difflib
import shutil
from pathlib import Path

import pytest
from support.sitetree import drop_caches

from generator.api.urls import SiteConfig
from generator.build import build_site

GOLDEN = Path(__file__).parents[1] / "golden"
FIXTURE_DATA = Path(__file__).parents[1] / "data"
COVERED = ("api/", "_headers", "_redirects")


def _tree(root: Path) -> dict[str, bytes]:
    return {
        rel: p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and (rel := p.relative_to(root).as_posix()).startswith(COVERED)
    }


def _diff(path: str, expected: bytes, actual: bytes) -> str:
    lines = difflib.unified_diff(
        expected.decode(errors="replace").splitlines(keepends=True),
        actual.decode(errors="replace").splitlines(keepends=True),
        fromfile=f"golden/{path}",
        tofile=f"built/{path}",
    )
    return "".join(list(lines)[:80])


def _write_golden(files: dict[str, bytes]) -> None:
    shutil.rmtree(GOLDEN, ignore_errors=True)
    for rel, data in files.items():
        target = GOLDEN / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)


def test_build_matches_golden(built_site: Path, update_golden: bool) -> None:
    actual = _tree(built_site)
    if update_golden:
        _write_golden(actual)
    expected = _tree(GOLDEN)
    missing = sorted(set(expected) - set(actual))
    extra = sorted(set(actual) - set(expected))
    assert not missing and not extra, f"missing {missing[:10]}, unexpected {extra[:10]}"
    changed = [path for path in expected if expected[path] != actual[path]]
    report = "\n".join(_diff(path, expected[path], actual[path]) for path in changed[:5])
    assert not changed, (
        f"{len(changed)} files differ from tests/golden (if intended, rerun with "
        f"--update-golden and review the diff):\n{report}"
    )


@pytest.mark.usefixtures("rasterise_every_time")
def test_two_builds_are_byte_identical(tmp_path: Path, built_site: Path) -> None:
    """Determinism over the whole site, pages included."""
    again = tmp_path / "site_out"
    build_site(FIXTURE_DATA, again, SiteConfig())
    first = {
        p.relative_to(built_site).as_posix(): p.read_bytes()
        for p in built_site.rglob("*")
        if p.is_file()
    }
    second = {
        p.relative_to(again).as_posix(): p.read_bytes() for p in again.rglob("*") if p.is_file()
    }
    assert first.keys() == second.keys()
    assert [k for k in first if first[k] != second[k]] == []


def test_rebuild_with_unchanged_data_writes_nothing(tmp_path: Path) -> None:
    out = tmp_path / "site_out"
    first = build_site(FIXTURE_DATA, out, SiteConfig())
    second = build_site(FIXTURE_DATA, out, SiteConfig())
    assert first.written == first.files and first.swapped
    assert (second.written, second.unchanged, second.swapped) == (0, second.files, False)
    # Same inputs and an untouched site: the build cache answers before loading anything.
    assert set(second.seconds) == {"cache"}
    drop_caches(out)  # without the cache every stage runs, and still nothing is written
    third = build_site(FIXTURE_DATA, out, SiteConfig())
    assert (third.written, third.unchanged, third.swapped) == (0, third.files, False)
    assert set(third.seconds) >= {"load", "score", "render", "check", "write"}
