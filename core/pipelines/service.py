"""Pipeline jobs: push, `/autofix`, `/refactor`, issues labelled memfix, `/refine`, and PR outcomes."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from core.bounded import user_text
from core.change import Patch
from core.errors import GitHubPermanentError, PermanentError
from core.events import MEMFIX_BRANCH_PREFIX
from core.github.types import PullRequest
from core.languages.registry import NAMES, language_of, languages_for, linter_of
from core.learning.learning import Learning
from core.learning.policy import HeldBack
from core.memory.proposals import Proposal, Proposals
from core.memory.sanitize import escape_braces
from core.memory.types import AttemptStatus
from core.paths import PathError, repo_path
from core.pipelines.brought import Change, Changed, Previous, Status, changed
from core.pipelines.config import CONFIG_PATH, RepoConfig, parse_config
from core.pipelines.port import GitHubPort
from core.pipelines.present import result
from core.pipelines.prompt import Revision
from core.pipelines.publish import PublishAction, Publisher
from core.pipelines.runner import PipelineRunner, each_language
from core.pipelines.runs import FINAL, Mirror, Phase
from core.pipelines.suggest import hunks, placeable, suggestions
from core.pipelines.values import FileOutcome, RunReport, RunRequest
from core.pipelines.workspace import GitHubWorkspace
from core.wire import CommandJob, IssueJob, JobResult, PushJob

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
    previous: Previous | None = None  # a push's: each file's text at its base, so only what the push brought is fixed


@dataclass
class PipelineService:
    runner: PipelineRunner
    learning: Learning  # every outcome it hears of is learned there
    proposals: Proposals
    github: Callable[[int], GitHubPort]
    llm: Any
    llm_for: Callable[[str | None, str | None], Any] | None = None  # a repository's own provider/model
    web_url: str = ""  # GitHub's web address (Settings.github_web_url): Enterprise hosts its own
    metric: Callable[[str, int], None] = lambda name, value: None  # the Lambda worker sends EMF metrics
    choices: tuple[frozenset[str], frozenset[str]] = (frozenset({"offline"}), frozenset())  # providers, models
    sweep: Callable[[GitHubPort, int, str], list[str]] = lambda gh, tenant, repo: []  # CI waits that ran out

    # ---- triggers ----

    def on_push(self, job: PushJob) -> list[RunReport]:
        """AutoFix on the files the push changed, and on the files whose held rules' holds have lifted since."""
        gh = self.github(job.tenant_id)
        base = job.before if job.before.strip("0") else None  # a new branch's push has no base to compare with
        pushed = self._pushed(gh, job, base)
        files = _checked([p for p in pushed.paths if language_of(p)])
        back = self.learning.coming_back(job.tenant_id, job.repo, "autofix")
        paths = list(dict.fromkeys([*files, *_checked(sorted({h.path for h in back}))]))
        self.sweep(gh, job.tenant_id, job.repo)
        if not paths:
            return []
        settings = self.repo_settings(gh, job.repo, job.default_branch, job.after)
        if not settings.config.enabled("autofix"):
            return []  # a push gets no reply: switched off is said by the configuration, not each push
        reports = self._runs(RunRequest(job.tenant_id, job.repo, "autofix", "push", job.key,
                                        waiting=frozenset(h.path for h in back) - set(files)),
                             Target(job.after, job.default_branch, previous=pushed.previous if base else None),
                             paths, settings, gh=gh)
        self._brought_back(job, back, reports)
        return reports

    def _pushed(self, gh: GitHubPort, job: PushJob, base: str | None) -> Changed:
        """What the push brought, each changed file read at the base where there is one."""
        return changed(self._changes(gh, job, base), lambda path: gh.get_file(job.repo, path, base) if base else None)

    def _brought_back(self, job: PushJob, back: list[HeldBack], reports: list[RunReport]) -> None:
        """The runs say which held files are back, and the learning hears of those not still waiting for a PR."""
        if not back:
            return
        said = (f"{len({h.path for h in back})} file(s) where {', '.join(sorted({h.rule for h in back}))} had "
                "been held back are in this run again: a hold on them has lifted, or they waited while the CI's "
                "reds put the rule in doubt (one PR of it a run)")
        for report in reports:
            report.back = said
        waiting = {o.path for r in reports for o in r.promoted if o.published is None}  # over the PR cap
        self.learning.brought_back(job.tenant_id, job.repo, "autofix", [h for h in back if h.path not in waiting])

    @staticmethod
    def _changes(gh: GitHubPort, job: PushJob, base: str | None) -> list[Change]:
        """The push's changes as its payload lists them. A payload lists a rename as a removal and an addition:
        where a push has both, GitHub's comparison of its two commits says which were renamed, so a renamed file is
        read at the base under its old name (as `git diff -M` has it for `memfix autofix --since`)."""
        renamed = _renamed(gh, job, base) if base and job.added and job.removed else {}
        return [*(Change(Status.RENAMED, renamed[p], p) if p in renamed else Change(Status.ADDED, None, p)
                  for p in job.added),
                *(Change(Status.MODIFIED, p, p) for p in job.modified),
                *(Change(Status.REMOVED, p, None) for p in job.removed if p not in renamed.values())]

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
                             issue_number=None if job.is_pull_request else job.issue_number, rules=job.rules)
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
        every = _checked([p for p in gh.list_files(repo, sha) if language_of(p)])
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
        missing = sorted({name for p in paths if (name := language_of(p)) and name not in self.runner.languages})
        if not wanted and missing:
            raise PermanentError(f"{missing[0]} files need {linter_of(missing[0])}, which this memfix does not have")
        return each_language(wanted, lambda language: self._run(
            replace(request, language=language.name), target, [p for p in paths if language.owns(p)], settings,
            gh=gh), request, self.llm)

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
                                     mirror=check_run_mirror(gh, repo, target.sha, pipeline, request.job_key),
                                     previous=target.previous)  # None for a file back from a lifted hold: all fixed
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
        comments, outside = _placed([o.patch for o in fixes if o.patch is not None], shown)
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
        proposal = self._refined_proposal(job, pr)
        if not job.args.strip():
            raise PermanentError("`/refine` needs feedback, e.g. `/refine keep the public function name`")
        if self.llm.model is None:
            raise PermanentError("`/refine` needs a model; this installation runs offline (MEMFIX_LLM_PROVIDER)")
        self.proposals.refine_asked(job.tenant_id, proposal.id)
        outcome, run_id, sha = self.revise(gh, job.tenant_id, job.repo, pr, proposal, job.args.strip(), job.key,
                                            "refine")
        if sha is None:
            return _not_revised(outcome, run_id)
        rationale = outcome.patch.rationale if outcome.patch else ""
        return JobResult(f"Revised `{proposal.path}` on `{pr.head_ref}` (commit {sha[:7]}), confidence "
                         f"{outcome.confidence:.2f}.",
                         [f"confidence: {outcome.why}", f"rationale: {escape_braces(rationale)}",
                          f"provider `{self.llm.provider}`, model `{self.llm.model}`; run {run_id}"])

    def _refined_proposal(self, job: CommandJob, pr: PullRequest) -> Proposal:
        """The proposal of the memfix PR `/refine` was asked on; PermanentError for any other PR."""
        proposal = self.proposals.by_branch(job.tenant_id, job.repo, pr.head_ref)
        if (not pr.head_ref.startswith(MEMFIX_BRANCH_PREFIX) or proposal is None
                or pr.head_repo.lower() != job.repo.lower()
                or proposal.pr_number != job.issue_number):  # a fork PR may borrow memfix's branch name
            raise PermanentError("`/refine` works on pull requests memfix opened")
        return proposal

    def revise(self, gh: GitHubPort, tenant_id: int, repo: str, pr: PullRequest, proposal: Proposal, feedback: str,
                job_key: str, trigger: str) -> tuple[FileOutcome, int, str | None]:
        """The model revises memfix's patch on its PR through the runner's own path; a verified revision is pushed
        to the branch and awaits the repository's checks again. (outcome, run id, new commit or None)"""
        path = proposal.path
        settings = self.repo_settings(gh, repo)
        revision = Revision(path, gh.get_file(repo, path, proposal.base_branch) or "", proposal.diff,
                            proposal.rationale, feedback)
        language = language_of(path) or NAMES[0]
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


