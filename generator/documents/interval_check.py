"""The methodology's interval check as published (docs/METHODOLOGY.md 3.2): figures from the data.

`bench/methodology.py` measures the figures and writes them into `data/methodology.toml`;
the build only rounds them and states them in one sentence, so it stays deterministic.
"""

from __future__ import annotations

from generator.api.contract import CompositeHoldOut, HeldOutCheck, IntervalCheck
from generator.input.records import CompositeCheckRecord, HeldOutCheckRecord, IntervalCheckRecord
from generator.scoring import round_to

DESCRIPTIONS = {
    "benchmark-hold-out": (
        "Each benchmark result of a model with at least two in its dimension, left out in turn"
        " and predicted from everything else (offsets, noise, regression and predecessor"
        " refitted), with the result's own noise."
    ),
    "dimension-hold-out": (
        "Each whole direct dimension of a model with at least three, left out and predicted"
        " from its prior (the model's other dimensions and its predecessor)."
    ),
}
NOUNS = {
    "benchmark-hold-out": "held-out benchmark results",
    "dimension-hold-out": "held-out dimensions",
}
SHARE_DECIMALS = 3  # 0.929 = 92.9%
SCORE_DECIMALS = 3


def percent(share: float) -> str:
    """`0.9289` -> `92.9%`."""
    return f"{share * 100:.1f}%"


def statement(record: IntervalCheckRecord) -> str:
    """The figures in one sentence, with the limit the pages repeat beside every range."""
    parts = [f"{percent(c.coverage)} of {NOUNS[c.id]}" for c in record.checks]
    composites = [percent(c.coverage) for c in record.composite_checks]
    if composites:
        kept = ", ".join(str(c.kept_dimensions) for c in record.composite_checks)
        parts.append(
            f"{', '.join(composites)} of full-data composites re-scored on {kept} of their"
            " measured dimensions"
        )
    held = ", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1 else "".join(parts)
    held = held or "no held-out values"
    return (
        f"On this data, {held} fell inside {record.nominal * 100:g}% ranges built this way;"
        " the ranges do not cover differences between scoring methods."
    )


def _check(record: HeldOutCheckRecord) -> HeldOutCheck:
    return HeldOutCheck(
        id=record.id,
        description=DESCRIPTIONS[record.id],
        cases=record.cases,
        models=record.models,
        coverage=round_to(record.coverage, SHARE_DECIMALS),
        mean_log_predictive_density=round_to(record.mean_log_predictive_density, SCORE_DECIMALS),
        mean_absolute_error=round_to(record.mean_absolute_error, SCORE_DECIMALS),
        previous_coverage=round_to(record.previous_coverage, SHARE_DECIMALS),
        previous_mean_log_predictive_density=round_to(
            record.previous_mean_log_predictive_density, SCORE_DECIMALS
        ),
        previous_mean_absolute_error=round_to(record.previous_mean_absolute_error, SCORE_DECIMALS),
        lpd_gain=round_to(record.lpd_gain, SCORE_DECIMALS),
        lpd_gain_low95=round_to(record.lpd_gain_low95, SCORE_DECIMALS),
        lpd_gain_high95=round_to(record.lpd_gain_high95, SCORE_DECIMALS),
    )


def _composite(record: CompositeCheckRecord) -> CompositeHoldOut:
    return CompositeHoldOut(
        kept_dimensions=record.kept_dimensions,
        cases=record.cases,
        models=record.models,
        coverage=round_to(record.coverage, SHARE_DECIMALS),
        mean_log_predictive_density=round_to(record.mean_log_predictive_density, SCORE_DECIMALS),
        rms_standardised_error=round_to(record.rms_standardised_error, SCORE_DECIMALS),
        previous_coverage=round_to(record.previous_coverage, SHARE_DECIMALS),
        previous_mean_log_predictive_density=round_to(
            record.previous_mean_log_predictive_density, SCORE_DECIMALS
        ),
        previous_rms_standardised_error=round_to(
            record.previous_rms_standardised_error, SCORE_DECIMALS
        ),
    )


def interval_check(record: IntervalCheckRecord) -> IntervalCheck:
    """The published object: the record's figures, rounded, and the sentence."""
    return IntervalCheck(
        statement=statement(record),
        nominal=record.nominal,
        previous_version=record.previous_version,
        bootstrap_resamples=record.bootstrap_resamples,
        checks=[_check(c) for c in record.checks],
        composite_checks=[_composite(c) for c in record.composite_checks],
    )
