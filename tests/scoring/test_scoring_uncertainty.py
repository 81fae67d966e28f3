"""Methodology version 2: benchmark noise, composite sd and rank bands (METHODOLOGY 2.2, 3.1)."""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.input.records import Dataset
from generator.output.pool import map_ordered
from generator.scoring import compute_scores
from generator.scoring.noise import estimate_noise
from generator.scoring.types import RankBand, Scores
from generator.scoring.uncertainty import composite_sd, rank_bands, within_rank

Z = 1.96

# --- noise sigma_b -------------------------------------------------------------


def test_noise_is_shrunk_default_when_results_agree_exactly() -> None:
    # Two models, each with A and B at the same observation: e = 0 for every result.
    #   s_A^2 = max(0, 0 - sigma_B^2) = 0  (the max(0, .) case)
    #   sigma_A^2 = (2 * 0 + 4 * 5^2) / (2 + 4) = 100 / 6 = 16.667
    noise = estimate_noise(
        [[("a", 100.0), ("b", 100.0)], [("a", 120.0), ("b", 120.0)]], ["a", "b"], {}, 5.0, 4.0
    )
    assert noise["a"].sd == pytest.approx(math.sqrt(100 / 6))
    assert (noise["a"].source, noise["a"].models) == ("estimated", 2)


def test_noise_two_benchmarks_converge_to_the_fixed_point() -> None:
    # m1: A 10, B 0; m2: A 0, B 10. e = +-10 each time, so mean e^2 = 100 for both;
    # k = 2, so the other benchmark's whole variance is subtracted:
    #   v = (2 * max(0, 100 - v) + 4 * 25) / 6  ->  6v = 300 - 2v  ->  v = 37.5
    # From v = 25 the iteration goes 41.67, 36.11, 37.96, ... (factor -1/3) to 37.5.
    noise = estimate_noise(
        [[("a", 10.0), ("b", 0.0)], [("a", 0.0), ("b", 10.0)]], ["a", "b"], {}, 5.0, 4.0
    )
    assert noise["a"].sd == pytest.approx(math.sqrt(37.5), abs=1e-8)
    assert noise["b"].sd == pytest.approx(math.sqrt(37.5), abs=1e-8)


def test_noise_three_benchmarks_subtract_the_noise_of_the_others_mean() -> None:
    # One model with A 12, B 0, C 0 (k = 3): e_A = 12 - 0 = 12, e_B = e_C = 0 - 6 = -6.
    # The subtracted term is sum_j sigma_j^2 / (k - 1)^2 = (v_j + v_l) / 4; n = 1, kappa 4,
    # sigma_benchmark 5 (variance 25):
    #   v_A = (144 - (v_B + v_C) / 4 + 100) / 5 = 48.8 - v_B / 10           (v_B = v_C)
    #   v_B = (36 - (v_A + v_B) / 4 + 100) / 5  ->  5.25 v_B = 136 - v_A / 4
    #       = 136 - 12.2 + 0.025 v_B  ->  v_B = 123.8 / 5.225 = 23.6938; v_A = 46.4306
    noise = estimate_noise([[("a", 12.0), ("b", 0.0), ("c", 0.0)]], ["a", "b", "c"], {}, 5.0, 4.0)
    v_b = 123.8 / 5.225
    assert noise["b"].sd == pytest.approx(math.sqrt(v_b), abs=1e-8)
    assert noise["c"].sd == pytest.approx(math.sqrt(v_b), abs=1e-8)
    assert noise["a"].sd == pytest.approx(math.sqrt(48.8 - v_b / 10), abs=1e-8)


