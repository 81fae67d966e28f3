"""Errors the generator raises; the CLI prints them without a traceback."""

from __future__ import annotations

from collections.abc import Iterable
from typing import IO, Any

import click


class GeneratorError(click.ClickException):
    """Base of every error the generator reports to a user."""


class DataError(GeneratorError):
    """One or more problems in data/, each as `file: field: problem`."""

    def __init__(self, problems: Iterable[str]) -> None:
        self.problems = sorted(set(problems))
        count = len(self.problems)
        noun = "data error" if count == 1 else "data errors"
        super().__init__("\n".join([*self.problems, f"Aborted: {count} {noun}"]))

    def show(self, file: IO[Any] | None = None) -> None:
        """Print the problems one per line, with no `Error:` prefix."""
        click.echo(self.format_message(), file=file, err=True)


class BuildError(GeneratorError):
    """The build could not complete (output directory, disk, rendering)."""
