"""Shared constants and readers for the seed-data converter (scripts/convert_sources.py)."""

from __future__ import annotations

import csv
import datetime as dt
import math
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


def source_value(text: str) -> float:
    """A raw value at the precision its source meant, without binary float noise.

    Some source files carry a value computed in floating point (`0.9500000000000001`
    for 95.00%, `0.37520000000000003`). The shortest decimal of at most 12 significant
    digits within one unit in the last place is what the source measured; a value
    with real precision beyond that (`0.9400252525252525` = 372.25/396) is kept as is.
    """
    value = float(text)
    for digits in range(1, 13):
        short = float(f"{value:.{digits}g}")
        if abs(short - value) <= math.ulp(value):
            return short
    return value


# Benchmark families: variants of one benchmark whose results of a model must share one
# effort setting (the validator flags a mix).
FAMILIES: dict[str, str] = {
    "arc-agi-1": "arc-agi",
    "arc-agi-2": "arc-agi",
    "frontiermath-tier-1-3": "frontiermath",
    "frontiermath-tier-4": "frontiermath",
    "hle": "hle",
    "hle-calibration-error": "hle",
    "swe-bench-verified": "swe-bench-verified",
    "swe-bench-verified-bash-only": "swe-bench-verified",
    "livebench-mathematics": "livebench",
    "livebench-agentic-coding": "livebench",
}


# Bounds of a valid raw value per unit (METHODOLOGY.md section 1): natural bounds of a
# fraction, a percent or a bounded score; a time is >= 0; an Elo has none, so the bounds
# are the ones the maintainer accepts (far outside every leaderboard's spread).
UNIT_BOUNDS: dict[str, tuple[float, float | None]] = {
    "fraction 0-1": (0.0, 1.0),
    "percent 0-100": (0.0, 100.0),
    "score 0-10": (0.0, 10.0),
    "score 0-100": (0.0, 100.0),
    "minutes": (0.0, None),
    "elo": (0.0, 4000.0),
}


def value_bounds(unit: str) -> dict[str, float]:
    """`min_value` (and `max_value` when bounded above) of a benchmark in `unit`."""
    key = next(
        (known for known in UNIT_BOUNDS if unit == known or unit.startswith(known + " ")), None
    )
    if key is None:
        raise ValueError(f"no value bounds known for unit {unit!r}")
    low, high = UNIT_BOUNDS[key]
    return {"min_value": low} if high is None else {"min_value": low, "max_value": high}


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


# Effort settings as sources name them in a model key: Epoch AI appends `_<effort>`
# (`gpt-5.5_xhigh`, `claude-opus-4-5-20251101_16K`, `DeepSeek-V3.1_thinking`); LiveBench
# and vals.ai append `-<effort>` words (`gpt-5.5-xhigh`, `...-thinking-64k-high-effort`,
# `gemini-2.5-pro-06-05-highthinking`, `zai/glm-5-thinking`).
EPOCH_EFFORT = re.compile(
    r"_(?P<effort>xhigh|high|medium|low|minimal|none|max|\d+K|thinking|reasoning)$"
)
NAMED_EFFORT_TAIL = re.compile(r"-(?P<effort>xhigh|high|medium|low|minimal)(?:-effort|thinking)?$")
BUDGET_TAIL = re.compile(r"-thinking-(?P<budget>\d+)k$")
MODE_TAIL = re.compile(r"-(?P<effort>thinking|reasoning)$")
# Epoch's external ARC files name the effort in the row's `Name` only: `GPT-5.5 (xHigh)`.
NAME_EFFORT = re.compile(r"\((?P<effort>xhigh|high|medium|low|minimal|none|max)\)$", re.IGNORECASE)


def epoch_effort(key: str, name: str = "") -> str | None:
    """The effort of an Epoch AI row (None for no or an `unknown` effort)."""
    match = EPOCH_EFFORT.search(key) or NAME_EFFORT.search(name.strip())
    if match is None:
        return None
    effort = match["effort"]
    return effort if effort[0].isdigit() else effort.lower()


def suffix_effort(key: str) -> str | None:
    """The effort a LiveBench or vals.ai model key ends with, if any."""
    if match := NAMED_EFFORT_TAIL.search(key):
        return match["effort"]
    if match := BUDGET_TAIL.search(key):
        return f"{match['budget']}K"
    if match := MODE_TAIL.search(key):
        return match["effort"]
    return None
