"""Hostile request paths and planted symlinks: `serve` answers the site's 404, never a 5xx,
and neither `serve` nor the MCP sidecar reads a file outside the site."""

from __future__ import annotations

import logging
import shutil
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp import Client
from starlette.testclient import TestClient
from support.servers import free_port, python_env, running_server

from generator.serve import create_static_app
from mcp_server.server import create_server
from mcp_server.site import SiteError, SnapshotStore, load_snapshot

SECRET = "SECRET-OUTSIDE-THE-SITE-7f3e21"


@pytest.fixture
def site_copy(built_site: Path, tmp_path: Path) -> Path:
    """A copy of the built fixture site, with a secret file and folder beside it."""
    copy = tmp_path / "site_out"
    shutil.copytree(built_site, copy)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.json").write_text(f'{{"id": "planted", "token": "{SECRET}"}}')
    model = (copy / "api/v1/models/alpha-1").read_text(encoding="utf-8")
    (outside / "planted").write_text(model.replace("Alpha 1", SECRET), encoding="utf-8")
    return copy


def _plant(site: Path, rel: str, target: Path) -> None:
    (site / rel).symlink_to(target)


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/models/" + "a" * 256,  # one component over 255 bytes: ENAMETOOLONG
        "/api/v1/" + "/".join(["b" * 200] * 25),  # a path over 4 KB
        "/api/v1/models/" + "é" * 128,  # 256 bytes in UTF-8
    ],
    ids=["long-component", "long-path", "long-utf8-component"],
)
def test_long_api_paths_get_the_json_404(built_site: Path, path: str) -> None:
    response = TestClient(create_static_app(built_site)).get(path)
    assert response.status_code == 404
    assert response.headers["content-type"].startswith("application/")
    assert response.json()["code"].endswith("not_found")


@pytest.mark.parametrize(
    "path", ["/models/" + "a" * 300, "/" + "/".join(["c" * 250] * 20)], ids=["component", "path"]
)
def test_long_page_paths_get_the_html_404(built_site: Path, path: str) -> None:
    response = TestClient(create_static_app(built_site)).get(path)
    assert response.status_code == 404
    assert response.headers["content-type"].startswith("text/html")
    assert response.content == (built_site / "404.html").read_bytes()


def test_a_planted_symlink_to_a_file_outside_is_a_404(site_copy: Path, tmp_path: Path) -> None:
    _plant(site_copy, "api/v1/models/planted", tmp_path / "outside" / "planted")
    _plant(site_copy, "leak.html", tmp_path / "outside" / "secret.json")
    http = TestClient(create_static_app(site_copy))
    api = http.get("/api/v1/models/planted")
    assert api.status_code == 404 and api.json()["code"] == "model_not_found"
    page = http.get("/leak.html")
    assert page.status_code == 404 and page.headers["content-type"].startswith("text/html")
    assert SECRET not in api.text + page.text


def test_a_planted_symlink_to_a_folder_outside_is_a_404(site_copy: Path, tmp_path: Path) -> None:
    _plant(site_copy, "api/v1/leak", tmp_path / "outside")
    response = TestClient(create_static_app(site_copy)).get("/api/v1/leak/secret.json")
    assert response.status_code == 404
    assert SECRET not in response.text


def test_a_symlink_inside_the_site_still_serves(site_copy: Path) -> None:
    """Only what leaves the site is refused; a link to a file of the site is that file."""
    _plant(site_copy, "api/v1/models/alias-1", site_copy / "api/v1/models/alpha-1")
    response = TestClient(create_static_app(site_copy)).get("/api/v1/models/alias-1")
    assert response.status_code == 200
    assert response.content == (site_copy / "api/v1/models/alpha-1").read_bytes()


