"""The words every stage shares: dimension slugs, chart kinds, the IQ scale, directions.

A leaf: it imports nothing of the generator, so input, scoring, the documents, the pages
and the contract may all import it (the contract re-exports it for clients of the API).
"""

from __future__ import annotations

from typing import Literal

DIMENSION_SLUGS: tuple[str, ...] = (
    "abstract-reasoning",
    "mathematical-reasoning",
    "academic-reasoning",
    "programmatic-reasoning",
    "computer-use",
    "reliability",
    "knowledge-work",
)
"""The seven scored dimensions, in dimension order (the composite's and every map's)."""

ChartKind = Literal[
    "iq-distribution",
    "iq-vs-cost",
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
