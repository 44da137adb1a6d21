"""Learning, one owner: everything in memfix that learns or asks what was learned goes through `Learning`.

Its verbs, in the order a run meets them:
- `plan`: the policy for one run (holds, the exploration pick, records), and `coming_back` / `brought_back`: the files
  a lifted hold gives back to a push's run; `left_behind`: the files a run left held rules' findings in;
- `detected` / `fixed`: what a run teaches memory (a pain point per finding class, a solution per verified fix);
- `closed`, `settled`, `ci_failed`: an outcome of memfix's PR (merged or closed; CI passed, was noise or passed on a
  re-run; CI failed) remembered and learned in one place;
- `decide`: a person's hold or enable of rules, where a scope says (`answer`: the same, from `/remember decision`);
- `evidence`, `holds`, `waiting`: what the dashboard shows.
The rules themselves are pure and live in policy.py (and explore.py, places.py); the tables are the policy's.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Collection
from typing import TYPE_CHECKING

from core.change import Finding, Patch
from core.errors import PermanentError
from core.languages.registry import (
    EVERY_RULE,
    category_for,
    fixer_of,
    kind_of,
    language_of,
    rule_code,
    rule_problem,
    rule_shown,
)
from core.learning.explore import EXPLORE_DAYS
from core.learning.places import parse_scope
from core.learning.places import words as scope_words
from core.learning.record import Record
from core.memory.review import DECISION_FORM
from core.memory.types import Insight, Stance
from core.wire import CommandJob, JobResult, PullRequestClosedJob

if TYPE_CHECKING:
    from core.learning.policy import Evidence, HeldBack, Hold, Policy, RepoPolicy
    from core.memory.insights import Insights, SaveResult
    from core.memory.proposals import Proposal, Proposals

def severity_for(code: str) -> str:
    if category_for(code) == "security":
        return "high"
    return "medium" if category_for(code) == "correctness" else "low"


def finding_class(f: Finding, words: Collection[str] = ()) -> str:
    """`F401: `…` imported but unused` — the names and numbers of the code at hand stripped so one class merges
    across runs; the rule's own words (`words`: `assert` in "Use of `assert` detected") kept, they explain it."""
    message = re.sub(r"`([^`]*)`", lambda m: m[0] if m[1] in words else "`…`", kind_of(f.code, f.message))
    message = re.sub(r"(?<![`\w])\d+\b(?!`)", "N", message)
    return f"{f.code}: {message}"[:200] if message else f.code


