"""Offsets, priors, posterior and the abstract-reasoning blend (METHODOLOGY section 2)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support.scoring import PARAMETERS

from generator.scoring.abstract import blend, fit_predictor
from generator.scoring.dimensions import (
    AbstractSpread,
    Prior,
    Slot,
    abstract_estimate,
    choose_prior,
    posterior_estimate,
)
from generator.scoring.offsets import benchmark_offsets, direct_estimate, observations
from generator.scoring.posterior import interval, posterior
from generator.scoring.types import DimensionEstimate, Projection


def p(benchmark: str, iq: float) -> Projection:
    return Projection(benchmark=benchmark, raw=iq / 100, iq=iq)


# --- offsets ---------------------------------------------------------------


def test_offsets_shrink_mean_difference_toward_zero() -> None:
    models = [
        (p("x", 110), p("y", 100)),  # x: 110 - 100 = +10, y: 100 - 110 = -10
        (p("x", 120), p("y", 110)),  # x: +10, y: -10
        (p("x", 130),),  # one result: does not count
    ]
    # x: sum 20 over n = 2, k = 2 -> 20 / (2 + 2) = 5; y: -20 / 4 = -5
    assert benchmark_offsets(models, shrinkage=2.0) == {"x": 5.0, "y": -5.0}


def test_offsets_use_the_mean_of_the_other_projections() -> None:
    # x: 110 - (100 + 90) / 2 = 15; y: 100 - (110 + 90) / 2 = 0; z: 90 - (110 + 100) / 2 = -15
    # k = 0 -> the plain mean difference
    offsets = benchmark_offsets([(p("x", 110), p("y", 100), p("z", 90))], shrinkage=0.0)
    assert offsets == {"x": 15.0, "y": 0.0, "z": -15.0}


def test_offset_is_zero_without_any_model_with_two_results() -> None:
    assert benchmark_offsets([(p("x", 120),), (p("y", 80),)], shrinkage=0.0) == {
        "x": 0.0,
        "y": 0.0,
    }


def test_observations_subtract_offsets() -> None:
    # 120 - 5 = 115; 100 - (-5) = 105
    assert observations([p("x", 120), p("y", 100)], {"x": 5.0, "y": -5.0}) == (115.0, 105.0)


def test_direct_estimate_is_the_clamped_mean() -> None:
    assert direct_estimate([110.0, 100.0]) == 105.0
    assert direct_estimate([170.0, 160.0]) == 160.0  # (170 + 160) / 2 = 165 -> 160
    assert direct_estimate([]) is None


# --- posterior ---------------------------------------------------------------


def test_posterior_mean_and_sd() -> None:
    # P = 1/20^2 + 1/10^2 = 0.0025 + 0.01 = 0.0125
    # mean = (100/400 + 120/100) / 0.0125 = (0.25 + 1.2) / 0.0125 = 116; sd = 1/sqrt(0.0125)
    mean, sd = posterior(100.0, 20.0, [(120.0, 10.0)])
    assert mean == pytest.approx(116.0)
    assert sd == pytest.approx(8.94427191)


def test_posterior_with_two_noises() -> None:
    # P = 1/10^2 + 1/10^2 + 1/5^2 = 0.01 + 0.01 + 0.04 = 0.06
    # mean = (100*0.01 + 130*0.01 + 110*0.04) / 0.06 = (1 + 1.3 + 4.4) / 0.06 = 111.6667
    mean, sd = posterior(100.0, 10.0, [(130.0, 10.0), (110.0, 5.0)])
    assert mean == pytest.approx(111.666667)
    assert sd == pytest.approx(1 / math.sqrt(0.06))


def test_posterior_without_observations_is_the_prior() -> None:
    assert posterior(107.3, 15.0, []) == (107.3, 15.0)


def test_interval_is_clamped_to_the_scale() -> None:
    # 150 +/- 1.96 * 8 = 134.32 .. 165.68 -> 134.32 .. 160
    low, high = interval(150.0, 8.0, 1.96)
    assert [low, high] == pytest.approx([134.32, 160.0])


@given(
    st.floats(min_value=70, max_value=160),
    st.floats(min_value=1, max_value=40),
    st.lists(
        st.tuples(st.floats(min_value=60, max_value=170), st.floats(min_value=1, max_value=40)),
        min_size=1,
        max_size=6,
    ),
)
def test_posterior_mean_lies_between_prior_and_data(
    prior_mean: float, prior_sd: float, data: list[tuple[float, float]]
) -> None:
    weights = [1 / sigma**2 for _, sigma in data]
    data_mean = sum(y * w for (y, _), w in zip(data, weights, strict=True)) / sum(weights)
    mean, sd = posterior(prior_mean, prior_sd, data)
    assert min(prior_mean, data_mean) - 1e-9 <= mean <= max(prior_mean, data_mean) + 1e-9
    assert 0 < sd <= prior_sd


# --- prior waterfall ---------------------------------------------------------


def _estimate(value: float | None, evidence: bool, slug: str = "math") -> DimensionEstimate:
    return DimensionEstimate(
        slug=slug,
        value=value,
        sd=None,
        covered=1 if evidence else 0,
        total=2,
        imputed=False,
        method="posterior",
        evidence=evidence,
    )


def test_prior_from_predecessor_alone_without_other_evidence() -> None:
    # no direct estimate elsewhere: no C, drift 0, mu_P = the predecessor's 112, sd 15
    prior = choose_prior(
        "math", {"math": None, "acad": None}, [_estimate(112.0, True)], 100.0, PARAMETERS
    )
    assert prior == Prior(
        mean=112.0,
        sd=15.0,
        source="predecessor",
        evidence=True,
        components=(("mu-P", 112.0), ("drift", 0.0)),
    )


def test_combined_prior_worked_example() -> None:
    # The predecessor: math 112, acad 100, code 104. The model: direct acad 110, code 112.
    #   drift = mean((110 - 100), (112 - 104)) = (10 + 8) / 2 = 9; mu_P = 112 + 9 = 121
    #   C = mean(110, 112) = 111
    #   sigma_predecessor 15, sigma_cross 12: 1/sd0^2 = 1/225 + 1/144 = 369/32400
    #   sd0^2 = 87.8049; weight_P = sd0^2/225 = 144/369 = 0.3902, weight_C = 225/369 = 0.6098
    #   mean0 = (144 * 121 + 225 * 111) / 369 = (17424 + 24975) / 369 = 42399 / 369 = 114.9024
    predecessor = [
        _estimate(112.0, True),
        _estimate(100.0, True, "acad"),
        _estimate(104.0, False, "code"),
    ]
    direct = {"math": None, "acad": 110.0, "code": 112.0, "use": None}
    prior = choose_prior("math", direct, predecessor, 95.0, PARAMETERS)
    assert prior is not None
    assert (prior.source, prior.evidence) == ("predecessor-cross", True)
    assert prior.mean == pytest.approx(42399 / 369)
    assert prior.sd == pytest.approx(math.sqrt(32400 / 369))
    assert dict(prior.components) == pytest.approx(
        {"mu-P": 121.0, "drift": 9.0, "C": 111.0, "weight-P": 144 / 369, "weight-C": 225 / 369}
    )


def test_prior_skips_a_predecessor_without_estimate() -> None:
    # cross-dimension: mean of the other direct estimates (120 + 100) / 2 = 110, sd_cross 12;
    # the model's own direct estimate in the dimension (130) is not part of its prior
    direct = {"math": 130.0, "acad": 120.0, "code": 100.0, "use": None}
    prior = choose_prior("math", direct, [_estimate(None, False)], 95.0, PARAMETERS)
    assert prior == Prior(
        mean=110.0, sd=12.0, source="cross-dimension", evidence=False, components=(("C", 110.0),)
    )


def test_prior_falls_back_to_population() -> None:
    prior = choose_prior("math", {"math": 130.0, "acad": None}, None, 95.0, PARAMETERS)
    assert prior == Prior(mean=95.0, sd=20.0, source="population", evidence=False)
    assert choose_prior("math", {"math": None}, None, None, PARAMETERS) is None


# --- one posterior dimension -------------------------------------------------

SLOT = Slot(slug="mathematical-reasoning", total=4, min_benchmarks=2)


def test_posterior_estimate_uses_offsets_and_noise() -> None:
    prior = Prior(mean=100.0, sd=20.0, source="cross-dimension", evidence=False)
    # y = 125 - 5 = 120 with sigma 10: the 116 / 8.944 case above
    estimate = posterior_estimate(SLOT, [p("x", 125)], {"x": 5.0}, {"x": 10.0}, prior, True, 1.96)
    assert estimate.value == pytest.approx(116.0)
    assert estimate.sd == pytest.approx(8.94427191)
    assert (estimate.method, estimate.covered, estimate.total) == ("posterior", 1, 4)
    assert estimate.imputed  # 1 < min_benchmarks 2
    assert estimate.evidence
    assert estimate.offsets == (("x", 5.0),)
    assert estimate.inputs == (("data-mean", 120.0),)


def test_posterior_estimate_clamps_the_mean() -> None:
    prior = Prior(mean=160.0, sd=10.0, source="cross-dimension", evidence=False)
    # y = 160 - (-30) = 190; (160 + 190) / 2 = 175 -> clamped to 160
    estimate = posterior_estimate(SLOT, [p("x", 160)], {"x": -30.0}, {"x": 10.0}, prior, True, 1.96)
    assert estimate.value == 160.0


def test_inherited_estimate_keeps_zero_coverage() -> None:
    prior = Prior(mean=118.0, sd=15.0, source="predecessor", evidence=True)
    estimate = posterior_estimate(SLOT, [], {}, {}, prior, False, 1.96)
    assert (estimate.value, estimate.sd, estimate.method) == (118.0, 15.0, "predecessor-prior")
    assert (estimate.covered, estimate.imputed, estimate.evidence) == (0, True, True)


def test_prior_only_estimate_without_evidence_shows_only_with_a_composite() -> None:
    prior = Prior(mean=108.0, sd=12.0, source="cross-dimension", evidence=False)
    shown = posterior_estimate(SLOT, [], {}, {}, prior, True, 1.96)
    hidden = posterior_estimate(SLOT, [], {}, {}, prior, False, 1.96)
    assert (shown.value, shown.method, shown.evidence) == (108.0, "cross-dimension-prior", False)
    assert (hidden.value, hidden.method, hidden.prior_mean) == (None, "no-estimate", 108.0)


# --- abstract reasoning ------------------------------------------------------

ARC = Slot(slug="abstract-reasoning", total=3, min_benchmarks=1)
SPREAD = AbstractSpread(weight=0.5, sigmas={"a": 6.0, "b": 8.0}, population_sd=20.0, z=1.96)


def test_abstract_direct_mean_of_available_projections() -> None:
    # (120 + 105) / 2 = 112.5, whatever the legacy estimate says
    estimate = abstract_estimate(
        ARC,
        [p("a", 120), p("b", 105)],
        90.0,
        100.0,
        fit_predictor([(100.0, 100.0)]),
        99.0,
        SPREAD,
        False,
    )
    assert (estimate.value, estimate.method, estimate.covered, estimate.imputed) == (
        112.5,
        "direct-mean",
        2,
        False,
    )
    # sd = sqrt(sigma_a^2 + sigma_b^2) / k = sqrt(36 + 64) / 2 = 5; range 112.5 -/+ 9.8
    assert estimate.sd == pytest.approx(5.0)
    assert (estimate.low95, estimate.high95) == pytest.approx((102.7, 122.3))


def test_fit_predictor_least_squares() -> None:
    # x = 100, 110, 120; y = 95, 115, 125: mean x 110, mean y 111.6667
    # sxy = (-10)(-16.667) + 0 + 10 * 13.333 = 300; sxx = 200 -> slope 1.5
    # intercept = 111.6667 - 1.5 * 110 = -53.3333
    predictor = fit_predictor([(100.0, 95.0), (110.0, 115.0), (120.0, 125.0)])
    assert predictor is not None
    assert predictor.slope == pytest.approx(1.5)
    assert predictor.intercept == pytest.approx(-53.333333)
    assert predictor.predict(104.0) == pytest.approx(102.666667)  # -53.3333 + 156
    assert predictor.predict(200.0) == 160.0  # 246.67 clamped


def test_fit_predictor_degenerate_cases() -> None:
    assert fit_predictor([]) is None
    single = fit_predictor([(100.0, 120.0)])  # one sample: flat at y
    flat = fit_predictor([(100.0, 120.0), (100.0, 110.0)])  # equal x: flat at mean y 115
    assert single is not None and flat is not None
    assert (single.slope, single.predict(130.0)) == (0.0, 120.0)
    assert (flat.slope, flat.predict(90.0)) == (0.0, 115.0)


@pytest.mark.parametrize(
    ("legacy", "predicted", "expected"),
    [
        (100.0, 120.0, (115.0, "legacy-predicted-blend")),  # 0.25 * 100 + 0.75 * 120
        (100.0, None, (100.0, "legacy-estimate")),
        (None, 120.0, (120.0, "predicted")),
        (None, None, None),
    ],
    ids=["both", "only-legacy", "only-predicted", "neither"],
)
def test_blend(
    legacy: float | None, predicted: float | None, expected: tuple[float, str] | None
) -> None:
    assert blend(legacy, predicted, 0.25) == expected


def test_abstract_blend_reports_zero_coverage_and_inputs() -> None:
    predictor = fit_predictor([(100.0, 120.0)])  # flat at 120
    # 0.5 * 104 + 0.5 * 120 = 112
    estimate = abstract_estimate(ARC, [], 104.0, 99.0, predictor, 101.0, SPREAD, True)
    assert (estimate.value, estimate.method) == (112.0, "legacy-predicted-blend")
    assert (estimate.covered, estimate.imputed, estimate.evidence) == (0, True, False)
    assert dict(estimate.inputs)["predicted"] == 120.0
    # one fit sample has no residual sd: sigma_population 20 stands in
    assert estimate.sd == 20.0


def test_abstract_predicted_sd_is_the_residual_sd_of_the_fit() -> None:
    # fit of the least-squares example below: residuals 95 - 96.6667 = -1.6667,
    #   115 - 111.6667 = 3.3333, 125 - 126.6667 = -1.6667; SSE = 2.7778 + 11.1111 + 2.7778
    #   = 16.6667; sd = sqrt(16.6667 / (3 - 2)) = 4.0825
    predictor = fit_predictor([(100.0, 95.0), (110.0, 115.0), (120.0, 125.0)])
    estimate = abstract_estimate(ARC, [], None, 104.0, predictor, 101.0, SPREAD, True)
    assert estimate.method == "predicted"
    assert estimate.sd == pytest.approx(math.sqrt(50 / 3))


def test_abstract_neither_uses_the_population_mean() -> None:
    estimate = abstract_estimate(ARC, [], None, None, None, 101.0, SPREAD, True)
    assert (estimate.value, estimate.method) == (101.0, "population-mean")


def test_abstract_without_direct_results_hidden_without_composite() -> None:
    estimate = abstract_estimate(ARC, [], 104.0, None, None, 101.0, SPREAD, False)
    assert (estimate.value, estimate.method) == (None, "no-estimate")
