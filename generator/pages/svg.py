"""SVG drawing primitives, scales, document wrappers and PNG rasterisation.

Charts are drawn as plain SVG text so the output is tiny, readable and
byte-deterministic; `rasterise` turns an SVG into a PNG with resvg (a Rust
renderer shipped as a wheel, no system libraries, no browser).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import resvg_py

from generator.encoders import xml_attr, xml_text

FONT_FAMILY = "DejaVu Sans, Verdana, Arial, sans-serif"
INK = "#1a202c"
MUTED = "#4a5568"
GRID = "#e2e8f0"
ACCENT = "#2b6cb0"
ACCENT_LIGHT = "#a9c4e6"
HIGHLIGHT = "#b7410e"
OTHER = "#8795a8"  # 3:1 against white (WCAG non-text contrast)
PREVIEW_WIDTH = 1200
PREVIEW_HEIGHT = 630
_FONT_DIRS = ("/usr/share/fonts/truetype/dejavu",)
_FONT_FILES = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf")


def num(x: float) -> str:
    """Format a coordinate with at most one decimal, so output is stable and short."""
    text = f"{x:.1f}"
    if text[-2:] == ".0":
        text = text[:-2]
        return "0" if text == "-0" else text
    return text


_NAMES: dict[str, str] = {}
"""Each keyword's attribute name (`stroke_width` -> `stroke-width`), made once."""


@functools.lru_cache(maxsize=1024)
def _attr_value(value: str) -> str:
    """A string attribute escaped (colours, anchors, dash patterns: a few values, often)."""
    return xml_attr(value)


def _attrs(attrs: dict[str, str | float]) -> str:
    parts = []
    for key, value in attrs.items():
        name = _NAMES.get(key)
        if name is None:
            name = _NAMES[key] = key.replace("_", "-")
        if type(value) is str:
            shown = _attr_value(value) if len(value) < 40 else xml_attr(value)
        else:
            shown = num(value) if isinstance(value, float | int) else xml_attr(value)
        parts.append(f' {name}="{shown}"')
    return "".join(parts)


def _more(extra: dict[str, str | float]) -> str:
    return _attrs(extra) if extra else ""


# The primitives write their fixed attributes directly (in the order `_attrs` would) and
# only their keyword extras through `_attrs`: a model page draws some 300 of them.


def rect(x: float, y: float, w: float, h: float, fill: str, **extra: str | float) -> str:
    """A filled rectangle."""
    return (
        f'<rect x="{num(x)}" y="{num(y)}" width="{num(max(w, 0.0))}" '
        f'height="{num(max(h, 0.0))}" fill="{_attr_value(fill)}"{_more(extra)}/>'
    )


def line(x1: float, y1: float, x2: float, y2: float, stroke: str, **extra: str | float) -> str:
    """A straight line."""
    return (
        f'<line x1="{num(x1)}" y1="{num(y1)}" x2="{num(x2)}" y2="{num(y2)}" '
        f'stroke="{_attr_value(stroke)}"{_more(extra)}/>'
    )


def circle(cx: float, cy: float, r: float, fill: str, **extra: str | float) -> str:
    """A filled circle."""
    return (
        f'<circle cx="{num(cx)}" cy="{num(cy)}" r="{num(r)}" '
        f'fill="{_attr_value(fill)}"{_more(extra)}/>'
    )


def polyline(points: Sequence[tuple[float, float]], stroke: str, **extra: str | float) -> str:
    """An open line through points."""
    coords = " ".join(f"{num(x)},{num(y)}" for x, y in points)
    return f"<polyline{_attrs({'points': coords, 'fill': 'none', 'stroke': stroke, **extra})}/>"


def polygon(points: Sequence[tuple[float, float]], fill: str, **extra: str | float) -> str:
    """A closed filled shape through points."""
    coords = " ".join(f"{num(x)},{num(y)}" for x, y in points)
    return f"<polygon{_attrs({'points': coords, 'fill': fill, **extra})}/>"


def text(x: float, y: float, content: str, size: float = 13, **extra: str | float) -> str:
    """A text label (escaped); `anchor` is start, middle or end."""
    fill = extra.pop("fill", INK)  # a given fill takes the default's place
    return (
        f'<text x="{num(x)}" y="{num(y)}" font-size="{num(size)}" fill="{_attr_value(str(fill))}"'
        f"{_more(extra)}>{xml_text(content)}</text>"
    )


def text_width(content: str, size: float) -> float:
    """Rough rendered width of a label (DejaVu Sans averages ~0.6 em per glyph)."""
    return len(content) * size * 0.6


def clip_label(content: str, size: float, width: float) -> str:
    """Shorten a label with an ellipsis so it fits `width`."""
    if text_width(content, size) <= width:
        return content
    keep = max(int(width / (size * 0.6)) - 1, 1)
    return content[:keep].rstrip() + "…"


