"""The words every stage shares: the dimensions, chart kinds, the IQ scale, directions.

A leaf: it imports nothing of the generator, so input, scoring, the documents, the pages
and the contract may all import it (the contract re-exports it for clients of the API).

`DIMENSIONS` is the one declaration of the composite's dimension set: slugs, order and
labels. Everything that names the dimensions or counts them (the data check, the
documents, pages, MCP descriptions, `explain`, importers) reads it; `data/methodology.toml`
gives each slug its methodology settings and is checked against it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True)
class Dimension:
    """One scored dimension of the composite."""

    slug: str  # the contract's key (`dimensions` maps, `<slug>-iq` rankings)
    name: str  # its label in every text
    short: str  # a narrow heading or axis label: `name` cut short (one name per dimension)
    everyday: tuple[str, ...] = ()  # the words people ask with ("coding"): for agents' search

    @property
    def number(self) -> str:
        """Its D-number (`D1`...), from its place in `DIMENSIONS`."""
        return f"D{DIMENSIONS.index(self) + 1}"


DIMENSIONS: tuple[Dimension, ...] = (
    Dimension("abstract-reasoning", "Abstract reasoning", "Abstract", ("puzzles", "ARC")),
    Dimension("mathematical-reasoning", "Mathematical reasoning", "Math", ("math", "maths")),
    Dimension(
        "academic-reasoning", "Academic reasoning", "Academic", ("science", "exams", "knowledge")
    ),
    Dimension(
        "programmatic-reasoning",
        "Programmatic reasoning",
        "Programmatic",
        ("coding", "programming", "software engineering"),
    ),
    Dimension("computer-use", "Computer use", "Computer use", ("agents", "agentic", "terminal")),
    Dimension(
        "reliability", "Reliability", "Reliability", ("hallucination", "factuality", "calibration")
    ),
    Dimension(
        "knowledge-work", "Knowledge work", "Knowledge work", ("office work", "professional tasks")
    ),
)
"""The scored dimensions, in dimension order (the composite's and every map's). The
contract fixes the slugs and their order; the labels are ours."""

DIMENSION_SLUGS: tuple[str, ...] = tuple(d.slug for d in DIMENSIONS)
DIMENSION_NAMES: dict[str, str] = {d.slug: d.name for d in DIMENSIONS}
"""Each dimension's label, by slug."""
DIMENSION_COUNT = len(DIMENSIONS)

_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def spelled(count: int) -> str:
    """`count` as a word in running text (`seven`), its digits past ten."""
    return _WORDS[count] if 0 <= count < len(_WORDS) else str(count)


DIMENSION_COUNT_WORD = spelled(DIMENSION_COUNT)
"""The number of dimensions as prose writes it ("the seven dimensions")."""
DIMENSION_LIST = ", ".join(d.name for d in DIMENSIONS)
"""The labels in order, comma-separated, for a description that names them all."""

ChartKind = Literal[
    "iq-distribution",
    "iq-vs-cost",
    "iq-vs-speed",
    "frontier",
    "dimension-profile",
    "benchmark-scores",
    "iq-ranges",
]
"""What a promoted chart draws (a chart's `tags` include its kind). `frontier` is the
replayed history's best composite IQ per month end, overall and per top provider."""

Direction = Literal["higher_is_better", "lower_is_better"]
"""Whether a higher raw value (or score) is the better one."""

LADDER_IQS: tuple[int, ...] = (70, 85, 100, 115, 130, 145, 160)
"""The IQ of each point of a benchmark's ladder; its ends bound the IQ scale."""
IQ_MIN = LADDER_IQS[0]
IQ_MAX = LADDER_IQS[-1]
