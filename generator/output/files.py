"""Files kept beside the site (or read back from it): read without blocking, replaced whole.

Bytes and paths only: the caches beside the site (`generator/cache/`) and the reuse of the
live site's files read and write through these, so a FIFO or a symlink planted where a
file goes is refused or replaced, never followed, and a killed build leaves whole files.
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import stat
from pathlib import Path


def read_cache_file(path: Path) -> bytes:
    """The bytes of a file kept beside the site (or in it); OSError unless a regular file.

    Opened without blocking and checked on the opened file: a FIFO or device found where
    a cache file goes is refused (read as nothing kept) instead of blocking the build.
    Unbuffered, as fast as `Path.read_bytes` (the site's reused files are read this way).
    """
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, "not a regular file", str(path))
        file = io.FileIO(fd, "rb")
    except BaseException:
        os.close(fd)
        raise
    with file:
        return file.readall()


def write_cache_file(path: Path, data: bytes) -> None:
    """Write `data` to a new file at `path` (a temporary name its caller renames); OSError.

    Created exclusively without following links; whatever is already there (a killed
    build's file, a symlink planted there) is unlinked and the creation tried once more, so
    a link is replaced, never written through (its target, anywhere, is left untouched).
    """
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    try:
        fd = os.open(path, flags, 0o644)
    except FileExistsError:
        os.unlink(path)
        fd = os.open(path, flags, 0o644)
    with open(fd, "wb") as file:
        file.write(data)


def temporary_path(path: Path) -> Path:
    """The name a file kept beside the site is written to before it is renamed to `path`."""
    return path.with_name(path.name + ".tmp")


def replace_cache_file(path: Path, data: bytes) -> None:
    """Replace the file at `path` with `data` or leave it as it was; OSError.

    Written to `temporary_path(path)` and renamed, so a killed build leaves whole files (and
    a temporary one the next build removes); a failed write or rename leaves no temporary.
    """
    temporary = temporary_path(path)
    try:
        write_cache_file(temporary, data)
        os.replace(temporary, path)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
