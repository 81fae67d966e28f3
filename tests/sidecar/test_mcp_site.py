"""Loading the built site into snapshots, and swapping in a new build without a restart."""

from __future__ import annotations

import json
import os
import shutil
import threading
import time
from pathlib import Path

import pytest
from mcp.server.mcpserver.exceptions import ToolError
from support.documents import MCP_MODELS, sample_documents, swap_in, write_site

from mcp_server import tools
from mcp_server.site import SiteError, SiteSnapshot, SnapshotStore, load_snapshot


def tag_of(site: SiteSnapshot) -> str:
    return site.envelope["methodologyVersion"].rsplit(".", 1)[1]


def test_load_site_reads_every_document(tmp_path: Path) -> None:
    site = load_snapshot(write_site(tmp_path / "site"))
    assert sorted(site.model_details) == ["alpha-1", "beta-2", "gamma-3"]
    rankings = [path for path in sample_documents(MCP_MODELS) if path.startswith("/rankings/")]
    assert sorted(site.ranking_details) == sorted(p.removeprefix("/rankings/") for p in rankings)
    assert len(rankings) == 13  # composite, cost, seven dimensions, four benchmarks
    assert sorted(site.domain_details) == ["cybersecurity", "finance"]
    assert sorted(site.model_histories) == ["alpha-1", "beta-2", "gamma-3"]
    assert site.model_keys["alpha one a"] == "alpha-1"
    assert site.envelope == {
        "apiVersion": "1",
        "methodologyVersion": "2026-01-15.A",
        "updatedAt": "2026-01-15T12:00:00Z",
    }


def test_missing_site_is_a_site_error(tmp_path: Path) -> None:
    with pytest.raises(SiteError, match="cannot open the built site"):
        load_snapshot(tmp_path / "nothing")
    (tmp_path / "empty").mkdir()
    with pytest.raises(SiteError, match=r"models.json: No such file or directory$"):
        load_snapshot(tmp_path / "empty")


def test_a_file_that_breaks_the_contract_is_a_site_error(tmp_path: Path) -> None:
    site_dir = write_site(tmp_path / "site")
    path = site_dir / "api/v1/rankings/composite-iq"
    document = json.loads(path.read_bytes())
    document["modelCount"] = -1
    path.write_text(json.dumps(document))
    with pytest.raises(SiteError, match=r"api/v1/rankings/composite-iq: Expected `int` >= 0"):
        load_snapshot(site_dir)


def test_a_list_and_its_detail_files_must_agree(tmp_path: Path) -> None:
    site_dir = write_site(tmp_path / "site")
    (site_dir / "api/v1/domains/cybersecurity").unlink()
    with pytest.raises(
        SiteError, match=r"api/v1/domains: list and detail files differ on \['cybersecurity'\]"
    ):
        load_snapshot(site_dir)


def test_every_model_needs_its_history_file(tmp_path: Path) -> None:
    site_dir = write_site(tmp_path / "site")
    (site_dir / "api/v1/model-history/beta-2").unlink()
    with pytest.raises(
        SiteError, match=r"api/v1/model-history: list and detail files differ on \['beta-2'\]"
    ):
        load_snapshot(site_dir)


def test_a_history_file_that_breaks_the_contract_is_a_site_error(tmp_path: Path) -> None:
    site_dir = write_site(tmp_path / "site")
    path = site_dir / "api/v1/model-history/alpha-1"
    document = json.loads(path.read_bytes())
    document["snapshots"][0]["rank"] = 0
    path.write_text(json.dumps(document))
    with pytest.raises(SiteError, match=r"api/v1/model-history/alpha-1: Expected `int` >= 1"):
        load_snapshot(site_dir)


def test_a_models_history_is_answered_from_the_snapshot_not_the_disk(tmp_path: Path) -> None:
    site_dir = write_site(tmp_path / "site_out")
    expected = json.loads((site_dir / "api/v1/model-history/alpha-1").read_bytes())
    site = load_snapshot(site_dir)
    shutil.rmtree(site_dir)
    answer = tools.get_model(site, "Alpha One A", include_history=True).data
    assert answer["history"] == expected["snapshots"]
    assert "history" not in tools.get_model(site, "alpha-1").data


def test_a_detail_file_must_hold_its_own_id(tmp_path: Path) -> None:
    site_dir = write_site(tmp_path / "site")
    folder = site_dir / "api/v1/models"
    (folder / "alpha-1").rename(folder / "alpha-9")
    with pytest.raises(SiteError, match="id 'alpha-1' differs from the file name"):
        load_snapshot(site_dir)


