"""Offsets, priors and posteriors of every dimension (METHODOLOGY section 2, version 3)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support.scoring import PARAMETERS, make_parameters

from generator.scoring.abstract import fit_predictor
from generator.scoring.dimensions import Slot, posterior_estimate
from generator.scoring.offsets import benchmark_offsets, direct_estimate, observations
from generator.scoring.posterior import interval, posterior
from generator.scoring.priors import Prior, abstract_prior, choose_prior, sigma_cross
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


# --- prior waterfall, dimensions 2-7 (test parameters: sigma_predecessor 15,
# sigma_cross_scale 144, sigma_population 20) ------------------------------------


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
        components=(("drift", 0.0), ("mu-P", 112.0), ("sd-mu-P", 15.0)),
    )


def test_combined_prior_worked_example() -> None:
    # The predecessor: math 112, acad 100, code 104. The model: direct acad 110, code 112.
    #   drift = mean((110 - 100), (112 - 104)) = (10 + 8) / 2 = 9; mu_P = 112 + 9 = 121
    #   C = mean(110, 112) = 111 over n_C = 2 dimensions: sigma_C^2 = 144 / 2 = 72
    #   sigma_predecessor 15: 1/sd0^2 = 1/225 + 1/72 = (72 + 225) / 16200 = 297/16200
    #   weight_P = sd0^2/225 = 72/297 = 0.2424, weight_C = 225/297 = 0.7576
    #   mean0 = (72 * 121 + 225 * 111) / 297 = (8712 + 24975) / 297 = 33687 / 297 = 113.4242
    predecessor = [
        _estimate(112.0, True),
        _estimate(100.0, True, "acad"),
        _estimate(104.0, False, "code"),
    ]
    direct = {"math": None, "acad": 110.0, "code": 112.0, "use": None}
    prior = choose_prior("math", direct, predecessor, 95.0, PARAMETERS)
    assert prior is not None
    assert (prior.source, prior.evidence) == ("predecessor-cross", True)
    assert prior.mean == pytest.approx(33687 / 297)
    assert prior.sd == pytest.approx(math.sqrt(16200 / 297))
    assert dict(prior.components) == pytest.approx(
        {
            "drift": 9.0,
            "n-C": 2.0,
            "mu-P": 121.0,
            "sd-mu-P": 15.0,
            "weight-mu-P": 72 / 297,
            "C": 111.0,
            "sd-C": math.sqrt(72),
            "weight-C": 225 / 297,
        }
    )


def test_prior_skips_a_predecessor_without_estimate() -> None:
    # cross-dimension: mean of the other direct estimates (120 + 100) / 2 = 110 over n_C = 2,
    # sd sqrt(144 / 2) = 8.4853; the model's own direct estimate in the dimension (130) is
    # not part of its prior
    direct = {"math": 130.0, "acad": 120.0, "code": 100.0, "use": None}
    prior = choose_prior("math", direct, [_estimate(None, False)], 95.0, PARAMETERS)
    assert prior is not None
    assert (prior.mean, prior.source, prior.evidence) == (110.0, "cross-dimension", False)
    assert prior.sd == pytest.approx(math.sqrt(72))


@pytest.mark.parametrize(
    ("n_c", "expected"),
    [
        (1, 14.142136),  # sqrt(200 / 1) = 14.1421: about one ladder step from one dimension
        (6, 5.773503),  # sqrt(200 / 6) = sqrt(33.3333) = 5.7735: the mean of six says more
    ],
)
def test_sigma_cross_shrinks_with_the_dimensions_averaged(n_c: int, expected: float) -> None:
    shipped = make_parameters(sigma_cross_scale=200.0)
    assert sigma_cross(shipped, n_c) == pytest.approx(expected)
    # the same sd as the prior of a model with n_c other direct dimensions, all at 110
    others = {f"d{i}": 110.0 for i in range(n_c)}
    prior = choose_prior("math", {"math": None, **others}, None, 95.0, shipped)
    assert prior is not None
    assert (prior.mean, prior.source) == (110.0, "cross-dimension")
    assert prior.sd == pytest.approx(expected)


def test_prior_falls_back_to_population() -> None:
    prior = choose_prior("math", {"math": 130.0, "acad": None}, None, 95.0, PARAMETERS)
    assert prior == Prior(mean=95.0, sd=20.0, source="population", evidence=False)
    assert choose_prior("math", {"math": None}, None, None, PARAMETERS) is None


# --- abstract reasoning's prior (2.1) -------------------------------------------
# The regression of the least-squares example below: slope 1.5, intercept -53.3333,
# residual sd s_R = sqrt(50/3) = 4.0825 (s_R^2 = 16.6667). The model's only other direct
# dimension is math 104, so x = 104 and R = -53.3333 + 1.5 * 104 = 102.6667. Its
# predecessor: abstract 100, math 98, so drift = 104 - 98 = 6 and mu_P = 106 (sd 15).

ABSTRACT = "abstract"
FIT = fit_predictor([(100.0, 95.0), (110.0, 115.0), (120.0, 125.0)])
OWN = {ABSTRACT: None, "math": 104.0}
PARENT = [_estimate(100.0, True, ABSTRACT), _estimate(98.0, True, "math")]


def test_abstract_prior_combines_predecessor_and_regression() -> None:
    # 1/sd0^2 = 1/225 + 3/50 = (50 + 675) / 11250 = 725/11250 -> sd0^2 = 15.5172
    # weight_P = sd0^2 / 225 = 50/725 = 0.0690; weight_R = sd0^2 / (50/3) = 675/725 = 0.9310
    # mean0 = (50 * 106 + 675 * 102.6667) / 725 = (5300 + 69300) / 725 = 74600/725 = 102.8966
    prior = abstract_prior(ABSTRACT, OWN, PARENT, FIT, None, 101.0, PARAMETERS)
    assert prior is not None
    assert (prior.source, prior.evidence) == ("predecessor-regression", True)
    assert prior.mean == pytest.approx(74600 / 725)
    assert prior.sd == pytest.approx(math.sqrt(11250 / 725))
    parts = dict(prior.components)
    assert parts["mu-P"] == pytest.approx(106.0)
    assert parts["drift"] == pytest.approx(6.0)
    assert parts["R"] == pytest.approx(308 / 3)
    assert parts["sd-R"] == pytest.approx(math.sqrt(50 / 3))
    assert (parts["weight-mu-P"], parts["weight-R"]) == pytest.approx((50 / 725, 675 / 725))
    assert (parts["other-dimensions-mean"], parts["fit-samples"]) == (104.0, 3.0)


def test_abstract_prior_from_the_regression_alone() -> None:
    # no predecessor: mean0 = R = 102.6667, sd0 = s_R = 4.0825
    prior = abstract_prior(ABSTRACT, OWN, None, FIT, None, 101.0, PARAMETERS)
    assert prior is not None
    assert (prior.source, prior.evidence) == ("regression", False)
    assert (prior.mean, prior.sd) == pytest.approx((308 / 3, math.sqrt(50 / 3)))


def test_abstract_prior_from_the_predecessor_alone() -> None:
    # no regression: mean0 = mu_P = 100 + 6 = 106, sd0 = sigma_predecessor 15
    prior = abstract_prior(ABSTRACT, OWN, PARENT, None, None, 101.0, PARAMETERS)
    assert prior is not None
    assert (prior.source, prior.mean, prior.sd) == ("predecessor", 106.0, 15.0)


def test_abstract_prior_with_neither_is_the_population() -> None:
    # no other direct dimension (so no R) and no predecessor: population 101, sd 20
    prior = abstract_prior(ABSTRACT, {ABSTRACT: None}, None, FIT, None, 101.0, PARAMETERS)
    assert prior == Prior(mean=101.0, sd=20.0, source="population", evidence=False)
    assert abstract_prior(ABSTRACT, {ABSTRACT: None}, None, None, None, None, PARAMETERS) is None


def test_a_legacy_estimate_is_one_more_term_of_sd_s_r() -> None:
    # R 102.6667 and legacy 90, both with variance 50/3: equal weights,
    #   mean0 = (102.6667 + 90) / 2 = 96.3333, sd0^2 = (50/3) / 2 = 25/3
    prior = abstract_prior(ABSTRACT, OWN, None, FIT, 90.0, 101.0, PARAMETERS)
    assert prior is not None
    assert prior.source == "regression-legacy"
    assert (prior.mean, prior.sd) == pytest.approx((289 / 3, math.sqrt(25 / 3)))
    # a fit without a residual sd (one sample) lends sigma_population 20 to both terms
    flat = fit_predictor([(100.0, 120.0)])
    alone = abstract_prior(ABSTRACT, {ABSTRACT: None}, None, flat, 90.0, 101.0, PARAMETERS)
    assert alone is not None
    assert (alone.source, alone.mean, alone.sd) == ("legacy", 90.0, 20.0)


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


# --- abstract reasoning's posterior --------------------------------------------

ARC = Slot(slug="abstract-reasoning", total=3, min_benchmarks=1)


def test_a_floor_result_is_shrunk_toward_the_regression() -> None:
    # prior R: mean 102.6667, variance 50/3 (precision 0.06); one result at the floor,
    # y = 70 with sigma_b 8 (precision 1/64 = 0.015625), no offset:
    #   P = 0.06 + 0.015625 = 0.075625
    #   mean = (102.6667 * 0.06 + 70 * 0.015625) / P = (6.16 + 1.09375) / 0.075625 = 95.9174
    #   sd = 1 / sqrt(0.075625) = 3.6364
    prior = abstract_prior(ABSTRACT, OWN, None, FIT, None, 101.0, PARAMETERS)
    estimate = posterior_estimate(ARC, [p("a", 70)], {}, {"a": 8.0}, prior, True, 1.96)
    assert estimate.value == pytest.approx(7.25375 / 0.075625)
    assert estimate.sd == pytest.approx(1 / math.sqrt(0.075625))
    assert (estimate.method, estimate.covered, estimate.imputed) == ("posterior", 1, False)
    assert estimate.offsets == ()  # abstract reasoning has no offsets
    assert dict(estimate.inputs)["data-mean"] == 70.0


def test_abstract_without_results_is_its_prior_predicted() -> None:
    prior = abstract_prior(ABSTRACT, OWN, None, FIT, None, 101.0, PARAMETERS)
    shown = posterior_estimate(ARC, [], {}, {}, prior, True, 1.96)
    assert (shown.value, shown.sd) == pytest.approx((308 / 3, math.sqrt(50 / 3)))
    assert (shown.method, shown.covered, shown.imputed, shown.evidence) == (
        "predicted",
        0,
        True,
        False,
    )
    hidden = posterior_estimate(ARC, [], {}, {}, prior, False, 1.96)
    assert (hidden.value, hidden.method) == (None, "no-estimate")


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
    # residuals 95 - 96.6667, 115 - 111.6667, 125 - 126.6667: SSE = 2.7778 + 11.1111
    #   + 2.7778 = 16.6667; s_R = sqrt(16.6667 / (3 - 2)) = 4.0825
    assert predictor.residual_sd == pytest.approx(math.sqrt(50 / 3))


def test_fit_predictor_degenerate_cases() -> None:
    assert fit_predictor([]) is None
    single = fit_predictor([(100.0, 120.0)])  # one sample: flat at y
    flat = fit_predictor([(100.0, 120.0), (100.0, 110.0)])  # equal x: flat at mean y 115
    assert single is not None and flat is not None
    assert (single.slope, single.predict(130.0)) == (0.0, 120.0)
    assert (flat.slope, flat.predict(90.0)) == (0.0, 115.0)
    assert single.residual_sd is None and flat.residual_sd is None  # below three samples
