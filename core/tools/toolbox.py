"""What running a team's own tools needs, in one place the languages are handed: the sandbox they run in (or why
there is none here) and the cache they are installed into from their registries."""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass, field

from core.deadline import TOOL_SECONDS
from core.tools.install import Installed, InstallFailed, ToolCache
from core.tools.pins import Pin
from core.tools.remote import Invoke, LambdaSandbox
from core.tools.sandbox import Bubblewrap, Sandbox, find

log = logging.getLogger(__name__)
RETRY_SECONDS = 600.0  # a tool that could not be installed is not tried again for this long (each run would wait)


class Unavailable(InstallFailed):
    """The team's tool cannot run here: no sandbox, or it could not be installed. memfix's own reading stands in."""


@dataclass(frozen=True)
class Toolbox:
    cache: ToolCache
    seconds: float = TOOL_SECONDS  # one tool run's time in the sandbox (its CPU cap follows from it)
    fixer: str | None = None  # on AWS: the fixer function the tools are installed and run in (core/tools/remote.py)
    invoke: Invoke | None = field(default=None, compare=False, repr=False)  # a test's stand-in for Lambda's Invoke
    _failed: dict[Pin, tuple[float, str]] = field(default_factory=dict, compare=False, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, compare=False, repr=False)

    @property
    def sandbox(self) -> tuple[Bubblewrap | None, str]:
        """The sandbox, or None and why none can start here (found once a process)."""
        return find()

    def ready(self, pin: Pin) -> tuple[Sandbox, Installed]:
        """The sandbox and the installed tool `pin` names; Unavailable, in memfix's words, when either is not to be
        had (a first install downloads it: minutes, said in the worker's log with its time). With a fixer function,
        the function installs and runs it: nothing is installed here. A pin naming no exact version is the release
        current at the run's time."""
        pin = self.cache.dated(pin)
        if self.fixer:
            cache = self.cache
            remote = LambdaSandbox(self.fixer, pin, str(cache.root), cache.pypi_index, cache.npm_registry, self.seconds,
                                   self.invoke)
            return remote, Installed(cache.folder(pin), 0.0, False, pin.version)
        sandbox, why = self.sandbox
        if sandbox is None:
            raise Unavailable(f"no sandbox can start here ({why})")
        with self._lock:
            failed = self._failed.get(pin)
        if failed and time.monotonic() - failed[0] < RETRY_SECONDS:
            raise Unavailable(failed[1])
        try:
            installed = self.cache.ensure(pin, lambda said: log.info("%s: %s", pin.tool, said))
        except InstallFailed as exc:
            with self._lock:
                self._failed[pin] = (time.monotonic(), str(exc))
            raise Unavailable(str(exc)) from exc
        return sandbox.limited(self.seconds), installed
