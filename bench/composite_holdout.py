"""The composite hold-out of docs/METHODOLOGY.md 3.2 (c) (version 4), and the choice of `rho`.

For every model with at least `MIN_DIRECT` direct dimensions and for k = 2, 3 and 4, keep
the results of k of its direct dimensions (`DRAWS` draws per model, fixed seed) and drop
its other results, re-score the whole dataset (offsets, noise, regression and the model's
lineage refitted) and score the model's full-data composite against Normal(held-out
composite, sd_c). sd_c is `uncertainty.composite_sd` with the correlation `rho` of the
imputed dimensions: each re-scoring is made once and scored at every `rho` of the grid, so
version 3 (`rho` = 0) and version 4 are compared on the same cases.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from bench.holdout import Fitted, Grouped
from generator.api.contract import DIMENSION_SLUGS
from generator.scoring.engine import build_population, estimate_dimensions
from generator.scoring.uncertainty import composite_sd

MIN_DIRECT = 6  # models this well covered have a full-data composite worth predicting
KEPT = (2, 3, 4)  # direct dimensions kept per case
DRAWS = 6  # draws of the kept dimensions per model and k
SEED = 2026
GRID = tuple(round(0.1 * step, 1) for step in range(11))  # rho = 0, 0.1, ..., 1


@dataclass(frozen=True)
class Case:
    """One model re-scored on `kept` of its direct dimensions."""

    model: str
    kept: tuple[str, ...]  # the dimension slugs whose results stay, in dimension order
    target: float  # the model's full-data composite (unrounded)


@dataclass(frozen=True)
class Rescored:
    """A case's held-out composite and the dimensions its sd is made from."""

    case: Case
    composite: float
    sds: tuple[float, ...]  # the seven dimension sds, in dimension order
    imputed: tuple[bool, ...]  # which of the seven are imputed

    def error(self) -> float:
        return self.composite - self.case.target

    def sd(self, rho: float) -> float:
        return composite_sd(self.sds, self.imputed, rho)


def cases(fitted: Fitted, full: dict[str, float]) -> list[Case]:
    """Every case, model by model (ids sorted), then k, then draw: a fixed seed per model
    and k, so adding a model leaves the other models' draws as they were."""
    found: list[Case] = []
    for model_id in sorted(fitted.grouped):
        direct = [s for s in DIMENSION_SLUGS if fitted.population.direct[model_id][s] is not None]
        if len(direct) < MIN_DIRECT or model_id not in full:
            continue
        for k in KEPT:
            rng = random.Random(f"{SEED}:{model_id}:{k}")
            for _ in range(DRAWS):
                kept = set(rng.sample(direct, k))
                slugs = tuple(s for s in DIMENSION_SLUGS if s in kept)
                found.append(Case(model_id, slugs, full[model_id]))
    return found


def _kept_only(fitted: Fitted, case: Case) -> Grouped:
    own = fitted.grouped[case.model]
    grouped = dict(fitted.grouped)
    grouped[case.model] = {s: own[s] if s in case.kept else () for s in DIMENSION_SLUGS}
    return grouped


def rescore(fitted: Fitted, case: Case) -> Rescored:
    """The case's model re-scored with the whole dataset refitted on the reduced data."""
    grouped = _kept_only(fitted, case)
    population = build_population(fitted.dataset, grouped)
    estimates = fitted.estimate(grouped, population, case.model, estimate_dimensions)
    values = [e.value for e in estimates]
    sds = [e.sd for e in estimates]
    if any(v is None for v in values) or any(s is None for s in sds):
        raise ValueError(f"{case.model}: a re-scored dimension has no estimate")
    return Rescored(
        case=case,
        composite=sum(v for v in values if v is not None) / len(values),
        sds=tuple(s for s in sds if s is not None),
        imputed=tuple(e.imputed for e in estimates),
    )


@dataclass(frozen=True)
class Figures:
    """One `rho`'s record over a set of cases."""

    cases: int
    models: int
    lpd: float  # mean log predictive density
    rmse_z: float  # root mean square of the standardised error
    coverage: float  # share inside composite +/- z sd_c


def figures(items: Sequence[Rescored], rho: float, z: float) -> Figures:
    """The mean LPD, RMS standardised error and coverage of `items` at `rho`."""
    if not items:
        return Figures(0, 0, math.nan, math.nan, math.nan)
    lpd = rms = inside = 0.0
    for item in items:
        sd, error = item.sd(rho), item.error()
        lpd += -0.5 * math.log(2 * math.pi * sd * sd) - error * error / (2 * sd * sd)
        rms += (error / sd) ** 2
        inside += abs(error) <= z * sd
    n = len(items)
    return Figures(n, len({i.case.model for i in items}), lpd / n, math.sqrt(rms / n), inside / n)


def best_rho(items: Sequence[Rescored], z: float) -> float:
    """The grid value with the highest mean LPD over all k together (the first on a tie)."""
    return max(GRID, key=lambda rho: (figures(items, rho, z).lpd, -rho))


def by_k(items: Sequence[Rescored], k: int) -> list[Rescored]:
    return [i for i in items if len(i.case.kept) == k]
