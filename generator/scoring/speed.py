"""The task fit (docs/METHODOLOGY.md 6.1): a model's typical seconds and dollars per task.

Models ran different benchmarks, and a legal-reasoning task takes far longer than a tax
question, so a model's plain median is not comparable with another's. Each quantity
(`latency_sec`, `cost_usd` of `task_runs`) is fitted as `log value = model + benchmark` by
least squares over every run of every model's chosen variant; a model's figure is
`exp(model effect + reference)`, the reference being the median of the benchmark effects:
what the model takes on a benchmark of median length. Published for a model whose runs
cover at least `MIN_SUITES` benchmarks; otherwise None, with the reason.

The variant: where a model's runs come under several upstream keys or efforts, its default
one (`chosen_runs`): no harness (an agent product), no `max` effort while another variant
is listed, then the variant with the most benchmarks.
"""

from __future__ import annotations

import datetime as dt
import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Literal

import msgspec
import numpy as np

from generator.input.records import ModelRecord, TaskRunRecord
from generator.scoring.rounding import round_to

MIN_SUITES = 2
HUBER = 1.345  # robust sds: the usual Huber constant (95% efficiency for normal errors)
MAD_TO_SD = 1.4826  # median absolute residual -> sd for normal errors
ROUNDS = 30
MIN_MODELS = 10  # a benchmark with runs of fewer models is left out: its effect is loose
MAX_EFFORT = "max"
FIGURES = 3  # significant figures published
Quantity = Literal["latency_sec", "cost_usd"]
QUANTITIES: tuple[Quantity, ...] = ("latency_sec", "cost_usd")
NO_RUNS = "no measured runs"
ONE_SUITE = f"runs on fewer than {MIN_SUITES} benchmarks: its speed cannot be told from theirs"
APART = "its benchmarks share no model with the others' runs"


class TaskFit(msgspec.Struct, frozen=True, kw_only=True):
    """One model's figure in one quantity's fit, and what it rests on."""

    value: float | None  # seconds or USD per task at the reference, 3 figures; None: `reason`
    reason: str | None  # why there is no value
    runs: tuple[TaskRunRecord, ...]  # the chosen variant's runs with this quantity
    effect: float | None = None  # the model's effect on the log scale
    reference: float | None = None  # median benchmark effect on the log scale

    @property
    def as_of(self) -> dt.date | None:
        """The newest date among the runs."""
        return max((r.as_of for r in self.runs), default=None)

    @property
    def suites(self) -> tuple[str, ...]:
        return tuple(sorted({r.suite for r in self.runs}))


class TaskFits(msgspec.Struct, frozen=True, kw_only=True):
    """Both fits, by model id, and their benchmark effects (log scale) for explain."""

    latency: dict[str, TaskFit]
    cost: dict[str, TaskFit]
    latency_suites: dict[str, float]  # benchmark -> effect, relative to the reference
    cost_suites: dict[str, float]


def task_fits(models: Sequence[ModelRecord]) -> TaskFits:
    """Both fits over `models` (deterministic: the same models give the same figures)."""
    chosen = {m.id: chosen_runs(m.task_runs) for m in sorted(models, key=lambda m: m.id)}
    latency, latency_suites = fit(chosen, "latency_sec")
    cost, cost_suites = fit(chosen, "cost_usd")
    return TaskFits(
        latency=latency, cost=cost, latency_suites=latency_suites, cost_suites=cost_suites
    )


def chosen_runs(runs: Iterable[TaskRunRecord]) -> tuple[TaskRunRecord, ...]:
    """The runs of a model's default variant (module docstring), in benchmark order."""
    variants: dict[tuple[str, str], list[TaskRunRecord]] = {}
    for run in runs:
        if run.harness is None:
            variants.setdefault((run.source_model, run.effort or ""), []).append(run)
    if len(variants) > 1 and any(effort != MAX_EFFORT for _, effort in variants):
        variants = {k: v for k, v in variants.items() if k[1] != MAX_EFFORT}
    if not variants:
        return ()
    best = min(variants, key=lambda k: (-len({r.suite for r in variants[k]}), k[1] != "", k))
    return tuple(sorted(variants[best], key=lambda r: r.suite))


