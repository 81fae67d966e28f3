"""What `modelscores diff` compares: a built site, a data directory, or `data/` at a git
revision (`git:REV`). The last two are built first (their API files only), into a temporary
directory.

A revision comes from a pull request, so its tree is untrusted: its entries are listed with
their sizes first (`git ls-tree -l`, no blob read), anything a checkout of `data/` could not
hold is refused in one line (a symlink, a submodule, a file over the loader's size limit, a
tree over the whole-tree limits of `generator/input/limits.py`), and only then are the blobs
streamed to disk in bounded chunks (`git cat-file --batch`): no blob is ever held whole.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path, PurePosixPath
from typing import IO, NamedTuple

from generator.api.contract import MODELS
from generator.api.urls import api_file, site_config
from generator.build import build_api
from generator.diff.snapshot import DiffError, Snapshot, read_snapshot
from generator.errors import DataError, GeneratorError
from generator.input.limits import MAX_TREE_BYTES, MAX_TREE_ENTRIES
from generator.input.load import MAX_FILE_BYTES, METHODOLOGY_FILE, SYMLINK, ignored

GIT_PREFIX = "git:"
DATA_FOLDER = "data"
CHUNK = 64 * 1024
REGULAR_MODES = ("100644", "100755")


def snapshot_of(source: str, scratch: Path) -> Snapshot:
    """`source` read for comparison, built into a folder of `scratch` if need be; for a git
    revision, no problem names that folder (`_in_repository`)."""
    site = built_site(source, scratch)
    try:
        return read_snapshot(site)
    except GeneratorError as exc:
        if not source.startswith(GIT_PREFIX):
            raise
        raise _in_repository(exc, site, f"{source}: build") from None


def built_site(source: str, scratch: Path) -> Path:
    """A built site for `source`, building into a folder of `scratch` if needed."""
    if source.startswith(GIT_PREFIX):
        data_dir = _data_at_revision(source.removeprefix(GIT_PREFIX), scratch)
        try:
            return _build(data_dir, scratch)
        except GeneratorError as exc:
            raise _in_repository(exc, data_dir.parent, source) from None
    path = Path(source)
    if (path / api_file(MODELS.path)).is_file():
        return path
    if (path / METHODOLOGY_FILE).is_file():
        return _build(path, scratch)
    raise DiffError(
        f"{source}: neither a built site (no {api_file(MODELS.path)}) nor a data directory"
        f" (no {METHODOLOGY_FILE}); for a git revision write {GIT_PREFIX}REV"
    )


def _in_repository(exc: GeneratorError, checkout: Path, source: str) -> GeneratorError:
    """`exc` with the temporary checkout's paths written as `git:REV: ` and the path inside
    the repository (`git:HEAD: data/models/x.toml: name: missing`): a reader can find the
    file, and no path of this machine is printed."""

    def named(line: str) -> str:
        line = line.replace(f"{checkout}{os.sep}", f"{source}: ")
        return line.replace(str(checkout), source)

    if isinstance(exc, DataError):
        return DataError(named(problem) for problem in exc.problems)
    return DiffError(named(str(exc)))


def _build(data_dir: Path, scratch: Path) -> Path:
    """The API files of a build of `data_dir`, written into a new folder of `scratch`: all a
    comparison reads (the pages and previews are not made)."""
    out = scratch / f"site-{len(list(scratch.iterdir()))}"
    for path, data in build_api(data_dir, site_config("http://127.0.0.1:8000")).items():
        target = out / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    return out


class _Blob(NamedTuple):
    object_id: str
    size: int
    path: PurePosixPath


def _data_at_revision(revision: str, scratch: Path) -> Path:
    """`data/` as committed at `revision` of the repository in the working directory."""
    if not revision or revision.startswith("-"):
        raise DiffError(f"{GIT_PREFIX}{revision}: not a git revision")
    blobs = _listed_blobs(revision)
    target = scratch / f"data-{len(list(scratch.iterdir()))}"
    _stream_blobs(revision, blobs, target)
    return target / DATA_FOLDER


class _Git:
    """One git command whose output is read as a stream; its errors go to a file (a pipe
    left unread could block it)."""

    def __init__(self, revision: str, *args: str, stdin: IO[bytes] | None = None) -> None:
        self.revision = revision
        self.errors = tempfile.TemporaryFile()
        try:
            self.process = subprocess.Popen(
                ["git", *args], stdin=stdin, stdout=subprocess.PIPE, stderr=self.errors
            )
        except FileNotFoundError:
            self.errors.close()
            raise DiffError(f"{GIT_PREFIX}{revision}: git is not installed") from None
        assert self.process.stdout is not None
        self.stdout: IO[bytes] = self.process.stdout

    def stop(self) -> None:
        """End the command early (its output is not wanted)."""
        self.process.kill()
        self.process.wait()
        self.stdout.close()
        self.errors.close()

    def finish(self, what: str) -> None:
        """Wait for the command; a failure is one line with git's own words."""
        self.stdout.close()
        code = self.process.wait()
        self.errors.seek(0)
        detail = " ".join(self.errors.read(4096).decode(errors="replace").split())
        self.errors.close()
        if code != 0:
            raise DiffError(f"{GIT_PREFIX}{self.revision}: {detail or what + ' failed'}")


