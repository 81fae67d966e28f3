"""Stage 2 (scoring), pure: records in, scores out. No I/O, no encoding, no clock."""

from generator.scoring.composite import rank_entries
from generator.scoring.engine import compute_scores
from generator.scoring.ladder import project
from generator.scoring.rounding import round_half_up, round_to

__all__ = ["compute_scores", "project", "rank_entries", "round_half_up", "round_to"]
