"""Loading the built site (`site_out/api/v1/*`) into immutable snapshots, and reloading it.

A `SiteSnapshot` is one whole build: every document of the API the tools answer from,
decoded with the contract Structs (to validate it and to filter on it) and kept as the
file's own JSON (to answer with exactly what the static API publishes). `SnapshotStore`
holds the current snapshot and swaps in a new one, fully loaded first, when the build
swaps `site_out/`.
"""

from __future__ import annotations

import contextlib
import gc
import logging
import os
import stat
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, TypeVar

import msgspec

from generator.api.aliases import Names, name_keys
from generator.api.contract import (
    BENCHMARKS,
    DOMAIN,
    DOMAINS,
    METHODOLOGY,
    MODEL,
    MODEL_HISTORY,
    MODELS,
    RANKING,
    RANKINGS,
    BenchmarkList,
    DocumentKind,
    DomainDetail,
    DomainList,
    Methodology,
    ModelDetail,
    ModelList,
    RankingDetail,
    RankingList,
)
from generator.api.files import DOMAIN_CSV, MODEL_HISTORY_CSV, MODELS_CSV, RANKING_CSV
from generator.api.urls import API_PREFIX

API_DIR = API_PREFIX.lstrip("/")
MARKER = f"{API_DIR}/{MODELS.file}"
"""The file whose inode, mtime and size (with the site directory's own) identify a build."""

logger = logging.getLogger(__name__)

T = TypeVar("T", bound=msgspec.Struct)


class SiteError(Exception):
    """The built site is missing or one of its files does not match the contract."""


@dataclass(frozen=True)
class Document(Generic[T]):
    """One published file: decoded into its contract Struct, as its own JSON object, and
    its bytes (what a resource read answers, exactly the file)."""

    struct: T
    raw: dict[str, Any]
    data: bytes


@dataclass(frozen=True)
class SiteSnapshot:
    """One build of the API, read whole; every answer is computed from one of these."""

    models: Document[ModelList]
    model_details: Mapping[str, Document[ModelDetail]]
    benchmarks: Document[BenchmarkList]
    rankings: Document[RankingList]
    ranking_details: Mapping[str, Document[RankingDetail]]
    domains: Document[DomainList]
    domain_details: Mapping[str, Document[DomainDetail]]
    methodology: Document[Methodology]
    model_histories: Mapping[str, bytes]
    """Each model's `/models/{id}/history` file, validated at load and kept as compact JSON
    bytes only (decoded when asked for: a model's history holds as many numbers as the rest
    of its data together)."""
    model_keys: Mapping[str, str]
    """Lower-cased model id, alias or name to model id: how tools resolve a model's name."""
    downloads: Mapping[str, bytes]
    """The CSV downloads the tools summarise, by site path (`downloads/rankings/x.csv`):
    the model list, each ranking, each domain and each model's history."""
    fingerprint: tuple[int, ...]

    @property
    def envelope(self) -> dict[str, Any]:
        """The envelope every answer carries (taken from the model list)."""
        raw = self.models.raw
        return {key: raw[key] for key in ("apiVersion", "methodologyVersion", "updatedAt")}


# --- reading one build ------------------------------------------------------


@contextmanager
def _open_dir(site_dir: Path) -> Iterator[int]:
    """Open the site directory once; every file is then read relative to this descriptor.

    The descriptor pins the directory the build had in place when loading started, so a
    swap (rename or symlink) in the middle of a load cannot mix two builds.
    """
    try:
        fd = os.open(site_dir, os.O_RDONLY | os.O_DIRECTORY)
    except OSError as exc:
        raise SiteError(f"{site_dir}: cannot open the built site ({exc.strerror})") from exc
    try:
        yield fd
    finally:
        os.close(fd)


BUILD_MARKER = "_redirects"
"""The builder's own marker. The builder may update the tree a swap replaced (its spare) in
place a build later; it replaces this file first and always leaves it a new inode, so a
tree updated in place never keeps its old fingerprint."""


