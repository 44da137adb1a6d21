"""A Python module run as a process of its own for a test: its output in files of the test's folder (a pipe nobody
reads would stall it once full), its first line awaited with a deadline, and at the end SIGTERM, a wait, and a check
that nothing it started is still running (it leads a session of its own, so its whole process group is seen)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Collection
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


class Child:
    """`python -m <module> <args…>` from this checkout, with `env` as its whole environment."""

    def __init__(self, name: str, module_args: list[str], *, folder: Path, env: dict[str, str],
                 pass_fds: Collection[int] = ()):
        self.name = name
        self.out, self.err = folder / f"{name}.out", folder / f"{name}.err"
        with self.out.open("wb") as out, self.err.open("wb") as err:  # the child keeps its own copies
            self.process = subprocess.Popen([sys.executable, "-m", *module_args], cwd=ROOT,
                                            env={**env, "PYTHONPATH": str(ROOT)}, stdin=subprocess.DEVNULL,
                                            stdout=out, stderr=err, pass_fds=tuple(pass_fds), start_new_session=True)

    @property
    def pid(self) -> int:
        return self.process.pid

    def log(self) -> str:
        """What it wrote to its standard error so far."""
        return self.err.read_text(encoding="utf-8", errors="replace")

    def first_line(self, timeout: float) -> str:
        """Its first line of standard output (the line a server prints once it listens)."""
        deadline = time.monotonic() + timeout
        while True:
            text = self.out.read_text(encoding="utf-8", errors="replace")
            if "\n" in text:
                return text.split("\n", 1)[0]
            self.check()
            if time.monotonic() > deadline:
                raise AssertionError(f"{self.name} printed no line within {timeout:g} s; it said:\n{self.log()}")
            time.sleep(0.02)

    def check(self) -> None:
        """An AssertionError with what it said when it is no longer running."""
        if self.process.poll() is not None:
            raise AssertionError(f"{self.name} exited with {self.process.returncode}; it said:\n{self.log()}")

    def stop(self, timeout: float = 30.0) -> None:
        """SIGTERM, then up to `timeout` seconds for it to exit. An AssertionError (after killing them) when it had
        to be killed, exited with an error, or left a process of its session running."""
        problems = []
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                problems.append(f"it did not stop within {timeout:g} s of SIGTERM and was killed")
                self.process.kill()
                self.process.wait()
        if self.process.returncode != 0 and not problems:
            problems.append(f"it exited with {self.process.returncode}")
        if left := _session(self.process.pid):
            os.killpg(self.process.pid, signal.SIGKILL)
            problems.append("it left running: " + "; ".join(left))
        if problems:
            raise AssertionError(f"{self.name}: {', '.join(problems)}; it said:\n{self.log()}")


def _session(leader: int) -> list[str]:
    """The live processes (zombies aside) of the process group `leader` began, as `pid: command line`."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
            command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:  # it ended meanwhile
            continue
        state, _parent, group = stat.rsplit(")", 1)[1].split()[:3]  # after the command's name, which may hold ")"
        if int(group) == leader and state != "Z":
            found.append(f"{pid}: {command.strip()}")
    return found


def wait_for(condition: Callable[[], Any], timeout: float, what: str, *watched: Child) -> Any:
    """`condition()`'s first truthy value, asked every 20 ms; an AssertionError as soon as a watched process has
    exited, or after `timeout` seconds, with what the watched processes said."""
    deadline = time.monotonic() + timeout
    while True:
        for child in watched:  # first: a condition that asks a dead server fails on a refused connection
            child.check()
        if value := condition():
            return value
        if time.monotonic() > deadline:
            said = "".join(f"\n--- {child.name} said:\n{log[-4000:]}" for child in watched if (log := child.log()))
            raise AssertionError(f"timed out after {timeout:g} s waiting for {what or condition}{said}")
        time.sleep(0.02)
