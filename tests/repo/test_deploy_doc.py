"""docs/DEPLOY.md, followed literally where it can run here, and held to the workflows where it
cannot (like tests/repo/test_data_recipes.py for data/README.md).

"From an empty account to a verified deployment" is a list of steps. A step either runs here
(its ```sh blocks, run in order in a scratch folder holding a copy of data/; a block after
"In a second terminal" is started as a server and the port it names replaced by a free one
everywhere) or is marked *Needs an account*, and then its ```console commands are checked
against the pinned netlify-cli where they use it. The secrets/variables table must name
exactly what the workflows read, and the 404 codes exactly the error documents a build writes.
"""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest
import yaml  # type: ignore[import-untyped]  # (pyyaml, in the lock through schemathesis; no stubs)
from support.netlify import NETLIFY, NODE, netlify_output
from support.paths import REPO
from support.servers import free_port, python_env, running_server

DOC = REPO / "docs" / "DEPLOY.md"
SECTION = "From an empty account to a verified deployment"
BLOCK = re.compile(r"^[ \t]*```(sh|console)\n(.*?)^[ \t]*```$", re.S | re.M)
NEEDS_ACCOUNT = "*Needs an account*"
WORKFLOWS = REPO / ".github" / "workflows"


def steps() -> dict[str, str]:
    """Step title -> its text."""
    text = DOC.read_text(encoding="utf-8")
    section = text.split(f"\n## {SECTION}\n", 1)[1].split("\n## ", 1)[0]
    return {p.split("\n", 1)[0]: p.split("\n", 1)[1] for p in section.split("\n### ")[1:]}


def blocks(text: str) -> Iterator[tuple[str, str, str]]:
    """(prose before, kind, code) for each fenced sh/console block."""
    position = 0
    for match in BLOCK.finditer(text):
        code = "\n".join(line.strip() for line in match.group(2).splitlines())
        yield " ".join(text[position : match.start()].split()), match.group(1), code
        position = match.end()


def test_every_step_runs_here_or_says_it_needs_an_account() -> None:
    found = steps()
    assert len(found) >= 8
    for title, text in found.items():
        kinds = {kind for _, kind, _ in blocks(text)}
        runs_here = "sh" in kinds
        assert runs_here != (NEEDS_ACCOUNT in text), title  # one or the other
    titles = " ".join(found)
    for topic in ("Fly.io", "registry", "Netlify site", "DNS and TLS", "Secrets", "Verify"):
        assert topic in titles


def _argv(line: str, port: int) -> list[str]:
    argv = shlex.split(line.replace("8000", str(port)))
    if argv[0] == "./modelscores":
        return [sys.executable, "-m", "generator", *argv[1:]]
    if argv[0] == ".venv/bin/python":
        return [sys.executable, str(REPO / argv[1]), *argv[2:]]
    assert argv[0] == "head", line  # the only other program the local steps use
    return argv


@pytest.mark.slow
def test_the_local_steps_work_as_written(tmp_path: Path) -> None:
    shutil.copytree(REPO / "data", tmp_path / "data")
    port = free_port()
    env = python_env()
    outputs: list[str] = []
    with ExitStack() as servers:
        for title, text in steps().items():
            for prose, kind, code in blocks(text):
                if kind != "sh":
                    continue
                for line in code.strip().splitlines():
                    argv = _argv(line, port)
                    if prose.endswith(
                        "In a second terminal, serve the build (API, pages and"
                        " the sidecar, by the same rules as the static host):"
                    ):
                        health = f"http://127.0.0.1:{port}/healthz"
                        log = tmp_path / "serve.log"
                        servers.enter_context(
                            running_server(argv, health, env=env, cwd=tmp_path, log=log)
                        )
                        continue
                    result = subprocess.run(
                        argv, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300
                    )
                    assert result.returncode == 0, f"{title}: {line}\n{result.stderr}"
                    outputs.append(result.stdout + result.stderr)
    built, redirects, rebuilt, smoke = outputs
    assert redirects.splitlines()[1].split() == [
        "/api/mcp",
        "https://mcp.scores.example.org/api/mcp",
        "200!",
    ]
    assert smoke.splitlines()[-1] == "smoke-check: ok sidecar-health: same build as the site"
    assert "FAILED" not in smoke


