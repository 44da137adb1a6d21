"""The worker's core: a registry dispatches each Job kind to its service, once per job key.

Every job that answers a person gets a 👀 reaction and a reply comment at once; the same comment
is edited with the result, the failure, or the retry in progress. Nothing is silent.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Protocol

from core import deadline, marks
from core.errors import PermanentError, TransientError
from core.wire import CommandJob, Job, JobResult

if TYPE_CHECKING:
    from core.db import Database

log = logging.getLogger(__name__)



class GitHubReplies(Protocol):
    def react(self, repo: str, comment_id: int, content: str = "eyes") -> None: ...
    def list_issue_comments(self, repo: str, number: int) -> list[dict[str, Any]]: ...
    def comment(self, repo: str, number: int, body: str) -> int: ...
    def edit_comment(self, repo: str, comment_id: int, body: str) -> None: ...
    def create_commit_comment(self, repo: str, sha: str, body: str) -> int: ...


Handler = Callable[[Any], JobResult]  # each takes the type of job it is registered for (dispatch is by type)


class JobStatus(StrEnum):
    """A job key's state in the ledger (`jobs.status`). DONE and DEAD are final: the job is not done again."""

    RUNNING = "running"
    DONE = "done"
    FAILED = "failed"  # a permanent failure, reported
    DEAD = "dead"  # retries ran out: dead-lettered


FINAL = (JobStatus.DONE, JobStatus.DEAD)


@dataclass
class LedgerEntry:
    status: JobStatus
    attempts: int
    reply_comment_id: int | None


class JobLedger:
    """`jobs` rows: the idempotency record of every job key, and where its reply lives."""

    def __init__(self, db: Database):
        self.db = db

    def begin(self, job: Job) -> LedgerEntry:
        with self.db.tenant(job.tenant_id, register=True) as conn:
            row = conn.execute(
                "INSERT INTO jobs (tenant_id, job_key, kind, repository, status, attempts)"
                " VALUES (%(t)s, %(k)s, %(kind)s, %(r)s, %(running)s, 1)"
                " ON CONFLICT (tenant_id, job_key) DO UPDATE SET attempts = jobs.attempts + 1, updated_at = now(),"
                "   status = CASE WHEN jobs.status = ANY(%(final)s) THEN jobs.status ELSE %(running)s END"
                " RETURNING status, attempts, reply_comment_id",
                {"t": job.tenant_id, "k": job.key, "kind": job.kind, "r": job.repo, "running": JobStatus.RUNNING,
                 "final": list(FINAL)},
            ).fetchone()
        assert row is not None  # an upsert with RETURNING returns its row
        return LedgerEntry(JobStatus(row["status"]), row["attempts"], row["reply_comment_id"])

    def set_reply(self, job: Job, comment_id: int) -> None:
        self._update(job, "reply_comment_id = %s", comment_id)

    def finish(self, job: Job, status: JobStatus, text: str) -> None:
        column = "result" if status == JobStatus.DONE else "error"
        self._update(job, f"status = %s, {column} = %s", status, text)

    def _update(self, job: Job, assignments: str, *values: object) -> None:
        with self.db.tenant(job.tenant_id) as conn:
            conn.execute(
                f"UPDATE jobs SET {assignments}, updated_at = now() WHERE tenant_id = %s AND job_key = %s",
                (*values, job.tenant_id, job.key),
            )


