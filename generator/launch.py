"""Starting a server from the command line: take the address, run uvicorn.

Everything a user can get wrong here (a port already in use, a host that does not resolve;
and, checked by the CLI with `BUILD_HINT`, no build in the site directory) is checked
before uvicorn starts and raised as one `ServeError` line with a hint, so the CLI prints it
like any other error: no traceback, no "Application startup failed" after a "startup
complete".
"""

from __future__ import annotations

import errno
import os
import socket

import click
import uvicorn
from starlette.types import ASGIApp

from generator.errors import GeneratorError
from generator.header_timeout import HeaderTimeoutProtocol

BUILD_HINT = "run `modelscores build` first"
PORT_HINT = "use --port to choose another port"


class ServeError(GeneratorError):
    """A server cannot start: no valid build to serve, or the address cannot be taken."""


def listen(host: str, port: int) -> socket.socket:
    """A socket bound to `host:port` (uvicorn listens on it), or `ServeError` saying why not."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    except socket.gaierror as exc:
        raise ServeError(
            f"--host {host}: {exc.strerror}; use a name or address of this machine"
        ) from None
    sock = socket.socket(family, kind, proto)
    try:
        if os.name == "posix":  # as uvicorn does: a restarted server can take its port at once
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
    except OSError as exc:
        sock.close()
        raise ServeError(f"cannot listen on {host}:{port}: {_why(exc)}") from None
    return sock


def _why(exc: OSError) -> str:
    if exc.errno == errno.EADDRINUSE:
        return f"the port is already in use; {PORT_HINT}"
    if exc.errno == errno.EACCES:
        return f"permission denied; {PORT_HINT} (1024 or above)"
    if exc.errno == errno.EADDRNOTAVAIL:
        return "no such address on this machine; use --host 127.0.0.1 or 0.0.0.0"
    return exc.strerror or str(exc)


def run_app(app: ASGIApp, sock: socket.socket, url: str) -> None:
    """Serve `app` on `sock` (announced as `url`) until interrupted."""
    click.echo(f"Serving {url} (Ctrl+C to stop)")
    host, port = sock.getsockname()[:2]
    config = uvicorn.Config(app, host=host, port=port, log_level="info", http=HeaderTimeoutProtocol)
    uvicorn.Server(config).run(sockets=[sock])
