"""Pure, independent work over every core: a run's checks on many files are CPU-bound Python, which threads cannot
spread. Forked workers see the run's memory as it is (the repository's view, read once) without pickling it; only
each item's result comes back. Where fork is missing, or the work is too small to pay for a worker, it runs here.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

Item = TypeVar("Item")
Result = TypeVar("Result")

MAX_WORKERS = 4
PER_WORKER = 2  # items a worker must have before forking it pays

_work: tuple[Callable[[Any], Any], Sequence[Any]] | None = None  # what forked workers inherit (set only while they run)


def fan_out(work: Callable[[Item], Result], items: Sequence[Item]) -> list[Result | None]:
    """`work` on each item, in order, spread over the machine's cores. An item whose work raised is None: the
    caller does it again where it is, so an error surfaces where it can be reported."""
    workers = min(os.cpu_count() or 1, MAX_WORKERS, len(items) // PER_WORKER)
    if workers < 2 or "fork" not in multiprocessing.get_all_start_methods():
        return [_safe(work, item) for item in items]
    global _work
    _work = (work, items)
    try:
        with multiprocessing.get_context("fork").Pool(workers, initializer=_plain_signals) as pool:
            shares = pool.map(_share, [(i, workers) for i in range(workers)])
            pool.close()  # the workers leave on the queue's sentinels, not on SIGTERM (one once outlived it)
            pool.join()
    finally:
        _work = None
    results: list[Result | None] = [None] * len(items)
    for i, share in enumerate(shares):
        results[i::workers] = share  # interleaved: neighbouring files, often alike in size, go to different cores
    return results


def _plain_signals() -> None:
    """A worker answers signals as any process does, not with the handlers of the process it was forked from (the
    CLI's and the server's turn SIGTERM into a graceful stop of their own work)."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _share(where: tuple[int, int]) -> list[Any]:
    assert _work is not None, "fan_out's work is inherited by forked workers only"
    work, items = _work
    first, step = where
    return [_safe(work, item) for item in items[first::step]]


def _safe(work: Callable[[Item], Result], item: Item) -> Result | None:
    try:
        return work(item)
    except Exception:  # done again by the caller, where the error is reported
        return None
