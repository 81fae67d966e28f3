"""Methodology check, on our own data only: held-out checks of both versions, prior rules.

`python -m bench.methodology [--data-dir data] [--update-docs]` prints, for methodology
version 3 (the generator's) and version 2 (`bench/methodology_v2.py`) side by side:

0. The composite hold-out of docs/METHODOLOGY.md 3.2 (c) (`bench/composite_holdout.py`), version 3
   (imputed dimensions independent) beside version 4 (correlated with `rho`), per number of
   direct dimensions kept, and the mean log predictive density of every `rho` on the grid:
   `imputedCorrelation` is the best.

1. The held-out checks of docs/METHODOLOGY.md 3.2 (`bench/holdout.py`): each benchmark result, and
   each whole direct dimension of models with three or more, left out and predicted from the
   rest; mean log predictive density (LPD, higher is better), mean absolute error (MAE) and
   the share inside the 95% predictive interval (coverage), with a paired bootstrap over
   models of the LPD difference (1,000 resamples, seed 2026).
2. What changes in the published composites: how many rounded scores move, the largest move,
   the mean width of the composite ranges and of the rank bands.
3. The prior rules of dimensions 2-7 on the held-out direct means (bias, RMSE, LPD).
4. The per-benchmark noise `sigma_b`.

`--update-docs` writes the report into docs/METHODOLOGY_CHECK.md and the held-out figures
into the data's methodology.toml (`[interval_check]`), which the build publishes in
`/methodology`: the build reads them, it never runs this check. No data other than the
given data directory is read.
"""

from __future__ import annotations

import argparse
import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from bench import composite_holdout
from bench.composite_holdout import Figures, Rescored, best_rho, by_k, figures
from bench.holdout import KINDS, Fitted, Scored, Summary, paired_bootstrap, score, summarise
from bench.holdout import cases as held_out_cases
from bench.measure import table
from bench.methodology_v2 import VERSION as PREVIOUS_VERSION
from bench.methodology_v2 import estimate_dimensions_v2, prior_v2
from generator.api.contract import DIMENSION_SLUGS
from generator.input.load import load_dataset
from generator.input.records import Dataset, ParametersRecord
from generator.scoring import compute_scores
from generator.scoring.engine import (
    Estimates,
    Estimator,
    Population,
    build_population,
    estimate_dimensions,
    estimate_models,
)
from generator.scoring.observations import best_results, group_by_dimension, projections
from generator.scoring.priors import choose_prior, cross_terms, predecessor_mean, sigma_cross
from generator.scoring.types import DimensionEstimate, Projection
from generator.scoring.uncertainty import uncertainties


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
    """The shipped rule, version 3 (generator.scoring.priors.choose_prior)."""
    prior = choose_prior(case.slug, case.own_direct, case.predecessor, case.population, params)
    return None if prior is None else (prior.mean, prior.sd)


def previous(case: Case, params: ParametersRecord) -> Prediction:
    """Version 2's rule: mu_P (sd 10) and C (flat sd 12) combined by precision."""
    prior = prior_v2(case.slug, case.own_direct, case.predecessor, case.population, params)
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
    ("version 2: mu_P and C, flat sds", previous),
    ("version 3: mu_P and C, sd_C by n_C", shipped),
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


VERSIONS: dict[str, Estimator] = {
    "version 2": estimate_dimensions_v2,
    "version 3": estimate_dimensions,
}
RESAMPLES = 1000
SEED = 2026  # the paired bootstrap's fixed seed


@dataclass(frozen=True)
class Check:
    """Both versions' figures on one held-out check, and the bootstrap of the LPD gain."""

    kind: str
    previous: Summary
    current: Summary
    gain: float  # mean LPD, version 3 - version 2, per case
    gain_low: float
    gain_high: float


def interval_checks(dataset: Dataset) -> list[Check]:
    """Both held-out checks of docs/METHODOLOGY.md 3.2 for both versions (`bench/holdout.py`)."""
    z = dataset.methodology.parameters.interval_z
    fitted = Fitted(dataset)
    scored = score(fitted, held_out_cases(fitted), VERSIONS)
    checks = []
    for kind in KINDS:
        old, new = (_of(scored[name], kind) for name in VERSIONS)
        gain, low, high = paired_bootstrap(new, old, RESAMPLES, SEED)
        checks.append(Check(kind, summarise(old, z), summarise(new, z), gain, low, high))
    return checks


