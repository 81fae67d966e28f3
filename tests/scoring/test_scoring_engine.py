"""compute_scores end to end on a small hand-checked dataset (METHODOLOGY 2-4).

Every ladder is linear (raw x -> IQ 100x) and every model has at most one result
per dimension, so all offsets are 0. sigma_benchmark 10, sigma_cross_scale 144,
sigma_predecessor 15, sigma_population 20 (tests/support/scoring.py).
"""

from __future__ import annotations

import math

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.scoring import iq_results, make_dataset, make_model, standard_benchmarks

from generator.input.records import Dataset, ModelRecord
from generator.scoring import compute_scores
from generator.scoring.engine import predecessor_order
from generator.scoring.types import ModelScores, Scores


def _dataset() -> Dataset:
    return make_dataset(
        [
            make_model("alpha", iq_results(arc_a=120, math_a=110, acad_a=94, eq_a=120, eq_b=131)),
            make_model("alpha-2", iq_results(math_a=120), predecessor="alpha", family="alpha"),
            make_model("beta", iq_results(math_a=90, code_a=100), legacy=100.0),
            make_model("solo", iq_results(math_a=130)),
        ]
    )


@pytest.fixture(scope="module")
def scores() -> Scores:
    return compute_scores(_dataset())


def _values(model: ModelScores) -> list[float | None]:
    return [d.value for d in model.dimensions]


def test_cross_dimension_posteriors(scores: Scores) -> None:
    alpha = scores.models["alpha"]
    # math: C = mean(abstract 120, academic 94) = 107 over n_C = 2, variance 144 / 2 = 72;
    #   y = 110, sigma 10: (107 * 100 + 110 * 72) / (100 + 72) = 18620 / 172 = 108.2558
    # academic: C = mean(120, 110) = 115; (115 * 100 + 94 * 72) / 172 = 18268 / 172
    # the four dimensions without data: C = mean(120, 110, 94) = 108, variance 144 / 3 = 48
    assert _values(alpha) == pytest.approx(
        [120.0, 18620 / 172, 18268 / 172, 108.0, 108.0, 108.0, 108.0]
    )
    math_dim = alpha.dimensions[1]
    assert (math_dim.method, math_dim.prior_source, math_dim.prior_mean) == (
        "posterior",
        "cross-dimension",
        107.0,
    )
    assert math_dim.sd == pytest.approx(1 / math.sqrt(1 / 72 + 1 / 100))
    assert [d.method for d in alpha.dimensions[3:]] == ["cross-dimension-prior"] * 4
    assert [d.sd for d in alpha.dimensions[3:]] == pytest.approx([math.sqrt(48)] * 4)
    assert [d.imputed for d in alpha.dimensions] == [False, False, False, True, True, True, True]


def test_abstract_posterior_with_the_regression_prior(scores: Scores) -> None:
    # The regression is fitted on alpha only (x = mean(110, 94) = 102, y = 120): flat at 120,
    # no residual sd with one sample, so s_R = sigma_population 20. alpha: prior R = 120,
    # sd 20; y = 120, sigma 10: mean 120, sd = 1 / sqrt(1/400 + 1/100) = sqrt(80)
    abstract = scores.models["alpha"].dimensions[0]
    assert (abstract.value, abstract.method, abstract.prior_source) == (
        120.0,
        "posterior",
        "regression",
    )
    assert abstract.sd == pytest.approx(math.sqrt(80))


def test_composite_is_the_mean_of_all_seven_rounded_half_up(scores: Scores) -> None:
    # alpha: (120 + 108.2558 + 106.2093 + 4 * 108) / 7 = 766.4651 / 7 = 109.4950 -> 109
    alpha = scores.models["alpha"]
    assert alpha.composite == pytest.approx((120 + 18620 / 172 + 18268 / 172 + 432) / 7)
    assert (alpha.iq, alpha.rank) == (109, 1)
    # beta: abstract 110 (below) + math 22960/244 + code 23400/244 + 4 * 95
    #   = (110 + 190 + 380) / 7 = 680 / 7 = 97.1429 -> 97, rank 2
    beta = scores.models["beta"]
    assert beta.composite == pytest.approx(680 / 7)
    assert (beta.iq, beta.rank) == (97, 2)


def test_abstract_prior_from_regression_and_legacy(scores: Scores) -> None:
    # beta has no abstract result: R = 120 (the flat fit) and legacy 100, each with sd
    #   s_R = 20: equal weights, mean0 = 110, sd0 = sqrt(400 / 2) = 14.1421; zero coverage
    abstract = scores.models["beta"].dimensions[0]
    assert (abstract.value, abstract.method) == (110.0, "regression-legacy-prior")
    assert abstract.sd == pytest.approx(math.sqrt(200))
    assert (abstract.covered, abstract.total, abstract.imputed) == (0, 2, True)
    # math: C = code 100 over n_C = 1, variance 144; (100 * 100 + 90 * 144) / 244 = 94.0984
    assert scores.models["beta"].dimensions[1].value == pytest.approx(22960 / 244)


