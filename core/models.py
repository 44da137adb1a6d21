"""Domain types. Jobs are what a webhook delivery becomes; they cross the queue as JSON."""

from __future__ import annotations

import difflib
import hashlib
import json
import re
import uuid
from dataclasses import asdict, dataclass, field, fields, replace
from datetime import UTC, date, datetime
from enum import StrEnum
from functools import cached_property
from typing import Any, ClassVar, Literal

from core.memory.sanitize import printable

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
        """`/autofix [path] [-- guidance]` → (path, guidance)."""
        head, tail = _split_guidance(self.args)
        return (head.split()[0] if head.split() else None), (tail.strip() or None)


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


# ---- memory ----

INSIGHT_TYPES = ("pain_point", "strength", "solution", "pattern", "decision")
SEVERITIES = ("blocker", "high", "medium", "low")
WORKFLOW_TYPES = ("autofix", "refactor", "review")
CATEGORIES = (
    "security", "correctness", "performance", "reliability", "maintainability", "style",
    "testing", "documentation", "dependencies", "architecture", "process",
)


class Stance(StrEnum):
    """A decision's word on a rule in a repository (`rule_decisions.stance`, core/learning/policy.py)."""

    HOLD = "hold"  # not proposed here
    ENABLE = "enable"  # proposed again; its record counts from this decision on


class PointStatus(StrEnum):
    """An action point's status (`action_points.status`)."""

    OPEN = "open"
    DONE = "done"
    DISMISSED = "dismissed"


class InsightError(ValueError):
    """An insight a person or a pipeline tried to save does not validate; the message says why."""


@dataclass(frozen=True)
class Insight:
    """Layer 2: a structured, vectorised lesson about one repository."""

    repository: str
    insight_type: str
    category: str
    title: str
    detail: str = ""
    suggestion: str = ""
    severity: str | None = None
    workflow_type: str = "review"
    workflow_id: str | None = None
    tags: tuple[str, ...] = ()
    source_ref: str | None = None
    id: int | None = None
    paired_insight_id: int | None = None
    seen_count: int = 1
    accepted_count: int = 0
    rejected_count: int = 0

    def validated(self) -> Insight:
        """The same insight with normalised values, or InsightError naming every bad field."""
        problems = []
        itype = self.insight_type.strip().lower().replace("-", "_").replace(" ", "_")
        category = self.category.strip().lower()
        severity = (self.severity or "").strip().lower() or None
        if itype not in INSIGHT_TYPES:
            problems.append(f"insight_type {self.insight_type!r} is not one of {', '.join(INSIGHT_TYPES)}")
        if category not in CATEGORIES:
            problems.append(f"category {self.category!r} is not one of {', '.join(CATEGORIES)}")
        if severity is not None and severity not in SEVERITIES:
            problems.append(f"severity {self.severity!r} is not one of {', '.join(SEVERITIES)}")
        if self.workflow_type not in WORKFLOW_TYPES:
            problems.append(f"workflow_type {self.workflow_type!r} is not one of {', '.join(WORKFLOW_TYPES)}")
        if not self.title.strip():
            problems.append("title is empty")
        if len(self.title) > 300:
            problems.append("title is longer than 300 characters")
        if not self.repository or "/" not in self.repository:
            problems.append(f"repository {self.repository!r} is not owner/name")
        if problems:
            raise InsightError("; ".join(problems))
        return replace(self, insight_type=itype, category=category, severity=severity, title=self.title.strip(),
                       tags=tuple(dict.fromkeys(t.strip().lower() for t in self.tags if t.strip())))

    @property
    def label(self) -> str:
        """`[pain_point] [Security] [high]`"""
        return f"[{self.insight_type}] [{self.category.title()}]" + (f" [{self.severity}]" if self.severity else "")

    def embedding_text(self) -> str:
        """`[pain_point] [Security] [high] SQL Injection in User Input:\\n<detail>\\nSuggestion: <suggestion>`"""
        text = f"{self.label} {self.title}:\n{self.detail}"
        return text + (f"\nSuggestion: {self.suggestion}" if self.suggestion else "")


@dataclass(frozen=True)
class MemoryEntry:
    """Layer 1: the knowledge base. Searchable, never injected into prompts automatically."""

    title: str
    content: str
    source: str = "manual"  # manual | github | import
    tags: tuple[str, ...] = ()
    repository: str | None = None
    source_ref: str | None = None
    letter_date: date | None = None
    id: int | None = None


class AttemptStatus(StrEnum):
    """What became of an attempt at a file (core/pipelines/verify.py `status_for`): an envelope's status, and a
    file's outcome in a run."""

    PROMOTED = "PROMOTED"  # verified, confident enough to publish
    RETRY = "RETRY"  # another attempt may do better
    REJECTED = "REJECTED"  # not worth another try (or the repository's CI failed on it)
    HUMAN_REVIEW = "HUMAN_REVIEW"  # attempts ran out on a plausible patch: a person decides
    UNFIXED = "UNFIXED"  # no attempt was made: a file's outcome only, never an envelope's