def test_noise_keeps_fixed_values_and_defaults() -> None:
    # B is fixed at 3 (variance 9) and feeds A: one model, A 10, B 0, k = 2:
    #   v_A = (1 * max(0, 100 - 9) + 4 * 25) / 5 = 191 / 5 = 38.2
    # C has no model with two results: sigma_benchmark, source default
    noise = estimate_noise(
        [[("a", 10.0), ("b", 0.0)], [("c", 50.0)]], ["a", "b", "c"], {"b": 3.0}, 5.0, 4.0
    )
    assert noise["a"].sd == pytest.approx(math.sqrt(38.2))
    assert (noise["b"].sd, noise["b"].source) == (3.0, "fixed")
    assert (noise["c"].sd, noise["c"].source, noise["c"].models) == (5.0, "default", 0)


def test_a_fitted_ladders_residual_sd_seeds_its_noise() -> None:
    # METHODOLOGY 1.3: A's ladder was fitted with residual sd 20 (variance 400): the estimate
    # starts there and shrinks toward it. m1: A 10, B 0; m2: A 0, B 10 (as above: e = +-10,
    # mean e^2 = 100, k = 2, so the other benchmark's whole variance is subtracted):
    #   v_A = (2 * max(0, 100 - v_B) + 4 * 400) / 6,  v_B = (2 * max(0, 100 - v_A) + 4 * 25) / 6
    # v_A > 100 at the fixed point, so v_B = 100 / 6 = 16.667 and
    #   v_A = (2 * (100 - 16.667) + 1600) / 6 = 1766.667 / 6 = 294.444
    # C has no model with two results: its seed, 12 (source fitted-ladder); D: sigma_benchmark
    noise = estimate_noise(
        [[("a", 10.0), ("b", 0.0)], [("a", 0.0), ("b", 10.0)], [("c", 1.0)], [("d", 1.0)]],
        ["a", "b", "c", "d"],
        {},
        5.0,
        4.0,
        seeds={"a": 20.0, "c": 12.0},
    )
    assert noise["b"].sd == pytest.approx(math.sqrt(100 / 6), abs=1e-8)
    assert noise["a"].sd == pytest.approx(math.sqrt((2 * (100 - 100 / 6) + 1600) / 6), abs=1e-8)
    assert (noise["a"].source, noise["a"].models) == ("estimated", 2)
    assert (noise["c"].sd, noise["c"].source) == (12.0, "fitted-ladder")
    assert (noise["d"].sd, noise["d"].source) == (5.0, "default")


observations = st.floats(min_value=-1e4, max_value=1e4, allow_nan=False)
groups = st.lists(
    st.dictionaries(st.sampled_from("abcde"), observations, min_size=1, max_size=5),
    max_size=12,
)


@given(
    groups,
    st.floats(min_value=0.1, max_value=50),
    st.floats(min_value=0.01, max_value=100),
)
@settings(max_examples=150, deadline=None)
def test_noise_is_positive_and_finite_for_any_input(
    data: list[dict[str, float]], sigma: float, kappa: float
) -> None:
    noise = estimate_noise([list(g.items()) for g in data], list("abcde"), {}, sigma, kappa)
    assert all(0 < n.sd < math.inf for n in noise.values())


# --- composite sd and rank bands ---------------------------------------------------


def test_composite_sd_treats_dimensions_as_independent() -> None:
    # sqrt(3^2 + 4^2 + 0 * 5) / 7 = 5 / 7
    assert composite_sd([3.0, 4.0, 0.0, 0.0, 0.0, 0.0, 0.0]) == pytest.approx(5 / 7)
    # seven equal sds s: sqrt(7 s^2) / 7 = s / sqrt(7)
    assert composite_sd([7.0] * 7) == pytest.approx(7 / math.sqrt(7))


