"""CI feedback: the repository's checks on memfix's draft PRs, read as memfix's behavioural verifier. All green marks a
draft ready for review; a red check (or commit status) that passed on the base commit counts against the change (a
comment, an envelope, a pain point, the policy's update and, with a model, one refinement); red that is noise is said
and not counted; a failure nothing ties to the change (its annotations point outside the tests and outside the files
that import the changed one) is run again once before it counts, at most WEEKLY_RERUNS times a repository a week, the
first announced on its PR with the line that turns re-runs off; a draft whose checks never report is marked ready
after the wait. Every outcome is learned through Learning.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from core.errors import PermanentError
from core.github.types import CheckResult, PullRequest, RerunAnswer
from core.memory.proposals import CiState, Proposal, Proposals
from core.memory.reruns import WEEKLY_RERUNS, CiReruns, RerunSlot
from core.memory.types import AttemptStatus, Envelope
from core.pipelines.ci import CiVerdict, Judgement, failure_report, judge, read, tie
from core.pipelines.config import CONFIG_PATH
from core.pipelines.port import GitHubPort
from core.wire import ChecksJob, JobResult

if TYPE_CHECKING:
    from core.learning.learning import Learning
    from core.memory.ring import HealingLog
    from core.pipelines.values import FileOutcome

log = logging.getLogger(__name__)
Revise = Callable[..., "tuple[FileOutcome, int, str | None]"]  # PipelineService.revise: /refine's own path
OFF = "ci_rerun: never"  # the line in .github/memfix.yml that turns memfix's re-runs off


@dataclass(frozen=True)
class Rerun:
    """What memfix did about running a counted failure again: `asked`, the job's result when it ran checks again
    (nothing counts until they answer); else `said`, why it did not, for the failure's comment ("": nothing to say)."""

    asked: str = ""
    said: str = ""


