"""The staging tree prepared by a forked child while the build computes.

With a spare tree to update, a `SpareCheck` child checks it against its record (a `stat`
of every file, about 58,000 at 10,000 models) while the build loads; the first file
takes its answer (or, if it gave none, checks the spare then, as without it).

The first rebuild after a cold build has no spare tree: every unchanged file would be
hard-linked from the live site into the staging tree as it comes (about 58,000 links at
10,000 models, in the render and pages stages). A `LinkedCopy` forks a child when the
writer opens (before the build starts any thread or worker) that makes those links into
a new staging tree while the parent loads and scores; the writer then takes the copy as
its spare (`SiteWriter.start_linking`). A child process, not a thread: a thread's many
short system calls each take the GIL back and slow the build's own work about as much
as they save. The child runs at the lowest priority (idle time only) and stops where it
is when the first file comes: the files it did not get to are linked as they come, as
without it, so a busy machine costs the build nothing but the fork.

The child checks each link against the live record (size, mtime, inode): a file changed
since its build is unlinked and reported, and made again as without the copy. It reports
over a pipe (the paths not kept, then an end mark); anything else (a failed link, a
kill, a missing end mark) means the copy failed and is deleted.

A killed build must not leave the child behind: it closes every inherited descriptor
but its pipe (the writer's `flock` on the parent folder among them, so it never holds
the lock), asks the kernel to kill it when the build dies (`PR_SET_PDEATHSIG`, Linux)
and stops if the build is already gone; elsewhere there is no copy. Its staging tree is
a `.<name>.staging-*` folder: debris that the next build's recovery deletes.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import os
import signal
import sys
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Protocol

_PR_SET_PDEATHSIG = 1
_END = b"\0end\0"


class Identity(Protocol):
    """What the record says of a live file."""

    @property
    def size(self) -> int: ...
    @property
    def mtime_ns(self) -> int: ...
    @property
    def inode(self) -> int: ...


class _Child:
    """A forked child tied to the build (`_fork`) that reports over a pipe: `_child(write)`
    runs in it; the parent collects the report once (`_collect`) or stops it (`stop`)."""

    def __init__(self) -> None:
        self._pid = 0
        self._read = -1

    def start(self) -> None:
        """Fork the child (OSError when it cannot be)."""
        self._pid, self._read = _fork(self._child)

    def stop(self) -> None:
        """Kill the child, if still running, and reap it."""
        _kill(self._pid, self._read)
        self._pid, self._read = 0, -1

    def _collect(self) -> bytes | None:
        """The child's report, waiting for it to exit (`_report`); the pipe is closed
        whatever happens, the child reaped unless the wait was cut short."""
        try:
            report = _report(self._pid, self._read)
        finally:
            self._read = -1
        self._pid = 0
        return report

    def _child(self, write: int) -> int:  # pragma: no cover - runs in the child
        raise NotImplementedError


class LinkedCopy(_Child):
    """Hard links of the files of `live` (the live site's record) from `source` into the
    empty folder `target` (folders made with `mode`), by a forked child."""

    def __init__(self, source: Path, target: Path, live: Mapping[str, Identity], mode: int):
        super().__init__()
        self.source = os.fspath(source)
        self.target = os.fspath(target)
        self.live = live
        self.mode = mode

    @staticmethod
    def available() -> bool:
        """Whether a child can be tied to the build's life here (Linux prctl)."""
        return sys.platform.startswith("linux") and hasattr(os, "fork")

    def result(self, stop: bool = True) -> tuple[int, set[str]] | None:
        """The copy so far (the child is told to stop where it is, unless not `stop`): how
        many of `live`'s files, in order, it went through, and those of them it did not
        keep; None when it failed."""
        if not self._pid:
            return None
        if stop:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self._pid, signal.SIGUSR1)
        report = self._collect()
        if report is None:
            return None
        count, *missed = report.split(b"\0")
        return int(count), {rel.decode() for rel in missed if rel}

    def _child(self, write: int) -> int:  # pragma: no cover - runs in the child
        stopped: list[bool] = []
        signal.signal(signal.SIGUSR1, lambda *_: stopped.append(True))
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGUSR1})
        with contextlib.suppress(OSError):
            os.nice(19)  # idle time only: never slower than the build without it
        count, missed = self._link_all(stopped)
        _send(write, b"\0".join([str(count).encode(), *(rel.encode() for rel in missed)]) + _END)
        return 0

    def _link_all(self, stopped: list[bool]) -> tuple[int, list[str]]:  # pragma: no cover
        made = {""}
        missed: list[str] = []
        count = 0
        for rel, state in self.live.items():
            if stopped:
                break
            count += 1
            folder = rel.rpartition("/")[0]
            if folder not in made:
                self._folder(folder, made)
            target = f"{self.target}/{rel}"
            try:
                os.link(f"{self.source}/{rel}", target, follow_symlinks=False)
            except FileNotFoundError:
                missed.append(rel)  # gone from the live site
                continue
            found = os.lstat(target)
            if (found.st_size, found.st_mtime_ns, found.st_ino) != (
                state.size,
                state.mtime_ns,
                state.inode,
            ):
                os.unlink(target)  # changed since its build: made again by the build
                missed.append(rel)
        self._prune(rel.rpartition("/")[0] for rel in missed)
        return count, missed

    def _folder(self, folder: str, made: set[str]) -> None:  # pragma: no cover - child
        parts = folder.split("/")
        for depth in range(1, len(parts) + 1):
            path = "/".join(parts[:depth])
            if path not in made:
                with contextlib.suppress(FileExistsError):
                    os.mkdir(f"{self.target}/{path}", self.mode)
                made.add(path)

    def _prune(self, folders: Iterable[str]) -> None:  # pragma: no cover - child
        """Remove the folders left empty by files not kept (a clean build has none)."""
        for folder in sorted(set(folders), key=len, reverse=True):
            while folder:
                try:
                    os.rmdir(f"{self.target}/{folder}")
                except OSError as exc:
                    if exc.errno in (errno.ENOTEMPTY, errno.EEXIST):
                        break
                    if exc.errno != errno.ENOENT:
                        raise
                folder = folder.rpartition("/")[0]


