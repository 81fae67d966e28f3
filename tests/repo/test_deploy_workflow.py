"""The deploy path: its scripts with stand-ins for Netlify, Fly.io, Docker and the smoke check,
and `.github/workflows/deploy.yml` replayed job by job in the order of its `needs`, so that
"the sidecar first, then the site as a draft, the smoke check, then the switch; nothing
switched on a failure" is what the workflow file itself does, not what a comment says.
"""

from __future__ import annotations

import os
import re
import subprocess
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
import yaml  # type: ignore[import-untyped]  # (pyyaml, in the lock through schemathesis; no stubs)
from dockerfile_parse import DockerfileParser
from support.paths import REPO
from support.standins import Answers, calls, stand_in

CI = REPO / "scripts" / "ci"
WORKFLOW = REPO / ".github" / "workflows" / "deploy.yml"
DIGEST = "sha256:" + "ab" * 32
IMAGE = f"ghcr.io/owner/name-mcp@{DIGEST}"
DRAFT_URL = "https://d-2--scores.netlify.app"
SITE_URL = "https://scores.example.org"
MCP_ORIGIN = "https://mcp.example.org"
NETLIFY_ANSWERS: Answers = [
    ("api getSite", '{"id": "s-1", "published_deploy": {"id": "old-1"}}', 0),
    ("deploy", f'{{"deploy_id": "d-2", "deploy_url": "{DRAFT_URL}", "site_id": "s-1"}}', 0),
    ("api restoreSiteDeploy", "{}", 0),
]