class Circuit(StrEnum):
    """A circuit breaker's state (core/pipelines/breaker.py), also recorded on each envelope."""

    CLOSED = "closed"
    OPEN = "open"
    HALF_OPEN = "half_open"


@dataclass(frozen=True)
class Envelope:
    """One attempt of a pipeline on a repository: what the healing ring remembers."""

    repository: str
    status: AttemptStatus  # never UNFIXED
    attempt: int = 1
    confidence: float = 0.0
    breaker_state: Circuit = Circuit.CLOSED
    run_id: str | None = None
    patch_id: str | None = None
    pipeline: str | None = None
    error_message: str | None = None
    error_hash: str | None = None
    id: str = field(default_factory=lambda: uuid.uuid4().hex)
    created_at: datetime = field(default_factory=lambda: datetime.now(UTC))
    path: str | None = None  # the file the attempt was on
    checks: dict[str, bool] | None = field(default=None, compare=False)  # the verification's named checks
    sections: dict[str, str] | None = field(default=None, compare=False, repr=False)  # what the model was given
    diff: str | None = field(default=None, compare=False, repr=False)  # the change tried, as a unified diff

    @staticmethod
    def hash_error(file: str, line: int | None, message: str) -> str:
        return hashlib.sha256(f"{file}:{line}:{message}".encode()).hexdigest()


# ---- GitHub, as the pipelines see it ----


@dataclass(frozen=True)
class PullRequest:
    number: int
    head_ref: str
    head_sha: str
    head_repo: str  # owner/name; a fork's for a fork PR, "" when that repository is gone
    base_ref: str
    merged: bool = False
    html_url: str | None = None
    draft: bool = False
    node_id: str = ""  # GraphQL's id: marking a draft ready for review has no REST endpoint
    base_sha: str = ""  # the base branch's commit the PR is compared with

    @staticmethod
    def from_api(data: dict[str, Any]) -> PullRequest:
        head, base = data.get("head") or {}, data.get("base") or {}
        return PullRequest(int(data["number"]), head.get("ref") or "", head.get("sha") or "",
                           (head.get("repo") or {}).get("full_name") or "", base.get("ref") or "",
                           bool(data.get("merged")), data.get("html_url"), bool(data.get("draft")),
                           data.get("node_id") or "", base.get("sha") or "")


@dataclass(frozen=True)
class CheckResult:
    """One check on a commit: a check run of any CI App (GitHub Actions included), or a commit status."""

    name: str
    kind: str  # check | status
    status: str  # queued | in_progress | completed
    conclusion: str | None  # GitHub's conclusion (statuses: success, failure, error); None while pending
    summary: str = ""
    url: str = ""
    app: str = ""  # a check run's App slug
    id: int = 0

    @property
    def done(self) -> bool:
        return self.status == "completed"

    @property
    def green(self) -> bool:
        return self.done and self.conclusion in ("success", "neutral", "skipped")

    @property
    def red(self) -> bool:
        return self.done and not self.green

    @staticmethod
    def from_check_run(data: dict[str, Any]) -> CheckResult:
        output = data.get("output") or {}
        summary = "\n".join(t for t in (output.get("title"), output.get("summary")) if t)
        return CheckResult(data.get("name") or "", "check", data.get("status") or "queued", data.get("conclusion"),
                           summary, data.get("details_url") or data.get("html_url") or "",
                           (data.get("app") or {}).get("slug") or "", int(data.get("id") or 0))

    @staticmethod
    def from_status(data: dict[str, Any]) -> CheckResult:
        state = data.get("state") or "pending"
        return CheckResult(data.get("context") or "", "status", "in_progress" if state == "pending" else "completed",
                           None if state == "pending" else state, data.get("description") or "",
                           data.get("target_url") or "", "", int(data.get("id") or 0))


# ---- pipelines ----

PIPELINES = ("autofix", "refactor")


class ProposalState(StrEnum):
    """A memfix PR's state (`proposals.state`)."""

    OPEN = "open"
    MERGED = "merged"
    CLOSED = "closed"  # closed unmerged


class CiState(StrEnum):
    """The repository's CI on a memfix PR (`proposals.ci_state`); a verdict on a commit is WAITING, PASSED or
    FAILED (core/pipelines/ci.py)."""

    UNKNOWN = "unknown"  # rows older than CI verdicts, and PRs closed while waiting
    WAITING = "waiting"  # a draft waits for the checks on its head commit
    PASSED = "passed"
    FAILED = "failed"
    ABSENT = "absent"  # the repository has no CI: ready for review at once
    SILENT = "silent"  # no check reported within MEMFIX_CI_WAIT_HOURS


