"""`modelscores serve`: the built fixture site over real HTTP, with Netlify's semantics."""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from starlette.testclient import TestClient
from support.http_cases import (
    all_cases,
    check,
    check_alias_redirects,
    expected_headers,
    found,
    not_found,
)
from support.servers import free_port, python_env, running_server, serve_command

from generator.api.urls import SiteConfig
from generator.build import build_site
from generator.serve import create_static_app, prepare_site
from mcp_server.app import create_app as create_mcp_app

FIXTURE_DATA = Path(__file__).parents[1] / "data"


@pytest.fixture(scope="module")
def server(built_site: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The real `modelscores serve --no-build` over the built fixture site."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log = tmp_path_factory.mktemp("serve") / "serve.log"
    command = serve_command(built_site, port)
    with running_server(command, f"{base}/api/v1", env=python_env(), log=log):
        yield base


@pytest.fixture(scope="module")
def client(server: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server, timeout=10) as http:
        yield http


def test_every_endpoint_and_404_over_http(client: httpx.Client, built_site: Path) -> None:
    cases = all_cases(built_site)
    # per prefix: models, a model's history, rankings, domains, history and an unknown
    # path; plus three more
    assert len(found(built_site)) > 50 and len(not_found(built_site)) == 15
    for case in cases:
        check(client, built_site, case, server_sets_headers=True)


def test_model_aliases_redirect_to_the_canonical_id(client: httpx.Client, built_site: Path) -> None:
    check_alias_redirects(client, built_site)


def test_alias_serves_the_same_bytes_as_v1(client: httpx.Client) -> None:
    for path in ("", "/models", "/models/alpha-1", "/rankings/composite-iq", "/methodology"):
        assert client.get(f"/api{path}").content == client.get(f"/api/v1{path}").content


def test_trailing_slash_and_query_string_do_not_matter(client: httpx.Client) -> None:
    reference = client.get("/api/v1/models").content
    assert client.get("/api/v1/models/").content == reference
    assert client.get("/api/v1/models?limit=1").content == reference
    assert client.get("/api/v1/models/alpha-1/").status_code == 200
    assert client.get("/api/v1/").json()["endpoints"][0]["path"] == "/models"


def test_head_has_headers_and_no_body(client: httpx.Client) -> None:
    response = client.head("/api/v1/models/alpha-1")
    assert response.status_code == 200 and response.content == b""
    assert response.headers["access-control-allow-origin"] == "*"
    full = client.get("/api/v1/models/alpha-1").content
    assert int(response.headers["content-length"]) == len(full)
    assert client.head("/api/v1/models/nope").status_code == 404


def test_pages_and_html_404(client: httpx.Client, built_site: Path) -> None:
    landing = client.get("/")
    assert landing.status_code == 200 and landing.headers["content-type"].startswith("text/html")
    assert "access-control-allow-origin" not in landing.headers
    assert landing.headers["x-content-type-options"] == "nosniff"
    assert client.get("/models/alpha-1/").status_code == 200
    missing = client.get("/no/such/page")
    assert missing.status_code == 404
    assert missing.content == (built_site / "404.html").read_bytes()


def test_hosting_files_are_not_served(client: httpx.Client) -> None:
    assert client.get("/_headers").status_code == 404
    assert client.get("/_redirects").status_code == 404


def test_other_methods_are_refused(client: httpx.Client) -> None:
    assert client.post("/api/v1/models", content=b"{}").status_code == 405


def test_mcp_is_mounted_at_api_mcp(client: httpx.Client) -> None:
    request = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "test", "version": "0"},
        },
    }
    headers = {"accept": "application/json, text/event-stream"}
    response = client.post("/api/mcp", json=request, headers=headers)
    assert response.status_code == 200, response.text
    assert response.json()["result"]["serverInfo"]["name"]


def test_healthz_answers_as_on_the_standalone_sidecar(
    client: httpx.Client, built_site: Path
) -> None:
    with TestClient(create_mcp_app(built_site)) as sidecar:
        expected = sidecar.get("/healthz")
    response = client.get("/healthz")
    assert response.status_code == expected.status_code == 200
    assert response.json() == expected.json()
    assert response.json()["status"] == "ok" and response.json()["models"] == 5
    assert response.headers["content-type"] == expected.headers["content-type"]
    assert client.head("/healthz").status_code == 200


# --- in process: the same host over a site we can change -----------------------


