"""The build cache: what the last build was made from, so a rebuild can skip the same work.

One file beside the output directory, `.<name>.build-cache` (never inside the published
tree), holds:

- `inputs`: a digest of everything a build reads (the data files' bytes and kinds, the
  generator's code, templates and static files, the versions of the libraries that shape
  the bytes, the site configuration) and `trees`: the writer's record of the site that
  build left and of the spare tree beside it (each file's size, mtime, inode and digest;
  `generator/output/writer.py`). When both still match, the live site is exactly what a
  build would write now, and the build stops there.
- `outputs`: for each cached output path, the key of its inputs (a hash the producer
  computes, always including `code`) and the digest of the bytes it produced. A later
  build with the same key reuses the live file's bytes, but only after hashing them back
  to that digest, so a file changed or replaced since is produced again.

Reuse rests on one rule: bytes are reused only when they hash to what the same key
produced before. A missing, truncated, foreign or older-format cache decodes to an empty
one (a full build); the file is replaced atomically after the site is swapped in, so a
build killed at any point leaves the previous cache or the new one, and either is safe.
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import stat
import sys
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

import msgspec

from generator.digests import content_digest, digest, file_digest
from generator.input.limits import tree_problems
from generator.output.writer import FileState, Trees, holds, interrupted, is_recorded

FORMAT = 2
CACHE_SUFFIX = ".build-cache"
HISTORY_CACHE_SUFFIX = ".build-cache-history"
RECORDS_CACHE_SUFFIX = ".build-cache-records"
LIBRARIES = ("msgspec", "rtoml", "jinja2", "markupsafe", "resvg-py")
"""Distributions whose version can change the bytes of a build (besides our own code)."""

_PACKAGE = Path(__file__).resolve().parent.parent  # the generator package


def _tree_digest(root: Path, skip: Callable[[str], bool] = lambda _: False) -> bytes:
    """Digest of every entry under `root`: relative path, kind and bytes (or link target).

    Follows no symbolic link: a link is hashed as its target text, so replacing a file by
    a link (which the loader refuses) changes the digest. Opens regular files only, so a
    FIFO planted in data/ cannot hang the build before the loader refuses it.
    """
    entries: list[bytes] = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not skip(d))
        here = Path(dirpath)
        for name in sorted(filenames) + [d for d in dirnames if (here / d).is_symlink()]:
            if skip(name):
                continue
            path = here / name
            rel = path.relative_to(root).as_posix().encode()
            mode = path.lstat().st_mode
            if stat.S_ISLNK(mode):
                entries.append(digest(b"link", rel, os.fsencode(os.readlink(path))))
            elif stat.S_ISREG(mode):
                entries.append(digest(b"file", rel, file_digest(path)))
            else:  # a FIFO or device: never opened (reading one could block or never end)
                entries.append(digest(b"other", rel, mode.to_bytes(4, "little")))
    return digest(*entries)


def _code_digest() -> bytes:
    libraries = []
    for name in LIBRARIES:
        try:
            libraries.append(f"{name}={metadata.version(name)}".encode())
        except metadata.PackageNotFoundError:
            libraries.append(f"{name}=none".encode())
    tree = _tree_digest(_PACKAGE, lambda name: name == "__pycache__" or name.endswith(".pyc"))
    return digest(b"code", sys.version.encode(), *libraries, tree)


CODE: bytes = _code_digest()
"""The generator's version: its source, templates, static files and library versions."""


def inputs_digest(data_dir: Path, config: msgspec.Struct) -> bytes | None:
    """Digest of everything a build reads; None when the data cannot be read (build it).

    A tree past a whole-tree limit is not read at all (the build then refuses it in one
    line): hashing would otherwise read every byte of every file first.
    """
    if tree_problems(data_dir):
        return None
    try:
        data = _tree_digest(data_dir)
    except OSError:
        return None
    return digest(b"inputs", CODE, msgspec.msgpack.encode(config), data)


class Output(msgspec.Struct, array_like=True, frozen=True):
    key: bytes
    content: bytes  # digest of the bytes produced


class Manifest(msgspec.Struct, kw_only=True, frozen=True):
    format: int = FORMAT
    code: bytes = b""
    inputs: bytes = b""
    documents: int = 0
    trees: Trees = Trees()  # the live site and the spare, as the writer left them
    outputs: dict[str, Output] = {}


def cache_path(out_dir: Path) -> Path:
    """Where the cache of the site at `out_dir` lives: beside it, outside the site."""
    out_dir = Path(os.path.abspath(out_dir))
    return out_dir.parent / f".{out_dir.name}{CACHE_SUFFIX}"


def history_cache_path(out_dir: Path) -> Path:
    """The folder of the history's scored snapshots (`generator/output/snapshots.py`)."""
    out_dir = Path(os.path.abspath(out_dir))
    return out_dir.parent / f".{out_dir.name}{HISTORY_CACHE_SUFFIX}"


def records_cache_path(out_dir: Path) -> Path:
    """The file of the loader's parsed records (`generator/output/parsed.py`)."""
    out_dir = Path(os.path.abspath(out_dir))
    return out_dir.parent / f".{out_dir.name}{RECORDS_CACHE_SUFFIX}"


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