def _marker_identity(stat_marker: Callable[[str], os.stat_result]) -> tuple[int, int]:
    try:
        found = stat_marker(BUILD_MARKER)
    except FileNotFoundError:
        return (0, 0)
    return (found.st_ino, found.st_mtime_ns)


def _fingerprint_fd(fd: int) -> tuple[int, ...]:
    """Identity of the build open at `fd`: the directory's inode plus the markers' stat."""
    top = os.fstat(fd)
    marker = os.stat(MARKER, dir_fd=fd)
    build = _marker_identity(lambda name: os.stat(name, dir_fd=fd, follow_symlinks=False))
    return (top.st_dev, top.st_ino, marker.st_ino, marker.st_mtime_ns, marker.st_size, *build)


def probe_fingerprint(site_dir: Path) -> tuple[int, ...] | None:
    """The fingerprint of whatever build is at `site_dir` now (a few stat calls), or None."""
    try:
        top = os.stat(site_dir)
        marker = os.stat(site_dir / MARKER)
        build = _marker_identity(lambda name: os.lstat(site_dir / name))
    except OSError:
        return None
    return (top.st_dev, top.st_ino, marker.st_ino, marker.st_mtime_ns, marker.st_size, *build)


def _open_beneath(fd: int, rel: str, flags: int) -> int:
    """Open `rel` under the directory open at `fd`, following no symbolic link on the way:
    every folder of the path is opened with O_NOFOLLOW too, so a planted `api/v1/rankings`
    link to a folder outside the site is refused, not read (raises `SiteError`)."""
    parts = rel.split("/")
    parent = fd
    for depth, name in enumerate(parts):
        last = depth == len(parts) - 1
        mode = (flags if last else os.O_RDONLY | os.O_DIRECTORY) | os.O_NOFOLLOW
        try:
            opened = os.open(name, mode, dir_fd=parent)
        except OSError as exc:
            where = "/".join(parts[: depth + 1])
            problem = "a symbolic link (the site holds only regular files)"
            raise SiteError(
                f"{where}: {problem if _is_link(parent, name) else exc.strerror}"
            ) from exc
        finally:
            if parent != fd:
                os.close(parent)
        parent = opened
    return parent


def _is_link(fd: int, name: str) -> bool:
    try:
        return stat.S_ISLNK(os.stat(name, dir_fd=fd, follow_symlinks=False).st_mode)
    except OSError:
        return False


def _read(fd: int, rel: str) -> bytes:
    with os.fdopen(_open_beneath(fd, rel, os.O_RDONLY), "rb") as file:
        return file.read()


def _document(fd: int, kind: DocumentKind[T], value: str | None = None) -> Document[T]:
    rel = f"{API_DIR}/{kind.file_path(value)}"
    data = _read(fd, rel)
    try:
        struct = msgspec.json.decode(data, type=kind.response)
        raw = msgspec.json.decode(data)
    except msgspec.DecodeError as exc:
        raise SiteError(f"{rel}: {exc}") from exc
    if not isinstance(raw, dict):  # pragma: no cover - the Struct decode already refused it
        raise SiteError(f"{rel}: expected a JSON object")
    return Document(struct, raw, data)


def _details(fd: int, kind: DocumentKind[T]) -> dict[str, Document[T]]:
    """Every file of the kind's folder, keyed by file name: the ids its path answers."""
    rel_dir = f"{API_DIR}/{kind.folder}"
    folder_fd = _open_beneath(fd, rel_dir, os.O_RDONLY | os.O_DIRECTORY)
    try:
        names = sorted(os.listdir(folder_fd))
    finally:
        os.close(folder_fd)
    found: dict[str, Document[T]] = {}
    for name in names:
        if not _regular(fd, f"{rel_dir}/{name}"):
            continue
        document = _document(fd, kind, name)
        if getattr(document.struct, "id", name) != name:
            raise SiteError(
                f"{rel_dir}/{name}: id {document.raw.get('id')!r} differs from the file name"
            )
        found[name] = document
    return found


