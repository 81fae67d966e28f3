"""Chart building blocks: plotting frames, axes, ticks, point marks and labels, tables.

Shared by the chart kinds in `plots.py`; everything returns SVG element strings.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass

from generator.encoders import xml_attr
from generator.pages import svg
from generator.pages.svg import GRID, HIGHLIGHT, MUTED, OTHER, Scale

IQ_MIN = 70
IQ_MAX = 160


@dataclass(frozen=True)
class DataTable:
    """The numbers behind a chart, shown as an HTML table next to it."""

    caption: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class Frame:
    """The plotting area inside a chart box, after margins for axes."""

    left: float
    top: float
    right: float
    bottom: float


def y_axis(frame: Frame, scale: Scale, ticks: Sequence[float], title: str) -> list[str]:
    """Grid lines, tick labels and the rotated title: drawn once per distinct axis (model
    pages draw a few thousand charts over a few dozen distinct axes)."""
    return [_y_axis(frame, scale, tuple(ticks), title)]


@functools.lru_cache(maxsize=1024)
def _y_axis(frame: Frame, scale: Scale, ticks: tuple[float, ...], title: str) -> str:
    out = []
    for tick in ticks:
        y = scale(tick)
        out.append(svg.line(frame.left, y, frame.right, y, GRID))
        label = svg.tick_label(tick)
        out.append(svg.text(frame.left - 8, y + 4, label, 12, fill=MUTED, text_anchor="end"))
    mid = (frame.top + frame.bottom) / 2
    out.append(
        svg.text(
            16, mid, title, 13, fill=MUTED, text_anchor="middle", transform=f"rotate(-90 16 {mid})"
        )
    )
    return "".join(out)


def x_axis(frame: Frame, scale: Scale, ticks: Sequence[tuple[float, str]], title: str) -> list[str]:
    """The base line, ticks, their labels and the title, drawn once per distinct axis."""
    return [_x_axis(frame, scale, tuple(ticks), title)]


@functools.lru_cache(maxsize=1024)
def _x_axis(frame: Frame, scale: Scale, ticks: tuple[tuple[float, str], ...], title: str) -> str:
    out = [svg.line(frame.left, frame.bottom, frame.right, frame.bottom, MUTED)]
    for value, label in ticks:
        x = scale(value)
        out.append(svg.line(x, frame.bottom, x, frame.bottom + 5, MUTED))
        out.append(svg.text(x, frame.bottom + 20, label, 12, fill=MUTED, text_anchor="middle"))
    centre = (frame.left + frame.right) / 2
    out.append(svg.text(centre, frame.bottom + 42, title, 13, fill=MUTED, text_anchor="middle"))
    return "".join(out)


def named(mark: str, name: str, plain: bool = False) -> str:
    """A chart mark with its name: shown on hover (SVG `title`), read by screen readers
    (`role=img` with `aria-label`) and a stop of the keyboard's Tab (`tabindex`). `plain`:
    the caller made the name of dates, numbers and its own words (nothing to escape)."""
    said = name if plain else xml_attr(name)  # for an attribute: right for character data too
    return (
        f'<g class="pt" tabindex="0" role="img" aria-label="{said}"><title>{said}</title>{mark}</g>'
    )


def frame(width: float, height: float, left: float = 64, right: float = 24) -> Frame:
    return Frame(left=left, top=16, right=width - right, bottom=height - 56)


@dataclass(frozen=True)
class Point:
    """One model in a scatter or timeline."""

    label: str
    x: float
    y: float
    highlight: bool = False


_HALO: dict[str, str | float] = {"stroke": "#ffffff", "stroke-width": 3, "paint-order": "stroke"}
_LABEL_SPOTS = (
    (7.0, -6.0, "start"),
    (7.0, 15.0, "start"),
    (-7.0, -6.0, "end"),
    (-7.0, 15.0, "end"),
)


def point_labels(
    points: Sequence[Point], xs: Scale, ys: Scale, size: float, frame: Frame
) -> list[str]:
    """Names of the highlighted points, placed greedily where they overlap nothing placed yet.

    A label that fits nowhere is left out: the point stays highlighted and the data
    table next to the chart names every point.
    """
    out: list[str] = []
    placed: list[tuple[float, float, float, float]] = []
    marks = [(xs(p.x), ys(p.y)) for p in points if p.highlight]
    for p in sorted((p for p in points if p.highlight), key=lambda p: (-p.y, p.x)):
        label = svg.clip_label(p.label, size, 200)
        width, x0, y0 = svg.text_width(label, size), xs(p.x), ys(p.y)
        for dx, dy, anchor in _LABEL_SPOTS:
            left = x0 + dx if anchor == "start" else x0 + dx - width
            box = (left, y0 + dy - size, left + width, y0 + dy + 2)
            inside = frame.left <= box[0] and box[2] <= frame.right + 20 and box[1] >= 0
            clear = not any(_overlap(box, other) for other in placed)
            covers = any(_overlap(box, (mx - 4, my - 4, mx + 4, my + 4)) for mx, my in marks)
            if inside and clear and not covers:
                placed.append(box)
                out.append(svg.text(x0 + dx, y0 + dy, label, size, text_anchor=anchor, **_HALO))
                break
    return out


def _overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def point_marks(
    points: Sequence[Point], xs: Scale, ys: Scale, names: Sequence[str] | None = None
) -> list[str]:
    """A dot per point (the highlighted ones larger, drawn last: on top), each `named` by
    `names` (in the points' order) when given."""
    order = [i for i, p in enumerate(points) if not p.highlight]
    order += [i for i, p in enumerate(points) if p.highlight]
    out = []
    for i in order:
        p = points[i]
        if p.highlight:
            mark = svg.circle(xs(p.x), ys(p.y), 5.5, HIGHLIGHT, stroke="#ffffff", stroke_width=1)
        else:
            mark = svg.circle(xs(p.x), ys(p.y), 4, OTHER)
        out.append(mark if names is None else named(mark, names[i]))
    return out


def iq_scale(points: Sequence[Point], frame: Frame) -> tuple[Scale, list[float]]:
    lo = min((p.y for p in points), default=IQ_MIN)
    hi = max((p.y for p in points), default=IQ_MAX)
    ticks = svg.nice_ticks(max(lo - 3, IQ_MIN - 10), hi + 3, 5)
    return Scale(ticks[0], ticks[-1], frame.bottom, frame.top), ticks


def month_ticks(months: Sequence[str], width: float) -> list[tuple[float, str]]:
    """Ticks at month indexes, labelled `YYYY-MM`, every k-th month so that labels sit at
    least 72 px apart over `width` (bounded for any number of months)."""
    step = max(1, math.ceil(len(months) / max(width / 72, 1)))
    return [(float(i), months[i][:7]) for i in range(0, len(months), step)]


def value_ticks(values: Sequence[float]) -> list[float]:
    lo, hi = min(values), max(values)
    if lo >= 0 and lo <= hi * 0.5:
        return svg.nice_ticks(0, hi, 5)
    pad = (hi - lo) * 0.1 or abs(hi) * 0.1 or 1
    return svg.nice_ticks(lo - pad, hi, 5)


def format_value(value: float | None) -> str:
    """A raw score for display: up to four significant digits, no float noise."""
    if value is None:
        return "–"
    if float(value).is_integer():
        return f"{int(value):,}"
    return f"{value:z.4g}" if abs(value) < 1000 else f"{value:z,.1f}"


MARKERS = ("ring", "circle", "square", "triangle", "diamond", "triangle-down")
"""Marker shapes in the order series get them, so lines differ by shape as well as colour."""


def marker(shape: str, x: float, y: float, r: float, colour: str) -> str:
    """A point mark of `shape` centred on (x, y), about `2 r` across, with a white edge."""
    edge: dict[str, str | float] = {"stroke": "#ffffff", "stroke_width": 1}
    if shape == "ring":
        return svg.circle(x, y, r * 0.8, "none", stroke=colour, stroke_width=2.5)
    if shape == "circle":
        return svg.circle(x, y, r, colour, **edge)
    if shape == "square":
        side = r * 1.7
        return svg.rect(x - side / 2, y - side / 2, side, side, colour, **edge)
    if shape == "diamond":
        d = r * 1.3
        return svg.polygon([(x, y - d), (x + d, y), (x, y + d), (x - d, y)], colour, **edge)
    tip = -1 if shape == "triangle" else 1  # "triangle" points up, "triangle-down" down
    h = r * 1.2
    points = [(x, y + tip * h), (x + h, y - tip * h * 0.8), (x - h, y - tip * h * 0.8)]
    return svg.polygon(points, colour, **edge)


def spread_labels(wanted: Sequence[float], gap: float, top: float, bottom: float) -> list[float]:
    """Label baselines as near `wanted` as possible, at least `gap` apart, within [top, bottom].

    Keeps the input order's positions: returns one y per wanted y, in the same order.
    """
    order = sorted(range(len(wanted)), key=lambda i: (wanted[i], i))
    placed: list[float] = []
    for i in order:
        y = max(wanted[i], top)
        if placed:
            y = max(y, placed[-1] + gap)
        placed.append(y)
    overflow = placed[-1] - bottom if placed else 0.0
    if overflow > 0:  # push the stack up, never above `top`
        placed = [max(y - overflow, top + k * gap) for k, y in enumerate(placed)]
    out = [0.0] * len(wanted)
    for i, y in zip(order, placed, strict=True):
        out[i] = y
    return out
