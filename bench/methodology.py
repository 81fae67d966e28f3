"""Methodology check: how well each candidate prior predicts held-out evidence, on our own data.

`python -m bench.methodology [--data-dir data]` scores the dataset with the current
methodology, then, for every published model and every dimension 2-7 where the model
has direct results, hides those results and predicts their offset-corrected mean from
each prior rule. Per rule it prints the bias (mean prediction minus held-out mean),
the RMSE and the mean log predictive density (LPD) of the held-out mean under
Normal(prior mean, prior sd^2 + the mean's own noise sum sigma_b^2 / k^2). Higher LPD is
better; it rewards being right and being honest about the sd.

Rules (METHODOLOGY 2.2): version 1 takes the predecessor's estimate first
(sigma_predecessor), else the mean of the model's other direct dimensions `C`
(sigma_cross), else the population mean (sigma_population); version 2 combines the
drift-adjusted predecessor `mu_P` and `C` by precision, then falls back the same way.
Also shown: `C` alone, `mu_P` alone (then `C`), and the population mean alone.
The population mean leaves the held-out model out; a predecessor's estimates are the
current methodology's (the same for every rule). No data other than `data/` is read.

The second table shows the per-benchmark noise `sigma_b` and the weight it gives each
benchmark's results against the default `sigma_benchmark` (`sigma_benchmark^2 / sigma_b^2`).
"""

from __future__ import annotations

import argparse
import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from bench.measure import table
from generator.api.contract import DIMENSION_SLUGS
from generator.input.load import load_dataset
from generator.input.records import Dataset, ParametersRecord
from generator.scoring import compute_scores
from generator.scoring.engine import Population, build_population
from generator.scoring.observations import best_results, group_by_dimension, projections
from generator.scoring.priors import choose_prior, cross_terms, predecessor_mean, sigma_cross
from generator.scoring.types import DimensionEstimate, Projection


@dataclass(frozen=True)
class Case:
    """One held-out model and dimension and what every rule may use."""

    model: str
    slug: str
    target: float  # the offset-corrected mean of the model's results in the dimension
    target_var: float  # its own noise: sum sigma_b^2 / k^2
    own_direct: Mapping[str, float | None]  # the model's direct estimates (target's excluded)
    predecessor: Sequence[DimensionEstimate] | None
    population: float | None  # the dimension's mean over the other models


Prediction = tuple[float, float] | None  # (mean, sd)
Rule = Callable[[Case, ParametersRecord], Prediction]


def _fallback(case: Case, params: ParametersRecord) -> Prediction:
    cross = cross_terms(case.slug, case.own_direct)
    if cross is not None:
        return cross[0], sigma_cross(params, cross[1])
    if case.population is not None:
        return case.population, params.sigma_population
    return None


def version_1(case: Case, params: ParametersRecord) -> Prediction:
    """The predecessor's estimate as is, first; then C; then the population."""
    if case.predecessor is not None:
        value = {e.slug: e.value for e in case.predecessor}.get(case.slug)
        if value is not None:
            return value, params.sigma_predecessor
    return _fallback(case, params)


def shipped(case: Case, params: ParametersRecord) -> Prediction:
    """The shipped rule (generator.scoring.dimensions.choose_prior)."""
    prior = choose_prior(case.slug, case.own_direct, case.predecessor, case.population, params)
    return None if prior is None else (prior.mean, prior.sd)


def drift_only(case: Case, params: ParametersRecord) -> Prediction:
    """mu_P (predecessor + drift) alone, then C, then the population."""
    if case.predecessor is not None:
        inherited = predecessor_mean(case.slug, case.own_direct, case.predecessor)
        if inherited is not None:
            return inherited[0], params.sigma_predecessor
    return _fallback(case, params)


def cross_only(case: Case, params: ParametersRecord) -> Prediction:
    """C, then the population: no predecessor at all."""
    return _fallback(case, params)


def population_only(case: Case, params: ParametersRecord) -> Prediction:
    """The dimension's mean over the other models."""
    return None if case.population is None else (case.population, params.sigma_population)


RULES: tuple[tuple[str, Rule], ...] = (
    ("version 1: predecessor first", version_1),
    ("shipped (version 3): mu_P and C combined", shipped),
    ("mu_P (drift-adjusted predecessor) first", drift_only),
    ("C (other dimensions) only", cross_only),
    ("population mean only", population_only),
)


def _grouped(dataset: Dataset) -> dict[str, dict[str, tuple[Projection, ...]]]:
    benchmarks = {b.id: b for b in dataset.benchmarks}
    grouped: dict[str, dict[str, tuple[Projection, ...]]] = {}
    for model in sorted(dataset.models, key=lambda m: m.id):
        projected = projections(best_results(model, benchmarks))
        grouped[model.id] = group_by_dimension(projected, benchmarks, DIMENSION_SLUGS)
    return grouped


