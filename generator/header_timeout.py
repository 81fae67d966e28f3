"""uvicorn's HTTP/1.1 protocol with a header timeout: a connection that sends no complete
request within `HEADER_TIMEOUT` seconds is closed.

uvicorn closes an idle connection only after a response (its keep-alive timeout); a client
that opens a connection and sends half a request line, or half its headers, is held open
for ever. Thousands of those (slowloris) use up the server's descriptors and memory. Here a
timer checks each connection every `HEADER_TIMEOUT` seconds: one with no request in progress
and no request finished since the last check is closed. A request being answered (however
long) is never cut.
"""

from __future__ import annotations

import asyncio

from uvicorn.protocols.http.h11_impl import H11Protocol

HEADER_TIMEOUT = 10.0


class HeaderTimeoutProtocol(H11Protocol):
    """`H11Protocol` closing connections that finish no request within `HEADER_TIMEOUT`."""

    header_timeout = HEADER_TIMEOUT

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._finished = 0
        self._header_timer: asyncio.TimerHandle | None = None
        self._arm(self._finished)

    def _arm(self, finished: int) -> None:
        self._header_timer = self.loop.call_later(self.header_timeout, self._check, finished)

    def _check(self, finished_before: int) -> None:
        self._header_timer = None
        if self.transport.is_closing():
            return
        answering = self.cycle is not None and not self.cycle.response_complete
        if not answering and self._finished == finished_before:
            self.transport.close()
            return
        self._arm(self._finished)

    def on_response_complete(self) -> None:
        self._finished += 1
        super().on_response_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None
        super().connection_lost(exc)
