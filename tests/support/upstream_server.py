"""A local HTTP server on 127.0.0.1 that stands in for the upstream sites (no network in tests).

`routes` maps a path (`/x/y.csv`) to a `Route`: a body served whole, or cut short (the
Content-Length promises more than is sent, then the connection closes). Any other path is
a 404.
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass(frozen=True)
class Route:
    body: bytes
    truncate_at: int | None = None  # send only this many bytes of `body`


class _Handler(BaseHTTPRequestHandler):
    routes: dict[str, Route] = {}

    def do_GET(self) -> None:
        route = self.routes.get(self.path.split("#", 1)[0])
        if route is None:
            self.send_error(404, "Not Found")
            return
        self.send_response(200)
        self.send_header("Content-Length", str(len(route.body)))
        self.end_headers()
        sent = route.body if route.truncate_at is None else route.body[: route.truncate_at]
        self.wfile.write(sent)
        if route.truncate_at is not None:
            self.wfile.flush()
            self.close_connection = True

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 (the base's name)
        """Quiet."""


@contextmanager
def upstream_server(routes: dict[str, Route]) -> Iterator[str]:
    """Serve `routes`; yields the base URL (`http://127.0.0.1:PORT`)."""
    handler = type("Handler", (_Handler,), {"routes": routes})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def refused_url() -> str:
    """An http URL on 127.0.0.1 where nothing listens (a port just freed)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"http://127.0.0.1:{port}/file.csv"
