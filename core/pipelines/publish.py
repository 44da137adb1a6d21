"""Single-file PRs on deterministic branches: found and updated, never duplicated; a rejected change stays rejected."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from core.models import Patch
from core.pipelines.port import GitHubPort

if TYPE_CHECKING:
    from core.db import Database


def branch_name(pipeline: str, path: str, fingerprint: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", path.lower()).strip("-")[:60] or "file"
    return f"memfix/{pipeline}/{slug}-{fingerprint}"


@dataclass(frozen=True)
class Published:
    action: str  # created | updated | unchanged | skipped
    pr_number: int | None = None
    url: str | None = None
    reason: str = ""


class Proposals:
    """The `proposals` table: what memfix proposed, where, and what became of it."""

    def __init__(self, db: Database):
        self.db = db

    def by_fingerprint(self, tenant_id: int, repo: str, fingerprint: str) -> dict | None:
        with self.db.tenant(tenant_id) as conn:
            return conn.execute("SELECT * FROM proposals WHERE repository = %s AND fingerprint = %s",
                                (repo, fingerprint)).fetchone()

    def by_branch(self, tenant_id: int, repo: str, branch: str) -> dict | None:
        with self.db.tenant(tenant_id) as conn:
            return conn.execute("SELECT * FROM proposals WHERE repository = %s AND branch = %s ORDER BY id DESC",
                                (repo, branch)).fetchone()

    def save(self, tenant_id: int, **row: Any) -> None:
        columns = ", ".join(row)
        updates = ", ".join(f"{c} = EXCLUDED.{c}" for c in row if c not in ("repository", "fingerprint"))
        with self.db.tenant(tenant_id, register=True) as conn:
            conn.execute(
                f"INSERT INTO proposals (tenant_id, {columns}) VALUES (%(tenant_id)s, "
                + ", ".join(f"%({c})s" for c in row)
                + f") ON CONFLICT (tenant_id, repository, fingerprint) DO UPDATE SET {updates}, updated_at = now()",
                {"tenant_id": tenant_id, **row},
            )


class Publisher:
    def __init__(self, proposals: Proposals, gh: GitHubPort):
        self.proposals = proposals
        self.gh = gh

    def publish(self, tenant_id: int, repo: str, pipeline: str, patch: Patch, *, base_branch: str, title: str,
                body: str, run_id: int, insight_ids: list[int], provider: str, model: str | None) -> Published:
        fingerprint = patch.fingerprint(pipeline)
        previous = self.proposals.by_fingerprint(tenant_id, repo, fingerprint)
        if previous and previous["state"] == "closed":
            return Published("skipped", previous["pr_number"], reason="a reviewer closed this change unmerged")
        if previous and previous["state"] == "merged":
            return Published("skipped", previous["pr_number"], reason="this change was already merged")
        branch = branch_name(pipeline, patch.path, fingerprint)
        message = f"memfix {pipeline}: {title}"
        pr = self.gh.find_open_pr(repo, branch)
        if pr is not None:
            current = self.gh.get_file(repo, patch.path, branch)
            if current == patch.updated:
                action, head = "unchanged", pr.head_sha
            else:
                head = self.gh.put_file(repo, patch.path, patch.updated, branch, message,
                                        sha=self.gh.get_file_sha(repo, patch.path, branch))
                action = "updated"
            self.gh.update_pr(repo, pr.number, body=body)
        else:
            self.gh.create_branch(repo, branch, self.gh.get_branch_sha(repo, base_branch))
            head = self.gh.put_file(repo, patch.path, patch.updated, branch, message,
                                    sha=self.gh.get_file_sha(repo, patch.path, branch))
            pr = self.gh.create_pr(repo, f"memfix: {title}", body, branch, base_branch)
            action = "created"
        self.proposals.save(
            tenant_id, repository=repo, pipeline=pipeline, fingerprint=fingerprint, path=patch.path, branch=branch,
            base_branch=base_branch, pr_number=pr.number, head_sha=head, state="open", run_id=run_id,
            insight_ids=insight_ids,
            finding_codes=sorted({f.code for f in patch.findings}), diff="\n".join(patch.changed_lines()),
            rationale=patch.rationale, provider=provider, model=model,
        )
        return Published(action, pr.number, pr.html_url)