def _listed_blobs(revision: str) -> list[_Blob]:
    """Every file of `data/` at `revision` with its size, checked against the limits."""
    git = _Git(revision, "ls-tree", "-r", "-l", "-z", "--full-tree", revision, "--", DATA_FOLDER)
    blobs: list[_Blob] = []
    total = 0
    try:
        for number, entry in enumerate(_records(git.stdout), start=1):
            blob = _listed(revision, entry)
            if blob is not None:
                blobs.append(blob)
                total += blob.size
            if number > MAX_TREE_ENTRIES:
                raise DiffError(
                    f"{GIT_PREFIX}{revision}: {DATA_FOLDER}: directory: more than"
                    f" {MAX_TREE_ENTRIES:,} files (the limit is {MAX_TREE_ENTRIES:,})"
                )
            if total > MAX_TREE_BYTES:
                raise DiffError(
                    f"{GIT_PREFIX}{revision}: {DATA_FOLDER}: directory: more than"
                    f" {MAX_TREE_BYTES // (1024 * 1024)} MiB of files (the limit is"
                    f" {MAX_TREE_BYTES // (1024 * 1024)} MiB)"
                )
    except DiffError:
        git.stop()
        raise
    git.finish("git ls-tree")
    return blobs


def _listed(revision: str, entry: bytes) -> _Blob | None:
    """The blob of one `git ls-tree` record, or None for a path the build leaves alone
    (`ignored`: `data/.root`, `data/models/.notes`), unchecked as `build` does."""
    name = entry.partition(b"\t")[2].decode("utf-8", errors="replace")
    return None if ignored(name.split("/")[1:]) else _blob(revision, entry)


def _records(stream: IO[bytes]) -> Iterator[bytes]:
    """The NUL-terminated records of `stream`, read in chunks (a record is one short line)."""
    pending = b""
    while chunk := stream.read(CHUNK):
        pending += chunk
        *records, pending = pending.split(b"\0")
        yield from records
        if len(pending) > CHUNK:
            raise DiffError("git ls-tree: an entry longer than 64 KiB")
    if pending:
        yield pending


def _blob(revision: str, entry: bytes) -> _Blob:
    """One `git ls-tree -l -z` record (`MODE TYPE OBJECT SIZE\\tPATH`), refused unless it is a
    regular file of at most `MAX_FILE_BYTES` at a plain relative path."""
    head, _, raw_path = entry.partition(b"\t")
    name = raw_path.decode("utf-8", errors="replace")
    mode, kind, object_id, size = (head.decode("ascii", errors="replace").split() + ["", "", ""])[
        :4
    ]
    where = f"{GIT_PREFIX}{revision}: {name}: file"
    if mode == "120000":
        raise DiffError(f"{where}: {SYMLINK}")
    if kind != "blob" or mode not in REGULAR_MODES or not size.isdigit():
        raise DiffError(f"{where}: not a regular file (data/ holds only regular files and folders)")
    path = PurePosixPath(name)
    if path.is_absolute() or any(part in ("", ".", "..") for part in name.split("/")):
        raise DiffError(f"{where}: not a plain relative path")
    if int(size) > MAX_FILE_BYTES:
        raise DiffError(f"{where}: too large ({size} bytes; the limit is 5 MB)")
    return _Blob(object_id, int(size), path)


def _stream_blobs(revision: str, blobs: list[_Blob], target: Path) -> None:
    """Write each blob to `target / path` through `git cat-file --batch`, `CHUNK` at a time."""
    with tempfile.TemporaryFile() as requests:
        requests.write(b"".join(f"{blob.object_id}\n".encode() for blob in blobs))
        requests.seek(0)
        git = _Git(revision, "cat-file", "--batch", stdin=requests)
        try:
            for blob in blobs:
                _copy_one(revision, git.stdout, blob, target)
        except BaseException:
            git.stop()
            raise
        git.finish("git cat-file")


def _copy_one(revision: str, stream: IO[bytes], blob: _Blob, target: Path) -> None:
    header = stream.readline(200).split()
    if len(header) != 3 or header[1] != b"blob" or int(header[2]) != blob.size:
        raise DiffError(f"{GIT_PREFIX}{revision}: {blob.path}: git cat-file gave no such blob")
    path = target / blob.path
    path.parent.mkdir(parents=True, exist_ok=True)
    left = blob.size
    with path.open("xb") as file:
        while left:
            chunk = stream.read(min(CHUNK, left))
            if not chunk:
                raise DiffError(f"{GIT_PREFIX}{revision}: {blob.path}: cut short by git")
            file.write(chunk)
            left -= len(chunk)
    stream.read(1)  # the newline after each object
