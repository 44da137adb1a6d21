"""Benchmarks: each prints numbers and asserts nothing (docs/contributors/current-numbers.md)."""

import signal
from types import FrameType


def stoppable() -> None:
    """SIGTERM unwinds a benchmark as Ctrl-C does, so the `finally` blocks that stop what it started (an embedded
    PostgreSQL, a sandbox) run: a signal's default action skips them and leaves the server running."""
    def stop(signum: int, frame: FrameType | None) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
