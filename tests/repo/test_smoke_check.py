"""scripts/smoke_check.py, the check after a deploy, run as an operator runs it: against
`modelscores serve`, against `netlify dev` with the MCP sidecar behind the site's proxy rule,
and against broken deployments, where it fails with one line naming the check."""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.netlify import NETLIFY, NODE, netlify_dev
from support.paths import FIXTURE_DATA, REPO
from support.servers import free_port, python_env, running_server
from support.sitetree import build_in_process

from generator.api.urls import SiteConfig
from generator.build import build_site

SMOKE = REPO / "scripts" / "smoke_check.py"
CHECKS = [
    "api-index",
    "models",
    "model",
    "json-404",
    "api-alias",
    "model-alias",
    "mcp-initialize",
    "mcp-tools-list",
    "mcp-get-model",
]

pytestmark = pytest.mark.slow


def smoke(*args: str) -> subprocess.CompletedProcess[str]:
    """The script as an operator runs it: the system's python3 would do (stdlib only)."""
    return subprocess.run(
        [sys.executable, str(SMOKE), *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={"PATH": "/usr/bin:/bin"},
    )


def passed(result: subprocess.CompletedProcess[str]) -> list[str]:
    assert result.returncode == 0, result.stderr
    assert result.stdout == ""
    return [line.split(":")[1].split()[-1] for line in result.stderr.splitlines()]


def failed(result: subprocess.CompletedProcess[str]) -> str:
    """The one line a failed run ends with."""
    assert result.returncode == 1, result.stderr
    last = result.stderr.splitlines()[-1]
    assert last.startswith("smoke-check: FAILED "), result.stderr
    assert "Traceback" not in result.stderr
    return last


def _serve(site: Path, log: Path) -> Iterator[str]:
    port = free_port()
    command = [sys.executable, "-m", "generator", "serve", "--out-dir", str(site), "--no-build"]
    base = f"http://127.0.0.1:{port}"
    with running_server(
        [*command, "--port", str(port)], f"{base}/healthz", env=python_env(), log=log
    ):
        yield base


@pytest.fixture(scope="module")
def served(built_site: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    yield from _serve(built_site, tmp_path_factory.mktemp("serve") / "serve.log")


def test_every_check_passes_against_modelscores_serve(served: str) -> None:
    names = passed(smoke(served, "--sidecar", served))
    assert names == [*CHECKS, "sidecar-health"]


def test_a_plain_file_server_fails_at_the_first_api_check(built_site: Path, tmp_path: Path) -> None:
    """The built files served without the host's rules (no rewrites, no headers)."""
    port = free_port()
    command = [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1"]
    with running_server(
        [*command, "--directory", str(built_site)], f"http://127.0.0.1:{port}/index.html"
    ):
        line = failed(smoke(f"http://127.0.0.1:{port}"))
    assert line == "smoke-check: FAILED api-index: GET /api/v1: status 301, not 200"


def test_a_sidecar_serving_another_build_fails_the_health_check(
    served: str, tmp_path: Path
) -> None:
    """The drift a deploy must not allow: the site switched to a build the sidecar lacks."""
    data = tmp_path / "data"
    shutil.copytree(FIXTURE_DATA, data)
    text = (data / "models" / "gamma-1.toml").read_text(encoding="utf-8")
    text = text.replace('id = "gamma-1"', 'id = "gamma-2"').replace("Gamma 1", "Gamma 2")
    (data / "models" / "gamma-2.toml").write_text(text, encoding="utf-8")
    other = build_in_process(data, tmp_path / "other")
    for sidecar in _serve(other, tmp_path / "other.log"):
        line = failed(smoke(served, "--sidecar", sidecar))
        assert line.startswith("smoke-check: FAILED sidecar-health: the sidecar serves (")
        assert ", 6), the site (" in line and ", 5)" in line


def test_nothing_listening_fails_naming_the_first_check(tmp_path: Path) -> None:
    line = failed(smoke(f"http://127.0.0.1:{free_port()}", "--timeout", "5"))
    assert line.startswith("smoke-check: FAILED api-index: http://127.0.0.1:")
    assert "no answer" in line


@pytest.mark.skipif(
    not NETLIFY.is_file() or NODE is None,
    reason="netlify-cli is not installed (run scripts/install_tools.sh)",
)
def test_netlify_dev_with_the_sidecar_behind_its_proxy_rule(tmp_path: Path) -> None:
    """The production shape: the site built with `--mcp-origin` (its first `_redirects` rule
    proxies /api/mcp to the sidecar), served by netlify dev; the sidecar the Dockerfile's
    command (uvicorn mcp_server.app:app) over the same build. Then the sidecar stops: the
    MCP check through the proxy fails, by name."""
    sidecar_port = free_port()
    sidecar = f"http://127.0.0.1:{sidecar_port}"
    site = tmp_path / "site"
    build_site(FIXTURE_DATA, site, SiteConfig(mcp_origin=sidecar))  # `build --mcp-origin`
    env = {
        **python_env(),
        "MODELSCORES_SITE_DIR": str(site),
        "MODELSCORES_ALLOWED_HOSTS": "127.0.0.1:*,localhost:*",
        "UVICORN_PORT": str(sidecar_port),
    }
    uvicorn = [sys.executable, "-m", "uvicorn", "mcp_server.app:app", "--no-server-header"]
    (tmp_path / "netlify").mkdir()
    with netlify_dev(site, tmp_path / "netlify") as base:
        with running_server(uvicorn, f"{sidecar}/healthz", env=env, log=tmp_path / "mcp.log"):
            names = passed(smoke(base, "--sidecar", sidecar, "--netlify-dev"))
            assert names == [*CHECKS, "sidecar-health"]
        line = failed(smoke(base, "--netlify-dev"))
    assert line.startswith("smoke-check: FAILED mcp-initialize: POST /api/mcp initialize: status")
