"""The curves and the ladder of a fit (generator/ladders/curves.py, fit.py), on known curves."""

from __future__ import annotations

import datetime as dt
import math

import numpy as np
import pytest
from scipy.special import expit

from generator.input.records import BenchmarkRecord
from generator.ladders.curves import Curve, FitError, fit_curve
from generator.ladders.fit import fit_ladder, fitted_range, ladder_points, six, stored_parameters
from generator.ladders.targets import Target
from generator.vocabulary import LADDER_IQS

IQS = [72.0 + 3.0 * i for i in range(21)]  # 72 .. 132


def bench(**fields: object) -> BenchmarkRecord:
    base: dict[str, object] = {
        "id": "known",
        "field": "known",
        "name": "Known",
        "category": "iq",
        "dimension": "mathematical-reasoning",
        "direction": "higher_is_better",
        "unit": "fraction 0-1",
        "min_value": 0.0,
        "max_value": 1.0,
        "source_name": "Test",
        "source_url": "https://example.org/known",
        "updated": dt.datetime(2026, 1, 1, tzinfo=dt.UTC),
    }
    return BenchmarkRecord(**{**base, **fields})  # type: ignore[arg-type]


def logistic(iq: float, floor: float, ceiling: float, mid: float, scale: float) -> float:
    return float(floor + (ceiling - floor) * expit((iq - mid) / scale))


def test_an_exact_logistic_is_recovered() -> None:
    # raw = 0.1 + 0.8 / (1 + exp(-(iq - 100) / 10)) at 21 IQs from 72 to 132, no noise
    raws = [logistic(iq, 0.1, 0.9, 100.0, 10.0) for iq in IQS]
    curve = fit_curve(bench(), IQS, raws)
    assert curve.method == "logistic-4"
    assert curve.parameters == pytest.approx((0.1, 0.9, 100.0, 10.0), abs=1e-4)


def test_a_percent_lower_is_better_logistic_is_mirrored_and_recovered() -> None:
    # a calibration error in percent falling from 80 to 10 with IQ, midpoint 110, scale 15:
    # the value as IQ -> -inf is 80, as IQ -> +inf 10
    falling = bench(direction="lower_is_better", unit="percent 0-100", max_value=100.0)
    raws = [logistic(iq, 80.0, 10.0, 110.0, 15.0) for iq in IQS]
    curve = fit_curve(falling, IQS, raws)
    assert curve.parameters == pytest.approx((80.0, 10.0, 110.0, 15.0), abs=1e-2)
    ladder = ladder_points(curve, rising=False)
    assert all(b < a for a, b in zip(ladder, ladder[1:], strict=False))


def test_an_elo_takes_a_line_and_minutes_a_log_linear_line() -> None:
    elo = bench(unit="elo", min_value=0.0, max_value=4000.0)
    line = fit_curve(elo, IQS, [1000.0 + 20.0 * (iq - 100) for iq in IQS])
    assert line.method == "linear"
    assert line.parameters == pytest.approx((-1000.0, 20.0))  # 1000 - 20 * 100 = -1000
    minutes = bench(unit="minutes", max_value=None)
    log_line = fit_curve(minutes, IQS, [math.exp(0.05 * iq - 2.0) for iq in IQS])
    assert log_line.method == "log-linear"
    assert log_line.parameters == pytest.approx((-2.0, 0.05))


def test_a_line_against_the_direction_is_refused() -> None:
    elo = bench(unit="elo", min_value=0.0, max_value=4000.0)
    with pytest.raises(FitError, match="runs against higher_is_better"):
        fit_curve(elo, IQS, [2000.0 - iq for iq in IQS])


def test_the_ladder_is_the_curve_at_the_seven_points_to_six_digits() -> None:
    curve = Curve("logistic-4", (0.1, 0.9, 100.0, 10.0))
    ladder = ladder_points(curve, rising=True)
    # IQ 100: 0.1 + 0.8 * 0.5 = 0.5; IQ 130: 0.1 + 0.8 / (1 + e^-3) = 0.1 + 0.8 * 0.952574
    # = 0.862059 (6 digits)
    assert ladder[2] == 0.5
    assert ladder[4] == 0.862059
    assert ladder == tuple(six(logistic(iq, 0.1, 0.9, 100.0, 10.0)) for iq in LADDER_IQS)