def _history_files(fd: int) -> dict[str, bytes]:
    """Every model history file, checked against the contract, as its JSON without the
    indentation (the same values in 70% of the bytes)."""
    return {
        name: msgspec.json.format(document.data, indent=-1)
        for name, document in _details(fd, MODEL_HISTORY).items()
    }


SUMMARISED_DOWNLOADS = (MODELS_CSV, RANKING_CSV, DOMAIN_CSV, MODEL_HISTORY_CSV)


def _downloads(fd: int) -> dict[str, bytes]:
    """Every file of the downloads the tools link to, by site path (a build without one of
    them, as an older build, simply has none: a link is only made to a file that exists)."""
    found: dict[str, bytes] = {}
    for kind in SUMMARISED_DOWNLOADS:
        folder, _, name = kind.pattern.rpartition("/")
        if kind.mirrors.param is None:
            with contextlib.suppress(SiteError):
                found[kind.pattern] = _read(fd, kind.pattern)
            continue
        try:
            folder_fd = _open_beneath(fd, folder, os.O_RDONLY | os.O_DIRECTORY)
        except SiteError:
            continue
        try:
            names = sorted(os.listdir(folder_fd))
        finally:
            os.close(folder_fd)
        for file in names:
            rel = f"{folder}/{file}"
            if file.endswith(".csv") and _regular(fd, rel):
                found[rel] = _read(fd, rel)
    return found


def _regular(fd: int, rel: str) -> bool:
    """Whether `rel` is a regular file itself; anything else (a symlink planted in the
    site, a folder, a FIFO) is skipped with one warning line and never served."""
    try:
        mode = os.stat(rel, dir_fd=fd, follow_symlinks=False).st_mode
    except OSError as exc:
        raise SiteError(f"{rel}: {exc.strerror}") from exc
    if stat.S_ISREG(mode):
        return True
    what = "a symbolic link" if stat.S_ISLNK(mode) else "not a regular file"
    logger.warning("skipping %s: %s (not served)", rel, what)
    return False


def load_snapshot(site_dir: Path) -> SiteSnapshot:
    """Read and validate one whole build from `site_dir` (raises `SiteError`)."""
    with _open_dir(site_dir) as fd:
        try:
            fingerprint = _fingerprint_fd(fd)
        except OSError as exc:
            raise SiteError(f"{site_dir / MARKER}: {exc.strerror}") from exc
        models = _document(fd, MODELS)
        model_details = _details(fd, MODEL)
        rankings = _document(fd, RANKINGS)
        ranking_details = _details(fd, RANKING)
        domains = _document(fd, DOMAINS)
        domain_details = _details(fd, DOMAIN)
        model_histories = _history_files(fd)
        downloads = _downloads(fd)
        _check_listed(MODEL, [m.id for m in models.struct.models], model_details)
        _check_listed(MODEL_HISTORY, [m.id for m in models.struct.models], model_histories)
        _check_listed(RANKING, [r.id for r in rankings.struct.rankings], ranking_details)
        _check_listed(DOMAIN, [d.id for d in domains.struct.domains], domain_details)
        _check_unchanged(fd, fingerprint, site_dir)
        return SiteSnapshot(
            models=models,
            model_details=model_details,
            benchmarks=_document(fd, BENCHMARKS),
            rankings=rankings,
            ranking_details=ranking_details,
            domains=domains,
            domain_details=domain_details,
            methodology=_document(fd, METHODOLOGY),
            model_histories=model_histories,
            downloads=downloads,
            model_keys=_model_keys(models.struct, model_details),
            fingerprint=fingerprint,
        )


