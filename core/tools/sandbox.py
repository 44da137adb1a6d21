"""The sandbox the team's own tools run in. Their configuration is the repository's code (an `eslint.config.js`, a
plugin, a local pre-commit hook), so it runs only here, never in memfix's processes: bubblewrap with no network, a
scratch copy of the checkout the only writable place, nothing of memfix's (no file, no environment variable, no
credential), the tools' folders read-only, caps on CPU time, memory, processes, file size and output, and the whole
tree killed at its deadline (the sandbox's first process is its PID namespace's init: when bubblewrap goes, so does
everything the tool started). Run as root, memfix runs each sandbox as a user of its own, whose processes the
process cap counts. Where no sandbox can start (a container without user namespaces), `find` says why, once.
"""

from __future__ import annotations

import functools
import logging
import math
import os
import secrets
import shutil
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Protocol

from core import deadline
from core.tools import process
from core.tools.process import Finished, ToolFailed

log = logging.getLogger(__name__)
USERS = (1 << 20, 1 << 30)  # each run's own user id is drawn from here (no account needs to exist for it)
WORK = "/sandbox/work"  # where the scratch copy is, inside: a path no tool's own folder lies under
SYSTEM = ("/usr", "/bin", "/lib", "/lib64", "/sbin")  # the system's programs and libraries, read-only


@dataclass(frozen=True)
class Caps:
    """What one tool run may use beside its time: address space, processes (of the sandbox's user), one file's size, and
    what it may print on each stream."""

    memory_bytes: int = 8 << 30  # address space: Node's heap reserves a few GiB it never touches
    processes: int = 256
    file_bytes: int = 256 << 20
    output_bytes: int = 16 << 20


class Sandbox(Protocol):
    """Where a team's tool runs: bubblewrap on this machine, or on AWS a function of its own (core/tools/remote.py).
    Its linters see one interface: a scratch copy laid out as the checkout, and a run in it."""

    def scratch(self) -> AbstractContextManager[Path]: ...
    def copies(self, files: Mapping[str, bytes]) -> AbstractContextManager[Path]: ...
    def run(self, command: Sequence[str], *, work: Path, what: str, tools: Sequence[Path] = (),
            env: Mapping[str, str] | None = None, cap: float | None = None) -> Finished: ...
    def limited(self, seconds: float) -> Sandbox: ...  # the same sandbox, each run capped at `seconds`
    def __hash__(self) -> int: ...  # what a tool's answers are remembered by


class Copies:
    """The scratch copies every sandbox lays out the same way."""

    @contextmanager
    def scratch(self) -> Iterator[Path]:
        """A folder for a copy of the checkout, where the sandbox's user can reach it (the system's temporary folder:
        memfix's own folders, and a test's, are closed to others), removed afterwards."""
        folder = Path(tempfile.mkdtemp(prefix="memfix-sandbox-"))
        try:
            yield folder
        finally:
            shutil.rmtree(folder, ignore_errors=True)

    @contextmanager
    def copies(self, files: Mapping[str, bytes]) -> Iterator[Path]:
        """A scratch holding each of `files` ({path relative to the checkout: its bytes}) at its own path, as the
        checkout lays them out: a tool reads its configuration and judges each file by where it sits. A path that
        leaves the scratch is a ValueError (paths come from repositories)."""
        with self.scratch() as work:
            top = work.resolve()
            for path, data in files.items():
                copy = (top / path).resolve()
                if not copy.is_relative_to(top) or copy == top:
                    raise ValueError(f"{path} is outside the checkout")
                copy.parent.mkdir(parents=True, exist_ok=True)
                copy.write_bytes(data)
            yield work