@pytest.fixture
def site_copy(built_site: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "site_out"
    shutil.copytree(built_site, copy)
    return copy


def test_rules_are_reread_after_a_rebuild(site_copy: Path) -> None:
    http = TestClient(create_static_app(site_copy))
    assert http.get("/api/v1/models/nope").json()["code"] == "model_not_found"
    redirects = site_copy / "_redirects"
    text = redirects.read_text(encoding="utf-8")
    redirects.write_text(
        text.replace("/api/_errors/model_not_found.json", "/api/_errors/not_found.json"),
        encoding="utf-8",
    )
    os.utime(redirects, ns=(time.time_ns() + 10**9, time.time_ns() + 10**9))
    assert http.get("/api/v1/models/nope").json()["code"] == "not_found"


def test_a_rule_whose_target_is_missing_falls_back_to_the_api_json_404(site_copy: Path) -> None:
    (site_copy / "api/_errors/model_not_found.json").unlink()
    response = TestClient(create_static_app(site_copy)).get("/api/v1/models/nope")
    assert response.status_code == 404 and response.json()["code"] == "not_found"


def test_forced_proxy_rule_without_a_local_mcp_is_a_502(site_copy: Path) -> None:
    redirects = site_copy / "_redirects"
    lines = redirects.read_text(encoding="utf-8").splitlines()
    lines.insert(1, "/api/mcp  https://mcp.example.org/api/mcp  200!")
    redirects.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert TestClient(create_static_app(site_copy)).get("/api/mcp").status_code == 502


def test_404_headers_match_the_parsed_rules(site_copy: Path) -> None:
    response = TestClient(create_static_app(site_copy)).get("/api/nothing")
    wanted = expected_headers(site_copy, "/api/nothing")
    for name, value in wanted.items():
        assert response.headers[name] == value


def test_serve_builds_when_missing_changed_or_for_another_base_url(tmp_path: Path) -> None:
    """`prepare_site` asks the build's own rule (the recorded inputs), not file times."""
    data = tmp_path / "data"
    shutil.copytree(FIXTURE_DATA, data)
    out = tmp_path / "site_out"
    config = SiteConfig()
    report = prepare_site(data, out, config)
    assert report is not None and report.swapped  # missing: built
    assert prepare_site(data, out, config) is None  # current: not built again
    other = prepare_site(data, out, SiteConfig(base_url="http://127.0.0.1:9999"))
    assert other is not None and other.swapped  # another base URL: built for it
    assert prepare_site(data, out, SiteConfig(base_url="http://127.0.0.1:9999")) is None
    later = out.stat().st_mtime + 10
    os.utime(data / "methodology.toml", (later, later))  # a newer file time alone changes nothing
    assert prepare_site(data, out, SiteConfig(base_url="http://127.0.0.1:9999")) is None
    methodology = data / "methodology.toml"
    methodology.write_text(methodology.read_text(encoding="utf-8") + "\n# edited\n", "utf-8")
    assert prepare_site(data, out, config, build=False) is None  # --no-build: never built
    rebuilt = prepare_site(data, out, config)
    assert rebuilt is not None and rebuilt.swapped  # changed data: built


def test_build_into_served_directory_is_picked_up(site_copy: Path, tmp_path: Path) -> None:
    """A rebuild while serving swaps the whole site; the next request sees the new one."""
    http = TestClient(create_static_app(site_copy))
    before = http.get("/api/v1/index.json").json()["openapi"]
    build_site(FIXTURE_DATA, site_copy, SiteConfig(base_url="https://new.example.org"))
    after = http.get("/api/v1").json()["openapi"]
    assert before != after == "https://new.example.org/api/openapi.json"


def test_site_file_refuses_traversal_and_hosting_files(built_site: Path) -> None:
    from generator.serve import _site_file

    assert _site_file(built_site, "/api/../_redirects") is None
    assert _site_file(built_site, "/api/v1/../../../etc/passwd") is None
    assert _site_file(built_site, "/_headers") is None
    assert _site_file(built_site, "/api/v1/models/alpha-1") == built_site / "api/v1/models/alpha-1"
    assert _site_file(built_site, "/api/v1/models/\n\x02") is None


def test_any_byte_in_a_path_gets_the_json_404(site_copy: Path) -> None:
    response = TestClient(create_static_app(site_copy)).get("/api/models/%C2%9B%0A%02")
    assert response.status_code == 404
    assert response.json()["code"] == "model_not_found"
