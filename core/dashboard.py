"""What the dashboard shows, read for one installation at a time through the owners of its tables (each reads under
row-level security), and the curation it offers, done through the same services as the comment commands and recorded
in `curations`. No SQL here: a page is composed of what the owners return."""

from __future__ import annotations

import re
import statistics
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from core.languages.registry import EVERY_RULE, rule_shown
from core.learning.explore import EXPLORE_DAYS
from core.learning.places import words
from core.learning.policy import LEARNED
from core.memory.proposals import CiRecord, ProposalCounts
from core.memory.types import CATEGORIES, INSIGHT_TYPES, SEVERITIES
from core.wire import CommandJob, JobResult

if TYPE_CHECKING:
    from core.curations import Curation, Curations
    from core.learning.learning import Learning
    from core.learning.policy import Evidence, Hold
    from core.learning.record import Record
    from core.memory.entries import Entries
    from core.memory.insights import ActionPoint, Insights, ListedInsight
    from core.memory.proposals import Proposals
    from core.memory.review import ReviewSteps
    from core.memory.ring import HealingLog, RingRate
    from core.memory.types import Envelope, MemoryEntry
    from core.pipelines.breaker import Breakers, PipelineBreaker
    from core.pipelines.runs import RuleChoice, RunLog, RunRecord
    from core.tenants import Tenants

PAGE = 50  # rows per list: a page renders the same with 10 insights or 10,000
RECENT = 10  # the installation page's latest runs and insights
TIMED_SEARCHES = 5  # the health page's searches, one per newest insight title


@dataclass(frozen=True)
class Week:
    week: str
    runs: int = 0
    opened: int = 0
    merged: int = 0
    closed: int = 0
    ci_failed: int = 0

    @property
    def acceptance(self) -> float | None:
        return self.merged / self.opened if self.opened else None


@dataclass(frozen=True)
class RuleStanding:
    """A rule in one repository: its record from memfix's PRs there and in each kind of place they changed, and the
    holds in force, each with where it applies."""

    code: str
    record: Record | None
    holds: list[Hold]
    places: list[str]  # its record in each kind of place, in words
    waiting: int = 0  # files its holds left findings in, proposed when they lift

    @property
    def shown(self) -> str:
        """The rule with its tool where its code does not say it (`biome:lint/style/useConst`)."""
        return rule_shown(self.code)


@dataclass(frozen=True)
class HoldExplained:
    """A hold in force as the repository page explains it: the numbers behind it, what chance gives, who decided,
    and when exploration may try it again."""

    hold: Hold
    records: list[str]  # the rule's record where held, in the whole repository, and the place's of every rule
    chance: str  # the rate chance gives that record, in words
    retry_at: datetime | None  # a learned hold's next try; None: a person's hold, which only a person lifts

    @classmethod
    def of(cls, hold: Hold, evidence: Evidence) -> HoldExplained:
        """`evidence`: of the hold's pipeline for a learned hold (what it was decided on), of every one for a
        person's."""
        code, scope = hold.code, hold.scope
        here = evidence.record(code, scope)
        if code == EVERY_RULE:
            records = [f"every rule: {here.describe(words(scope))}"]
            chance = evidence.chance(code, scope)
            said = f"reviewers close {chance.closes:.0%} of memfix's PRs elsewhere in this repository"
        else:
            shown, chance = rule_shown(code), evidence.chance(code)
            records = [f"{shown}: {here.describe(words(scope))}"]
            if scope is not None:
                records += [f"{shown}: {evidence.record(code).describe()}",
                            f"every rule: {evidence.record(EVERY_RULE, scope).describe(words(scope))}"]
            said = f"reviewers close {chance.closes:.0%} of memfix's PRs of other rules here"
            said += f"; CI fails on {chance.reds:.0%} of them" if here.ci_failed else ""
        return cls(hold, records, said, hold.retry_at(evidence))

    @property
    def rule(self) -> str:
        return "every rule" if self.hold.code == EVERY_RULE else rule_shown(self.hold.code)

    @property
    def decided_by(self) -> str:
        return "learned" if self.hold.by == LEARNED else f"@{self.hold.by}"

    @property
    def due(self) -> bool:
        """Whether exploration may try it in the next run (one exploratory PR a repository per EXPLORE_DAYS)."""
        return self.retry_at is not None and self.retry_at <= datetime.now(UTC)

    @property
    def lifted_by_enable(self) -> bool:
        """Whether a decision can name its place (one without spaces): else the lift forgets the hold's decision."""
        return not re.search(r"\s", self.hold.scope or "")


