"""Incremental builds: after any sequence of edits, the same bytes as a clean full build.

Each example copies the fixture data, builds it, then applies random edits (a price, a
result, an old result's date, a new model, a removed model, a template change, a
methodology parameter), and
after each one builds incrementally into the same site (cache in play, two workers, the
pool forced on) and cleanly into a new directory (no cache, one process), and compares
the two trees byte for byte. A damaged cache must give the same site as no cache.
"""

from __future__ import annotations

import re
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import jinja2
import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.paths import FIXTURE_DATA
from support.sitetree import drop_caches

from generator.api.urls import SiteConfig
from generator.build import build_site
from generator.cache import manifest as cache
from generator.cache import outputs as memo_outputs
from generator.cache.manifest import Manifest, cache_path
from generator.digests import digest
from generator.errors import DataError
from generator.output import pool
from generator.pages import render

Edit = tuple[str, int, float]
EDITS = st.tuples(
    st.sampled_from(["price", "result", "asof", "new", "remove", "template", "methodology"]),
    st.integers(0, 1_000),
    st.floats(0.5, 0.99),
)


def _tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def _models(data: Path) -> list[Path]:
    return sorted((data / "models").glob("*.toml"))


def _replace_first(path: Path, pattern: str, replace: str) -> None:
    text = path.read_text(encoding="utf-8")
    path.write_text(re.sub(pattern, replace, text, count=1, flags=re.M), encoding="utf-8")


