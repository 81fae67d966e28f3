"""Help texts: `-h` works everywhere and `serve --base-url` names its real default."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from generator.cli import cli

COMMANDS = sorted(cli.commands)


@pytest.mark.parametrize("command", [[], *([name] for name in COMMANDS)])
def test_short_help_option_matches_long(command: list[str]) -> None:
    runner = CliRunner()
    short = runner.invoke(cli, [*command, "-h"])
    long = runner.invoke(cli, [*command, "--help"])
    assert short.exit_code == 0, short.output
    assert short.output == long.output
    assert "-h, --help" in short.output


def test_serve_base_url_default_is_the_address_served() -> None:
    text = CliRunner().invoke(cli, ["serve", "-h"]).output
    base_url_help = text[text.index("--base-url") : text.index("--mcp-origin")]
    assert "http://HOST:PORT" in base_url_help
    assert "127.0.0.1:8000" not in base_url_help


def test_build_base_url_default_is_shown() -> None:
    text = CliRunner().invoke(cli, ["build", "-h"]).output
    assert "http://127.0.0.1:8000" in text[text.index("--base-url") : text.index("--mcp-origin")]
