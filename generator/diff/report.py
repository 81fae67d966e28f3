"""A `Diff` as text (a terminal), Markdown (a pull request comment or job summary) or JSON.

Every format starts with the one-line summary. Names everywhere (with the id once, where a
model is introduced). A score move inside the base build's 95% range is marked as noise; a
place is worded up or down. In Markdown, every text from the data goes through
`github_text` (generator/encoders.py: it renders as itself, one line, and GitHub links,
mentions and draws nothing in it), and a section longer
than `DETAILS_ROWS` rows is collapsed in `<details>`, so a large change still makes a short
comment: one over `MAX_MARKDOWN` bytes has its longest sections cut (each says how many rows
it lost) and then its last sections left out, named with their rows at the end.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any, Literal

import msgspec

from generator.diff.changes import CatalogueChange, Diff, ModelChange, ModelEntry, Move, PlaceMove
from generator.diff.snapshot import DOMAIN_PREFIX
from generator.encoders import github_text
from generator.vocabulary import DIMENSION_COUNT

Format = Literal["text", "markdown", "json"]
Row = tuple[str, str, str, str, str]
"""(subject, change, before, after, note)"""
DETAILS_ROWS = 12
MAX_MARKDOWN = 60_000
"""UTF-8 bytes of a whole Markdown report, counted as posted (escaped, with its markup): a
pull request comment holds 65,536 characters, and `scripts/ci/comment-pr` cuts a body over
60,000 bytes at a line (which could leave a table or `<details>` open)."""
MAX_SUMMARY_BYTES = 1000
"""UTF-8 bytes of the Markdown report's bold summary line at most, escaped (a longer summary is
cut, with `…`): it quotes the methodology versions, and its bytes come out of `MAX_MARKDOWN`
like every other line's."""
MIN_ROWS = 5
FULL_REPORT = (
    "the whole report is `modelscores diff --format json` (or the text one) of the same builds"
)
LABELS = {
    "iq": "composite IQ",
    "rank": "rank",
    "emotionalReasoning": "emotional reasoning",
    "cost.inputPer1M": "input price (USD/1M)",
    "cost.outputPer1M": "output price (USD/1M)",
    "cost.effectivePer1M": "effective cost (USD/1M)",
    "cost.usageMultiplier": "usage multiplier",
    "cost.priceSource": "price source",
    "cost.priceSourceUrl": "price source URL",
    "cost.priceAsOf": "price as of",
}


def render(diff: Diff, output: Format) -> str:
    """The report, ending with a newline."""
    if output == "json":
        return msgspec.json.format(msgspec.json.encode(diff), indent=2).decode() + "\n"
    return "\n".join(_markdown(diff) if output == "markdown" else _text(diff)) + "\n"


def value(raw: Any) -> str:
    """A published value as a reviewer reads it."""
    if raw is None:
        return "none"
    if isinstance(raw, bool):
        return "true" if raw else "false"
    if isinstance(raw, float):
        return f"{raw:.6g}"
    if isinstance(raw, int | str):
        return str(raw)
    return json.dumps(raw, sort_keys=True, ensure_ascii=False)


def label(path: str) -> str:
    """A model document's field, as a reviewer reads it."""
    if path in LABELS:
        return LABELS[path]
    parts = path.split(".")
    if parts[0] == "dimensions" and len(parts) == 3:
        return f"{parts[1]} IQ" if parts[2] == "iq" else f"{parts[1]} {parts[2]}"
    if parts[0] == "benchmarkResults" and len(parts) == 3:
        return f"result {parts[1]}" if parts[2] == "value" else f"result {parts[1]} {parts[2]}"
    return path


def _is_number(raw: Any) -> bool:
    return isinstance(raw, int | float) and not isinstance(raw, bool)


def note(move: Move, *, place: bool = False) -> str:
    """`+2`, `up 2` (a place: a smaller number is better), with `noise: inside the 95%
    range` or `outside the 95% range` when the base build published one."""
    parts = []
    if _is_number(move.before) and _is_number(move.after):
        delta = move.after - move.before
        parts.append(_updown(-delta) if place else f"{delta:+.4g}")
    if move.within_band is True:
        parts.append("noise: inside the 95% range")
    elif move.within_band is False:
        parts.append("outside the 95% range")
    return ", ".join(parts)


def _updown(gain: float) -> str:
    return f"up {abs(gain):g}" if gain > 0 else f"down {abs(gain):g}"


BAND_FIELDS = {
    "iqSd": None,
    "iqLow95": "iq",
    "iqHigh95": "iq",
    "rankLow": "rank",
    "rankHigh": "rank",
}
"""The fields that state a score's uncertainty, and the score they belong to: shown in its row."""


