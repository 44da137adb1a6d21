"""Single-file PRs on deterministic branches: found and updated, never duplicated; a rejected change stays rejected."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from functools import cached_property
from typing import TYPE_CHECKING, Any

from core.change import Patch
from core.memory.proposals import CiState, Proposal, ProposalState
from core.pipelines.port import GitHubPort

if TYPE_CHECKING:
    from core.memory.proposals import Proposals


def branch_name(pipeline: str, path: str, fingerprint: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", path.lower()).strip("-")[:60] or "file"
    return f"memfix/{pipeline}/{slug}-{fingerprint}"



# Where a repository's CI is configured: a repository with none of these gets its PRs ready for review at once.
CI_CONFIG = (".github/workflows/", ".travis.yml", ".circleci/", "azure-pipelines.yml", ".azure-pipelines/",
             "Jenkinsfile", "appveyor.yml", ".appveyor.yml", ".cirrus.yml", ".buildkite/", ".drone.yml",
             ".woodpecker.yml", ".woodpecker/", "bitbucket-pipelines.yml", ".gitlab-ci.yml", "buildspec.yml")


def has_ci(paths: list[str]) -> bool:
    return any(p.startswith(c) if c.endswith("/") else p == c for p in paths for c in CI_CONFIG)


class PublishAction(StrEnum):
    """What publishing a verified patch did."""

    CREATED = "created"  # a new PR
    UPDATED = "updated"  # memfix's open PR for the same change got the new text
    UNCHANGED = "unchanged"  # that PR already had it
    SKIPPED = "skipped"  # reviewers decided on this change before: not proposed again


@dataclass(frozen=True)
class Published:
    action: PublishAction
    pr_number: int | None = None
    url: str | None = None
    reason: str = ""


@dataclass(frozen=True)
class Draft:
    """What a verified patch is proposed as: its PR's title and body, the branch it goes to, and the run, model and
    insights a merge or close will be evidence about."""

    title: str
    body: str
    base_branch: str
    run_id: int
    insight_ids: list[int]
    provider: str
    model: str | None
    exploratory: bool = False  # it tries a held rule again on purpose (the exploration budget counts it)
    place: str | None = None  # the kind of place the file is (core/learning/places.py): the evidence's context


class Publisher:
    def __init__(self, proposals: Proposals, gh: GitHubPort, files: Callable[[], list[str]] | None = None):
        self.proposals = proposals
        self.gh = gh
        self.files = files  # the repository's paths at the scanned commit, asked once, only when a PR is opened

    @cached_property
    def ci(self) -> CiState:
        """WAITING: PRs open as drafts until the repository's checks report; ABSENT: no CI, ready at once."""
        return CiState.WAITING if self.files is None or has_ci(self.files()) else CiState.ABSENT

    def publish(self, tenant_id: int, repo: str, pipeline: str, patch: Patch, draft: Draft) -> Published:
        title, body, base_branch = draft.title, draft.body, draft.base_branch
        if patch.unsafe and self.ci == CiState.ABSENT:  # an unsafe fix goes out only where CI verifies it
            return Published(PublishAction.SKIPPED, None, reason="its linter calls this fix unsafe, and the "
                             "repository has no CI to verify it: left for a person")
        fingerprint = patch.fingerprint(pipeline)
        if (settled := _settled(self.proposals.by_fingerprint(tenant_id, repo, fingerprint))) is not None:
            return settled
        branch = branch_name(pipeline, patch.path, fingerprint)
        message = f"memfix {pipeline}: {title}"
        pr = self.gh.find_open_pr(repo, branch)
        ci: dict[str, Any] = {"ci_state": self.ci, "ci_since": datetime.now(UTC), "ci_detail": "", "ci_refined": False}
        if pr is not None:
            current = self.gh.get_file(repo, patch.path, branch)
            if current == patch.updated:
                action, head, ci = PublishAction.UNCHANGED, pr.head_sha, {}
            else:
                head = self.gh.put_file(repo, patch.path, patch.updated, branch, message,
                                        sha=self.gh.get_file_sha(repo, patch.path, branch))
                action = PublishAction.UPDATED
            self.gh.update_pr(repo, pr.number, body=body)
        else:
            self.gh.create_branch(repo, branch, self.gh.get_branch_sha(repo, base_branch))
            head = self.gh.put_file(repo, patch.path, patch.updated, branch, message,
                                    sha=self.gh.get_file_sha(repo, patch.path, branch))
            pr = self.gh.create_pr(repo, f"memfix: {title}", body, branch, base_branch,
                                   draft=self.ci == CiState.WAITING)
            action = PublishAction.CREATED
        self.proposals.save(
            tenant_id, repository=repo, pipeline=pipeline, fingerprint=fingerprint, path=patch.path, branch=branch,
            base_branch=base_branch, pr_number=pr.number, head_sha=head, state=ProposalState.OPEN, run_id=draft.run_id,
            insight_ids=draft.insight_ids,
            finding_codes=sorted({f.code for f in patch.findings}), diff="\n".join(patch.changed_lines()),
            finding_lines=json.dumps(sorted({(f.line, f.code) for f in patch.findings})),
            rationale=patch.rationale, provider=draft.provider, model=draft.model, exploratory=draft.exploratory,
            place=draft.place, **ci,
        )
        return Published(action, pr.number, pr.html_url)


def _settled(previous: Proposal | None) -> Published | None:
    """The same change proposed before and settled by a person: closed unmerged, or merged; it is not proposed
    again."""
    if previous and previous.state == ProposalState.CLOSED:
        return Published(PublishAction.SKIPPED, previous.pr_number, reason="a reviewer closed this change unmerged")
    if previous and previous.state == ProposalState.MERGED:
        return Published(PublishAction.SKIPPED, previous.pr_number, reason="this change was already merged")
    return None