def fit(
    chosen: Mapping[str, Sequence[TaskRunRecord]],
    quantity: Quantity,
    min_models: int = MIN_MODELS,
) -> tuple[dict[str, TaskFit], dict[str, float]]:
    """Each model's figure in `quantity`, and each benchmark's effect minus the reference;
    a benchmark enters with runs of at least `min_models` models."""
    measured = {m: [r for r in rs if getattr(r, quantity) is not None] for m, rs in chosen.items()}
    counts = Counter(r.suite for rs in measured.values() for r in {r.suite: r for r in rs}.values())
    runs = {m: tuple(r for r in rs if counts[r.suite] >= min_models) for m, rs in measured.items()}
    fitted = {m for m, rs in runs.items() if len({r.suite for r in rs}) >= MIN_SUITES}
    fitted = _connected(fitted, runs)
    rows = [(m, r.suite, math.log(getattr(r, quantity))) for m in sorted(fitted) for r in runs[m]]
    effects, suites = _least_squares(rows)
    reference = float(np.median(list(suites.values()))) if suites else 0.0
    out = {}
    for model, its in runs.items():
        if model in effects:
            value = _figures(math.exp(effects[model] + reference))
            out[model] = TaskFit(
                value=value,
                reason=None,
                runs=its,
                effect=effects[model],
                reference=reference,
            )
        else:
            out[model] = TaskFit(value=None, reason=_why_not(its), runs=its)
    return out, {s: e - reference for s, e in sorted(suites.items())}


def _why_not(runs: Sequence[TaskRunRecord]) -> str:
    if not runs:
        return NO_RUNS
    return ONE_SUITE if len({r.suite for r in runs}) < MIN_SUITES else APART


def _connected(models: set[str], runs: Mapping[str, Sequence[TaskRunRecord]]) -> set[str]:
    """The largest group of `models` linked by shared benchmarks (ties: the first by id):
    effects of unlinked groups are on scales of their own."""
    left, groups = set(models), []
    while left:
        seed = min(left)
        group, suites, frontier = {seed}, set[str](), [seed]
        while frontier:
            model = frontier.pop()
            new = {r.suite for r in runs[model]} - suites
            suites |= new
            linked = {m for m in left - group if any(r.suite in new for r in runs[m])}
            group |= linked
            frontier += sorted(linked)
        left -= group
        groups.append(group)
    return max(groups, key=len, default=set())


def _least_squares(
    rows: Sequence[tuple[str, str, float]],
) -> tuple[dict[str, float], dict[str, float]]:
    """Model and benchmark effects of `log value = model + benchmark`, the first benchmark
    (by name) held at 0 so the design has full rank."""
    if not rows:
        return {}, {}
    models = sorted({m for m, _, _ in rows})
    suites = sorted({s for _, s, _ in rows})
    column = {m: i for i, m in enumerate(models)}
    column |= {s: len(models) + i - 1 for i, s in enumerate(suites) if i > 0}
    design = np.zeros((len(rows), len(models) + len(suites) - 1))
    target = np.array([y for _, _, y in rows])
    for i, (model, suite, _) in enumerate(rows):
        design[i, column[model]] = 1.0
        if suite in column:
            design[i, column[suite]] = 1.0
    solution = _huber(design, target)
    effects = {m: float(solution[column[m]]) for m in models}
    suite_effects = {s: float(solution[column[s]]) if s in column else 0.0 for s in suites}
    return effects, suite_effects


def _huber(design: np.ndarray, target: np.ndarray) -> np.ndarray:
    """Least squares with Huber weights (iteratively reweighted, a fixed number of rounds):
    a run more than HUBER robust sds off the fit weighs as if it were HUBER sds off, so no
    single run (a max-effort outlier) moves a benchmark's effect much."""
    weights = np.ones(len(target))
    solution = np.zeros(design.shape[1])
    for _ in range(ROUNDS):
        weighted = design.T * weights  # the normal equations: small (models + benchmarks)
        solution = np.linalg.solve(weighted @ design, weighted @ target)
        residual = np.abs(target - design @ solution)
        scale = max(MAD_TO_SD * float(np.median(residual)), 1e-9)
        weights = np.minimum(1.0, HUBER * scale / np.maximum(residual, 1e-12))
    return solution


def _figures(value: float) -> float:
    """`value` to FIGURES significant figures."""
    return round_to(value, FIGURES - 1 - math.floor(math.log10(value)))
