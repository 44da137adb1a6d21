"""Who may make memfix act: GitHub's own word on a person's permission, never `author_association` alone.

A command, an approving review that becomes memory, a comment on a line of memfix's PR that may be offered back
as a decision, or a `memfix` label starts work (and model spend) only when GitHub's collaborator-permission
endpoint says the person has write, maintain or admin on that repository.
Answers are cached for a few minutes per installation, person and repository.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Protocol

from core.wire import CommandJob, IssueJob, Job, LineCommentJob, ReviewJob

WRITE_ROLES = frozenset({"admin", "maintain", "write"})
CACHE_SECONDS = 300.0


class PermissionSource(Protocol):
    def user_permission(self, repo: str, username: str) -> str: ...


class Permissions:
    """`can_write(tenant, repo, user)`, asked of GitHub at most once per `ttl` seconds for each triple."""

    def __init__(self, github: Callable[[int], PermissionSource], *, ttl: float = CACHE_SECONDS,
                 clock: Callable[[], float] = time.monotonic):
        self.github, self.ttl, self.clock = github, ttl, clock
        self._cache: dict[tuple[int, str, str], tuple[float, str]] = {}
        self._lock = threading.Lock()

    def role(self, tenant_id: int, repo: str, user: str) -> str:
        key = (tenant_id, repo.lower(), user.lower())
        with self._lock:
            hit = self._cache.get(key)
            if hit and self.clock() - hit[0] < self.ttl:
                return hit[1]
        role = self.github(tenant_id).user_permission(repo, user) if user else "none"
        with self._lock:
            self._cache[key] = (self.clock(), role)
        return role

    def can_write(self, tenant_id: int, repo: str, user: str) -> bool:
        return self.role(tenant_id, repo, user) in WRITE_ROLES

    def refusal(self, job: Job) -> str | None:
        """None when the person behind the job may make memfix act; else the polite answer (may be empty:
        an approving review or a line comment from a reader is simply not memory, and nobody asked memfix anything)."""
        if isinstance(job, CommandJob):
            who, what = job.author, f"`/{job.command}`"
        elif isinstance(job, IssueJob):
            who, what = job.author, "the `memfix` label"
        elif isinstance(job, ReviewJob | LineCommentJob):
            who, what = job.author, ""
        else:
            return None
        if job.repo and self.can_write(job.tenant_id, job.repo, who):
            return None
        if not what:
            return ""
        return (f"Sorry @{who}, memfix acts on {what} only for people with write access to this repository "
                "(write, maintain or admin). Nothing was run.")
