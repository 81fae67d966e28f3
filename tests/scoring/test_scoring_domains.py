"""Domain partial pooling (METHODOLOGY section 5).

sigma_domain_prior = sigma_domain_benchmark = 10.
"""

from __future__ import annotations

import math

import pytest
from support.scoring import PARAMETERS, iq_results, make_dataset, make_domain, make_model

from generator.scoring import compute_scores
from generator.scoring.domains import compute_domain, pooled_entry


def test_pooled_entry_numbers() -> None:
    # n = 2, observed 120, prior 110: data precision 2/100 = 0.02, prior precision 0.01
    # estimate = (0.02 * 120 + 0.01 * 110) / 0.03 = 3.5 / 0.03 = 116.6667 -> 117
    # adjustment = -3.3333; confidence = 0.02 / 0.03 = 2/3; SE = 1/sqrt(0.03) = 5.7735
    entry = pooled_entry("m", 120.0, 2, 2, 110.0, PARAMETERS)
    assert entry.composite_iq == 117
    assert entry.rank_status == "full"
    assert entry.adjustment == pytest.approx(-10 / 3)
    assert entry.confidence == pytest.approx(2 / 3)
    assert entry.standard_error == pytest.approx(1 / math.sqrt(0.03))
    # 116.6667 -/+ 1.96 * 5.7735 = 116.6667 -/+ 11.3161 = 105.3506 .. 127.9827
    assert [entry.low95, entry.high95] == pytest.approx([105.3506, 127.9827], abs=1e-4)


DOMAIN = make_domain(
    "law",
    ["l1", "l2"],
    [
        ("alpha", "l1", 1.20, "h1"),
        ("alpha", "l1", 1.30, "h2"),  # best harness row: 130
        ("alpha", "l2", 1.10, None),
        ("beta", "l2", 1.00, None),
        ("zeta", "l1", 0.90, None),
        ("zeta", "l2", 1.00, None),
        ("ghost", "l1", 1.60, None),  # not a published model: ignored everywhere
    ],
)


def test_domain_leaderboard() -> None:
    composites = {"alpha": 110.0, "beta": None, "zeta": None}
    entries = compute_domain(DOMAIN, composites, PARAMETERS).entries
    # observed: alpha (130 + 110) / 2 = 120, beta 100, zeta (90 + 100) / 2 = 95
    # domain mean observed (the prior of models without a composite) = 315 / 3 = 105
    # alpha: prior 110 -> 116.6667 -> 117 (above)
    # beta: n = 1: (0.01 * 100 + 0.01 * 105) / 0.02 = 102.5 -> 103 (half up), partial
    # zeta: n = 2: (0.02 * 95 + 0.01 * 105) / 0.03 = 2.95 / 0.03 = 98.3333 -> 98
    # order: full first (alpha 117, zeta 98), then partial (beta)
    assert [(e.model_id, e.composite_iq, e.rank_status) for e in entries] == [
        ("alpha", 117, "full"),
        ("zeta", 98, "full"),
        ("beta", 103, "partial"),
    ]
    beta = entries[2]
    assert beta.observed == pytest.approx(100.0)
    assert (beta.covered, beta.total) == (1, 2)
    assert beta.confidence == pytest.approx(0.5)
    assert beta.standard_error == pytest.approx(1 / math.sqrt(0.02))


def test_domain_ties_break_by_model_id() -> None:
    domain = make_domain("d", ["x"], [("b", "x", 1.0, None), ("a", "x", 1.0, None)])
    entries = compute_domain(domain, {"a": None, "b": None}, PARAMETERS).entries
    assert [e.model_id for e in entries] == ["a", "b"]


def test_domains_in_compute_scores_use_the_unrounded_composite() -> None:
    model = make_model("alpha", iq_results(arc_a=110, math_a=110))  # every dimension 110
    domain = make_domain("law", ["l1"], [("alpha", "l1", 1.30, None)])
    scores = compute_scores(make_dataset([model], domains=[domain]))
    # composite 110; (0.01 * 130 + 0.01 * 110) / 0.02 = 120
    (entry,) = scores.domains["law"].entries
    assert scores.models["alpha"].composite == pytest.approx(110.0)
    assert entry.composite_iq == 120
