"""Stand-in commands for the CI scripts' tests: each records its arguments (and stdin, and the
body of a `--body-file`) as one JSON line in a log shared by all of them, in call order, and
answers from a table: the first `(prefix, stdout, exit code)` whose prefix starts the joined
arguments."""

from __future__ import annotations

import json
import stat
import sys
from pathlib import Path

Answers = list[tuple[str, str, int]]

PYTHON_LINE = f"#!{getattr(sys, '_base_executable', sys.executable)} -I\n"
"""A stand-in's first line: this interpreter itself, isolated (the stand-ins use the standard
library only). `#!/usr/bin/env python3` went through pyenv's shim where it is on PATH: about
ten shell processes before each call, 0.06 CPU s and 0.1-0.3 s of a CI script's run."""

_SCRIPT = (
    PYTHON_LINE
    + """import json, sys
stdin = '' if sys.stdin.isatty() else sys.stdin.read()
args = sys.argv[1:]
call = {'command': NAME, 'args': args, 'stdin': stdin}
if '--body-file' in args:
    call['body'] = open(args[args.index('--body-file') + 1]).read()
with open(LOG, 'a') as log:
    log.write(json.dumps(call) + '\\n')
joined = ' '.join(args)
for prefix, out, code in ANSWERS:
    if joined.startswith(prefix):
        sys.stdout.write(out)
        sys.exit(code)
"""
)


def stand_in(
    folder: Path, name: str, answers: Answers | None = None, log: Path | None = None
) -> Path:
    """An executable `folder/name` logging to `log` (default `folder/calls.log`)."""
    log = log or folder / "calls.log"
    command = folder / name
    script = (
        _SCRIPT.replace("NAME", repr(name))
        .replace("LOG", repr(str(log)))
        .replace("ANSWERS", repr(answers or []))
    )
    command.write_text(script, encoding="utf-8")
    command.chmod(command.stat().st_mode | stat.S_IXUSR)
    return command


def calls(log: Path) -> list[dict[str, object]]:
    if not log.exists():
        return []
    return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
