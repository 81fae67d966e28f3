"""The import report: what changed and why, conflicts, new-model decisions, unmatched keys."""

from __future__ import annotations

import json
from typing import Literal

from generator.encoders import github_text
from generator.errors import log_text
from generator.importers.run import Outcome

Format = Literal["text", "markdown", "json"]


def render(outcome: Outcome, output: Format) -> str:
    """The report in one of three formats (ending in a newline). Upstream text is encoded for
    each: Markdown (a pull request's body) shows it literally, linking, mentioning and
    drawing nothing (`github_text`); text (a terminal, a CI log) escapes controls and
    breaks workflow commands (`log_text`); JSON escapes every non-ASCII character."""
    if output == "json":
        return json.dumps(_doc(outcome), indent=2, sort_keys=True, ensure_ascii=True) + "\n"
    markdown = output == "markdown"
    lines = ["# Import report" if markdown else "Import report", ""]
    summary = (
        "No changes: data/ already matches the upstream files."
        if not outcome.written
        else f"{len(outcome.written)} file{'' if len(outcome.written) == 1 else 's'} changed."
    )
    lines += [summary, ""]
    for title, items in _sections(outcome):
        lines.append(f"## {title} ({len(items)})" if markdown else f"{title} ({len(items)}):")
        lines += [f"- {github_text(item) if markdown else log_text(item)}" for item in items] or [
            "- none"
        ]
        lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"


def _sections(outcome: Outcome) -> list[tuple[str, list[str]]]:
    decisions = [
        f"{d.key} -> {d.model or '(none)'}: "
        f"{'published' if d.published else 'draft' if d.model else 'skipped'}; {d.reason}"
        for d in outcome.decisions
    ]
    unmatched = [f"{src}: {', '.join(keys)}" for src, keys in outcome.unmatched.items()]
    return [
        ("Accepted by the maintainer (--accept)", outcome.guarded.accepted),
        ("Counts", [f"{k}: {v}" for k, v in outcome.counts.items()]),
        ("Files changed", outcome.written),
        ("Conflicts (pinned values kept)", outcome.changes.conflicts),
        ("Changes", outcome.changes.changed),
        ("New models", decisions),
        ("Drafts (not published, and why)", outcome.drafts),
        ("Unmatched upstream keys", unmatched),
        ("Excluded on purpose", outcome.excluded),
        ("Upstream benchmarks not in the catalogue", outcome.uncatalogued),
        ("Unscored benchmarks (in the catalogue, no ladder yet)", outcome.unscored),
        ("Results without a date", outcome.changes.undated),
        ("Refused: dated before the model's release", outcome.changes.refused),
        ("Refused: dated after the upstream file's date", outcome.guarded.refused),
        ("Probable renames (kept as the original model's)", outcome.guarded.renames),
        ("Release dates in disagreement", outcome.changes.release_dates),
        ("Notes", outcome.notes),
    ]


def _doc(outcome: Outcome) -> dict[str, object]:
    return {
        "changed": bool(outcome.written),
        "files": outcome.written,
        "counts": outcome.counts,
        "conflicts": outcome.changes.conflicts,
        "changes": outcome.changes.changed,
        "newModels": [
            {"key": d.key, "model": d.model, "published": d.published, "reason": d.reason}
            for d in outcome.decisions
        ],
        "drafts": outcome.drafts,
        "unmatched": outcome.unmatched,
        "excluded": outcome.excluded,
        "uncatalogued": outcome.uncatalogued,
        "unscored": outcome.unscored,
        "undated": outcome.changes.undated,
        "refused": outcome.changes.refused,
        "refusedFuture": outcome.guarded.refused,
        "probableRenames": outcome.guarded.renames,
        "accepted": outcome.guarded.accepted,
        "releaseDates": outcome.changes.release_dates,
        "notes": outcome.notes,
    }
