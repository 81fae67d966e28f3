"""Every command in a ```sh block of README.md, data/README.md and docs/ runs from a fresh clone
as written: its program is one the repository provides (`./modelscores`, `./scripts/...`,
`.venv/bin/...`) or a named client tool, a `python -m` module exists, and a `./modelscores` line
parses with the real command line (no stale command or option). tests/repo/test_readme.py
and tests/repo/test_data_recipes.py run the README's and data/README.md's commands; this covers
the rest, including the ones that serve forever or take minutes."""

from __future__ import annotations

import importlib.util
import re
import shlex
import sys
from pathlib import Path

import click
import pytest
from support.paths import REPO

from generator.cli import cli

DOCS = sorted([REPO / "README.md", REPO / "data" / "README.md", *(REPO / "docs").glob("*.md")])
BLOCK = re.compile(r"^[ \t]*```sh\n(.*?)^[ \t]*```", re.M | re.S)
# Programs a reader has anyway (the shell's tools) or installs themselves (an MCP client).
CLIENT_TOOLS = {"curl", "head", "claude"}
ASSIGNMENT = re.compile(r"^[A-Z_][A-Z0-9_]*=")


def commands() -> list[tuple[str, list[str]]]:
    """(doc: line, argv) of every command line of every ```sh block, comments dropped."""
    found = []
    for doc in DOCS:
        for block in BLOCK.findall(doc.read_text(encoding="utf-8")):
            for line in block.replace("\\\n", " ").splitlines():
                argv = shlex.split(line, comments=True)
                while argv and ASSIGNMENT.match(argv[0]):
                    argv = argv[1:]  # VAR=value before the program
                if argv:
                    found.append((f"{doc.relative_to(REPO)}: {line.strip()[:60]}", argv))
    return found


COMMANDS = commands()


def test_the_docs_have_commands() -> None:
    programs = {argv[0] for _, argv in COMMANDS}
    assert {"./modelscores", "./scripts/serve", ".venv/bin/uvicorn", "curl"} <= programs


@pytest.mark.parametrize(("where", "argv"), COMMANDS, ids=[w for w, _ in COMMANDS])
def test_the_program_exists_in_a_set_up_clone(where: str, argv: list[str]) -> None:
    program = argv[0]
    if program in CLIENT_TOOLS:
        return
    assert program.startswith(("./", ".venv/bin/")), f"{where}: {program} is not on a fresh PATH"
    if program.startswith("./"):
        assert (REPO / program).is_file(), where
    else:
        venv_bin = Path(".venv") / "bin"  # what scripts/serve and scripts/test make
        assert program.removeprefix(f"{venv_bin}/") in _venv_programs(), where
    if "-m" in argv:
        module = argv[argv.index("-m") + 1]
        assert importlib.util.find_spec(module) is not None, f"{where}: no module {module}"


def _venv_programs() -> set[str]:
    """The console scripts the locked environment provides (python, uvicorn, pytest, ...)."""
    return {p.name for p in Path(sys.executable).parent.iterdir()}


def _without_optional(argv: list[str]) -> list[str]:
    """`build [--data-dir data]` as `build --data-dir data`: the optional parts parse too."""
    return [a.strip("[]") for a in argv if a.strip("[]")]


@pytest.mark.parametrize(
    ("where", "argv"),
    [(w, a) for w, a in COMMANDS if a[0] == "./modelscores"],
    ids=[w for w, a in COMMANDS if a[0] == "./modelscores"],
)
def test_each_modelscores_line_parses(where: str, argv: list[str]) -> None:
    name, *args = _without_optional(argv[1:])
    command = cli.commands.get(name)
    assert command is not None, f"{where}: no command {name}"
    # Under the group's context, as the CLI parses it: without a parent the subcommand's
    # help option is made (and cached by click) without `-h`, and tests/commands/test_cli_help.py
    # failed whenever this file ran first in the same process (pytest-xdist's order).
    parent = click.Context(cli, info_name="modelscores", **cli.context_settings)
    try:
        command.make_context(name, args, parent=parent)
    except click.UsageError as error:
        pytest.fail(f"{where}: {error.format_message()}")
