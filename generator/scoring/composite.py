"""Composite IQ, coverage counts and ranks (docs/METHODOLOGY.md section 3)."""

from __future__ import annotations

import math
from collections.abc import Sequence

from generator.scoring.types import DimensionEstimate, RankedEntry
from generator.vocabulary import Direction


def direct_dimension_count(dimensions: Sequence[DimensionEstimate]) -> int:
    """`iqCoverage.directDimensions`: dimensions with at least one direct benchmark."""
    return sum(1 for estimate in dimensions if estimate.covered >= 1)


def evidence_dimension_count(dimensions: Sequence[DimensionEstimate]) -> int:
    """`iqCoverage.evidenceDimensions`: dimensions resting on direct or predecessor evidence."""
    return sum(1 for estimate in dimensions if estimate.evidence)


def is_provisional(composite: float | None, direct: int, below: int) -> bool:
    """A composite resting on fewer than `below` direct dimensions (`provisionalBelow`,
    docs/METHODOLOGY.md 3.3) is provisional: it keeps its rank, but pages mark it. No composite,
    nothing provisional."""
    return composite is not None and direct < below


def composite_score(dimensions: Sequence[DimensionEstimate], min_direct: int) -> float | None:
    """Unrounded mean of all dimension estimates, imputed ones included.

    None when fewer than `min_direct` dimensions have direct results, or when a
    dimension has no estimate at all (only possible in a dataset where nobody
    has results in that dimension): a missing dimension never makes a model
    look better by omission.
    """
    if direct_dimension_count(dimensions) < min_direct:
        return None
    values = [estimate.value for estimate in dimensions]
    present = [value for value in values if value is not None]
    if not present or len(present) != len(values):
        return None
    return math.fsum(present) / len(present)


def rank_entries(items: Sequence[tuple[str, float]], direction: Direction) -> list[RankedEntry]:
    """Rank `(model id, published score)` pairs: 1..n, no shared ranks.

    Pass the published (already rounded) score: ties are decided on it. Order is
    by score in the ranking's direction, then by model id ascending.
    """
    sign = -1.0 if direction == "higher_is_better" else 1.0
    ordered = sorted(items, key=lambda item: (sign * item[1], item[0]))
    return [
        RankedEntry(model_id=model_id, rank=position, score=score)
        for position, (model_id, score) in enumerate(ordered, start=1)
    ]
