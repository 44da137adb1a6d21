"""Deadlines: a job has a budget, and each tool call and scan of repository text inside it a share of what is left.

The deadlines in force ride in a context variable, so a tool adapter or a scanner deep in a run asks them without
every signature naming them; a thread a run starts is handed a copy of the context (`carried`). Nothing can stop a
Python thread from outside, so a loop over repository text asks `check()` as it goes, and a tool process is given
`limit(cap)` seconds and killed at them. When several deadlines are in force the outermost that has passed is the
one said: a job out of time is the job's overrun, not the overrun of the file it was reading.
"""

from __future__ import annotations

import contextvars
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import ParamSpec, TypeVar

from core.errors import PermanentError

P = ParamSpec("P")
R = TypeVar("R")

JOB_SECONDS = 300.0  # a job's budget unless the settings say otherwise (MEMFIX_JOB_SECONDS)
TOOL_SECONDS = 120.0  # one tool process, at most
SCAN_SECONDS = 20.0  # one file's or one configuration's scan, at most: linear scans of 1 MiB take about a second


@dataclass(frozen=True, eq=False)
class Deadline:
    """Until when something may run (`time.monotonic()`), how long it was given, and what it is, in memfix's words."""

    seconds: float
    what: str
    at: float = field(default=0.0)

    @staticmethod
    def after(seconds: float, what: str) -> Deadline:
        return Deadline(seconds, what, time.monotonic() + seconds)

    def remaining(self) -> float:
        return self.at - time.monotonic()


class Overrun(PermanentError):
    """Something ran past its deadline: retrying would run past it again."""

    def __init__(self, deadline: Deadline):
        self.deadline = deadline
        super().__init__(f"{deadline.what} took longer than {deadline.seconds:g} s and was stopped")

    def of(self, deadline: Deadline) -> bool:
        """Whether it is this deadline that passed (an outer one's overrun goes on up)."""
        return self.deadline is deadline


_IN_FORCE: contextvars.ContextVar[tuple[Deadline, ...]] = contextvars.ContextVar("memfix_deadlines", default=())


@contextmanager
def budget(seconds: float, what: str) -> Iterator[Deadline]:
    """A deadline in force for the block (and the threads it hands its context to), inside any already in force."""
    deadline = Deadline.after(seconds, what)
    token = _IN_FORCE.set((*_IN_FORCE.get(), deadline))
    try:
        yield deadline
    finally:
        _IN_FORCE.reset(token)


def check() -> None:
    """Overrun for the outermost deadline in force that has passed; nothing when none has."""
    found = _IN_FORCE.get()
    if found:
        now = time.monotonic()
        for deadline in found:
            if deadline.at <= now:
                raise Overrun(deadline)


def limit(cap: float) -> float:
    """The seconds a tool call may take: `cap`, or less where a deadline in force comes sooner (Overrun if one has
    passed already)."""
    check()
    return min([cap, *(d.remaining() for d in _IN_FORCE.get())])


def carried(call: Callable[P, R]) -> Callable[P, R]:
    """`call` to run in another thread in this thread's context: the deadlines in force, and whatever else a run
    keeps there (the time its tools are released by); a thread pool's threads have none of it."""
    context = contextvars.copy_context()

    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        return context.copy().run(call, *args, **kwargs)  # a copy each call: one context is entered once at a time
    return run