@dataclass(frozen=True)
class Bubblewrap(Copies):
    """bubblewrap at `binary`, with `prlimit` to set the caps on the processes inside."""

    binary: str
    prlimit: str
    caps: Caps = field(default_factory=Caps)
    seconds: float = deadline.TOOL_SECONDS  # a run's time, where its caller names none

    def limited(self, seconds: float) -> Bubblewrap:
        return replace(self, seconds=seconds)

    def run(self, command: Sequence[str], *, work: Path, what: str, tools: Sequence[Path] = (),
            env: Mapping[str, str] | None = None, cap: float | None = None) -> Finished:
        """`command` run inside, in `work` (seen inside as /work, its only writable folder), with each of `tools`
        read-only at its own path (a tool's installed scripts name their interpreter by its path). `env` is the
        whole environment inside, beside PATH, HOME and LANG. ToolFailed when it cannot start or runs past `cap`."""
        user = _user() if os.geteuid() == 0 else None
        if user is not None:
            _open_to(work, user)
        caps, seconds = self.caps, self.seconds if cap is None else cap
        limits = [self.prlimit, f"--cpu={_cpu_seconds(seconds)}", f"--as={caps.memory_bytes}",
                  f"--fsize={caps.file_bytes}",
                  f"--nproc={caps.processes if user is not None else _own_processes() + caps.processes}", "--"]
        inside = [self.binary, "--unshare-all", "--die-with-parent", "--new-session", "--clearenv",
                  *_system(), "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp",
                  "--bind", str(work), WORK,  # before the tools: a later mount wins where two paths meet
                  *(a for tool in tools for a in ("--ro-bind", str(tool), str(tool))),
                  "--remount-ro", "/", "--chdir", WORK,
                  *(a for name, value in _environment(tools, env).items() for a in ("--setenv", name, value)),
                  "--", *command]
        return process.run([*limits, *inside], what=what, cap=seconds,
                           max_output=caps.output_bytes, env={}, user=user)


def _cpu_seconds(seconds: float) -> int:
    """A run's CPU cap: its time on every core, so the deadline, which says what happened, always comes first (a
    tool's threads share one process's CPU count: Node's ran out of a cap of its time before its deadline, killed
    with no word why); the cap only backs the deadline should its kill miss."""
    return math.ceil(seconds) * (os.cpu_count() or 1) + 1


def _user() -> int:
    """A user id of this run's own: the process cap counts one user's processes, so a run that forks without end
    exhausts its own count, not another tenant's sandbox's."""
    return USERS[0] + secrets.randbelow(USERS[1] - USERS[0])


def _system() -> list[str]:
    """The system's folders, read-only, as this machine lays them out (a merged /usr has /bin as a link)."""
    found = []
    for folder in SYSTEM:
        if os.path.islink(folder):
            found += ["--symlink", os.readlink(folder), folder]
        elif os.path.isdir(folder):
            found += ["--ro-bind", folder, folder]
    return found


def _environment(tools: Sequence[Path], env: Mapping[str, str] | None) -> dict[str, str]:
    path = ":".join([*(str(t / "bin") for t in tools), "/usr/local/bin", "/usr/bin", "/bin"])
    return {"PATH": path, "HOME": WORK, "LANG": "C.UTF-8", **(env or {})}


def _open_to(work: Path, user: int) -> None:
    """The scratch copy handed to the sandbox's user (it is the only place the tool may write)."""
    for folder, dirs, files in os.walk(work):
        os.chown(folder, user, user)
        for name in (*dirs, *files):
            os.chown(os.path.join(folder, name), user, user, follow_symlinks=False)


def _own_processes() -> int:
    """This user's processes now: the process cap counts them all, memfix's own included, when it is not root."""
    me = os.geteuid()
    count = 0
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            count += os.stat(f"/proc/{pid}").st_uid == me
        except OSError:
            continue
    return count


@functools.cache
def find() -> tuple[Bubblewrap | None, str]:
    """The sandbox, or None and why no sandbox can start here (said once: the answer is kept for the process)."""
    binary, prlimit = shutil.which("bwrap"), shutil.which("prlimit")
    if not binary or not prlimit:
        return None, "bubblewrap is not installed (Debian's `bubblewrap`)" if not binary else \
            "prlimit is not installed (util-linux)"
    sandbox = Bubblewrap(binary, prlimit)
    with sandbox.scratch() as scratch:
        try:
            done = sandbox.run(["/bin/sh", "-c", "echo ready"], work=scratch, what="the sandbox", cap=30)
        except ToolFailed as exc:
            return None, str(exc)
    if done.returncode != 0 or done.stdout.strip() != "ready":
        why = " ".join(done.stderr.split())[:200] or f"exit {done.returncode}"
        log.warning("no sandbox can start here: %s", why)
        return None, f"bubblewrap cannot start a sandbox here ({why}): user namespaces may be off"
    return sandbox, ""