def test_the_secrets_table_names_what_the_workflows_read() -> None:
    text = steps()["6. Secrets and variables"]
    table = set(re.findall(r"^\| (variable|secret) \| `([A-Z_]+)` \|", text, re.M))
    read = set()
    for workflow in WORKFLOWS.glob("*.yml"):
        source = workflow.read_text(encoding="utf-8")
        read |= {("secret", n) for n in re.findall(r"secrets\.([A-Z_]+)", source)}
        read |= {("variable", n) for n in re.findall(r"vars\.([A-Z_]+)", source)}
    read.discard(("secret", "GITHUB_TOKEN"))  # GitHub's own, made for every run
    assert table == read
    commands = {
        tuple(line.split()[:3]) for _, kind, code in blocks(text) for line in code.splitlines()
    }
    assert commands == {
        ("gh", "variable" if kind == "variable" else "secret", "set") for kind, _ in table
    }
    assert {line.split()[3] for _, _, code in blocks(text) for line in code.splitlines()} == {
        name for _, name in table
    }


def test_secrets_live_in_the_environment_the_deploy_jobs_use() -> None:
    """The doc sets secrets on the `production` environment and variables on the repository:
    so every job reading a secret must run in that environment (the build job, which reads
    only variables, has none)."""
    text = steps()["6. Secrets and variables"]
    lines = [line for _, _, code in blocks(text) for line in code.splitlines()]
    assert all("--env production" in line for line in lines if line.startswith("gh secret"))
    assert not any("--env" in line for line in lines if line.startswith("gh variable"))
    workflow = yaml.safe_load((WORKFLOWS / "deploy.yml").read_text(encoding="utf-8"))
    for name, job in workflow["jobs"].items():
        secrets = re.findall(r"secrets\.([A-Z_]+)", yaml.safe_dump(job))
        if set(secrets) - {"GITHUB_TOKEN"}:
            assert job.get("environment") == "production", name


def test_the_404_codes_are_the_error_documents_a_build_writes(built_site: Path) -> None:
    text = DOC.read_text(encoding="utf-8")
    listed = text.split("unknown ids answer 404 with the body of")[1].split(".\n")[0]
    codes = set(re.findall(r"`([a-z_]+)`", listed))
    written = {p.stem for p in (built_site / "api" / "_errors").glob("*.json")}
    assert codes == written
    assert "history_not_found" in codes


@pytest.mark.skipif(
    not NETLIFY.is_file() or NODE is None,
    reason="netlify-cli is not installed (run scripts/install_tools.sh)",
)
def test_the_netlify_commands_exist_in_the_pinned_cli(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """The account steps cannot run here, but what they type can be checked: each
    `netlify sites:create` flag and each `netlify api` operation."""
    text = DOC.read_text(encoding="utf-8")
    lines = [
        line.split()
        for _, kind, code in blocks(text)
        if kind == "console"
        for line in code.splitlines()
        if line.startswith("netlify ")
    ]
    create = [argv for argv in lines if argv[1] == "sites:create"]
    assert create
    help_text = netlify_output(tmp_path_factory, "sites:create", "--help")
    for flag in {a for argv in create for a in argv if a.startswith("--")}:
        assert flag in help_text, flag
    operations = {argv[2] for argv in lines if argv[1] == "api"}
    assert {"updateSite", "listSiteDeploys", "restoreSiteDeploy"} <= operations
    listed = netlify_output(tmp_path_factory, "api", "--list")
    for operation in operations:
        assert f"| {operation} " in listed, operation
