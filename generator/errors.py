"""Errors the generator raises; the CLI prints them without a traceback."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import IO, Any

import click


def one_line(text: str) -> str:
    """`text` with every character that is not printable escaped (`\\n`, `\\x01`, `\\u2028`,
    an unassigned code point): a file name or a value from data/ can never split a problem
    over lines or move the terminal's cursor."""
    if text.isprintable():
        return text
    return "".join(char if char.isprintable() else repr(char)[1:-1] for char in text)


_WORKFLOW_COMMAND = re.compile(r"\A(\s*):(?=:)|##(?=\[)")
"""Where the GitHub Actions runner reads a workflow command: `::` after leading white space
(`::set-output`, `::add-mask::`, `::stop-commands::`), and `##[` anywhere in a line (the
older form)."""


def log_text(text: str) -> str:
    """`text` as one line for a terminal or a CI log: `one_line`'s escapes, and a workflow
    command broken by a backslash (`\\::warning::`, `#\\#[error]`): shown, never run."""
    return _WORKFLOW_COMMAND.sub(_break_command, one_line(text))


def _break_command(match: re.Match[str]) -> str:
    return f"{match[1]}\\:" if match[1] is not None else "#\\#"


class GeneratorError(click.ClickException):
    """Base of every error the generator reports to a user."""


MAX_SHOWN_PROBLEMS = 200
"""Problem lines printed at most; the rest are counted (`... and N more`), so a hostile
tree cannot flood a CI log."""


MAX_LINE = 1_000
"""Characters of one problem line at most. Values and field paths are cut to 60 where they
are named (`generator/input/decode.py`); this catches anything else that could be long."""


def _bounded(line: str) -> str:
    return line if len(line) <= MAX_LINE else line[: MAX_LINE - 1] + "…"


class DataError(GeneratorError):
    """One or more problems in data/, each as `file: field: problem`."""

    def __init__(self, problems: Iterable[str]) -> None:
        self.problems = sorted(
            {_bounded(log_text(problem)) for problem in problems}, key=problem_order
        )
        count = len(self.problems)
        noun = "data error" if count == 1 else "data errors"
        shown = self.problems[:MAX_SHOWN_PROBLEMS]
        if count > len(shown):
            shown.append(f"... and {count - len(shown):,} more")
        super().__init__("\n".join([*shown, f"Aborted: {count} {noun}"]))

    def show(self, file: IO[Any] | None = None) -> None:
        """Print the problems one per line, with no `Error:` prefix."""
        click.echo(self.format_message(), file=file, err=True)


def problem_order(problem: str) -> tuple[str, list[int | str], str]:
    """Sort key of `file: field: problem`: by file, then field with `[10]` after `[9]`."""
    file, _, rest = problem.partition(": ")
    field, _, what = rest.partition(": ")
    parts = re.split(r"(\d+)", field)
    natural: list[int | str] = [int(p) if p.isdigit() else p for p in parts]
    return file, natural, what


class BuildError(GeneratorError):
    """The build could not complete (output directory, disk, rendering)."""
