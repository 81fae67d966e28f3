"""uvicorn's HTTP/1.1 protocol with a header and body timeout: a connection that sends no
complete request within `HEADER_TIMEOUT` seconds is closed.

uvicorn closes an idle connection only after a response (its keep-alive timeout); a client
that opens a connection and sends half a request line, half its headers, or complete
headers and then only part of the body its `Content-Length` promised, is held open for
ever. Thousands of those (slowloris) use up the server's descriptors and memory. Here a
timer checks each connection every `HEADER_TIMEOUT` seconds: one with no request in
progress and no request finished since the last check is closed, and so is one whose
request was still short of its body at the last check and still is (so a body gets between
one and two timeouts). A request being answered (however long) is never cut.

Test-only knob: the test suite starts its servers with `MODELSCORES_TEST_HEADER_TIMEOUT` set
to a few seconds (a positive number of seconds, read once here when the module is imported),
so that its slowloris tests wait seconds instead of the shipped 10 s. Nothing shipped sets it
(the Dockerfile, the CLI and the docs run with `HEADER_TIMEOUT`; tests check so); a value that
is not a positive number is ignored.
"""

from __future__ import annotations

import asyncio
import math
import os

from uvicorn.protocols.http.h11_impl import H11Protocol, RequestResponseCycle

HEADER_TIMEOUT = 10.0
TEST_TIMEOUT_VARIABLE = "MODELSCORES_TEST_HEADER_TIMEOUT"


def _timeout(value: str | None) -> float:
    """`HEADER_TIMEOUT`, or the test suite's shorter timeout given in `value`."""
    try:
        seconds = float(value) if value is not None else HEADER_TIMEOUT
    except ValueError:
        return HEADER_TIMEOUT
    return seconds if math.isfinite(seconds) and seconds > 0 else HEADER_TIMEOUT


class HeaderTimeoutProtocol(H11Protocol):
    """`H11Protocol` closing connections that send no complete request (headers and body)
    within `HEADER_TIMEOUT`."""

    header_timeout = _timeout(os.environ.get(TEST_TIMEOUT_VARIABLE))

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._finished = 0
        self._header_timer: asyncio.TimerHandle | None = None
        self._arm(self._finished, None)

    def _arm(self, finished: int, receiving: RequestResponseCycle | None) -> None:
        self._header_timer = self.loop.call_later(
            self.header_timeout, self._check, finished, receiving
        )

    def _receiving(self) -> RequestResponseCycle | None:
        """The request whose headers arrived but whose body has not all come, if any (its
        app may be waiting for the body; it has not begun to answer)."""
        cycle = self.cycle
        if cycle is None or not cycle.more_body or cycle.response_started:
            return None
        return cycle

    def _check(self, finished_before: int, receiving_before: RequestResponseCycle | None) -> None:
        self._header_timer = None
        if self.transport.is_closing():
            return
        receiving = self._receiving()
        if receiving is not None and receiving is receiving_before:
            self.transport.close()  # a whole timeout (or more) short of its body
            return
        answering = self.cycle is not None and not self.cycle.response_complete
        if not answering and self._finished == finished_before:
            self.transport.close()
            return
        self._arm(self._finished, receiving)

    def on_response_complete(self) -> None:
        self._finished += 1
        super().on_response_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None
        super().connection_lost(exc)
