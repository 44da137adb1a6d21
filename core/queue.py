"""Where Jobs wait for the worker: SQS on AWS, PostgreSQL for `memfix serve`, with the same retry rules."""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from core import aws
from core.errors import TransientError
from core.wire import Job, JobFormatError

if TYPE_CHECKING:
    from core.db import Database

log = logging.getLogger(__name__)


class QueueStatus(StrEnum):
    """A queued job's row (`queued_jobs.status`): waiting, taken by a worker, or settled for good."""

    QUEUED = "queued"
    RUNNING = "running"
    DONE = "done"
    DEAD = "dead"


class Settle(StrEnum):
    """How a worker settles the job it took (memfix_job_settle): done, back in the queue after a wait, or dead."""

    DONE = "done"
    RETRY = "retry"
    DEAD = "dead"


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


@dataclass(frozen=True)
class Schedule:
    """A worker's pace: attempts before a job is dead, the first retry's wait (doubled after each), how long a taken
    job is its worker's without a sign of life, and how often an idle worker looks for work."""

    max_attempts: int = 3
    backoff_seconds: float = 2.0
    lease_seconds: float = 30.0
    poll_seconds: float = 0.5


class PgQueue:
    """Jobs in PostgreSQL (core/migrations/008_job_queue.sql), for `memfix serve`: a job is a row before the webhook
    answers, so a crash or kill -9 after the 202 loses nothing and a restart resumes. Any number of workers, in
    this process or others sharing the database, take jobs with FOR UPDATE SKIP LOCKED, each under a lease its
    worker keeps alive while the job runs; a worker that dies leaves its job to whoever takes it when the lease
    lapses. A failing job is retried with exponential backoff; after `max_attempts` it is dead (kept in the table,
    listed in `dead` here, handed to `on_dead`). A database outage pauses the worker, never kills it."""

    def __init__(self, db: Database, run: Callable[[Job, int], object] | None, *, queue: str = "default",
                 schedule: Schedule = Schedule(), on_dead: Callable[[Job, BaseException], None] | None = None,
                 heartbeat: Path | None = None, workers: int = 1):
        self.db, self.name, self._run = db, queue, run
        self.heartbeat = heartbeat  # touched whenever the worker has reached the database: `memfix health` reads it
        self.max_attempts, self.backoff_seconds = schedule.max_attempts, schedule.backoff_seconds
        self.lease_seconds, self.poll_seconds = schedule.lease_seconds, schedule.poll_seconds
        self._on_dead = on_dead
        self.worker_id = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self.dead: list[tuple[Job, str]] = []
        self.done = 0
        self.running: list[Job] = []  # the jobs the workers run now
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._wake = threading.Event()
        self._threads: list[threading.Thread] = []
        if run is not None:  # a process may only enqueue (run None) and leave the work to `memfix serve --worker`
            # several workers: one tenant's long job (a tool at its deadline) does not hold another's
            self._threads = [threading.Thread(target=self._loop, name=f"memfix-worker-{n}", daemon=True)
                             for n in range(max(1, workers))]
            for thread in self._threads:
                thread.start()

    def send(self, job: Job) -> None:
        if self._stopping.is_set():
            raise TransientError("memfix is stopping; redeliver the webhook")
        try:
            with self.db.tenant(job.tenant_id) as conn:  # a job is put inside its own tenant's transaction only
                conn.execute("SELECT memfix_job_put(%s, %s, %s)", (self.name, f"{job.tenant_id}:{job.key}",
                                                                    job.to_json()))
        except Exception as exc:  # noqa: BLE001 — the database is down: the webhook answers 503, GitHub redelivers
            raise TransientError(f"job queue unavailable: {exc.__class__.__name__}") from exc
        self._wake.set()

    def stop(self, grace_seconds: float = 30.0) -> list[Job]:
        """Take no more jobs and let the running one finish within `grace_seconds`. Nothing is handed back: a job
        that did not finish stays in the table (its lease lapses) and the next worker takes it."""
        self._stopping.set()
        self._wake.set()
        ends = time.monotonic() + grace_seconds
        for thread in self._threads:
            thread.join(max(0.0, ends - time.monotonic()))
        return []

    def _loop(self) -> None:
        pause = self.poll_seconds
        while not self._stopping.is_set():
            try:
                taken = self._take()
                pause = self.poll_seconds
                self._beat()
            except Exception:  # noqa: BLE001 — a database outage: wait and try again, up to a minute apart
                log.warning("job queue unreachable; retrying in %.1fs", pause, exc_info=True)
                self._stopping.wait(pause)
                pause = min(60.0, pause * 2)
                continue
            if taken is None:
                self._wake.wait(self.poll_seconds)
                self._wake.clear()
                continue
            self._work(*taken)

    def _take(self) -> tuple[int, Job | None, int, str] | None:
        with self.db.system() as conn:
            row = conn.execute("SELECT * FROM memfix_job_take(%s, %s, %s)",
                               (self.name, self.worker_id, self.lease_seconds)).fetchone()
        if row is None:
            return None
        try:
            job = Job.from_json(row["payload"])
        except JobFormatError as exc:
            return row["id"], None, row["attempt"], str(exc)
        if job.tenant_id != row["tenant_id"]:  # put inside one installation's transaction, naming another: never run
            return row["id"], None, row["attempt"], f"put for installation {row['tenant_id']}, names {job.tenant_id}"
        return row["id"], job, row["attempt"], ""

    def _work(self, job_id: int, job: Job | None, attempt: int, problem: str) -> None:
        if job is None:  # cannot run, ever: dead at once, and said in the log
            log.error("queued job %s is not a memfix job (%s); dead-lettered", job_id, problem)
            self._settle(job_id, Settle.DEAD, 0.0, problem)
            return
        assert self._run is not None  # only a queue with a runner takes jobs
        with self._lock:
            self.running.append(job)
        beat = threading.Event()
        keeper = threading.Thread(target=self._keep_lease, args=(job_id, beat), daemon=True)
        keeper.start()
        try:
            self._run(job, attempt)
        except BaseException as exc:  # noqa: BLE001 — the queue must outlive any job
            if attempt < self.max_attempts:
                wait = self.backoff_seconds * 2 ** (attempt - 1)
                log.warning("job %s attempt %d failed (%s); retrying in %.1fs", job.key, attempt, exc, wait)
                self._settle(job_id, Settle.RETRY, wait, str(exc)[:2000])
            else:
                log.error("job %s dead-lettered after %d attempts: %s", job.key, attempt, exc)
                self._settle(job_id, Settle.DEAD, 0.0, str(exc)[:2000])
                with self._lock:
                    self.dead.append((job, str(exc)))
                if self._on_dead:
                    self._on_dead(job, exc)
        else:
            self._settle(job_id, Settle.DONE, 0.0, None)
            with self._lock:
                self.done += 1
        finally:
            beat.set()
            keeper.join()
            with self._lock:
                self.running.remove(job)

    def _beat(self) -> None:
        if self.heartbeat is not None:
            try:
                self.heartbeat.touch()
            except OSError:  # a read-only or full disk must not stop the worker; health will say it is stale
                log.debug("could not touch the heartbeat %s", self.heartbeat, exc_info=True)

    def _keep_lease(self, job_id: int, finished: threading.Event) -> None:
        while not finished.wait(self.lease_seconds / 3):
            try:
                with self.db.system() as conn:
                    conn.execute("SELECT memfix_job_extend(%s, %s, %s)", (job_id, self.worker_id, self.lease_seconds))
                self._beat()  # a long job is a live worker too
            except Exception:  # noqa: BLE001 — the job goes on; if the lease lapses, another worker takes it again
                log.warning("could not renew the lease of job %s", job_id, exc_info=True)

    def _settle(self, job_id: int, outcome: Settle, delay: float, reason: str | None) -> None:
        """Best effort, retried while the database is away: a job left running is taken again after its lease."""
        for wait in (0.0, 0.5, 2.0, 5.0):
            if self._stopping.wait(wait) and wait:
                break
            try:
                with self.db.system() as conn:
                    conn.execute("SELECT memfix_job_settle(%s, %s, %s, %s, %s)",
                                 (job_id, self.worker_id, outcome, delay, reason))
                return
            except Exception:  # noqa: BLE001
                log.warning("could not record job %s as %s", job_id, outcome, exc_info=True)

    def counts(self) -> dict[QueueStatus, int]:
        with self.db.system() as conn:
            return {QueueStatus(r["status"]): r["jobs"]
                    for r in conn.execute("SELECT * FROM memfix_job_counts(%s)", (self.name,))}

    @property
    def pending(self) -> int:
        counts = self.counts()
        return counts.get(QueueStatus.QUEUED, 0) + counts.get(QueueStatus.RUNNING, 0)

    def drain(self, timeout: float = 30.0) -> bool:
        """Wait until no job of this queue waits or runs."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.pending == 0 and not self.running:
                return True
            time.sleep(0.02)
        return False

    def requeue(self, claim_key: str | None = None) -> int:
        """Dead jobs back in the queue (`memfix replay-dlq` without SQS): one by its claim key, or all of them."""
        with self.db.system() as conn:
            row = conn.execute("SELECT memfix_job_requeue(%s, %s) AS again", (self.name, claim_key)).fetchone()
        assert row is not None  # a SELECT of a function returns its one row
        return int(row["again"])
