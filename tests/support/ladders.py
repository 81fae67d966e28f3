"""A data folder whose new benchmark's results follow a known logistic of known IQs.

`ladder_data(folder)` copies the fixture data and adds: a second hand-set mathematics
benchmark (`math-two`), an unscored one (`new-bench`: no ladder) and 16 models at the known
IQs `TRUE_IQS`. Each model's two hand-set results project to its IQ plus and minus `SPREAD[i]`
(the ladders are read backwards), so its offset-corrected direct estimate of mathematical
reasoning is exactly its IQ (the +/- pairs cancel in the offsets too); its `new-bench` result
is `TRUE_CURVE` at that IQ plus `NOISE[i]`.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
from scipy.special import expit

from support.paths import FIXTURE_DATA

OTIS = (0.1, 0.2, 0.4, 0.6, 0.8, 0.9, 0.95)  # tests/data/benchmarks/otis-mock-aime.toml
MATH_TWO = (0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 0.9)
LADDER_IQS = (70, 85, 100, 115, 130, 145, 160)
TRUE_IQS = tuple(76.0 + 4.0 * i for i in range(16))  # 76 .. 136
SPREAD = tuple(2.0 if i % 2 == 0 else -2.0 for i in range(16))  # sums to 0
TRUE_CURVE = (0.05, 0.95, 105.0, 12.0)  # floor, ceiling, midpoint, scale
NOISE = tuple(0.01 * s for s in (1, -1, -1, 1) * 4)  # uncorrelated with the IQs
AS_OF = "2026-01-15"


def true_raw(iq: float) -> float:
    floor, ceiling, mid, scale = TRUE_CURVE
    return float(floor + (ceiling - floor) * expit((iq - mid) / scale))


def inverse(ladder: tuple[float, ...], iq: float) -> float:
    """The raw value a ladder projects to `iq` (piecewise linear, read backwards)."""
    return float(np.interp(iq, LADDER_IQS, ladder))


def _benchmark(bench_id: str, field: str, ladder: tuple[float, ...] | None) -> str:
    line = "" if ladder is None else f"ladder = [{', '.join(repr(p) for p in ladder)}]\n"
    return (
        f'id = "{bench_id}"\nfield = "{field}"\nname = "{bench_id}"\ncategory = "iq"\n'
        'dimension = "mathematical-reasoning"\ndirection = "higher_is_better"\n'
        f'unit = "fraction 0-1"\nmin_value = 0.0\nmax_value = 1.0\n{line}'
        f'source_name = "Test source"\nsource_url = "https://example.org/{bench_id}"\n'
        "updated = 2026-01-20T00:00:00Z\n"
    )


def _result(bench_id: str, value: float) -> str:
    return (
        f'\n[[results]]\nbenchmark = "{bench_id}"\nvalue = {value!r}\n'
        f'source_name = "Test source"\nsource_url = "https://example.org/{bench_id}"\n'
        f"as_of = {AS_OF}\n"
    )


def _model(index: int) -> str:
    iq, spread = TRUE_IQS[index], SPREAD[index]
    head = (
        f'id = "ladder-m{index:02d}"\nname = "Ladder M{index:02d}"\nprovider = "Test Labs"\n'
        'country = "France"\nrelease_date = 2025-12-01\nopen_weights = true\n'
        f"updated = {AS_OF}T00:00:00Z\n"
    )
    return (
        head
        + _result("otis-mock-aime", round(inverse(OTIS, iq + spread), 12))
        + _result("math-two", round(inverse(MATH_TWO, iq - spread), 12))
        + _result("new-bench", round(true_raw(iq) + NOISE[index], 12))
    )


def ladder_data(folder: Path) -> Path:
    """`folder` filled as the module says; returns it."""
    shutil.copytree(FIXTURE_DATA, folder)
    benchmarks = folder / "benchmarks"
    (benchmarks / "math-two.toml").write_text(_benchmark("math-two", "mathTwo", MATH_TWO))
    (benchmarks / "new-bench.toml").write_text(_benchmark("new-bench", "newBench", None))
    for index in range(len(TRUE_IQS)):
        (folder / "models" / f"ladder-m{index:02d}.toml").write_text(_model(index))
    return folder
