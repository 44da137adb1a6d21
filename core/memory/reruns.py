"""The `ci_reruns` table: each time memfix asked GitHub to run a memfix PR's failed checks again, or was refused.
The weekly cap counts the re-runs asked in a repository; the first re-run there is announced on its PR and the first
refusal said in its PR's comment, each once."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from core.github.types import RerunAnswer

if TYPE_CHECKING:
    from core.db import Connection, Database

WEEKLY_RERUNS = 5  # re-runs spend the team's CI time and can hide a real failure: a few a week find a flaky check
_LOCK = 7_310_043  # advisory lock class: one claim at a time per repository, so the cap and "first" are exact


@dataclass(frozen=True)
class RerunSlot:
    """One re-run claimed in a repository's week."""

    id: int
    first: bool  # the first re-run memfix asks for in this repository: said on the PR, once


class CiReruns:
    """Every read and write of `ci_reruns`, each under the tenant's row-level security."""

    def __init__(self, db: Database):
        self.db = db

    def claim(self, tenant_id: int, repo: str, proposal_id: int, sha: str, most: int | None) -> RerunSlot | None:
        """One of the `most` re-runs memfix may ask for in a repository in 7 days (None: no cap, the team's word);
        None when it asked for them all."""
        with self.db.tenant(tenant_id) as conn:
            _serialise(conn, tenant_id, repo)
            row = conn.execute(
                "SELECT count(*) FILTER (WHERE asked_at > now() - interval '7 days') AS week,"
                " count(*) FILTER (WHERE said) AS said FROM ci_reruns WHERE repository = %s AND answer = %s",
                (repo, RerunAnswer.ASKED)).fetchone()
            if row is None or most is not None and row["week"] >= most:
                return None
            first = row["said"] == 0
            inserted = conn.execute(
                "INSERT INTO ci_reruns (tenant_id, repository, proposal_id, head_sha, answer, said)"
                " VALUES (%s, %s, %s, %s, %s, %s) RETURNING id",
                (tenant_id, repo, proposal_id, sha, RerunAnswer.ASKED, first)).fetchone()
        return RerunSlot(int(inserted["id"]), first) if inserted else None

    def unsaid(self, tenant_id: int, slot: RerunSlot) -> None:
        """The announcement could not be posted: the next re-run in the repository makes it."""
        with self.db.tenant(tenant_id) as conn:
            conn.execute("UPDATE ci_reruns SET said = false WHERE id = %s", (slot.id,))

    def refused(self, tenant_id: int, repo: str, slot: RerunSlot) -> bool:
        """GitHub refused the re-run: the slot no longer counts against the cap. True when no other commit's re-run
        was refused in this repository before (the refusal is said once; the same commit's job run again says it
        again, since its comment may not have been posted)."""
        with self.db.tenant(tenant_id) as conn:
            _serialise(conn, tenant_id, repo)
            row = conn.execute(
                "UPDATE ci_reruns SET answer = %s, said = false WHERE id = %s RETURNING proposal_id, head_sha",
                (RerunAnswer.REFUSED, slot.id)).fetchone()
            if row is None:
                return False
            return conn.execute(
                "SELECT 1 FROM ci_reruns WHERE repository = %s AND answer = %s"
                " AND (proposal_id, head_sha) <> (%s, %s) LIMIT 1",
                (repo, RerunAnswer.REFUSED, row["proposal_id"], row["head_sha"])).fetchone() is None

    def release(self, tenant_id: int, slot: RerunSlot) -> None:
        """Nothing was run again after all: the slot is given back."""
        with self.db.tenant(tenant_id) as conn:
            conn.execute("DELETE FROM ci_reruns WHERE id = %s", (slot.id,))


def _serialise(conn: Connection, tenant_id: int, repo: str) -> None:
    conn.execute("SELECT pg_advisory_xact_lock(%s, hashtext(%s))", (_LOCK, f"{tenant_id}:{repo}"))
