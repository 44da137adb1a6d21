"""Installation lifecycle: a tenant and its repositories appear on install and vanish on uninstall."""

from __future__ import annotations

from typing import TYPE_CHECKING

from core.models import InstallationJob, JobResult

if TYPE_CHECKING:
    from core.db import Database


class Tenants:
    def __init__(self, db: Database):
        self.db = db

    def handle(self, job: InstallationJob) -> JobResult:
        if job.action == "deleted":
            removed = self.delete(job.tenant_id)
            return JobResult(f"installation {job.tenant_id} deleted; {removed} tenant rows removed")
        if job.action in ("created", "added"):
            self.register(job.tenant_id, job.account, job.repositories)
            return JobResult(f"installation {job.tenant_id}: {len(job.repositories)} repositories registered")
        if job.action == "removed":
            self.forget_repositories(job.tenant_id, [repo_id for repo_id, _ in job.repositories])
            return JobResult(f"installation {job.tenant_id}: {len(job.repositories)} repositories removed")
        return JobResult(f"installation action {job.action!r} needs nothing")

    def register(self, tenant_id: int, account: str, repositories: tuple[tuple[int, str], ...]) -> None:
        with self.db.tenant(tenant_id) as conn:
            conn.execute(
                "INSERT INTO installations (tenant_id, account_login) VALUES (%s, %s)"
                " ON CONFLICT (tenant_id) DO UPDATE SET account_login = COALESCE(NULLIF(EXCLUDED.account_login, ''),"
                " installations.account_login), updated_at = now()",
                (tenant_id, account),
            )
            for repo_id, full_name in repositories:
                conn.execute(
                    "INSERT INTO repositories (tenant_id, repo_id, full_name) VALUES (%s, %s, %s)"
                    " ON CONFLICT (tenant_id, repo_id) DO UPDATE SET full_name = EXCLUDED.full_name",
                    (tenant_id, repo_id, full_name),
                )

    def forget_repositories(self, tenant_id: int, repo_ids: list[int]) -> None:
        with self.db.tenant(tenant_id) as conn:
            conn.execute("DELETE FROM repositories WHERE repo_id = ANY(%s)", (repo_ids,))

    def delete(self, tenant_id: int) -> int:
        """Every tenant table references installations ON DELETE CASCADE, so one delete removes all."""
        with self.db.tenant(tenant_id) as conn:
            cur = conn.execute("DELETE FROM installations WHERE tenant_id = %s", (tenant_id,))
            return cur.rowcount

    def repositories(self, tenant_id: int) -> list[str]:
        with self.db.tenant(tenant_id) as conn:
            return [r["full_name"] for r in conn.execute("SELECT full_name FROM repositories ORDER BY full_name")]
