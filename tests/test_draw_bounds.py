"""Drawing does bounded work for any finite data, and what cannot be drawn is one line."""

from __future__ import annotations

import datetime as dt
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator import build
from generator.cli import cli
from generator.pages import svg
from generator.pages.axes import date_ticks, value_ticks

FIXTURE = Path(__file__).resolve().parent / "data"


@pytest.mark.parametrize(
    ("lo", "hi"),
    [
        (1_000_000_000.0, 1_000_000_000.0000001),  # one float step apart: looped forever
        (1e12, 1e12),
        (-1e12, 1e12),
        (1e-12, 2e-12),
        (0.0, 5e-324),
        (1.7e308, 1.7e308),
    ],
)
def test_nice_ticks_end_and_cover_the_range(lo: float, hi: float) -> None:
    started = time.perf_counter()
    ticks = svg.nice_ticks(lo, hi, 5)
    assert time.perf_counter() - started < 0.1
    assert 2 <= len(ticks) <= svg.MAX_TICKS
    assert ticks[0] <= lo and ticks[-1] >= hi


def test_nice_ticks_keep_the_1_2_5_rule() -> None:
    # span 148 - 72 = 76, raw step 76 / 5 = 15.2 -> 20; first = floor(72 / 20) * 20 = 60;
    # 60 + 20 * 5 = 160 is the first tick at or above 148
    assert svg.nice_ticks(72, 148, 5) == [60, 80, 100, 120, 140, 160]


def test_nice_ticks_refuse_an_infinite_range() -> None:
    with pytest.raises(OverflowError):
        svg.nice_ticks(-1.7e308, 1.7e308)  # the span overflows to inf


def test_value_ticks_of_values_one_float_step_apart() -> None:
    ticks = value_ticks([1_000_000_000.0, 1_000_000_000.0000001])
    assert len(ticks) <= svg.MAX_TICKS


def test_log_ticks_are_bounded() -> None:
    assert len(svg.log_ticks(1e-300, 1e300)) == svg.MAX_TICKS


def test_date_ticks_over_a_century_stay_few() -> None:
    # 2000-01 .. 2099-07 is 1194 months; step 12 * ceil(1194 / 120) = 120 months: 10 ticks
    ticks = date_ticks(dt.date(2000, 1, 1), dt.date(2099, 7, 1))
    assert [label for _, label in ticks] == [str(year) for year in range(2000, 2100, 10)]


def test_resvg_refusal_is_a_render_error() -> None:
    with pytest.raises(svg.RenderError):
        svg.rasterise('<svg xmlns="http://www.w3.org/2000/svg"><text>\x01</text></svg>')


@pytest.mark.parametrize("error", [OverflowError("x"), RecursionError("y"), MemoryError()])
def test_an_undrawable_dataset_is_one_line_not_a_traceback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, error: BaseException
) -> None:
    def explode(*args: object) -> None:
        raise error

    monkeypatch.setattr(build, "compute_scores", explode)
    out = tmp_path / "site_out"
    result = CliRunner().invoke(cli, ["build", "--data-dir", str(FIXTURE), "--out-dir", str(out)])
    assert result.exit_code == 1
    detail = str(error) or "out of memory"
    assert result.stderr.splitlines() == [
        f"{FIXTURE}: data: cannot be built ({type(error).__name__}: {detail})",
        "Aborted: 1 data error",
    ]
    assert not out.exists()
