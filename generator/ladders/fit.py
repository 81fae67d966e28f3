"""A benchmark's fitted ladder, its confidence and its held-out check (docs/METHODOLOGY.md 1.3).

`fit_ladder` is pure: the benchmark and its targets in, the ladder and every figure out,
each stored to six significant digits (the same data gives the same bytes).
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Sequence

import msgspec
import numpy as np

from generator.input.load import MIN_MAGNITUDE
from generator.input.records import BenchmarkRecord, LadderMethod
from generator.ladders.curves import Curve, FitError, fit_curve
from generator.ladders.targets import Target
from generator.scoring.ladder import project
from generator.vocabulary import LADDER_IQS

MIN_MODELS = 5  # fewer: the benchmark stays unscored
NORMAL_MODELS = 10  # at least this many, spanning NORMAL_POINTS ladder points: `normal`
NORMAL_POINTS = 3
MIN_CHECK_MODELS = 3  # fewer models with two other results: the ladder cannot be checked
MIN_COVERAGE = 0.85  # a ladder whose held-out coverage falls under this is not used


def six(value: float) -> float:
    """`value` to six significant digits: how every fitted figure is stored; a magnitude under
    the smallest the data holds (a floor the optimiser left at 3e-13) is stored as 0."""
    return float(f"{value:.6g}") if abs(value) >= MIN_MAGNITUDE else 0.0


class HeldOut(msgspec.Struct, frozen=True, kw_only=True):
    """The leave-one-model-out check of a fitted ladder."""

    models: int  # models with at least two other results in the dimension
    coverage: float  # share of their targets inside the 95% predictive interval
    mean_log_predictive_density: float
    mean_absolute_error: float  # IQ points


class LadderFit(msgspec.Struct, frozen=True, kw_only=True):
    """A benchmark's fitted ladder and its figures; `refused` says why it is not used."""

    benchmark: str
    method: LadderMethod
    parameters: tuple[float, ...]
    ladder: tuple[float, ...]
    fitted_iq: tuple[int, int]  # the ladder points the targets reach
    as_of: dt.date
    round: int  # its targets came from the hand-set ladders and fitted ones of lower rounds
    models: int
    residual_sd: float  # sd of projection - target over the fit's models, IQ points
    target_sd: float  # sd of the targets themselves: the residual sd must be under it
    check: HeldOut
    confidence: str | None  # normal, low-confidence, or None: unscored
    refused: str | None  # why the ladder is not used (None: it is)


def fit_ladder(
    benchmark: BenchmarkRecord,
    targets: Sequence[Target],
    as_of: dt.date,
    interval_z: float,
    fit_round: int = 1,
) -> LadderFit:
    """The benchmark's ladder fitted on `targets`, checked on each model held out in turn, or
    `FitError` when no curve can be fitted at all (fewer than `MIN_MODELS` models, say)."""
    if len(targets) < MIN_MODELS:
        raise FitError(
            f"{len(targets)} models have a result and a target; a fit needs {MIN_MODELS}"
        )
    curve, ladder = _fit(benchmark, targets)
    residual_sd = _residual_sd(benchmark, ladder, targets, len(curve.parameters))
    fitted = fitted_range([t.iq for t in targets])
    check = held_out(benchmark, targets, interval_z)
    confidence = _confidence(len(targets), fitted)
    spread = targets_sd(targets)
    return LadderFit(
        benchmark=benchmark.id,
        method=curve.method,
        parameters=curve.parameters,
        ladder=ladder,
        fitted_iq=fitted,
        as_of=as_of,
        round=fit_round,
        models=len(targets),
        residual_sd=six(residual_sd),
        check=check,
        confidence=confidence,
        target_sd=six(spread),
        refused=_refusal(len(targets), confidence, check, residual_sd, spread),
    )


def _fit(benchmark: BenchmarkRecord, targets: Sequence[Target]) -> tuple[Curve, tuple[float, ...]]:
    """The stored curve (`stored_parameters`) and the ladder read from it."""
    found = fit_curve(benchmark, [t.iq for t in targets], [t.raw for t in targets])
    curve = Curve(found.method, stored_parameters(benchmark, found))
    return curve, ladder_points(curve, benchmark.direction == "higher_is_better")


def stored_parameters(benchmark: BenchmarkRecord, curve: Curve) -> tuple[float, ...]:
    """The curve's parameters to six significant digits; a logistic's floor and ceiling first
    to a millionth of the unit's range, so an end the optimiser left a hair off a bound
    (3.5e-19 for 0) is stored as the bound, not as float noise."""
    if curve.method != "logistic-4" or benchmark.min_value is None or benchmark.max_value is None:
        return tuple(six(p) for p in curve.parameters)
    span = benchmark.max_value - benchmark.min_value
    step = 10.0 ** (math.floor(math.log10(span)) - 6)
    low, high, mid, scale = curve.parameters
    ends = (six(round(v / step) * step) for v in (low, high))
    return (*ends, six(mid), six(scale))