def test_composite_sd_version_4_counts_imputed_dimensions_as_correlated() -> None:
    # Two direct dimensions (sd 3 and 4) and five imputed ones (sd 5 each), rho 0.2:
    #   sum sd^2 = 9 + 16 + 5 * 25 = 150
    #   ordered pairs d != e of imputed: (sum_I sd)^2 - sum_I sd^2 = 25^2 - 125 = 500
    #   sd_c^2 = (150 + 0.2 * 500) / 49 = 250 / 49 -> sd_c = sqrt(250) / 7 = 2.2588
    #   version 3 (rho 0): sqrt(150) / 7 = 1.7496, narrower
    sds = [3.0, 4.0, 5.0, 5.0, 5.0, 5.0, 5.0]
    imputed = [False, False, True, True, True, True, True]
    assert composite_sd(sds, imputed, 0.2) == pytest.approx(math.sqrt(250) / 7)
    assert composite_sd(sds, imputed, 0.0) == pytest.approx(math.sqrt(150) / 7)
    assert composite_sd(sds) == composite_sd(sds, imputed, 0.0)
    # one imputed dimension has no pair: rho changes nothing; rho 1 adds every pair fully:
    #   (9 + 16 + 5 * 25 + 500) / 49 = 650 / 49
    assert composite_sd(sds, [True] + [False] * 6, 0.9) == pytest.approx(math.sqrt(150) / 7)
    assert composite_sd(sds, imputed, 1.0) == pytest.approx(math.sqrt(650) / 7)


def test_rank_bands_worked_example() -> None:
    # A 120 (sd 2), B 118 (sd 2), C 100 (sd 1), z = 1.96:
    #   A vs B: (118 - 120) / sqrt(8) = -0.71: not clear either way
    #   A vs C: (100 - 120) / sqrt(5) = -8.94: C clearly below A
    #   B vs C: (100 - 118) / sqrt(5) = -8.05: C clearly below B
    # A: low 1 + 0 = 1, high 1 + #{not clearly below} = 1 + 1 (B) = 2; B the same;
    # C: both A and B are clearly above: low 1 + 2 = 3, high 3
    bands = rank_bands({"a": (120.0, 2.0), "b": (118.0, 2.0), "c": (100.0, 1.0)}, Z)
    assert bands == {
        "a": RankBand(low=1, high=2),
        "b": RankBand(low=1, high=2),
        "c": RankBand(low=3, high=3),
    }


def test_a_band_is_widened_to_contain_the_published_rank() -> None:
    assert within_rank(RankBand(low=3, high=4), 2) == RankBand(low=2, high=4)
    assert within_rank(RankBand(low=1, high=4), 2) == RankBand(low=1, high=4)


def _naive(estimates: dict[str, tuple[float, float]], z: float) -> dict[str, RankBand]:
    """The definition, pair by pair."""
    bands = {}
    for i, (c_i, sd_i) in estimates.items():
        scores = [
            (c_j - c_i) / scale
            if (scale := math.sqrt(sd_i**2 + sd_j**2))
            else math.copysign(math.inf, c_j - c_i)
            if c_j != c_i
            else 0.0
            for j, (c_j, sd_j) in estimates.items()
            if j != i
        ]
        bands[i] = RankBand(
            low=1 + sum(s >= z for s in scores), high=1 + sum(s > -z for s in scores)
        )
    return bands


entries = st.lists(
    st.tuples(
        st.floats(min_value=70, max_value=160, allow_nan=False),
        st.floats(min_value=0.05, max_value=15, allow_nan=False),
    ),
    min_size=1,
    max_size=150,
    unique_by=lambda e: e[0],
)


@given(entries)
@settings(max_examples=200, deadline=None)
def test_bands_match_the_definition_and_contain_the_rank(items: list[tuple[float, float]]) -> None:
    estimates = {f"m{index:02d}": item for index, item in enumerate(items)}
    bands = rank_bands(estimates, Z)
    assert bands == _naive(estimates, Z)
    # distinct scores: rank = 1 + models above; the band contains it without widening
    for model_id, (score, _) in estimates.items():
        rank = 1 + sum(other > score for other, _ in estimates.values())
        assert bands[model_id].low <= rank <= bands[model_id].high


def test_bands_match_the_definition_on_many_models_with_ties_and_zero_sds() -> None:
    # 600 models (nine sd buckets): scores on a coarse grid so many tie, a tenth with sd 0
    rnd = random.Random(11)
    estimates = {
        f"m{i:03d}": (70 + rnd.randrange(0, 181) / 2, 0.0 if i % 10 == 0 else rnd.uniform(0.1, 15))
        for i in range(600)
    }
    assert rank_bands(estimates, Z) == _naive(estimates, Z)