@dataclass(frozen=True)
class CompositeCheck:
    """The composite hold-out at one number of kept dimensions, both versions."""

    kept: int
    previous: Figures  # version 3: rho = 0
    current: Figures  # version 4: the chosen rho


@dataclass(frozen=True)
class CompositeHoldOut:
    """The composite hold-out (3.2 c): the chosen rho, each rho's LPD, and the checks by k."""

    rho: float
    grid: tuple[tuple[float, float], ...]  # (rho, mean LPD over all k)
    checks: tuple[CompositeCheck, ...]


def composite_hold_out(dataset: Dataset) -> CompositeHoldOut:
    """Every case re-scored once, then scored at each rho of the grid."""
    z = dataset.methodology.parameters.interval_z
    fitted = Fitted(dataset)
    full = {m: c for m, c in estimate_models(dataset).composites.items() if c is not None}
    items: list[Rescored] = [
        composite_holdout.rescore(fitted, case) for case in composite_holdout.cases(fitted, full)
    ]
    rho = best_rho(items, z)
    return CompositeHoldOut(
        rho=rho,
        grid=tuple((r, figures(items, r, z).lpd) for r in composite_holdout.GRID),
        checks=tuple(
            CompositeCheck(k, figures(by_k(items, k), 0.0, z), figures(by_k(items, k), rho, z))
            for k in composite_holdout.KEPT
        ),
    )


def _composite_table(held: CompositeHoldOut) -> str:
    rows = []
    for check in held.checks:
        old, new = check.previous, check.current
        rows += [
            (f"k = {check.kept}: cases (models)", f"{old.cases} ({old.models})", ""),
            ("  mean log predictive density", f"{old.lpd:.3f}", f"{new.lpd:.3f}"),
            ("  RMS standardised error", f"{old.rmse_z:.2f}", f"{new.rmse_z:.2f}"),
            ("  inside the 95% range", f"{old.coverage:.1%}", f"{new.coverage:.1%}"),
        ]
    return table(["", "version 3 (rho 0)", f"version 4 (rho {held.rho:g})"], rows)


def _grid_table(held: CompositeHoldOut) -> str:
    return table(
        ["rho", "mean LPD, all k"],
        [
            (f"{rho:g}" + (" (chosen)" if rho == held.rho else ""), f"{lpd:.3f}")
            for rho, lpd in held.grid
        ],
    )


def _of(items: Sequence[Scored], kind: str) -> list[Scored]:
    return [s for s in items if s.case.kind == kind]


def _check_table(check: Check) -> str:
    old, new = check.previous, check.current
    gain = f"{check.gain:+.3f} [{check.gain_low:+.3f}, {check.gain_high:+.3f}]"
    return table(
        ["", "version 2", "version 3", "version 3 - version 2"],
        [
            ("cases (models)", f"{old.cases} ({old.models})", f"{new.cases} ({new.models})", ""),
            ("mean log predictive density", f"{old.lpd:.3f}", f"{new.lpd:.3f}", gain),
            (
                "mean absolute error",
                f"{old.mae:.2f}",
                f"{new.mae:.2f}",
                f"{new.mae - old.mae:+.2f}",
            ),
            (
                "inside the 95% interval",
                f"{old.coverage:.1%}",
                f"{new.coverage:.1%}",
                f"{(new.coverage - old.coverage) * 100:+.1f} points",
            ),
        ],
    )


@dataclass(frozen=True)
class Published:
    """What one version publishes, for the comparison of the composites."""

    estimates: Estimates
    widths: list[float]  # composite range widths
    bands: list[int]  # rank band widths (places)