def _check_unchanged(fd: int, fingerprint: tuple[int, ...], site_dir: Path) -> None:
    """The tree read is still the build it was when opened.

    The builder may update the tree a swap replaced in place (its spare) a build later; it
    replaces the marker first, so a load that overlapped that update is refused and retried.
    """
    try:
        same = _fingerprint_fd(fd) == fingerprint
    except OSError:
        same = False
    if not same:
        raise SiteError(f"{site_dir}: the build changed while it was read")


def _check_listed(
    kind: DocumentKind[Any], listed: list[str], details: Mapping[str, object]
) -> None:
    """A list and its detail files must name the same ids (a half-written build does not)."""
    if sorted(listed) != sorted(details):
        missing = sorted(set(listed) ^ set(details))
        raise SiteError(f"{API_DIR}/{kind.folder}: list and detail files differ on {missing}")


def _model_keys(models: ModelList, details: Mapping[str, Document[ModelDetail]]) -> dict[str, str]:
    """Every name, alias and id (lower-cased) to the model id (`generator.api.aliases`)."""
    return name_keys(Names(m.id, m.name, details[m.id].struct.aliases) for m in models.models)


# --- the current snapshot ---------------------------------------------------


def settle_heap() -> None:
    """Take a freshly loaded snapshot out of the cyclic garbage collector's way.

    A snapshot is hundreds of thousands of long-lived objects (millions at 10,000 models).
    Every full collection walked them all while requests waited: at 1,000 models a 60 ms
    pause, the whole p99 at 16-way concurrency. After a load: collect what is already
    garbage, then freeze everything that survives, so collections only see per-request
    objects. Frozen objects are still freed by reference counting when a newer snapshot
    replaces them; the next load unfreezes first, so a cycle among them is collected then.
    """
    gc.unfreeze()
    gc.collect()
    gc.freeze()


class SnapshotStore:
    """The current `SiteSnapshot`, replaced by a freshly loaded one when the build changes.

    `current()` probes the site directory at most every `check_interval` seconds (a few
    `stat` calls). A changed fingerprint triggers a full load of the new build, and only a
    complete, valid snapshot replaces the reference; a failed load keeps the old snapshot and
    is retried at the next check.
    """

    def __init__(
        self, site_dir: Path, check_interval: float = 1.0, first: SiteSnapshot | None = None
    ) -> None:
        """`first`: the build in `site_dir` already loaded by the caller (not read again)."""
        self.site_dir = site_dir
        self.check_interval = check_interval
        self._site = first
        self._checked_at = float("-inf") if first is None else time.monotonic()
        if first is not None:
            settle_heap()
        self._lock = threading.Lock()

    def current(self) -> SiteSnapshot:
        """The newest fully loaded build (loads the first one, raising `SiteError`, if needed)."""
        site = self._site
        if site is None:
            return self._load_first()
        now = time.monotonic()
        if now - self._checked_at < self.check_interval:
            return site
        self._checked_at = now
        if probe_fingerprint(self.site_dir) in (site.fingerprint, None):
            return site
        return self._reload(site)

    def peek(self) -> SiteSnapshot | None:
        """The current snapshot if no check of the disk is due (never blocks), else None."""
        site = self._site
        if site is None or time.monotonic() - self._checked_at >= self.check_interval:
            return None
        return site

    def latest(self) -> SiteSnapshot | None:
        """The snapshot loaded last, without any check of the disk (None before the first)."""
        return self._site

    def _load_first(self) -> SiteSnapshot:
        with self._lock:
            if self._site is None:
                self._site = load_snapshot(self.site_dir)
                self._checked_at = time.monotonic()
                settle_heap()
            return self._site

    def _reload(self, seen: SiteSnapshot) -> SiteSnapshot:
        with self._lock:
            if self._site is not seen:  # another thread already switched
                return self._site or seen
            try:
                fresh = load_snapshot(self.site_dir)
            except SiteError as exc:
                logger.warning("keeping the previous build: %s", exc)
                return seen
            self._site = fresh
            settle_heap()
            logger.info("loaded a new build of %s", self.site_dir)
            return fresh
