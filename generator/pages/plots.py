"""The chart kinds as plain data plus a `draw(width, height)` that returns SVG.

A plot knows nothing about documents or pages: `charts.py` builds plots from the
computed documents, and `svg.py` wraps what a plot draws into a page or a preview.
"""

from __future__ import annotations

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
            out.append(svg.rect(x0, y(count), x1 - x0, y(0) - y(count), ACCENT))
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

    @property
    def summary(self) -> str:
        best = [p.label for p in self.points if p.highlight]
        return (
            f"Scatter plot of composite IQ against effective cost ({self.unit}, log scale) for "
            f"{len(self.points)} models. Highlighted, the models no cheaper model beats: "
            f"{', '.join(best) or 'none'}."
        )

    @property
    def table(self) -> DataTable:
        rows = tuple(
            (
                p.label,
                f"{p.x:.4f}".rstrip("0").rstrip("."),
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
        out += axes.x_axis(frame, xs, [(d, f"${svg.tick_label(d)}") for d in decades], self.unit)
        out += axes.point_marks(self.points, xs, ys)
        out += axes.point_labels(self.points, xs, ys, 12, frame)
        return "".join(out)


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
                    out.append(axes.marker(shape, xs(i), ys(v.iq), size, colour))
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
            out += _panel(profile, panel_w, panel_h)
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


def _panel(profile: Profile, width: float, height: float) -> list[str]:
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
        out.append(svg.rect(*bar, _HATCH, stroke=ACCENT) if imputed else svg.rect(*bar, ACCENT))
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
            out.append(svg.rect(frame.left, y + 3, x_end - frame.left, row_h - 6, ACCENT))
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
            out.append(svg.line(xs(row.low), mid, xs(row.high), mid, ACCENT, stroke_width=2))
            out.append(svg.circle(xs(row.value), mid, min(4.0, row_h * 0.3), HIGHLIGHT))
        title = "Composite IQ (dot) and 95% range (line)"
        out += axes.x_axis(frame, xs, [(t, svg.tick_label(t)) for t in ticks], title)
        return "".join(out)