@dataclass(frozen=True)
class InstallationView:
    id: int
    repositories: list[str]
    weeks: list[Week]
    breakers: list[PipelineBreaker]
    action_points: list[ActionPoint]
    totals: Week
    runs: list[RunRecord] = field(default_factory=list)  # the latest, newest first
    learned: list[ListedInsight] = field(default_factory=list)  # the insights most recently saved or reinforced


@dataclass(frozen=True)
class RepositoryView:
    installation: int
    repo: str
    runs: list[RunRecord]
    rules: list[RuleStanding]
    insights: list[ListedInsight]
    searched: bool
    letters: list[MemoryEntry]
    envelopes: list[Envelope]
    filters: dict[str, str] = field(default_factory=dict)
    in_force: dict[str, RuleChoice] = field(default_factory=dict)  # pipeline → its latest run's rules
    ci: CiRecord = CiRecord(0, 0)  # what memfix's re-runs of failed checks on its commits found, lately
    holds: list[HoldExplained] = field(default_factory=list)  # each hold in force, explained
    explore_days: int = EXPLORE_DAYS  # at most one exploratory PR per repository in so many days


@dataclass(frozen=True)
class RunView:
    installation: int
    run: RunRecord
    files: dict[str, list[Envelope]]  # path → attempts in order


@dataclass(frozen=True)
class HealthView:
    installation: int
    ring: list[RingRate]
    search_ms: dict[str, float]
    unembedded: int
    embedder: str | None


@dataclass(frozen=True)
class Owners:
    """The owners of the tables the pages read: each table's SQL lives with its owner, never here."""

    tenants: Tenants  # repositories
    runs: RunLog
    proposals: Proposals
    breakers: Breakers
    healing: HealingLog  # healing_envelopes, ring_reads
    insights: Insights  # workflow_insights, action_points
    entries: Entries  # memory_entries
    curations: Curations


