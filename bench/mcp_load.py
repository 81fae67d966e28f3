"""Sidecar load benchmark: MCP tools over raw HTTP JSON-RPC against a plain-Starlette baseline.

`python -m bench.mcp_load` builds a synthetic site (or uses --site), starts the sidecar
under uvicorn on loopback (one worker, pinned to CPU 0), drives it from a separate client
process (pinned to CPU 1) at each concurrency for a fixed time, then does the same against
`bench.baseline_app` (the same JSON file's bytes from a plain Starlette route), and finally
watches the sidecar's RSS over a long run of `get_model` calls. Prints Markdown tables.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.measure import rss_mib, table

SERVER_CPU = 0
CLIENT_CPU = 1
TOOLS = ("get_model", "get_ranking", "list_models")
HOST = "127.0.0.1"
SIDECAR_APP = "mcp_server.app:app"
BASELINE_APP = "bench.baseline_app:app"
FAST_PATH_ENV = "MODELSCORES_MCP_FAST_PATH"


@dataclass(frozen=True)
class Cell:
    """One measured (server, tool, concurrency) combination."""

    server: str
    tool: str
    concurrency: int
    result: dict[str, Any]


def free_port() -> int:
    """An unused loopback TCP port."""
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        port: int = sock.getsockname()[1]
        return port


def _pin(cpu: int) -> None:
    if hasattr(os, "sched_setaffinity") and (os.cpu_count() or 1) > cpu:
        os.sched_setaffinity(0, {cpu})


def _wait_ready(port: int, proc: subprocess.Popen[bytes], timeout: float = 120.0) -> None:
    deadline = time.monotonic() + timeout
    request = f"GET /healthz HTTP/1.1\r\nHost: {HOST}:{port}\r\nConnection: close\r\n\r\n"
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited with {proc.returncode}")
        try:
            with socket.create_connection((HOST, port), timeout=2) as sock:
                sock.sendall(request.encode())
                if sock.recv(64).startswith(b"HTTP/1.1"):
                    return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError("server did not become ready")


@contextmanager
def serve(
    app: str, site: Path, extra_env: dict[str, str] | None = None
) -> Iterator[tuple[int, int]]:
    """Run `uvicorn app` on a free loopback port, one worker, pinned to SERVER_CPU."""
    port = free_port()
    env = {**os.environ, "MODELSCORES_SITE_DIR": str(site), **(extra_env or {})}
    command = [
        sys.executable, "-m", "uvicorn", app, "--host", HOST, "--port", str(port),
        "--workers", "1", "--log-level", "warning", "--no-access-log",
    ]  # fmt: skip
    proc = subprocess.Popen(command, env=env, preexec_fn=lambda: _pin(SERVER_CPU))
    try:
        _wait_ready(port, proc)
        yield port, proc.pid
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def process_cpu(pid: int) -> float:
    """User + system CPU seconds of a process so far (from /proc/PID/stat)."""
    fields = Path(f"/proc/{pid}/stat").read_text(encoding="ascii").rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def mcp_request(port: int, number: int, tool: str, arguments: dict[str, Any]) -> str:
    """One raw HTTP/1.1 POST of a JSON-RPC `tools/call`."""
    body = json.dumps(
        {
            "jsonrpc": "2.0",
            "id": number,
            "method": "tools/call",
            "params": {"name": tool, "arguments": arguments},
        },
        separators=(",", ":"),
    )
    return (
        f"POST /api/mcp HTTP/1.1\r\nHost: {HOST}:{port}\r\n"
        "Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
        f"Content-Length: {len(body.encode())}\r\n\r\n{body}"
    )


def get_request(port: int, path: str) -> str:
    """One raw HTTP/1.1 GET."""
    return f"GET {path} HTTP/1.1\r\nHost: {HOST}:{port}\r\n\r\n"


def requests_for(tool: str, port: int, ids: dict[str, list[str]], mcp: bool) -> list[str]:
    """The request cycle of a tool: every model (or ranking) id in turn."""
    if tool == "get_model":
        keys = ids["models"]
        if mcp:
            return [mcp_request(port, i, tool, {"id": k}) for i, k in enumerate(keys)]
        return [get_request(port, f"/api/v1/models/{k}") for k in keys]
    if tool == "get_ranking":
        keys = ids["rankings"]
        if mcp:
            return [mcp_request(port, i, tool, {"id": k}) for i, k in enumerate(keys)]
        return [get_request(port, f"/api/v1/rankings/{k}") for k in keys]
    if mcp:
        return [mcp_request(port, 1, tool, {})]
    return [get_request(port, "/api/v1/models")]


def run_client(
    requests: Sequence[str], port: int, concurrency: int, duration: float, count: int, mcp: bool
) -> dict[str, Any]:
    """Run `bench.load_client` in its own process pinned to CLIENT_CPU; return its JSON."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as handle:
        json.dump(list(requests), handle)
        path = handle.name
    try:
        command = [
            sys.executable, "-m", "bench.load_client", "--port", str(port),
            "--requests-file", path, "--concurrency", str(concurrency),
            "--duration", str(duration), "--count", str(count),
            "--warmup", "1" if count < 0 else "0",
        ]  # fmt: skip
        if not mcp:
            command.append("--plain")
        out = subprocess.run(
            command, check=True, capture_output=True, text=True, preexec_fn=lambda: _pin(CLIENT_CPU)
        )
        result: dict[str, Any] = json.loads(out.stdout)
        return result
    finally:
        os.unlink(path)