class SpareCheck(_Child):
    """Whether the spare tree is exactly its record (`check`: `writer.is_recorded` of it),
    found by a forked child while the build loads: about 58,000 `stat` calls at 10,000
    models that the build would otherwise make before its first stage."""

    def __init__(self, check: Callable[[], bool]) -> None:
        super().__init__()
        self.check = check

    def result(self) -> bool | None:
        """The child's answer (waiting for it); None when it failed or was never started."""
        if not self._pid:
            return None
        report = self._collect()
        return {b"1": True, b"0": False}.get(report) if report is not None else None

    def _child(self, write: int) -> int:  # pragma: no cover - runs in the child
        _send(write, (b"1" if self.check() else b"0") + _END)
        return 0


def _fork(child: Callable[[int], int]) -> tuple[int, int]:
    """Fork a child that runs `child(write end of a pipe)` and exits with its code, tied
    to the build (`_detach`); returns its pid and the pipe's read end."""
    read, write = os.pipe()
    parent = os.getpid()
    # A stop signal is held until the child handles it (not its default: death).
    held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGUSR1})
    try:
        pid = os.fork()
    except OSError:
        os.close(read)
        os.close(write)
        raise
    finally:
        if os.getpid() == parent:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)
    if pid == 0:  # pragma: no cover - the child (covered by the tests, not measured)
        code = 1
        try:
            os.close(read)
            _detach(write, parent)
            code = child(write)
        finally:
            os._exit(code)
    os.close(write)
    return pid, read


def _report(pid: int, read: int) -> bytes | None:
    """What the child `pid` wrote on its pipe before the end mark, once it has exited (the
    pipe closed, the child reaped); None unless it exited 0 after writing the end mark."""
    chunks: list[bytes] = []
    try:
        while chunk := os.read(read, 1 << 16):
            chunks.append(chunk)
    except OSError:
        chunks = []
    finally:
        os.close(read)
    _, status = os.waitpid(pid, 0)
    report = b"".join(chunks)
    if not (os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0 and report.endswith(_END)):
        return None
    return report[: -len(_END)]


def _send(write: int, data: bytes) -> None:  # pragma: no cover - runs in the child
    view = memoryview(data)
    while view:
        view = view[os.write(write, view) :]


def _kill(pid: int, read: int) -> None:
    """Kill the child `pid` (0: none), if still running, and reap it; close its pipe's
    read end `read` (-1: closed already)."""
    if pid:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
        with contextlib.suppress(ChildProcessError):  # reaped already
            os.waitpid(pid, 0)
    if read >= 0:
        os.close(read)


def _detach(keep: int, parent: int) -> None:  # pragma: no cover - runs in the child
    """Tie the child to the build: no descriptor but `keep` (so not the writer's lock),
    killed when the build dies, and gone at once if it already has."""
    for name in os.listdir("/proc/self/fd"):
        if int(name) > 2 and int(name) != keep:
            with contextlib.suppress(OSError):
                os.close(int(name))
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) != 0:
        os._exit(1)
    if os.getppid() != parent:
        os._exit(1)
