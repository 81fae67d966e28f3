"""`modelscores explain`: how every score of one model was computed, as plain text."""

from __future__ import annotations

import difflib
from collections.abc import Mapping

from generator.api.aliases import Names, name_keys, resolve
from generator.errors import GeneratorError
from generator.input.records import BenchmarkRecord, Dataset, ModelRecord, ParametersRecord
from generator.scoring.rounding import round_half_up
from generator.scoring.speed import TaskFit, TaskFits
from generator.scoring.types import (
    BenchmarkNoise,
    DimensionEstimate,
    ModelScores,
    RankBand,
    Scores,
)
from generator.vocabulary import DIMENSION_COUNT, DIMENSION_COUNT_WORD, DIMENSION_NAMES

_STEPS = {
    "a": "(a) measured multiplier of the model itself",
    "b": "(b) measured multiplier one generation back in the same family and lineage",
    "c": "(c) measured multiplier two generations back in the same family and lineage",
    "d": "(d) geometric mean of the closest measured peers (composite IQ, release date, id)",
    "e": "(e) no multiplier found: assumed default for a positive-price model",
    "none": "no base price (free, zero-dollar, rate-limited or unknown): no effective cost",
}
_NO_ESTIMATE = (
    "no estimate: neither direct nor predecessor evidence, and no composite that would "
    "call for an imputed value"
)
_PRIORS = {
    "predecessor-cross": "mu_P and C combined by precision",
    "predecessor": "mu_P: the predecessor's estimate plus the drift",
    "cross-dimension": "the mean of the model's direct estimates in other dimensions",
    "population": "the population mean of the dimension",
    "predecessor-regression": "mu_P and the regression R combined by precision",
    "regression": "the regression R on the model's other direct dimensions",
}


def explain_model(dataset: Dataset, scores: Scores, query: str) -> str:
    """A maintainer's account of one model's scores; GeneratorError for an unknown model.

    `query` is the model's id, an alias or its name, any case (`generator.api.aliases`).
    """
    models = {m.id: m for m in dataset.models}
    keys = name_keys(Names(m.id, m.name, m.aliases) for m in dataset.models)
    model_id = resolve(keys, query)
    if model_id is None or model_id not in scores.models:
        raise GeneratorError(_unknown(query, sorted(models)))
    model, result = models[model_id], scores.models[model_id]
    benchmarks = {b.id: b for b in dataset.benchmarks}
    params = dataset.methodology.parameters
    ranked = sum(1 for other in scores.models.values() if other.rank is not None)
    lines = _header(model, result, ranked, params)
    for estimate, band in zip(result.dimensions, result.dimension_bands, strict=True):
        lines += ["", *_dimension(estimate, band, benchmarks, scores.noise)]
    lines += ["", *_eq(result, benchmarks), "", *_cost(result, models, scores)]
    if scores.tasks is not None:
        lines += ["", *_per_task(model_id, scores.tasks)]
    return "\n".join(lines)


def _unknown(model_id: str, known: list[str]) -> str:
    close = difflib.get_close_matches(model_id, known, n=3, cutoff=0.6)
    hint = f" Did you mean: {', '.join(close)}?" if close else ""
    return f"Unknown model id {model_id!r}.{hint}"


def _num(value: float | None, digits: int = 2) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _header(
    model: ModelRecord, result: ModelScores, count: int, params: ParametersRecord
) -> list[str]:
    lines = [f"{model.id}: {model.name} ({model.provider})"]
    if result.iq is None:
        lines.append(
            f"Composite IQ: none ({result.direct_dimensions} direct dimensions, "
            f"{params.min_direct_dimensions} needed)"
        )
    else:
        lines.append(
            f"Composite IQ: {result.iq} (mean of {DIMENSION_COUNT_WORD} = "
            f"{_num(result.composite, 4)}, "
            f"rounded half up), rank {result.rank} of {count} ranked models"
        )
    if result.composite_sd is not None:
        lines.append(
            f"  composite sd {result.composite_sd:.2f} (sqrt(sum of the {DIMENSION_COUNT_WORD} sd^2"
            f" + {params.imputed_correlation:g} x the sd products of imputed pairs)"
            f" / {DIMENSION_COUNT}), "
            f"95% range {_num(result.composite_low95)} to {_num(result.composite_high95)} "
            f"(interval_z {params.interval_z:g}; checked on held-out results, see methodology)"
        )
    if result.rank_band is not None:
        lines.append(f"  rank band {_band(result.rank_band)}")
    if result.provisional:
        lines.append(
            f"  provisional: {result.direct_dimensions} direct dimensions, fewer than"
            f" provisional_below {params.provisional_below}"
        )
    lines.append(
        f"iqCoverage: {result.direct_dimensions} direct, {result.evidence_dimensions} with "
        f"evidence, of {len(result.dimensions)} dimensions"
    )
    lineage = model.lineage
    if lineage is not None:
        parent = lineage.predecessor or "none"
        lines.append(
            f"Lineage: family {lineage.family}, generation {lineage.generation:g}, "
            f"predecessor {parent}"
        )
    return lines