def test_sidecar_loads_a_site_with_a_planted_symlink_and_skips_it(
    site_copy: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    _plant(site_copy, "api/v1/models/planted", tmp_path / "outside" / "planted")
    with caplog.at_level(logging.WARNING, logger="mcp_server.site"):
        site = load_snapshot(site_copy)
    assert "planted" not in site.model_details
    assert "alpha-1" in site.model_details
    assert [r.getMessage() for r in caplog.records] == [
        "skipping api/v1/models/planted: a symbolic link (not served)"
    ]


@pytest.mark.parametrize("command", ["mcp", "serve"])
def test_the_cli_warns_once_about_a_planted_symlink(
    site_copy: Path, tmp_path: Path, command: str
) -> None:
    """The CLI's check loads the build, and the server starts from that load: the warning
    was printed twice (once by the check, once by the app's own first load)."""
    _plant(site_copy, "api/v1/models/planted", tmp_path / "outside" / "planted")
    port = free_port()
    site_option = ["--site-dir"] if command == "mcp" else ["--no-build", "--out-dir"]
    argv = [sys.executable, "-m", "generator", command, *site_option, str(site_copy)]
    log = tmp_path / "server.log"
    url = f"http://127.0.0.1:{port}/api/mcp"
    with running_server([*argv, "--port", str(port)], url, env=python_env(), log=log):
        pass
    warnings = [line for line in log.read_text().splitlines() if "skipping" in line]
    assert len(warnings) == 1, log.read_text()
    assert "skipping api/v1/models/planted: a symbolic link (not served)" in warnings[0]


def test_sidecar_refuses_a_detail_folder_linked_outside(site_copy: Path, tmp_path: Path) -> None:
    """A symlinked folder on the way is refused too (O_NOFOLLOW held only for the last
    component: the rankings of a folder outside the site were loaded and served)."""
    outside = tmp_path / "outside" / "rankings"
    shutil.move(site_copy / "api/v1/rankings", outside)
    for path in outside.iterdir():
        path.write_text(path.read_text(encoding="utf-8").replace("Alpha 1", SECRET))
    _plant(site_copy, "api/v1/rankings", outside)
    with pytest.raises(SiteError) as refused:
        load_snapshot(site_copy)
    assert str(refused.value) == (
        "api/v1/rankings: a symbolic link (the site holds only regular files)"
    )


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
async def planted_client(site_copy: Path, tmp_path: Path) -> AsyncIterator[Client]:
    _plant(site_copy, "api/v1/models/planted", tmp_path / "outside" / "planted")
    async with Client(create_server(SnapshotStore(site_copy))) as connected:
        yield connected


@pytest.mark.anyio
async def test_sidecar_answers_and_does_not_serve_the_planted_file(
    planted_client: Client,
) -> None:
    found = await planted_client.call_tool("get_model", {"id": "alpha-1"})
    assert not found.is_error
    planted = await planted_client.call_tool("get_model", {"id": "planted"})
    assert SECRET not in str(planted.content) + str(planted.structured_content)
    listed = await planted_client.call_tool("list_models", {})
    assert SECRET not in str(listed.structured_content)


segments = st.one_of(
    st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=40),
    st.integers(1, 600).map(lambda n: "x" * n),  # around the 255-byte name limit
    st.sampled_from(["..", ".", "%2e%2e", "_headers", "_redirects", "index.html", "api", "v1"]),
)


@settings(
    max_examples=200,
    deadline=None,
    database=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(parts=st.lists(segments, max_size=40), api=st.booleans())
def test_any_request_path_is_answered_below_500(
    built_site: Path, parts: list[str], api: bool
) -> None:
    path = ("/api/v1/" if api else "/") + quote("/".join(parts), safe="/")
    response = TestClient(create_static_app(built_site)).get(path)
    assert response.status_code < 500, path
    if response.status_code == 404:
        under_api = path.rstrip("/") == "/api" or path.startswith("/api/")
        wanted = "application/" if under_api else "text/html"
        assert response.headers["content-type"].startswith(wanted) or response.text == "Not Found"
