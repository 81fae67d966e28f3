"""README.md against the code: every command and endpoint it names exists and vice versa, and
its commands run as shown (the `curl` lines against `modelscores serve` over the shipped data)."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.paths import ACCEPT_ALL, REPO, UPSTREAM_FIXTURE, UPSTREAM_RAW
from support.servers import free_port, python_env, running_server, serve_command

from generator.api.contract import DOCUMENTS
from generator.api.urls import MCP_PATH, OPENAPI_FILE
from generator.cli import cli

README = (REPO / "README.md").read_text(encoding="utf-8")
DOCUMENTED_BASE = "http://127.0.0.1:8000"


def shell_lines(text: str) -> list[str]:
    """The commands of every ```sh block, continuation lines joined."""
    blocks = re.findall(r"^```sh\n(.*?)^```", text, flags=re.M | re.S)
    joined = "\n".join(blocks).replace("\\\n", " ")
    return [line.strip() for line in joined.splitlines() if line.strip()]


def without_comment(line: str) -> str:
    return line.split(" # ", 1)[0].split("  #", 1)[0].strip()


def readme_commands() -> set[str]:
    return set(re.findall(r"\./modelscores ([a-z][a-z-]*)", README))


def table_paths() -> set[str]:
    """The backticked paths in the first column of the Endpoints table."""
    rows = [line for line in README.splitlines() if line.startswith("| `/api")]
    return {p for row in rows for p in re.findall(r"`([^`]+)`", row.split("|")[1])}


def published_paths() -> set[str]:
    """What the code publishes: every document kind under /api/v1, OpenAPI, the index alias, MCP."""
    paths = {("/api/v1" + kind.path).rstrip("/") for kind in DOCUMENTS}
    return paths | {"/api", f"/api/{OPENAPI_FILE}", f"/api/v1/{OPENAPI_FILE}", MCP_PATH}


def path_pattern(path: str) -> re.Pattern[str]:
    """`/api/v1/models/{id}` as a regex matching `/api/v1/models/gpt-5`."""
    return re.compile("".join(r"[^/]+" if p.startswith("{") else re.escape(p) for p in
                              re.split(r"(\{[^}]+\})", path)) + "$")  # fmt: skip


# --- names: commands and endpoints -------------------------------------------------


def test_every_cli_command_is_in_the_readme_and_every_readme_command_exists() -> None:
    assert readme_commands() == set(cli.commands)


def test_the_endpoint_table_lists_exactly_what_is_published() -> None:
    assert table_paths() == published_paths()


def test_every_url_the_readme_fetches_is_a_published_path() -> None:
    urls = [
        u
        for line in shell_lines(README)
        for u in re.findall(rf"{DOCUMENTED_BASE}(\S*)", without_comment(line))
    ]
    patterns = [path_pattern(p) for p in published_paths()]
    patterns += [path_pattern("/api" + kind.path) for kind in DOCUMENTS]  # the bare alias
    assert len(urls) >= 10
    unknown = [u for u in urls if not any(p.match(u) for p in patterns)]
    assert unknown == []


# --- the commands run as shown ---------------------------------------------------------


@pytest.fixture(scope="module")
def served(shipped_site: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """`modelscores serve --no-build` over the shipped build; its base URL."""
    port = free_port()
    log = tmp_path_factory.mktemp("readme") / "serve.log"
    base = f"http://127.0.0.1:{port}"
    command = serve_command(shipped_site, port)
    with running_server(command, f"{base}/api/v1", env=python_env(), log=log):
        yield base


def curl_lines() -> list[str]:
    return [line for line in shell_lines(README) if line.startswith("curl ")]


@pytest.mark.parametrize("line", curl_lines())
def test_each_curl_line_answers_as_the_readme_says(served: str, line: str) -> None:
    expected = re.search(r"#\s*(\d{3})\b", line)
    command = without_comment(line).replace(DOCUMENTED_BASE, served)
    result = subprocess.run(
        ["bash", "-c", command], capture_output=True, text=True, timeout=30, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip(), command
    if expected is not None:  # `curl -si`: the status line the comment promises
        assert result.stdout.split("\r\n", 1)[0].split()[1] == expected[1], result.stdout[:200]
    elif "/api/mcp" in command:
        assert '"result"' in result.stdout and '"isError":false' in result.stdout.replace(" ", "")
    else:
        assert result.stdout.lstrip().startswith("{"), result.stdout[:200]


def cli_lines() -> list[list[str]]:
    """The `./modelscores` lines without optional `[...]` parts, as argv after the program."""
    lines = [without_comment(line) for line in shell_lines(README)]
    argvs = [
        shlex.split(re.sub(r"\[[^]]*\]", "", line))[1:]
        for line in lines
        if line.startswith("./modelscores ")
    ]
    return [argv for argv in argvs if argv[0] not in ("build", "serve", "mcp")]  # see below


@pytest.mark.parametrize(
    "argv",
    [pytest.param(a, marks=pytest.mark.slow) if a[0] == "diff" else a for a in cli_lines()],
    ids=" ".join,
)
def test_each_read_only_command_exits_0(argv: list[str]) -> None:
    """`check`, `explain` and `diff` as shown, from the repository root. (`build` is the
    `shipped_site` fixture; `serve` answers the curl lines above; `mcp` runs in
    tests/sidecar/test_mcp_http.py; their error exits in tests/commands/test_cli.py.)"""
    if argv[0] == "diff" and not (REPO / ".git").exists():
        pytest.skip("diff git:HEAD needs a git checkout")
    if argv[0] == "import" and not UPSTREAM_RAW.is_dir():  # a clone: the small upstream files
        argv = [*argv, "--raw", str(UPSTREAM_FIXTURE), *ACCEPT_ALL]
    result = subprocess.run(
        [sys.executable, "-m", "generator", *argv],
        capture_output=True,
        text=True,
        env=python_env(),
        cwd=REPO,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip()
