"""`modelscores ladders fit`: fit, check, print and (with `write`) store benchmarks' ladders."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from pathlib import Path

from generator.errors import DataError, GeneratorError, one_line
from generator.input.load import load_dataset
from generator.input.records import BenchmarkRecord, Dataset
from generator.ladders.curves import FitError
from generator.ladders.fit import LadderFit, fit_ladder
from generator.ladders.targets import fit_targets, newest_date
from generator.ladders.write import fitted_text, unscored_text
from generator.vocabulary import LADDER_IQS


class LadderError(GeneratorError):
    """A benchmark the command cannot fit or write, in one line."""


def fit_benchmarks(
    data_dir: Path,
    ids: Sequence[str],
    as_of: dt.date | None,
    write: bool,
    fit_round: int | None = None,
) -> str:
    """Fit each benchmark of `ids` on `data_dir` (each independently: the hand-set ladders and
    the fitted ladders of lower rounds, as loaded before any fit, give its targets) and return
    the report; with `write`, store each fit in its file (a benchmark no ladder can be fitted
    to, or whose ladder is not used, is left unscored)."""
    dataset = load_dataset(data_dir)
    benchmarks = [_benchmark(dataset, bid) for bid in ids]  # every id known before any fit
    lines: list[str] = []
    before: dict[Path, str] = {}
    for benchmark in benchmarks:
        try:
            fit: LadderFit | str = fit_one(dataset, benchmark, as_of, fit_round)
        except FitError as exc:
            fit = one_line(str(exc))
        lines += describe(fit) if isinstance(fit, LadderFit) else [f"{benchmark.id}: {fit}"]
        if write:
            lines.append(_write(data_dir, benchmark, fit, before))
    try:
        if before:
            load_dataset(data_dir)  # the written tree is valid data
    except DataError:
        for path, text in before.items():  # or it is put back as it was
            path.write_text(text, encoding="utf-8")
        raise
    return "\n".join(lines) + "\n"


def fit_one(
    dataset: Dataset,
    benchmark: BenchmarkRecord,
    as_of: dt.date | None,
    fit_round: int | None = None,
) -> LadderFit:
    """The benchmark's fit of round `fit_round` on the data of `as_of` (defaults: its stored
    fit's round and date, else round 1 and the newest date of its results), or `FitError`
    saying why there is none."""
    stored = benchmark.ladder_fit
    if as_of is None:
        as_of = stored.as_of if stored is not None else newest_date(dataset, benchmark)
    if fit_round is None:
        fit_round = stored.round if stored is not None else 1
    if as_of is None:
        raise FitError("no ladder: no published model has a result on it (unscored)")
    try:
        targets = fit_targets(dataset, benchmark, as_of, fit_round)
        z = dataset.methodology.parameters.interval_z
        return fit_ladder(benchmark, targets, as_of, z, fit_round)
    except FitError as exc:
        raise FitError(f"no ladder: {exc} (unscored)") from None


def describe(fit: LadderFit) -> list[str]:
    """The fit as the command prints it: curve, ladder, range, confidence and the check."""
    check = fit.check
    points = ", ".join(f"{iq} {value:g}" for iq, value in zip(LADDER_IQS, fit.ladder, strict=True))
    verdict = "used" if fit.refused is None else f"not used: {fit.refused}"
    return [
        f"{fit.benchmark}: {fit.method} fit on {fit.models} models, data as of {fit.as_of},"
        f" round {fit.round}",
        f"  ladder (IQ raw): {points}",
        f"  parameters: {', '.join(f'{p:g}' for p in fit.parameters)}",
        f"  fitted IQ range {fit.fitted_iq[0]}-{fit.fitted_iq[1]}, residual sd"
        f" {fit.residual_sd:g} IQ points (the targets' own sd {fit.target_sd:g}), confidence"
        f" {fit.confidence or 'none (unscored)'}",
        f"  held-out check: {check.models} models, coverage {check.coverage:.1%}, mean log"
        f" predictive density {check.mean_log_predictive_density:g}, mean absolute error"
        f" {check.mean_absolute_error:g} IQ points",
        f"  {verdict}",
    ]


def _benchmark(dataset: Dataset, benchmark_id: str) -> BenchmarkRecord:
    for benchmark in (*dataset.benchmarks, *dataset.unscored):
        if benchmark.id == benchmark_id:
            if benchmark.category != "iq" or benchmark.dimension is None:
                message = f"{benchmark_id}: not a benchmark of a scored dimension (category iq)"
                raise LadderError(one_line(message))
            return benchmark
    raise LadderError(one_line(f"{benchmark_id}: no such benchmark in data/benchmarks"))


def _write(
    data_dir: Path, benchmark: BenchmarkRecord, fit: LadderFit | str, before: dict[Path, str]
) -> str:
    """Store `fit` in the benchmark's file, or make it unscored when `fit` is a reason
    (never over a hand-set ladder); `before` keeps each file's text as it was."""
    path = data_dir / "benchmarks" / f"{benchmark.id}.toml"
    if benchmark.ladder and benchmark.ladder_fit is None:
        return f"  not written: {path} has a hand-set ladder (edit it by hand to replace it)"
    text = path.read_text(encoding="utf-8")
    new = fitted_text(text, fit) if isinstance(fit, LadderFit) else unscored_text(text)
    if new == text:
        return f"  {path}: unchanged"
    before.setdefault(path, text)
    path.write_text(new, encoding="utf-8")
    scored = isinstance(fit, LadderFit) and fit.refused is None
    return f"  written: {path}" + ("" if scored else " (unscored)")
