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
`memory`, `cpu`; a limit of null sets none), answered by a line with the child's `pid` and,
once the child has ended, a line `ended`. Then the caller sends `reap`, and the parent reaps
the child and answers a last line (`returncode` as `subprocess` reports it, `cpu`). Until
then the ended child stays a zombie, so its pid is never another process's: a caller may
kill it (`Started.kill`, the crash trials of tests/output/test_crash_safety.py) without a race.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import resource
import runpy
import select
import signal
import subprocess
import sys
import time
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
    """The warm parent, started on first use and again after a run that did not answer.

    `memory` (bytes of address space) and `cpu` (seconds) limit each child; None sets none.
    """

    def __init__(
        self, env: Mapping[str, str], cwd: Path, memory: int | None, cpu: int | None
    ) -> None:
        self.env = dict(env)
        self.cwd = cwd
        self.memory = memory
        self.cpu = cpu
        self.proc: subprocess.Popen[bytes] | None = None
        self._pending = b""  # read from the parent past the last whole line

    def _parent(self) -> subprocess.Popen[bytes]:
        if self.proc is None or self.proc.poll() is not None:
            self._pending = b""
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "support.bounded"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                bufsize=0,  # unbuffered: select() then sees every line not yet read
                env=self.env,
                cwd=self.cwd,
                start_new_session=True,
            )
        return self.proc

    def _send(self, line: str) -> None:
        assert self.proc is not None and self.proc.stdin is not None
        self.proc.stdin.write(line.encode() + b"\n")

    def _line(self, wall: float, what: str) -> dict[str, Any] | None:
        """The parent's next line, or None when it has not come within `wall` seconds."""
        assert self.proc is not None and self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        deadline = time.monotonic() + wall
        while b"\n" not in self._pending:
            ready, _, _ = select.select([fd], [], [], max(0.0, deadline - time.monotonic()))
            if not ready:
                return None
            chunk = os.read(fd, 65536)
            if not chunk:
                self.close()
                raise RuntimeError(f"the parent of {what} ended without an answer")
            self._pending += chunk
        line, _, self._pending = self._pending.partition(b"\n")
        answer: dict[str, Any] = json.loads(line)
        return answer

    def _answer(self, wall: float, what: str) -> dict[str, Any]:
        """The parent's next line, or TimeoutError (the parent and its child killed) when
        it has not come within `wall` seconds."""
        answer = self._line(wall, what)
        if answer is None:
            self.close()
            raise TimeoutError(f"{what} gave no answer within {wall} s")
        return answer

    def start(self, module: str, args: list[str], stdout: Path, stderr: Path) -> Started:
        """Fork the child running `python -m module args...`, its output going to files."""
        self._parent()
        request = {"module": module, "args": args, "stdout": str(stdout), "stderr": str(stderr)}
        request |= {"memory": self.memory, "cpu": self.cpu}
        self._send(json.dumps(request))
        what = f"python -m {module}"
        return Started(self, self._answer(60, what)["pid"], what, stdout, stderr)

    def run(self, module: str, args: list[str], scratch: Path, wall: float) -> Run:
        """`python -m module args...` under the limits; fails after `wall` seconds without
        an answer (the parent and the child are then killed)."""
        out, err = scratch / "bounded.stdout", scratch / "bounded.stderr"
        return self.start(module, args, out, err).wait(wall)

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


@dataclass
class Started:
    """A child forked and not yet reaped: its pid is its own until `wait`."""

    runner: BoundedRunner
    pid: int
    what: str
    stdout: Path
    stderr: Path

    ended: bool = False

    def poll(self) -> bool:
        """Whether the child has ended (without waiting)."""
        if not self.ended:
            self.ended = self.runner._line(0, self.what) is not None
        return self.ended

    def kill(self) -> None:
        """SIGKILL the child (a no-op once it has ended: it is a zombie until `wait`)."""
        os.kill(self.pid, signal.SIGKILL)

    def wait(self, wall: float) -> Run:
        """Let the parent reap the child; its result, or TimeoutError after `wall` s."""
        started = time.monotonic()
        if not self.ended:
            self.runner._answer(wall, self.what)  # {"ended": true}
            self.ended = True
        self.runner._send("reap")
        answer = self.runner._answer(max(1.0, wall - (time.monotonic() - started)), self.what)
        return Run(
            answer["returncode"],
            self.stdout.read_text(encoding="utf-8"),
            self.stderr.read_text(encoding="utf-8"),
            answer["cpu"],
        )


def _child(request: dict[str, Any]) -> None:
    """In the forked child: limits, output files, then the module as `__main__`."""
    for limit, key in ((resource.RLIMIT_AS, "memory"), (resource.RLIMIT_CPU, "cpu")):
        if request[key] is not None:
            resource.setrlimit(limit, (request[key], request[key]))
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
    while line := requests.readline():
        request = json.loads(line)
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            _child(request)
        answers.write(json.dumps({"pid": pid}) + "\n")
        answers.flush()
        os.waitid(os.P_PID, pid, os.WEXITED | os.WNOWAIT)  # ended, still a zombie
        answers.write(json.dumps({"ended": True}) + "\n")
        answers.flush()
        if requests.readline().strip() != "reap":
            os.kill(pid, signal.SIGKILL)
            return
        _, status, usage = os.wait4(pid, 0)
        cpu = usage.ru_utime + usage.ru_stime
        answer = {"returncode": os.waitstatus_to_exitcode(status), "cpu": cpu}
        answers.write(json.dumps(answer) + "\n")
        answers.flush()


if __name__ == "__main__":
    for name in WARM:
        __import__(name)
    _serve(sys.stdin, sys.stdout)
