"""The command line's error paths: each user mistake is one `Error:` line with a hint, exit 1.

No traceback, and for the servers nothing from uvicorn: the mistake is caught before it
starts (tests/commands/test_cli_help.py covers `-h`/`--help` of every command).
"""

from __future__ import annotations

import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from support.paths import FIXTURE_DATA, REPO
from support.servers import python_env

from generator.cli import cli

BUILD_HINT = "run `modelscores build` first"
PORT_HINT = "use --port"


def run_cli(*args: str, cwd: Path = REPO) -> subprocess.CompletedProcess[str]:
    """`python -m generator ARGS` in a child process, as a user would run it."""
    return subprocess.run(
        [sys.executable, "-m", "generator", *args],
        capture_output=True,
        text=True,
        env=python_env(),
        cwd=cwd,
        timeout=60,
        check=False,
    )


def assert_one_error_line(result: subprocess.CompletedProcess[str], *expected: str) -> None:
    """Exit 1, stderr is exactly one `Error: ...` line holding every `expected` piece."""
    assert result.returncode == 1, (result.stdout, result.stderr)
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("Error: "), lines[0]
    for piece in expected:
        assert piece in lines[0], (piece, lines[0])
    for noise in ("Traceback", "uvicorn", "startup", "Started server"):
        assert noise not in result.stdout + result.stderr


@pytest.fixture
def busy_port() -> Iterator[int]:
    """A port some other program is listening on."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        yield int(sock.getsockname()[1])


# --- the servers: a missing build, a busy port --------------------------------------


def test_mcp_without_a_site_says_to_build_first(tmp_path: Path) -> None:
    result = run_cli("mcp", "--site-dir", str(tmp_path / "missing"), "--port", "0")
    assert_one_error_line(result, "cannot open the built site", BUILD_HINT)


def test_serve_no_build_without_a_site_says_to_build_first(tmp_path: Path) -> None:
    result = run_cli("serve", "--no-build", "--out-dir", str(tmp_path / "missing"), "--port", "0")
    assert_one_error_line(result, str(tmp_path / "missing"), BUILD_HINT)
    assert result.stdout.splitlines() == [f"{tmp_path / 'missing'}: not rebuilt (--no-build)"]


def test_an_empty_site_dir_is_no_build_either(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["mcp", "--site-dir", str(tmp_path), "--port", "0"])
    assert result.exit_code == 1
    assert result.output.count("\n") == 1 and BUILD_HINT in result.output


@pytest.mark.parametrize("command", ["mcp", "serve"])
def test_a_port_in_use_says_use_port_before_anything_starts(
    command: str, busy_port: int, built_site: Path
) -> None:
    site = ["--site-dir", str(built_site)] if command == "mcp" else ["--out-dir", str(built_site)]
    extra = ["--no-build"] if command == "serve" else []
    result = run_cli(command, *site, *extra, "--port", str(busy_port))
    assert_one_error_line(result, f"127.0.0.1:{busy_port}", "already in use", PORT_HINT)
    assert result.stdout == ""  # failed before the build and before uvicorn


def test_serve_checks_the_port_before_building(busy_port: int, tmp_path: Path) -> None:
    out = tmp_path / "site_out"
    result = CliRunner().invoke(
        cli,
        ["serve", "--data-dir", str(FIXTURE_DATA), "--out-dir", str(out), "--port", str(busy_port)],
    )
    assert result.exit_code == 1 and PORT_HINT in result.output
    assert not out.exists()


def test_a_host_that_is_not_this_machine_is_one_line() -> None:
    result = CliRunner().invoke(cli, ["mcp", "--host", "nosuch.invalid", "--port", "0"])
    assert result.exit_code == 1
    assert result.output.startswith("Error: --host nosuch.invalid: ")
    assert result.output.count("\n") == 1


def test_a_port_out_of_range_is_a_usage_error() -> None:
    result = CliRunner().invoke(cli, ["mcp", "--port", "70000"])
    assert result.exit_code == 2
    assert "'--port': 70000 is not in the range 0<=x<=65535" in result.output


# --- the other commands -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["check", "--data-dir", "no-such-dir"], "no-such-dir: directory: not found"),
        (["explain", "--data-dir", str(FIXTURE_DATA), "no-such-model"], "Unknown model id"),
        (["build", "--data-dir", str(FIXTURE_DATA), "--base-url", "nope"], "base URL must be"),
        (["build", "--data-dir", str(FIXTURE_DATA), "--mcp-origin", "ftp://x"], "MCP origin"),
    ],
)
def test_user_mistakes_exit_1_without_a_traceback(
    args: list[str], expected: str, tmp_path: Path
) -> None:
    out = ["--out-dir", str(tmp_path / "out")] if args[0] == "build" else []
    result = CliRunner().invoke(cli, [*args, *out])
    assert result.exit_code == 1, result.output
    assert isinstance(result.exception, SystemExit)  # a ClickException, not a crash
    assert expected in result.output
    assert "Traceback" not in result.output


def test_unknown_options_are_usage_errors_with_exit_2() -> None:
    result = CliRunner().invoke(cli, ["build", "--no-such-option"])
    assert result.exit_code == 2
    assert "No such option" in result.output and "--no-such-option" in result.output
