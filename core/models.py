"""Domain types. Jobs are what a webhook delivery becomes; they cross the queue as JSON."""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass, field, fields
from typing import Any, ClassVar

COMMANDS = ("autofix", "refactor", "remember", "recall", "forget", "refine")


class JobFormatError(ValueError):
    """A queued message is not a Job memfix understands."""


_JOB_TYPES: dict[str, type[Job]] = {}


def _split_guidance(args: str) -> tuple[str, str]:
    parts = re.split(r"(?:^|\s)--(?:\s|$)", args, maxsplit=1)
    return parts[0], (parts[1] if len(parts) > 1 else "")


def _tuples(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tuples(v) for v in value)
    return value


@dataclass(frozen=True)
class Job:
    """Common fields of every job. `key` makes the work idempotent across redeliveries."""

    kind: ClassVar[str] = ""
    tenant_id: int
    delivery_id: str
    repo: str | None  # owner/name, None for installation-wide jobs

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if cls.kind:
            _JOB_TYPES[cls.kind] = cls

    @property
    def key(self) -> str:
        raise NotImplementedError

    @property
    def number(self) -> int | None:
        """The issue or PR a reply belongs on, if any."""
        return None

    def to_json(self) -> str:
        return json.dumps({"kind": self.kind, **asdict(self)}, separators=(",", ":"))

    @staticmethod
    def from_json(text: str | bytes) -> Job:
        try:
            data = json.loads(text)
            cls = _JOB_TYPES[data.pop("kind")]
            names = {f.name for f in fields(cls)}
            return cls(**{k: _tuples(v) for k, v in data.items() if k in names})
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise JobFormatError(f"not a memfix job: {exc}") from exc


@dataclass(frozen=True)
class PushJob(Job):
    kind: ClassVar[str] = "push"
    default_branch: str = "main"
    before: str = ""
    after: str = ""
    pusher: str = ""
    added: tuple[str, ...] = ()
    modified: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()

    @property
    def key(self) -> str:
        return f"push:{self.repo}:{self.after}"


@dataclass(frozen=True)
class CommandJob(Job):
    """A slash command in a PR or issue comment, from a user with write access."""

    kind: ClassVar[str] = "command"
    command: str = ""
    args: str = ""
    issue_number: int = 0
    is_pull_request: bool = False
    comment_id: int = 0
    author: str = ""

    @property
    def key(self) -> str:
        return f"command:{self.repo}:{self.comment_id}"

    @property
    def number(self) -> int | None:
        return self.issue_number

    @property
    def path_and_guidance(self) -> tuple[str | None, str | None]:
        """`/autofix [path] [-- guidance]` → (path, guidance)."""
        head, tail = _split_guidance(self.args)
        return (head.split()[0] if head.split() else None), (tail.strip() or None)


@dataclass(frozen=True)
class RefusalJob(Job):
    """A command from someone without write access: they still get a polite answer."""

    kind: ClassVar[str] = "refusal"
    command: str = ""
    issue_number: int = 0
    comment_id: int = 0
    author: str = ""
    association: str = ""

    @property
    def key(self) -> str:
        return f"refusal:{self.repo}:{self.comment_id}"

    @property
    def number(self) -> int | None:
        return self.issue_number


@dataclass(frozen=True)
class ReviewJob(Job):
    """An approving review with a body: a review step whose points become insights."""

    kind: ClassVar[str] = "review"
    pr_number: int = 0
    review_id: int = 0
    author: str = ""
    body: str = ""
    head_ref: str = ""

    @property
    def key(self) -> str:
        return f"review:{self.repo}:{self.review_id}"

    @property
    def number(self) -> int | None:
        return self.pr_number


@dataclass(frozen=True)
class PullRequestClosedJob(Job):
    """A memfix PR was merged or closed: outcome feedback for memory."""

    kind: ClassVar[str] = "pr_closed"
    pr_number: int = 0
    merged: bool = False
    head_ref: str = ""
    head_sha: str = ""
    closed_by: str = ""

    @property
    def key(self) -> str:
        return f"pr_closed:{self.repo}:{self.pr_number}:{self.head_sha}"

    @property
    def number(self) -> int | None:
        return self.pr_number


@dataclass(frozen=True)
class IssueJob(Job):
    """An issue labelled `memfix`: AutoFix with the issue text as guidance."""

    kind: ClassVar[str] = "issue"
    issue_number: int = 0
    title: str = ""
    body: str = ""
    author: str = ""

    @property
    def key(self) -> str:
        return f"issue:{self.repo}:{self.issue_number}:{self.delivery_id}"

    @property
    def number(self) -> int | None:
        return self.issue_number


@dataclass(frozen=True)
class InstallationJob(Job):
    """App installed/uninstalled, or repositories added/removed: the tenant's lifecycle."""

    kind: ClassVar[str] = "installation"
    action: str = ""  # created | deleted | added | removed
    account: str = ""
    repositories: tuple[tuple[int, str], ...] = ()  # (repository id, owner/name)

    @property
    def key(self) -> str:
        return f"installation:{self.tenant_id}:{self.action}:{self.delivery_id}"


@dataclass(frozen=True)
class JobResult:
    """What a job did, in words a person reads on GitHub."""

    summary: str
    details: list[str] = field(default_factory=list)

    def markdown(self) -> str:
        return "\n".join([self.summary, *[f"- {d}" for d in self.details]])