@dataclass(frozen=True)
class Scale:
    """Map a data interval onto a pixel interval, linearly or on log10."""

    lo: float
    hi: float
    start: float
    end: float
    log: bool = False

    def __call__(self, value: float) -> float:
        lo, hi, v = self.lo, self.hi, value
        if self.log:
            lo, hi, v = math.log10(lo), math.log10(hi), math.log10(value)
        span = hi - lo or 1.0
        return self.start + (v - lo) / span * (self.end - self.start)


MAX_TICKS = 50
"""No axis gets more ticks than this, whatever the data (the 1-2-5 rule gives count + 2)."""


def nice_ticks(lo: float, hi: float, count: int = 5) -> list[float]:
    """Round tick values covering [lo, hi] (the classic 1-2-5 step rule).

    Bounded for any finite input: a span too small to tell apart at its magnitude
    (1e9 and the next float) is widened first, and ticks are counted, not accumulated.
    """
    if not (math.isfinite(lo) and math.isfinite(hi)):
        raise OverflowError(f"cannot draw an axis from {lo} to {hi}")
    if hi <= lo:
        hi = lo + 1
    resolution = max(abs(lo) * 1e-9, abs(hi) * 1e-9, 1e-300)
    if hi - lo < resolution:
        hi = lo + resolution
    raw = (hi - lo) / max(count, 1)
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw)
    first = math.floor(lo / step) * step
    needed = math.ceil((hi - first) / step - 1e-9) + 1
    digits = max(10, 3 - math.floor(math.log10(step)))
    return [round(first + i * step, digits) for i in range(max(min(needed, MAX_TICKS), 2))]


def log_ticks(lo: float, hi: float) -> list[float]:
    """Powers of ten covering [lo, hi] (at most `MAX_TICKS`)."""
    first = math.floor(math.log10(lo))
    last = min(math.ceil(math.log10(hi)), first + MAX_TICKS - 1)
    return [10.0**e for e in range(first, last + 1)]


def tick_label(value: float) -> str:
    """A short label for an axis tick."""
    if value != 0 and abs(value) < 0.01:
        return f"{value:zg}"
    if float(value).is_integer():
        return f"{int(value):,}"
    return f"{value:z.3g}"


def inline_svg(
    body: str,
    width: float,
    height: float,
    ident: str,
    title: str,
    desc: str,
    details: str | None = None,
) -> str:
    """An accessible SVG for embedding in HTML, scaled to its box: named by its title and
    desc; `role=group`, as its marks are named and take the focus (`axes.named`), which a
    `role=img` would make presentational. `details`: the id of its table alternative."""
    more = f' aria-details="{xml_attr(details)}"' if details else ""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" role="group" '
        f'viewBox="0 0 {num(width)} {num(height)}" '
        f'aria-labelledby="{ident}-title {ident}-desc"{more} font-family="{FONT_FAMILY}">'
        f'<title id="{ident}-title">{xml_text(title)}</title>'
        f'<desc id="{ident}-desc">{xml_text(desc)}</desc>'
        f"{rect(0, 0, width, height, '#ffffff')}{body}</svg>"
    )


def preview_svg(body: str, title: str, subtitle: str, site_name: str) -> str:
    """A 1200x630 social preview: title on top, the chart body below, site name in a corner."""
    chart_top = 110
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{PREVIEW_WIDTH}" '
        f'height="{PREVIEW_HEIGHT}" viewBox="0 0 {PREVIEW_WIDTH} {PREVIEW_HEIGHT}" '
        f'font-family="{FONT_FAMILY}"><title>{xml_text(title)}</title>'
        f"{rect(0, 0, PREVIEW_WIDTH, PREVIEW_HEIGHT, '#ffffff')}"
        f"{rect(0, 0, PREVIEW_WIDTH, 8, ACCENT)}"
        f"{text(40, 62, clip_label(title, 38, 1120), 38, font_weight='bold')}"
        f"{text(40, 94, clip_label(subtitle, 20, 1120), 20, fill=MUTED)}"
        f'<g transform="translate(0 {chart_top})">{body}</g>'
        f"{text(1160, 620, site_name, 16, fill=MUTED, text_anchor='end')}"
        "</svg>"
    )


def preview_chart_height() -> float:
    """The height left for the chart body inside a social preview."""
    return PREVIEW_HEIGHT - 110 - 20


def _font_files() -> list[str] | None:
    """DejaVu Sans when installed (Debian's fonts-dejavu-core), so PNGs match across hosts."""
    for directory in _FONT_DIRS:
        files = [Path(directory) / name for name in _FONT_FILES]
        if all(f.is_file() for f in files):
            return [str(f) for f in files]
    return None


class RenderError(ValueError):
    """resvg refused an SVG document (the message says why)."""


def rasterise(svg: str) -> bytes:
    """Render an SVG document to PNG bytes (deterministic for the same fonts)."""
    fonts = _font_files()
    try:
        png = resvg_py.svg_to_bytes(
            svg_string=svg,
            font_family="DejaVu Sans",
            sans_serif_family="DejaVu Sans",
            skip_system_fonts=fonts is not None,
            font_files=fonts,
        )
    except ValueError as exc:
        raise RenderError(" ".join(str(exc).split())) from None
    return bytes(png)