def site_ids(site: Path) -> dict[str, list[str]]:
    """Model and ranking ids of a built site."""
    api = site / "api" / "v1"
    models = json.loads((api / "models.json").read_bytes())["models"]
    rankings = json.loads((api / "rankings.json").read_bytes())["rankings"]
    return {"models": [m["id"] for m in models], "rankings": [r["id"] for r in rankings]}


def build_site_for(models: int, benchmarks: int, seed: int, work: Path) -> Path:
    """Synthesise data and build a site under `work`; returns the site directory."""
    from bench.synth import SynthSpec, write_dataset
    from generator.api.urls import SiteConfig
    from generator.build import build_site

    data, site = work / "data", work / "site"
    write_dataset(SynthSpec(models=models, benchmarks=benchmarks, seed=seed), data)
    build_site(data, site, SiteConfig(base_url=f"http://{HOST}:8000", mcp_origin=None))
    return site


def measure_matrix(
    site: Path,
    tools: Sequence[str],
    levels: Sequence[int],
    duration: float,
    sidecar_app: str = SIDECAR_APP,
    sdk_path_too: bool = False,
) -> list[Cell]:
    """Throughput and latency for every server, tool and concurrency.

    With `sdk_path_too`, the sidecar is also measured with its fast path off ("sidecar-sdk").
    """
    ids = site_ids(site)
    cells: list[Cell] = []
    servers = [("sidecar", sidecar_app, {}), ("baseline", BASELINE_APP, {})]
    if sdk_path_too:
        servers.insert(1, ("sidecar-sdk", sidecar_app, {FAST_PATH_ENV: "0"}))
    for server, app, env in servers:
        mcp = server != "baseline"
        with serve(app, site, env) as (port, pid):
            for tool in tools:
                requests = requests_for(tool, port, ids, mcp)
                for level in levels:
                    cpu0, wall0 = process_cpu(pid), time.perf_counter()
                    result = run_client(requests, port, level, duration, -1, mcp)
                    busy = (process_cpu(pid) - cpu0) / (time.perf_counter() - wall0)
                    result["server_cpu"] = busy
                    result["server_ms_per_request"] = 1000 * busy / max(result["throughput"], 1e-9)
                    cells.append(Cell(server, tool, level, result))
                    print(
                        f"  {server} {tool} c={level}: {result['throughput']:.0f}/s",
                        file=sys.stderr,
                    )
    return cells


