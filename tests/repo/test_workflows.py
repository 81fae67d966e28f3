"""The CI workflows: linted (actionlint, zizmor), and every step they run is a script run here.

The workflows only call `scripts/ci/*`; each script is run below, the ones that reach the
outside world (Netlify, a container registry, GitHub) with a stand-in command that records
what it was asked to do. So a green suite means the workflow's steps work.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml  # type: ignore[import-untyped]  # (pyyaml, in the lock through schemathesis; no stubs)
from support.netlify import netlify_output
from support.standins import PYTHON_LINE, stand_in

ROOT = Path(__file__).resolve().parents[2]
WORKFLOWS = sorted((ROOT / ".github" / "workflows").glob("*.yml"))
CI = ROOT / "scripts" / "ci"
BIN = Path(sys.executable).parent
FIXTURE = ROOT / "tests" / "data"
TESTED = {
    *("pull-request", "comment-pr", "build-site"),
    *("publish-sidecar", "deploy-sidecar", "deploy-site"),
}
# tests/repo/test_refresh_workflow.py runs these:
REFRESH = {"refresh-download", "refresh-import", "refresh-pr"}
NETLIFY_CLI = ROOT / ".tools" / "netlify" / "node_modules" / "netlify-cli" / "bin" / "run.js"


def _run(
    script: str, *args: str, env: dict[str, str] | None = None, timeout: float = 300
) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "MODELSCORES_"))}
    return subprocess.run(
        [str(CI / script), *args],
        env={**base, **(env or {})},
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def _recorder(tmp_path: Path, name: str) -> tuple[Path, Path]:
    """A stand-in command that appends its arguments (and its stdin, if any) to a log."""
    log = tmp_path / f"{name}.log"
    command = tmp_path / name
    command.write_text(
        f"{PYTHON_LINE}"
        "import json, sys\n"
        "stdin = '' if sys.stdin.isatty() else sys.stdin.read()\n"
        "args = sys.argv[1:]\n"
        "call = {'args': args, 'stdin': stdin}\n"
        "if '--body-file' in args:\n"
        "    call['body'] = open(args[args.index('--body-file') + 1]).read()\n"
        f"with open({str(log)!r}, 'a') as log:\n"
        "    log.write(json.dumps(call) + '\\n')\n",
        encoding="utf-8",
    )
    command.chmod(command.stat().st_mode | stat.S_IXUSR)
    return command, log


def _calls(log: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]


# --- the workflow files ------------------------------------------------------------


def test_there_are_the_three_workflows() -> None:
    assert [w.name for w in WORKFLOWS] == ["deploy.yml", "pull-request.yml", "refresh.yml"]


def test_actionlint_passes() -> None:
    result = subprocess.run(
        [str(BIN / "actionlint"), *map(str, WORKFLOWS)], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_zizmor_passes_with_every_finding_shown() -> None:
    result = subprocess.run(
        [str(BIN / "zizmor"), "--offline", "--persona", "pedantic", str(ROOT / ".github")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "No findings to report" in result.stdout


def test_every_step_runs_a_script_this_file_runs() -> None:
    commands = [
        match.group(1)
        for workflow in WORKFLOWS
        for match in re.finditer(r"^\s+run: (.*)$", workflow.read_text(encoding="utf-8"), re.M)
    ]
    assert commands, "no run steps found"
    assert all(not c.startswith(("|", ">")) for c in commands), commands  # one line each
    # `.ci/run` is the CI entry point (the whole suite, this file included): run by CI itself.
    commands = [c for c in commands if c != ".ci/run"]
    scripts = {re.match(r"scripts/ci/([a-z-]+) ", c + " ") for c in commands}
    assert None not in scripts, commands
    called = {m.group(1) for m in scripts if m is not None}
    assert called == TESTED | REFRESH == {p.name for p in CI.iterdir()}


def test_actions_are_pinned_to_commits_and_permissions_start_empty() -> None:
    for workflow in WORKFLOWS:
        text = workflow.read_text(encoding="utf-8")
        for action in re.findall(r"uses: (\S+)", text):
            assert re.fullmatch(r"[\w.-]+/[\w.-]+(/[\w.-]+)*@[0-9a-f]{40}", action), (
                workflow.name,
                action,
            )
        assert "\npermissions: {}\n" in text, workflow.name
        assert "pull_request_target" not in text


def _jobs(name: str) -> dict[str, Any]:
    workflow = yaml.safe_load((ROOT / ".github" / "workflows" / name).read_text(encoding="utf-8"))
    jobs: dict[str, Any] = workflow["jobs"]
    return jobs


def test_the_pull_request_test_job_runs_the_readme_test_command_in_a_pinned_container() -> None:
    """The job runs `.ci/run`, which runs the README's `./scripts/test` (after installing pip
    where it is missing), in a Debian image pinned by digest that has git (the suite lists
    the checkout's files) and runs as root (scripts/test installs Chromium with apt-get)."""
    job = _jobs("pull-request.yml")["test"]
    assert re.fullmatch(r"python:3\.11-bookworm@sha256:[0-9a-f]{64}", job["container"]["image"])
    assert [step.get("run") for step in job["steps"] if "run" in step] == [".ci/run"]
    assert job["permissions"] == {"contents": "read"}
    ci_run = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert ci_run.rstrip().endswith('exec ./scripts/test "$@"')
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "./scripts/test     # set up everything" in readme


def test_the_comment_job_runs_only_the_base_commit_code() -> None:
    """The one job with a write token checks out the base commit (never the pull request's
    merge commit) and runs the base's script; the pull request's code runs in read-only jobs."""
    jobs = _jobs("pull-request.yml")
    writers = [name for name, job in jobs.items() if "write" in job["permissions"].values()]
    assert writers == ["comment"]
    comment = jobs["comment"]
    checkouts = [s for s in comment["steps"] if s.get("uses", "").startswith("actions/checkout@")]
    assert [c["with"]["ref"] for c in checkouts] == ["${{ github.event.pull_request.base.sha }}"]
    assert all(c["with"]["persist-credentials"] is False for c in checkouts)
    for name, job in jobs.items():
        assert "write" not in str(job["permissions"]) or name == "comment"


# --- the scripts ---------------------------------------------------------------------


@pytest.mark.slow
def test_pull_request_check_builds_tests_and_diffs_against_the_base(tmp_path: Path) -> None:
    base = tmp_path / "base"
    for code in ("generator", "mcp_server"):
        shutil.copytree(ROOT / code, base / code, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(FIXTURE, base / "tests" / "data")
    model = base / "tests" / "data" / "models" / "alpha-1.toml"
    model.write_text(
        model.read_text(encoding="utf-8").replace("input = 1.0", "input = 0.5"), encoding="utf-8"
    )
    summary = tmp_path / "summary.md"
    result = _run(
        "pull-request",
        str(base),
        str(tmp_path / "out"),
        env={"DATA_DIR": "tests/data", "GITHUB_STEP_SUMMARY": str(summary)},
        timeout=600,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    diff = (tmp_path / "out" / "diff.md").read_text(encoding="utf-8")
    first = "1 model changed by its own data, 1 ranking changed"
    assert diff.startswith(f"## modelscores diff\n\n**{first}**\n")
    # (0.5 + 4) * 2 = 9 -> (1 + 4) * 2 = 10
    assert "| Alpha 1 (alpha-1) | effective cost (USD/1M) | 9 | 10 | \\+1 |" in diff
    # (Markdown would read a cell starting "0." as a list item: markdown_text escapes it)
    assert "|  | input price (USD/1M) | 0\\.5 | 1 | \\+0.5 |" in diff
    assert summary.read_text(encoding="utf-8") == diff
    assert f"pull-request: diff against the base: {first}" in result.stderr


def test_pull_request_check_needs_a_base_checkout(tmp_path: Path) -> None:
    result = _run("pull-request", str(tmp_path / "nowhere"), str(tmp_path / "out"))
    assert result.returncode == 2
    assert result.stderr == "usage: scripts/ci/pull-request BASE_CHECKOUT OUT_DIR\n"


def test_comment_is_posted_with_gh(tmp_path: Path) -> None:
    gh, log = _recorder(tmp_path, "gh")
    body = tmp_path / "diff.md"
    body.write_text("## modelscores diff\n", encoding="utf-8")
    env = {"GH": str(gh), "GH_TOKEN": "t", "GITHUB_REPOSITORY": "owner/name"}
    result = _run("comment-pr", "12", str(body), env=env)
    assert result.returncode == 0, result.stderr
    assert _calls(log)[0]["args"] == [
        *("pr", "comment", "12", "--repo", "owner/name"),
        *("--edit-last", "--create-if-none", "--body-file", str(body)),
    ]
    long = tmp_path / "long.md"
    long.write_text("## modelscores diff\n" + "| row |\n" * 20_000, encoding="utf-8")
    assert _run("comment-pr", "12", str(long), env=env).returncode == 0
    cut = _calls(log)[1]
    posted = str(cut["body"])
    assert len(posted) < 60_200 and posted.startswith("## modelscores diff\n| row |\n")
    assert posted.endswith('whole report is in the "Check, build, diff" job summary)\n')
    assert "| row\n" not in posted  # cut at a line, not inside one
    assert not Path(str(cut["args"][-1])).exists()  # type: ignore[index]  # removed after
    refused = _run("comment-pr", "12; rm -rf /", str(body), env=env)
    assert refused.returncode == 2
    assert _run("comment-pr", "12", str(body), env={**env, "GH_TOKEN": ""}).returncode == 1


@pytest.mark.slow
def test_production_build_uses_the_public_addresses(tmp_path: Path) -> None:
    env = {
        "DATA_DIR": "tests/data",
        "MODELSCORES_BASE_URL": "https://scores.example.org",
        "MODELSCORES_MCP_ORIGIN": "https://mcp.example.org",
    }
    out = tmp_path / "site_out"
    result = _run("build-site", str(out), env=env)
    assert result.returncode == 0, result.stdout + result.stderr
    rules = [
        line.split()
        for line in (out / "_redirects").read_text(encoding="utf-8").splitlines()
        if line and not line.startswith("#")
    ]
    assert rules[0] == ["/api/mcp", "https://mcp.example.org/api/mcp", "200!"]
    models = json.loads((out / "api" / "v1" / "models.json").read_text(encoding="utf-8"))
    assert models["models"][0]["url"].startswith("https://scores.example.org/models/")


def test_production_build_refuses_a_missing_or_plain_http_address(tmp_path: Path) -> None:
    for url in ("", "http://scores.example.org"):
        result = _run("build-site", str(tmp_path / "out"), env={"MODELSCORES_BASE_URL": url})
        assert result.returncode == 1
        assert result.stderr.startswith("build-site: MODELSCORES_BASE_URL must be")
    assert not (tmp_path / "out").exists()


def test_deploy_refuses_an_incomplete_build_or_missing_secrets(
    tmp_path: Path, built_site: Path
) -> None:
    netlify, log = _recorder(tmp_path, "netlify")
    env = {
        "NETLIFY": str(netlify),
        "NETLIFY_AUTH_TOKEN": "t",
        "NETLIFY_SITE_ID": "s-1",
        "MODELSCORES_BASE_URL": "https://scores.example.org",
    }
    partial = tmp_path / "partial"
    # Its files hard links (the script only reads them; removing one removes a link): a copy
    # of the site's 144 files took 0.1 s.
    shutil.copytree(built_site, partial, copy_function=os.link)
    (partial / "_redirects").unlink()
    result = _run("deploy-site", str(partial), env=env)
    assert result.returncode == 1
    assert (
        result.stderr
        == f"deploy-site: {partial}: not a complete build (no _redirects); nothing deployed\n"
    )
    for secret in ("NETLIFY_AUTH_TOKEN", "NETLIFY_SITE_ID", "MODELSCORES_BASE_URL"):
        missing = _run("deploy-site", str(built_site), env={**env, secret: ""})
        assert missing.returncode == 1
        assert secret in missing.stderr
    assert not log.exists()


@pytest.mark.skipif(
    not NETLIFY_CLI.is_file(), reason="netlify-cli not installed (scripts/install_tools.sh)"
)
def test_the_pinned_netlify_cli_knows_every_flag_the_deploy_uses(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    node = next((ROOT / ".tools" / "node22" / "node_modules").glob("node-linux-*/bin/node"))
    result = subprocess.run(
        [str(node), str(NETLIFY_CLI), "deploy", "--help"],
        env={"PATH": os.environ["PATH"], "HOME": str(tmp_path), "NETLIFY_TELEMETRY_DISABLED": "1"},
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    script = (CI / "deploy-site").read_text(encoding="utf-8")
    command = script[script.index("$NETLIFY deploy") :].split("\n\n")[0].split(")\n")[0]
    used = set(re.findall(r"(--[a-z-]+)", command))
    assert used == {"--no-build", "--json", "--dir", "--site", "--message"}
    assert all(flag in result.stdout for flag in used)
    # `netlify api OPERATION` runs operations of Netlify's API by name: the ones used exist
    # (one listing a run: test_deploy_doc.py reads it too)
    listed = netlify_output(tmp_path_factory, "api", "--list")
    for operation in set(re.findall(r"api (\w+)", script)) | {"getSite", "restoreSiteDeploy"}:
        assert operation in listed, operation


def test_sidecar_image_is_built_for_the_public_addresses_and_pushed(tmp_path: Path) -> None:
    digest = "ghcr.io/owner/name-mcp@sha256:" + "0" * 64
    docker = stand_in(tmp_path, "docker", [("inspect", digest, 0)])
    log = tmp_path / "calls.log"
    env = {
        "DOCKER": str(docker),
        "REGISTRY_TOKEN": "secret-token",
        "GITHUB_ACTOR": "someone",
        "MODELSCORES_BASE_URL": "https://scores.example.org",
        "MODELSCORES_MCP_ORIGIN": "https://mcp.example.org",
    }
    image = "ghcr.io/owner/name-mcp"
    result = _run("publish-sidecar", image, "abc123", env=env)
    assert result.returncode == 0, result.stderr
    login, build, push, push_latest, _ = _calls(log)
    assert (login["args"], login["stdin"]) == (
        ["login", "ghcr.io", "--username", "someone", "--password-stdin"],
        "secret-token",  # on stdin, never on a command line
    )
    assert build["args"] == [
        *("build", "--pull", "--build-arg", "BASE_URL=https://scores.example.org"),
        *("--build-arg", "MCP_ORIGIN=https://mcp.example.org"),
        *("--tag", f"{image}:abc123", "--tag", f"{image}:latest", "."),
    ]
    assert (push["args"], push_latest["args"]) == (
        ["push", f"{image}:abc123"],
        ["push", f"{image}:latest"],
    )
    assert "secret-token" not in result.stdout + result.stderr


def test_sidecar_publish_refuses_bad_input(tmp_path: Path) -> None:
    docker, log = _recorder(tmp_path, "docker")
    env = {
        "DOCKER": str(docker),
        "REGISTRY_TOKEN": "t",
        "GITHUB_ACTOR": "a",
        "MODELSCORES_BASE_URL": "https://s.example.org",
    }
    assert _run("publish-sidecar", "ghcr.io/Owner/Name", "x", env=env).returncode == 2
    assert (
        _run("publish-sidecar", "ghcr.io/o/n", "x", env={**env, "REGISTRY_TOKEN": ""}).returncode
        == 1
    )
    no_url = {**env, "MODELSCORES_BASE_URL": "http://s.example.org"}
    assert _run("publish-sidecar", "ghcr.io/o/n", "x", env=no_url).returncode == 1
    assert not log.exists()
