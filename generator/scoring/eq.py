"""Emotional reasoning (EQ): outside the composite (docs/METHODOLOGY.md section 4)."""

from __future__ import annotations

import math
from collections.abc import Sequence

from generator.scoring.rounding import round_half_up
from generator.scoring.types import Projection


def eq_score(projections: Sequence[Projection]) -> int | None:
    """Rounded mean of the model's EQ projections; None without any."""
    if not projections:
        return None
    return round_half_up(math.fsum(p.iq for p in projections) / len(projections))
