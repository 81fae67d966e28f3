"""Run the MCP sidecar with uvicorn on a free local port, in a thread, for HTTP tests."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import uvicorn
from starlette.applications import Starlette


@dataclass(frozen=True)
class Live:
    """A running sidecar: its base URL and the MCP endpoint URL."""

    base: str
    port: int

    @property
    def mcp_url(self) -> str:
        return f"{self.base}/api/mcp"


@contextmanager
def serve(app: Starlette, startup_timeout: float = 20.0) -> Iterator[Live]:
    """Serve `app` on 127.0.0.1 (a free port) until the block exits."""
    # IPPROTO_TCP named, not 0: asyncio sets TCP_NODELAY only on sockets whose proto says
    # TCP, and connections accepted from a proto-0 socket keep Nagle's algorithm, which
    # with the client's delayed ACK stalls each response about 40 ms (a uvicorn that
    # binds its own port, as `modelscores mcp` does, gets TCP_NODELAY).
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + startup_timeout
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the MCP sidecar did not start")
        time.sleep(0.02)
    try:
        yield Live(f"http://127.0.0.1:{port}", port)
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()
