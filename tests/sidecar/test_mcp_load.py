"""Load: many concurrent clients against one real sidecar, with a rebuild in the middle.

One `uvicorn mcp_server.app:app` process serves a build of the fixture. 64 keep-alive HTTP/1.1
clients (raw asyncio streams, in this process) send tool calls round-robin over every tool
and every published id. Every answer is checked against the static files of the build it
claims to come from (its envelope's `methodologyVersion`): equal to the file, or for
`compare_models` equal to that build's `/models` rows. Memory is the server's resident set
(`/proc/<pid>/status`), measured after a warm-up and again after the main run.

Sizes: `MODELSCORES_LOAD_CALLS` (default 20,000 calls) and `MODELSCORES_LOAD_CLIENTS`
(default 64). The rebuild phase swaps in a second build (every envelope and model name
differs) while the clients run, and then the first build again.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from support.paths import FIXTURE_DATA
from support.servers import free_port, python_env, running_server
from support.sitetree import build_in_process, run_build

CALLS = int(os.environ.get("MODELSCORES_LOAD_CALLS", "20000"))
CLIENTS = int(os.environ.get("MODELSCORES_LOAD_CLIENTS", "64"))
WARM_UP = max(CLIENTS * 20, CALLS // 10)
REBUILD_CALLS = max(CLIENTS * 40, CALLS // 4)
MAX_GROWTH = 0.10

pytestmark = pytest.mark.slow


# --- the two builds and what each answer must be ------------------------------------


def _variant(dest: Path) -> Path:
    """The fixture with a new methodology version and every model renamed: a second build."""
    shutil.copytree(FIXTURE_DATA, dest)
    meth = dest / "methodology.toml"
    text, count = re.subn(
        r'^(version\s*=\s*"[^"]*)"', r'\1-load"', meth.read_text("utf-8"), count=1, flags=re.M
    )
    assert count == 1
    meth.write_text(text, encoding="utf-8")
    for path in (dest / "models").glob("*.toml"):
        text, count = re.subn(
            r'^(name\s*=\s*"[^"]*)"', r'\1 (B)"', path.read_text("utf-8"), count=1, flags=re.M
        )
        assert count == 1, path
        path.write_text(text, encoding="utf-8")
    return dest


@dataclass
class Build:
    """The JSON documents of one build, as the static API publishes them."""

    docs: dict[str, Any]

    @classmethod
    def read(cls, site: Path) -> Build:
        api = site / "api" / "v1"
        docs = {
            path.relative_to(api).as_posix(): json.loads(path.read_bytes())
            for path in api.rglob("*")
            if path.is_file() and path.name != "openapi.json"
        }
        return cls(docs)

    @property
    def version(self) -> str:
        return str(self.docs["models.json"]["methodologyVersion"])

    def ids(self, folder: str) -> list[str]:
        prefix = f"{folder}/"
        return sorted(k[len(prefix) :] for k in self.docs if k.startswith(prefix))

    def expected(self, tool: str, arguments: dict[str, Any]) -> Any:
        """The structured content `tool` must answer with over this build."""
        files = {
            "list_models": "models.json",
            "list_rankings": "rankings.json",
            "list_benchmarks": "benchmarks",
            "list_domains": "domains.json",
            "get_methodology": "methodology",
        }
        if tool in files:
            return self.docs[files[tool]]
        if tool == "get_model":
            return self.docs[f"models/{arguments['id']}"]
        if tool == "get_ranking":
            return self.docs[f"rankings/{arguments['id']}"]
        if tool == "get_domain":
            return self.docs[f"domains/{arguments['slug']}"]
        raise AssertionError(tool)

    def check_comparison(self, arguments: dict[str, Any], data: dict[str, Any]) -> None:
        assert [model["id"] for model in data["compared"]] == arguments["ids"]
        assert all(model == self.docs[f"models/{model['id']}"] for model in data["compared"])


def _calls(build: Build) -> list[tuple[str, dict[str, Any]]]:
    """One round of calls: every tool, every published id; plus one unknown id."""
    models = build.ids("models")
    calls: list[tuple[str, dict[str, Any]]] = [
        (tool, {})
        for tool in (
            "list_models",
            "list_rankings",
            "list_benchmarks",
            "list_domains",
            "get_methodology",
        )
    ]
    calls += [("get_model", {"id": model}) for model in models]
    calls += [("get_ranking", {"id": ranking}) for ranking in build.ids("rankings")]
    calls += [("get_domain", {"slug": slug}) for slug in build.ids("domains")]
    calls += [("compare_models", {"ids": models[i : i + 3]}) for i in range(len(models) - 2)]
    calls.append(("get_model", {"id": "no-such-model"}))
    return calls


# --- a small keep-alive HTTP/1.1 client ---------------------------------------------


def _request(port: int, number: int, tool: str, arguments: dict[str, Any]) -> bytes:
    body = json.dumps(
        {
            "jsonrpc": "2.0",
            "id": number,
            "method": "tools/call",
            "params": {"name": tool, "arguments": arguments},
        }
    ).encode()
    head = (
        f"POST /api/mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
        "Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    )
    return head.encode() + body


async def _read_response(reader: asyncio.StreamReader) -> tuple[int, bytes]:
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.split(b"\r\n")
    status = int(lines[0].split(b" ", 2)[1])
    headers = dict(
        (name.strip().lower(), value.strip())
        for name, _, value in (line.partition(b":") for line in lines[1:] if line)
    )
    if b"chunked" in headers.get(b"transfer-encoding", b"").lower():
        parts = []
        while size := int((await reader.readuntil(b"\r\n")).split(b";")[0], 16):
            parts.append(await reader.readexactly(size))
            await reader.readexactly(2)
        await reader.readuntil(b"\r\n")
        return status, b"".join(parts)
    return status, await reader.readexactly(int(headers[b"content-length"]))


@dataclass
class Tally:
    """What the clients saw, and the answers already checked (by exact bytes)."""

    answers: int = 0
    errors: list[str] = field(default_factory=list)
    versions: Counter[str] = field(default_factory=Counter)
    checked: dict[tuple[int, bytes], str] = field(default_factory=dict)

    def record(self, key: tuple[int, bytes], check: Callable[[], str]) -> None:
        """Count one answer; a body seen before for the same call needs no second check."""
        try:
            version = self.checked.get(key) or check()
        except (AssertionError, KeyError, ValueError, TypeError) as exc:
            self.errors.append(repr(exc)[:300])
            version = "failed"
        else:
            self.checked[key] = version
        self.versions[version] += 1
        self.answers += 1


def _check_answer(
    builds: dict[str, Build], tool: str, arguments: dict[str, Any], status: int, body: bytes
) -> str:
    """The version of the build the answer wholly comes from (raises if none fits)."""
    assert status == 200, (status, body[:200])
    result = json.loads(body)["result"]
    if arguments.get("id") == "no-such-model":
        assert result["isError"] is True
        return "error"
    assert result.get("isError") is not True, result["content"]
    data = result["structuredContent"]
    build = builds[data["methodologyVersion"]]
    if tool == "compare_models":
        build.check_comparison(arguments, data)
    else:
        assert data == build.expected(tool, arguments), f"{tool} {arguments}: mixed answer"
    return build.version


async def _client(
    port: int,
    calls: Iterator[tuple[int, tuple[str, dict[str, Any]]]],  # (JSON-RPC id, call)
    builds: dict[str, Build],
    tally: Tally,
) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        for number, (tool, arguments) in calls:
            writer.write(_request(port, number, tool, arguments))
            status, body = await _read_response(reader)
            key = (number, body if status == 200 else b"%d" % status)
            tally.record(key, partial(_check_answer, builds, tool, arguments, status, body))
    finally:
        writer.close()
        await writer.wait_closed()


def run_load(
    port: int,
    total: int,
    builds: dict[str, Build],
    round_: list[Any],
    tally: Tally | None = None,
) -> Tally:
    """`total` calls from CLIENTS concurrent connections, sharing one call iterator.

    A call's JSON-RPC id is its place in the round, so equal answers are equal bytes.
    The answers are counted into `tally` if given (another thread may watch it grow).
    """
    tally = Tally() if tally is None else tally
    calls = itertools.islice(itertools.cycle(enumerate(round_)), total)

    async def main() -> None:
        await asyncio.gather(*(_client(port, calls, builds, tally) for _ in range(CLIENTS)))

    asyncio.run(main())
    return tally


def rss_kib(pid: int) -> int:
    """Resident set size of a process, in KiB (Linux)."""
    status = Path(f"/proc/{pid}/status").read_text(encoding="ascii")
    match = re.search(r"^VmRSS:\s+(\d+) kB$", status, re.M)
    assert match is not None
    return int(match[1])


# --- the test -------------------------------------------------------------------------


@dataclass
class Sidecar:
    port: int
    pid: int
    site: Path
    data: dict[str, Path]
    builds: dict[str, Build]  # by methodology version
    versions: dict[str, str]  # dataset name -> methodology version


@pytest.fixture(scope="module")
def sidecar(tmp_path_factory: pytest.TempPathFactory, built_site: Path) -> Iterator[Sidecar]:
    if not Path("/proc/self/status").exists():
        pytest.skip("memory is read from /proc (Linux)")
    root = tmp_path_factory.mktemp("load")
    data = {"a": FIXTURE_DATA, "b": _variant(root / "data-b")}
    # Built in this process with the CLI's default configuration, as the child rebuilds
    # below use: build A's reference is the session's `built_site` (the same input and
    # configuration). The rebuilds under load stay child processes.
    ref_b = build_in_process(data["b"], root / "ref-b")
    reference = {"a": built_site, "b": ref_b}
    by_name = {name: Build.read(site) for name, site in reference.items()}
    builds = {b.version: b for b in by_name.values()}
    assert len(builds) == 2
    site = build_in_process(data["a"], root / "site_out")
    port = free_port()
    env = python_env() | {"MODELSCORES_SITE_DIR": str(site)}
    command = [
        sys.executable,
        "-m",
        "uvicorn",
        "mcp_server.app:app",
        "--port",
        str(port),
        "--log-level",
        "warning",
        "--no-access-log",
    ]
    with running_server(command, f"http://127.0.0.1:{port}/healthz", env=env) as proc:
        yield Sidecar(
            port, proc.pid, site, data, builds, {n: b.version for n, b in by_name.items()}
        )


def test_load_without_errors_or_memory_growth(sidecar: Sidecar) -> None:
    build = sidecar.builds[Build.read(sidecar.site).version]
    round_ = _calls(build)
    warm = run_load(sidecar.port, WARM_UP, sidecar.builds, round_)
    assert warm.errors == []
    before = rss_kib(sidecar.pid)
    started = time.monotonic()
    tally = run_load(sidecar.port, CALLS, sidecar.builds, round_)
    seconds = time.monotonic() - started
    after = rss_kib(sidecar.pid)
    print(
        f"load: {tally.answers} calls from {CLIENTS} clients in {seconds:.1f} s "
        f"({tally.answers / seconds:.0f}/s); server RSS {before} -> {after} KiB"
    )
    assert tally.errors == []
    assert tally.answers == CALLS
    assert after <= before * (1 + MAX_GROWTH), (before, after)


def _rebuild(data: Path, site: Path, results: list[subprocess.CompletedProcess[str]]) -> None:
    results.append(run_build(data, site))


def test_rebuild_mid_load_every_answer_from_one_build(sidecar: Sidecar) -> None:
    """Swap to build B and back to A while the clients run: no error, no mixed answer.

    Each rebuild waits for the clients, not for the clock: B once every client has had
    about ten answers, A once about ten answers per client have come from B.
    """
    round_ = _calls(sidecar.builds[Build.read(sidecar.site).version])
    results: list[subprocess.CompletedProcess[str]] = []
    stop = threading.Event()
    tally = Tally()
    steady = CLIENTS * 10

    def until(condition: Callable[[], bool]) -> bool:
        """Wait until `condition` holds; False if the test stopped first."""
        while not condition():
            if stop.wait(0.005):
                return False
        return True

    def rebuilds() -> None:
        if not until(lambda: tally.answers >= steady):
            return
        _rebuild(sidecar.data["b"], sidecar.site, results)
        if results[-1].returncode != 0:
            return  # reported below, with its stderr
        if until(lambda: tally.versions[sidecar.versions["b"]] >= steady):
            _rebuild(sidecar.data["a"], sidecar.site, results)

    worker = threading.Thread(target=rebuilds)
    worker.start()
    try:
        run_load(sidecar.port, REBUILD_CALLS, sidecar.builds, round_, tally)
        # keep the clients busy until both rebuilds are done and seen
        while worker.is_alive() or len(tally.versions) < 2:
            run_load(sidecar.port, CLIENTS * 10, sidecar.builds, round_, tally)
            assert tally.answers < REBUILD_CALLS * 20, "the rebuild was never seen"
    finally:
        stop.set()
        worker.join()
    print(f"rebuild under load: {tally.answers} calls, answers by build {dict(tally.versions)}")
    assert [r.returncode for r in results] == [0, 0], [r.stderr for r in results]
    assert tally.errors == []
    versions = set(tally.versions) - {"error"}
    assert versions == set(sidecar.builds), tally.versions
    assert Build.read(sidecar.site).version == sidecar.versions["a"]
