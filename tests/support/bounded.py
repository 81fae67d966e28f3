"""Python modules run as bounded child processes, each forked from one warm parent.

`python -m generator build ...` spends 0.3 s of CPU importing before it reads a byte (numpy,
msgspec, Jinja2, the generator's 80 modules); the hostile corpus runs about 45 such children
(tests/input/test_hostile_data.py). Here one parent (`python -m support.bounded`, started
with the tests' child environment) imports what a build imports, once; for each run it
forks a child that sets its limits (address space, CPU seconds), points its standard output
and error at files, and runs the module as `python -m MODULE ARGS...` would (`runpy`, as
`__main__`, `sys.argv` set). Each child is a new process with the parent's imports and
nothing else from earlier runs (the parent never runs one itself); its exit status and the
CPU seconds it used (its own rusage) come back per run.

Protocol: one JSON line per run on the parent's stdin (`module`, `args`, `stdout`, `stderr`,
`memory`, `cpu`), one JSON line back (`returncode` as `subprocess` reports it, `cpu`).
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import resource
import runpy
import select
import subprocess
import sys
import traceback
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

# What a build imports (its modules, numpy, msgspec, Jinja2, resvg), so the children do not.
WARM = ("generator.cli", "generator.build", "generator.input.load")


@dataclass(frozen=True)
class Run:
    """One bounded run: its exit status (negative: the signal), output and CPU seconds."""

    returncode: int
    stdout: str
    stderr: str
    cpu: float


class BoundedRunner:
    """The warm parent, started on first use and again after a run that did not answer."""

    def __init__(self, env: Mapping[str, str], cwd: Path, memory: int, cpu: int) -> None:
        self.env = dict(env)
        self.cwd = cwd
        self.memory = memory
        self.cpu = cpu
        self.proc: subprocess.Popen[str] | None = None

    def _parent(self) -> subprocess.Popen[str]:
        if self.proc is None or self.proc.poll() is not None:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "support.bounded"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
                env=self.env,
                cwd=self.cwd,
                start_new_session=True,
            )
        return self.proc

    def run(self, module: str, args: list[str], scratch: Path, wall: float) -> Run:
        """`python -m module args...` under the limits; fails after `wall` seconds without
        an answer (the parent and the child are then killed)."""
        proc = self._parent()
        assert proc.stdin is not None and proc.stdout is not None
        out, err = scratch / "bounded.stdout", scratch / "bounded.stderr"
        request = {"module": module, "args": args, "stdout": str(out), "stderr": str(err)}
        request |= {"memory": self.memory, "cpu": self.cpu}
        proc.stdin.write(json.dumps(request) + "\n")
        proc.stdin.flush()
        ready, _, _ = select.select([proc.stdout], [], [], wall)
        line = proc.stdout.readline() if ready else ""
        if not line:
            self.close()
            raise TimeoutError(f"python -m {module} gave no answer within {wall} s")
        answer = json.loads(line)
        return Run(
            answer["returncode"],
            out.read_text(encoding="utf-8"),
            err.read_text(encoding="utf-8"),
            answer["cpu"],
        )

    def close(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, 9)
            self.proc.wait()
        if self.proc is not None:
            for stream in (self.proc.stdin, self.proc.stdout):
                if stream is not None:
                    stream.close()
        self.proc = None


def _child(request: dict[str, Any]) -> None:
    """In the forked child: limits, output files, then the module as `__main__`."""
    resource.setrlimit(resource.RLIMIT_AS, (request["memory"], request["memory"]))
    resource.setrlimit(resource.RLIMIT_CPU, (request["cpu"], request["cpu"]))
    for fd, path in ((1, request["stdout"]), (2, request["stderr"])):
        target = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.dup2(target, fd)
        os.close(target)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    sys.argv = [request["module"], *request["args"]]  # runpy puts the module's path first
    code = 0
    try:
        runpy.run_module(request["module"], run_name="__main__", alter_sys=True)
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        if exc.code is not None and not isinstance(exc.code, int):
            print(exc.code, file=sys.stderr)
    except BaseException:  # as the interpreter does with an uncaught exception
        traceback.print_exc()
        code = 1
    finally:
        atexit._run_exitfuncs()  # as the interpreter does on its way out (a pool's end)
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):
                stream.flush()
    os._exit(code)


def _serve(requests: IO[str], answers: IO[str]) -> None:
    for line in requests:
        request = json.loads(line)
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            _child(request)
        _, status, usage = os.wait4(pid, 0)
        cpu = usage.ru_utime + usage.ru_stime
        answer = {"returncode": os.waitstatus_to_exitcode(status), "cpu": cpu}
        answers.write(json.dumps(answer) + "\n")
        answers.flush()


if __name__ == "__main__":
    for name in WARM:
        __import__(name)
    _serve(sys.stdin, sys.stdout)