def test_store_switches_to_a_swapped_in_build(tmp_path: Path) -> None:
    site_dir = write_site(tmp_path / "site_out", "A")
    store = SnapshotStore(site_dir, check_interval=0)
    old = store.current()
    assert store.current() is old  # nothing changed: same snapshot, no reload
    swap_in(site_dir, write_site(tmp_path / "next", "B"))
    new = store.current()
    assert (tag_of(old), tag_of(new)) == ("A", "B")
    assert tag_of(load_snapshot(site_dir)) == "B"


def test_store_follows_a_symlink_swap(tmp_path: Path) -> None:
    write_site(tmp_path / "build-a", "A")
    write_site(tmp_path / "build-b", "B")
    link = tmp_path / "site_out"
    link.symlink_to("build-a")
    store = SnapshotStore(link, check_interval=0)
    assert tag_of(store.current()) == "A"
    (tmp_path / "tmp-link").symlink_to("build-b")
    os.replace(tmp_path / "tmp-link", link)
    assert tag_of(store.current()) == "B"


def test_store_checks_at_most_once_per_interval(tmp_path: Path) -> None:
    site_dir = write_site(tmp_path / "site_out", "A")
    store = SnapshotStore(site_dir, check_interval=3600)
    first = store.current()
    swap_in(site_dir, write_site(tmp_path / "next", "B"))
    assert store.current() is first


def test_store_keeps_the_old_build_while_the_new_one_is_broken(tmp_path: Path) -> None:
    site_dir = write_site(tmp_path / "site_out", "A")
    store = SnapshotStore(site_dir, check_interval=0)
    old = store.current()
    broken = write_site(tmp_path / "next", "B")
    (broken / "api/v1/methodology").write_text("{")
    swap_in(site_dir, broken)
    assert store.current() is old
    shutil.rmtree(site_dir)  # gone entirely: still the old build
    assert store.current() is old
    write_site(site_dir, "C")
    assert tag_of(store.current()) == "C"


@pytest.mark.slow
def test_answers_are_wholly_old_or_wholly_new_while_builds_swap(tmp_path: Path) -> None:
    """Readers in threads; a writer swaps builds A and B; each answer is one build's."""
    site_dir = write_site(tmp_path / "site_out", "A")
    spare = write_site(tmp_path / "spare", "B")
    store = SnapshotStore(site_dir, check_interval=0)
    stop = threading.Event()
    seen: set[str] = set()
    problems: list[str] = []

    def read() -> None:
        while not stop.is_set():
            site = store.current()
            for answer in (
                tools.list_models(site),
                tools.compare_models(site, ["alpha-1", "beta-2"]),
                tools.get_domain(site, "finance"),
            ):
                tag = answer.data["methodologyVersion"].rsplit(".", 1)[1]
                seen.add(tag)
                rows = answer.data.get("models") or answer.data["compared"]
                names = [m.get("name") or m["modelName"] for m in rows]
                if not all(name.endswith(f" {tag}") for name in names):
                    problems.append(f"{tag}: {names}")

    readers = [threading.Thread(target=read) for _ in range(3)]
    for reader in readers:
        reader.start()
    deadline = time.monotonic() + 20
    swaps = 0
    try:
        while swaps < 30 or (seen != {"A", "B"} and time.monotonic() < deadline):
            swap_in(site_dir, spare)
            store.current()
            swaps += 1
    finally:
        stop.set()
        for reader in readers:
            reader.join()
    assert problems == []
    assert seen == {"A", "B"}


def test_tool_errors_come_from_the_snapshot_not_the_disk(tmp_path: Path) -> None:
    site = load_snapshot(write_site(tmp_path / "site_out"))
    shutil.rmtree(tmp_path / "site_out")
    assert tools.get_model(site, "alpha-1").data["id"] == "alpha-1"
    with pytest.raises(ToolError, match="Unknown model 'delta-4'"):
        tools.get_model(site, "delta-4")


def test_a_build_replaced_while_it_is_read_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The builder updates an old tree in place (its spare), marker first: a load that
    overlapped such an update is refused, and the next load reads the finished tree."""
    from mcp_server import site as site_module

    site_dir = write_site(tmp_path / "site_out")
    real = site_module._details
    marker = site_dir / site_module.BUILD_MARKER
    marker.write_bytes(b"# Generated by modelscores build\n")

    def details_then_renew_marker(fd: int, kind: object) -> object:
        found = real(fd, kind)  # type: ignore[arg-type]
        data = marker.read_bytes()
        marker.unlink()
        marker.write_bytes(data)  # what the writer does to a spare it updates: a new inode
        return found

    monkeypatch.setattr(site_module, "_details", details_then_renew_marker)
    with pytest.raises(SiteError, match="changed while it was read"):
        load_snapshot(site_dir)
    monkeypatch.undo()
    assert sorted(load_snapshot(site_dir).model_details) == ["alpha-1", "beta-2", "gamma-3"]