def _published(dataset: Dataset, estimator: Estimator, current: bool) -> Published:
    """What `estimator`'s version publishes; the current one with the data's
    imputedCorrelation (version 4's composite sd), the previous with independent dimensions."""
    estimates = estimate_models(dataset, estimator)
    z = dataset.methodology.parameters.interval_z
    rho = dataset.methodology.parameters.imputed_correlation if current else 0.0
    spread = uncertainties(
        estimates.dimensions, estimates.composites, estimates.ranks, z, rho=rho, per_dimension=False
    )
    widths = [
        u.high95 - u.low95 for u in spread.values() if u.low95 is not None and u.high95 is not None
    ]
    bands = [u.band.high - u.band.low + 1 for u in spread.values() if u.band is not None]
    return Published(estimates=estimates, widths=widths, bands=bands)


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else math.nan


def composite_moves(dataset: Dataset) -> str:
    """How the published composites differ between the versions, as a table and a line."""
    old, new = (
        _published(dataset, estimator, name == "version 3") for name, estimator in VERSIONS.items()
    )
    both = sorted(set(old.estimates.published_iq) & set(new.estimates.published_iq))
    moves = {
        m: (new.estimates.composites[m] or 0.0) - (old.estimates.composites[m] or 0.0) for m in both
    }
    changed = sum(1 for m in both if old.estimates.published_iq[m] != new.estimates.published_iq[m])
    largest = max(both, key=lambda m: (abs(moves[m]), m), default=None)
    rows = [
        ("published composites", len(old.estimates.published_iq), len(new.estimates.published_iq)),
        ("mean composite range width", f"{_mean(old.widths):.2f}", f"{_mean(new.widths):.2f}"),
        ("mean rank band (places)", f"{_mean(old.bands):.2f}", f"{_mean(new.bands):.2f}"),
    ]
    line = f"{changed} of {len(both)} published composites change when rounded"
    if largest is not None:
        before, after = old.estimates.composites[largest], new.estimates.composites[largest]
        line += (
            f"; the largest move is {moves[largest]:+.2f} points ({largest}:"
            f" {before:.2f} -> {after:.2f})"
        )
    return table(["", "version 2", "version 4"], rows) + "\n\n" + line + "."