@dataclass
class CiFeedback:
    github: Callable[[int], GitHubPort]
    proposals: Proposals
    learning: Learning
    healing: HealingLog
    llm: Any
    revise: Revise
    reruns: CiReruns  # the re-runs memfix asked for in each repository: the weekly cap, what was said once
    app_slug: str = "memfix"  # memfix's own check runs are not the repository's CI
    ci_wait_hours: float = 24.0  # a draft PR whose checks never report is marked after this long
    ci_rerun: Callable[[GitHubPort, str], str] = lambda gh, repo: "learn"  # memfix.yml's `ci_rerun`, asked when needed

    def on_checks(self, job: ChecksJob) -> JobResult:
        """A check finished on a memfix branch: read every check on the commit; all green → ready for review,
        any red → a draft with one comment saying what failed, an envelope, a pain point and the policy's update."""
        gh = self.github(job.tenant_id)
        notes = self.sweep(gh, job.tenant_id, job.repo)
        proposal = self.proposals.waiting_at(job.tenant_id, job.repo, job.head_sha)
        if proposal is None or proposal.pr_number is None:
            return JobResult(f"{job.source} on `{job.head_sha[:7]}`: no memfix PR waits for checks on this commit.",
                             notes)
        number = proposal.pr_number
        verdict = read(gh.commit_checks(job.repo, job.head_sha), self.app_slug)
        if verdict.state == CiState.WAITING:
            return JobResult(f"PR #{number}: waiting for {len(verdict.pending)} of {len(verdict.checks)} check(s) "
                             f"({verdict.names(verdict.pending)}).", notes)
        pr = gh.get_pull(job.repo, number)
        if verdict.state == CiState.PASSED and proposal.ci_state == CiState.FAILED:
            return self._rerun_passed(gh, job, proposal, pr, notes)
        if verdict.state == CiState.PASSED:
            return self._passed(gh, job, (proposal, pr), verdict, notes)
        return self._failed(gh, job, (proposal, pr), verdict, notes)

    def _failed(self, gh: GitHubPort, job: ChecksJob, target: tuple[Proposal, PullRequest], verdict: CiVerdict,
                notes: list[str]) -> JobResult:
        """A check failed: noise the base commit shares is said as such; else the failure is run again once where
        nothing ties it to the change, or it counts."""
        proposal, pr = target
        base = read(gh.commit_checks(job.repo, pr.base_sha), self.app_slug) if pr.base_sha else CiVerdict(())
        judgement = judge(verdict, base, pr.base_sha)
        if not judgement.counted:
            return self._ci_noise(gh, job, proposal, pr, judgement, notes)
        # what the failing checks say of where they failed, asked once: it decides a re-run and fills the report
        annotations = {c.id: gh.check_annotations(job.repo, c.id) for c in judgement.counted[:5] if c.kind == "check"}
        rerun = self._run_again(gh, job, target, judgement, annotations)
        if rerun.asked:
            return JobResult(rerun.asked, notes)
        return self._ci_failed(gh, job, target, judgement, notes, (annotations, rerun.said))

    def _passed(self, gh: GitHubPort, job: ChecksJob, target: tuple[Proposal, PullRequest], verdict: CiVerdict,
                notes: list[str]) -> JobResult:
        """Every check passed: the PR is ready for review, and the first time, the learning hears it settled."""
        proposal, pr = target
        fresh = self.proposals.settle(job.tenant_id, proposal.id, job.head_sha, CiState.PASSED)
        if (fresh or proposal.ci_state == CiState.PASSED) and pr.draft:
            gh.mark_ready(job.repo, pr)
        if fresh:
            notes += self.learning.settled(job.tenant_id, job.repo, proposal.pipeline, pr.html_url)
        return JobResult(f"PR #{pr.number}: the repository's {len(verdict.checks)} check(s) passed "
                         f"({verdict.names()}); ready for review.", notes)

    def _run_again(self, gh: GitHubPort, job: ChecksJob, target: tuple[Proposal, PullRequest], judgement: Judgement,
                   annotations: dict[int, list[dict[str, Any]]]) -> Rerun:
        """A failed check is run again once before it counts only when nothing ties the failure to the change (its
        failure annotations point outside the tests and outside the files that import the changed file), within the
        repository's weekly cap (`ci_rerun: always`: every failed check, no cap; `never`: none); twice where the CI
        has lied more than once. The PR stays a draft meanwhile; the repository's first re-run is announced on it."""
        (proposal, pr), repo, sha = target, job.repo, job.head_sha
        said = self.ci_rerun(gh, repo)  # a person's word over what memfix would do
        checks = [c for c in judgement.counted if c.kind == "check"]
        if said == "never" or not checks:
            return Rerun()
        why = "" if said == "always" else tie(judgement.counted, annotations, proposal.path,
                                              lambda path: gh.get_file(repo, path, sha))
        if why:
            return Rerun(said=f"memfix did not run them again: {why}, so the failure counts at once.")
        slot = self._rerun_slot(job, proposal, said)
        if isinstance(slot, Rerun):
            return slot
        again, refused = self._ask(gh, job, proposal, checks, slot)
        if not again:
            return Rerun(said=refused)
        reason = _why_run_again(said, proposal.path)
        names = CiVerdict(tuple(again)).names()
        if slot.first:
            self._announce(gh, job, pr.number, slot, f"{names} failed on `{sha[:7]}`; {reason}")
        return Rerun(asked=f"PR #{pr.number}: {names} failed on `{sha[:7]}`; {reason}, so memfix runs them "
                           "again once before counting the failure (the PR stays a draft meanwhile).")

    def _rerun_slot(self, job: ChecksJob, proposal: Proposal, said: str) -> RerunSlot | Rerun:
        """A re-run claimed on this commit and within the repository's weekly cap (none with `ci_rerun: always`);
        else the Rerun that says why there is none."""
        tenant, repo, sha = job.tenant_id, job.repo, job.head_sha
        record = self.proposals.ci_record(tenant, repo)
        if not self.proposals.claim_rerun(tenant, proposal.id, sha, record.reruns):
            return Rerun()  # it ran them again on this commit as often as it may: now they count
        slot = self.reruns.claim(tenant, repo, proposal.id, sha, None if said == "always" else WEEKLY_RERUNS)
        if slot is None:
            self.proposals.release_rerun(tenant, proposal.id, sha)
            return Rerun(said=f"memfix did not run them again: it already ran failed checks again {WEEKLY_RERUNS} "
                              "times in this repository in the last 7 days, the most it does a week, so the failure "
                              "counts at once.")
        return slot

    def _ask(self, gh: GitHubPort, job: ChecksJob, proposal: Proposal, checks: list[CheckResult],
             slot: RerunSlot) -> tuple[list[CheckResult], str]:
        """GitHub is asked to run the checks again: those it will run, and (when it runs none) what to say of a
        refusal — once in a repository: without `actions: write` memfix works on, as with `ci_rerun: never`."""
        tenant, repo, sha = job.tenant_id, job.repo, job.head_sha
        try:
            answers = {c: gh.rerun_check(repo, c) for c in checks}
        except Exception:
            self.reruns.release(tenant, slot)  # the job runs again: its re-run is claimed anew
            self.proposals.release_rerun(tenant, proposal.id, sha)
            raise
        again = [c for c, answer in answers.items() if answer == RerunAnswer.ASKED]
        if again:
            return again, ""
        self.proposals.release_rerun(tenant, proposal.id, sha)
        refused = [c for c, answer in answers.items() if answer == RerunAnswer.REFUSED]
        if not refused:
            self.reruns.release(tenant, slot)
            return [], ""
        if not self.reruns.refused(tenant, repo, slot):
            return [], ""
        return [], (f"memfix could not run {CiVerdict(tuple(refused)).names()} again: GitHub refused (this "
                    "installation has not granted memfix `actions: write`), so the failure counts at once, as with "
                    f"`{OFF}`. memfix says this once in this repository; grant the permission for it to run a "
                    "failure again when nothing ties it to its change.")

    def _announce(self, gh: GitHubPort, job: ChecksJob, number: int, slot: RerunSlot, what: str) -> None:
        """The repository's first re-run, said on its PR with the line that turns them off; never again."""
        try:
            gh.comment(job.repo, number, "\n".join([
                f"🔁 {what}, so memfix ran them again once before counting the failure; this PR stays a draft "
                "until they answer.", "",
                f"This is the first time memfix runs a failed check again in this repository, and it will not say so "
                f"again. It does so only for a failure nothing ties to its change, at most {WEEKLY_RERUNS} times a "
                f"week. To turn re-runs off, add this line to `{CONFIG_PATH}` on the default branch:", "",
                "```yaml", OFF, "```"]))
        except Exception:  # noqa: BLE001 — the re-run is asked; the next one in the repository announces instead
            log.warning("could not announce the first re-run on PR #%s of %s", number, job.repo, exc_info=True)
            self.reruns.unsaid(job.tenant_id, slot)

    def _rerun_passed(self, gh: GitHubPort, job: ChecksJob, proposal: Proposal, pr: PullRequest,
                      notes: list[str]) -> JobResult:
        """The checks that failed passed when run again on the same commit: the failure no longer counts."""
        if self.proposals.supersede(job.tenant_id, proposal.id, job.head_sha):
            if pr.draft:
                gh.mark_ready(job.repo, pr)
            notes += self.learning.settled(job.tenant_id, job.repo, proposal.pipeline, pr.html_url)
            gh.comment(job.repo, pr.number, "\n".join([
                f"✅ The repository's checks passed when run again on `{job.head_sha[:7]}`: the earlier failure no "
                "longer counts against this change (its record here is corrected), and the PR is ready for review.",
                *(f"- {n}" for n in notes if n.startswith(("now holding back", "proposing")))]))
        return JobResult(f"PR #{pr.number}: the checks passed on a re-run; the earlier failure is superseded.", notes)

    def _ci_noise(self, gh: GitHubPort, job: ChecksJob, proposal: Proposal, pr: PullRequest, judgement: Judgement,
                  notes: list[str]) -> JobResult:
        """Every red check is CI noise (red on the base commit too, cancelled, timed out): not a verdict on the
        change, said once; the checks that could judge it passed, so it is ready for review."""
        tenant, repo, sha = job.tenant_id, job.repo, job.head_sha
        lines = judgement.noise_lines()
        if self.proposals.settle(tenant, proposal.id, sha, CiState.PASSED, "\n".join(lines)):
            notes += self.learning.settled(tenant, repo, proposal.pipeline, pr.html_url)
        if pr.draft:
            gh.mark_ready(repo, pr)
        if self.proposals.reported(tenant, proposal.id, sha):
            gh.comment(repo, pr.number, "\n".join([
                f"⚠️ Checks failed on `{sha[:7]}`, but not because of this change, so memfix does not count them "
                "against it and the PR is ready for review:", "", *lines]))
        return JobResult(f"PR #{pr.number}: red checks that are CI noise ({len(lines)}); not counted.", notes)

    def _ci_failed(self, gh: GitHubPort, job: ChecksJob, target: tuple[Proposal, PullRequest], judgement: Judgement,
                   notes: list[str], evidence: tuple[dict[int, list[dict[str, Any]]], str]) -> JobResult:
        """The failure counts: recorded and learned once per commit, reported in one comment (with why memfix did
        not run it again, where it has something to say)."""
        (proposal, pr), verdict, (annotations, rerun) = target, CiVerdict(judgement.counted), evidence
        tenant, repo, sha = job.tenant_id, job.repo, job.head_sha
        report = failure_report(verdict, annotations)
        if self.proposals.settle(tenant, proposal.id, sha, CiState.FAILED, "\n".join(report)):
            names = verdict.names(verdict.failing)
            self.healing.record(tenant, Envelope(
                repository=repo, status=AttemptStatus.REJECTED, pipeline=proposal.pipeline,
                patch_id=proposal.fingerprint, run_id=str(proposal.run_id) if proposal.run_id else None,
                error_message=f"the repository's CI failed: {names}",
                error_hash=Envelope.hash_error(proposal.path, None, f"CI failed: {names}"), path=proposal.path))
            notes += self.learning.ci_failed(tenant, proposal, names, report, pr.html_url)
        if proposal.ci_reported == sha:
            return JobResult(f"PR #{pr.number}: the CI failure on `{sha[:7]}` was already reported.", notes)
        body = [f"❌ The repository's checks failed on this change (commit `{sha[:7]}`), so this PR stays a draft:",
                "", *report, ""]
        if judgement.compared:
            body += [f"Each passed on the base commit `{pr.base_sha[:7]}`.", ""]
        if proposal.ci_rerun == sha:
            body += ["They failed again when memfix ran them a second time (a first failure is not counted where "
                     "nothing ties it to the change).", ""]
        elif rerun:
            body += [rerun, ""]
        if judgement.noise:
            body += ["Not counted (CI noise, not this change):", *judgement.noise_lines(), ""]
        body += [f"- {n}" for n in notes if n.startswith(("now holding back", "proposing"))]
        body += ["", self._after_failure(gh, job, proposal, pr, report)]
        gh.comment(repo, pr.number, "\n".join(body))
        self.proposals.reported(tenant, proposal.id, sha)
        return JobResult(f"PR #{pr.number}: CI failed ({verdict.names(verdict.failing)}); reported on the PR.", notes)

    def _after_failure(self, gh: GitHubPort, job: ChecksJob, proposal: Proposal, pr: PullRequest,
                       report: list[str]) -> str:
        """With a model, one refinement from the failure text; without one, what a person should look at."""
        what = f"`{proposal.path}` ({', '.join(proposal.finding_codes) or 'a model fix'})"
        if self.llm.model is None or not self.proposals.claim_refinement(job.tenant_id, proposal.id):
            tried = "" if self.llm.model is None else "memfix already made its one refinement attempt. "
            return (f"{tried}What to look at: the failing checks above against memfix's change to {what} — a removed "
                    "import or name something else still uses, or a rewrite the project's Python or tests do not "
                    "accept. Push a fix to this branch, or close the PR: memfix learns from either.")
        feedback = ("The repository's CI failed on this change. Fix the change so these checks pass, keeping what "
                    "it fixes where possible:\n" + "\n".join(report))
        try:
            outcome, run_id, sha = self.revise(gh, job.tenant_id, job.repo, pr, proposal, feedback, job.key, "ci")
        except PermanentError as exc:
            return f"memfix tried one refinement from the failure text and could not make it: {exc}."
        if sha is None:
            return (f"memfix tried one refinement from the failure text (run {run_id}); it did not verify "
                    f"({outcome.note or (outcome.verification.error if outcome.verification else 'low confidence')})"
                    f". What to look at: the failing checks above against memfix's change to {what}.")
        return (f"memfix refined the change from the failure text (commit `{sha[:7]}`, run {run_id}); the PR stays "
                "a draft until the checks pass on the new commit.")

    def sweep(self, gh: GitHubPort, tenant_id: int, repo: str) -> list[str]:
        """Draft PRs whose checks never reported within the wait: marked ready with a comment saying so (checked on
        the repository's next event: waiting is event-driven)."""
        notes = []
        for proposal in self.proposals.silent(tenant_id, repo, self.ci_wait_hours):
            if proposal.pr_number is None:  # waiting is only ever set on a PR's proposal
                continue
            try:
                gh.comment(repo, proposal.pr_number, (
                    f"⏱️ No check reported on this PR's commit `{(proposal.head_sha or '')[:7]}` within "
                    f"{self.ci_wait_hours:g} hours, so memfix stopped waiting and marked it ready for review. Nothing "
                    "ran its tests: please check its behaviour yourself."))
                gh.mark_ready(repo, gh.get_pull(repo, proposal.pr_number))
                notes.append(f"PR #{proposal.pr_number}: no checks within {self.ci_wait_hours:g} h; marked ready")
            except Exception:  # noqa: BLE001 — one PR's trouble must not stop the job that found it
                log.warning("could not mark PR #%s of %s after the CI wait", proposal.pr_number, repo,
                            exc_info=True)
        return notes


def _why_run_again(said: str, path: str) -> str:
    """Why memfix runs failed checks again, in words for the PR."""
    if said == "always":
        return "`ci_rerun: always` in .github/memfix.yml"
    return (f"nothing ties their failures to `{path}` (they point outside the tests and outside the files that "
            "import it)")
