"""explain_model: a readable account of how each score was computed."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from support.paths import SHIPPED_DATA
from support.scoring import iq_results, make_dataset, make_model

from generator.cli import cli
from generator.errors import GeneratorError
from generator.explain import explain_model
from generator.input.records import Dataset
from generator.scoring import compute_scores
from generator.scoring.types import Scores
from generator.vocabulary import DIMENSION_NAMES


@pytest.fixture(scope="module")
def dataset() -> Dataset:
    return make_dataset(
        [
            make_model(
                "alpha",
                iq_results(arc_a=120, math_a=110, math_b=104, acad_a=94, eq_a=120, eq_b=131),
                usage=1.3,
                family="alpha",
            ),
            make_model("alpha-2", iq_results(math_a=120), predecessor="alpha", family="alpha"),
            make_model("beta", iq_results(math_a=90, code_a=100), legacy=100.0),
        ]
    )


@pytest.fixture(scope="module")
def scores(dataset: Dataset) -> Scores:
    return compute_scores(dataset)


def test_explain_full_model(dataset: Dataset, scores: Scores) -> None:
    text = explain_model(dataset, scores, "alpha")
    iq = scores.models["alpha"].iq
    assert f"Composite IQ: {iq} " in text
    assert "rank 1 of 2 ranked models" in text
    assert "iqCoverage: 3 direct, 3 with evidence, of 7 dimensions" in text
    # abstract (version 3): a posterior; prior R = 120 from the flat one-sample fit, sd
    #   s_R = sigma_population 20; y = 120, sigma 10 -> mean 120
    assert "Abstract reasoning (abstract-reasoning): 120 (120.00) [posterior] covered 1/2" in text
    assert "R (the regression's prediction: intercept + slope * x): 120.00" in text
    assert "sd of R (s_R: the fit's residual sd): 20.00" in text
    # a posterior dimension lists raw -> projection, offset, observation, prior and range
    assert "math-a: raw 1.1 -> IQ 110.00 (higher_is_better), offset" in text
    assert "observation" in text and "sigma_b 10 (sigma_benchmark" in text
    assert "composite sd " in text and "rank band 1-" in text
    assert "prior: cross-dimension" in text
    assert "95% range" in text
    assert "Emotional reasoning (EQ): 126" in text  # (120 + 131) / 2 = 125.5 -> 126
    assert "(a) measured multiplier of the model itself" in text


def test_explain_inherited_model(dataset: Dataset, scores: Scores) -> None:
    text = explain_model(dataset, scores, "alpha-2")
    assert "Composite IQ: none (1 direct dimensions, 2 needed)" in text
    assert "Lineage: family alpha, generation 1, predecessor alpha" in text
    assert "[predecessor-cross-prior] covered 0/2, imputed yes, evidence yes" in text
    assert "prior: predecessor-cross" in text
    # the combined prior's sd0: 1/sd0^2 = 1/sigma_P^2 + 1/sigma_C^2 (test parameters 15, and
    #   sqrt(sigma_cross_scale 144 / n_C 1) = 12) = 369/32400 -> sd0 = sqrt(87.80) = 9.37
    assert "sd0 9.37" in text
    # version 2: the prior's components and each result's estimated noise
    assert "mu_P (predecessor's estimate + drift): " in text
    # offsets from alpha alone (k = 2): math-a (110 - 104) / (1 + 2) = +2, so alpha-2's
    # direct math is 120 - 2 = 118: C for its academic dimension
    assert "C (mean of the model's other direct dimensions): 118.00" in text
    assert "n_C (direct dimensions averaged into C): 1" in text
    assert "sd of C (sqrt(sigma_cross_scale / n_C)): 12.00" in text
    assert "weight of mu_P (sd0^2 / sd^2): 0.39" in text  # 144 / 369
    # math-a on alpha alone: e = 6, s^2 = max(0, 36 - 100) = 0, sigma^2 = 4 * 100 / 5 = 80
    assert "sigma_b 8.94 (estimated from 1 models)" in text
    # abstract: alpha's direct abstract is evidence, so alpha-2 inherits it, combined with R
    #   (sd 15 and 20): 1/sd0^2 = 1/225 + 1/400 = 625/90000 -> sd0 = 12
    assert "[predecessor-regression-prior] covered 0/2, imputed yes, evidence yes" in text
    assert "prior: predecessor-regression (mu_P and the regression R combined by precision)" in text
    assert "sd0 12.00" in text
    # cost comes from the measured predecessor one generation back
    assert "(b) measured multiplier one generation back" in text
    assert "from alpha: measured 1.3000" in text


def test_explain_model_without_abstract_results(dataset: Dataset, scores: Scores) -> None:
    text = explain_model(dataset, scores, "beta")
    # R = 120 (flat fit) and legacy 100, both of sd s_R = 20: equal weights, 110, sd0 14.14
    assert (
        "Abstract reasoning (abstract-reasoning): 110 (110.00) [regression-legacy-prior] "
        "covered 0/2" in text
    )
    assert "legacy estimate (from the data): 100.00" in text
    assert "weight of legacy estimate (sd0^2 / sd^2): 0.50" in text
    assert "prior: regression-legacy (regression, legacy combined by precision)" in text
    assert "sd0 14.14" in text
    assert "Emotional reasoning (EQ): none" in text
    assert "(d) geometric mean of the closest measured peers" in text


def test_explain_unknown_id_suggests_close_ids(dataset: Dataset, scores: Scores) -> None:
    with pytest.raises(GeneratorError, match=r"Unknown model id 'alpha2'\. Did you mean: alpha-2"):
        explain_model(dataset, scores, "alpha2")
    with pytest.raises(GeneratorError, match=r"^Unknown model id 'zzz'\.$"):
        explain_model(dataset, scores, "zzz")


# --- the shipped data ----------------------------------------------------------


def test_shipped_data_gives_most_models_a_composite(shipped_scores: tuple[Dataset, Scores]) -> None:
    _, scores = shipped_scores
    ranked = sorted((s.rank, s.model_id) for s in scores.models.values() if s.rank is not None)
    assert len(ranked) >= 55
    assert [rank for rank, _ in ranked] == list(range(1, len(ranked) + 1))


@pytest.mark.parametrize(
    "model_id",
    # seven direct dimensions; no abstract results (predicted) and predecessor priors;
    # two direct dimensions with a peer-imputed usage multiplier
    ["gpt-5", "claude-opus-4.8", "deepseek-v4-flash"],
)
def test_cli_explain_on_shipped_models(
    shipped_scores: tuple[Dataset, Scores], model_id: str
) -> None:
    _, scores = shipped_scores
    model = scores.models[model_id]
    assert model.iq is not None
    result = CliRunner().invoke(cli, ["explain", "--data-dir", str(SHIPPED_DATA), model_id])
    assert result.exit_code == 0, result.output
    assert result.output.startswith(f"{model_id}: ")
    assert f"Composite IQ: {model.iq} " in result.output
    assert f"rank {model.rank} of " in result.output
    for estimate in model.dimensions:
        assert f"{DIMENSION_NAMES[estimate.slug]} ({estimate.slug}): " in result.output
        assert f"[{estimate.method}] covered {estimate.covered}/{estimate.total}" in result.output
    assert f"step: ({model.cost.step})" in result.output


def test_cli_explain_unknown_model_exits_with_suggestion() -> None:
    result = CliRunner().invoke(cli, ["explain", "--data-dir", str(SHIPPED_DATA), "gpt5"])
    assert result.exit_code == 1
    assert "Unknown model id 'gpt5'. Did you mean: gpt-5" in result.output


@pytest.mark.parametrize(
    "query", ["GPT-5.5", "gpt-5.5-2026-04-23", " gpt-5.5 ", "GPT-5.5-2026-04-23"]
)
def test_cli_explain_resolves_names_and_aliases(query: str) -> None:
    """The shipped gpt-5.5 declares its display name and dated revision as aliases."""
    result = CliRunner().invoke(cli, ["explain", "--data-dir", str(SHIPPED_DATA), query])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("gpt-5.5: ")
