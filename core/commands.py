"""What each job kind does. Later capabilities register their services here, by command name."""

from __future__ import annotations

from collections.abc import Callable

from core.models import (
    CommandJob,
    IssueJob,
    Job,
    JobResult,
    PullRequestClosedJob,
    PushJob,
    RefusalJob,
    ReviewJob,
)

CommandService = Callable[[CommandJob], JobResult]

_PENDING = {
    "autofix": "the AutoFix pipeline",
    "refactor": "the Refactor pipeline",
    "refine": "refinement of memfix PRs",
}


def not_in_this_build(what: str, job: Job) -> JobResult:
    """Honest answer for a capability whose service is not registered in this build."""
    return JobResult(
        f"memfix received this, but {what} is not part of this build yet, so nothing was changed.",
        [f"job `{job.key}`"],
    )


class Commands:
    def __init__(self, services: dict[str, CommandService] | None = None):
        self.services = dict(services or {})

    def handle(self, job: CommandJob) -> JobResult:
        service = self.services.get(job.command)
        if service is None:
            result = not_in_this_build(_PENDING.get(job.command, f"`/{job.command}`"), job)
            path, guidance = job.path_and_guidance
            details = [f"command `/{job.command}` from @{job.author} on #{job.issue_number}"]
            if path:
                details.append(f"path: `{path}`")
            if guidance:
                details.append("guidance received (treated as data, not instructions)")
            return JobResult(result.summary, details + result.details)
        return service(job)


def refuse(job: RefusalJob) -> JobResult:
    return JobResult(
        f"Sorry @{job.author}, memfix only takes `/{job.command}` from people with write access to this "
        "repository (owners, members and collaborators). Nothing was run."
    )


def acknowledge(job: PushJob | ReviewJob | PullRequestClosedJob | IssueJob) -> JobResult:
    what = {
        "push": "letter sync and AutoFix on push",
        "review": "saving review points as insights",
        "pr_closed": "outcome feedback",
        "issue": "AutoFix from issues",
    }[job.kind]
    return not_in_this_build(what, job)
