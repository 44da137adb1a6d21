"""The learned policy: per repository, pipeline and rule, what reviewers and CI did with memfix's fixes, and the
rules memfix holds back because of it.

Evidence comes from memfix's own PRs (the `proposals` table): merged, closed unmerged (and by whom), CI failed,
CI passed, `/refine` asked. A PR fixes one file and may fix several rules; a bad outcome is blamed on the rules in
it that have never been merged in this repository (all of them when each has been merged), so a rule reviewers
keep taking is not held back for sharing a file with one they keep closing.

The estimate of acceptance is the mean of a Beta(1 + merged, 1 + closed + CI failed) posterior (`Record`). A rule
is held back — not proposed in that repository — when
- none of its fixes was merged and reviewers closed two of its PRs, or CI failed on one; or
- at least three bad outcomes leave the estimate below 0.25.
A decision on a rule is a row of `rule_decisions` (what the policy reads) with a `decision` insight as its record
(`/recall` shows it; `/forget` of it deletes the row too). A person's decision applies to every pipeline, a learned
hold to its own. A person re-enables a rule with `/forget insight:N`, `/remember decision enable F401` or
`always_propose: [F401]` in `.github/memfix.yml`, and holds one back with `/remember decision hold F401`; a re-enabled
rule's record starts afresh. New evidence (another outcome of that rule) decides again: a learned hold the evidence no
longer supports is lifted, and a rule a person re-enabled is held again only by new evidence.
Rules with a better record are proposed first within `max_prs`. A hold learned in one repository is offered to the
installation's other repositories as an action point, never applied there.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING

from core.models import Insight, PointStatus, ProposalState, Stance, rule_code
from core.pipelines.confidence import RISK, Record, risk_of
from core.pipelines.explore import EXPLORE_DAYS, explore
from core.pipelines.proposals import Proposals
from core.pipelines.verify import PROMOTE_THRESHOLD

if TYPE_CHECKING:
    from core.db import Connection, Database
    from core.memory.insights import Insights, SaveResult
    from core.pipelines.proposals import Proposal, ProposalOutcome

MIN_CLOSED, MIN_BAD, LOW_ESTIMATE = 2, 3, 0.25
LEARNED = "learned"  # who decided a hold the evidence made


@dataclass(frozen=True)
class Decision:
    """A decision on one rule, as `rule_decisions` keeps it: who took it (a login, or LEARNED), why, and the pipeline
    it is for (None: every pipeline, as a person's word is)."""

    rule: str
    stance: Stance
    by: str
    reason: str = ""
    pipeline: str | None = None


_ENABLED = """
SELECT rule, created_at FROM rule_decisions WHERE repository = %(r)s AND stance = %(enable)s ORDER BY created_at, id
"""
_HOLDS = """
SELECT rule, reason, insight_id, decided_by, created_at < now() - make_interval(secs => %(ripe)s) AS ripe
FROM rule_decisions
WHERE repository = %(r)s AND stance = %(hold)s AND (%(p)s::text IS NULL OR pipeline IS NULL OR pipeline = %(p)s::text)
ORDER BY insight_id
"""
_DECIDE = """
INSERT INTO rule_decisions (tenant_id, repository, rule, stance, pipeline, decided_by, reason, insight_id)
VALUES (%(t)s, %(r)s, %(rule)s, %(stance)s, %(p)s, %(by)s, %(reason)s, %(i)s)
"""
# The hold's record goes, and its row with it.
_LIFT = """
DELETE FROM workflow_insights WHERE id IN (
  SELECT insight_id FROM rule_decisions WHERE repository = %(r)s AND stance = %(hold)s AND rule = %(rule)s)
RETURNING id
"""
_OFFER = """
INSERT INTO action_points (tenant_id, source_insight_id, source_repository, target_repository, similarity)
SELECT %(t)s, %(i)s, %(r)s, name, 1.0 FROM (
  SELECT full_name AS name FROM repositories UNION SELECT repository FROM proposals) AS others
WHERE name <> %(r)s ON CONFLICT (source_insight_id, target_repository) DO NOTHING
"""
_SUGGESTED = """
SELECT a.id, d.rule FROM action_points AS a
JOIN rule_decisions AS d ON d.tenant_id = a.tenant_id AND d.insight_id = a.source_insight_id
WHERE a.target_repository = %(r)s AND a.status = %(open)s AND d.stance = %(hold)s ORDER BY a.id, d.id
"""


def hold_reason(code: str, record: Record, threshold: float = PROMOTE_THRESHOLD) -> str | None:
    """Why the evidence says `code` should not be proposed here, or None. One mechanism: a record that keeps every
    verified fix of the rule under the promotion threshold is a hold too, stored and shown like the others (a rule
    of high risk waits for a person whatever its record: that is no hold)."""
    risk = RISK[risk_of(code)]
    if not record.merged and record.closed >= MIN_CLOSED:
        return f"reviewers closed {record.closed} of its PRs and merged none"
    if not record.merged and record.ci_failed:
        return f"the repository's CI failed on {record.ci_failed} of its fixes and none was merged"
    if record.bad >= MIN_BAD and record.posterior < LOW_ESTIMATE:
        return f"its acceptance estimate is {record.posterior:.2f} ({record.describe()})"
    if risk >= threshold > risk * record.factor:
        return (f"its record here ({record.describe()}) brings a verified fix's confidence to "
                f"{risk * record.factor:.2f}, under the {threshold:.2f} a fix needs to be proposed")
    return None


def records_from(rows: list[ProposalOutcome], since: dict[str, datetime] | None = None) -> dict[str, Record]:
    """Per rule, from memfix's PRs in one repository and pipeline (see the module's note on blame). `since`: a rule a
    person re-enabled starts afresh, counting only PRs that changed after that."""
    since = since or {}

    def counted(r: ProposalOutcome) -> set[str]:
        return {c for c in r.finding_codes if c not in since or r.updated_at > since[c]}

    merged = Counter(c for r in rows if r.state == ProposalState.MERGED for c in counted(r))
    closed, failed, passed, refined = Counter[str](), Counter[str](), Counter[str](), Counter[str]()
    for r in rows:
        codes = counted(r)
        if not codes:
            continue
        suspects = {c for c in codes if not merged[c]} or codes
        if r.state == ProposalState.CLOSED:
            closed.update(suspects)
        for c in suspects:
            failed[c] += r.ci_failures
        for c in codes:
            passed[c] += r.ci_passes
            refined[c] += r.refines
    every = set(merged) | set(closed) | set(failed) | set(passed) | set(refined)
    return {c: Record(merged[c], closed[c], failed[c], passed[c], refined[c]) for c in sorted(every)}


@dataclass(frozen=True)
class Hold:
    code: str
    reason: str
    insight_id: int
    by: str  # LEARNED or the person's login
    ripe: bool = False  # decided longer ago than the exploration budget's period: it may be tried again

    def describe(self) -> str:
        who = "learned" if self.by == LEARNED else f"asked by @{self.by}"
        return (f"{self.code} held back ({who}): {self.reason} — decision `insight:{self.insight_id}`; "
                f"`/forget insight:{self.insight_id}` or `/remember decision enable {self.code}` proposes it again")


@dataclass
class RepoPolicy:
    """What the policy says for one run: records, holds in force, holds a configuration overrides, suggestions."""

    records: dict[str, Record] = field(default_factory=dict)
    holds: dict[str, Hold] = field(default_factory=dict)
    overridden: dict[str, Hold] = field(default_factory=dict)  # held, but `always_propose` in memfix.yml
    suggestions: list[str] = field(default_factory=list)  # holds learned in the installation's other repositories
    exploring: Hold | None = None  # a learned hold this run tries again on purpose (not in `holds`)

    @property
    def held(self) -> tuple[str, ...]:
        return tuple(sorted(self.holds))

    def rank(self, codes: set[str]) -> float:
        """A patch's place in the queue: its weakest rule's acceptance estimate (higher goes first)."""
        return min((self.records.get(c, Record()).posterior for c in codes), default=0.5)

    def used(self) -> list[str]:
        """What memory changed in this run, in words (the "Learnings used" of an offline run)."""
        lines = [h.describe() for h in self.holds.values()]
        if self.exploring is not None:
            lines.append(f"{self.exploring.code} is held back ({self.exploring.reason}) and tried again in this run "
                         f"on purpose: at most one such PR per repository every {EXPLORE_DAYS} days; merge it to have "
                         f"{self.exploring.code} proposed again, close it to keep it held")
        lines += [f"{c} would be held back ({h.reason}) but `always_propose` in `.github/memfix.yml` keeps it"
                  for c, h in self.overridden.items()]
        return lines


class Policy:
    def __init__(self, db: Database, insights: Insights, proposals: Proposals | None = None, *,
                 threshold: float = PROMOTE_THRESHOLD, rng: random.Random | None = None):
        self.db = db
        self.rng = rng or random.Random()  # exploration's draws (a test gives a seeded one)
        self.insights = insights
        self.threshold = threshold  # the confidence a fix needs to be published (MEMFIX_PROMOTE_THRESHOLD)
        self.proposals = proposals or Proposals(db)  # the evidence: what became of memfix's PRs

    def records(self, tenant_id: int, repo: str, pipeline: str | None = None) -> dict[str, Record]:
        rows = self.proposals.outcomes(tenant_id, repo, pipeline)
        with self.db.tenant(tenant_id) as conn:
            enabled = conn.execute(_ENABLED, {"r": repo, "enable": Stance.ENABLE}).fetchall()
        return records_from(rows, {row["rule"]: row["created_at"] for row in enabled})

    def holds(self, tenant_id: int, repo: str, pipeline: str | None = None) -> dict[str, Hold]:
        """The holds in force in this repository (for `pipeline`: a person's and that pipeline's learned ones), the
        first decision on each rule."""
        with self.db.tenant(tenant_id) as conn:
            rows = conn.execute(_HOLDS, {"r": repo, "p": pipeline, "hold": Stance.HOLD,
                                         "ripe": EXPLORE_DAYS * 86400}).fetchall()
        holds: dict[str, Hold] = {}
        for row in rows:
            holds.setdefault(row["rule"], Hold(row["rule"], row["reason"], row["insight_id"], row["decided_by"],
                                               row["ripe"]))
        return holds

    def for_run(self, tenant_id: int, repo: str, pipeline: str, always: tuple[str, ...] = (),
                named: tuple[str, ...] = ()) -> RepoPolicy:
        """The policy for one run; `named`: the rules the repository's lint configuration names today (a learned
        hold of one of them is tried again at once)."""
        holds = self.holds(tenant_id, repo, pipeline)
        kept = {c: h for c, h in holds.items() if c in always}
        records = self.records(tenant_id, repo, pipeline)
        in_force = {c: h for c, h in holds.items() if c not in kept}
        learned = [c for c, h in in_force.items() if h.by == LEARNED and (h.ripe or c in named)]
        tried = explore(learned, records, self.rng, selected_now=named, budget_open=bool(learned) and
                        not self.proposals.explored_since(tenant_id, repo, EXPLORE_DAYS)) if learned else None
        exploring = in_force.pop(tried) if tried else None
        return RepoPolicy(records, in_force, kept, self._suggestions(tenant_id, repo, set(holds)), exploring)

    def learn(self, tenant_id: int, repo: str, pipeline: str, source_ref: str | None = None) -> list[str]:
        """After an outcome: hold what the evidence says to hold, lift learned holds it no longer supports.
        Returns what changed, in words."""
        records = self.records(tenant_id, repo, pipeline)
        holds = self.holds(tenant_id, repo, pipeline)
        changed = []
        for code, record in records.items():
            if rule_code(code) != code:  # a decision names a linter's rule (a model's MODEL is none)
                continue
            reason = hold_reason(code, record, self.threshold)
            hold = holds.get(code)
            if reason and hold is None:
                saved = self._hold(tenant_id, repo, Decision(code, Stance.HOLD, LEARNED, reason, pipeline), record,
                                   source_ref)
                changed.append(f"now holding back {code}: {reason} (decision `insight:{saved}`)")
                self._offer(tenant_id, repo, saved)
            elif not reason and hold is not None and hold.by == LEARNED:
                self.insights.delete(tenant_id, hold.insight_id, repository=repo)
                changed.append(f"proposing {code} again: {record.describe()}")
        return changed

    def hold(self, tenant_id: int, repo: str, codes: list[str], by: str, source_ref: str | None) -> list[int]:
        """A person holds rules back (`/remember decision hold F401`)."""
        records = self.records(tenant_id, repo)
        return [self._hold(tenant_id, repo, Decision(code, Stance.HOLD, by,
                                                     f"@{by} asked memfix not to propose {code} fixes here"),
                           records.get(code, Record()), source_ref) for code in codes]

    def taken_again(self, tenant_id: int, repo: str, proposal: Proposal, source_ref: str | None) -> list[str]:
        """Reviewers merged an exploratory PR: the team's taste changed, so the rules it tried again are enabled
        as a person's word would (their record starts afresh from here). What changed, in words."""
        if not proposal.exploratory:
            return []
        learned = [c for c, h in self.holds(tenant_id, repo, proposal.pipeline).items()
                   if h.by == LEARNED and c in proposal.finding_codes]
        self.enable(tenant_id, repo, learned, LEARNED, source_ref)
        return [f"proposing {code} again: reviewers merged the PR that tried it again" for code in learned]

    def enable(self, tenant_id: int, repo: str, codes: list[str], by: str, source_ref: str | None) -> list[int]:
        """A person re-enables rules (`/remember decision enable F401`): their holds go; the decision is kept."""
        lifted = []
        for code in codes:
            with self.db.tenant(tenant_id) as conn:
                lifted += [r["id"] for r in conn.execute(_LIFT, {"r": repo, "hold": Stance.HOLD, "rule": code})]
            self._decide(tenant_id, repo, Decision(code, Stance.ENABLE, by), Insight(
                repository=repo, insight_type="decision", category="maintainability", workflow_type="review",
                title=f"Propose {code} fixes in {repo} again",
                detail=f"@{by} re-enabled {code} fixes" if by != LEARNED else
                f"reviewers merged memfix's exploratory {code} fix: proposed again",
                source_ref=source_ref, tags=("policy", Stance.ENABLE, code, f"by:{by}")))
        return lifted

    def _hold(self, tenant_id: int, repo: str, decision: Decision, record: Record, source_ref: str | None) -> int:
        code = decision.rule
        return self._decide(tenant_id, repo, decision, Insight(
            repository=repo, insight_type="decision", category="maintainability", severity="medium",
            workflow_type=decision.pipeline or "review", title=f"Hold back {code} fixes in {repo}",
            detail=f"{decision.reason}\nEvidence: {record.describe()}. Re-enable with `/forget` of this insight, "
                   f"`/remember decision enable {code}`, or `always_propose: [{code}]` in `.github/memfix.yml`.",
            source_ref=source_ref, tags=("policy", Stance.HOLD, code, f"by:{decision.by}")))

    def _decide(self, tenant_id: int, repo: str, decision: Decision, record: Insight) -> int:
        """The decision's row and the insight that records it for people, in one transaction: the insight's id."""
        def row(conn: Connection, saved: list[SaveResult]) -> None:
            conn.execute(_DECIDE, {"t": tenant_id, "r": repo, "rule": decision.rule, "stance": decision.stance,
                                   "p": decision.pipeline, "by": decision.by, "reason": decision.reason,
                                   "i": saved[0].insight.id})

        saved = self.insights.save_many(tenant_id, [record], dedupe=False, then=row)[0].insight.id
        assert saved is not None  # a saved insight has its id
        return saved

    def _offer(self, tenant_id: int, repo: str, insight_id: int) -> None:
        """The installation's other repositories get the learned hold as an action point, never as a change."""
        with self.db.tenant(tenant_id) as conn:
            conn.execute(_OFFER, {"t": tenant_id, "i": insight_id, "r": repo})

    def _suggestions(self, tenant_id: int, repo: str, here: set[str]) -> list[str]:
        """Holds learned elsewhere in the installation, without naming where: a reply here is read by people who may
        not see that repository (the dashboard names it to those who may)."""
        with self.db.tenant(tenant_id) as conn:
            rows = conn.execute(_SUGGESTED, {"r": repo, "open": PointStatus.OPEN, "hold": Stance.HOLD}).fetchall()
        return [f"suggestion (action point {row['id']}): another repository of this installation holds back "
                f"{row['rule']}; `/remember decision hold {row['rule']}` does the same here"
                for row in rows if row["rule"] not in here]
