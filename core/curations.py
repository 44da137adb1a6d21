"""The `curations` table: what people did to memory from the dashboard, who and when, per repository."""

from __future__ import annotations

from dataclasses import dataclass, fields
from datetime import datetime
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from core.db import Database

TARGET_CHARS = 500


@dataclass(frozen=True)
class Curation:
    id: int
    repository: str | None  # None: installation-wide (re-embedding)
    actor: str
    action: str  # the command (remember, forget), edit or reembed
    target: str
    created_at: datetime


_COLUMNS = ", ".join(f.name for f in fields(Curation))


class Curations:
    def __init__(self, db: Database):
        self.db = db

    def record(self, tenant_id: int, repo: str | None, actor: str, action: str, target: str) -> None:
        with self.db.tenant(tenant_id, register=True) as conn:
            conn.execute("INSERT INTO curations (tenant_id, repository, actor, action, target) VALUES (%s, %s, %s, %s,"
                         " %s)", (tenant_id, repo, actor, action, target[:TARGET_CHARS]))

    def of_repository(self, tenant_id: int, repo: str, limit: int) -> list[Curation]:
        """The newest first."""
        with self.db.tenant(tenant_id) as conn:
            return [Curation(**r) for r in conn.execute(
                f"SELECT {_COLUMNS} FROM curations WHERE repository = %s ORDER BY id DESC LIMIT %s",
                (repo, limit)).fetchall()]