def cases(dataset: Dataset) -> list[Case]:
    """Every (model, dimension 2-7) with direct results, in id then dimension order."""
    grouped = _grouped(dataset)
    population: Population = build_population(dataset, grouped)
    scores = compute_scores(dataset)
    parents = {m.id: m.lineage.predecessor if m.lineage else None for m in dataset.models}
    found: list[Case] = []
    for model_id in sorted(grouped):
        direct = population.direct[model_id]
        parent = parents.get(model_id)
        predecessor = scores.models[parent].dimensions if parent in scores.models else None
        for slug in DIMENSION_SLUGS[1:]:
            target = direct[slug]
            results = grouped[model_id][slug]
            if target is None or not results:
                continue
            others = [population.direct[m][slug] for m in sorted(grouped) if m != model_id]
            present = [v for v in others if v is not None]
            noise = sum(population.noise[p.benchmark].sd ** 2 for p in results)
            found.append(
                Case(
                    model=model_id,
                    slug=slug,
                    target=target,
                    target_var=noise / len(results) ** 2,
                    own_direct=direct,
                    predecessor=predecessor,
                    population=sum(present) / len(present) if present else None,
                )
            )
    return found


@dataclass(frozen=True)
class Score:
    """One rule's record over a set of cases."""

    rule: str
    cases: int
    bias: float
    rmse: float
    lpd: float


def evaluate(rule: str, predict: Rule, items: Sequence[Case], params: ParametersRecord) -> Score:
    """Bias, RMSE and mean log predictive density of `predict` over `items`."""
    errors: list[float] = []
    densities: list[float] = []
    for case in items:
        prediction = predict(case, params)
        if prediction is None:
            continue
        mean, sd = prediction
        variance = sd * sd + case.target_var
        error = mean - case.target
        errors.append(error)
        densities.append(-0.5 * math.log(2 * math.pi * variance) - error * error / (2 * variance))
    n = len(errors)
    if n == 0:
        return Score(rule, 0, math.nan, math.nan, math.nan)
    return Score(
        rule=rule,
        cases=n,
        bias=sum(errors) / n,
        rmse=math.sqrt(sum(e * e for e in errors) / n),
        lpd=sum(densities) / n,
    )


def _score_table(scores: Sequence[Score]) -> str:
    return table(
        ["prior rule", "cases", "bias", "RMSE", "mean LPD"],
        [(s.rule, s.cases, f"{s.bias:+.2f}", f"{s.rmse:.2f}", f"{s.lpd:.3f}") for s in scores],
    )


def _noise_table(dataset: Dataset) -> str:
    scores = compute_scores(dataset)
    default = dataset.methodology.parameters.sigma_benchmark
    rows = []
    for b in dataset.benchmarks:
        if b.category != "iq" or b.dimension not in DIMENSION_SLUGS:
            continue
        noise = scores.noise[b.id]
        weight = default**2 / noise.sd**2
        rows.append(
            (b.id, b.dimension, noise.models, f"{noise.sd:.2f}", noise.source, f"{weight:.2f}")
        )
    return table(
        ["benchmark", "dimension", "models", "sigma_b", "source", "weight vs default"], rows
    )


def report(dataset: Dataset) -> str:
    """The whole check as Markdown: all cases, cases with a predecessor, the noise table."""
    params = dataset.methodology.parameters
    items = cases(dataset)
    with_parent = [c for c in items if c.predecessor is not None]
    everything = [evaluate(name, rule, items, params) for name, rule in RULES]
    lineage = [evaluate(name, rule, with_parent, params) for name, rule in RULES]
    return "\n".join(
        [
            f"Methodology {dataset.methodology.version}: {len(items)} held-out (model, dimension)"
            f" means, {len(with_parent)} of them with a predecessor.",
            "",
            "All held-out means:",
            "",
            _score_table(everything),
            "",
            "Models with a predecessor (where the rules differ):",
            "",
            _score_table(lineage),
            "",
            f"Benchmark noise (sigma_benchmark {params.sigma_benchmark:g},"
            f" kappa_noise {params.kappa_noise:g}):",
            "",
            _noise_table(dataset),
        ]
    )


DOC = Path(__file__).resolve().parent.parent / "docs" / "METHODOLOGY_CHECK.md"
_BLOCK = re.compile(r"(```text\n).*?(\n```)", re.S)


def update_doc(text: str, doc: Path = DOC) -> None:
    """Replace the table block of docs/METHODOLOGY_CHECK.md with `text`."""
    page = doc.read_text(encoding="utf-8")
    doc.write_text(_BLOCK.sub(lambda m: m.group(1) + text + m.group(2), page, count=1), "utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--data-dir", type=Path, default=Path("data"), help="data/ to check")
    parser.add_argument(
        "--update-docs", action="store_true", help="also write the table into docs/"
    )
    args = parser.parse_args(argv)
    text = report(load_dataset(args.data_dir))
    print(text)
    if args.update_docs:
        update_doc(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
