"""A canary dataset derived from the valid fixture, and its public twin.

`derive_canary` copies `tests/data/` and plants a unique canary string in every private
field (a full `[private]` table in every file) and in every text field of every unpublished
model; it also adds unpublished models built to tempt a leak: a successor of a published
model with extreme results, a measured usage multiplier (a cost-peer candidate), revisions,
reasoning configurations and an `updated` date years after everything else.

`derive_public` copies `tests/data/` with every private table and unpublished model removed:
what the public may know. Building both must give byte-identical sites.
"""

from __future__ import annotations

import datetime as dt
import itertools
import shutil
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rtoml import dumps

MARK = "canary"
"""Every planted string contains this word (any case); the fixture itself never does."""
KEEP = {"id", "benchmark", "family", "predecessor", "model", "release_date_precision"}
"""Keys whose values are references or enumerations: they must stay valid to load."""
FUTURE = dt.datetime(2031, 6, 1, tzinfo=dt.UTC)


@dataclass
class Canaries:
    """What was planted: the strings and the unpublished model ids."""

    strings: list[str] = field(default_factory=list)
    unpublished_ids: list[str] = field(default_factory=list)
    _counter: Iterator[int] = field(default_factory=itertools.count)

    def new(self, kind: str) -> str:
        token = f"CANARY{next(self._counter):04d}{kind.upper().replace('_', '')}"
        self.strings.append(token)
        return token

    def url(self) -> str:
        return f"https://{self.new('url').lower()}.example/{MARK}"

    def slug(self) -> str:
        return self.new("slug").lower()


def _files(data: Path) -> list[Path]:
    return sorted(data.rglob("*.toml"))


def _read(path: Path) -> dict[str, Any]:
    return tomllib.loads(path.read_text(encoding="utf-8"))


def _private_table(canaries: Canaries) -> dict[str, Any]:
    return {
        "notes": canaries.new("notes"),
        "reviewer": canaries.new("reviewer"),
        "review_status": canaries.new("status"),
        "config": {canaries.new("config_key"): canaries.new("config_value")},
    }


def _poison(value: Any, key: str, canaries: Canaries) -> Any:
    """Every free-text string of an unpublished model replaced by a canary."""
    if isinstance(value, dict):
        return {k: (v if k in KEEP else _poison(v, k, canaries)) for k, v in value.items()}
    if isinstance(value, list):
        return [_poison(item, key, canaries) for item in value]
    if isinstance(value, str):
        if key.endswith("url") or key == "source_urls":
            return canaries.url()
        return canaries.new(key)
    return value


def _tempting_model(base: dict[str, Any], model_id: str, canaries: Canaries) -> dict[str, Any]:
    """An unpublished successor of a published model, built to move every public number."""
    doc = {k: v for k, v in base.items() if k != "private"}
    doc.update(id=model_id, published=False, updated=FUTURE, release_date=FUTURE.date())
    if "lineage" in base:  # a successor: the same family, one published predecessor
        family = base["lineage"]["family"]
        doc["lineage"] = {"family": family, "generation": 99, "predecessor": base["id"]}
    for result in doc.get("results", []):
        # far from every published value, inside every benchmark's bounds (fraction, percent, Elo)
        result["value"] = round(result["value"] * 0.5 + 0.0123, 6)
        if "as_of" in result:  # measured after its (future) release: a row that is its own
            result["as_of"] = FUTURE.date()
    doc["usage"] = {
        "multiplier": 9.875,
        "method": "m",
        "samples": 7,
        "source_name": "s",
        "source_url": "https://example.org/u",
        "as_of": FUTURE.date(),
    }
    doc["prices"] = {"input": 77.5, "output": 155.25}
    doc["speed"] = {"response_time_sec": 0.125, "median_tokens_per_second": 4321.5}
    doc["revisions"] = [
        {"id": "r", "label": "l", "available_date": FUTURE.date(), "source_urls": ["https://x.org"]}
    ]
    doc = _poison(doc, "", canaries)
    for key in ("revisions", "reasoning_configurations"):
        for item in doc.get(key, []):
            item["id"] = canaries.slug()
    return doc | {"private": _private_table(canaries)}


def derive_canary(src: Path, dest: Path) -> Canaries:
    """Copy `src` to `dest` with canaries planted; return what was planted."""
    shutil.copytree(src, dest)
    canaries = Canaries()
    published_models = []
    for path in _files(dest):
        doc = _read(path)
        if path.parent.name == "models":
            if doc.get("published", True):
                published_models.append(doc)
            else:
                canaries.unpublished_ids.append(doc["id"])
                doc = _poison(doc, "", canaries)
        doc["private"] = _private_table(canaries)
        path.write_text(dumps(doc), encoding="utf-8")
    for index, base in enumerate(published_models[:2]):
        model_id = f"{MARK}-unpublished-{index}"
        canaries.unpublished_ids.append(model_id)
        doc = _tempting_model(base, model_id, canaries)
        (dest / "models" / f"{model_id}.toml").write_text(dumps(doc), encoding="utf-8")
    return canaries


def derive_public(src: Path, dest: Path) -> list[str]:
    """Copy `src` to `dest` without private tables and unpublished models; return their ids."""
    shutil.copytree(src, dest)
    removed = []
    for path in _files(dest):
        doc = _read(path)
        if path.parent.name == "models" and not doc.get("published", True):
            removed.append(doc["id"])
            path.unlink()
            continue
        doc.pop("private", None)
        path.write_text(dumps(doc), encoding="utf-8")
    return removed
