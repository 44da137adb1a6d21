"""fan_out: pure work spread over forked workers, in order, each failure left to the caller."""

import os
import signal

import pytest

from core import fanout
from core.fanout import fan_out


@pytest.fixture
def two_cores(monkeypatch):
    monkeypatch.setattr(os, "cpu_count", lambda: 2)


def test_results_come_back_in_order_from_workers_forked_for_them(two_cores):
    items = list(range(9))
    results = fan_out(lambda n: (n * n, os.getpid()), items)
    assert [square for square, _ in results] == [n * n for n in items]
    assert os.getpid() not in {pid for _, pid in results}  # which worker takes which share is the pool's to decide


def test_work_too_small_for_a_worker_runs_here(two_cores):
    assert fan_out(lambda n: os.getpid(), [1, 2, 3]) == [os.getpid()] * 3


def test_an_item_whose_work_raised_is_none_and_the_others_are_kept(two_cores):
    assert fan_out(lambda n: 10 // n, [5, 0, 2, 1]) == [2, None, 5, 10]


def test_workers_see_the_callers_memory_without_pickling_it(two_cores):
    unpicklable = {"lock": __import__("threading").Lock(), "text": "kept"}  # what a run's view may hold
    assert fan_out(lambda n: unpicklable["text"] * n, [1, 2, 3, 4]) == ["kept", "keptkept", "kept" * 3, "kept" * 4]


def test_workers_answer_signals_as_plain_processes(two_cores, monkeypatch):
    """The CLI and the server turn SIGTERM into a graceful stop; a worker stopped with its pool must not."""
    def handler(signum, frame):
        raise RuntimeError("the caller's own stop")

    previous = signal.signal(signal.SIGTERM, handler)
    try:
        found = fan_out(lambda n: signal.getsignal(signal.SIGTERM), [1, 2, 3, 4])
    finally:
        signal.signal(signal.SIGTERM, previous)
    assert found == [signal.SIG_DFL] * 4


def test_without_fork_everything_runs_here(two_cores, monkeypatch):
    monkeypatch.setattr(fanout.multiprocessing, "get_all_start_methods", lambda: ["spawn"])
    assert fan_out(lambda n: os.getpid(), list(range(8))) == [os.getpid()] * 8
