"""Effective cost: base price and the usage-multiplier waterfall (METHODOLOGY section 6)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping

import pytest
from support.scoring import PARAMETERS, iq_results, make_dataset, make_model

from generator.input.records import HostedPriceRecord, ModelRecord, PricesRecord
from generator.scoring import compute_scores
from generator.scoring.cost import PeerIndex, base_price, estimate_cost, geometric_mean
from generator.scoring.types import CostEstimate

HOSTED = HostedPriceRecord(provider="Host", input=0.2, output=0.8, source_url="https://h.example")


@pytest.mark.parametrize(
    ("prices", "expected"),
    [
        (PricesRecord(input=1.0, output=4.0), 5.0),  # 1 + 4
        (PricesRecord(input=0.1, output=0.2), 0.3),  # not 0.30000000000000004
        (PricesRecord(input=0.0, output=0.0), None),  # zero-dollar
        (PricesRecord(input=1.0, output=4.0, free=True), None),
        (PricesRecord(input=1.0, output=4.0, rate_limited=True), None),
        (PricesRecord(input=1.0), None),  # output price unknown
        (PricesRecord(), None),
        (PricesRecord(free=True, hosted=HOSTED), 1.0),  # hosted 0.2 + 0.8
        (PricesRecord(input=0.0, output=0.0, hosted=HOSTED), 1.0),
        (PricesRecord(rate_limited=True, hosted=HOSTED), 1.0),
        (PricesRecord(input=2.0, output=3.0, hosted=HOSTED), 5.0),  # own positive price wins
    ],
    ids=[
        "positive",
        "float-artefact",
        "zero",
        "free",
        "rate-limited",
        "half-known",
        "unknown",
        "free-hosted",
        "zero-hosted",
        "rate-limited-hosted",
        "own-over-hosted",
    ],
)
def test_base_price(prices: PricesRecord, expected: float | None) -> None:
    assert base_price(prices) == expected


def _cost(
    model: ModelRecord, *others: ModelRecord, composites: Mapping[str, float | None] | None = None
) -> CostEstimate:
    models = {m.id: m for m in (model, *others)}
    return estimate_cost(model, models, composites or {}, PARAMETERS)


def test_step_a_measured() -> None:
    cost = _cost(make_model("m", usage=1.5))  # 5 * 1.5 = 7.5
    assert (cost.step, cost.usage_multiplier, cost.usage_multiplier_source) == (
        "a",
        1.5,
        "measured",
    )
    assert (cost.io_per_1m, cost.effective_per_1m, cost.multiplier_from) == (5.0, 7.5, ("m",))


def test_step_b_one_generation_back() -> None:
    parent = make_model("f-1", family="f", usage=2.0)
    child = make_model("f-2", family="f", generation=2, predecessor="f-1")
    cost = _cost(child, parent)  # 5 * 2 = 10
    assert (cost.step, cost.usage_multiplier_source, cost.multiplier_from) == (
        "b",
        "lineage-imputed",
        ("f-1",),
    )
    assert cost.effective_per_1m == 10.0


def test_step_c_two_generations_back() -> None:
    grandparent = make_model("f-1", family="f", usage=0.8)
    parent = make_model("f-2", family="f", generation=2, predecessor="f-1")
    child = make_model("f-3", family="f", generation=3, predecessor="f-2")
    cost = _cost(child, parent, grandparent)  # 5 * 0.8 = 4
    assert (cost.step, cost.usage_multiplier_source, cost.multiplier_from) == (
        "c",
        "lineage-imputed",
        ("f-1",),
    )
    assert cost.effective_per_1m == 4.0


def test_lineage_must_stay_in_the_family() -> None:
    parent = make_model("g-1", family="g", usage=2.0)
    child = make_model("f-2", family="f", predecessor="g-1")
    assert _cost(child, parent).step == "e"


PEERS = [
    make_model("p1", usage=1.0),
    make_model("p2", usage=2.0),
    make_model("p3", usage=4.0),
    make_model("p4", usage=8.0),
    make_model("p5"),  # not measured: never a peer
]


def test_step_d_geometric_mean_of_closest_peers() -> None:
    target = make_model("t")
    composites = {"t": 108.0, "p1": 110.0, "p2": 112.0, "p3": 100.0, "p4": 130.0, "p5": 108.0}
    # distances: p1 2, p2 4, p3 8, p4 22 -> p1, p2, p3; (1 * 2 * 4) ** (1/3) = 2 -> 5 * 2 = 10
    cost = _cost(target, *PEERS, composites=composites)
    assert (cost.step, cost.usage_multiplier_source) == ("d", "peer-imputed")
    assert cost.multiplier_from == ("p1", "p2", "p3")
    assert (cost.usage_multiplier, cost.effective_per_1m) == (2.0, 10.0)


def test_peers_tie_on_iq_break_by_release_date_then_id() -> None:
    target = make_model("t", release_date=dt.date(2025, 11, 1))
    early = make_model("q1", usage=1.0, release_date=dt.date(2025, 1, 1))
    late = make_model("q2", usage=3.0, release_date=dt.date(2025, 12, 1))
    twin = make_model("q0", usage=5.0, release_date=dt.date(2025, 12, 1))
    composites = {"t": 110.0, "q1": 112.0, "q2": 108.0, "q0": 112.0}
    models = {m.id: m for m in (target, early, late, twin)}
    # all at IQ distance 2; q0 and q2 are 30 days away, q1 304: q0, q2 (id), then q1
    assert [p.id for p in PeerIndex(models, composites).closest(target, 3)] == ["q0", "q2", "q1"]


def test_no_composite_skips_peers_to_step_e() -> None:
    cost = _cost(make_model("t"), *PEERS, composites={"p1": 110.0})
    # 5 * 1.0, source null
    assert (cost.step, cost.usage_multiplier, cost.usage_multiplier_source) == ("e", 1.0, None)
    assert cost.effective_per_1m == 5.0


def test_no_base_price_means_no_multiplier() -> None:
    cost = _cost(make_model("t", prices=PricesRecord(free=True), usage=1.5))
    assert (cost.step, cost.io_per_1m, cost.usage_multiplier, cost.effective_per_1m) == (
        "none",
        None,
        None,
        None,
    )
    assert cost.usage_multiplier_source is None


def test_effective_cost_rounds_to_four_decimals() -> None:
    model = make_model("t", prices=PricesRecord(input=0.1234, output=0.0001), usage=1.23456)
    # 0.1235 * 1.23456 = 0.15246816 -> 0.1525
    assert _cost(model).effective_per_1m == 0.1525


def test_geometric_mean() -> None:
    assert geometric_mean([1.0, 4.0]) == pytest.approx(2.0)  # sqrt(1 * 4)


def test_cost_in_compute_scores_uses_composites() -> None:
    dataset = make_dataset(
        [
            make_model("a", iq_results(arc_a=110, math_a=110), usage=2.0),
            make_model("b", iq_results(arc_a=100, math_a=100)),
        ]
    )
    cost = compute_scores(dataset).models["b"].cost
    assert (cost.step, cost.multiplier_from, cost.effective_per_1m) == ("d", ("a",), 10.0)
