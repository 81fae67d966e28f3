"""Starting and stopping servers in tests: free ports, readiness polling, child processes."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

from generator.header_timeout import TEST_TIMEOUT_VARIABLE
from support.paths import REPO

# The header timeout of the servers the slowloris tests start (generator/header_timeout.py's
# test-only knob), in place of the shipped 10 s: those tests wait one or two timeouts each.
# A slow body gets between one and two timeouts, so the test sending its second half after half
# a timeout has 1.5 s to spare.
TEST_HEADER_TIMEOUT = 1.0


def free_port() -> int:
    """A TCP port on 127.0.0.1 that is free right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_for_http(url: str, proc: subprocess.Popen[bytes], timeout: float) -> None:
    """Poll `url` until it answers any HTTP status; fail early if `proc` exits."""
    deadline = time.monotonic() + timeout
    while True:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited with {proc.returncode} before answering {url}")
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except urllib.error.HTTPError:
            return  # it answered (with an error status): it is up
        except (urllib.error.URLError, OSError):
            if time.monotonic() > deadline:
                raise TimeoutError(f"nothing answered {url} within {timeout} s") from None
            time.sleep(0.1)


@contextlib.contextmanager
def running_server(
    command: Sequence[str],
    ready_url: str,
    *,
    env: Mapping[str, str] | None = None,
    cwd: Path = REPO,
    timeout: float = 30,
    log: Path | None = None,
) -> Iterator[subprocess.Popen[bytes]]:
    """Start `command`, wait until `ready_url` answers, stop it (process group) afterwards."""
    output = open(log, "wb") if log is not None else subprocess.DEVNULL  # noqa: SIM115
    proc = subprocess.Popen(
        list(command),
        cwd=cwd,
        env=dict(env) if env is not None else None,
        stdout=output,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        try:
            wait_for_http(ready_url, proc, timeout)
        except (RuntimeError, TimeoutError) as exc:
            detail = log.read_text(errors="replace")[-3000:] if log is not None else ""
            raise RuntimeError(f"{exc}\n{detail}") from None
        yield proc
    finally:
        _stop(proc)
        if log is not None:
            output.close()  # type: ignore[union-attr]


def _stop(proc: subprocess.Popen[bytes]) -> None:
    """Terminate the server's process group (it may have children), then kill if needed."""
    if proc.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, 15)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, 9)
            proc.wait(timeout=10)


def python_env() -> dict[str, str]:
    """Environment for a child Python: the repo importable, no stray MODELSCORES_ settings."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("MODELSCORES_")}
    env["PYTHONPATH"] = str(REPO)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def short_header_timeout(env: Mapping[str, str]) -> dict[str, str]:
    """`env` for a server that closes half-sent requests after `TEST_HEADER_TIMEOUT`."""
    return {**env, TEST_TIMEOUT_VARIABLE: str(TEST_HEADER_TIMEOUT)}


def serve_command(site_dir: Path, port: int, *extra: str) -> list[str]:
    """`modelscores serve --no-build` over an existing site on `port`."""
    return [
        sys.executable,
        "-m",
        "generator",
        "serve",
        "--no-build",
        "--out-dir",
        str(site_dir),
        "--port",
        str(port),
        *extra,
    ]
