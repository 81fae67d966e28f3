"""Drawing does bounded work for any finite data, and what cannot be drawn is one line."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator import build
from generator.cli import cli
from generator.pages import svg
from generator.pages.axes import month_ticks, value_ticks

FIXTURE = Path(__file__).resolve().parents[1] / "data"


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
    started = time.process_time()  # CPU: a busy machine stretches wall time, not this
    ticks = svg.nice_ticks(lo, hi, 5)
    assert time.process_time() - started < 0.1
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


def test_month_ticks_over_a_century_stay_few() -> None:
    # 1,200 month ends over 720 px: at most 720 / 72 = 10 labels, so every
    # 1200 / 10 = 120th month: indexes 0, 120, ..., 1080
    months = [f"{2000 + i // 12}-{i % 12 + 1:02d}-28" for i in range(1200)]
    ticks = month_ticks(months, 720)
    assert [index for index, _ in ticks] == [float(i) for i in range(0, 1200, 120)]
    assert ticks[1] == (120.0, "2010-01")


def test_resvg_refusal_is_a_render_error() -> None:
    with pytest.raises(svg.RenderError):
        svg.rasterise('<svg xmlns="http://www.w3.org/2000/svg"><text>\x01</text></svg>')


@pytest.mark.parametrize("error", [OverflowError("x"), RecursionError("y"), MemoryError()])
def test_an_undrawable_dataset_is_one_line_not_a_traceback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, error: BaseException
) -> None:
    def explode(*args: object, **kwargs: object) -> None:
        raise error

    monkeypatch.setattr(build, "compute_scores", explode)
    monkeypatch.setattr(build, "reuse_scores", explode)  # the build's score stage
    out = tmp_path / "site_out"
    result = CliRunner().invoke(cli, ["build", "--data-dir", str(FIXTURE), "--out-dir", str(out)])
    assert result.exit_code == 1
    detail = str(error) or "out of memory"
    assert result.stderr.splitlines() == [
        f"{FIXTURE}: data: cannot be built ({type(error).__name__}: {detail})",
        "Aborted: 1 data error",
    ]
    assert not out.exists()
