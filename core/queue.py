"""Where Jobs wait for the worker: SQS on AWS, an in-process queue with the same retry rules locally."""

from __future__ import annotations

import itertools
import logging
import queue
import threading
import time
from collections.abc import Callable
from typing import Protocol

from core import aws
from core.errors import TransientError
from core.models import Job

log = logging.getLogger(__name__)


class JobQueue(Protocol):
    def send(self, job: Job) -> None: ...


class SqsQueue:
    def __init__(self, url: str):
        self.url = url

    def send(self, job: Job) -> None:
        try:
            aws.client("sqs").send_message(
                QueueUrl=self.url,
                MessageBody=job.to_json(),
                MessageAttributes={"kind": {"DataType": "String", "StringValue": job.kind}},
            )
        except Exception as exc:  # botocore: throttled, network, missing queue
            raise TransientError(f"job queue unavailable: {exc.__class__.__name__}") from exc

    def retry_later(self, receipt_handle: str, attempt: int, base_seconds: float) -> None:
        """Exponential backoff for a failed message (SQS caps visibility at 12 hours; we cap at 15 minutes)."""
        delay = int(min(900, base_seconds * 2 ** attempt))
        try:
            aws.client("sqs").change_message_visibility(QueueUrl=self.url, ReceiptHandle=receipt_handle,
                                                        VisibilityTimeout=delay)
        except Exception:  # without it the message simply returns after the queue's visibility timeout
            log.warning("could not shorten the visibility of a failed message", exc_info=True)


class LocalQueue:
    """One background worker thread. A failing job is retried with exponential backoff; after
    `max_attempts` it is dead-lettered (kept in `dead` and handed to `on_dead`)."""

    def __init__(
        self,
        run: Callable[[Job, int], None],
        *,
        max_attempts: int = 3,
        backoff_seconds: float = 2.0,
        on_dead: Callable[[Job, BaseException], None] | None = None,
    ):
        self._run = run
        self.max_attempts = max_attempts
        self.backoff_seconds = backoff_seconds
        self._on_dead = on_dead
        self._items: queue.PriorityQueue[tuple[float, int, Job, int]] = queue.PriorityQueue()
        self._seq = itertools.count()  # FIFO among equals; Jobs themselves are not ordered
        self._pending = 0
        self._idle = threading.Condition()
        self.dead: list[tuple[Job, str]] = []
        self.done = 0
        self.current: Job | None = None
        self._stopping = False
        self._thread = threading.Thread(target=self._loop, name="memfix-worker", daemon=True)
        self._thread.start()

    def stop(self, grace_seconds: float = 30.0) -> list[Job]:
        """Take no more jobs, let the running one finish within `grace_seconds`, and return every job that did not
        run to its end (waiting, backing off, or still running at the deadline) so the caller can hand it back."""
        self._stopping = True
        self._items.put((float("-inf"), -1, None, 0))  # wakes the worker if it waits for work
        self._thread.join(grace_seconds)
        unfinished = [self.current] if self._thread.is_alive() and self.current is not None else []
        while not self._items.empty():
            job = self._items.get_nowait()[2]
            if job is not None:
                unfinished.append(job)
        return unfinished

    def send(self, job: Job) -> None:
        if self._stopping:
            raise TransientError("memfix is stopping; redeliver the webhook")
        with self._idle:
            self._pending += 1
        self._items.put((0.0, next(self._seq), job, 1))

    def _loop(self) -> None:
        while True:
            not_before, seq, job, attempt = self._items.get()
            if job is None or self._stopping:
                if job is not None:
                    self._items.put((not_before, seq, job, attempt))  # left for stop() to hand back
                return
            if not_before > time.monotonic():  # a job backing off; new jobs sort before it
                self._items.put((not_before, seq, job, attempt))
                time.sleep(max(0.0, min(0.05, not_before - time.monotonic())))
                continue
            self.current = job
            try:
                self._run(job, attempt)
                self.done += 1
            except BaseException as exc:  # noqa: BLE001 — the queue must outlive any job
                if attempt < self.max_attempts:
                    wait = self.backoff_seconds * 2 ** (attempt - 1)
                    log.warning("job %s attempt %d failed (%s); retrying in %.1fs", job.key, attempt, exc, wait)
                    self._items.put((time.monotonic() + wait, next(self._seq), job, attempt + 1))
                    continue
                log.error("job %s dead-lettered after %d attempts: %s", job.key, attempt, exc)
                self.dead.append((job, str(exc)))
                if self._on_dead:
                    self._on_dead(job, exc)
            self.current = None
            with self._idle:
                self._pending -= 1
                self._idle.notify_all()

    @property
    def pending(self) -> int:
        return self._pending

    def drain(self, timeout: float = 30.0) -> bool:
        """Wait until every sent job has finished or been dead-lettered."""
        with self._idle:
            return self._idle.wait_for(lambda: self._pending == 0, timeout)