def model_rows(change: ModelChange) -> Iterator[Row]:
    """Each changed field of a model, labelled; a score's range in its row's note."""
    subject = f"{change.name} ({change.id})"
    if change.renamed_from is not None:
        old = change.renamed_from
        yield subject, "renamed", f"{old.name} ({old.id})", f"{change.name} ({change.id})", ""
    fields = change.fields
    shown: set[str] = set()
    for path, move in fields.items():
        prefix, _, name = path.rpartition(".")
        if name in BAND_FIELDS:
            score = BAND_FIELDS[name]
            if score is None or _join(prefix, score) in fields | dict.fromkeys(shown):
                continue  # a spread, or a range shown with its score
            path = _join(prefix, score)
            shown.add(path)
            yield subject, f"{label(path)} 95% range", "", "", _range(fields, path)
            continue
        is_place = name == "rank"
        extra = ", ".join(p for p in (note(move, place=is_place), _range(fields, path)) if p)
        yield subject, label(path), value(move.before), value(move.after), extra


def _range(fields: dict[str, Move], path: str) -> str:
    """`95% range low 95.2 -> 96.8, high 104.8 -> 105.6`: the ends of the range of the score
    at `path` that moved."""
    prefix, _, name = path.rpartition(".")
    if name not in ("iq", "rank"):
        return ""
    ends = ("rankLow", "rankHigh") if name == "rank" else ("iqLow95", "iqHigh95")
    moved = [
        f"{word} {value(m.before)} -> {value(m.after)}"
        for word, end in zip(("low", "high"), ends, strict=True)
        if (m := fields.get(_join(prefix, end))) is not None
    ]
    return f"range {', '.join(moved)}" if moved else ""


def _join(prefix: str, name: str) -> str:
    return f"{prefix}.{name}" if prefix else name


def entry_rows(entry: ModelEntry) -> Iterator[Row]:
    subject = f"{entry.name} ({entry.id})"
    band = (
        f"95% range {value(entry.iq_low95)}-{value(entry.iq_high95)}"
        if entry.iq_low95 is not None
        else ""
    )
    state = []
    if entry.imputed is not None:
        state.append(f"{entry.imputed} of {DIMENSION_COUNT} dimensions imputed")
    if entry.provisional:
        state.append("provisional")
    yield (
        subject,
        "composite IQ",
        "",
        value(entry.composite_iq),
        ", ".join(p for p in (band, *state) if p),
    )
    rank_band = (
        f"rank band {entry.rank_low}-{entry.rank_high}" if entry.rank_low is not None else ""
    )
    yield subject, "rank", "", value(entry.rank), rank_band
    yield subject, "effective cost (USD/1M)", "", value(entry.effective_per_1m), ""
    if entry.emotional_reasoning is not None:
        yield subject, "emotional reasoning", "", value(entry.emotional_reasoning), ""
    for slug, iq in entry.dimensions.items():
        yield subject, f"{slug} IQ", "", value(iq), ""


def place_row(move: PlaceMove) -> Row:
    if move.before is None:
        return move.name, "joined", "", f"#{move.after}", ""
    if move.after is None:
        return move.name, "left", f"#{move.before}", "", ""
    parts = []
    if move.before != move.after:
        parts.append(_updown(move.before - move.after))
    if move.score is not None:
        parts.append(f"score {value(move.score.before)} -> {value(move.score.after)}")
    if move.within_band is True:
        parts.append("noise: inside the 95% range")
    return move.name, "place", f"#{move.before}", f"#{move.after}", ", ".join(parts)


def heading(ranking_id: str, name: str) -> str:
    """A ranking's section heading: `Ranking: Effective cost`, `Domain leaderboard: Coding`."""
    kind = "Domain leaderboard" if ranking_id.startswith(DOMAIN_PREFIX) else "Ranking"
    return f"{kind}: {name}"


def _sections(diff: Diff) -> Iterator[tuple[str, list[Row]]]:
    """(heading, rows) for every non-empty part, in report order."""
    if diff.models_added:
        yield "Models added", [row for e in diff.models_added for row in entry_rows(e)]
    if diff.models_removed:
        yield (
            "Models removed",
            [(s, c, a, "", n) for e in diff.models_removed for s, c, _, a, n in entry_rows(e)],
        )
    own = [c for c in diff.models_changed if c.own_data_changed]
    if own:
        yield "Models changed by their own data", [r for c in own for r in model_rows(c)]
    if diff.insertion is not None:
        yield "Moved only by the insertion", [("", "cause", "", insertion_line(diff), "")]
        return
    if diff.causes:
        yield (
            "Models moved by other inputs: why",
            [(f"{c.name} ({c.id})", "cause", "", c.cause, "") for c in diff.causes],
        )
    others = [c for c in diff.models_changed if not c.own_data_changed]
    if others:
        yield (
            "Models moved by other inputs: what changed",
            [r for c in others for r in model_rows(c)],
        )
    for ranking in diff.rankings:
        yield heading(ranking.id, ranking.name), [place_row(m) for m in ranking.moves]
    yield from _catalogue_and_methodology(diff)


