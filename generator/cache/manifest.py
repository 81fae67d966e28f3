"""The build cache's manifest: what the last build was made from, so a rebuild can skip it.

One file beside the output directory, `.<name>.build-cache` (never inside the published
tree), holds:

- `inputs`: a digest of everything a build reads (the data files' bytes and kinds, the
  generator's code, templates and static files, the versions of the libraries that shape
  the bytes, the site configuration) and `trees`: the writer's record of the site that
  build left and of the spare tree beside it (each file's size, mtime, inode and digest;
  `generator/output/writer.py`). When both still match, the live site is exactly what a
  build would write now, and the build stops there.
- `outputs`: for each cached output path, the key of its inputs (a hash the producer
  computes, always including `code`) and the digest of the bytes it produced
  (`generator/cache/outputs.py` reuses them).

Reuse rests on one rule: bytes are reused only when they hash to what the same key
produced before. A missing, truncated, foreign or older-format cache decodes to an empty
one (a full build); the file is replaced atomically after the site is swapped in, so a
build killed at any point leaves the previous cache or the new one, and either is safe.
"""

from __future__ import annotations

import contextlib
import os
import stat
import sys
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

import msgspec

from generator.digests import digest, file_digest
from generator.input.limits import tree_problems
from generator.output.files import read_cache_file, replace_cache_file
from generator.output.writer import Trees, interrupted, is_recorded

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
    """The folder of the history's scored snapshots (`generator/cache/snapshots.py`)."""
    out_dir = Path(os.path.abspath(out_dir))
    return out_dir.parent / f".{out_dir.name}{HISTORY_CACHE_SUFFIX}"


def records_cache_path(out_dir: Path) -> Path:
    """The file of the loader's parsed records (`generator/cache/records.py`)."""
    out_dir = Path(os.path.abspath(out_dir))
    return out_dir.parent / f".{out_dir.name}{RECORDS_CACHE_SUFFIX}"


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
