"""Whether a result could have been in the model's training data (docs/METHODOLOGY.md 1.4).

A result is post-cutoff when its benchmark was published after the model's knowledge cutoff:
its questions did not exist when the model's training data was gathered. A cutoff stated to
the month counts as that month's last day. The flag is null, with the reason, when either
date is unknown or the benchmark refreshes its questions (a live benchmark such as LiveBench:
the date that would matter is the question set's, which the data does not hold).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

from generator.input.records import BenchmarkRecord
from generator.input.values import cutoff_day as cutoff_day

NO_CUTOFF = "the model's knowledge cutoff is not known"
NO_PUBLICATION = "the benchmark's publication date is not known"
REFRESHED = "the benchmark refreshes its questions; the question set's date is not known"


def post_cutoff(
    benchmark: BenchmarkRecord, cutoff: dt.date | None
) -> tuple[bool | None, str | None]:
    """(True: published after the cutoff, False: on or before it, None) and, for None, why."""
    if cutoff is None:
        return None, NO_CUTOFF
    if benchmark.refreshes_questions:
        return None, REFRESHED
    if benchmark.published_on is None:
        return None, NO_PUBLICATION
    return benchmark.published_on > cutoff, None


def post_cutoff_count(flags: Iterable[bool | None], cutoff: dt.date | None) -> int | None:
    """How many of `flags` are True; None when the model has no knowledge cutoff."""
    return None if cutoff is None else sum(1 for flag in flags if flag)