def _run(script: str, *args: str, env: Mapping[str, str]) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "MODELSCORES_"))}
    return subprocess.run(
        [str(CI / script), *args],
        env={**base, **env},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def _site_env(tmp_path: Path, smoke_answers: Answers | None = None) -> dict[str, str]:
    return {
        "NETLIFY": str(stand_in(tmp_path, "netlify", NETLIFY_ANSWERS)),
        "SMOKE": str(stand_in(tmp_path, "smoke", smoke_answers)),
        "NETLIFY_AUTH_TOKEN": "t",
        "NETLIFY_SITE_ID": "s-1",
        "MODELSCORES_BASE_URL": SITE_URL,
        "MODELSCORES_MCP_ORIGIN": MCP_ORIGIN,
        "GITHUB_SHA": "abc123",
    }


def _steps(log: Path) -> list[str]:
    """Each call as `command first-args`, in order."""
    found = []
    for call in calls(log):
        args = [str(a) for a in call["args"]]  # type: ignore[attr-defined]
        if call["command"] == "netlify":
            found.append("netlify " + " ".join(args[:2] if args[0] == "api" else args[:1]))
        else:
            found.append(f"{call['command']} {args[0]}")
    return found


# --- deploy-site: a draft, its smoke check, the switch ------------------------------------


def test_the_site_is_a_draft_checked_then_published(tmp_path: Path, built_site: Path) -> None:
    result = _run("deploy-site", str(built_site), env=_site_env(tmp_path))
    assert result.returncode == 0, result.stderr
    log = calls(tmp_path / "calls.log")
    assert _steps(tmp_path / "calls.log") == [
        "netlify api getSite",
        "netlify deploy",
        f"smoke {DRAFT_URL}",
        "netlify api restoreSiteDeploy",
        f"smoke {SITE_URL}",
    ]
    deploy = log[1]["args"]
    assert deploy == [
        *("deploy", "--no-build", "--json", "--dir", str(built_site)),
        *("--site", "s-1", "--message", "abc123"),
    ]
    assert "--prod" not in deploy  # a draft: production is switched only by the publish below
    assert log[2]["args"] == [DRAFT_URL, "--sidecar", MCP_ORIGIN]
    assert log[3]["args"] == [
        *("api", "restoreSiteDeploy", "--data"),
        '{"site_id": "s-1", "deploy_id": "d-2"}',  # the very deploy that was checked
    ]
    assert result.stderr.splitlines()[-1] == (
        f"deploy-site: deployed {built_site}: {SITE_URL} passed its smoke check"
    )


def test_a_draft_failing_its_smoke_check_switches_nothing(tmp_path: Path, built_site: Path) -> None:
    env = _site_env(tmp_path, [(DRAFT_URL, "", 1)])
    result = _run("deploy-site", str(built_site), env=env)
    assert result.returncode == 1
    assert _steps(tmp_path / "calls.log") == [
        "netlify api getSite",
        "netlify deploy",
        f"smoke {DRAFT_URL}",
    ]
    assert result.stderr.splitlines()[-1] == (
        "deploy-site: the draft failed its smoke check: production NOT switched (still old-1)"
    )


def test_production_failing_after_the_switch_gets_the_previous_deploy_back(
    tmp_path: Path, built_site: Path
) -> None:
    env = _site_env(tmp_path, [(SITE_URL, "", 1)])
    result = _run("deploy-site", str(built_site), env=env)
    assert result.returncode == 1
    log = calls(tmp_path / "calls.log")
    restores = [c["args"][3] for c in log if c["args"][:2] == ["api", "restoreSiteDeploy"]]  # type: ignore[index]
    assert restores == [
        '{"site_id": "s-1", "deploy_id": "d-2"}',
        '{"site_id": "s-1", "deploy_id": "old-1"}',
    ]
    assert "old-1 published again" in result.stderr


# --- publish-sidecar and deploy-sidecar: an image by digest, rolled out on Fly.io ------------


def test_the_pushed_image_is_named_by_its_digest(tmp_path: Path) -> None:
    image = "ghcr.io/owner/name-mcp"
    docker = stand_in(tmp_path, "docker", [("inspect", f"{image}@{DIGEST}\n", 0)])
    output = tmp_path / "github-output"
    env = {
        "DOCKER": str(docker),
        "REGISTRY_TOKEN": "t",
        "GITHUB_ACTOR": "a",
        "MODELSCORES_BASE_URL": SITE_URL,
        "GITHUB_OUTPUT": str(output),
    }
    result = _run("publish-sidecar", image, "abc123", env=env)
    assert result.returncode == 0, result.stderr
    assert result.stdout == f"{image}@{DIGEST}\n"
    assert output.read_text(encoding="utf-8") == f"image={image}@{DIGEST}\n"
    assert calls(tmp_path / "calls.log")[-1]["args"] == [
        *("inspect", "--format", "{{index .RepoDigests 0}}", f"{image}:abc123"),
    ]
    bad = stand_in(tmp_path, "docker-bad", [("inspect", "\n", 0)])
    refused = _run("publish-sidecar", image, "abc123", env={**env, "DOCKER": str(bad)})
    assert refused.returncode == 1
    assert "no digest for" in refused.stderr


def _sidecar_env(tmp_path: Path, answers: Answers | None = None) -> dict[str, str]:
    return {
        "FLYCTL": str(stand_in(tmp_path, "flyctl", answers)),
        "FLY_API_TOKEN": "fly-token",
        "FLY_APP": "scores-mcp",
        "MODELSCORES_BASE_URL": SITE_URL + "/sub",
        "MODELSCORES_MCP_ORIGIN": MCP_ORIGIN,
    }


def test_the_sidecar_is_rolled_out_by_digest_with_its_hosts(tmp_path: Path) -> None:
    result = _run("deploy-sidecar", IMAGE, env=_sidecar_env(tmp_path))
    assert result.returncode == 0, result.stderr
    (call,) = calls(tmp_path / "calls.log")
    assert call["args"] == [
        *("deploy", "--config", "fly.toml", "--app", "scores-mcp", "--image", IMAGE),
        *("--strategy", "rolling"),
        *("--env", "MODELSCORES_ALLOWED_HOSTS=mcp.example.org,scores.example.org"),
        *("--env", f"MODELSCORES_ALLOWED_ORIGINS={SITE_URL}"),
    ]
    assert "fly-token" not in str(call["args"])  # from the environment, never an argument


def test_the_sidecar_deploy_refuses_a_tag_or_missing_settings(tmp_path: Path) -> None:
    env = _sidecar_env(tmp_path)
    tag = _run("deploy-sidecar", "ghcr.io/owner/name-mcp:latest", env=env)
    assert tag.returncode == 2  # a tag can move; only a digest names what was built
    for name in ("FLY_API_TOKEN", "FLY_APP", "MODELSCORES_MCP_ORIGIN"):
        missing = _run("deploy-sidecar", IMAGE, env={**env, name: ""})
        assert (missing.returncode, name in missing.stderr) == (1, True), missing.stderr
    assert calls(tmp_path / "calls.log") == []


def test_fly_toml_matches_the_dockerfile() -> None:
    """The port Fly routes to and the path of its health check are the image's."""
    fly = tomllib.loads((REPO / "fly.toml").read_text(encoding="utf-8"))
    parser = DockerfileParser(str(REPO / "Dockerfile"))
    service = fly["http_service"]
    assert str(service["internal_port"]) == parser.envs["UVICORN_PORT"]
    assert f"EXPOSE {service['internal_port']}" in parser.content
    (check,) = service["checks"]
    assert check["path"] == "/healthz" and "/healthz" in parser.content
    assert service["min_machines_running"] >= 2  # a rolling update keeps one answering


# --- the workflow itself, replayed ----------------------------------------------------------

_EXPRESSION = re.compile(r"\$\{\{\s*([^}]+?)\s*\}\}")


def _resolve(text: str, context: Mapping[str, Any]) -> str:
    """`${{ a.b.c }}` from `context` (vars, secrets, github, needs, steps)."""

    def value(match: re.Match[str]) -> str:
        found: Any = context
        for part in match.group(1).split("."):
            found = found.get(part, "") if isinstance(found, Mapping) else ""
        return str(found)

    return _EXPRESSION.sub(value, text)


def _order(jobs: Mapping[str, Any]) -> list[str]:
    done: list[str] = []
    while len(done) < len(jobs):
        ready = [
            name
            for name, job in jobs.items()
            if name not in done and all(n in done for n in _needs(job))
        ]
        assert ready, "a cycle in needs"
        done.extend(sorted(ready))
    return done


def _needs(job: Mapping[str, Any]) -> list[str]:
    needs = job.get("needs", [])
    return [needs] if isinstance(needs, str) else list(needs)


def replay(tmp_path: Path, stand_ins: Mapping[str, str]) -> dict[str, str]:
    """Run deploy.yml's jobs in `needs` order, each `run` step in bash with its `env` resolved
    (GitHub's default: a job whose needs did not all succeed is skipped). The workspace's
    `site_out` is a folder of `tmp_path`; `uses:` steps (checkout, artifacts) need nothing
    here. Returns each job's result: success, failure or skipped."""
    workflow = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    jobs: dict[str, Any] = workflow["jobs"]
    context: dict[str, Any] = {
        "vars": {
            "MODELSCORES_BASE_URL": SITE_URL,
            "MODELSCORES_MCP_ORIGIN": MCP_ORIGIN,
            "FLY_APP": "scores-mcp",
        },
        "secrets": {
            k: "t"
            for k in ("NETLIFY_AUTH_TOKEN", "NETLIFY_SITE_ID", "FLY_API_TOKEN", "GITHUB_TOKEN")
        },
        "github": {"repository": "Owner/Name", "sha": "abc123", "server_url": "https://github.com"},
        "needs": {},
    }
    results: dict[str, str] = {}
    for name in _order(jobs):
        job = jobs[name]
        if any(results[n] != "success" for n in _needs(job)):
            results[name] = "skipped"
            continue
        results[name], outputs = _run_job(job, context, tmp_path, stand_ins)
        context["needs"][name] = {"outputs": outputs}
    return results


def _run_job(
    job: Mapping[str, Any], context: dict[str, Any], tmp_path: Path, stand_ins: Mapping[str, str]
) -> tuple[str, dict[str, str]]:
    steps: dict[str, Any] = {}
    base = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "MODELSCORES_"))}
    for step in job["steps"]:
        if "run" not in step:
            continue
        output = tmp_path / "github-output"
        output.write_text("", encoding="utf-8")
        scope = {**context, "steps": steps}
        env = {k: _resolve(str(v), scope) for k, v in step.get("env", {}).items()}
        # what the runner sets for every step, and the fixture data for the build
        runner = {"GITHUB_SHA": "abc123", "GITHUB_ACTOR": "someone", "DATA_DIR": "tests/data"}
        env.update(stand_ins, **runner, GITHUB_OUTPUT=str(output))
        command = step["run"].replace("site_out", str(tmp_path / "site_out"))
        result = subprocess.run(
            ["bash", "-c", command],
            cwd=REPO,
            env={**base, **env},
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        if result.returncode != 0:
            (tmp_path / "failed-step.log").write_text(result.stderr, encoding="utf-8")
            return "failure", {}
        lines = output.read_text(encoding="utf-8").splitlines()
        steps[step.get("id", "")] = {"outputs": dict(line.split("=", 1) for line in lines)}
    outputs = {
        k: _resolve(v, {**context, "steps": steps}) for k, v in job.get("outputs", {}).items()
    }
    return "success", outputs


def _stand_ins(
    tmp_path: Path, fly_fails: bool = False, smoke: Answers | None = None
) -> dict[str, str]:
    image = "ghcr.io/owner/name-mcp"
    return {
        "DOCKER": str(stand_in(tmp_path, "docker", [("inspect", f"{image}@{DIGEST}\n", 0)])),
        "FLYCTL": str(stand_in(tmp_path, "flyctl", [("deploy", "", 1 if fly_fails else 0)])),
        "NETLIFY": str(stand_in(tmp_path, "netlify", NETLIFY_ANSWERS)),
        "SMOKE": str(stand_in(tmp_path, "smoke", smoke)),
    }


@pytest.mark.slow
def test_the_workflow_deploys_the_sidecar_then_the_site_then_checks(tmp_path: Path) -> None:
    results = replay(tmp_path, _stand_ins(tmp_path))
    assert results == dict.fromkeys(
        ("build", "publish-sidecar", "deploy-sidecar", "deploy-site"), "success"
    )
    assert _steps(tmp_path / "calls.log") == [
        *("docker login", "docker build", "docker push", "docker push", "docker inspect"),
        "flyctl deploy",  # the image pushed, by the digest publish-sidecar output
        *("netlify api getSite", "netlify deploy", f"smoke {DRAFT_URL}"),
        *("netlify api restoreSiteDeploy", f"smoke {SITE_URL}"),
    ]
    fly = next(c for c in calls(tmp_path / "calls.log") if c["command"] == "flyctl")
    assert f"ghcr.io/owner/name-mcp@{DIGEST}" in fly["args"]  # type: ignore[operator]
    assert (tmp_path / "site_out" / "api" / "v1" / "models.json").is_file()


@pytest.mark.slow
def test_a_failed_sidecar_deploy_leaves_the_site_alone(tmp_path: Path) -> None:
    results = replay(tmp_path, _stand_ins(tmp_path, fly_fails=True))
    assert results["deploy-sidecar"] == "failure"
    assert results["deploy-site"] == "skipped"
    assert not any(c["command"] in ("netlify", "smoke") for c in calls(tmp_path / "calls.log"))


@pytest.mark.slow
def test_a_failed_smoke_check_of_the_draft_leaves_production_alone(tmp_path: Path) -> None:
    results = replay(tmp_path, _stand_ins(tmp_path, smoke=[(DRAFT_URL, "", 1)]))
    assert results["deploy-site"] == "failure"
    netlify = [c["args"][:2] for c in calls(tmp_path / "calls.log") if c["command"] == "netlify"]
    assert ["api", "restoreSiteDeploy"] not in netlify  # never switched
