"""One build, read for comparison: every published field of every model, every ranking and
domain leaderboard in order, the benchmark catalogue and the methodology.

Documents are read as plain JSON (not the contract Structs) so that a build of an older or a
newer contract can still be compared: a field either build lacks is simply not compared. A
model document is flattened to `path -> value` (`cost.effectivePer1M`,
`dimensions.reliability.iq`); the uncertainty band of a score is the build's own
(`iqLow95`/`iqHigh95`, `rankLow`/`rankHigh`), read where it is published.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path
from typing import Any

import msgspec

from generator.api.contract import (
    BENCHMARKS,
    DOMAIN,
    DOMAINS,
    METHODOLOGY,
    MODEL,
    MODELS,
    RANKING,
    RANKINGS,
)
from generator.api.urls import api_file
from generator.errors import GeneratorError

IGNORED_FIELDS = frozenset({"apiVersion", "methodologyVersion", "url"})
"""Fields of every document that say which build, not what it says."""
RESULT_CATALOGUE_FIELDS = ("field", "name", "category", "dimension", "direction")
"""A result's copy of its benchmark's catalogue entry (compared once, in the catalogue)."""
IGNORED_BENCHMARK_FIELDS = ("url", "updatedAt")
MAX_DOCUMENT_BYTES = 64 * 1024 * 1024
"""One published document (the shipped build's largest is well under 1 MB)."""
_NO_FOLLOW = os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC
COMPOSITE_RANKING = "composite-iq"
DOMAIN_PREFIX = "domain:"


class DiffError(GeneratorError):
    """A side of the comparison is not a readable build."""


class Band(msgspec.Struct, frozen=True):
    """A published 95% range."""

    low: float
    high: float

    def holds(self, value: float) -> bool:
        return self.low <= value <= self.high


class ModelSnapshot(msgspec.Struct, frozen=True, kw_only=True):
    """One model's document, flattened (`path -> value`)."""

    id: str
    name: str
    fields: dict[str, Any]

    @property
    def aliases(self) -> tuple[str, ...]:
        return tuple(self.fields.get("aliases") or ())

    def band(self, path: str) -> Band | None:
        """The published 95% range of the score at `path` (`iq`, `rank`,
        `dimensions.reliability.iq`), if the build publishes one."""
        if path == "rank":
            low, high = "rankLow", "rankHigh"
        elif path == "iq" or path.endswith(".iq"):
            low, high = f"{path[:-2]}iqLow95", f"{path[:-2]}iqHigh95"
        else:
            return None
        low_value, high_value = _score(self.fields.get(low)), _score(self.fields.get(high))
        if low_value is None or high_value is None:
            return None
        return Band(low_value, high_value)


class Entry(msgspec.Struct, frozen=True):
    """A model's place on a ranking (1 = first) and its score there."""

    place: int
    score: float | None


class RankingSnapshot(msgspec.Struct, frozen=True):
    """A ranking (`composite-iq`, `effective-cost`, a dimension, a benchmark) or a domain
    leaderboard (id `domain:<slug>`), in order."""

    id: str
    name: str
    entries: dict[str, Entry]
    band_path: str | None = None
    """The model-document path whose band says whether a move on this ranking is noise."""


class Snapshot(msgspec.Struct, frozen=True):
    """A whole build, keyed by id."""

    models: dict[str, ModelSnapshot]
    rankings: dict[str, RankingSnapshot]
    benchmarks: dict[str, dict[str, Any]]
    methodology: dict[str, Any]


def read_snapshot(site_dir: Path) -> Snapshot:
    """Read the build in `site_dir` (raises `DiffError` naming the missing or bad file)."""
    if not (site_dir / api_file(MODELS.path)).is_file():
        raise DiffError(f"{site_dir}: not a built site (no {api_file(MODELS.path)})")
    models = {}
    for summary in _read(site_dir, MODELS.path)["models"]:
        detail = _read(site_dir, MODEL.api_path(summary["id"]))
        models[summary["id"]] = ModelSnapshot(
            id=summary["id"], name=summary["name"], fields=flatten(detail)
        )
    benchmarks = {
        b["id"]: {k: v for k, v in b.items() if k not in IGNORED_BENCHMARK_FIELDS}
        for b in _read(site_dir, BENCHMARKS.path)["benchmarks"]
    }
    methodology = _read(site_dir, METHODOLOGY.path)
    return Snapshot(
        models=models,
        rankings={**_rankings(site_dir), **_domains(site_dir)},
        benchmarks=benchmarks,
        methodology={
            k: methodology.get(k) for k in ("version", "parameters", "rules", "changelog")
        },
    )


def flatten(document: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """`{"cost": {"inputPer1M": 1}}` -> `{"cost.inputPer1M": 1}`; lists stay values."""
    flat: dict[str, Any] = {}
    for key, value in document.items():
        if not prefix and key in IGNORED_FIELDS:
            continue
        if prefix.startswith("benchmarkResults.") and key in RESULT_CATALOGUE_FIELDS:
            continue
        path = f"{prefix}{key}"
        if isinstance(value, dict):
            flat.update(flatten(value, f"{path}."))
        else:
            flat[path] = value
    return flat


def _rankings(site_dir: Path) -> dict[str, RankingSnapshot]:
    found = {}
    for listed in _read(site_dir, RANKINGS.path)["rankings"]:
        ranking_id = listed["id"]
        detail = _read(site_dir, RANKING.api_path(ranking_id))
        entries = {
            entry["id"]: Entry(int(entry["rank"]), _score(entry.get("score")))
            for entry in detail.get("models", [])
        }
        dimension = listed.get("dimension")
        band = "rank" if ranking_id == COMPOSITE_RANKING else None
        if dimension and ranking_id == f"{dimension}-iq":
            band = f"dimensions.{dimension}.iq"
        name = str(listed.get("rankingName") or ranking_id)
        found[ranking_id] = RankingSnapshot(ranking_id, name, entries, band)
    return found


def _domains(site_dir: Path) -> dict[str, RankingSnapshot]:
    found = {}
    for listed in _read(site_dir, DOMAINS.path)["domains"]:
        detail = _read(site_dir, DOMAIN.api_path(listed["id"]))
        entries = {
            entry["model"]: Entry(place, _score(entry.get("compositeIQ")))
            for place, entry in enumerate(detail["models"], start=1)
        }
        key = f"{DOMAIN_PREFIX}{listed['id']}"
        found[key] = RankingSnapshot(key, str(listed["name"]), entries)
    return found


def _score(value: Any) -> float | None:
    return float(value) if _number(value) else None


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _read(site_dir: Path, api_path: str) -> dict[str, Any]:
    path = site_dir / api_file(api_path)
    try:
        document = msgspec.json.decode(_read_inside(site_dir, api_file(api_path)))
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise DiffError(f"{path}: a symbolic link (a build holds only regular files)") from None
        raise DiffError(f"{path}: cannot read ({exc.strerror or exc})") from None
    except msgspec.DecodeError as exc:
        raise DiffError(f"{path}: not JSON ({exc})") from None
    if not isinstance(document, dict):
        raise DiffError(f"{path}: not a JSON object")
    return document


def _read_inside(site_dir: Path, relative: str) -> bytes:
    """The bytes of the regular file `relative` of `site_dir`, opened one folder at a time
    without following a symlink (ELOOP), so a build cannot point the comparison at a file
    outside it; at most `MAX_DOCUMENT_BYTES`."""
    *folders, name = relative.split("/")
    directory = os.open(site_dir, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        for folder in folders:
            if stat.S_ISLNK(os.stat(folder, dir_fd=directory, follow_symlinks=False).st_mode):
                raise OSError(errno.ELOOP, "a symbolic link")
            inner = os.open(folder, _NO_FOLLOW | os.O_DIRECTORY, dir_fd=directory)
            os.close(directory)
            directory = inner
        fd = os.open(name, _NO_FOLLOW | os.O_NONBLOCK, dir_fd=directory)
    finally:
        os.close(directory)
    with os.fdopen(fd, "rb") as file:
        if not stat.S_ISREG(os.fstat(file.fileno()).st_mode):
            raise OSError(errno.EINVAL, "not a regular file")
        data = file.read(MAX_DOCUMENT_BYTES + 1)
    if len(data) > MAX_DOCUMENT_BYTES:
        raise OSError(errno.EFBIG, f"larger than {MAX_DOCUMENT_BYTES // (1024 * 1024)} MB")
    return data