def _band(band: RankBand) -> str:
    return (
        f"{band.low}-{band.high} (ranks this model could hold: 1 + models clearly above, "
        "1 + models not clearly below)"
    )


_COMPONENTS = {
    "mu-P": "mu_P (predecessor's estimate + drift)",
    "sd-mu-P": "sd of mu_P (sigma_predecessor)",
    "drift": "drift (mean lead over the predecessor in shared direct dimensions)",
    "C": "C (mean of the model's other direct dimensions)",
    "n-C": "n_C (direct dimensions averaged into C)",
    "sd-C": "sd of C (sqrt(sigma_cross_scale / n_C))",
    "other-dimensions-mean": "x (mean of the model's other direct dimensions)",
    "intercept": "regression intercept",
    "slope": "regression slope",
    "fit-samples": "regression fitted on models with abstract results",
    "R": "R (the regression's prediction: intercept + slope * x)",
    "sd-R": "sd of R (s_R: the fit's residual sd)",
    "legacy": "legacy estimate (from the data)",
    "sd-legacy": "sd of the legacy estimate (s_R)",
    "data-mean": "mean of the observations",
}


def _dimension(
    estimate: DimensionEstimate,
    band: RankBand | None,
    benchmarks: dict[str, BenchmarkRecord],
    noise: Mapping[str, BenchmarkNoise],
) -> list[str]:
    shown = "null"
    if estimate.value is not None:
        shown = f"{round_half_up(estimate.value)} ({estimate.value:.2f})"
    lines = [
        f"{DIMENSION_NAMES[estimate.slug]} ({estimate.slug}): {shown} [{estimate.method}] "
        f"covered {estimate.covered}/"
        f"{estimate.total}, imputed {'yes' if estimate.imputed else 'no'}, "
        f"evidence {'yes' if estimate.evidence else 'no'}"
    ]
    offsets = dict(estimate.offsets)
    for projection in estimate.projections:
        benchmark = benchmarks[projection.benchmark]
        line = (
            f"  {projection.benchmark}: raw {projection.raw:g} -> IQ {projection.iq:.2f}"
            f" ({benchmark.direction})"
        )
        if projection.benchmark in offsets:
            offset = offsets[projection.benchmark]
            line += f", offset {offset:+.2f}, observation {projection.iq - offset:.2f}"
        line += f", {_noise(noise[projection.benchmark])}, {_ladder(benchmark)}"
        lines.append(line)
    for name, value in estimate.inputs:
        lines.append(
            f"  {_component(name)}: {value:.4g}"
            if name in _COUNTS
            else f"  {_component(name)}: {value:.2f}"
        )
    if estimate.prior_source is not None:
        source = estimate.prior_source
        meaning = _PRIORS.get(source, f"{source.replace('-', ', ')} combined by precision")
        lines.append(
            f"  prior: {source} ({meaning}), mean0 {_num(estimate.prior_mean)}, "
            f"sd0 {_num(estimate.prior_sd)}"
        )
    if estimate.value is not None and estimate.sd is not None:
        lines.append(
            f"  posterior: mean {estimate.value:.2f}, sd {estimate.sd:.2f}, "
            f"95% range {_num(estimate.low95)} to {_num(estimate.high95)}"
        )
    if band is not None:
        lines.append(f"  rank band in this dimension {band.low}-{band.high}")
    return lines


_COUNTS = frozenset({"fit-samples", "n-C"})


def _component(name: str) -> str:
    """The label of one prior component; `weight-X` is the weight of term X."""
    if name.startswith("weight-"):
        term = name.removeprefix("weight-")
        return f"weight of {_COMPONENTS.get(term, term).split(' (')[0]} (sd0^2 / sd^2)"
    return _COMPONENTS.get(name, name)


