"""What the pages ask of the build: the last build's bytes, workers, and where pages go.

`emit_pages` reuses a page or chart preview whose key matches the previous build and
renders the others, possibly in forked workers, handing each to a `Sink` as it is made
(the build's site writer, which writes it at once, or a dict). The pages own this
protocol; the build supplies the output cache, the worker pool and the writer
(`generator/cache/`). Without them every page is rendered here and kept in a dict.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Protocol, TypeVar

from generator.digests import digest
from generator.errors import BuildError

T = TypeVar("T")


class Outputs(Protocol):
    """Outputs of the previous build, by site path and the key of their inputs."""

    def key(self, parts: Iterable[bytes]) -> bytes:
        """An output key from `parts`, bound to the code version."""
        ...

    def kept(self, path: str, key: bytes) -> bytes | None:
        """The digest of the previous bytes of `path`, when `key` made them and they are
        known to be unchanged without reading them; else None. Records nothing."""
        ...

    def lookup(self, path: str, key: bytes) -> bytes | None:
        """The previous bytes of `path` if they came from `key`, else None; records nothing
        (safe in a worker)."""
        ...

    def record(self, path: str, key: bytes, content: bytes) -> None:
        """Note that `key` produced bytes of digest `content` at `path` in this build."""
        ...

    def produce(self, path: str, key: bytes, make: Callable[[], bytes]) -> bytes:
        """The bytes of `path`: reused when `key` matches, else made (and recorded)."""
        ...


class RenderAll:
    """No previous build: nothing is reused and nothing recorded."""

    def key(self, parts: Iterable[bytes]) -> bytes:
        return digest(*parts)

    def kept(self, path: str, key: bytes) -> bytes | None:
        return None

    def lookup(self, path: str, key: bytes) -> bytes | None:
        return None

    def record(self, path: str, key: bytes, content: bytes) -> None:
        return None

    def produce(self, path: str, key: bytes, make: Callable[[], bytes]) -> bytes:
        return make()


class Sink(Protocol):
    """Where made files go, one at a time. `claim` and `note` run here; `place` may run in a
    forked worker and returns something small to hand back to `note`."""

    def claim(self, path: str) -> None:
        """Check `path` as a new file (an error if it was claimed before)."""
        ...

    def place(self, path: str, data: bytes, digest: bytes) -> Any:
        """Store the claimed `path`'s bytes (`digest`: their `content_digest`)."""
        ...

    def place_kept(self, path: str, digest: bytes) -> Any | None:
        """Store the claimed `path` as the previous build's file of that digest, without
        its bytes; None when that cannot be done (then `place` it)."""
        ...

    def note(self, path: str, placed: Any) -> None:
        """Record what `place` returned for `path`."""
        ...


class Collect:
    """A sink that keeps every file's bytes, by path."""

    def __init__(self) -> None:
        self.files: dict[str, bytes] = {}
        self._claimed: set[str] = set()

    def claim(self, path: str) -> None:
        if path in self._claimed:
            raise BuildError(f"pages: {path} rendered twice")
        self._claimed.add(path)

    def place(self, path: str, data: bytes, digest: bytes) -> bytes:
        return data

    def place_kept(self, path: str, digest: bytes) -> None:
        return None  # the bytes are wanted here

    def note(self, path: str, placed: Any) -> None:
        self.files[path] = placed


class TaskMap(Protocol):
    """`run(task, count)`: `[task(i) for i in range(count)]`, in order (possibly in workers)."""

    def __call__(self, task: Callable[[int], T], count: int, /) -> list[T]: ...


def in_process(task: Callable[[int], T], count: int, /) -> list[T]:
    """Every task in turn, here."""
    return [task(i) for i in range(count)]