def test_bands_match_the_definition_when_many_models_share_an_sd() -> None:
    # 700 models as a dimension's bands see them: most share a prior-only sd (6.25, 10,
    # 0 for a tenth), counted against all models at once; the rest spread over 1-4.
    # Scores on a grid of quarters, so exact ties and gaps on the z boundary occur:
    # 6.25 * sqrt(2) * 1.96 is no quarter, but gaps of 0 (sd 0 pairs) are.
    rnd = random.Random(5)
    shared = [6.25] * 6 + [10.0] * 3 + [0.0] * 2
    estimates = {
        f"m{i:03d}": (
            70 + rnd.randrange(0, 361) / 4,
            rnd.choice(shared) if rnd.random() < 0.7 else rnd.uniform(1, 4),
        )
        for i in range(700)
    }
    assert Counter(sd for _, sd in estimates.values()).most_common(1)[0][1] > 250
    assert rank_bands(estimates, Z) == _naive(estimates, Z)


@given(
    st.lists(
        st.tuples(
            st.integers(280, 640).map(lambda q: q / 4),
            st.sampled_from([0.0, 0.5, 2.0, 2.0, 6.25, 6.25, 6.25]),
        ),
        min_size=1,
        max_size=150,
    )
)
@settings(max_examples=100, deadline=None)
def test_bands_match_the_definition_with_few_distinct_sds(
    items: list[tuple[float, float]],
) -> None:
    estimates = {f"m{index:03d}": item for index, item in enumerate(items)}
    assert rank_bands(estimates, Z) == _naive(estimates, Z)


def test_rank_bands_on_the_z_boundary() -> None:
    # z = 2 and sds whose squares sum to a square, so z_ji lands exactly on +-z:
    #   A 100 (sd 3), B 110 (sd 4): z_BA = (110 - 100) / sqrt(9 + 16) = 10 / 5 = 2 >= 2:
    #     B clearly above A; z_AB = -2, not > -2: A clearly below B
    #   A, C 105 (sd 4): z_CA = 5 / 5 = 1; B, C: z_BC = 5 / sqrt(32) = 0.88: neither clear
    # A: low 1 + #{B} = 2, high 1 + #{B, C} = 3; B: low 1, high 1 + #{C} = 2;
    # C: low 1, high 1 + #{A, B} = 3
    bands = rank_bands({"a": (100.0, 3.0), "b": (110.0, 4.0), "c": (105.0, 4.0)}, 2.0)
    assert bands == {
        "a": RankBand(low=2, high=3),
        "b": RankBand(low=1, high=2),
        "c": RankBand(low=1, high=3),
    }


@given(
    st.lists(
        st.tuples(
            st.integers(0, 160).map(lambda q: 80 + q / 4),
            st.sampled_from([0.0, 0.75, 1.0, 3.0, 4.0, 5.0, 12.0]),
        ),
        min_size=1,
        max_size=120,
    ),
    st.sampled_from([0.5, 1.0, 2.0]),
)
@settings(max_examples=150, deadline=None)
def test_bands_match_the_definition_on_exact_boundaries(
    items: list[tuple[float, float]], z: float
) -> None:
    # Quarter-point scores, sds from 0.75-1-1.25, 3-4-5 and 5-12-13 and binary z values:
    # many pairs have z_ji exactly +-z, and many intervals c +- z sd share an endpoint
    # (ties, equal sds, zero sds too), where ">=" and ">" must be told apart exactly.
    estimates = {f"m{index:03d}": item for index, item in enumerate(items)}
    assert rank_bands(estimates, z) == _naive(estimates, z)


