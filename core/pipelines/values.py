"""The run's values: what a run is asked to do (RunRequest), what it knows while it runs (RunContext, built once),
its limits, each file's outcome and what it reports. The runner, presentation, prompts and the run log read these;
none of them imports the runner."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from core import deadline
from core.change import Finding, Patch, Verification
from core.languages.adapter import Linter, Project, Selection
from core.languages.python.surface import RepositoryView
from core.languages.registry import NAMES
from core.learning.places import Places
from core.learning.policy import RepoPolicy
from core.learning.record import PROMOTE_THRESHOLD, Record
from core.memory.types import AttemptStatus
from core.pipelines.config import RepoConfig

if TYPE_CHECKING:
    from core.llm.base import LLM
    from core.memory.context import PromptSections
    from core.pipelines.publish import Published
    from core.pipelines.runs import Run
    from core.pipelines.workspace import LocalWorkspace


@dataclass
class RunRequest:
    tenant_id: int
    repo: str
    pipeline: str  # autofix | refactor
    trigger: str  # push | command | issue | local
    job_key: str | None = None
    head_sha: str | None = None
    base_branch: str | None = None  # where PRs go; None: don't publish
    guidance: str | None = None
    issue_number: int | None = None
    linked_ids: list[int] = field(default_factory=list)
    language: str = NAMES[0]  # which files the run scans and which linter fixes them (core/languages/registry.py)
    rules: tuple[str, ...] = ()  # rules a person named for this run (`/refactor UP SIM`, `--rules`): they decide
    waiting: frozenset[str] = frozenset()  # files back from lifted holds: remembered, so they yield the PR cap


@dataclass
class FileOutcome:
    path: str
    findings: list[Finding]
    patch: Patch | None = None
    status: AttemptStatus = AttemptStatus.UNFIXED
    confidence: float = 0.0
    verification: Verification | None = None
    attempts: int = 0
    note: str = ""
    published: Published | None = None
    why: str = ""  # how the confidence was reached

    @property
    def codes(self) -> tuple[str, ...]:
        """The rules its patch fixes (each once, in order)."""
        return tuple(dict.fromkeys(f.code for f in self.patch.findings)) if self.patch else ()


@dataclass
class RunReport:
    run_id: int
    repo: str
    pipeline: str
    provider: str
    model: str | None
    files_scanned: int = 0
    findings: list[Finding] = field(default_factory=list)
    outcomes: list[FileOutcome] = field(default_factory=list)
    learnings: list[Any] = field(default_factory=list)  # SearchHits injected
    learned: int = 0
    prompt_tokens: int = 0
    config_problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    target: str = ""  # the Python the fixes are valid for, and where that was read
    threshold: float = PROMOTE_THRESHOLD
    project: list[str] = field(default_factory=list)  # target, held-back rules, the team's ruff decisions
    used: list[str] = field(default_factory=list)  # what memory changed in this run: holds, order, vetoes
    remembered: list[str] = field(default_factory=list)  # what earlier runs left, and what this run added to it
    rules: Selection | None = None  # the rules proposed, and which configuration chose them
    injected: bool = False  # a model was given the learnings
    held: tuple[str, ...] = ()  # rules the learned policy held back, and where when not everywhere (`F401 in tests`)
    back: str = ""  # files in the run again because the holds that held them back lifted, in words
    later: str = ""  # files left for a later run: the CI's reds put their rule in doubt (one PR of it a run), in words
    records: dict[str, Record] = field(default_factory=dict)  # each rule's record in this repository
    contexts: dict[str, dict[str, Record]] = field(default_factory=dict)  # and in each kind of place and folder
    seconds: dict[str, float] = field(default_factory=dict)  # wall time of each step: scan, fix and verify, learn
    language: str = NAMES[0]
    exploring: str | None = None  # a held rule this run tried again on purpose, in one file
    explored: str | None = None  # that file
    suggested: bool = False  # the explored kind is memfix's own suggestion, not a hold tried again
    failed: str = ""  # why this language's run stopped before its end (the other languages' runs went on)

    @property
    def promoted(self) -> list[FileOutcome]:
        return [o for o in self.outcomes if o.status == AttemptStatus.PROMOTED]

    @property
    def prs(self) -> list[FileOutcome]:
        return [o for o in self.outcomes if o.published and o.published.pr_number]


Progress = Callable[[str, int, int], None]  # (what, done, total)


@dataclass(frozen=True)
class Limits:
    """How far a run goes: model attempts per file and the wait between them, the prompt's size, how many files a
    model works on, the installation's PR cap (a repository's configuration may ask for fewer), and the confidence
    a fix needs to be published."""

    max_attempts: int = 3
    backoff_seconds: float = 1.0
    prompt_token_budget: int = 12_000
    max_files_for_model: int = 10
    max_prs_cap: int = 3
    promote_threshold: float = PROMOTE_THRESHOLD


@dataclass(frozen=True)
class Try:
    """One attempt at a file: its number, whether no other follows, and the memory its prompt was shown."""

    number: int
    last: bool = False
    sections: PromptSections | None = None


class Reading:
    """The whole repository, read once per run in a thread: begun as the run starts when there are files to scan
    (ruff's scan waits on a subprocess meanwhile), else when a check first needs it."""

    def __init__(self, pool: ThreadPoolExecutor, workspace: LocalWorkspace, *, now: bool):
        self._pool, self._workspace = pool, workspace
        self._future: Future[RepositoryView] | None = \
            pool.submit(deadline.carried(workspace.repository_view)) if now else None

    def view(self) -> RepositoryView:
        if self._future is None:
            self._future = self._pool.submit(deadline.carried(self._workspace.repository_view))
        return self._future.result()

    def incomplete(self) -> str | None:
        """Why the view a check read is incomplete, or None (also when no check needed it)."""
        if self._future is None or not self._future.done() or self._future.exception() is not None:
            return None
        view = self._future.result()
        return None if view.complete else view.reason


@dataclass(frozen=True)
class RunContext:
    """What one run knows, built once as it starts and handed to each of its steps: the runner keeps no run's
    state, so one runner serves every run of a process, side by side."""

    request: RunRequest
    workspace: LocalWorkspace
    config: RepoConfig
    project: Project  # the run's language's reading of the repository
    selection: Selection  # the rules this run proposes, and who chose them
    plan: RepoPolicy  # the learned policy for the run's repository and pipeline
    llm: LLM  # the installation's model, or the one the repository's configuration names
    linter: Linter  # with the project's decisions and the rules held everywhere left out
    repository: Reading
    run: Run
    report: RunReport
    places: Places  # each file's kind of place, for holds with a scope
    scanned: dict[str, list[Finding]] = field(default_factory=dict)  # each file's findings, held rules' too
    previous: Callable[[str], str | None] | None = None  # a push's run: each file at the push's base

    @property
    def scoped(self) -> bool:
        """A push's run: only what the push brought is fixed, with the linter's own edits and nothing more."""
        return self.previous is not None

    @property
    def select(self) -> tuple[str, ...]:
        return self.selection.rules

    def held_for(self, path: str) -> tuple[str, ...]:
        """The rules held back in this file (its kind of place is read only when a hold depends on it)."""
        return self.plan.held_for(path, self.places.of(path)) if self.plan.scoped else self.plan.held

    def linter_for(self, held: tuple[str, ...]) -> Linter:
        """The run's linter, without these held rules too (a rule held in some files is fixed in the others)."""
        return self.linter if held == self.plan.held else self.project.linter(held)

    @property
    def memory_key(self) -> tuple[int, str, str]:
        return self.request.tenant_id, self.request.repo, self.request.pipeline
