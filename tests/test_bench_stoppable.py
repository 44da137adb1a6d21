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


def test_the_replay_benchmark_still_runs_as_a_script_from_anywhere(tmp_path):
    """`python benchmarks/replay.py` runs from any folder, as before `stoppable`, which comes from the checkout."""
    import subprocess
    import sys
    from pathlib import Path

    script = Path(__file__).resolve().parents[1] / "benchmarks" / "replay.py"
    done = subprocess.run([sys.executable, str(script), "--help"], cwd=tmp_path, capture_output=True, text=True,
                          timeout=60, env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"})
    assert done.returncode == 0 and "usage:" in done.stdout, done.stderr