def ladder_points(curve: Curve, rising: bool) -> tuple[float, ...]:
    """The curve read at the ladder's IQ points (`LADDER_IQS`), to six significant digits,
    strictly monotone (a point that rounding made equal to the next is moved to the six-digit
    value before it)."""
    values = curve.at(np.asarray(LADDER_IQS, dtype=np.float64))
    sign = 1.0 if rising else -1.0
    points = [six(sign * float(v)) for v in values]
    if not all(math.isfinite(p) for p in points):
        raise FitError("the fitted curve is not finite at the ladder points")
    if points[-1] - points[0] <= 1e-6 * max(abs(points[-1]), abs(points[0]), 1e-12):
        raise FitError("the fitted curve is flat: the results do not rise with the targets")
    for index in range(len(points) - 2, -1, -1):
        if points[index] >= points[index + 1]:
            points[index] = _six_below(points[index + 1])
    return tuple(sign * p for p in points)


def _six_below(value: float) -> float:
    """The six-significant-digit number just below `value`."""
    magnitude = abs(value) if value else 1e-6
    step = 10.0 ** (math.floor(math.log10(magnitude)) - 5)
    below = six(value - step)
    return below if below < value else six(value - step / 10)


def _residual_sd(
    benchmark: BenchmarkRecord, ladder: Sequence[float], targets: Sequence[Target], k: int
) -> float:
    """sqrt(sum (f_b(raw) - target)^2 / (n - k)): the sd of a projection around its target."""
    errors = [project(ladder, benchmark.direction, t.raw) - t.iq for t in targets]
    return math.sqrt(math.fsum(e * e for e in errors) / max(1, len(errors) - k))


def fitted_range(iqs: Sequence[float]) -> tuple[int, int]:
    """The ladder points nearest the lowest and the highest target (ties outward)."""
    low = max((p for p in LADDER_IQS if p < min(iqs) + 7.5), default=LADDER_IQS[0])
    high = min((p for p in LADDER_IQS if p > max(iqs) - 7.5), default=LADDER_IQS[-1])
    return low, high


def _confidence(models: int, fitted: tuple[int, int]) -> str | None:
    points = (fitted[1] - fitted[0]) // (LADDER_IQS[1] - LADDER_IQS[0]) + 1
    if models >= NORMAL_MODELS and points >= NORMAL_POINTS:
        return "normal"
    if models >= MIN_MODELS and points >= 2:
        return "low-confidence"
    return None


def targets_sd(targets: Sequence[Target]) -> float:
    """The sd of the targets themselves (n - 1): what a ladder that says nothing would miss by."""
    mean = math.fsum(t.iq for t in targets) / len(targets)
    return math.sqrt(math.fsum((t.iq - mean) ** 2 for t in targets) / max(1, len(targets) - 1))


def _refusal(
    models: int, confidence: str | None, check: HeldOut, residual_sd: float, spread: float
) -> str | None:
    if confidence is None:
        return f"{models} models whose targets reach a single ladder point"
    if residual_sd >= spread:
        return (
            f"residual sd {residual_sd:.1f} IQ points is not under the targets' own sd"
            f" {spread:.1f}: the ladder tells nothing about a model"
        )
    if check.models < MIN_CHECK_MODELS:
        needs = MIN_CHECK_MODELS
        return f"{check.models} models with two other results to check it on (needs {needs})"
    if check.coverage < MIN_COVERAGE:
        return f"held-out coverage {check.coverage:.0%} is under {MIN_COVERAGE:.0%}"
    return None


def held_out(benchmark: BenchmarkRecord, targets: Sequence[Target], interval_z: float) -> HeldOut:
    """Each model with at least two other results in the dimension held out in turn: the
    ladder fitted on the others projects its result, scored against its target within the
    normal predictive interval of sd `residual_sd * sqrt(1 + 1/n)` of that fit."""
    errors: list[float] = []
    densities: list[float] = []
    inside = 0
    for index, target in enumerate(targets):
        if target.others < 2:
            continue
        rest = [t for i, t in enumerate(targets) if i != index]
        try:
            curve, ladder = _fit(benchmark, rest)
        except FitError:
            continue  # the others alone give no curve: nothing to check this model against
        sd = _residual_sd(benchmark, ladder, rest, len(curve.parameters))
        sd = max(sd, 1e-9) * math.sqrt(1 + 1 / len(rest))
        error = project(ladder, benchmark.direction, target.raw) - target.iq
        errors.append(abs(error))
        densities.append(-0.5 * (error / sd) ** 2 - math.log(sd * math.sqrt(2 * math.pi)))
        inside += abs(error) <= interval_z * sd
    count = len(errors)
    return HeldOut(
        models=count,
        coverage=six(inside / count) if count else 0.0,
        mean_log_predictive_density=six(math.fsum(densities) / count) if count else 0.0,
        mean_absolute_error=six(math.fsum(errors) / count) if count else 0.0,
    )