@given(entries, st.randoms(use_true_random=False))
@settings(max_examples=100, deadline=None)
def test_bands_do_not_depend_on_order_or_ids(items: list[tuple[float, float]], rnd: object) -> None:
    first = rank_bands({f"m{index:02d}": item for index, item in enumerate(items)}, Z)
    shuffled = list(enumerate(items))
    rnd.shuffle(shuffled)  # type: ignore[attr-defined]
    renamed = {f"z{9999 - index}": item for index, item in shuffled}
    second = rank_bands(renamed, Z)
    assert {items[i]: first[f"m{i:02d}"] for i in range(len(items))} == {
        items[9999 - int(k[1:])]: band for k, band in second.items()
    }


@given(entries)
@settings(max_examples=100, deadline=None)
def test_a_model_far_from_all_others_with_small_sd_has_a_band_of_width_one(
    items: list[tuple[float, float]],
) -> None:
    # every other model's sd is at most 15: a gap of 1000 is > 1.96 * sqrt(0.01 + 225)
    estimates = {f"m{index:02d}": item for index, item in enumerate(items)}
    estimates["far"] = (1160.0, 0.1)
    assert rank_bands(estimates, Z)["far"] == RankBand(low=1, high=1)


# --- the shipped data ---------------------------------------------------------------


def test_shipped_data_every_ranked_model_has_a_band_around_its_rank(
    shipped_scores: tuple[Dataset, Scores],
) -> None:
    _, scores = shipped_scores
    ranked = [s for s in scores.models.values() if s.rank is not None]
    assert len(ranked) >= 59  # as many composites as version 1 gave
    for s in ranked:
        assert s.rank_band is not None and s.composite_sd is not None
        assert s.rank_band.low <= s.rank <= s.rank_band.high
        assert s.composite_low95 is not None and s.composite_high95 is not None
        assert s.composite_low95 <= s.composite <= s.composite_high95  # type: ignore[operator]
    estimated = [n for n in scores.noise.values() if n.source == "estimated"]
    assert estimated and all(0 < n.sd < 20 for n in estimated)


def test_band_passes_counted_in_worker_processes_are_the_same(
    shipped_scores: tuple[Dataset, Scores],
) -> None:
    dataset, scores = shipped_scores
    counts: list[int] = []

    def in_two_workers(task: Callable[[int], bytes], count: int) -> list[bytes]:
        counts.append(count)
        return map_ordered(task, count, workers=2, minimum=2)

    assert compute_scores(dataset, run=in_two_workers) == scores
    assert counts == [8]  # the composite's and the seven dimensions' bands, in one map


def test_a_model_on_two_direct_dimensions_gets_a_wider_range_than_version_3(
    shipped_scores: tuple[Dataset, Scores],
) -> None:
    # Qwen3.6 Flash rests on two LiveBench results: five of its seven dimensions are imputed
    # (Claude Opus 4.8, the example until vals.ai's results gave it a third). Version 3's sd
    # comes from independent dimensions; version 4's correlated imputed dimensions widen it,
    # and so for every two-dimension composite.
    dataset, scores = shipped_scores
    rho = dataset.methodology.parameters.imputed_correlation
    assert rho > 0
    two = [s for s in scores.models.values() if s.iq is not None and s.direct_dimensions == 2]
    assert "qwen3.6-flash" in {s.model_id for s in two} and all(s.provisional for s in two)
    for s in two:
        sds = [d.sd for d in s.dimensions if d.sd is not None]
        version_3 = composite_sd(sds)
        assert s.composite_sd == pytest.approx(
            composite_sd(sds, [d.imputed for d in s.dimensions], rho)
        )
        assert s.composite_sd is not None and s.composite_sd > version_3 * 1.2
    flash = scores.models["qwen3.6-flash"]
    assert flash.composite_low95 is not None and flash.composite_high95 is not None
    version_3 = composite_sd([d.sd for d in flash.dimensions if d.sd is not None])
    z = dataset.methodology.parameters.interval_z
    assert flash.composite_high95 - flash.composite_low95 > 2 * z * version_3 * 1.2