def _renamed(gh: GitHubPort, job: PushJob, base: str) -> dict[str, str]:
    """{new path: old path} of the push's added files that GitHub's comparison of its commits says were renamed from
    one it removed."""
    try:
        return {new: old for new, old in gh.renames(job.repo, base, job.after).items()
                if new in job.added and old in job.removed}
    except GitHubPermanentError as exc:  # a base force-pushed away: no renames, every added file is new
        log.warning("push %s: GitHub could not compare its commits (%s); no file is taken as renamed", job.key, exc)
        return {}


def _placed(patches: list[Patch], shown: dict[str, list[range]]) -> tuple[list[dict[str, Any]], list[str]]:
    """The patches' changes as review comments with suggestions where the PR's diff shows their lines, else as
    diffs to quote in the review's body: (comments, diffs)."""
    comments, outside = [], []
    for patch in patches:
        for s in suggestions(patch):
            if placeable(s, shown.get(s.path, [])):
                comments.append(s.comment())
            else:
                outside.append(f"`{s.path}`\n{s.diff(patch.original.splitlines())}")
    return comments, outside


def _not_revised(outcome: FileOutcome, run_id: int) -> JobResult:
    """The answer to a `/refine` whose revision was not promoted, and why."""
    reason = outcome.note or (outcome.verification.error if outcome.verification else None) or \
        "its confidence is below the promotion threshold"
    return JobResult(f"The revised patch was not applied ({reason}); the branch is unchanged.",
                     [f"confidence {outcome.confidence:.2f}: {outcome.why}" if outcome.why else f"run {run_id}"])


def _checked(paths: list[str]) -> list[str]:
    """The paths that are safe repository paths; any other is skipped, and logged (it came from a payload)."""
    good = []
    for path in paths:
        try:
            good.append(repo_path(path))
        except PathError as exc:
            log.warning("skipped a path: %s", exc)
    return good