def insertion_line(diff: Diff) -> str:
    """The moves an insertion alone caused, in one line."""
    moves = diff.insertion
    assert moves is not None
    names = ", ".join(e.name for e in diff.models_added)
    band = (
        "all inside their 95% ranges"
        if moves.outside_band == 0
        else f"{moves.outside_band} outside their 95% range"
    )
    noise = len((diff.benchmarks or CatalogueChange()).changed)
    refit = f"; noise re-estimated on {noise} benchmarks" if noise else ""
    iq = (
        f"composite IQ by at most {value(moves.most_iq)} ({band})"
        if moves.most_iq
        else "no composite IQ changed"
    )
    return (
        f"{moves.models} other models moved only because {names} joined: places by at most"
        f" {moves.most_places}, {iq}{refit}; every move is in `--format json`"
    )


def _catalogue_and_methodology(diff: Diff) -> Iterator[tuple[str, list[Row]]]:
    if diff.benchmarks is not None:
        catalogue = diff.benchmarks
        rows: list[Row] = [(b, "added", "", "", "") for b in catalogue.added]
        rows += [(b, "removed", "", "", "") for b in catalogue.removed]
        rows += [
            (bench, field, value(m.before), value(m.after), note(m))
            for bench, moves in catalogue.changed.items()
            for field, m in moves.items()
        ]
        yield "Benchmarks", rows
    if diff.methodology is not None:
        change = diff.methodology
        rows = []
        if change.version is not None:
            rows.append(
                ("", "version", value(change.version.before), value(change.version.after), "")
            )
        rows += [
            ("", f"parameter {p}", value(m.before), value(m.after), note(m))
            for p, m in change.parameters.items()
        ]
        if change.rules_changed:
            rows.append(("", "rules", "", "changed", ""))
        rows += [("", "changelog", "", entry, "") for entry in change.changelog_added]
        yield "Methodology", rows


_ONE_LINE = ("place", "joined", "left")


def _text(diff: Diff) -> Iterator[str]:
    yield diff.summary
    for heading, rows in _sections(diff):
        yield ""
        yield f"{heading}:"
        subject = None
        for row_subject, change, before, after, extra in rows:
            if row_subject and row_subject != subject and change not in _ONE_LINE:
                yield f"  {row_subject}"
                subject = row_subject
            indent = "    " if row_subject else "  "
            if change == "cause":
                yield f"{indent}{after}"
                continue
            if change in _ONE_LINE:
                places = f"{before} -> {after}" if before and after else (after or before)
                yield f"  {row_subject}: {change} {places}" + (f" ({extra})" if extra else "")
                continue
            arrow = f"{before} -> {after}" if before and after else (after or before)
            if not arrow:
                yield f"{indent}{change}: {extra}"
                continue
            yield f"{indent}{change}: {arrow}" + (f" ({extra})" if extra else "")


def _markdown(diff: Diff) -> Iterator[str]:
    sections = [(heading, [_escaped(row) for row in rows]) for heading, rows in _sections(diff)]
    head = ["## modelscores diff", "", _summary_line(diff.summary)]
    budget = MAX_MARKDOWN - _size(head)
    fitted, dropped = _fitted(sections, budget)
    yield from head
    for heading, rows, left_out in fitted:
        yield from _section(heading, rows, left_out)
    yield from _left_out(dropped, budget - sum(_size(_section(*s)) for s in fitted))