class Dashboard:
    def __init__(self, owners: Owners, learning: Learning, commands: Callable[[CommandJob], JobResult],
                 memory: ReviewSteps):
        self.owners, self.learning = owners, learning
        self.commands = commands  # the comment commands' own path: curation is a command by another door
        self.memory = memory  # the memory commands' service, for what has no comment command (an insight's edit)

    # ---- pages ----

    def repositories(self, tenant: int, visible: Callable[[str], bool]) -> list[str]:
        """Every repository the installation has memory of that `visible` lets this person see, by name."""
        o = self.owners
        names = {*o.tenants.repositories(tenant, removed=True), *o.runs.repositories(tenant),
                 *o.proposals.repositories(tenant), *o.insights.repositories(tenant)}
        return [n for n in sorted(names) if visible(n)]

    def installation(self, tenant: int, visible: Callable[[str], bool]) -> InstallationView:
        o = self.owners
        repos = self.repositories(tenant, visible)
        runs, prs = o.runs.weekly(tenant, repos), o.proposals.weekly(tenant, repos)
        weeks = [Week(w, runs.get(w, 0), **asdict(prs.get(w, ProposalCounts()))) for w in sorted({*runs, *prs})]
        totals = Week("all", *(sum(getattr(w, f) for w in weeks) for f in ("runs", "opened", "merged", "closed",
                                                                            "ci_failed")))
        return InstallationView(tenant, repos, weeks, o.breakers.tripped(tenant, repos),
                                o.insights.open_action_points(tenant, repos, PAGE), totals,
                                o.runs.latest(tenant, repos, RECENT), o.insights.listing(tenant, repos, limit=RECENT))

    def repository(self, tenant: int, repo: str, filters: dict[str, str], query: str = "") -> RepositoryView:
        o = self.owners
        filters = {k: v for k, v in filters.items() if v in {"type": INSIGHT_TYPES, "severity": SEVERITIES,
                                                              "category": CATEGORIES}.get(k, ())}
        evidence, holds = self.learning.evidence(tenant, repo), self.learning.holds(tenant, repo)
        waiting = self.learning.waiting(tenant, repo)
        rules = [RuleStanding(c, evidence.records.get(c), [h for h in holds if h.code == c],
                              [r.describe(words(s)) for s, r in sorted(evidence.kinds(c).items())], waiting.get(c, 0))
                 for c in sorted({*evidence.records, *(h.code for h in holds)})]
        explained = self._holds_explained(tenant, repo, holds, evidence)
        searched = bool(query.strip())
        insights = self._insights(tenant, repo, filters, query if searched else None)
        return RepositoryView(tenant, repo, o.runs.latest(tenant, [repo], PAGE), rules, insights, searched,
                              o.entries.newest(tenant, repo, PAGE), o.healing.stored(tenant, repo, PAGE), filters,
                              o.runs.rules_in_force(tenant, repo), o.proposals.ci_record(tenant, repo), explained)

    def _holds_explained(self, tenant: int, repo: str, holds: list[Hold], evidence: Evidence) -> list[HoldExplained]:
        """Each hold with the evidence it stands on: a learned hold's pipeline's, else the repository's."""
        pipelines = {p: self.learning.evidence(tenant, repo, p)
                     for p in sorted({h.pipeline for h in holds if h.by == LEARNED and h.pipeline})}
        return [HoldExplained.of(h, pipelines[h.pipeline] if h.by == LEARNED and h.pipeline else evidence)
                for h in holds]

    def _insights(self, tenant: int, repo: str, filters: dict[str, str], query: str | None) -> list[ListedInsight]:
        """The repository's insights: those a search finds, or the newest, as the filters narrow them."""
        if query is not None:
            return self.owners.insights.found(tenant, query, repository=repo, insight_type=filters.get("type"),
                                              k=PAGE)
        return self.owners.insights.listing(tenant, [repo], insight_type=filters.get("type"),
                                            severity=filters.get("severity"), category=filters.get("category"),
                                            limit=PAGE)

    def run(self, tenant: int, run_id: int) -> RunView | None:
        run = self.owners.runs.get(tenant, run_id)
        if run is None:
            return None
        files: dict[str, list[Envelope]] = {}
        for attempt in self.owners.healing.of_run(tenant, run_id):
            files.setdefault(attempt.path or "(no file)", []).append(attempt)
        return RunView(tenant, run, files)

    def health(self, tenant: int, repos: list[str]) -> HealthView:
        insights = self.owners.insights
        ring = self.owners.healing.ring_rates(tenant, repos)
        unembedded = insights.unembedded(tenant, repos)
        titles = insights.titles(tenant, repos, TIMED_SEARCHES) or ["error handling"]
        timings = []
        for title in titles:  # measured now, through the same search the pipelines use
            start = time.perf_counter()
            insights.search(tenant, title, k=10)
            timings.append((time.perf_counter() - start) * 1000)
        return HealthView(tenant, ring, {"p50": statistics.median(timings), "max": max(timings),
                                         "samples": len(timings)}, unembedded, insights.embedder.model)

    # ---- curation: a command by another door, and recorded ----

    def curate(self, tenant: int, repo: str, actor: str, command: str, args: str) -> JobResult:
        job = CommandJob(tenant_id=tenant, delivery_id="dashboard", repo=repo, command=command, args=args,
                         author=actor, issue_number=0, comment_id=0)
        result = self.commands(job)
        self.owners.curations.record(tenant, repo, actor, command, args)
        return result

    def edit(self, tenant: int, repo: str, actor: str, insight_id: int, *, title: str, detail: str,
             suggestion: str) -> JobResult:
        """A person's correction of an insight, through the memory commands' service, recorded."""
        result = self.memory.edit(tenant, repo, insight_id, title=title, detail=detail, suggestion=suggestion)
        self.owners.curations.record(tenant, repo, actor, "edit", f"insight:{insight_id}")
        return result

    def reembed(self, tenant: int, actor: str) -> int:
        done = self.owners.insights.reembed(tenant)
        self.owners.curations.record(tenant, None, actor, "reembed", f"{done} insight(s)")
        return done

    def curations(self, tenant: int, repo: str) -> list[Curation]:
        return self.owners.curations.of_repository(tenant, repo, PAGE)

    def run_installation(self, run_id: int, tenants: list[int]) -> int | None:
        """Which of these installations a run belongs to (each asked under its own row-level security)."""
        return next((t for t in tenants if self.owners.runs.get(t, run_id) is not None), None)
