"""The publish rule: one for every scored source and any import order.

A model with direct results in at least `min_direct_dimensions` of the dimensions
(data/methodology.toml, the same number that gives it a composite) is published, whichever
sources the results came from and whichever refresh brought them. A rule never removes a
page: a published model stays published. A draft a maintainer holds (it has a `[private]`
table: notes, a review, an embargo) stays a draft whatever its evidence.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from generator.vocabulary import DIMENSION_COUNT


@dataclass(frozen=True)
class Standing:
    """Whether a model is published after an import, and why (for the report)."""

    published: bool
    dimensions: tuple[str, ...]
    reason: str


def direct_dimensions(
    results: Iterable[Mapping[str, Any]], dimension_of: Mapping[str, str]
) -> tuple[str, ...]:
    """The dimensions `results` has a direct result in, sorted."""
    return tuple(
        sorted({dimension_of[r["benchmark"]] for r in results if r["benchmark"] in dimension_of})
    )


def standing(
    was_published: bool,
    held: bool,
    results: Iterable[Mapping[str, Any]],
    dimension_of: Mapping[str, str],
    needed: int,
) -> Standing:
    """The rule applied to one model with the results it has after the merge."""
    dims = direct_dimensions(results, dimension_of)
    evidence = f"direct results in {len(dims)} of {DIMENSION_COUNT} dimensions" + (
        f" ({', '.join(dims)})" if dims else ""
    )
    if was_published:
        return Standing(True, dims, f"published; {evidence}")
    if held:
        return Standing(False, dims, f"held by hand (a [private] table); {evidence}")
    if len(dims) >= needed:
        return Standing(True, dims, f"{evidence}: {needed}+ publish it")
    return Standing(False, dims, f"{evidence}; {needed} are needed to publish")