class JobRunner:
    def __init__(
        self,
        handlers: dict[type[Job], Handler],
        ledger: JobLedger,
        github: Callable[[int], GitHubReplies],
        bot_login: str,
        *,
        max_attempts: int = 3,
        job_seconds: float = deadline.JOB_SECONDS,
        refusal: Callable[[Job], str | None] = lambda job: None,
        observe: Callable[[Job], object] = lambda job: None,
    ):
        self.handlers = handlers
        self.ledger = ledger
        self.github = github
        self.bot_login = bot_login  # whose comments carry memfix's marks
        self.max_attempts = max_attempts
        self.job_seconds = job_seconds  # each attempt's budget (core/deadline.py)
        self.refusal = refusal  # who may make memfix act: asked before anything is acknowledged or started
        self.observe = observe  # the repository's id and name, before any memory is read (renames, reused names)

    def run(self, job: Job, attempt: int = 1) -> JobResult | None:
        """Do the job once. Raises TransientError (or any unexpected error) to ask for a retry;
        on the last attempt the failure is reported on GitHub before it is raised for dead-lettering."""
        entry = self._begin(job, attempt)
        if entry.status in FINAL:
            log.info("job %s already %s; not acting twice", job.key, entry.status)
            return None
        reply_id = self._earlier_reply(job, entry)
        try:
            if (refused := self.refusal(job)) is not None:
                return self._refuse(job, reply_id, refused)
            if job.repo and job.repo_id:
                self.observe(job)
            reply_id = self._acknowledge(job, reply_id)
            with deadline.budget(self.job_seconds, "the job"):
                result = self._dispatch(job)
        except PermanentError as exc:
            self._report(job, reply_id, f"❌ {_what(job)} failed: {exc}")
            self._finish_quietly(job, JobStatus.FAILED, str(exc))
            return None
        except Exception as exc:
            self._attempt_failed(job, reply_id, attempt, exc)
            raise
        if reply_id or _thread(job):  # before the ledger says done: a crash between leaves the job to be done again
            self._report(job, reply_id, result.markdown())
        self.ledger.finish(job, JobStatus.DONE, result.summary)
        return result

    def _begin(self, job: Job, attempt: int) -> LedgerEntry:
        """The job key's ledger entry, this attempt counted; the ledger unreachable is said on the last attempt."""
        try:
            return self.ledger.begin(job)
        except Exception as exc:  # the database is away: the last attempt must still say so on GitHub
            if attempt >= self.max_attempts:
                log.exception("job %s: the ledger is unreachable on the last attempt", job.key)
                self._report(job, None, f"❌ {_what(job)} failed after {attempt} attempts: memfix's database was "
                             f"unavailable ({exc.__class__.__name__}). The job was dead-lettered; an operator can "
                             "replay it.")
            raise

    def _earlier_reply(self, job: Job, entry: LedgerEntry) -> int | None:
        """The reply an earlier attempt recorded, or posted without recording it."""
        reply_id = entry.reply_comment_id
        if reply_id is None and entry.attempts > 1 and (thread := _thread(job)):
            reply_id = self._left_reply(job, *thread)  # an attempt that died between posting its reply and recording it
        return reply_id

    def _dispatch(self, job: Job) -> JobResult:
        """The job done by the service registered for its type."""
        handler = self.handlers.get(type(job))
        if handler is None:
            raise PermanentError(f"memfix has no handler for {job.kind!r} jobs")
        return handler(job)

    def _attempt_failed(self, job: Job, reply_id: int | None, attempt: int, exc: Exception) -> None:
        """A failure worth retrying: said as a retry in progress, or on the last attempt as dead-lettered."""
        reason = str(exc) if isinstance(exc, TransientError) else f"internal error ({exc.__class__.__name__})"
        if attempt >= self.max_attempts:
            log.exception("job %s failed on its last attempt", job.key)
            self._report(
                job, reply_id, f"❌ {_what(job)} failed after {attempt} attempts: {reason}. "
                "The job was dead-lettered; an operator can replay it."
            )
            self._finish_quietly(job, JobStatus.DEAD, reason)
        else:
            log.warning("job %s attempt %d failed: %s", job.key, attempt, reason)
            if reply_id:
                self._report(job, reply_id, f"⏳ {_what(job)}: attempt {attempt} hit a temporary problem "
                             f"({reason}); retrying.")

    def _finish_quietly(self, job: Job, status: JobStatus, text: str) -> None:
        """The ledger's last word, when the database takes it: a failure here must not hide the one reported."""
        try:
            self.ledger.finish(job, status, text)
        except Exception:  # noqa: BLE001
            log.exception("job %s: could not record it as %s", job.key, status)

    def _refuse(self, job: Job, reply_id: int | None, text: str) -> JobResult:
        """A person without write access: a polite answer where one is owed, and nothing started."""
        log.info("job %s refused: %s lacks write access", job.key, getattr(job, "author", "?"))
        result = JobResult(text or "not acted on: the person lacks write access to the repository")
        self.ledger.finish(job, JobStatus.DONE, result.summary)
        if text and _thread(job):
            self._report(job, reply_id, text)
        return result

    def _acknowledge(self, job: Job, reply_id: int | None) -> int | None:
        """👀 on the command and a reply saying it is queued; both survive a redelivery."""
        thread = _thread(job)
        if thread is None or reply_id:
            return reply_id
        repo, number = thread
        gh = self.github(job.tenant_id)
        if isinstance(job, CommandJob) and job.comment_id:
            gh.react(repo, job.comment_id, "eyes")
        reply_id = gh.comment(repo, number, self._body(job, f"👀 {_what(job)} is queued; this comment "
                                                               "will show the result."))
        self.ledger.set_reply(job, reply_id)
        return reply_id

    def _left_reply(self, job: Job, repo: str, number: int) -> int | None:
        """memfix's reply to this job on the issue, found by the job's mark, when an earlier attempt posted it."""
        try:
            comments = self.github(job.tenant_id).list_issue_comments(repo, number)
        except Exception:  # noqa: BLE001 — at worst a second reply, never a lost job
            log.warning("job %s: could not look for an earlier attempt's reply", job.key, exc_info=True)
            return None
        found = marks.left(comments, marks.JOB.format(key=job.key), self.bot_login)
        if found is not None:
            self.ledger.set_reply(job, found["id"])
        return found["id"] if found else None

    def _report(self, job: Job, reply_id: int | None, text: str) -> None:
        gh = self.github(job.tenant_id)
        body = self._body(job, text)
        try:
            if job.repo is None:
                log.warning("job %s: nowhere on GitHub to report: %s", job.key, text)
            elif reply_id:
                gh.edit_comment(job.repo, reply_id, body)
            elif job.number:
                gh.comment(job.repo, job.number, body)
            elif job.commit:
                gh.create_commit_comment(job.repo, job.commit, body)
            else:
                log.warning("job %s: nowhere on GitHub to report: %s", job.key, text)
        except Exception:  # the report must not hide the original outcome
            log.exception("job %s: could not report on GitHub", job.key)

    @staticmethod
    def _body(job: Job, text: str) -> str:
        return f"{text}\n\n{marks.JOB.format(key=job.key)}"


def _thread(job: Job) -> tuple[str, int] | None:
    """Where a reply goes (repository, issue or PR): jobs a person is waiting on get one; pushes and lifecycle
    events only report failures."""
    if job.number is None or job.repo is None or job.kind in ("pr_closed", "line_comment"):
        return None  # nobody asked: what they say back, if anything, is their handler's own comment
    return job.repo, job.number


def _what(job: Job) -> str:
    if isinstance(job, CommandJob):
        return f"`/{job.command}`"
    return {"push": "Push processing", "review": "Saving the review", "issue": "AutoFix for this issue",
            "pr_closed": "Recording the PR outcome", "line_comment": "Reading the comment on a line",
            "checks": "Reading the repository's checks", "installation": "Installation update"}.get(job.kind, job.kind)
