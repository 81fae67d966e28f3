"""A small HTTP/1.1 keep-alive load client on raw asyncio streams.

Run as its own process (pinned to its own core by `bench.mcp_load`) so that it
does not steal the server's CPU. Each of `concurrency` connections sends one
request, reads the whole response, and sends the next, until a deadline or a
request count is reached. Prints one JSON object: counts, throughput, latencies.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass

from bench.measure import cpu_seconds, percentile


@dataclass
class LoadResult:
    """What one load run measured. Latencies in milliseconds."""

    requests: int
    errors: int
    seconds: float
    throughput: float
    p50_ms: float
    p95_ms: float
    p99_ms: float
    max_ms: float
    response_bytes: int
    client_cpu: float  # client CPU seconds per wall second (1.0 = its core was saturated)


class ResponseError(Exception):
    """The server answered with something other than a complete 200 response."""


async def read_response(reader: asyncio.StreamReader) -> tuple[int, bytes]:
    """Read one HTTP/1.1 response: (status, body). Handles Content-Length and chunked."""
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.split(b"\r\n")
    status = int(lines[0].split(b" ", 2)[1])
    length = -1
    chunked = False
    for line in lines[1:]:
        name, _, value = line.partition(b":")
        lower = name.strip().lower()
        if lower == b"content-length":
            length = int(value)
        elif lower == b"transfer-encoding" and b"chunked" in value.lower():
            chunked = True
    if chunked:
        parts = []
        while True:
            size = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
            if size == 0:
                await reader.readuntil(b"\r\n")
                break
            parts.append(await reader.readexactly(size))
            await reader.readexactly(2)
        return status, b"".join(parts)
    if length < 0:
        raise ResponseError("response without Content-Length")
    return status, await reader.readexactly(length)


def is_error(status: int, body: bytes, mcp: bool) -> bool:
    """A non-200, or an MCP answer that is a JSON-RPC error or a tool error."""
    if status != 200:
        return True
    return mcp and (
        b'"isError":true' in body
        or body.startswith(b'{"jsonrpc":"2.0","id":')
        and b'"error":{' in body[:200]
    )


async def _worker(
    host: str,
    port: int,
    requests: Sequence[bytes],
    start: int,
    stride: int,
    stop: float,
    budget: list[int],
    latencies: list[float],
    mcp: bool,
    totals: list[int],
) -> None:
    reader, writer = await asyncio.open_connection(host, port)
    index = start
    try:
        while time.perf_counter() < stop and budget[0] != 0:
            budget[0] -= 1
            request = requests[index % len(requests)]
            index += stride
            began = time.perf_counter()
            writer.write(request)
            status, body = await read_response(reader)
            latencies.append(time.perf_counter() - began)
            totals[1] += len(body)
            if is_error(status, body, mcp):
                totals[0] += 1
    finally:
        writer.close()


async def run_load(
    host: str,
    port: int,
    requests: Sequence[bytes],
    concurrency: int,
    duration: float,
    count: int = -1,
    warmup: float = 1.0,
    mcp: bool = True,
) -> LoadResult:
    """Drive the server: warm up, then measure for `duration` seconds (or `count` requests)."""
    if warmup > 0:
        await _drive(host, port, requests, concurrency, warmup, -1, mcp)
    return await _drive(host, port, requests, concurrency, duration, count, mcp)


async def _drive(
    host: str,
    port: int,
    requests: Sequence[bytes],
    concurrency: int,
    duration: float,
    count: int,
    mcp: bool,
) -> LoadResult:
    latencies: list[float] = []
    totals = [0, 0]  # errors, response bytes
    budget = [count]
    cpu0, wall0 = cpu_seconds(), time.perf_counter()
    stop = wall0 + duration
    await asyncio.gather(
        *(
            _worker(host, port, requests, i, concurrency, stop, budget, latencies, mcp, totals)
            for i in range(concurrency)
        )
    )
    seconds = time.perf_counter() - wall0
    latencies.sort()
    ms = [v * 1000 for v in latencies]
    return LoadResult(
        requests=len(ms),
        errors=totals[0],
        seconds=seconds,
        throughput=len(ms) / seconds if seconds else 0.0,
        p50_ms=percentile(ms, 50),
        p95_ms=percentile(ms, 95),
        p99_ms=percentile(ms, 99),
        max_ms=ms[-1] if ms else 0.0,
        response_bytes=totals[1] // max(1, len(ms)),
        client_cpu=(cpu_seconds() - cpu0) / seconds if seconds else 0.0,
    )


def main(argv: Sequence[str] | None = None) -> None:
    """Command line used by `bench.mcp_load`: requests come as a JSON list of strings on a file."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--requests-file", required=True)
    parser.add_argument("--concurrency", type=int, default=1)
    parser.add_argument("--duration", type=float, default=10.0)
    parser.add_argument("--count", type=int, default=-1)
    parser.add_argument("--warmup", type=float, default=1.0)
    parser.add_argument("--plain", action="store_true", help="not MCP: only check the status")
    args = parser.parse_args(argv)
    with open(args.requests_file, encoding="utf-8") as handle:
        requests = [r.encode("utf-8") for r in json.load(handle)]
    result = asyncio.run(
        run_load(
            "127.0.0.1",
            args.port,
            requests,
            args.concurrency,
            args.duration,
            args.count,
            args.warmup,
            not args.plain,
        )
    )
    print(json.dumps(asdict(result)))


if __name__ == "__main__":
    main()
