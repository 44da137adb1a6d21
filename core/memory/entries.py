"""Layer 1 of memory, the knowledge base: entries people write or letters bring in. Searchable, never injected.

Reads rely on row-level security alone to see only the tenant's rows; writes name the tenant explicitly.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from core.db import one
from core.memory.insights import searchable
from core.memory.types import MemoryEntry

if TYPE_CHECKING:
    from core.db import Database


_COLUMNS = "id, title, content, source, tags, repository, source_ref, letter_date"
_INSERT = (
    "INSERT INTO memory_entries (tenant_id, title, content, source, tags, repository, source_ref, letter_date)"
    " VALUES (%(tenant_id)s, %(title)s, %(content)s, %(source)s, %(tags)s, %(repository)s, %(source_ref)s,"
    " %(letter_date)s)"
)
INSERT_ENTRY = _INSERT + " RETURNING id"
# xmax is 0 only on a freshly inserted row version: it tells an insert from an update in one statement.
UPSERT_ENTRY = _INSERT + (
    " ON CONFLICT (tenant_id, source_ref) DO UPDATE SET title = EXCLUDED.title, content = EXCLUDED.content,"
    " source = EXCLUDED.source, tags = EXCLUDED.tags, repository = EXCLUDED.repository,"
    " letter_date = EXCLUDED.letter_date, updated_at = now()"
    " RETURNING id, (xmax = 0) AS created"
)
DELETE_BY_SOURCE_REF = "DELETE FROM memory_entries WHERE source_ref = %(source_ref)s"
DELETE_ENTRY = ("DELETE FROM memory_entries WHERE id = %(id)s"
                " AND (%(repository)s::text IS NULL OR repository = %(repository)s::text)")
GET_ENTRY = f"SELECT {_COLUMNS} FROM memory_entries WHERE id = %(id)s"
# A query of only stop words matches nothing; numnode = 0 says so before any row is read.
SEARCH_ENTRIES = f"""
WITH q AS (SELECT websearch_to_tsquery('english', %(query)s) AS q)
SELECT {_COLUMNS}, ts_rank(search_vector, q.q, 32) AS score
FROM memory_entries, q
WHERE numnode(q.q) > 0 AND search_vector @@ q.q
  AND (%(repository)s::text IS NULL OR repository = %(repository)s::text)
ORDER BY score DESC, id DESC
LIMIT %(limit)s
"""
NEWEST_ENTRIES = (f"SELECT {_COLUMNS} FROM memory_entries WHERE repository = %(repository)s"
                  " ORDER BY letter_date DESC NULLS LAST, id DESC LIMIT %(limit)s")
COUNT_ENTRIES = (
    "SELECT count(*) AS n FROM memory_entries"
    " WHERE %(repository)s::text IS NULL OR repository = %(repository)s::text"
)


def _params(tenant_id: int, entry: MemoryEntry) -> dict[str, Any]:
    return {
        "tenant_id": tenant_id, "title": entry.title, "content": entry.content, "source": entry.source,
        "tags": list(entry.tags), "repository": entry.repository, "source_ref": entry.source_ref,
        "letter_date": entry.letter_date,
    }


def _entry(row: dict[str, Any]) -> MemoryEntry:
    return MemoryEntry(**{**row, "tags": tuple(row["tags"])})


class Entries:
    """The tenant's knowledge base in `memory_entries`."""

    def __init__(self, db: Database):
        self.db = db

    def add(self, tenant_id: int, entry: MemoryEntry) -> int:
        with self.db.tenant(tenant_id, register=True) as conn:
            return int(one(conn.execute(INSERT_ENTRY, _params(tenant_id, entry)).fetchone())["id"])

    def upsert_by_source_ref(self, tenant_id: int, entry: MemoryEntry) -> tuple[int, bool]:
        """(id, created): the entry with this source_ref is replaced, or inserted when there is none."""
        if not entry.source_ref:
            raise ValueError("upsert_by_source_ref needs an entry with a source_ref")
        with self.db.tenant(tenant_id, register=True) as conn:
            row = one(conn.execute(UPSERT_ENTRY, _params(tenant_id, entry)).fetchone())
            return row["id"], row["created"]

    def delete_by_source_ref(self, tenant_id: int, source_ref: str) -> bool:
        with self.db.tenant(tenant_id) as conn:
            return conn.execute(DELETE_BY_SOURCE_REF, {"source_ref": source_ref}).rowcount > 0

    def delete(self, tenant_id: int, entry_id: int, *, repository: str | None) -> bool:
        """`repository` None reaches the whole installation: only an operator's explicit `--all` passes it."""
        with self.db.tenant(tenant_id) as conn:
            return conn.execute(DELETE_ENTRY, {"id": entry_id, "repository": repository}).rowcount > 0

    def get(self, tenant_id: int, entry_id: int) -> MemoryEntry | None:
        with self.db.tenant(tenant_id) as conn:
            row = conn.execute(GET_ENTRY, {"id": entry_id}).fetchone()
        return _entry(row) if row else None

    def search(
        self, tenant_id: int, query: str, *, repository: str | None = None, limit: int = 10
    ) -> list[tuple[MemoryEntry, float]]:
        """Full-text hits, best first; `repository` keeps only that repository's entries (None: the whole
        installation, for an operator's explicit `--all`)."""
        if not searchable(query).strip():
            return []
        with self.db.tenant(tenant_id) as conn:
            rows = conn.execute(
                SEARCH_ENTRIES, {"query": query, "repository": repository, "limit": limit}
            ).fetchall()
        return [(_entry({k: v for k, v in row.items() if k != "score"}), float(row["score"])) for row in rows]

    def newest(self, tenant_id: int, repository: str, limit: int) -> list[MemoryEntry]:
        """One repository's entries, the newest letters first (entries with no letter date after them)."""
        with self.db.tenant(tenant_id) as conn:
            rows = conn.execute(NEWEST_ENTRIES, {"repository": repository, "limit": limit}).fetchall()
        return [_entry(r) for r in rows]

    def count(self, tenant_id: int, repository: str | None = None) -> int:
        with self.db.tenant(tenant_id) as conn:
            return int(one(conn.execute(COUNT_ENTRIES, {"repository": repository}).fetchone())["n"])