def _ladder(benchmark: BenchmarkRecord) -> str:
    """Which ladder projected the result: set by hand, or fitted by the project (1.3)."""
    fit = benchmark.ladder_fit
    if fit is None:
        return "hand-set ladder"
    return (
        f"fitted ladder ({fit.method} on {fit.models} models, data as of {fit.as_of},"
        f" held-out coverage {fit.coverage:.0%})"
    )


def _noise(noise: BenchmarkNoise) -> str:
    """`sigma_b` and where it came from."""
    if noise.source == "estimated":
        return f"sigma_b {noise.sd:.2f} (estimated from {noise.models} models)"
    if noise.source == "fixed":
        return f"sigma_b {noise.sd:g} (fixed in the benchmark file)"
    if noise.source == "fitted-ladder":
        return f"sigma_b {noise.sd:g} (its ladder's residual sd: no model to estimate it from)"
    return f"sigma_b {noise.sd:g} (sigma_benchmark: no model to estimate it from)"


def _eq(result: ModelScores, benchmarks: dict[str, BenchmarkRecord]) -> list[str]:
    if result.eq is None:
        return ["Emotional reasoning (EQ): none (no EQ results; never part of the composite)"]
    lines = [f"Emotional reasoning (EQ): {result.eq} (rounded mean; not part of the composite)"]
    for projection in result.eq_projections:
        name = benchmarks[projection.benchmark].name
        lines.append(f"  {name}: raw {projection.raw:g} -> IQ {projection.iq:.2f}")
    return lines


def _cost(result: ModelScores, models: dict[str, ModelRecord], scores: Scores) -> list[str]:
    cost = result.cost
    lines = [
        f"Effective cost: {_num(cost.effective_per_1m, 4)} USD per 1M input/output tokens",
        f"  base (input + output): {_num(cost.io_per_1m, 4)}",
        f"  usage multiplier: {_num(cost.usage_multiplier, 4)} "
        f"(source {cost.usage_multiplier_source or 'null'})",
        f"  step: {_STEPS[cost.step]}",
    ]
    usage = models[result.model_id].usage
    if cost.step == "a" and usage is not None:
        lines.append(
            f"  measured as: {usage.method} ({usage.samples} samples; source {usage.source_name})"
        )
    for source_id in cost.multiplier_from:
        usage = models[source_id].usage
        composite = scores.models[source_id].composite
        measured = _num(usage.multiplier, 4) if usage is not None else "-"
        lines.append(
            f"  from {source_id}: measured {measured}, composite {_num(composite)}, "
            f"released {models[source_id].release_date or 'unknown'}"
        )
    return lines


def _per_task(model_id: str, fits: TaskFits) -> list[str]:
    """Both task fits of a model (methodology 6.1): the figure, then every run it rests on."""
    return [
        *_task_fit("Response time per task", "s", fits.latency[model_id], fits.latency_suites),
        "",
        *_task_fit("Cost per task", "USD", fits.cost[model_id], fits.cost_suites),
    ]


def _task_fit(title: str, unit: str, fit: TaskFit, suites: Mapping[str, float]) -> list[str]:
    head = (
        f"{title}: {fit.value} {unit}"
        if fit.value is not None
        else f"{title}: not published ({fit.reason})"
    )
    lines = [
        head,
        f"  fit: log {unit} = model effect + benchmark effect, Huber-weighted least squares over"
        f" {len(suites)} benchmarks; figure = exp(model effect + median benchmark effect)",
    ]
    if fit.effect is not None and fit.reference is not None:
        lines.append(
            f"  model effect at the median benchmark: {_num(fit.effect + fit.reference, 4)}"
        )
    source = fit.runs[0] if fit.runs else None
    if source is not None:
        effort = f" ({source.effort})" if source.effort else ""
        lines.append(
            f"  {len(fit.runs)} runs of {source.source_model}{effort}, source {source.source},"
            f" newest {fit.as_of}; benchmark: measured, benchmark effect vs the median"
        )
    for run in fit.runs:
        measured = run.latency_sec if unit == "s" else run.cost_usd
        effect = suites.get(run.suite)
        lines.append(
            f"    {run.suite}: {measured} {unit}, "
            + (f"{effect:+.3f}" if effect is not None else "not in the fit")
        )
    return lines
