"""Measurement helpers shared by the benchmarks: timers, RSS, I/O counters, tables."""

from __future__ import annotations

import os
import resource
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

MIB = 1024 * 1024


@dataclass
class Sample:
    """One measured span: wall and CPU seconds, bytes the process wrote, peak RSS after it."""

    name: str
    wall: float = 0.0
    cpu: float = 0.0
    written: int = 0
    peak_rss_mib: float = 0.0
    extra: dict[str, float] = field(default_factory=dict)


def cpu_seconds() -> float:
    """User + system CPU seconds of this process and its finished children so far.

    Children count because the build renders pages in worker processes it has reaped by
    the time a stage ends.
    """
    total = 0.0
    for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN):
        usage = resource.getrusage(who)
        total += usage.ru_utime + usage.ru_stime
    return total


def peak_rss_mib() -> float:
    """Peak resident set size of this process so far, in MiB (Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def children_peak_rss_mib() -> float:
    """The largest peak RSS of any finished child process (a build's page workers), MiB."""
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024


def rss_mib(pid: int | None = None) -> float:
    """Current resident set size of a process (default: this one), in MiB."""
    status = Path(f"/proc/{pid or os.getpid()}/status").read_text(encoding="ascii")
    for line in status.splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def bytes_written() -> int:
    """Bytes this process has passed to write()-like calls (`wchar` of /proc/self/io)."""
    try:
        text = Path("/proc/self/io").read_text(encoding="ascii")
    except OSError:
        return 0
    for line in text.splitlines():
        if line.startswith("wchar:"):
            return int(line.split()[1])
    return 0


@contextmanager
def measure(name: str) -> Iterator[Sample]:
    """Time a block: wall, CPU, bytes written, and the peak RSS at its end."""
    sample = Sample(name)
    wall0, cpu0, io0 = time.perf_counter(), cpu_seconds(), bytes_written()
    try:
        yield sample
    finally:
        sample.wall = time.perf_counter() - wall0
        sample.cpu = cpu_seconds() - cpu0
        sample.written = bytes_written() - io0
        sample.peak_rss_mib = peak_rss_mib()


def percentile(sorted_values: Sequence[float], pct: float) -> float:
    """Nearest-rank percentile of an ascending sequence (0 when empty)."""
    if not sorted_values:
        return 0.0
    rank = max(1, min(len(sorted_values), round(pct / 100 * len(sorted_values) + 0.5)))
    return sorted_values[rank - 1]


def table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """A Markdown table with right-aligned numeric columns."""
    cells = [[_cell(v) for v in row] for row in rows]
    widths = [max([len(h), *(len(r[i]) for r in cells)]) for i, h in enumerate(headers)]
    numeric = [  # an empty cell (no figure for that row) leaves a column numeric
        any(r[i] for r in cells) and all(_is_number(r[i]) or not r[i] for r in cells)
        for i in range(len(headers))
    ]

    def line(values: Sequence[str]) -> str:
        padded = [
            v.rjust(w) if num else v.ljust(w)
            for v, w, num in zip(values, widths, numeric, strict=True)
        ]
        return "| " + " | ".join(padded) + " |"

    rule = (
        "|"
        + "|".join(
            ("-" * (w + 1) + ":") if num else "-" * (w + 2)
            for w, num in zip(widths, numeric, strict=True)
        )
        + "|"
    )
    return "\n".join([line(headers), rule, *(line(r) for r in cells)])


def _cell(value: object) -> str:
    if isinstance(value, float):
        if value == 0:
            return "0"
        if abs(value) >= 100:
            return f"{value:,.0f}"
        if abs(value) >= 10:
            return f"{value:.1f}"
        return f"{value:.2f}" if abs(value) >= 0.1 else f"{value:.3f}"
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value:,}"
    return str(value)


def _is_number(text: str) -> bool:
    try:
        float(text.replace(",", "").rstrip("x%"))
    except ValueError:
        return False
    return True


def human_bytes(count: float) -> str:
    """1,234,567 -> '1.2 MiB'."""
    for unit in ("B", "KiB", "MiB", "GiB"):
        if abs(count) < 1024 or unit == "GiB":
            return f"{count:.0f} {unit}" if unit == "B" else f"{count:.1f} {unit}"
        count /= 1024
    return f"{count:.1f} GiB"
