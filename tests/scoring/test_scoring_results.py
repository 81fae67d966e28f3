"""`ModelScores.results`: each benchmark's chosen row, its projection and offset, kept by scoring.

Ladders are linear (raw x -> IQ 100x); see tests/scoring_builders.py.
"""

from __future__ import annotations

import pytest
from support.scoring import iq_results, make_dataset, make_model, result

from generator.scoring import compute_scores


def test_the_chosen_row_among_harnesses_is_kept_with_its_projection() -> None:
    rows = [result("math-a", 1.00, harness="h1"), result("math-a", 1.10, harness="h2")]
    model = make_model("m", [*rows, *iq_results(acad_a=120)])
    scored = compute_scores(make_dataset([model])).models["m"].results["math-a"]
    # raw 1.10 -> IQ 110 beats raw 1.00 -> IQ 100: the h2 row is the one scored
    assert scored.row is rows[1]
    assert (scored.projection.raw, scored.projection.iq) == (1.10, pytest.approx(110.0))


def test_results_carry_the_offsets_scoring_used_and_none_outside_dimensions_2_to_7() -> None:
    # math-a runs 10 above math-b for both models: offsets (k = 2) 20 / 4 = +5 and -5
    dataset = make_dataset(
        [
            make_model("m1", iq_results(math_a=110, math_b=100, arc_a=100, eq_a=100)),
            make_model("m2", iq_results(math_a=120, math_b=110, acad_a=100)),
        ]
    )
    scores = compute_scores(dataset).models["m1"]
    offsets = {bid: r.offset for bid, r in scores.results.items()}
    assert offsets == {
        "arc-a": None,  # abstract reasoning has no offsets
        "math-a": pytest.approx(5.0),
        "math-b": pytest.approx(-5.0),
        "eq-a": None,  # EQ is outside the seven dimensions
    }
    assert dict(scores.dimensions[1].offsets) == {bid: offsets[bid] for bid in ("math-a", "math-b")}