def _apply(edit: Edit, data: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    kind, pick, factor = edit
    models = _models(data)
    model = models[pick % len(models)]
    if kind == "price":
        _replace_first(model, r"^output = ([0-9.]+)$", f"output = {1 + pick % 40}.5")
    elif kind == "result":
        _replace_first(
            model, r"^value = ([0-9.]+)$", lambda m: f"value = {round(float(m[1]) * factor, 3)}"
        )  # type: ignore[arg-type]
    elif kind == "asof":  # an old result re-dated: the history's earlier months change
        month = 10 + pick % 4  # October 2025 to January 2026
        date = f"{2025 + month // 13}-{(month - 1) % 12 + 1:02d}-{1 + pick % 28:02d}"
        _replace_first(model, r"^as_of = .*$", f"as_of = {date}")
    elif kind == "new":
        source = (FIXTURE_DATA / "models" / "alpha-1.toml").read_text(encoding="utf-8")
        new_id = f"zeta-{pick}"
        source = re.sub(r'^id = ".*"$', f'id = "{new_id}"', source, flags=re.M)
        source = re.sub(r'^name = ".*"$', f'name = "Zeta {pick}"', source, flags=re.M)
        source = re.sub(r"^aliases = .*$\n", "", source, flags=re.M)
        source = re.sub(r'^family = ".*"$', f'family = "zeta{pick}"', source, flags=re.M)
        source = re.sub(r"^output = .*$", f"output = {factor * 10:.2f}", source, flags=re.M)
        (data / "models" / f"{new_id}.toml").write_text(source, encoding="utf-8")
    elif kind == "remove":
        removable = [m for m in models if m.stem in ("beta-1", "gamma-1") or "zeta" in m.stem]
        if removable:
            removable[pick % len(removable)].unlink()
    elif kind == "template":
        _change_templates(monkeypatch, f"<!-- template edit {pick} -->\n")
    elif kind == "methodology":
        _replace_first(
            data / "methodology.toml", r"^peer_count = .*$", f"peer_count = {2 + pick % 3}"
        )
        _replace_first(
            data / "methodology.toml", r"^interval_z = .*$", f"interval_z = {1 + factor}"
        )


def _change_templates(monkeypatch: pytest.MonkeyPatch, footer: str) -> None:
    """What editing base.html does: other template bytes and another code version."""
    original = render._environment

    def environment() -> jinja2.Environment:
        env = original()
        base = env.loader.get_source(env, "base.html")[0]  # type: ignore[union-attr]
        overlay = jinja2.DictLoader({"base.html": base + footer})
        env.loader = jinja2.ChoiceLoader([overlay, env.loader])  # type: ignore[list-item]
        return env

    monkeypatch.setattr(render, "_environment", environment)
    monkeypatch.setattr(cache, "CODE", digest(cache.CODE, footer.encode()))


def _clean_build(data: Path, out: Path) -> dict[str, bytes] | None:
    """The site a full build of `data` makes (no cache, one process); None if invalid."""
    if out.parent.exists():
        shutil.rmtree(out.parent)
    try:
        build_site(data, out, SiteConfig(), workers=1)
    except DataError:
        return None
    drop_caches(out)
    return _tree(out)


@pytest.fixture
def forced_pool(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(pool, "MIN_PARALLEL", 2)  # the fixture has too few pages otherwise
    yield


@pytest.mark.slow
@settings(
    max_examples=6,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(edits=st.lists(EDITS, min_size=1, max_size=4))
def test_incremental_builds_match_clean_builds(
    edits: list[Edit], monkeypatch: pytest.MonkeyPatch, forced_pool: None
) -> None:
    with monkeypatch.context() as patch, tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        data = root / "data"
        shutil.copytree(FIXTURE_DATA, data)
        site = root / "incremental" / "site_out"
        build_site(data, site, SiteConfig(), workers=2)
        for edit in edits:
            _apply(edit, data, patch)
            expected = _clean_build(data, root / "clean" / "site_out")
            if expected is None:
                with pytest.raises(DataError):
                    build_site(data, site, SiteConfig(), workers=2)
                continue
            report = build_site(data, site, SiteConfig(), workers=2)
            assert _tree(site) == expected, (edit, report)


def _built(tmp_path: Path) -> tuple[Path, Path, dict[str, bytes]]:
    data = tmp_path / "data"
    shutil.copytree(FIXTURE_DATA, data)
    site = tmp_path / "site" / "site_out"
    build_site(data, site, SiteConfig())
    return data, site, _tree(site)


def _build_noting_reused(data: Path, site: Path) -> list[str]:
    """Build `data` into `site`; the names of the outputs the cache handed back, in order
    (by digest from its record, `kept`, or its bytes, `lookup`; `reused` asks `lookup`)."""
    seen: list[str] = []
    originals = {name: getattr(memo_outputs.OutputCache, name) for name in ("kept", "lookup")}

    def spy(method: str) -> object:
        def found(self: memo_outputs.OutputCache, name: str, key: bytes) -> bytes | None:
            result: bytes | None = originals[method](self, name, key)
            if result is not None and name not in seen:
                seen.append(name)
            return result

        return found

    with pytest.MonkeyPatch.context() as patch:
        for method in originals:
            patch.setattr(memo_outputs.OutputCache, method, spy(method))
        build_site(data, site, SiteConfig())
    return seen


def _damage(site: Path, how: str) -> None:
    path = cache_path(site)
    manifest = msgspec.msgpack.decode(path.read_bytes(), type=Manifest)
    if how == "truncated":
        path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    elif how == "wrong version":
        path.write_bytes(msgspec.msgpack.encode(msgspec.structs.replace(manifest, format=0)))
    elif how == "foreign code":
        stale = msgspec.structs.replace(manifest, code=b"another generator")
        path.write_bytes(msgspec.msgpack.encode(stale))
    elif how == "not msgpack":
        path.write_bytes(b"\x00garbage")


@pytest.mark.parametrize("how", ["truncated", "wrong version", "foreign code", "not msgpack"])
def test_damaged_cache_means_a_full_build(tmp_path: Path, how: str) -> None:
    data, site, built = _built(tmp_path)
    _damage(site, how)
    report = build_site(data, site, SiteConfig())
    assert "load" in report.seconds  # not answered by the cache
    assert _tree(site) == built
    assert cache.load_manifest(site).inputs  # and a good cache again


def test_tampered_site_is_rebuilt_not_trusted(tmp_path: Path) -> None:
    """A page changed behind the cache's back: its digest no longer matches, so it is remade."""
    data, site, built = _built(tmp_path)
    page = site / "models" / "alpha-1" / "index.html"
    page.write_bytes(page.read_bytes().replace(b"Alpha 1", b"Omega 9"))
    report = build_site(data, site, SiteConfig())
    assert report.written == 1 and _tree(site) == built


def test_recorded_digest_mismatch_is_not_reused(tmp_path: Path) -> None:
    """Same key, but the recorded digest is not the live file's: rendered again, not read."""
    data, site, built = _built(tmp_path)
    path = cache_path(site)
    manifest = msgspec.msgpack.decode(path.read_bytes(), type=Manifest)
    page = "models/alpha-1/index.html"
    outputs = dict(manifest.outputs)
    outputs[page] = cache.Output(key=outputs[page].key, content=digest(b"other bytes"))
    path.write_bytes(msgspec.msgpack.encode(msgspec.structs.replace(manifest, outputs=outputs)))
    _replace_first(data / "models" / "beta-1.toml", r"^output = ([0-9.]+)$", "output = 2.5")
    seen = _build_noting_reused(data, site)
    assert page not in seen and "models/alpha-2/index.html" in seen
    assert _tree(site) == _clean_build(data, tmp_path / "clean" / "site_out")
    assert built != _tree(site)


def test_unchanged_rebuild_stops_at_the_cache(tmp_path: Path) -> None:
    data, site, built = _built(tmp_path)
    report = build_site(data, site, SiteConfig())
    assert set(report.seconds) == {"cache"} and report.files == len(built)
    (data / "models" / "gamma-1.toml").touch()  # a touched file with the same bytes
    assert set(build_site(data, site, SiteConfig()).seconds) == {"cache"}


def test_killed_build_debris_is_cleared_even_when_nothing_changed(tmp_path: Path) -> None:
    """A staging tree left by a killed build means the full path, whose writer removes it."""
    data, site, built = _built(tmp_path)
    debris = site.parent / f".{site.name}.staging-killed"
    debris.mkdir()
    (debris / "index.html").write_bytes(b"half written")
    report = build_site(data, site, SiteConfig())
    assert set(report.seconds) != {"cache"} and not report.swapped
    assert not debris.exists() and _tree(site) == built
    assert set(build_site(data, site, SiteConfig()).seconds) == {"cache"}


def test_code_version_covers_templates(tmp_path: Path) -> None:
    templates = tmp_path / "templates"
    shutil.copytree(Path(render.__file__).parent / "templates", templates)
    before = cache._tree_digest(templates)
    with open(templates / "base.html", "a", encoding="utf-8") as handle:
        handle.write("\n")
    assert cache._tree_digest(templates) != before


def test_pool_gives_the_same_results_in_order() -> None:
    def task(i: int) -> bytes:
        return str(i * i).encode()

    expected = [task(i) for i in range(50)]
    assert pool.map_ordered(task, 50, workers=2, minimum=2) == expected
    assert pool.map_ordered(task, 50, workers=1) == expected


def test_pool_reraises_a_worker_error() -> None:
    def task(i: int) -> bytes:
        if i == 7:
            raise ValueError("seven")
        return b""

    with pytest.raises(ValueError, match="seven"):
        pool.map_ordered(task, 20, workers=2, minimum=2)


def test_downloads_feed_and_llms_are_reused_when_their_documents_did_not_change(
    tmp_path: Path,
) -> None:
    """A price moves the models and cost CSVs; the domain and history CSVs, the feed and
    llms.txt are taken from the live site (their source documents' bytes are the same)."""
    data, site, built = _built(tmp_path)
    _replace_first(data / "models" / "beta-1.toml", r"^output = ([0-9.]+)$", "output = 2.5")
    seen = _build_noting_reused(data, site)
    after = _tree(site)
    downloads = {p for p in after if p.startswith("downloads/")}
    changed = {p for p in downloads if after[p] != built.get(p)}
    assert "downloads/models.csv" in changed  # the price is a column
    assert {"feed.atom", "llms.txt"} <= set(seen)
    assert {p for p in downloads if p not in seen} == changed  # made again: exactly these
    assert any(p.startswith("downloads/domains/") for p in seen)
    assert after == _clean_build(data, tmp_path / "clean" / "site_out")


def test_a_code_change_still_updates_the_spare_tree(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another code version discards the cache's keys but not the writer's record of the
    trees: the rebuild updates the spare in place, and gives the clean build's bytes."""
    from generator.output import writer

    data, site, _ = _built(tmp_path)
    _replace_first(data / "models" / "beta-1.toml", r"^output = ([0-9.]+)$", "output = 2.5")
    build_site(data, site, SiteConfig())  # the first change: the old tree becomes the spare
    _change_templates(monkeypatch, "<!-- another generator -->\n")
    updates: list[int] = []
    original = writer._Stager.update

    def update(self: writer._Stager, *args: object) -> None:
        updates.append(1)
        original(self, *args)  # type: ignore[arg-type]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(writer._Stager, "update", update)
        build_site(data, site, SiteConfig())
    assert updates == [1]
    assert _tree(site) == _clean_build(data, tmp_path / "clean" / "site_out")


def test_a_rebuild_decodes_only_the_api_files_whose_bytes_changed(tmp_path: Path) -> None:
    """check_site skips the documents this code already checked with the same bytes (the
    writer's record of the last build); another code version checks them all."""
    from generator import checks

    data, site, built = _built(tmp_path)
    _replace_first(data / "models" / "beta-1.toml", r"^output = ([0-9.]+)$", "output = 2.5")
    checked: list[str] = []
    original = checks._check_document

    def check(path: str, data: bytes) -> list[str]:
        checked.append(path)
        return original(path, data)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(checks, "_check_document", check)
        build_site(data, site, SiteConfig())
        after = _tree(site)
        changed = {p for p in after if p.startswith("api/v1/") and after[p] != built.get(p)}
        assert changed and set(checked) == changed - {"api/v1/openapi.json"}
        checked.clear()
        patch.setattr(cache, "CODE", digest(cache.CODE, b"another version"))
        _replace_first(data / "models" / "beta-1.toml", r"^output = ([0-9.]+)$", "output = 3.5")
        build_site(data, site, SiteConfig())
    assert len(checked) > len(changed) * 10  # every document again
