"""The chart kinds as plain data plus a `draw(width, height)` that returns SVG.

A plot knows nothing about documents or pages: `charts.py` builds plots from the
computed documents, and `svg.py` wraps what a plot draws into a page or a preview.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Protocol

from generator.pages import axes, svg
from generator.pages.axes import IQ_MAX, IQ_MIN, DataTable, Point, format_value
from generator.pages.svg import ACCENT, ACCENT_LIGHT, GRID, HIGHLIGHT, MUTED, Scale
from generator.vocabulary import spelled


class Plot(Protocol):
    """A chart that can draw itself at any size."""

    @property
    def summary(self) -> str:
        """One or two sentences saying what the chart shows (the SVG `desc`)."""
        ...

    @property
    def table(self) -> DataTable:
        """The plotted numbers."""
        ...

    def height_for(self, width: float) -> float:
        """The natural height of the chart drawn `width` wide."""
        ...

    def draw(self, width: float, height: float) -> str:
        """SVG elements filling a `width` x `height` box at the origin."""
        ...


@dataclass(frozen=True)
class Histogram:
    """Distribution of composite IQ in bins of `bin_width` points."""

    values: tuple[int, ...]
    bin_width: int = 5

    def _bins(self) -> list[tuple[int, int]]:
        if not self.values:
            return []
        lo = min(self.values) // self.bin_width * self.bin_width
        hi = max(self.values) // self.bin_width * self.bin_width
        return [
            (start, sum(start <= v < start + self.bin_width for v in self.values))
            for start in range(lo, hi + 1, self.bin_width)
        ]

    @property
    def summary(self) -> str:
        bins = self._bins()
        if not bins:
            return "No model has a composite IQ yet."
        start, count = max(bins, key=lambda b: (b[1], -b[0]))
        return (
            f"Histogram of the composite IQ of {len(self.values)} ranked models in bins of "
            f"{self.bin_width} points; the most common range is {start}–"
            f"{start + self.bin_width - 1} with {count} model{'s' if count != 1 else ''}."
        )

    @property
    def table(self) -> DataTable:
        rows = tuple(
            (f"{start}–{start + self.bin_width - 1}", str(count)) for start, count in self._bins()
        )
        return DataTable("Models per composite IQ range", ("Composite IQ", "Models"), rows)

    def height_for(self, width: float) -> float:
        return max(width * 0.5, 320)

    def draw(self, width: float, height: float) -> str:
        bins = self._bins()
        frame = axes.frame(width, height)
        if not bins:
            return svg.text(width / 2, height / 2, "No data", 16, text_anchor="middle")
        x = Scale(bins[0][0], bins[-1][0] + self.bin_width, frame.left, frame.right)
        top = max(count for _, count in bins)
        ticks = svg.nice_ticks(0, top, 5)
        y = Scale(0, ticks[-1], frame.bottom, frame.top)
        out = axes.y_axis(frame, y, ticks, "Models")
        for start, count in bins:
            x0, x1 = x(start) + 1, x(start + self.bin_width) - 1
            bar = svg.rect(x0, y(count), x1 - x0, y(0) - y(count), ACCENT)
            name = f"Composite IQ {start}–{start + self.bin_width - 1}: {_models(count)}"
            out.append(axes.named(bar, name))
            if count:
                label_y = y(count) - 5
                out.append(svg.text((x0 + x1) / 2, label_y, str(count), 11, text_anchor="middle"))
        edges = [(float(s), str(s)) for s, _ in bins] + [(float(bins[-1][0] + self.bin_width), "")]
        step = max(1, math.ceil(len(edges) / max((frame.right - frame.left) / 40, 1)))
        out += axes.x_axis(frame, x, edges[::step], "Composite IQ")
        return "".join(out)


@dataclass(frozen=True)
class CostScatter:
    """Composite IQ against effective cost on a log axis; the cost frontier highlighted."""

    points: tuple[Point, ...]
    unit: str
    tick_prefix = "$"

    @property
    def summary(self) -> str:
        best = [p.label for p in self.points if p.highlight]
        return (
            f"Scatter plot of composite IQ against effective cost ({self.unit}, log scale) for "
            f"{len(self.points)} models. Highlighted, the models no cheaper model beats: "
            f"{', '.join(best) or 'none'}."
        )

    def _name(self, p: Point) -> str:
        frontier = ", on the cost frontier" if p.highlight else ""
        return f"{p.label}: composite IQ {int(p.y)}, ${_cost(p.x)} ({self.unit}){frontier}"

    @property
    def table(self) -> DataTable:
        rows = tuple(
            (
                p.label,
                _cost(p.x),
                str(int(p.y)),
                "yes" if p.highlight else "",
            )
            for p in sorted(self.points, key=lambda p: (p.x, -p.y, p.label))
        )
        return DataTable(
            "Composite IQ and effective cost",
            ("Model", f"Effective cost ({self.unit})", "Composite IQ", "On the frontier"),
            rows,
        )

    def height_for(self, width: float) -> float:
        return max(width * 0.56, 360)

    def draw(self, width: float, height: float) -> str:
        frame = axes.frame(width, height)
        if not self.points:
            return svg.text(width / 2, height / 2, "No data", 16, text_anchor="middle")
        decades = svg.log_ticks(min(p.x for p in self.points), max(p.x for p in self.points))
        if len(decades) < 2:
            decades = [decades[0], decades[0] * 10]
        xs = Scale(decades[0], decades[-1], frame.left, frame.right, log=True)
        ys, yticks = axes.iq_scale(self.points, frame)
        out = axes.y_axis(frame, ys, yticks, "Composite IQ")
        ticks = [(d, f"{self.tick_prefix}{svg.tick_label(d)}") for d in decades]
        out += axes.x_axis(frame, xs, ticks, self.unit)
        out += axes.point_marks(self.points, xs, ys, [self._name(p) for p in self.points])
        out += axes.point_labels(self.points, xs, ys, 12, frame)
        return "".join(out)


@dataclass(frozen=True)
class SpeedScatter(CostScatter):
    """Composite IQ against response time per task on a log axis; the models no faster model
    beats highlighted (methodology 6.1: a whole multi-step task's seconds)."""

    tick_prefix = ""

    @property
    def summary(self) -> str:
        best = [p.label for p in self.points if p.highlight]
        return (
            f"Scatter plot of composite IQ against response time ({self.unit}, log scale) for "
            f"{len(self.points)} models. Highlighted, the models no faster model beats: "
            f"{', '.join(best) or 'none'}."
        )

    def _name(self, p: Point) -> str:
        frontier = ", on the speed frontier" if p.highlight else ""
        return f"{p.label}: composite IQ {int(p.y)}, {format_value(p.x)} {self.unit}{frontier}"

    @property
    def table(self) -> DataTable:
        rows = tuple(
            (p.label, format_value(p.x), str(int(p.y)), "yes" if p.highlight else "")
            for p in sorted(self.points, key=lambda p: (p.x, -p.y, p.label))
        )
        return DataTable(
            "Composite IQ and response time",
            ("Model", f"Response time ({self.unit})", "Composite IQ", "On the frontier"),
            rows,
        )


@dataclass(frozen=True)
class Holder:
    """The model holding a line's value at one month end, and its composite IQ."""

    model: str
    iq: int


@dataclass(frozen=True)
class Line:
    """One series of a line chart: a value per month end, None where nothing is ranked."""

    label: str
    values: tuple[Holder | None, ...]


# Series colours: each at least 3:1 against white (WCAG non-text contrast); the best
# line is the site's highlight colour, the providers' lines cycle through the rest.
LINE_COLOURS = ("#2b6cb0", "#2f855a", "#6b46c1", "#2c7a7b", "#b83280")


@dataclass(frozen=True)
class FrontierLines:
    """The replayed history: the best composite IQ at each month end (one thick line) and
    the best of each of a few providers (one line each), every line with its own marker
    shape and a direct label, so no line is told apart by colour alone."""

    months: tuple[str, ...]  # month-end dates (ISO), oldest first, from the first ranked one
    best: Line
    providers: tuple[Line, ...]
    skipped: int = 0  # earlier month ends that rank no model (not drawn)

    def _styles(self) -> list[tuple[Line, str, str, float]]:
        """(line, colour, marker shape, stroke width), the best line first."""
        styles = [(self.best, HIGHLIGHT, axes.MARKERS[0], 5.0)]
        for i, line in enumerate(self.providers):
            shape = axes.MARKERS[1 + i % (len(axes.MARKERS) - 1)]
            styles.append((line, LINE_COLOURS[i % len(LINE_COLOURS)], shape, 2.0))
        return styles

    @property
    def summary(self) -> str:
        if not self.months:
            return "No snapshot of the replayed history ranks a model yet."
        latest = next((v for v in reversed(self.best.values) if v is not None), None)
        top = f"; at the latest, {latest.model} at IQ {latest.iq}" if latest else ""
        names = ", ".join(line.label for line in self.providers) or "none"
        skipped = (
            f" The {self.skipped} earlier month ends rank no model and are not drawn."
            if self.skipped
            else ""
        )
        return (
            f"Line chart of the replayed score history at {len(self.months)} month ends from "
            f"{self.months[0]} to {self.months[-1]}. A thick line with rings follows the best "
            f"composite IQ of all models{top}. One thin line per provider, each with its own "
            f"marker shape and labelled at its end, follows the best model of the "
            f"{len(self.providers)} providers whose best model ranks highest in the latest "
            f"snapshot: {names}.{skipped}"
        )

    @property
    def table(self) -> DataTable:
        rows = []
        for i, month in enumerate(self.months):
            best = self.best.values[i]
            cells = [_holder_cell(line.values[i]) for line in self.providers]
            rows.append((month, best.model if best else "–", str(best.iq) if best else "–", *cells))
        return DataTable(
            "Best composite IQ at each month end, of all models and per provider",
            ("Month end", "Best model", "Best IQ", *(line.label for line in self.providers)),
            tuple(rows),
        )

    def height_for(self, width: float) -> float:
        return max(width * 0.56, 360)

    def draw(self, width: float, height: float) -> str:
        if not self.months:
            return svg.text(width / 2, height / 2, "No data", 16, text_anchor="middle")
        label_room = min(180.0, width * 0.25)
        frame = axes.frame(width, height, right=label_room)
        count = len(self.months)
        xs = Scale(-0.5, count - 0.5, frame.left, frame.right)
        iqs = [v.iq for line, *_ in self._styles() for v in line.values if v is not None]
        yticks = svg.nice_ticks(max(min(iqs) - 3, IQ_MIN - 10), max(iqs) + 3, 5)
        ys = Scale(yticks[0], yticks[-1], frame.bottom, frame.top)
        out = axes.y_axis(frame, ys, yticks, "Composite IQ")
        ticks = axes.month_ticks(self.months, frame.right - frame.left)
        out += axes.x_axis(frame, xs, ticks, "Month end (replayed history)")
        styles = self._styles()
        for line, colour, _, stroke in styles:
            for segment in _segments(line.values, xs, ys):
                if len(segment) > 1:
                    out.append(svg.polyline(segment, colour, stroke_width=stroke))
        # the providers' markers, then the best line's rings around them (a ring is hollow,
        # so the provider holding the best value stays visible inside it)
        for line, colour, shape, _ in [*styles[1:], styles[0]]:
            size = 7.0 if line is self.best else 4.5
            for i, v in enumerate(line.values):
                if v is not None:
                    mark = axes.marker(shape, xs(i), ys(v.iq), size, colour)
                    name = f"{self.months[i]}, {line.label}: {v.model}, composite IQ {v.iq}"
                    out.append(axes.named(mark, name))
        out += self._labels(xs, ys, frame, label_room)
        return "".join(out)

    def _labels(self, xs: Scale, ys: Scale, frame: axes.Frame, room: float) -> list[str]:
        """Each line's name right of the plot, level with its last value where room allows,
        after a copy of its marker."""
        ends = []
        for line, colour, shape, _ in self._styles():
            last = max((i for i, v in enumerate(line.values) if v is not None), default=None)
            if last is not None:
                value = line.values[last]
                assert value is not None
                ends.append((line.label, colour, shape, ys(value.iq)))
        spots = axes.spread_labels([y for *_, y in ends], 16, frame.top + 6, frame.bottom)
        x = frame.right + 14
        out = []
        for (label, colour, shape, _), y in zip(ends, spots, strict=True):
            out.append(axes.marker(shape, x, y, 4.5, colour))
            text = svg.clip_label(label, 12, room - 30)
            out.append(svg.text(x + 10, y + 4, text, 12))
        return out


def _models(count: int) -> str:
    return f"{count} model{'s' if count != 1 else ''}"


def _cost(value: float) -> str:
    """An effective cost as the scatter's table prints it (up to four decimals)."""
    return f"{value:.4f}".rstrip("0").rstrip(".")


def _holder_cell(value: Holder | None) -> str:
    return "–" if value is None else f"{value.iq} ({value.model})"


def _segments(
    values: tuple[Holder | None, ...], xs: Scale, ys: Scale
) -> list[list[tuple[float, float]]]:
    """The runs of consecutive months that have a value, as pixel points."""
    segments: list[list[tuple[float, float]]] = [[]]
    for i, v in enumerate(values):
        if v is None:
            if segments[-1]:
                segments.append([])
            continue
        segments[-1].append((xs(i), ys(v.iq)))
    return [s for s in segments if s]


@dataclass(frozen=True)
class Profile:
    """One model's dimension scores: (short dimension name, iq or None, imputed)."""

    label: str
    composite: int | None
    dimensions: tuple[tuple[str, int | None, bool], ...]


@dataclass(frozen=True)
class Profiles:
    """Small multiples: one panel of dimension bars per model; `names` are the dimensions'
    labels, in the panels' order (the data table's columns)."""

    profiles: tuple[Profile, ...]
    names: tuple[str, ...]

    @property
    def summary(self) -> str:
        names = ", ".join(p.label for p in self.profiles)
        return (
            f"{spelled(len(self.names)).capitalize()} dimension scores (IQ 70 to 160) of the top "
            f"{len(self.profiles)} models by "
            f"composite IQ: {names}. Striped, lighter bars are imputed estimates."
        )

    @property
    def table(self) -> DataTable:
        rows = tuple(
            (p.label, *(_dimension_cell(iq, imputed) for _, iq, imputed in p.dimensions))
            for p in self.profiles
        )
        return DataTable("Dimension scores of the top models", ("Model", *self.names), rows)

    def _columns(self, width: float) -> int:
        return 3 if width >= 900 else 2

    def height_for(self, width: float) -> float:
        rows = math.ceil(len(self.profiles) / self._columns(width)) or 1
        return rows * 200 + 40

    def draw(self, width: float, height: float) -> str:
        cols = self._columns(width)
        rows = math.ceil(len(self.profiles) / cols) or 1
        panel_w, panel_h = width / cols, (height - 40) / rows
        out = [_HATCH_DEFS]
        for index, profile in enumerate(self.profiles):
            x0, y0 = (index % cols) * panel_w, (index // cols) * panel_h
            out.append(f'<g transform="translate({svg.num(x0)} {svg.num(y0)})">')
            out += _panel(profile, self.names, panel_w, panel_h)
            out.append("</g>")
        legend_y = height - 14
        out.append(svg.rect(16, legend_y - 11, 14, 12, ACCENT))
        out.append(svg.text(36, legend_y, "direct evidence", 12, fill=MUTED))
        out.append(svg.rect(170, legend_y - 11, 14, 12, _HATCH, stroke=ACCENT))
        out.append(svg.text(190, legend_y, "imputed", 12, fill=MUTED))
        return "".join(out)


# Imputed bars: a light fill with diagonal stripes and an outline, so they differ from
# direct bars by pattern as well as by colour (and keep 3:1 contrast with the page).
_HATCH = "url(#imputed-hatch)"
_HATCH_DEFS = (
    '<defs><pattern id="imputed-hatch" patternUnits="userSpaceOnUse" width="6" height="6" '
    'patternTransform="rotate(45)">'
    f"{svg.rect(0, 0, 6, 6, ACCENT_LIGHT)}{svg.line(0, 0, 0, 6, ACCENT, stroke_width=2)}"
    "</pattern></defs>"
)


def _dimension_cell(iq: int | None, imputed: bool) -> str:
    if iq is None:
        return "–"
    return f"{iq} (imputed)" if imputed else str(iq)


def _panel(profile: Profile, names: tuple[str, ...], width: float, height: float) -> list[str]:
    """One model's bars; `names`: the dimensions' full names (each bar's name says it)."""
    heading = (
        profile.label if profile.composite is None else f"{profile.label} · IQ {profile.composite}"
    )
    out = [svg.text(16, 22, svg.clip_label(heading, 14, width - 24), 14, font_weight="bold")]
    label_w = 104
    bar_left, bar_right = 16 + label_w, width - 40
    scale = Scale(IQ_MIN, IQ_MAX, bar_left, bar_right)
    row_h = (height - 44) / max(len(profile.dimensions), 1)
    for i, (name, iq, imputed) in enumerate(profile.dimensions):
        y = 36 + i * row_h
        out.append(svg.text(16, y + row_h * 0.7, svg.clip_label(name, 11, label_w - 6), 11))
        out.append(svg.rect(bar_left, y + 2, bar_right - bar_left, row_h - 4, "#f1f5f9"))
        if iq is None:
            out.append(svg.text(bar_left + 4, y + row_h * 0.7, "no estimate", 10, fill=MUTED))
            continue
        bar = (bar_left, y + 2, scale(iq) - bar_left, row_h - 4)
        mark = svg.rect(*bar, _HATCH, stroke=ACCENT) if imputed else svg.rect(*bar, ACCENT)
        full = names[i] if i < len(names) else name
        said = f"{profile.label}, {full}: IQ {_dimension_cell(iq, imputed)}"
        out.append(axes.named(mark, said))
        out.append(svg.text(scale(iq) + 4, y + row_h * 0.7, str(iq), 10))
    return out


@dataclass(frozen=True)
class Bar:
    """One row of a bar chart."""

    label: str
    value: float


@dataclass(frozen=True)
class Bars:
    """Horizontal bars in ranking order (best first), e.g. one benchmark's scores."""

    bars: tuple[Bar, ...]
    value_label: str
    lower_is_better: bool = False
    max_rows: int | None = None

    def limited(self, rows: int) -> Bars:
        """The same chart showing only the first `rows` bars."""
        return Bars(self.bars, self.value_label, self.lower_is_better, rows)

    @property
    def shown(self) -> tuple[Bar, ...]:
        return self.bars if self.max_rows is None else self.bars[: self.max_rows]

    @property
    def summary(self) -> str:
        if not self.bars:
            return "No model has a result yet."
        best = self.bars[0]
        order = "lower is better" if self.lower_is_better else "higher is better"
        more = f", the first {len(self.shown)} shown" if len(self.shown) < len(self.bars) else ""
        return (
            f"Bar chart of {len(self.bars)} models in ranking order ({order}){more}; best: "
            f"{best.label} with {format_value(best.value)}."
        )

    @property
    def table(self) -> DataTable:
        rows = tuple((str(i), b.label, format_value(b.value)) for i, b in enumerate(self.bars, 1))
        return DataTable("Scores in ranking order", ("Rank", "Model", self.value_label), rows)

    def height_for(self, width: float) -> float:
        return 24 * max(len(self.shown), 1) + 64

    def draw(self, width: float, height: float) -> str:
        shown = self.shown
        if not shown:
            return svg.text(width / 2, height / 2, "No data", 16, text_anchor="middle")
        label_w = min(240.0, width * 0.32)
        frame = axes.Frame(left=label_w + 16, top=8, right=width - 64, bottom=height - 48)
        ticks = axes.value_ticks([b.value for b in shown])
        xs = Scale(ticks[0], ticks[-1], frame.left, frame.right)
        row_h = (frame.bottom - frame.top) / len(shown)
        out = []
        for tick in ticks:
            out.append(svg.line(xs(tick), frame.top, xs(tick), frame.bottom, GRID))
        for i, bar in enumerate(shown):
            y = frame.top + i * row_h
            label = svg.clip_label(bar.label, 12, label_w)
            out.append(svg.text(frame.left - 8, y + row_h * 0.68, label, 12, text_anchor="end"))
            x_end = xs(bar.value)
            mark = svg.rect(frame.left, y + 3, x_end - frame.left, row_h - 6, ACCENT)
            said = f"{i + 1}. {bar.label}: {format_value(bar.value)} ({self.value_label})"
            out.append(axes.named(mark, said))
            out.append(svg.text(x_end + 4, y + row_h * 0.68, format_value(bar.value), 11))
        out += axes.x_axis(frame, xs, [(t, svg.tick_label(t)) for t in ticks], self.value_label)
        return "".join(out)


@dataclass(frozen=True)
class Interval:
    """One row of a dot-and-whisker chart: a score and its stated 95% range."""

    label: str
    value: float
    low: float
    high: float
    rank: int
    rank_low: int
    rank_high: int


@dataclass(frozen=True)
class Intervals:
    """Every ranked model's composite IQ (dot) with its 95% range (whisker), best first."""

    rows: tuple[Interval, ...]
    max_rows: int | None = None
    row_height: float = 16

    def limited(self, rows: int) -> Intervals:
        """The same chart showing only the first `rows` models."""
        return Intervals(self.rows, rows, 30)

    @property
    def shown(self) -> tuple[Interval, ...]:
        return self.rows if self.max_rows is None else self.rows[: self.max_rows]

    @property
    def summary(self) -> str:
        if not self.rows:
            return "No model has a composite IQ yet."
        top = self.rows[0]
        more = f", the first {len(self.shown)} shown" if len(self.shown) < len(self.rows) else ""
        return (
            f"Composite IQ of {len(self.rows)} ranked models, each a dot with a line across its "
            f"95% range{more}. Where two lines overlap a lot, the data cannot tell the models "
            f"apart. Top: {top.label}, IQ {format_value(top.value)} "
            f"({format_value(top.low)} to {format_value(top.high)})."
        )

    @property
    def table(self) -> DataTable:
        rows = tuple(
            (
                str(r.rank),
                r.label,
                format_value(r.value),
                f"{format_value(r.low)} to {format_value(r.high)}",
                f"{r.rank_low}–{r.rank_high}",
            )
            for r in self.rows
        )
        return DataTable(
            "Composite IQ with its 95% range and rank band",
            ("Rank", "Model", "Composite IQ", "95% range", "Rank band"),
            rows,
        )

    def height_for(self, width: float) -> float:
        return self.row_height * max(len(self.shown), 1) + 64

    def draw(self, width: float, height: float) -> str:
        shown = self.shown
        if not shown:
            return svg.text(width / 2, height / 2, "No data", 16, text_anchor="middle")
        label_w = min(220.0, width * 0.3)
        frame = axes.Frame(left=label_w + 16, top=8, right=width - 24, bottom=height - 48)
        ticks = svg.nice_ticks(min(r.low for r in shown), max(r.high for r in shown), 6)
        xs = Scale(ticks[0], ticks[-1], frame.left, frame.right)
        row_h = (frame.bottom - frame.top) / len(shown)
        size = min(12.0, row_h * 0.75)
        out = [svg.line(xs(t), frame.top, xs(t), frame.bottom, GRID) for t in ticks]
        for i, row in enumerate(shown):
            mid = frame.top + (i + 0.5) * row_h
            label = svg.clip_label(f"{row.rank}. {row.label}", size, label_w)
            out.append(svg.text(frame.left - 8, mid + size * 0.35, label, size, text_anchor="end"))
            mark = svg.line(xs(row.low), mid, xs(row.high), mid, ACCENT, stroke_width=2)
            mark += svg.circle(xs(row.value), mid, min(4.0, row_h * 0.3), HIGHLIGHT)
            said = (
                f"{row.rank}. {row.label}: composite IQ {format_value(row.value)}, 95% range "
                f"{format_value(row.low)} to {format_value(row.high)}, rank band "
                f"{row.rank_low}–{row.rank_high}"
            )
            out.append(axes.named(mark, said))
        title = "Composite IQ (dot) and 95% range (line)"
        out += axes.x_axis(frame, xs, [(t, svg.tick_label(t)) for t in ticks], title)
        return "".join(out)


@dataclass(frozen=True)
class Estimate:
    """One dimension of a model: its estimate and 95% range, measured or imputed."""

    label: str
    iq: int | None
    low: float | None
    high: float | None
    imputed: bool

    @property
    def said(self) -> str:
        """The estimate in words (its mark's name and its table row)."""
        if self.iq is None:
            return f"{self.label}: no estimate"
        evidence = "imputed" if self.imputed else "measured"
        return f"{self.label}: IQ {self.iq}{_range_words(self.low, self.high)}, {evidence}"


def _range_words(low: float | None, high: float | None) -> str:
    if low is None or high is None:
        return ""
    return f", 95% range {format_value(round(low))} to {format_value(round(high))}"


@dataclass(frozen=True)
class DimensionRanges:
    """One model's dimensions, each a dot with a line across its 95% range: a measured one a
    filled dot on a solid line, an imputed one a hollow dot on a dashed line (told apart by
    shape, not by colour alone). `provisional`: what a provisional composite rests on."""

    model: str
    rows: tuple[Estimate, ...]
    provisional: str | None = None

    @property
    def summary(self) -> str:
        measured = sum(1 for r in self.rows if r.iq is not None and not r.imputed)
        imputed = sum(1 for r in self.rows if r.iq is not None and r.imputed)
        missing = len(self.rows) - measured - imputed
        none = f", {missing} without an estimate" if missing else ""
        text = (
            f"The {spelled(len(self.rows))} dimensions of {self.model} on the IQ scale, each a "
            f"dot with a line across its 95% range: {measured} measured (filled dot, solid "
            f"line), {imputed} imputed (hollow dot, dashed line){none}."
        )
        if self.provisional:
            text += f" Its composite is provisional: it rests on {self.provisional}."
        return text

    @property
    def table(self) -> DataTable:
        rows = tuple(
            (
                r.label,
                "–" if r.iq is None else str(r.iq),
                _range_words(r.low, r.high).removeprefix(", 95% range ") or "–",
                "–" if r.iq is None else ("imputed" if r.imputed else "measured"),
            )
            for r in self.rows
        )
        return DataTable(
            "Dimension estimates with their 95% ranges",
            ("Dimension", "IQ", "95% range", "Evidence"),
            rows,
        )

    def height_for(self, width: float) -> float:
        return 30 * max(len(self.rows), 1) + 96

    def draw(self, width: float, height: float) -> str:
        known = [r for r in self.rows if r.iq is not None]
        if not known:
            return svg.text(width / 2, height / 2, "No estimate", 16, text_anchor="middle")
        label_w = min(190.0, width * 0.3)
        frame = axes.Frame(left=label_w + 16, top=8, right=width - 40, bottom=height - 80)
        ends = [v for r in known for v in (r.low, r.high, float(r.iq or 0)) if v is not None]
        ticks = svg.nice_ticks(max(min(ends), IQ_MIN - 20), min(max(ends), IQ_MAX + 20), 6)
        xs = Scale(ticks[0], ticks[-1], frame.left, frame.right)
        row_h = (frame.bottom - frame.top) / len(self.rows)
        labels = tuple((r.label, r.iq is None) for r in self.rows)
        out = [_ranges_frame(frame, xs, tuple(ticks), labels, height, self.provisional)]
        for i, row in enumerate(self.rows):
            if row.iq is not None:
                mid = frame.top + (i + 0.5) * row_h
                out.append(axes.named(_estimate_mark(row, xs, mid), row.said))
        return "".join(out)


@functools.lru_cache(maxsize=256)
def _ranges_frame(
    frame: axes.Frame,
    xs: Scale,
    ticks: tuple[float, ...],
    labels: tuple[tuple[str, bool], ...],
    height: float,
    provisional: str | None,
) -> str:
    """A dimension chart without its marks: grid, row labels ("no estimate" where there is
    none), axis and legend. The same for most models: drawn once for them all."""
    row_h = (frame.bottom - frame.top) / len(labels)
    out = [svg.line(xs(t), frame.top, xs(t), frame.bottom, GRID) for t in ticks]
    for i, (label, missing) in enumerate(labels):
        mid = frame.top + (i + 0.5) * row_h
        out.append(svg.text(frame.left - 8, mid + 4, label, 12, text_anchor="end"))
        if missing:
            out.append(svg.text(frame.left + 4, mid + 4, "no estimate", 11, fill=MUTED))
    out += axes.x_axis(frame, xs, [(t, svg.tick_label(t)) for t in ticks], "IQ (95% range)")
    out += _evidence_legend(frame.left, height - 12, provisional)
    return "".join(out)


def _estimate_mark(row: Estimate, xs: Scale, mid: float) -> str:
    x = xs(float(row.iq or 0))
    mark = ""
    if row.low is not None and row.high is not None:
        dash: dict[str, str | float] = {"stroke_dasharray": "5 3"} if row.imputed else {}
        mark += svg.line(xs(row.low), mid, xs(row.high), mid, ACCENT, stroke_width=2, **dash)
    if row.imputed:
        mark += svg.circle(x, mid, 5, "#ffffff", stroke=HIGHLIGHT, stroke_width=2)
    else:
        mark += svg.circle(x, mid, 5, HIGHLIGHT, stroke="#ffffff", stroke_width=1)
    return mark + svg.text(x, mid - 8, str(row.iq), 11, text_anchor="middle")


def _evidence_legend(x: float, y: float, provisional: str | None) -> list[str]:
    out = [
        svg.circle(x + 5, y - 4, 5, HIGHLIGHT),
        svg.text(x + 16, y, "measured", 12, fill=MUTED),
        svg.line(x + 90, y - 4, x + 120, y - 4, ACCENT, stroke_width=2, stroke_dasharray="5 3"),
        svg.circle(x + 105, y - 4, 5, "#ffffff", stroke=HIGHLIGHT, stroke_width=2),
        svg.text(x + 126, y, "imputed", 12, fill=MUTED),
    ]
    if provisional:
        out.append(svg.text(x + 200, y, f"Provisional: rests on {provisional}", 12, fill=MUTED))
    return out


@dataclass(frozen=True)
class Month:
    """A model at one month end of the replayed history."""

    date: str  # ISO (YYYY-MM-DD): the marks' names, of dates and numbers, are not escaped
    iq: int
    low: float | None
    high: float | None
    rank: int
    rank_low: int | None
    rank_high: int | None
    provisional: bool

    @property
    def iq_said(self) -> str:
        prov = " (provisional)" if self.provisional else ""
        return f"{self.date}: composite IQ {self.iq}{_range_words(self.low, self.high)}{prov}"

    @property
    def rank_said(self) -> str:
        return f"{self.date}: rank {self.rank}{_band(self.rank_low, self.rank_high)}"


def _band(low: int | None, high: int | None) -> str:
    return "" if low is None or high is None else f", rank band {low}–{high}"


@dataclass(frozen=True)
class RankHistory:
    """A model's composite IQ with its 95% range (above: a line in a shaded band) and its
    rank with its rank band (below: rank 1 on top, a line across each band) at each month
    end of the replayed history where it was ranked. A provisional month's dots are hollow."""

    model: str
    months: tuple[Month, ...]

    @property
    def summary(self) -> str:
        if not self.months:
            return f"{self.model} is ranked at no month end of the replayed history."
        last = self.months[-1]
        provisional = sum(m.provisional for m in self.months)
        prov = (
            f" Hollow dots: the {_months(provisional)} whose composite was provisional."
            if provisional
            else ""
        )
        return (
            f"Composite IQ (above, with its 95% range shaded) and rank (below, with its rank "
            f"band) of {self.model} at {_months(len(self.months))} of the replayed history, "
            f"{self.months[0].date} to {last.date}. Latest: IQ {last.iq}"
            f"{_range_words(last.low, last.high)}; rank {last.rank}"
            f"{_band(last.rank_low, last.rank_high)}.{prov}"
        )

    @property
    def table(self) -> DataTable:
        rows = tuple(
            (
                m.date,
                f"{m.iq} (provisional)" if m.provisional else str(m.iq),
                _range_words(m.low, m.high).removeprefix(", 95% range ") or "–",
                str(m.rank),
                _band(m.rank_low, m.rank_high).removeprefix(", rank band ") or "–",
            )
            for m in self.months
        )
        return DataTable(
            "Composite IQ and rank at each month end",
            ("Month end", "Composite IQ", "95% range", "Rank", "Rank band"),
            rows,
        )

    def height_for(self, width: float) -> float:
        return max(width * 0.6, 420)

    def draw(self, width: float, height: float) -> str:
        if not self.months:
            return svg.text(width / 2, height / 2, "No data", 16, text_anchor="middle")
        split = (height - 56) * 0.55
        top = axes.Frame(left=64, top=16, right=width - 24, bottom=split - 24)
        bottom = axes.Frame(left=64, top=split + 40, right=width - 24, bottom=height - 56)
        out = [svg.line(top.left, split + 8, top.right, split + 8, MUTED)]  # the panels apart
        xs = Scale(-0.5, len(self.months) - 0.5, top.left, top.right)
        at = [svg.num(xs(i)) for i in range(len(self.months))]  # each month's x, formatted once
        out += self._iq_panel(top, at) + self._rank_panel(bottom, at)
        ticks = axes.month_ticks([m.date for m in self.months], bottom.right - bottom.left)
        out += axes.x_axis(bottom, xs, ticks, "Month end (replayed history)")
        return "".join(out)

    def _iq_panel(self, frame: axes.Frame, at: list[str]) -> list[str]:
        values = [v for m in self.months for v in (m.low, m.high, float(m.iq)) if v is not None]
        ticks = svg.nice_ticks(min(values) - 2, max(values) + 2, 4)
        ys = Scale(ticks[0], ticks[-1], frame.bottom, frame.top)
        out = axes.y_axis(frame, ys, ticks, "Composite IQ")
        num = svg.num
        ranged = [
            (at[i], num(ys(m.low)), num(ys(m.high or 0)))
            for i, m in enumerate(self.months)
            if m.low is not None
        ]
        if len(ranged) > 1:
            band = [f"{x},{high}" for x, _, high in ranged]
            band += [f"{x},{low}" for x, low, _ in reversed(ranged)]
            out.append(
                f'<polygon points="{" ".join(band)}" fill="{ACCENT_LIGHT}" fill-opacity="0.6"/>'
            )
        else:  # one month: a line across its range
            out += [
                f'<line x1="{x}" y1="{low}" x2="{x}" y2="{high}" stroke="{ACCENT}"/>'
                for x, low, high in ranged
            ]
        ys_text = [num(ys(m.iq)) for m in self.months]
        out.append(_polyline(at, ys_text, ACCENT, "2"))
        for x, y, m in zip(at, ys_text, self.months, strict=True):
            out.append(axes.named(_month_dot(x, y, m.provisional), m.iq_said, plain=True))
        return out

    def _rank_panel(self, frame: axes.Frame, at: list[str]) -> list[str]:
        lows = [m.rank_low or m.rank for m in self.months]
        highs = [m.rank_high or m.rank for m in self.months]
        nice = svg.nice_ticks(1, max(max(highs), 2), 4)
        ticks = [1.0] + [t for t in nice if t > 1 and float(t).is_integer()]
        ys = Scale(1, max(ticks[-1], 2), frame.top, frame.bottom)  # rank 1 on top
        out = axes.y_axis(frame, ys, ticks, "Rank")
        num = svg.num
        bands = "".join(
            f"M{x} {num(ys(low))}V{num(ys(high))}"
            for x, low, high in zip(at, lows, highs, strict=True)
        )  # one path of every month's rank band
        out.append(f'<path d="{bands}" fill="none" stroke="{ACCENT}" stroke-width="2"/>')
        ys_text = [num(ys(m.rank)) for m in self.months]
        out.append(_polyline(at, ys_text, MUTED, "1.5"))
        for x, y, m in zip(at, ys_text, self.months, strict=True):
            out.append(axes.named(_month_dot(x, y, m.provisional), m.rank_said, plain=True))
        return out


def _polyline(xs: list[str], ys: list[str], stroke: str, width: str) -> str:
    """`svg.polyline`'s bytes from coordinates already formatted."""
    points = " ".join(f"{x},{y}" for x, y in zip(xs, ys, strict=True))
    return f'<polyline points="{points}" fill="none" stroke="{stroke}" stroke-width="{width}"/>'


_DOTS = {
    True: f'r="4.5" fill="#ffffff" stroke="{HIGHLIGHT}" stroke-width="2"',  # hollow
    False: f'r="4.5" fill="{HIGHLIGHT}" stroke="#ffffff" stroke-width="1"',
}


def _month_dot(x: str, y: str, provisional: bool) -> str:
    """A month's dot at formatted coordinates (`svg.circle`'s bytes, its attributes written
    once: a model page has two a month)."""
    return f'<circle cx="{x}" cy="{y}" {_DOTS[provisional]}/>'


def _months(count: int) -> str:
    return f"{count} month end{'s' if count != 1 else ''}"