def test_predecessor_prior_and_inherited_estimates(scores: Scores) -> None:
    successor = scores.models["alpha-2"]
    abstract, math_dim, academic = successor.dimensions[:3]
    alpha_math, alpha_academic = 18620 / 172, 18268 / 172
    # math: prior = alpha's posterior 108.2558 (no drift: alpha-2 has no other direct
    #   dimension), sd 15; y = 120, sigma 10: (108.2558 * 100 + 120 * 225) / 325 = 116.3864
    assert math_dim.value == pytest.approx((alpha_math * 100 + 120 * 225) / 325)
    assert (math_dim.prior_source, math_dim.prior_sd) == ("predecessor", 15.0)
    # academic: alpha-2 has no academic result; its own other evidence is math 120.
    #   C = 120 over n_C = 1 (variance 144)
    #   drift = mean over S = {math} of (own 120 - alpha's 108.2558) = 11.7442
    #   mu_P = alpha's academic 106.2093 + drift = 117.9535, sigma_pred 15
    #   1/sd0^2 = 1/225 + 1/144 = 369/32400; mean0 = (144 mu_P + 225 C) / 369 = 119.1979
    mu_p = alpha_academic + (120 - alpha_math)
    assert academic.value == pytest.approx((144 * mu_p + 225 * 120) / 369)
    assert academic.sd == pytest.approx(math.sqrt(32400 / 369))
    assert dict(academic.inputs)["drift"] == pytest.approx(120 - alpha_math)
    assert (academic.method, academic.covered, academic.imputed, academic.evidence) == (
        "predecessor-cross-prior",
        0,
        True,
        True,
    )
    # abstract (version 3, like 2-7): alpha's abstract 120 is evidence, so alpha-2 inherits it.
    #   mu_P = 120 + the same drift 11.7442 = 131.7442, sd 15; R = 120 (x = math 120), sd 20
    #   1/sd0^2 = 1/225 + 1/400 = 625/90000 -> sd0 = 12; mean0 = (400 mu_P + 225 * 120) / 625
    #   = 127.5163, zero coverage
    assert abstract.value == pytest.approx((400 * (120 + 120 - alpha_math) + 225 * 120) / 625)
    assert abstract.sd == pytest.approx(12.0)
    assert (abstract.method, abstract.covered, abstract.evidence) == (
        "predecessor-regression-prior",
        0,
        True,
    )
    # alpha's four cross-dimension dimensions carry no evidence, and alpha-2 (one direct
    # dimension, no composite) shows no estimate there
    assert _values(successor)[3:] == [None, None, None, None]
    assert (successor.composite, successor.iq, successor.rank) == (None, None, None)
    assert (successor.direct_dimensions, successor.evidence_dimensions) == (1, 3)


def test_population_prior(scores: Scores) -> None:
    # population mean of math direct estimates: (110 + 120 + 90 + 130) / 4 = 112.5, sd 20
    # solo: (112.5 * 100 + 130 * 400) / 500 = 126.5; sd = sqrt(1 / (1/400 + 1/100)) = sqrt(80)
    math_dim = scores.models["solo"].dimensions[1]
    assert math_dim.value == pytest.approx(126.5)
    assert math_dim.sd == pytest.approx(math.sqrt(80))
    assert (math_dim.prior_source, math_dim.prior_mean) == ("population", 112.5)


def test_iq_coverage_counts(scores: Scores) -> None:
    counts = {m: (s.direct_dimensions, s.evidence_dimensions) for m, s in scores.models.items()}
    assert counts == {"alpha": (3, 3), "alpha-2": (1, 3), "beta": (2, 2), "solo": (1, 1)}


def test_composite_needs_min_direct_dimensions() -> None:
    # solo has one direct dimension: no composite with the default 2, one with min 1
    assert compute_scores(_dataset()).models["solo"].iq is None
    relaxed = compute_scores(make_dataset(list(_dataset().models), min_direct_dimensions=1))
    assert relaxed.models["solo"].iq is not None


def test_eq_is_the_rounded_mean_of_eq_projections(scores: Scores) -> None:
    # (120 + 131) / 2 = 125.5 -> 126; EQ never enters the composite
    assert scores.models["alpha"].eq == 126
    assert [p.benchmark for p in scores.models["alpha"].eq_projections] == ["eq-a", "eq-b"]
    assert scores.models["beta"].eq is None


def test_abstract_population_mean_when_no_predictor() -> None:
    # Nobody has abstract results next to other dimensions: no regression, and gamma has
    # no predecessor or legacy estimate -> the population prior of abstract (arc-only: 130)
    dataset = make_dataset(
        [
            make_model("arc-only", iq_results(arc_a=130)),
            make_model("gamma", iq_results(math_a=100, acad_a=110)),
        ]
    )
    abstract = compute_scores(dataset).models["gamma"].dimensions[0]
    assert (abstract.value, abstract.sd, abstract.method) == (130.0, 20.0, "population-prior")