@dataclass(frozen=True)
class Finding:
    """One problem in one file, from ruff or from the model."""

    path: str  # relative to the repository root, forward slashes
    line: int
    column: int
    code: str  # ruff rule (F401, S608, ...) or "MODEL"
    message: str
    fixable: bool = False  # ruff has a safe fix for it
    source: str = "ruff"  # ruff | model
    # ruff's safe fix as edits (row, column, end row, end column, new text), 1-based, columns in characters
    edits: tuple[tuple[int, int, int, int, str], ...] = field(default=(), compare=False, repr=False)

    def __post_init__(self) -> None:  # a tool's words are data: they may quote a NUL from the file
        object.__setattr__(self, "message", printable(self.message))

    @property
    def key(self) -> tuple[str, str]:
        """What identifies a finding across edits: lines move, code and message do not."""
        return self.code, self.message


class _Matching(difflib.SequenceMatcher[str]):
    def get_opcodes(self) -> list[tuple[Literal["replace", "delete", "insert", "equal"], int, int, int, int]]:
        return list(super().get_opcodes())  # get_grouped_opcodes edits the list it is given: keep the kept one whole


def _range(start: int, stop: int) -> str:
    """A hunk's line range as unified diffs write it (`3`, `3,2`, or `2,0` for none after line 2)."""
    length = stop - start
    return str(start + 1) if length == 1 else f"{start + (length > 0)},{length}"


@dataclass(frozen=True)
class Patch:
    """A proposed change to exactly one file."""

    path: str
    original: str
    updated: str
    findings: tuple[Finding, ...]  # the findings it targets
    origin: str  # ruff | model
    confidence: float = 1.0  # the proposer's own figure (ruff's safe fixes: 1.0)
    rationale: str = ""

    @cached_property
    def _opcodes(self) -> tuple[list[str], list[str], _Matching]:
        """The two texts' lines and their matching, found once per patch: every diff of it is drawn from them."""
        before, after = self.original.splitlines(), self.updated.splitlines()
        return before, after, _Matching(None, before, after)

    @cached_property
    def _diff(self) -> tuple[str, ...]:
        return tuple(ln for ln in self.unified_diff(context=0) if ln[:1] in "+-" and not ln.startswith(("+++", "---")))

    def changed_lines(self) -> list[str]:
        """The removed (-) and added (+) lines, computed once per patch."""
        return list(self._diff)

    def unified_diff(self, context: int = 1) -> list[str]:
        """The patch as a unified diff, hunk headers carrying the line numbers (as `difflib.unified_diff` writes
        it, from the patch's one matching)."""
        before, after, matcher = self._opcodes
        lines: list[str] = []
        for group in matcher.get_grouped_opcodes(context):
            if not lines:
                lines += [f"--- a/{self.path}", f"+++ b/{self.path}"]
            (_, i1, _, j1, _), (_, _, i2, _, j2) = group[0], group[-1]
            lines.append(f"@@ -{_range(i1, i2)} +{_range(j1, j2)} @@")
            for tag, a1, a2, b1, b2 in group:
                if tag == "equal":
                    lines += [" " + line for line in before[a1:a2]]
                    continue
                if tag in ("replace", "delete"):
                    lines += ["-" + line for line in before[a1:a2]]
                if tag in ("replace", "insert"):
                    lines += ["+" + line for line in after[b1:b2]]
        return lines

    def fingerprint(self, pipeline: str) -> str:
        """The same change to the same file for the same findings, whatever else moved in the file."""
        basis = "\n".join([pipeline, self.path, *sorted(f"{c}:{m}" for c, m in {f.key for f in self.findings}),
                           *(" ".join(ln.split()) for ln in self.changed_lines())])
        return hashlib.sha256(basis.encode()).hexdigest()[:12]


@dataclass(frozen=True)
class Verification:
    """What the scratch-directory check found; `ok` means the patch may be promoted."""

    parses: bool
    targeted_gone: bool
    new_findings: tuple[Finding, ...] = ()
    single_file: bool = True
    proportionate: bool = True
    changed_lines: int = 0
    error: str | None = None  # the first problem, in words (also the envelope's error message)
    compatible: bool = True  # valid for the project's oldest supported Python (syntax and runtime annotations)
    surface: bool = True  # the public surface and dynamic uses survive (core/languages/python/surface.py)
    comments: bool = True  # no comment lost or left away from its code (core/languages/python/comments.py)
    failed_codes: frozenset[str] = frozenset()  # the rules it blames: targeted findings left, findings made

    @property
    def ok(self) -> bool:
        return (self.parses and self.targeted_gone and not self.new_findings and self.single_file
                and self.proportionate and self.compatible and self.surface and self.comments)

    def checks(self) -> dict[str, bool]:
        """Every named check: lint depth, then project depth (PR body, `--json`, the dashboard)."""
        return {"parses": self.parses, "targeted_gone": self.targeted_gone, "no_new_findings": not self.new_findings,
                "single_file": self.single_file, "proportionate": self.proportionate, "oldest_python": self.compatible,
                "public_surface": self.surface, "comments_kept": self.comments}
