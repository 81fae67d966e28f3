"""`netlify dev` (offline) over a built site, for the tests that check the site as Netlify
serves it (tests/commands/test_netlify.py, tests/repo/test_smoke_check.py); the CLI's
listings for the tests that check the commands the docs and workflows type.

netlify-cli is pinned and installed into .tools/ by scripts/install_tools.sh. It is run
with the hidden `--internal-disable-edge-functions` flag (the edge runtime needs the
network), HOME in a temp dir and its local database kept from starting.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from support.once import made_once
from support.paths import REPO
from support.servers import free_port, running_server

TOOLS = REPO / ".tools"
NETLIFY = TOOLS / "netlify" / "node_modules" / "netlify-cli" / "bin" / "run.js"


def _node() -> str | None:
    """Node 22 from .tools/ if installed, else a `node` on PATH."""
    for candidate in sorted((TOOLS / "node22" / "node_modules").glob("node-linux-*/bin/node")):
        if os.access(candidate, os.X_OK):
            return str(candidate)
    return shutil.which("node")


NODE = _node()


@contextmanager
def netlify_dev(site: Path, work: Path) -> Iterator[str]:
    """`netlify dev` (offline) serving `site`; yields its base URL."""
    assert NODE is not None
    home = work / "home"
    project = work / "project"  # netlify dev writes .netlify/ into its working directory
    home.mkdir()
    (project / ".netlify").mkdir(parents=True)
    # netlify-cli 26 starts a local Netlify Database (PGlite: Postgres compiled to
    # WebAssembly) in .netlify/db on every `netlify dev`, with no option to turn it off:
    # creating its data directory takes about 3.5 s of CPU and 6 s of the 8.5 s start. A
    # plain file in that place makes the database's mkdir fail at once; netlify dev logs
    # "Failed to start Netlify Database locally" and serves as before. The site has no
    # functions, so nothing here could reach the database.
    (project / ".netlify" / "db").touch()
    port = free_port()
    env = {
        "PATH": os.environ.get("PATH", ""),
        "HOME": str(home),
        "BROWSER": "none",
        "NETLIFY_TELEMETRY_DISABLED": "1",
        "CI": "1",
    }
    command = [
        NODE,
        str(NETLIFY),
        "dev",
        "--offline",
        "--internal-disable-edge-functions",
        "--dir",
        str(site),
        "--port",
        str(port),
    ]
    base = f"http://127.0.0.1:{port}"
    with running_server(
        command, f"{base}/api/v1", env=env, cwd=project, timeout=120, log=work / "netlify.log"
    ):
        yield base


def netlify_output(tmp_path_factory: pytest.TempPathFactory, *args: str) -> str:
    """The pinned CLI's standard output for `netlify ARGS` (its help, `api --list`), run
    once a run: test_deploy_doc.py and test_workflows.py, on either worker, read the same
    listing (support/once.py). HOME is the command's own folder; it must exit 0."""

    def run(folder: Path) -> None:
        assert NODE is not None
        env = {"PATH": os.environ["PATH"], "HOME": str(folder), "NETLIFY_TELEMETRY_DISABLED": "1"}
        result = subprocess.run(
            [NODE, str(NETLIFY), *args],
            env=env,
            cwd=folder,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert result.returncode == 0, result.stderr
        (folder / "stdout").write_text(result.stdout, encoding="utf-8")

    name = "netlify-" + re.sub(r"[^a-z0-9]+", "-", " ".join(args).lower()).strip("-")
    return (made_once(tmp_path_factory, name, run) / "stdout").read_text(encoding="utf-8")
