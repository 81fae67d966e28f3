"""One build, read for comparison: the published numbers a reviewer of a data change needs.

Documents are read as plain JSON (not the contract Structs) so that a build of an older or a
newer contract can still be compared: a field either build lacks is simply not compared.
The uncertainty band of a score is used when the build publishes one (`iqLow95`/`iqHigh95`,
`rankLow`/`rankHigh`).
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path
from typing import Any

import msgspec

from generator.api.contract import BENCHMARKS, DOMAIN, DOMAINS, METHODOLOGY, MODEL, MODELS
from generator.api.urls import api_file
from generator.errors import GeneratorError

COST_FIELDS = ("inputPer1M", "outputPer1M", "effectivePer1M", "usageMultiplier")
IGNORED_BENCHMARK_FIELDS = ("url", "updatedAt")
MAX_DOCUMENT_BYTES = 64 * 1024 * 1024
"""One published document (the shipped build's largest is well under 1 MB)."""
_NO_FOLLOW = os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC


class DiffError(GeneratorError):
    """A side of the comparison is not a readable build."""


class Band(msgspec.Struct, frozen=True):
    """A published 95% range."""

    low: float
    high: float

    def holds(self, value: float) -> bool:
        return self.low <= value <= self.high


class ModelSnapshot(msgspec.Struct, frozen=True, kw_only=True):
    """What a reviewer compares of one model."""

    id: str
    name: str
    aliases: tuple[str, ...] = ()
    rank: int | None
    rank_band: Band | None = None
    iq: int | None
    iq_band: Band | None = None
    eq: int | None
    dimensions: dict[str, int | None]
    dimension_bands: dict[str, Band] = {}
    cost: dict[str, float | None]
    results: dict[str, float]


class DomainEntry(msgspec.Struct, frozen=True):
    """A model on one domain leaderboard: its place (1 = first) and composite IQ."""

    rank: int
    composite: float


class DomainSnapshot(msgspec.Struct, frozen=True):
    id: str
    name: str
    entries: dict[str, DomainEntry]


class Snapshot(msgspec.Struct, frozen=True):
    """A whole build, keyed by id."""

    models: dict[str, ModelSnapshot]
    benchmarks: dict[str, dict[str, Any]]
    methodology: dict[str, Any]
    domains: dict[str, DomainSnapshot]


def read_snapshot(site_dir: Path) -> Snapshot:
    """Read the build in `site_dir` (raises `DiffError` naming the missing or bad file)."""
    if not (site_dir / api_file(MODELS.path)).is_file():
        raise DiffError(f"{site_dir}: not a built site (no {api_file(MODELS.path)})")
    models = {}
    for summary in _read(site_dir, MODELS.path)["models"]:
        detail = _read(site_dir, MODEL.api_path(summary["id"]))
        models[summary["id"]] = _model(summary, detail)
    benchmarks = {
        b["id"]: {k: v for k, v in b.items() if k not in IGNORED_BENCHMARK_FIELDS}
        for b in _read(site_dir, BENCHMARKS.path)["benchmarks"]
    }
    domains = {}
    for listed in _read(site_dir, DOMAINS.path)["domains"]:
        detail = _read(site_dir, DOMAIN.api_path(listed["id"]))
        entries = {
            entry["model"]: DomainEntry(place, float(entry["compositeIQ"]))
            for place, entry in enumerate(detail["models"], start=1)
        }
        domains[listed["id"]] = DomainSnapshot(listed["id"], listed["name"], entries)
    methodology = _read(site_dir, METHODOLOGY.path)
    return Snapshot(
        models=models,
        benchmarks=benchmarks,
        methodology={
            k: methodology.get(k) for k in ("version", "parameters", "rules", "changelog")
        },
        domains=domains,
    )


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


def _band(document: dict[str, Any], low: str, high: str) -> Band | None:
    low_value, high_value = document.get(low), document.get(high)
    if isinstance(low_value, int | float) and isinstance(high_value, int | float):
        return Band(float(low_value), float(high_value))
    return None


def _model(summary: dict[str, Any], detail: dict[str, Any]) -> ModelSnapshot:
    dimension_details = detail.get("dimensions", {})
    bands = {
        slug: band
        for slug, scores in dimension_details.items()
        if (band := _band(scores, "iqLow95", "iqHigh95")) is not None
    }
    cost = summary.get("cost", {})
    return ModelSnapshot(
        id=summary["id"],
        name=summary["name"],
        aliases=tuple(detail.get("aliases") or ()),
        rank=summary.get("rank"),
        rank_band=_band(summary, "rankLow", "rankHigh"),
        iq=summary.get("iq"),
        iq_band=_band(summary, "iqLow95", "iqHigh95"),
        eq=summary.get("emotionalReasoning"),
        dimensions=dict(summary.get("dimensions", {})),
        dimension_bands=bands,
        cost={name: cost.get(name) for name in COST_FIELDS},
        results={
            bench: result["value"] for bench, result in detail.get("benchmarkResults", {}).items()
        },
    )