def load_manifest(out_dir: Path) -> Manifest:
    """The last build's manifest, or an empty one if it is missing, corrupt or stale.

    From another code version only the writer's record of the trees is kept: it says what
    is on disk (checked against the disk before any use), not how it was made, so a
    template or code change still updates the spare tree instead of staging a whole one.
    """
    try:
        manifest = msgspec.msgpack.decode(read_cache_file(cache_path(out_dir)), type=Manifest)
    except (OSError, msgspec.DecodeError):
        return Manifest()
    if manifest.format != FORMAT:
        return Manifest()
    if manifest.code != CODE:
        return Manifest(trees=manifest.trees)
    return manifest


@dataclass(frozen=True)
class SiteState:
    """What the build cache says of the site at an output directory, for given inputs."""

    manifest: Manifest  # the last build's record (empty if none)
    inputs: bytes | None  # the digest of what a build would read now (None: unreadable)
    current: bool  # the live site is exactly what a build of these inputs would write


def site_state(data_dir: Path, out_dir: Path, config: msgspec.Struct) -> SiteState:
    """Is the site at `out_dir` current? The one rule `build`, `serve` and the CLI ask.

    Current means: the last build recorded these very inputs (the data files' bytes, the
    code, the library versions and the site configuration), and the live site is still
    the tree it wrote. File times and the site's contents are never guessed from.
    """
    manifest = load_manifest(out_dir)
    inputs = inputs_digest(data_dir, config)
    return SiteState(manifest, inputs, _up_to_date(manifest, inputs, out_dir))


def _up_to_date(manifest: Manifest, inputs: bytes | None, out_dir: Path) -> bool:
    """Whether the live site is what the recorded build wrote, from these same inputs.

    Not while a killed build's trees lie beside the site: the full path's writer clears them.
    """
    if inputs is None or not manifest.inputs or manifest.inputs != inputs:
        return False
    if interrupted(Path(os.path.abspath(out_dir))):
        return False
    return is_recorded(Path(os.path.abspath(out_dir)), manifest.trees.live)


class OutputCache:
    """Reuse of single outputs by key, from the live site, checked against their digest.

    A producer asks `reused(path, key)` before making an output and gives every output it
    made to `record(path, key, content)` (`content`: the `content_digest` of its bytes, the
    writer's digest too); `outputs` is then this build's table. Workers ask `lookup`,
    which records nothing, and the parent records what they found.
    """

    def __init__(
        self,
        previous: Mapping[str, Output],
        site: Path | None,
        live: Mapping[str, FileState] | None = None,
    ) -> None:
        self._previous = previous
        self._site = site
        self._live = live or {}  # the writer's record of the live site
        self.outputs: dict[str, Output] = {}
        self.hits = 0

    def kept(self, path: str, key: bytes) -> bytes | None:
        """The digest of `path`'s live bytes, without reading them, when `key` made them and
        the writer's record says the file is still the one it wrote (size, mtime, inode:
        the trust a no-op build gives the whole site); else None. Records nothing."""
        entry = self._previous.get(path)
        state = self._live.get(path)
        if entry is None or entry.key != key or state is None or state.digest != entry.content:
            return None
        return entry.content if self._site is not None and holds(self._site, path, state) else None

    def lookup(self, path: str, key: bytes) -> bytes | None:
        """The previous bytes of `path` if they came from `key` and are still on disk."""
        entry = self._previous.get(path)
        if entry is None or entry.key != key or self._site is None:
            return None
        try:
            data = read_cache_file(self._site / path)  # not a FIFO put in its place
        except OSError:
            return None
        return data if content_digest(data) == entry.content else None

    def reused(self, path: str, key: bytes) -> bytes | None:
        """`lookup`, recording the output as this build's when found."""
        data = self.lookup(path, key)
        if data is not None:
            self.record(path, key, self._previous[path].content)
        return data

    def record(self, path: str, key: bytes, content: bytes) -> None:
        """Note that `key` produced bytes of digest `content` at `path` in this build."""
        entry = self._previous.get(path)
        if entry is not None and entry.key == key and entry.content == content:
            self.hits += 1
            self.outputs[path] = entry
        else:
            self.outputs[path] = Output(key=key, content=content)

    def key(self, parts: Iterable[bytes]) -> bytes:
        """An output key from `parts`, bound to the code version (`keyed`)."""
        return keyed(parts)

    def produce(self, path: str, key: bytes, make: Callable[[], bytes]) -> bytes:
        """The bytes of `path`: reused when `key` matches, else made (and recorded)."""
        data = self.reused(path, key)
        if data is None:
            data = make()
            self.record(path, key, content_digest(data))
        return data


def output_cache(manifest: Manifest, out_dir: Path) -> OutputCache:
    """An OutputCache over the last build's outputs and the live site."""
    site = Path(os.path.abspath(out_dir))
    return OutputCache(manifest.outputs, site if site.is_dir() else None, manifest.trees.live)


def save_manifest(
    out_dir: Path,
    inputs: bytes | None,
    documents: int,
    outputs: Mapping[str, Output],
    trees: Trees,
) -> None:
    """Record this build (after its swap): written to a temporary name, then renamed."""
    manifest = Manifest(
        code=CODE,
        inputs=inputs if inputs is not None and trees.live else b"",
        documents=documents,
        trees=trees,
        outputs=dict(sorted(outputs.items())),
    )
    target = cache_path(out_dir)
    try:
        replace_cache_file(target, msgspec.msgpack.encode(manifest))
    except OSError:
        # A cache that cannot be written costs the next build time, never correctness.
        with contextlib.suppress(OSError):
            os.unlink(target)


def keyed(parts: Iterable[bytes]) -> bytes:
    """An output key from `parts`, always bound to the code version."""
    return digest(CODE, *parts)
