"""What running a team's own tools needs, in one place the languages are handed: the sandbox they run in (or why
there is none here) and the cache they are installed into from their registries."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from core.tools.install import Installed, InstallFailed, ToolCache
from core.tools.pins import Pin
from core.tools.sandbox import Bubblewrap, find

log = logging.getLogger(__name__)


class Unavailable(InstallFailed):
    """The team's tool cannot run here: no sandbox, or it could not be installed. memfix's own reading stands in."""


@dataclass(frozen=True)
class Toolbox:
    cache: ToolCache

    @property
    def sandbox(self) -> tuple[Bubblewrap | None, str]:
        """The sandbox, or None and why none can start here (found once a process)."""
        return find()

    def ready(self, pin: Pin) -> tuple[Bubblewrap, Installed]:
        """The sandbox and the installed tool `pin` names; Unavailable, in memfix's words, when either is not to be
        had (a first install downloads it: minutes, said in the worker's log with its time)."""
        sandbox, why = self.sandbox
        if sandbox is None:
            raise Unavailable(f"no sandbox can start here ({why})")
        try:
            installed = self.cache.ensure(pin, lambda said: log.info("%s: %s", pin.tool, said))
        except InstallFailed as exc:
            raise Unavailable(str(exc)) from exc
        return sandbox, installed
