"""A tool's process, bounded: at most its share of the deadlines in force, at most so much output, and killed with
every process it started when either runs out. Every tool memfix starts (ruff, Biome) goes through `run`.
"""

from __future__ import annotations

import os
import signal
import subprocess
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from core import deadline
from core.errors import PermanentError

MAX_OUTPUT_BYTES = 64 << 20  # what a tool may print on one stream: far above any real linter's report
_DRAIN_SECONDS = 5.0  # the output still in the pipes once the process has ended


class ToolFailed(PermanentError):
    """A tool could not be started, ran past its time, or printed more than it may: said in memfix's words."""


@dataclass(frozen=True)
class Finished:
    returncode: int
    stdout: str
    stderr: str


def run(command: Sequence[str], *, what: str, cwd: Path | str | None = None, env: Mapping[str, str] | None = None,
        input: str | None = None, cap: float = deadline.TOOL_SECONDS,
        max_output: int = MAX_OUTPUT_BYTES, user: int | None = None) -> Finished:
    """`command` run to its end (never through a shell) within `cap` seconds and the deadlines in force, its output
    decoded as UTF-8. Past its time the whole process group is killed, and the job's own deadline, when that is what
    passed, is raised as the job's Overrun; otherwise ToolFailed says `what` did not finish. `user`: the uid (and
    gid) it runs as, with no supplementary groups (a sandbox run's own user)."""
    seconds = deadline.limit(cap)
    proc = _started(command, what, cwd, env, fed=input is not None, user=user)
    readers = [_Reader(proc.stdout, max_output, proc), _Reader(proc.stderr, max_output, proc)]
    if input is not None and proc.stdin is not None:  # fed from a thread: a tool that reads none must not block us
        threading.Thread(target=_feed, args=(proc.stdin, input.encode("utf-8")), daemon=True).start()
    _waited(proc, readers, seconds, what)
    if any(reader.over for reader in readers):
        raise ToolFailed(f"{what} printed more than {max_output >> 20} MiB and was stopped")
    out, err = (reader.text() for reader in readers)
    return Finished(proc.returncode, out, err)


def _started(command: Sequence[str], what: str, cwd: Path | str | None, env: Mapping[str, str] | None, *, fed: bool,
             user: int | None) -> subprocess.Popen[bytes]:
    """The process started in a session of its own (its group is what a timeout kills), as `user` where given."""
    who = {} if user is None else {"user": user, "group": user, "extra_groups": []}
    try:
        proc: subprocess.Popen[bytes] = subprocess.Popen(
            list(command), cwd=cwd, env=None if env is None else dict(env),
            stdin=subprocess.PIPE if fed else subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            start_new_session=os.name != "nt", **who)  # type: ignore[call-overload]
    except OSError as exc:
        raise ToolFailed(f"{what} could not be started: {exc.strerror or exc.__class__.__name__}") from exc
    return proc


def _waited(proc: subprocess.Popen[bytes], readers: list[_Reader], seconds: float, what: str) -> None:
    """The process waited for within `seconds`, its output drained; past them its group is killed."""
    try:
        proc.wait(timeout=seconds)
    except subprocess.TimeoutExpired:
        _kill(proc)
        deadline.check()  # the job's (or an outer share's) time ran out: that is what is said
        raise ToolFailed(f"{what} did not finish within {seconds:.0f} s") from None
    finally:
        for reader in readers:  # a process that left the group may hold a pipe open: it is not waited for
            reader.join(_DRAIN_SECONDS)


class _Reader(threading.Thread):
    """One output stream read to its end in a thread, keeping at most `limit` bytes: past it, the process is killed
    (a tool that prints without end must not fill the worker's memory)."""

    def __init__(self, stream: IO[bytes] | None, limit: int, proc: subprocess.Popen[bytes]):
        super().__init__(daemon=True, name="memfix-tool-output")
        self.stream, self.limit, self.proc = stream, limit, proc
        self.chunks: list[bytes] = []
        self.size, self.over = 0, False
        self.start()

    def run(self) -> None:
        if self.stream is None:
            return
        with self.stream:
            while chunk := os.read(self.stream.fileno(), 1 << 16):
                if self.size + len(chunk) > self.limit:
                    self.over = True
                    _kill(self.proc)
                    continue  # read on to the end, keeping nothing: the pipe must close for the process to go
                self.chunks.append(chunk)
                self.size += len(chunk)

    def text(self) -> str:
        return b"".join(self.chunks).decode("utf-8", "replace")


def _feed(stdin: IO[bytes], data: bytes) -> None:
    try:
        stdin.write(data)
        stdin.close()
    except (BrokenPipeError, OSError):  # the tool stopped reading: its exit code says why
        pass


def _kill(proc: subprocess.Popen[bytes]) -> None:
    """The process and every process it started (its own session's group), at once."""
    try:
        if os.name != "nt":
            os.killpg(proc.pid, signal.SIGKILL)
        else:
            proc.kill()
    except (ProcessLookupError, PermissionError):
        pass
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:  # a process in uninterruptible sleep: its zombie is reaped by the next wait
        pass