def report(
    dataset: Dataset,
    checks: Sequence[Check] | None = None,
    held: CompositeHoldOut | None = None,
) -> str:
    """The whole check as Markdown: composite hold-out, held-out checks, composite moves,
    prior rules, noise."""
    params = dataset.methodology.parameters
    checks = interval_checks(dataset) if checks is None else checks
    held = composite_hold_out(dataset) if held is None else held
    items = cases(dataset)
    with_parent = [c for c in items if c.predecessor is not None]
    everything = [evaluate(name, rule, items, params) for name, rule in RULES]
    lineage = [evaluate(name, rule, with_parent, params) for name, rule in RULES]
    held_out = []
    for check in checks:
        held_out += [f"{_TITLES[check.kind]}:", "", _check_table(check), ""]
    return "\n".join(
        [
            f"Methodology {dataset.methodology.version} (version 4: version 3's dimensions, the"
            f" composite sd of version 4) against {PREVIOUS_VERSION} (version 2); paired"
            f" bootstrap over models, {RESAMPLES} resamples, seed {SEED}.",
            "",
            f"Composite hold-out (models with {composite_holdout.MIN_DIRECT} or more direct"
            f" dimensions, k of them kept, {composite_holdout.DRAWS} draws per model and k; the"
            " full-data composite scored against the re-scored one and its sd), version 3"
            " against version 4:",
            "",
            _composite_table(held),
            "",
            f"imputedCorrelation: the grid value with the best mean log predictive density is"
            f" {held.rho:g} (the data has {params.imputed_correlation:g}).",
            "",
            _grid_table(held),
            "",
            *held_out,
            "Published composites:",
            "",
            composite_moves(dataset),
            "",
            f"Prior rules of dimensions 2-7: {len(items)} held-out (model, dimension) means,"
            f" {len(with_parent)} of them with a predecessor.",
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


_TITLES = {
    "benchmark-hold-out": "Benchmark hold-out (each result of a model with two or more in its"
    " dimension, predicted with its own noise)",
    "dimension-hold-out": "Dimension hold-out (each whole direct dimension of a model with three"
    " or more, predicted from its prior)",
}


def nominal(z: float) -> float:
    """The coverage a Normal interval of +/- z sd claims: 2 Phi(z) - 1 (0.95 at 1.96)."""
    return round(math.erf(z / math.sqrt(2)), 3)


def interval_check_toml(
    dataset: Dataset, checks: Sequence[Check], held: CompositeHoldOut | None = None
) -> str:
    """The `[interval_check]` table of methodology.toml, between its two marker lines."""
    z = dataset.methodology.parameters.interval_z
    lines = [
        BEGIN,
        "[interval_check]",
        f"nominal = {nominal(z)!r}",
        f'previous_version = "{PREVIOUS_VERSION}"',
        f"bootstrap_resamples = {RESAMPLES}",
    ]
    if held is not None:
        lines.append(f"imputed_correlation = {held.rho!r}")
    for check in checks:
        old, new = check.previous, check.current
        figures = {
            "cases": new.cases,
            "models": new.models,
            "coverage": new.coverage,
            "mean_log_predictive_density": new.lpd,
            "mean_absolute_error": new.mae,
            "previous_coverage": old.coverage,
            "previous_mean_log_predictive_density": old.lpd,
            "previous_mean_absolute_error": old.mae,
            "lpd_gain": check.gain,
            "lpd_gain_low95": check.gain_low,
            "lpd_gain_high95": check.gain_high,
        }
        lines += ["", "[[interval_check.checks]]", f'id = "{check.kind}"']
        lines += [f"{key} = {_toml_number(value)}" for key, value in figures.items()]
    for composite in held.checks if held is not None else ():
        old, new = composite.previous, composite.current
        numbers = {
            "kept_dimensions": composite.kept,
            "cases": new.cases,
            "models": new.models,
            "coverage": new.coverage,
            "mean_log_predictive_density": new.lpd,
            "rms_standardised_error": new.rmse_z,
            "previous_coverage": old.coverage,
            "previous_mean_log_predictive_density": old.lpd,
            "previous_rms_standardised_error": old.rmse_z,
        }
        lines += ["", "[[interval_check.composite_checks]]"]
        lines += [f"{key} = {_toml_number(value)}" for key, value in numbers.items()]
    return "\n".join([*lines, END])


def _toml_number(value: float) -> str:
    return str(value) if isinstance(value, int) else repr(round(value, 6))


BEGIN = "# interval-check:begin (written by `python -m bench.methodology --update-docs`)"
END = "# interval-check:end"
DOC = Path(__file__).resolve().parent.parent / "docs" / "METHODOLOGY_CHECK.md"
_BLOCK = re.compile(r"(```text\n).*?(\n```)", re.S)
_TOML_BLOCK = re.compile(r"^# interval-check:begin.*?^# interval-check:end$", re.S | re.M)


def update_doc(text: str, doc: Path = DOC) -> None:
    """Replace the table block of docs/METHODOLOGY_CHECK.md with `text`."""
    page = doc.read_text(encoding="utf-8")
    doc.write_text(_BLOCK.sub(lambda m: m.group(1) + text + m.group(2), page, count=1), "utf-8")


def update_toml(block: str, path: Path) -> None:
    """Replace (or append) the `[interval_check]` block of a methodology.toml."""
    text = path.read_text(encoding="utf-8")
    if _TOML_BLOCK.search(text):
        text = _TOML_BLOCK.sub(lambda _: block, text, count=1)
    else:
        text = text.rstrip("\n") + "\n\n" + block
    path.write_text(text.rstrip("\n") + "\n", encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--data-dir", type=Path, default=Path("data"), help="data/ to check")
    parser.add_argument(
        "--update-docs",
        action="store_true",
        help="also write the report into docs/ and the figures into the data's methodology.toml",
    )
    args = parser.parse_args(argv)
    dataset = load_dataset(args.data_dir)
    checks = interval_checks(dataset)
    held = composite_hold_out(dataset)
    text = report(dataset, checks, held)
    print(text)
    if args.update_docs:
        update_doc(text)
        block = interval_check_toml(dataset, checks, held)
        update_toml(block, args.data_dir / "methodology.toml")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
