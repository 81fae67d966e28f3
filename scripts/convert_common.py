"""Shared constants and readers for the seed-data converter (scripts/convert_sources.py)."""

from __future__ import annotations

import csv
import datetime as dt
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

# The seed folder was collected on this date; it is also the methodology version.
COLLECTED = dt.date(2026, 11, 22)
# Epoch AI's export: its newest run started on this date (its README says 2026-04).
EPOCH_EXPORT = dt.date(2026, 4, 24)
# LiveBench table: updated through this date (SOURCES.md).
LIVEBENCH_AS_OF = dt.date(2026, 7, 1)

EPOCH_NAME = "Epoch AI, AI Benchmarking Hub"
EPOCH_PAGE = "https://epoch.ai/benchmarks"
EPOCH_DATA_URL = "https://epoch.ai/data/benchmark_data.zip"
MODELS_DEV_COMMIT = "f3fc692299671838c7c65fd8126bf84d81a2e817"
MODELS_DEV_BLOB = f"https://github.com/anomalyco/models.dev/blob/{MODELS_DEV_COMMIT}/providers"
LITELLM_URL = "https://pypi.org/project/litellm/1.109.1/"
VALS_SCRAPE = "dot-mike/vals-ai-scrape data/scores.csv @8a2fd46"

# Public pages of the non-Epoch sources (SOURCES.md).
SOURCE_PAGES: dict[str, tuple[str, str, dt.date]] = {
    "LiveBench": ("LiveBench", "https://livebench.ai/", LIVEBENCH_AS_OF),
    "EQ-Bench 3 (eqbench.com)": ("EQ-Bench 3 (eqbench.com)", "https://eqbench.com/", COLLECTED),
    "Spiral-Bench v1 (eqbench.com)": (
        "Spiral-Bench v1 (eqbench.com)",
        "https://eqbench.com/spiral-bench.html",
        COLLECTED,
    ),
}

EFFORT_SUFFIX = re.compile(
    r"^(?P<base>.+)_(?P<effort>xhigh|high|medium|low|minimal|none|max|unknown|\d+K)$"
)
NAMED_EFFORTS = ("none", "minimal", "low", "medium", "high", "xhigh", "max")


@dataclass(frozen=True)
class Sources:
    """The seed folder (`../shared/data-sources`)."""

    root: Path

    def rows(self, name: str) -> list[dict[str, str]]:
        """Rows of a CSV file under the seed folder, as dicts."""
        return read_csv(self.root / name)


@cache
def read_csv(path: Path) -> list[dict[str, str]]:
    """Read a CSV file once (the converter reads some raw files many times)."""
    with path.open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def parse_float(text: str) -> float | None:
    """A float, or None for an empty or non-numeric cell."""
    try:
        return float(text)
    except ValueError:
        return None


def parse_day(text: str) -> dt.date | None:
    """The date at the start of `text` (YYYY-MM-DD...), else None."""
    match = re.match(r"^(\d{4})-(\d{2})-(\d{2})", text.strip())
    if not match:
        return None
    return dt.date(int(match[1]), int(match[2]), int(match[3]))


def midnight(day: dt.date) -> dt.datetime:
    """00:00 UTC of `day`."""
    return dt.datetime(day.year, day.month, day.day, tzinfo=dt.UTC)


def slugify(text: str) -> str:
    """A safe slug (records.SLUG_PATTERN) from a source key."""
    slug = re.sub(r"[^a-z0-9._-]+", "-", text.lower()).strip("-._")
    return slug[:64].rstrip("-._")


def judgment_ladder(chance: float) -> list[float]:
    """The catalogue's judgment ladder for a benchmark with chance level `chance`.

    The catalogue's judgment ladders are `chance + (1 - chance) * p` with
    p = 0.03, 0.12, 0.28, 0.47, 0.66, 0.82, 0.93 (chance near IQ 70, expert
    level near IQ 130); e.g. GPQA biology (chance 0.25) gives 0.2725 at IQ 70.
    """
    curve = (0.03, 0.12, 0.28, 0.47, 0.66, 0.82, 0.93)
    return [round(chance + (1 - chance) * p, 4) for p in curve]