def measure_memory(
    site: Path, total: int, steps: int, concurrency: int, sidecar_app: str = SIDECAR_APP
) -> list[tuple[int, float]]:
    """Sidecar RSS (MiB) after startup and after each of `steps` equal slices of `total` calls."""
    ids = site_ids(site)
    points: list[tuple[int, float]] = []
    with serve(sidecar_app, site) as (port, pid):
        requests = requests_for("get_model", port, ids, True)
        run_client(requests, port, 1, 60.0, 1, True)  # the first call loads the site
        points.append((0, rss_mib(pid)))
        done = 0
        for _ in range(steps):
            slice_ = total // steps
            result = run_client(requests, port, concurrency, 3600.0, slice_, True)
            if result["errors"]:
                raise RuntimeError(f"{result['errors']} errors during the memory run")
            done += result["requests"]
            points.append((done, rss_mib(pid)))
    return points


def report(cells: Sequence[Cell], memory: Sequence[tuple[int, float]]) -> str:
    """The Markdown tables."""
    rows = []
    base = {(c.tool, c.concurrency): c.result for c in cells if c.server == "baseline"}
    for cell in cells:
        r = cell.result
        ratio = ""
        if cell.server != "baseline" and (cell.tool, cell.concurrency) in base:
            ratio = f"{r['throughput'] / base[(cell.tool, cell.concurrency)]['throughput']:.2f}"
        rows.append(
            [
                cell.server, cell.tool, cell.concurrency, r["requests"], r["errors"],
                float(r["throughput"]), float(r["p50_ms"]), float(r["p95_ms"]),
                float(r["p99_ms"]), r["response_bytes"], f"{r['server_cpu']:.0%}",
                float(r["server_ms_per_request"]), f"{r['client_cpu']:.0%}", ratio,
            ]
        )  # fmt: skip
    matrix = table(
        [
            "server", "tool", "conc", "requests", "errors", "req/s", "p50 ms", "p95 ms",
            "p99 ms", "bytes/resp", "server CPU", "server CPU ms/req", "client CPU",
            "sidecar/baseline",
        ],
        rows,
    )  # fmt: skip
    mem = table(["requests served", "sidecar RSS MiB"], [[n, float(f"{v:.1f}")] for n, v in memory])
    return f"{matrix}\n\n{mem}\n"


def main(argv: Sequence[str] | None = None) -> None:
    """Command line: see --help."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--models", type=int, default=1000, help="synthetic models to build")
    parser.add_argument("--benchmarks", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--site", type=Path, help="use this built site instead of building one")
    parser.add_argument("--duration", type=float, default=10.0, help="seconds per measurement")
    parser.add_argument("--concurrency", default="1,16,64")
    parser.add_argument("--tools", default=",".join(TOOLS))
    parser.add_argument("--memory-requests", type=int, default=50_000)
    parser.add_argument("--memory-concurrency", type=int, default=16)
    parser.add_argument("--json", type=Path, help="also write the raw results here")
    parser.add_argument("--sidecar-app", default=SIDECAR_APP, help="uvicorn app spec to test")
    parser.add_argument(
        "--sdk-path-too",
        action="store_true",
        help=f"also measure the sidecar with its fast path off ({FAST_PATH_ENV}=0)",
    )
    args = parser.parse_args(argv)
    levels = [int(v) for v in args.concurrency.split(",")]
    tools = [t for t in args.tools.split(",") if t]
    with tempfile.TemporaryDirectory(prefix="mcp-load-") as tmp:
        site = args.site or build_site_for(args.models, args.benchmarks, args.seed, Path(tmp))
        models = len(site_ids(site)["models"])
        print(f"site: {models} models; {args.duration:g}s per cell", file=sys.stderr)
        cells = measure_matrix(
            site, tools, levels, args.duration, args.sidecar_app, args.sdk_path_too
        )
        memory = measure_memory(
            site, args.memory_requests, 10, args.memory_concurrency, args.sidecar_app
        )
    print(f"## Sidecar load ({models} models, {args.duration:g} s per cell)\n")
    print(report(cells, memory))
    if args.json:
        raw = {"models": models, "cells": [c.__dict__ for c in cells], "memory": memory}
        args.json.write_text(json.dumps(raw, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
