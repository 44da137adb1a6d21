"""Jobs: what a webhook delivery becomes. They cross the queue as JSON, and each names its own key."""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass, field, fields
from typing import Any, ClassVar

from core.errors import PermanentError
from core.languages.registry import rule_like, rule_problem, rule_selector

COMMANDS = ("autofix", "refactor", "remember", "recall", "forget", "refine")


PIPELINES = ("autofix", "refactor")


class JobFormatError(ValueError):
    """A queued message is not a Job memfix understands."""


_JOB_TYPES: dict[str, type[Job]] = {}


def _split_guidance(args: str) -> tuple[str, str]:
    parts = re.split(r"(?:^|\s)--(?:\s|$)", args, maxsplit=1)
    return parts[0], (parts[1] if len(parts) > 1 else "")


def _rules_and_paths(head: str) -> tuple[tuple[str, ...], list[str]]:
    """A command's words before its guidance: the rules a person named and the paths. A word the language registry
    reads as a rule is one (`UP`, `UP,SIM`, `lint/style/useConst`, `eslint:indent`; ruff's codes in upper case, since
    `app` is a path), a word with a tool's prefix that names no rule is refused, any other word is a path."""
    rules: list[str] = []
    paths: list[str] = []
    for word in head.split():
        if (named := _rules_named(word)) is not None:
            rules += named
        else:
            paths.append(word)
    return tuple(dict.fromkeys(rules)), paths


def _rules_named(word: str) -> list[str] | None:
    """The rules a word names (`UP,SIM`), or None for a path; PermanentError for a tool's prefix naming no rule."""
    parts = [part for part in word.split(",") if part]
    found = [rule_selector(part, any_case=False) for part in parts]
    if parts and all(found):
        return [name for name in found if name]
    if bad := _misnamed(parts, found):
        raise PermanentError(f"{rule_problem(bad)}; nothing was started")
    return None


def _misnamed(parts: list[str], found: list[str | None]) -> list[str]:
    """The parts written like a tool's rule that name none."""
    return [part for part, name in zip(parts, found, strict=True) if name is None and rule_like(part)]


def _tuples(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tuples(v) for v in value)
    return value


@dataclass(frozen=True)
class Job:
    """Common fields of every job. `key` makes the work idempotent across redeliveries and replays: it is built
    only from what the webhook signature covers (the payload's own ids and times), never the delivery id."""

    kind: ClassVar[str] = ""
    tenant_id: int
    delivery_id: str
    repo: str | None  # owner/name, None for installation-wide jobs
    repo_id: int | None = None  # the repository's GitHub id: what memory is kept by (a name can change hands)

    def __init_subclass__(cls, **kwargs: Any) -> None:
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

    @property
    def commit(self) -> str | None:
        """The commit a failure is reported on when there is no issue or PR to reply on."""
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
    repo: str  # every job of this kind belongs to one repository
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

    @property
    def commit(self) -> str | None:
        return self.after or None


@dataclass(frozen=True)
class CommandJob(Job):
    """A slash command in a PR or issue comment; the worker asks GitHub whether its author may write."""

    kind: ClassVar[str] = "command"
    repo: str
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
        """`/autofix [RULES] [path] [-- guidance]` → (path, guidance); the rules named before the path are not it."""
        head, tail = _split_guidance(self.args)
        _, paths = _rules_and_paths(head)
        return (paths[0] if paths else None), (tail.strip() or None)

    @property
    def rules(self) -> tuple[str, ...]:
        """The rules a person named (`/refactor UP SIM app/`, `/autofix eslint:indent lint/style/useConst`), as their
        tools spell them."""
        head, _ = _split_guidance(self.args)
        return _rules_and_paths(head)[0]


@dataclass(frozen=True)
class ReviewJob(Job):
    """An approving review with a body: a review step whose points become insights."""

    kind: ClassVar[str] = "review"
    repo: str
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
    repo: str
    pr_number: int = 0
    merged: bool = False
    head_ref: str = ""
    head_sha: str = ""
    closed_by: str = ""
    head_repo: str = ""  # owner/name the head branch lives in: a fork's, for a fork PR
    author: str = ""  # who opened the PR

    closed_at: str = ""

    @property
    def key(self) -> str:
        return f"pr_closed:{self.repo}:{self.pr_number}:{self.head_sha}:{self.closed_at}"

    @property
    def number(self) -> int | None:
        return self.pr_number


@dataclass(frozen=True)
class LineCommentJob(Job):
    """A person's comment on a line of a memfix PR's diff: words that may be offered back as a decision, in its
    thread."""

    kind: ClassVar[str] = "line_comment"
    repo: str
    pr_number: int = 0
    comment_id: int = 0
    thread_id: int = 0  # the thread's first comment, where a reply goes (GitHub takes no reply to a reply)
    author: str = ""
    body: str = ""
    path: str = ""  # the file the comment is on
    hunk: str = ""  # the diff down to the line commented on (GitHub's `diff_hunk`, its end); "" on a whole file
    head_ref: str = ""

    @property
    def key(self) -> str:
        return f"line_comment:{self.repo}:{self.comment_id}"

    @property
    def number(self) -> int | None:
        return self.pr_number


@dataclass(frozen=True)
class ChecksJob(Job):
    """The repository's CI reported on a commit of a memfix branch: the behavioural verdict on memfix's change.
    The worker reads every check on the commit; the event only says when to look."""

    kind: ClassVar[str] = "checks"
    repo: str
    head_sha: str = ""
    branch: str = ""
    source: str = ""  # check_suite | check_run | workflow_run | status
    ident: str = ""  # the suite's, run's, workflow run's or status's id, from the signed payload
    state: str = ""  # its conclusion or state

    @property
    def key(self) -> str:
        return f"checks:{self.repo}:{self.head_sha}:{self.source}:{self.ident}:{self.state}"

    @property
    def commit(self) -> str | None:
        return self.head_sha


@dataclass(frozen=True)
class IssueJob(Job):
    """An issue labelled `memfix`: AutoFix with the issue text as guidance."""

    kind: ClassVar[str] = "issue"
    repo: str
    issue_number: int = 0
    title: str = ""
    body: str = ""
    author: str = ""
    updated_at: str = ""  # the issue's, from the signed payload: labelling it again later is a new event

    @property
    def key(self) -> str:
        return f"issue:{self.repo}:{self.issue_number}:labeled:{self.updated_at}"

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
    updated_at: str = ""  # the installation's, from the signed payload

    @property
    def key(self) -> str:
        ids = ",".join(str(i) for i, _ in sorted(self.repositories))
        return f"installation:{self.tenant_id}:{self.action}:{self.updated_at}:{ids}"


@dataclass(frozen=True)
class RepositoryJob(Job):
    """A repository was renamed or transferred: its memory follows its id to the new name."""

    kind: ClassVar[str] = "repository"
    repo: str
    action: str = ""  # renamed | transferred
    former: str = ""  # the name it had, as the payload says
    updated_at: str = ""

    @property
    def key(self) -> str:
        return f"repository:{self.repo_id}:{self.action}:{self.repo}:{self.updated_at}"


@dataclass(frozen=True)
class JobResult:
    """What a job did, in words a person reads on GitHub."""

    summary: str
    details: list[str] = field(default_factory=list)

    def markdown(self) -> str:
        return "\n".join([self.summary, *[f"- {d}" for d in self.details]])
