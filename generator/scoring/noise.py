"""`sigma_b` per benchmark, estimated from the data (docs/METHODOLOGY.md section 2.2, version 2).

Per dimension, over the models with at least two results there: `e_mb` is a
result's observation minus the mean of the model's other observations;
`s_b^2 = max(0, mean_m [e_mb^2 - sum_{j != b} sigma_j^2 / (k_m - 1)^2])` and
`sigma_b^2 = (n_b s_b^2 + kappa seed_b^2) / (n_b + kappa)`, iterated from
`sigma_j = seed_j` to a fixed point. `seed_b` is the residual sd of the benchmark's fitted
ladder (section 1.3: it seeds `sigma_b` until the data estimate it), else `sigma_benchmark`.
The system is linear in the variances apart from the `max(0, .)`, so each iteration works on
two precomputed summaries per benchmark and costs nothing per model.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import msgspec
import numpy as np

from generator.scoring.padded import Floats, Padded, add_by_benchmark, leave_one_out, pad
from generator.scoring.types import BenchmarkNoise

TOLERANCE = 1e-9  # stop when no sigma_b moves by more than this
MAX_ITERATIONS = 100_000  # a fixed cap: the result stays deterministic either way

Observed = Sequence[tuple[str, float]]  # one model's (benchmark id, y) in one dimension


class Summary(msgspec.Struct, kw_only=True):
    """What the fixed point needs of one benchmark: `n_b`, `mean e^2` and the couplings."""

    models: int = 0
    mean_square: float = 0.0  # mean over m of e_mb^2
    coupling: dict[str, float] = {}  # j -> mean over m of [j in m] / (k_m - 1)^2


def summaries_of(table: Padded, observations: Floats) -> dict[str, Summary]:
    """The `Summary` of every benchmark with models of two or more results in `table` (a row
    per model; `observations` its cells' `y`), added up in model order."""
    counts = table.counts
    cells = table.mask & (counts >= 2)[:, None]
    squares = add_by_benchmark(table, cells, leave_one_out(observations, table.mask) ** 2)
    size = len(table.benchmarks)
    models = np.bincount(table.bench[cells], minlength=size)
    width = table.mask.shape[1]
    pairs = cells[:, :, None] & cells[:, None, :] & ~np.eye(width, dtype=np.bool_)
    cell = (table.bench[:, :, None] * size + table.bench[:, None, :])[pairs]
    weight = 1.0 / np.maximum(counts - 1.0, 1.0) ** 2
    coupling = np.zeros(size * size)
    np.add.at(coupling, cell, np.broadcast_to(weight[:, None, None], pairs.shape)[pairs])
    seen = np.bincount(cell, minlength=size * size).reshape(size, size) > 0
    coupled = coupling.reshape(size, size).tolist()
    found = {}
    for i, benchmark in enumerate(table.benchmarks):
        n = int(models[i])
        if n:
            found[benchmark] = Summary(
                models=n,
                mean_square=float(squares[i]) / n,
                coupling={
                    table.benchmarks[j]: coupled[i][j] / n for j in np.flatnonzero(seen[i]).tolist()
                },
            )
    return found


def _step(
    summary: Summary, variances: Mapping[str, float], prior_variance: float, kappa: float
) -> float:
    """One update of `sigma_b^2` from the current variances of the other benchmarks."""
    noise_of_others = math.fsum(c * variances[j] for j, c in summary.coupling.items())
    spread = max(0.0, summary.mean_square - noise_of_others)
    return (summary.models * spread + kappa * prior_variance) / (summary.models + kappa)


def estimate_noise(
    groups: Sequence[Observed],
    benchmarks: Sequence[str],
    fixed: Mapping[str, float],
    sigma_benchmark: float,
    kappa: float,
    seeds: Mapping[str, float] | None = None,
) -> dict[str, BenchmarkNoise]:
    """`sigma_b` of every benchmark in `benchmarks` (one dimension's), by id.

    `groups` holds each model's observations in the dimension; only models with
    two or more count. A benchmark in `fixed` keeps its value (and feeds the
    others); one with no such models keeps its seed (`seeds`, the residual sd of
    a fitted ladder), else `sigma_benchmark`.
    """
    table = pad(groups)
    summaries = summaries_of(table, table.values)
    return noise_from(summaries, benchmarks, fixed, Seeds(seeds or {}, sigma_benchmark), kappa)


class Seeds(msgspec.Struct, frozen=True):
    """Where each `sigma_b` starts and what it shrinks toward: the residual sd of the
    benchmark's fitted ladder (`fitted`, by id), else `default` (`sigma_benchmark`)."""

    fitted: Mapping[str, float]
    default: float

    def of(self, benchmark: str) -> float:
        return self.fitted.get(benchmark, self.default)


def noise_from(
    summaries: Mapping[str, Summary],
    benchmarks: Sequence[str],
    fixed: Mapping[str, float],
    seeds: Seeds,
    kappa: float,
) -> dict[str, BenchmarkNoise]:
    """`estimate_noise` from the groups' `Summary` of each benchmark seen in them."""
    variances = {b: fixed.get(b, seeds.of(b)) ** 2 for b in benchmarks}
    for summary in summaries.values():  # a benchmark seen in the data but not listed
        for other in summary.coupling:
            variances.setdefault(other, fixed.get(other, seeds.of(other)) ** 2)
    free = sorted(b for b in variances if b not in fixed and b in summaries)
    for _ in range(MAX_ITERATIONS):
        updated = {b: _step(summaries[b], variances, seeds.of(b) ** 2, kappa) for b in free}
        moved = max(
            (abs(math.sqrt(v) - math.sqrt(variances[b])) for b, v in updated.items()),
            default=0.0,
        )
        variances.update(updated)
        if moved <= TOLERANCE:
            break
    return {b: _noise(b, variances[b], fixed, summaries, seeds) for b in benchmarks}


def _noise(
    benchmark: str,
    variance: float,
    fixed: Mapping[str, float],
    summaries: Mapping[str, Summary],
    seeds: Seeds,
) -> BenchmarkNoise:
    if benchmark in fixed:
        return BenchmarkNoise(sd=fixed[benchmark], source="fixed", models=0)
    if benchmark in summaries:
        return BenchmarkNoise(
            sd=math.sqrt(variance), source="estimated", models=summaries[benchmark].models
        )
    if benchmark in seeds.fitted:
        return BenchmarkNoise(sd=math.sqrt(variance), source="fitted-ladder", models=0)
    return BenchmarkNoise(sd=math.sqrt(variance), source="default", models=0)
