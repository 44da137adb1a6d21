"""A benchmark stopped by SIGTERM unwinds, so what it started is stopped by its own `finally` blocks."""

import os
import signal

import pytest

from benchmarks import stoppable


def test_sigterm_unwinds_a_benchmark_through_its_finally_blocks():
    previous = signal.getsignal(signal.SIGTERM)
    stopped = []
    try:
        stoppable()
        with pytest.raises(KeyboardInterrupt):
            try:
                os.kill(os.getpid(), signal.SIGTERM)
            finally:
                stopped.append("embedded database")
    finally:
        signal.signal(signal.SIGTERM, previous)
    assert stopped == ["embedded database"]
