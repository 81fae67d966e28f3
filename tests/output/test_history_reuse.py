"""The history's documents kept between builds (`generator/cache/history.py` `history_stage`).

A rebuild whose history inputs (`history_inputs`, the code, the site settings) are the
last build's keeps `/history`, every `/history/{date}`, every `/models/{id}/history` and
`/changes` as the site holds them: no month replayed, no document made. Any change the
history shows makes them all again; either way the site is a clean build's, byte for byte.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import msgspec
import pytest
from support.paths import FIXTURE_DATA
from support.sitetree import drop_caches

from generator.api.files import history_download, model_history_download
from generator.api.urls import SiteConfig
from generator.build import build_site
from generator.cache import history as memo_history
from generator.documents import assemble
from generator.input.records import Dataset

MODELS = FIXTURE_DATA / "models"
HISTORY_FILES = re.compile(r"api/(v1/)?(history(\.json|/.*)|model-history/.*|changes\.json)$")


def _tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def _clean(data: Path, out: Path) -> dict[str, bytes]:
    build_site(data, out, SiteConfig(), workers=1)
    drop_caches(out)
    return _tree(out)


def _edit(path: Path, pattern: str, replace: str) -> None:
    text = path.read_text(encoding="utf-8")
    edited = re.sub(pattern, replace, text, count=1, flags=re.M)
    assert edited != text, pattern
    path.write_text(edited, encoding="utf-8")


@pytest.fixture
def built(tmp_path: Path) -> Iterator[tuple[Path, Path]]:
    data = tmp_path / "data"
    shutil.copytree(FIXTURE_DATA, data)
    site = tmp_path / "site" / "site_out"
    build_site(data, site, SiteConfig())
    yield data, site


@pytest.fixture
def made(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many times a build made the history's documents (replay and all)."""
    calls: list[int] = []
    original = memo_history.history_part

    def counted(*args: object, **kwargs: object) -> object:
        calls.append(1)
        return original(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(memo_history, "history_part", counted)
    return calls


def _price(data: Path) -> None:
    _edit(data / "models" / "beta-1.toml", r"^output = ([0-9.]+)$", "output = 2.5")


def _alias(data: Path) -> None:  # redirects change, the history's bytes do not
    _edit(
        data / "models" / "beta-1.toml", r'^name = "Beta 1"$', 'name = "Beta 1"\naliases = ["b1"]'
    )


def _new_result(data: Path) -> None:
    _edit(
        data / "models" / "beta-1.toml",
        r"\Z",
        '\n[[results]]\nbenchmark = "arc-agi-1"\nvalue = 0.3\nsource_name = "Test source"\n'
        'source_url = "https://example.org/arc"\nas_of = 2026-01-10\n',
    )


def _next_month(data: Path) -> None:  # a new month: the ones before it are kept
    beta = data / "models" / "beta-1.toml"
    _edit(beta, r"^updated = 2026-01-10T00:00:00Z$", "updated = 2026-02-11T00:00:00Z")
    _edit(
        beta,
        r"\Z",
        '\n[[results]]\nbenchmark = "arc-agi-1"\nvalue = 0.3\nsource_name = "Test source"\n'
        'source_url = "https://example.org/arc"\nas_of = 2026-02-10\n',
    )


def _rename(data: Path) -> None:
    _edit(data / "models" / "gamma-1.toml", r'^name = ".*"$', 'name = "Gamma One"')


def _provider(data: Path) -> None:
    _edit(data / "models" / "beta-1.toml", r'^provider = "Beta AI"$', 'provider = "Beta Lab"')


def _redate(data: Path) -> None:
    _edit(data / "models" / "beta-1.toml", r"^as_of = 2026-01-10$", "as_of = 2025-11-03")


def _new_model(data: Path) -> None:
    source = (MODELS / "beta-1.toml").read_text(encoding="utf-8")
    source = source.replace('id = "beta-1"', 'id = "zeta-1"').replace("Beta 1", "Zeta 1")
    source = source.replace('family = "beta"', 'family = "zeta"')
    (data / "models" / "zeta-1.toml").write_text(source, encoding="utf-8")


@pytest.mark.parametrize("edit", [_price, _alias], ids=["price", "alias"])
def test_a_change_the_history_does_not_show_keeps_it(
    built: tuple[Path, Path], made: list[int], tmp_path: Path, edit: Callable[[Path], None]
) -> None:
    data, site = built
    before = _tree(site)
    edit(data)
    report = build_site(data, site, SiteConfig())
    after = _tree(site)
    assert made == [] and "history" in report.seconds
    history = {p for p in after if HISTORY_FILES.match(p)}
    assert len(history) > 10 and all(after[p] == before[p] for p in history)
    assert after == _clean(data, tmp_path / "clean" / "site_out")
    assert after != before


@pytest.mark.parametrize(
    "edit",
    [_new_result, _rename, _provider, _redate, _new_model],
    ids=["new result", "renamed model", "provider", "re-dated result", "new model"],
)
def test_a_change_the_history_shows_makes_it_again(
    built: tuple[Path, Path], made: list[int], tmp_path: Path, edit: Callable[[Path], None]
) -> None:
    data, site = built
    before = _tree(site)
    edit(data)
    build_site(data, site, SiteConfig())
    after = _tree(site)
    assert made == [1]
    assert any(after[p] != before.get(p) for p in after if HISTORY_FILES.match(p))
    assert after == _clean(data, tmp_path / "clean" / "site_out")


def test_other_site_settings_make_it_again(built: tuple[Path, Path], made: list[int]) -> None:
    data, site = built
    config = SiteConfig(base_url="https://scores.example.org/sub")
    build_site(data, site, config)
    assert made == [1]
    build_site(data, site, config)  # the same again: stops at the cache
    assert made == [1]


def test_a_tampered_history_file_is_made_again(
    built: tuple[Path, Path], made: list[int], tmp_path: Path
) -> None:
    """The site's copy no longer what the record says: every history document is made."""
    data, site = built
    snapshot = next((site / "api" / "v1" / "history").iterdir())
    snapshot.write_bytes(snapshot.read_bytes().replace(b'"rank"', b'"Rank"'))
    _price(data)
    build_site(data, site, SiteConfig())
    assert made == [1]
    assert _tree(site) == _clean(data, tmp_path / "clean" / "site_out")


def test_a_lost_model_history_csv_is_made_from_the_kept_file(
    built: tuple[Path, Path], made: list[int], tmp_path: Path
) -> None:
    """The history kept, one of its CSVs gone from the site: made again from the kept JSON
    file, read back (the document itself is not held)."""
    data, site = built
    csv = site / model_history_download("gamma-1")
    csv.unlink()
    _price(data)
    build_site(data, site, SiteConfig())
    assert made == []
    assert csv.exists()
    assert _tree(site) == _clean(data, tmp_path / "clean" / "site_out")


def _damage_quietly(path: Path, old: bytes, new: bytes) -> None:
    """Same size, same inode, same mtime: what a no-op build trusts without reading."""
    assert len(old) == len(new)
    before = path.stat()
    data = path.read_bytes()
    assert old in data
    path.write_bytes(data.replace(old, new, 1))
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert path.stat().st_ino == before.st_ino


def test_a_quietly_damaged_model_history_is_made_again_not_a_failed_build(
    built: tuple[Path, Path], made: list[int], tmp_path: Path
) -> None:
    """A kept model history whose bytes changed (size and time kept) while its CSV is gone:
    the build makes the history again and the CSV from it, twice running (a reviewer saw
    "changed in the site during the build; build again" on every build)."""
    data, site = built
    _damage_quietly(site / "api" / "v1" / "model-history" / "gamma-1", b"Gamma", b"Gxmma")
    (site / model_history_download("gamma-1")).unlink()
    _price(data)
    build_site(data, site, SiteConfig())
    build_site(data, site, SiteConfig())
    assert made == [1]
    clean = _clean(data, tmp_path / "clean" / "site_out")
    csv = model_history_download("gamma-1")
    assert (site / csv).read_bytes() == clean[csv]


def test_a_quietly_damaged_snapshot_csv_leaves_the_whole_history_csv_right(
    built: tuple[Path, Path], tmp_path: Path
) -> None:
    """The whole history's CSV is joined from the snapshot CSVs in the site; one kept from
    the last build but damaged (size and time kept) makes it cell by cell instead of
    failing every later build."""
    data, site = built
    (oldest,) = (site / "downloads" / "history").iterdir()  # January, kept by February
    _damage_quietly(oldest, b"alpha-1", b"alpha-9")
    _next_month(data)
    build_site(data, site, SiteConfig())
    build_site(data, site, SiteConfig())
    clean = _clean(data, tmp_path / "clean" / "site_out")
    assert (site / history_download()).read_bytes() == clean[history_download()]


def test_a_wrong_key_would_be_caught(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A key that left out the models' names would keep the old name in the history after a
    rename; comparing with a clean build (the property test's check) shows it."""
    data = tmp_path / "data"
    shutil.copytree(FIXTURE_DATA, data)
    site = tmp_path / "site" / "site_out"
    right = assemble.history_inputs

    def without_names(dataset: Dataset) -> list[bytes]:
        models = tuple(msgspec.structs.replace(m, name="") for m in dataset.models)
        return right(msgspec.structs.replace(dataset, models=models))

    monkeypatch.setattr(memo_history, "history_inputs", without_names)
    build_site(data, site, SiteConfig())
    _rename(data)
    build_site(data, site, SiteConfig())
    wrong = _tree(site)
    expected = _clean(data, tmp_path / "clean" / "site_out")
    stale = {p for p in expected if HISTORY_FILES.match(p) and wrong[p] != expected[p]}
    assert stale and all(b"Gamma One" in expected[p] for p in stale)
    assert all(b"Gamma One" not in wrong[p] for p in stale)
