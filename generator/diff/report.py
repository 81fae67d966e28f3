"""A `Diff` as text (a terminal), Markdown (a pull request comment or job summary) or JSON.

Every format starts with the one-line summary. A score move inside the base build's 95%
range is marked as noise. Names come from data/ (untrusted): Markdown special characters
are escaped, so a name cannot add a link, an image or a table cell to a comment.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any, Literal

import msgspec

from generator.diff.changes import Diff, DomainChange, ModelChange, Move

Format = Literal["text", "markdown", "json"]
Row = tuple[str, Move]
COST_LABELS = {
    "inputPer1M": "input price (USD/1M)",
    "outputPer1M": "output price (USD/1M)",
    "effectivePer1M": "effective cost (USD/1M)",
    "usageMultiplier": "usage multiplier",
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


def note(move: Move) -> str:
    """`+2`, `+2, noise: inside the 95% range`, or `` for a non-number."""
    parts = []
    numbers = (move.before, move.after)
    if all(isinstance(n, int | float) and not isinstance(n, bool) for n in numbers):
        delta = move.after - move.before
        parts.append(f"{delta:+.4g}")
    if move.within_band is True:
        parts.append("noise: inside the 95% range")
    elif move.within_band is False:
        parts.append("outside the 95% range")
    return ", ".join(parts)


def model_rows(change: ModelChange) -> Iterator[Row]:
    """Each changed number of a model, labelled."""
    if change.renamed_from is not None:
        old = change.renamed_from
        yield "renamed", Move(f"{old.name} ({old.id})", f"{change.name} ({change.id})")
    for label, move in (
        ("composite IQ", change.composite),
        ("rank", change.rank),
        ("emotional reasoning", change.emotional_reasoning),
    ):
        if move is not None:
            yield label, move
    yield from ((f"{slug} IQ", move) for slug, move in change.dimensions.items())
    yield from ((COST_LABELS.get(k, k), move) for k, move in change.cost.items())
    yield from ((f"result {bench}", move) for bench, move in change.results.items())


def domain_rows(change: DomainChange) -> Iterator[Row]:
    yield from ((f"{m} joined", Move(None, "listed")) for m in change.added)
    yield from ((f"{m} left", Move("listed", None)) for m in change.removed)
    yield from ((f"{m} composite IQ", move) for m, move in change.composite.items())
    yield from ((f"{m} place", move) for m, move in change.rank.items())


def benchmark_rows(diff: Diff) -> Iterator[Row]:
    catalogue = diff.benchmarks
    if catalogue is None:
        return
    yield from ((b, Move(None, "added")) for b in catalogue.added)
    yield from ((b, Move("listed", "removed")) for b in catalogue.removed)
    for bench, moves in catalogue.changed.items():
        yield from ((f"{bench} {field}", move) for field, move in moves.items())


def methodology_rows(diff: Diff) -> Iterator[Row]:
    change = diff.methodology
    if change is None:
        return
    if change.version is not None:
        yield "version", change.version
    yield from ((f"parameter {p}", move) for p, move in change.parameters.items())
    if change.rules_changed:
        yield "rules", Move("", "changed")
    yield from (("changelog", Move(None, entry)) for entry in change.changelog_added)


def _sections(diff: Diff) -> Iterator[tuple[str, list[tuple[str, list[Row]]]]]:
    """(heading, [(subject, rows)]) for every non-empty part, in report order."""
    if diff.models_added:
        yield "Models added", [(f"{m.name} ({m.id})", []) for m in diff.models_added]
    if diff.models_removed:
        yield "Models removed", [(f"{m.name} ({m.id})", []) for m in diff.models_removed]
    if diff.models_changed:
        yield (
            "Models changed",
            [(f"{c.name} ({c.id})", list(model_rows(c))) for c in diff.models_changed],
        )
    if diff.domains:
        yield (
            "Domain leaderboards",
            [(f"{d.name} ({d.id})", list(domain_rows(d))) for d in diff.domains],
        )
    if rows := list(benchmark_rows(diff)):
        yield "Benchmarks", [("", rows)]
    if rows := list(methodology_rows(diff)):
        yield "Methodology", [("", rows)]


def _text(diff: Diff) -> Iterator[str]:
    yield diff.summary
    for heading, subjects in _sections(diff):
        yield ""
        yield f"{heading}:"
        for subject, rows in subjects:
            if not rows:
                yield f"  {subject}"
                continue
            if subject:
                yield f"  {subject}"
            indent = "    " if subject else "  "
            for label, move in rows:
                extra = note(move)
                suffix = f" ({extra})" if extra else ""
                yield f"{indent}{label}: {value(move.before)} -> {value(move.after)}{suffix}"


# Enough for text inside a table cell or a list item: no emphasis, code, link, image, HTML
# or cell break can start (a `(` is harmless once `[` and `]` are escaped).
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_\[\]<>|!~])")


def escape(text: str) -> str:
    """`text` with Markdown's special characters escaped and kept on one line."""
    return _MARKDOWN_SPECIAL.sub(r"\\\1", " ".join(text.split()))


def _markdown(diff: Diff) -> Iterator[str]:
    yield "## modelscores diff"
    yield ""
    yield f"**{escape(diff.summary)}**"
    for heading, subjects in _sections(diff):
        yield ""
        yield f"### {heading}"
        yield ""
        if all(not rows for _, rows in subjects):
            yield from (f"- {escape(subject)}" for subject, _ in subjects)
            continue
        yield "| | Change | Before | After | Note |"
        yield "|---|---|---|---|---|"
        for subject, rows in subjects:
            for index, (label, move) in enumerate(rows):
                cells = (
                    escape(subject) if index == 0 else "",
                    escape(label),
                    escape(value(move.before)),
                    escape(value(move.after)),
                    escape(note(move)),
                )
                yield "| " + " | ".join(cells) + " |"