def _summary_line(summary: str) -> str:
    """`**summary**`, escaped, cut (with `…`) to at most `MAX_SUMMARY_BYTES` bytes."""
    text, mark = summary, ""
    while (size := len(f"**{github_text(text + mark)}**".encode())) > MAX_SUMMARY_BYTES:
        # Escaping lengthens text unevenly (`www.` takes 12 bytes): cut in proportion.
        text, mark = text[: min(len(text) - 1, len(text) * MAX_SUMMARY_BYTES // size)], "\u2026"
    return f"**{github_text(text + mark)}**"


def _escaped(row: Row) -> Row:
    subject, change, before, after, extra = (github_text(cell) for cell in row)
    return subject, change, before, after, extra


def _section(heading: str, rows: list[Row], left_out: int) -> Iterator[str]:
    """One section's lines (its rows already escaped)."""
    yield ""
    yield f"### {heading}"
    yield ""
    table = list(_table(rows))
    if left_out:
        table += ["", f"... and {_count(left_out, 'more row')}: {FULL_REPORT}."]
    if len(rows) > DETAILS_ROWS:
        yield f"<details><summary>{len(rows) + left_out} rows</summary>"
        yield ""
        yield from table
        yield ""
        yield "</details>"
    else:
        yield from table


def _size(lines: Iterable[str]) -> int:
    """UTF-8 bytes of `lines` joined by line breaks, with a final one."""
    return sum(len(line.encode()) + 1 for line in lines)


Dropped = list[tuple[str, int]]
"""Sections left out whole: (heading, escaped; how many rows it had), in report order."""


def _fitted(
    sections: list[tuple[str, list[Row]]], budget: int
) -> tuple[list[tuple[str, list[Row], int]], Dropped]:
    """The sections (headings and rows escaped), the longest cut (by halves, keeping its
    first rows, down to `MIN_ROWS` and then to none) until their Markdown, measured as it
    will be posted, fits `budget` bytes; then, if the headings alone are too many, the last
    sections are left out whole (returned second), until the rest and a closing note naming
    each of them (`_left_out`) fit, or one section is left."""
    fitted = [(github_text(heading), rows, 0) for heading, rows in sections]
    sizes = [_size(_section(*section)) for section in fitted]
    floor = MIN_ROWS
    while sum(sizes) > budget:
        index = max(range(len(fitted)), key=lambda i: len(fitted[i][1]))
        heading, rows, left_out = fitted[index]
        if len(rows) <= floor:
            if floor == 0:
                break
            floor = 0
            continue
        keep = max(floor, len(rows) // 2)
        fitted[index] = (heading, rows[:keep], left_out + len(rows) - keep)
        sizes[index] = _size(_section(*fitted[index]))
    # Every section is a bare heading now; one named in the closing note takes fewer bytes
    # than it did, so the last go there until the note naming them all fits, or one is left.
    dropped: Dropped = []
    named_bytes = 0
    while len(fitted) > 1 and sum(sizes) + _left_out_bound(dropped, named_bytes) > budget:
        heading, rows, left_out = fitted.pop()
        sizes.pop()
        dropped.insert(0, (heading, len(rows) + left_out))
        named_bytes += _size([_named(*dropped[0])])
    return fitted, dropped


def _left_out_bound(dropped: Dropped, named_bytes: int) -> int:
    """At least the bytes of `_left_out_lines` naming every section of `dropped` (whose rows
    take `named_bytes`): its lines naming none, those rows and a `<details>` around them."""
    if not dropped:
        return 0
    summary = f"<details><summary>{_count(len(dropped), 'section')}</summary>"
    wrapper = ["", summary, "", "</details>"]
    return _size(_left_out_lines(dropped, 0)) + named_bytes + _size(wrapper)


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def _named(heading: str, rows: int) -> str:
    return f"| {heading} | {rows} |"


def _left_out(dropped: Dropped, room: int) -> list[str]:
    """The closing section naming the sections left out whole, each with its rows, as many
    as fit `room` bytes (at least none: then one row counts them all)."""
    lines = _left_out_lines(dropped, len(dropped))
    if _size(lines) <= room:
        return lines
    low, high = 0, len(dropped) - 1  # the most named that fit, the rest counted in one row
    while low < high:
        middle = (low + high + 1) // 2
        if _size(_left_out_lines(dropped, middle)) <= room:
            low = middle
        else:
            high = middle - 1
    return _left_out_lines(dropped, low)


def _left_out_lines(dropped: Dropped, named: int) -> list[str]:
    """The closing section with the first `named` sections left out named (none, when
    nothing was left out) and the rest counted in one row."""
    if not dropped:
        return []
    rows = sum(count for _, count in dropped)
    lines = [
        "",
        "### Left out",
        "",
        f"{_count(len(dropped), 'more section')} ({_count(rows, 'row')}) did not fit this"
        f" comment: {FULL_REPORT}.",
        "",
        "| Section | Rows left out |",
        "|---|---|",
        *(_named(heading, count) for heading, count in dropped[:named]),
    ]
    rest = dropped[named:]
    if rest:
        lines.append(f"| and {_count(len(rest), 'more section')} | {sum(c for _, c in rest)} |")
    if len(dropped[:named]) + bool(rest) > DETAILS_ROWS:
        lines[3:] = [
            lines[3],
            "",
            f"<details><summary>{_count(len(dropped), 'section')}</summary>",
            *lines[4:],
            "",
            "</details>",
        ]
    return lines


def _table(rows: list[Row]) -> Iterator[str]:
    yield "| | Change | Before | After | Note |"
    yield "|---|---|---|---|---|"
    previous = None
    for subject, *cells in rows:
        shown = subject if subject != previous else ""
        previous = subject
        yield "| " + " | ".join((shown, *cells)) + " |"