def test_best_result_per_benchmark_across_harnesses() -> None:
    model = make_model("m", [*iq_results(math_a=100, acad_a=120), *iq_results(math_a=110)])
    scores = compute_scores(make_dataset([model]))
    assert scores.models["m"].dimensions[1].projections[0].iq == pytest.approx(110.0)


def test_offsets_enter_the_observations() -> None:
    # two models with both math benchmarks: math-a runs 10 above math-b for each;
    # offsets (k = 2): math-a = 20 / (2 + 2) = 5, math-b = -5
    dataset = make_dataset(
        [
            make_model("m1", iq_results(math_a=110, math_b=100, acad_a=100)),
            make_model("m2", iq_results(math_a=120, math_b=110, acad_a=100)),
        ]
    )
    math_dim = compute_scores(dataset).models["m1"].dimensions[1]
    assert dict(math_dim.offsets) == pytest.approx({"math-a": 5.0, "math-b": -5.0})
    # y = 105, 105 (m2: 115, 115): each result lies exactly on the model's other one,
    #   e = 0, so s^2 = max(0, 0 - sigma_other^2) = 0 and sigma^2 = (2 * 0 + 4 * 10^2) / (2 + 4)
    #   = 200/3 for both benchmarks (1/sigma^2 = 0.015)
    # prior C = 100 (academic, n_C = 1), sd sqrt(144 / 1) = 12:
    #   (100/144 + 210 * 0.015) / (1/144 + 2 * 0.015) = 104.0602
    assert dict(math_dim.inputs) == pytest.approx(
        {"n-C": 1.0, "C": 100.0, "sd-C": 12.0, "data-mean": 105.0}
    )
    assert math_dim.value == pytest.approx((100 / 144 + 3.15) / (1 / 144 + 0.03))


def test_predecessor_order_puts_ancestors_first() -> None:
    models = [
        make_model("a-3", predecessor="a-2"),
        make_model("a-1"),
        make_model("a-2", predecessor="a-1"),
        make_model("b", predecessor="not-published"),
    ]
    assert predecessor_order(models) == ["a-1", "a-2", "a-3", "b"]


# --- determinism -------------------------------------------------------------

_IDS = [b.id for b in standard_benchmarks()]
_ENCODER = msgspec.json.Encoder(order="deterministic")


@st.composite
def _models(draw: st.DrawFn) -> list[ModelRecord]:
    count = draw(st.integers(min_value=1, max_value=6))
    models = []
    for index in range(count):
        chosen = draw(st.lists(st.sampled_from(_IDS), unique=True, max_size=8))
        iqs = {bid.replace("-", "_"): draw(st.floats(60, 170)) for bid in chosen}
        parent = draw(st.sampled_from([None, *(f"m{i}" for i in range(index))]))
        models.append(make_model(f"m{index}", iq_results(**iqs), predecessor=parent))
    return models


@settings(max_examples=40, deadline=None)
@given(_models())
def test_same_input_same_bytes(models: list[ModelRecord]) -> None:
    first = _ENCODER.encode(compute_scores(make_dataset(models)))
    again = _ENCODER.encode(compute_scores(make_dataset(models)))
    shuffled = Dataset(
        **{**msgspec.structs.asdict(make_dataset(models)), "models": tuple(reversed(models))}
    )
    assert first == again == _ENCODER.encode(compute_scores(shuffled))


@settings(max_examples=40, deadline=None)
@given(_models())
def test_composite_ranks_follow_published_iq(models: list[ModelRecord]) -> None:
    ranked = sorted(
        (s for s in compute_scores(make_dataset(models)).models.values() if s.rank is not None),
        key=lambda s: s.rank or 0,
    )
    assert [s.rank for s in ranked] == list(range(1, len(ranked) + 1))
    keys = [(-(s.iq or 0), s.model_id) for s in ranked]
    assert keys == sorted(keys)
    for s in ranked:
        assert s.iq is not None and 70 <= s.iq <= 160


@settings(max_examples=40, deadline=None)
@given(_models())
def test_every_rank_lies_in_its_band_and_every_sd_is_positive(models: list[ModelRecord]) -> None:
    scores = compute_scores(make_dataset(models))
    for s in scores.models.values():
        if s.rank is None:
            assert s.rank_band is None and s.composite_sd is None
            continue
        assert s.rank_band is not None and s.composite_sd is not None
        assert s.rank_band.low <= s.rank <= s.rank_band.high
        assert s.composite_low95 is not None and s.composite_high95 is not None
        assert 70 <= s.composite_low95 <= s.composite_high95 <= 160  # type: ignore[operator]
        for estimate, band in zip(s.dimensions, s.dimension_bands, strict=True):
            assert estimate.sd is not None and estimate.sd > 0
            assert band is not None and band.low <= band.high
    assert all(0 < n.sd < math.inf for n in scores.noise.values())
