"""The history's view of full scores, to compare replayed snapshots with `compute_scores`."""

from __future__ import annotations

from generator.scoring.history import SnapshotModel, SnapshotScores
from generator.scoring.types import Scores


def published(scores: Scores) -> SnapshotScores:
    """What a snapshot keeps of `compute_scores`' result, field by field."""
    return SnapshotScores(
        models={
            m: SnapshotModel(
                model_id=s.model_id,
                dimensions=tuple(d.value for d in s.dimensions),
                composite=s.composite,
                iq=s.iq,
                rank=s.rank,
                composite_sd=s.composite_sd,
                composite_low95=s.composite_low95,
                composite_high95=s.composite_high95,
                rank_band=s.rank_band,
                provisional=s.provisional,
            )
            for m, s in scores.models.items()
        }
    )