def test_points_that_rounding_makes_equal_are_made_strictly_increasing() -> None:
    # scale 3: IQ 145 and 160 both read 0.9 to six digits (0.9 - 0.8 e^-15 = 0.89999976...);
    # the lower of the two moves to the six-digit value below: 0.899999
    curve = Curve("logistic-4", (0.1, 0.9, 100.0, 3.0))
    ladder = ladder_points(curve, rising=True)
    assert ladder[-2:] == (0.899999, 0.9)
    assert all(b > a for a, b in zip(ladder, ladder[1:], strict=False))


def test_the_fitted_range_is_the_nearest_ladder_points() -> None:
    assert fitted_range([76.0, 136.0]) == (70, 130)  # 76 is nearer 70, 136 nearer 130
    assert fitted_range([92.5, 107.5]) == (85, 115)  # halfway: outward
    assert fitted_range([93.0, 112.0]) == (100, 115)
    assert fitted_range([60.0, 170.0]) == (70, 160)


def targets(raws: list[float], iqs: list[float], others: int = 2) -> list[Target]:
    return [
        Target(model=f"m{i:02d}", raw=r, iq=q, others=others)
        for i, (r, q) in enumerate(zip(raws, iqs, strict=True))
    ]


def test_confidence_follows_models_and_span() -> None:
    when = dt.date(2026, 1, 1)
    raws = [logistic(iq, 0.1, 0.9, 100.0, 10.0) for iq in IQS]
    normal = fit_ladder(bench(), targets(raws, IQS), when, 1.96)
    assert (normal.confidence, normal.models, normal.fitted_iq) == ("normal", 21, (70, 130))
    few = fit_ladder(bench(), targets(raws[::4], IQS[::4]), when, 1.96)  # 6 models
    assert few.confidence == "low-confidence"
    with pytest.raises(FitError, match="4 models"):
        fit_ladder(bench(), targets(raws[:4], IQS[:4]), when, 1.96)


def test_a_ladder_without_models_to_check_it_on_is_not_used() -> None:
    raws = [logistic(iq, 0.1, 0.9, 100.0, 10.0) for iq in IQS]
    fit = fit_ladder(bench(), targets(raws, IQS, others=1), dt.date(2026, 1, 1), 1.96)
    assert fit.check.models == 0
    assert fit.refused is not None and "to check it on" in fit.refused


def test_the_check_holds_each_model_out() -> None:
    # noise of +/-0.02 in a fixed pattern: the 95% intervals hold most held-out targets
    rng = np.array([1, -1, -1, 1] * 6)[: len(IQS)] * 0.02
    raws = [logistic(iq, 0.1, 0.9, 100.0, 10.0) + float(n) for iq, n in zip(IQS, rng, strict=True)]
    fit = fit_ladder(bench(), targets(raws, IQS), dt.date(2026, 1, 1), 1.96)
    assert fit.check.models == 21
    assert fit.check.coverage >= 0.85
    assert 0 < fit.check.mean_absolute_error < 3 * fit.residual_sd
    assert fit.refused is None


def test_a_logistic_end_a_hair_off_its_bound_is_stored_as_the_bound() -> None:
    # a fraction's range is 1: the ends are kept to 1e-6 first, then to six digits
    curve = Curve("logistic-4", (3.51129e-19, 0.99999999, 78.80973412, 12.18881234))
    assert stored_parameters(bench(), curve) == (0.0, 1.0, 78.8097, 12.1888)
    # a percent's range is 100: ends to 1e-4 (34.0000049 -> 34.0)
    percent = bench(unit="percent 0-100", max_value=100.0)
    assert stored_parameters(percent, Curve("logistic-4", (99.99999, 34.0000049, 74.0, 45.0)))[
        :2
    ] == (100.0, 34.0)


def test_a_ladder_no_better_than_the_targets_own_spread_is_not_used() -> None:
    # results that do not follow the IQs (0.2, 0.8, 0.8, 0.2, ...): whatever the curve, its
    # projections miss the targets by more than the targets' own sd
    raws = [(0.2, 0.8, 0.8, 0.2)[i % 4] for i in range(len(IQS))]
    fit = fit_ladder(bench(), targets(raws, IQS), dt.date(2026, 1, 1), 1.96)
    assert fit.residual_sd >= fit.target_sd
    assert fit.refused is not None and "the ladder tells nothing" in fit.refused
