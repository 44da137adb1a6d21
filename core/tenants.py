"""Installation lifecycle: a tenant and its repositories appear on install and vanish on uninstall; a repository's
memory follows its GitHub id through renames and transfers, and a name another repository takes starts empty."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from core.wire import InstallationJob, JobResult, RepositoryJob

if TYPE_CHECKING:
    from core.db import Connection, Database

log = logging.getLogger(__name__)

# Every column that files memory under a repository's name: what a rename moves and a reused name leaves behind.
REPOSITORY_COLUMNS = (("jobs", "repository"), ("runs", "repository"), ("memory_entries", "repository"),
                      ("workflow_insights", "repository"), ("action_points", "source_repository"),
                      ("action_points", "target_repository"), ("healing_envelopes", "repository"),
                      ("breakers", "repository"), ("proposals", "repository"), ("ring_reads", "repository"),
                      ("curations", "repository"), ("rule_decisions", "repository"),
                      ("held_back", "repository"), ("ci_reruns", "repository"))


class Tenants:
    def __init__(self, db: Database, forget_recent: Callable[[int, str], None] = lambda tenant, repo: None):
        self.db = db
        self.forget_recent = forget_recent  # the hot ring's attempts under a name that now means another repository

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
            self.observe(tenant_id, repo_id, full_name)

    def observe(self, tenant_id: int, repo_id: int, full_name: str) -> str | None:
        """Memory is kept by the repository's id. The id seen under a new name: a rename or transfer, and every row
        moves to the new name. The name recorded for another id: a reused name, and the other repository's rows
        are set aside under `name#<its id>` (kept, never shown or used for this one). Says what it did, or None."""
        said = None
        with self.db.tenant(tenant_id, register=True) as conn:
            known = conn.execute("SELECT full_name FROM repositories WHERE repo_id = %s", (repo_id,)).fetchone()
            holder = conn.execute("SELECT repo_id FROM repositories WHERE full_name = %s AND repo_id <> %s",
                                  (full_name, repo_id)).fetchone()
            if holder is not None:
                aside = f"{full_name}#{holder['repo_id']}"
                _move(conn, full_name, aside)
                conn.execute("UPDATE repositories SET full_name = %s WHERE repo_id = %s", (aside, holder["repo_id"]))
                said = f"{full_name} is another repository now (id {repo_id}); the memory of the former one " \
                       f"(id {holder['repo_id']}) is kept apart as {aside}"
            if known is not None and known["full_name"] != full_name:
                _move(conn, known["full_name"], full_name)
                said = f"{known['full_name']} is now {full_name}: its memory moved with it"
            conn.execute(
                "INSERT INTO repositories (tenant_id, repo_id, full_name) VALUES (%s, %s, %s)"
                " ON CONFLICT (tenant_id, repo_id) DO UPDATE SET full_name = EXCLUDED.full_name, removed_at = NULL",
                (tenant_id, repo_id, full_name))
        if said:
            log.info("installation %s: %s", tenant_id, said)
            if holder is not None:
                self.forget_recent(tenant_id, full_name)
            if known is not None and known["full_name"] != full_name:
                self.forget_recent(tenant_id, known["full_name"])
        return said

    def on_repository(self, job: RepositoryJob) -> JobResult:
        """A `repository` renamed or transferred event: the job runner has already made memory follow the id."""
        return JobResult(f"{job.former} was {job.action}; it is {job.repo} now, and its memory follows it")

    def forget_repositories(self, tenant_id: int, repo_ids: list[int]) -> None:
        """Out of the installation, but still on record: a new repository taking the name is told apart from it."""
        with self.db.tenant(tenant_id) as conn:
            conn.execute("UPDATE repositories SET removed_at = now() WHERE repo_id = ANY(%s)", (repo_ids,))

    def delete(self, tenant_id: int) -> int:
        """Every tenant table references installations ON DELETE CASCADE, so one delete removes all."""
        with self.db.tenant(tenant_id) as conn:
            cur = conn.execute("DELETE FROM installations WHERE tenant_id = %s", (tenant_id,))
            return cur.rowcount

    def repositories(self, tenant_id: int, *, removed: bool = False) -> list[str]:
        """The installation's repositories by name; `removed`: those taken out of it too (their memory is kept)."""
        with self.db.tenant(tenant_id) as conn:
            return [r["full_name"] for r in conn.execute(
                "SELECT full_name FROM repositories WHERE %s OR removed_at IS NULL ORDER BY full_name", (removed,))]


def _move(conn: Connection, old: str, new: str) -> None:
    """Every row filed under `old` refiled under `new` (letters' source references too), in the caller's transaction."""
    for table, column in REPOSITORY_COLUMNS:
        conn.execute(f"UPDATE {table} SET {column} = %s WHERE {column} = %s", (new, old))  # noqa: S608 — constants
    conn.execute("UPDATE memory_entries SET source_ref = %s || substr(source_ref, %s)"
                 " WHERE source_ref LIKE %s", (f"github://{new}/", len(f"github://{old}/") + 1,
                                                f"github://{_like(old)}/%"))


def _like(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
