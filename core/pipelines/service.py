"""Pipeline jobs: push, `/autofix`, `/refactor`, issues labelled memfix, `/refine`, and PR outcomes."""

from __future__ import annotations

import copy
import logging
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from core.bounded import user_text
from core.errors import PermanentError
from core.events import MEMFIX_BRANCH_PREFIX
from core.memory.sanitize import escape_braces
from core.models import CommandJob, IssueJob, JobResult, PushJob
from core.paths import PathError, repo_path
from core.pipelines.config import CONFIG_PATH, RepoConfig, parse_config
from core.pipelines.port import GitHubPort
from core.pipelines.present import result
from core.pipelines.prompt import Revision
from core.pipelines.publish import Proposals, Publisher
from core.pipelines.runner import PipelineRunner, RunReport, RunRequest
from core.pipelines.runs import Mirror
from core.pipelines.suggest import hunks, placeable, suggestions
from core.pipelines.workspace import GitHubWorkspace

log = logging.getLogger(__name__)
MAX_REPO_FILES = 300  # an issue with no file named scans at most this many Python files


def check_run_mirror(gh: GitHubPort, repo: str, head_sha: str | None, name: str) -> Mirror | None:
    """A GitHub check run on the commit that follows the run's phase; GitHub trouble never fails the run."""
    if not head_sha:
        return None
    state: dict[str, Any] = {"id": None, "seen": set()}

    def mirror(phase: str, text: str) -> None:
        if phase in state["seen"] and phase not in ("done", "failed"):
            return
        state["seen"].add(phase)
        try:
            if phase in ("done", "failed"):
                fields = dict(status="completed", conclusion="success" if phase == "done" else "failure",
                              title=f"memfix {name}: {phase}", summary=text or phase)
                if state["id"] is None:
                    state["id"] = gh.create_check_run(repo, head_sha, f"memfix {name}", **fields)
                else:
                    gh.update_check_run(repo, state["id"], **fields)
            elif state["id"] is None:
                state["id"] = gh.create_check_run(repo, head_sha, f"memfix {name}", "in_progress",
                                                  title=phase, summary=text or phase)
            else:
                gh.update_check_run(repo, state["id"], status="in_progress", title=phase, summary=text or phase)
        except Exception:
            log.warning("check run update for %s failed", repo, exc_info=True)

    return mirror


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

    # ---- triggers ----

    def on_push(self, job: PushJob) -> RunReport | None:
        paths = _checked([p for p in (*job.added, *job.modified) if p.endswith(".py")])
        if not paths:
            return None
        gh = self.github(job.tenant_id)
        settings = self.repo_settings(gh, job.repo, job.default_branch, job.after)
        return self._run(job.tenant_id, job.repo, "autofix", "push", job.key, Target(job.after, job.default_branch),
                         paths, settings, gh=gh, quiet_if_off=True)

    def on_command(self, job: CommandJob) -> JobResult:
        path, guidance = job.path_and_guidance
        path = repo_path(path) if path else None  # a bad path is refused before anything is fetched
        gh = self.github(job.tenant_id)
        pipeline = job.command
        settings = self.repo_settings(gh, job.repo)
        if job.is_pull_request:
            target = self._pull_target(gh, job.repo, job.issue_number)
            paths = [path] if path else _checked([f["filename"] for f in gh.list_pull_files(job.repo, job.issue_number)
                                                  if f.get("status") != "removed"])
        else:
            branch = gh.get_repository(job.repo)["default_branch"]
            target = Target(gh.get_branch_sha(job.repo, branch), branch)
            paths = [path] if path else self._repo_python_files(gh, job.repo, target.sha, guidance or "")
        report = self._run(job.tenant_id, job.repo, pipeline, "command", job.key, target, paths, settings, gh=gh,
                           guidance=guidance, issue_number=None if job.is_pull_request else job.issue_number)
        return result(report, pipeline, paths, self._checks_link(job.repo, target.sha))

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
        paths = self._repo_python_files(gh, job.repo, target.sha, guidance)
        report = self._run(job.tenant_id, job.repo, "autofix", "issue", job.key, target, paths,
                           self.repo_settings(gh, job.repo, branch, target.sha), gh=gh, guidance=guidance,
                           issue_number=job.issue_number)
        return result(report, "autofix", paths, self._checks_link(job.repo, target.sha))

    def _repo_python_files(self, gh: GitHubPort, repo: str, sha: str, text: str) -> list[str]:
        every = _checked([p for p in gh.list_files(repo, sha) if p.endswith(".py")])
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

    def _run(self, tenant_id: int, repo: str, pipeline: str, trigger: str, job_key: str, target: Target,
             paths: list[str], settings: RepoSettings, *, gh: GitHubPort, guidance: str | None = None,
             issue_number: int | None = None, quiet_if_off: bool = False) -> RunReport | None:
        config = settings.config
        if not config.enabled(pipeline):
            if quiet_if_off:
                return None
            raise PermanentError(f"the {pipeline} pipeline is switched off in {settings.source}")
        workspace = GitHubWorkspace(gh, repo, target.sha, paths)
        try:
            runner = self.runner
            if (config.provider or config.model) and self.llm_for is not None:
                runner = copy.copy(self.runner)  # same parts, the repository's own model
                runner.llm = self.llm_for(config.provider, config.model)
            request = RunRequest(tenant_id, repo, pipeline, trigger, job_key=job_key, head_sha=target.sha,
                                 base_branch=target.base_branch, guidance=guidance, issue_number=issue_number,
                                 linked_ids=list(config.memory))
            publisher = Publisher(self.proposals, gh) if target.base_branch else None
            report = runner.run(request, workspace, publisher=publisher, config=config,
                                mirror=check_run_mirror(gh, repo, target.sha, pipeline))
            report.config_problems = settings.problems
            report.notes.insert(0, f"configuration: {settings.source}")
            if target.fork:
                report.notes.append(self._suggest(gh, repo, target, report, min(config.max_prs,
                                                                                 runner.max_prs_cap)))
            self.metric("PRsOpened", sum(o.published.action == "created" for o in report.prs))
            self.metric("ModelTokens", report.prompt_tokens)
            return report
        finally:
            workspace.close()

    def _suggest(self, gh: GitHubPort, repo: str, target: Target, report: RunReport, max_files: int) -> str:
        """A fork's branch is not memfix's to push to: its verified fixes become one review of suggestions."""
        fixes = sorted(report.promoted, key=lambda o: o.path)[:max_files]
        fork = f"this pull request comes from the fork `{target.fork}`, where memfix cannot push"
        if not fixes:
            return f"{fork}; no verified fix to suggest"
        shown = {f["filename"]: hunks(f.get("patch")) for f in gh.list_pull_files(repo, target.pr_number)}
        comments, outside = [], []
        for outcome in fixes:
            for s in suggestions(outcome.patch):
                if placeable(s, shown.get(s.path, [])):
                    comments.append(s.comment())
                else:
                    outside.append(f"`{s.path}`\n{s.diff(outcome.patch.original.splitlines())}")
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
                or proposal["pr_number"] != job.issue_number):  # a fork PR may borrow memfix's branch name
            raise PermanentError("`/refine` works on pull requests memfix opened")
        if not job.args.strip():
            raise PermanentError("`/refine` needs feedback, e.g. `/refine keep the public function name`")
        if self.llm.model is None:
            raise PermanentError("`/refine` needs a model; this installation runs offline (MEMFIX_LLM_PROVIDER)")
        path = proposal["path"]
        settings = self.repo_settings(gh, job.repo)
        revision = Revision(path, gh.get_file(job.repo, path, proposal["base_branch"]) or "", proposal["diff"],
                            proposal["rationale"], job.args.strip())
        request = RunRequest(job.tenant_id, job.repo, proposal["pipeline"], "refine", job_key=job.key,
                             head_sha=pr.head_sha, linked_ids=list(settings.config.memory))
        workspace = GitHubWorkspace(gh, job.repo, pr.head_sha, [path])
        try:
            outcome, run_id = self.runner.refine(request, workspace, revision, settings.config)
        finally:
            workspace.close()
        if outcome.status != "PROMOTED":
            reason = outcome.note or (outcome.verification.error if outcome.verification else None) or \
                "its confidence is below the promotion threshold"
            return JobResult(f"The revised patch was not applied ({reason}); the branch is unchanged.",
                             [f"confidence {outcome.confidence:.2f}: {outcome.why}" if outcome.why else
                              f"run {run_id}"])
        patch = outcome.patch
        sha = gh.put_file(job.repo, path, patch.updated, branch, f"memfix refine: {patch.rationale[:60]}",
                          sha=gh.get_file_sha(job.repo, path, branch))
        self.proposals.save(job.tenant_id, repository=job.repo, fingerprint=proposal["fingerprint"],
                            pipeline=proposal["pipeline"], path=path, branch=branch,
                            base_branch=proposal["base_branch"], diff="\n".join(patch.changed_lines()),
                            rationale=patch.rationale, head_sha=sha)
        return JobResult(f"Revised `{path}` on `{branch}` (commit {sha[:7]}), confidence {outcome.confidence:.2f}.",
                         [f"confidence: {outcome.why}", f"rationale: {escape_braces(patch.rationale)}",
                          f"provider `{self.llm.provider}`, model `{self.llm.model}`; run {run_id}"])


def _checked(paths: list[str]) -> list[str]:
    """The paths that are safe repository paths; any other is skipped, and logged (it came from a payload)."""
    good = []
    for path in paths:
        try:
            good.append(repo_path(path))
        except PathError as exc:
            log.warning("skipped a path: %s", exc)
    return good
