"""What the pages ask of the build: the last build's bytes, and workers to render the rest.

`render_pages` reuses a page or chart preview whose key matches the previous build and
renders the others, possibly in forked workers. The pages own this protocol; the build
supplies the output cache and the worker pool (`generator/output/`). Without them every
page is rendered here, in this process.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Protocol

from generator.digests import digest


class Outputs(Protocol):
    """Outputs of the previous build, by site path and the key of their inputs."""

    def key(self, parts: Iterable[bytes]) -> bytes:
        """An output key from `parts`, bound to the code version."""
        ...

    def reused(self, path: str, key: bytes) -> bytes | None:
        """The previous bytes of `path` if they came from `key`, else None."""
        ...

    def record(self, path: str, key: bytes, data: bytes) -> None:
        """Note that `key` produced `data` at `path` in this build."""
        ...

    def produce(self, path: str, key: bytes, make: Callable[[], bytes]) -> bytes:
        """The bytes of `path`: reused when `key` matches, else made (and recorded)."""
        ...


class RenderAll:
    """No previous build: nothing is reused and nothing recorded."""

    def key(self, parts: Iterable[bytes]) -> bytes:
        return digest(*parts)

    def reused(self, path: str, key: bytes) -> bytes | None:
        return None

    def record(self, path: str, key: bytes, data: bytes) -> None:
        return None

    def produce(self, path: str, key: bytes, make: Callable[[], bytes]) -> bytes:
        return make()


TaskMap = Callable[[Callable[[int], bytes], int], list[bytes]]
"""`run(task, count)`: `[task(i) for i in range(count)]`, in order (possibly in workers)."""


def in_process(task: Callable[[int], bytes], count: int) -> list[bytes]:
    """Every task in turn, here."""
    return [task(i) for i in range(count)]