class Learning:
    def __init__(self, insights: Insights, proposals: Proposals, policy: Policy, web_url: str = "",
                 words: Callable[[str], Collection[str]] = lambda code: (),
                 known: Callable[[str], bool] | None = None):
        self.insights = insights
        self.proposals = proposals  # the PRs memfix opened: an outcome closes one
        self.policy = policy
        self.web_url = web_url  # GitHub's web address (Settings.github_web_url): Enterprise hosts its own
        self.words = words  # a rule's own words, which its insights' titles keep (a language's rule_words)
        self.known = known  # whether a linter memfix runs has this rule

    # ---- a run ----

    def plan(self, tenant_id: int, repo: str, pipeline: str, always: tuple[str, ...] = (),
             named: tuple[str, ...] = ()) -> RepoPolicy:
        """The learned policy for one run: what is held where, what is explored, each rule's record."""
        return self.policy.for_run(tenant_id, repo, pipeline, always, named)

    def left_behind(self, tenant_id: int, repo: str, pipeline: str, held: list[HeldBack]) -> None:
        """The findings a run's holds kept it from fixing, remembered for the run after the hold lifts."""
        self.policy.keep_held(tenant_id, repo, pipeline, held)

    def coming_back(self, tenant_id: int, repo: str, pipeline: str) -> list[HeldBack]:
        """What was held back where the hold has lifted since: the next run takes those files again."""
        return self.policy.lifted(tenant_id, repo, pipeline)

    def brought_back(self, tenant_id: int, repo: str, pipeline: str, back: list[HeldBack]) -> None:
        self.policy.brought_back(tenant_id, repo, pipeline, back)

    # ---- outcomes ----

    def settled(self, tenant_id: int, repo: str, pipeline: str, source_ref: str | None) -> list[str]:
        """A CI verdict settled on one of memfix's PRs (passed, noise, passed on a re-run): the policy learns from
        it; what it now holds or proposes again, in words."""
        return self.policy.learn(tenant_id, repo, pipeline, source_ref)

    def ci_failed(self, tenant_id: int, proposal: Proposal, failing: str, report: list[str],
                  source_ref: str | None) -> list[str]:
        """The repository's CI failed on memfix's change: a pain point, and the policy's update."""
        codes = list(proposal.finding_codes) or ["MODEL"]
        self.insights.save(tenant_id, Insight(
            repository=proposal.repository, insight_type="pain_point", category=category_for(codes[0]),
            severity="medium", workflow_type=proposal.pipeline,
            title=f"CI failed on memfix's {', '.join(codes)} fix in {proposal.path}",
            detail=f"Failing: {failing}.\n" + "\n".join(report)[:2000], source_ref=source_ref,
            tags=(*codes, "ci_failed")))
        return self.settled(tenant_id, proposal.repository, proposal.pipeline, source_ref)

    # ---- people ----

    def decide(self, tenant_id: int, repo: str, stance: Stance, codes: list[str], by: str, source_ref: str | None,
               scope: str | None = None) -> list[int]:
        """A person's word on rules where `scope` says: held back there (the decisions' insight ids), or proposed
        there again (the ids of the holds it lifted)."""
        if stance == Stance.ENABLE:
            return self.policy.enable(tenant_id, repo, codes, by, source_ref, scope)
        return self.policy.hold(tenant_id, repo, codes, by, source_ref, scope)

    def answer(self, job: CommandJob, verb: Stance, codes_text: str, scope_text: str | None,
               source: str | None) -> JobResult:
        """A person's decision on a rule, everywhere or where the scope says: proposed again there (the holds within
        it lifted), or held back there."""
        codes = self._decided_codes(codes_text)
        try:
            scope = parse_scope(scope_text) if scope_text else None
        except ValueError as exc:
            raise PermanentError(str(exc)) from exc
        where = f"in {scope_words(scope)} of this repository" if scope else "in this repository"
        shown = ", ".join(rule_shown(c) for c in codes)
        if verb == Stance.ENABLE:
            lifted = self.decide(job.tenant_id, job.repo, verb, codes, job.author, source, scope)
            return JobResult(f"memfix will propose {shown} fixes {where} again.",
                             [f"lifted hold `insight:{i}`" for i in lifted]
                             or [f"no hold {'within ' + scope_words(scope) + ' ' if scope else ''}was in force; "
                                 "the decision is remembered"])
        ids = self.decide(job.tenant_id, job.repo, verb, codes, job.author, source, scope)
        undo = f" in {scope}" if scope else ""
        return JobResult(f"memfix will not propose {shown} fixes {where}.",
                         [f"decision `insight:{i}`; `/remember decision enable {c}{undo}` or `/forget insight:{i}` "
                          "undoes it" for i, c in zip(ids, codes, strict=True)])

    def _decided_codes(self, codes_text: str) -> list[str]:
        """The rules a decision names, each once by its code (`*`: every rule), or PermanentError for a name that
        is no rule of the linters memfix runs."""
        named = [c for c in re.split(r"[\s,]+", codes_text) if c]
        if EVERY_RULE in named:  # a place held for every rule: `/remember decision hold * in vendor/**`
            return [EVERY_RULE]
        if bad := [c for c in named if rule_code(c) is None]:
            raise PermanentError(f"{rule_problem(bad)}; {DECISION_FORM}")
        codes = list(dict.fromkeys(code for c in named if (code := rule_code(c))))
        if self.known is not None and (unknown := [c for c in codes if not self.known(c)]):
            raise PermanentError(f"{', '.join(rule_shown(c) for c in unknown)} is not a rule of the linters memfix "
                                 "runs (ruff, flake8, ESLint, Biome); nothing was decided")
        return codes

    def suggest(self, tenant_id: int, repo: str, pipeline: str, kinds: list[str]) -> str | None:
        """The one kind of change memfix may propose of its own accord here, where nobody chose any (`kinds`: those
        with findings, the most first): the one with the best record across the installation, once a week at most
        per repository (the exploration budget), else None."""
        if not kinds or self.proposals.explored_since(tenant_id, repo, EXPLORE_DAYS):
            return None
        counts = self.proposals.across(tenant_id, pipeline)

        def record(kind: str) -> float:
            merged = sum(m for code, (m, _) in counts.items() if code.startswith(kind))
            bad = sum(b for code, (_, b) in counts.items() if code.startswith(kind))
            return Record(merged=merged, closed=bad).posterior

        return max(kinds, key=lambda kind: (record(kind), -kinds.index(kind)))

    # ---- what was learned, for people to see ----

    def evidence(self, tenant_id: int, repo: str, pipeline: str | None = None) -> Evidence:
        """The evidence of every pipeline's PRs, or of one pipeline's (what its learned holds were decided on)."""
        return self.policy.evidence(tenant_id, repo, pipeline)

    def holds(self, tenant_id: int, repo: str) -> list[Hold]:
        return self.policy.holds(tenant_id, repo)

    def waiting(self, tenant_id: int, repo: str) -> dict[str, int]:
        return self.policy.waiting(tenant_id, repo)

    # ---- what a run teaches memory ----

    def detected(self, tenant_id: int, repo: str, pipeline: str, run_id: int,
                 findings: list[Finding]) -> list[SaveResult]:
        """One pain point per finding class."""
        by_class: dict[str, list[Finding]] = defaultdict(list)
        for f in findings:
            by_class[finding_class(f, self.words(f.code))].append(f)
        lessons = []
        for title, group in sorted(by_class.items()):
            code = group[0].code
            files = sorted({f.path for f in group})
            lessons.append(Insight(
                repository=repo, insight_type="pain_point", category=category_for(code), severity=severity_for(code),
                title=title, detail=f"{len(group)} finding(s) in {', '.join(files[:5])}"
                + (" and more" if len(files) > 5 else ""),
                workflow_type=pipeline, workflow_id=str(run_id), tags=(code, "detected")))
        return self.insights.save_many(tenant_id, lessons)

    def fixed(self, tenant_id: int, repo: str, pipeline: str, run_id: int, promoted: list[Patch]) -> list[SaveResult]:
        """One solution per rule a verified patch fixed."""
        lessons = []
        for patch in promoted:
            for code in sorted({f.code for f in patch.findings}):
                fixer = fixer_of(language_of(patch.path) or "", patch.findings[0].source if patch.findings else "")
                how = "a verified model patch" if patch.origin == "model" else \
                    f"{fixer}'s {'unsafe fix, verified by CI' if patch.unsafe else 'safe fix'}"
                lessons.append(Insight(
                    repository=repo, insight_type="solution", category=category_for(code),
                    title=f"{code} fixed with {how}", detail=f"verified fix in {patch.path}",
                    suggestion=patch.rationale, workflow_type=pipeline, workflow_id=str(run_id),
                    tags=(code, "fixed")))
        return self.insights.save_many(tenant_id, lessons)

    def _pr(self, job: PullRequestClosedJob) -> str:
        return f"{self.web_url}/{job.repo}/pull/{job.pr_number}"

    def closed(self, job: PullRequestClosedJob, blamed: tuple[str, ...] = ()) -> JobResult:
        """Outcomes only from memfix's own PRs: a head in this repository, on the branch and PR memfix recorded,
        closed by someone other than an outside author; and a verdict on memfix's change only at its commit."""
        if job.head_repo and job.head_repo.lower() != (job.repo or "").lower():
            return JobResult(f"PR #{job.pr_number} comes from `{job.head_repo}`, not from memfix; nothing to learn.")
        if job.author and job.closed_by == job.author:
            return JobResult(f"PR #{job.pr_number} was closed by its own author @{job.author}, not by reviewers "
                             "of a memfix change; nothing to learn.")
        proposal = self.proposals.close(job.tenant_id, job.repo, job.head_ref, job.pr_number, merged=job.merged,
                                        closed_by=job.closed_by, blamed=blamed)
        if proposal is None:
            return JobResult(f"PR #{job.pr_number} is not an open PR memfix remembers proposing; nothing to learn.")
        if proposal.head_sha and proposal.head_sha != job.head_sha:
            return JobResult(f"PR #{job.pr_number} closed at {job.head_sha[:7]}, not at memfix's commit "
                             f"{proposal.head_sha[:7]}: people changed it, so its outcome is not taken as a "
                             "verdict on memfix's change.")
        ids = list(proposal.insight_ids)
        if ids:
            self.insights.record_outcome(job.tenant_id, ids, accepted=job.merged)
        codes = ", ".join(proposal.finding_codes) or "findings"
        category = category_for(proposal.finding_codes[0] if proposal.finding_codes else "")
        if job.merged:
            self.insights.save(job.tenant_id, Insight(
                repository=job.repo, insight_type="solution", category=category, workflow_type=
                proposal.pipeline, title=f"Reviewers merged memfix's fix for {codes} in {proposal.path}",
                detail=proposal.rationale or proposal.diff[:500], source_ref=self._pr(job), tags=("merged",)))
            taken = self.policy.taken_again(job.tenant_id, job.repo, proposal, self._pr(job))
            return JobResult(f"Merged: {len(ids)} insight(s) credited; the fix is remembered as a solution.",
                             taken + self.policy.learn(job.tenant_id, job.repo, proposal.pipeline, self._pr(job)))
        self.insights.save(job.tenant_id, Insight(
            repository=job.repo, insight_type="pain_point", category=category, severity="low",
            workflow_type=proposal.pipeline,
            title=f"Reviewers rejected memfix's change for {codes} in {proposal.path}",
            detail=f"PR #{job.pr_number} closed unmerged by @{job.closed_by}; fingerprint "
                   f"{proposal.fingerprint} will not be proposed again.\n{proposal.diff[:500]}",
            source_ref=self._pr(job), tags=("rejected",)))
        return JobResult(f"Closed unmerged: {len(ids)} insight(s) marked rejected; "
                         "this change won't be proposed again.",
                         self.policy.learn(job.tenant_id, job.repo, proposal.pipeline, self._pr(job)))

