"""Layer 1 memory entries against the real database, as the application role under row-level security."""

from __future__ import annotations

from datetime import date

import psycopg
import pytest

from core.memory.entries import Entries
from core.memory.types import MemoryEntry


@pytest.fixture
def entries(db) -> Entries:
    return Entries(db)


def note(title: str, content: str = "", **fields) -> MemoryEntry:
    return MemoryEntry(title=title, content=content, **fields)


def test_add_creates_the_installation_and_get_round_trips(entries, db, tenant_id):
    entry = note("Use UTC", "Store timestamps in UTC.", tags=("time", "db"), repository="acme/api",
                 source="import", source_ref="x://1", letter_date=date(2024, 1, 2))
    entry_id = entries.add(tenant_id, entry)
    assert entries.get(tenant_id, entry_id) == MemoryEntry(**{**entry.__dict__, "id": entry_id})
    with db.tenant(tenant_id) as conn:
        assert conn.execute("SELECT count(*) AS n FROM installations").fetchone()["n"] == 1
    assert entries.get(tenant_id, entry_id + 10_000) is None


def test_untagged_entry_reads_back_with_an_empty_tuple(entries, tenant_id):
    assert entries.get(tenant_id, entries.add(tenant_id, note("Bare"))).tags == ()


def test_upsert_by_source_ref_creates_then_updates_the_same_row(entries, tenant_id):
    first_id, created = entries.upsert_by_source_ref(tenant_id, note("Old", "old body", source_ref="github://a/b/x"))
    assert created
    again_id, created = entries.upsert_by_source_ref(
        tenant_id, note("New", "new body", tags=("t",), source_ref="github://a/b/x", source="github")
    )
    assert (again_id, created) == (first_id, False)
    assert entries.count(tenant_id) == 1
    stored = entries.get(tenant_id, first_id)
    assert (stored.title, stored.content, stored.tags, stored.source) == ("New", "new body", ("t",), "github")
    assert [e.id for e, _ in entries.search(tenant_id, "new")] == [first_id]  # the trigger re-indexed the row
    assert entries.search(tenant_id, "old") == []


def test_upsert_needs_a_source_ref(entries, tenant_id):
    with pytest.raises(ValueError, match="source_ref"):
        entries.upsert_by_source_ref(tenant_id, note("No ref"))


def test_delete_and_delete_by_source_ref(entries, tenant_id):
    kept = entries.add(tenant_id, note("Kept", source_ref="ref://kept"))
    by_id = entries.add(tenant_id, note("By id"))
    entries.add(tenant_id, note("By ref", source_ref="ref://gone"))
    assert not entries.delete(tenant_id, by_id, repository="acme/elsewhere")  # another repository's memory
    assert entries.delete(tenant_id, by_id, repository=None) and not entries.delete(tenant_id, by_id, repository=None)
    assert entries.delete_by_source_ref(tenant_id, "ref://gone")
    assert not entries.delete_by_source_ref(tenant_id, "ref://gone")
    assert [e.id for e, _ in entries.search(tenant_id, "kept by")] == [kept]


def test_search_ranks_a_title_hit_above_a_body_hit(entries, tenant_id):
    body_hit = entries.add(tenant_id, note("Deploy checklist", "Check the database connection pooling first."))
    title_hit = entries.add(tenant_id, note("Connection pooling limits", "Keep max_size below the server limit."))
    entries.add(tenant_id, note("Unrelated", "Nothing to see."))
    hits = entries.search(tenant_id, "connection pooling")
    assert [e.id for e, _ in hits] == [title_hit, body_hit]
    assert 0 < hits[1][1] < hits[0][1]
    assert hits[0][1] == pytest.approx(0.99103 / 1.99103, rel=1e-4)  # normalisation 32: rank / (rank + 1)


def test_search_understands_web_syntax_and_stems(entries, tenant_id):
    retry = entries.add(tenant_id, note("Retries", "Retrying requests with jitter"))
    entries.add(tenant_id, note("Timeouts", "Requests time out after 30 seconds"))
    assert [e.id for e, _ in entries.search(tenant_id, "request -timeouts")] == [retry]
    assert [e.id for e, _ in entries.search(tenant_id, '"with jitter"')] == [retry]
    assert [e.id for e, _ in entries.search(tenant_id, "retried")] == [retry]


def test_search_matches_tags(entries, tenant_id):
    tagged = entries.add(tenant_id, note("Plain title", "plain body", tags=("kubernetes",)))
    assert [e.id for e, _ in entries.search(tenant_id, "kubernetes")] == [tagged]


@pytest.mark.parametrize("query", ["", "   ", "the and of", "!!", "-"])
def test_empty_or_stopword_queries_find_nothing(entries, tenant_id, query):
    entries.add(tenant_id, note("The and of", "the of and"))
    assert entries.search(tenant_id, query) == []


def test_search_filters_by_repository_and_limits(entries, tenant_id):
    for i in range(3):
        entries.add(tenant_id, note(f"Cache note {i}", repository="acme/api"))
    other = entries.add(tenant_id, note("Cache note web", repository="acme/web"))
    entries.add(tenant_id, note("Cache note everywhere"))
    assert [e.id for e, _ in entries.search(tenant_id, "cache", repository="acme/web")] == [other]
    assert len(entries.search(tenant_id, "cache", repository="acme/api")) == 3
    assert len(entries.search(tenant_id, "cache")) == 5
    assert len(entries.search(tenant_id, "cache", limit=2)) == 2
    assert [entries.count(tenant_id, repo) for repo in (None, "acme/api", "x/y")] == [5, 3, 0]


def test_a_tenant_never_sees_another_tenants_entries(entries, db, tenant_id):
    other = tenant_id + 1
    secret = entries.add(other, note("Secret rotation", "Rotate keys monthly", source_ref="github://o/r/x"))
    assert entries.search(tenant_id, "secret rotation") == []
    assert entries.get(tenant_id, secret) is None
    assert entries.count(tenant_id) == 0
    assert not entries.delete(tenant_id, secret, repository=None)
    assert not entries.delete_by_source_ref(tenant_id, "github://o/r/x")
    # the same source_ref is a different row per tenant, and upsert cannot reach across
    _, created = entries.upsert_by_source_ref(tenant_id, note("Mine", source_ref="github://o/r/x"))
    assert created
    assert entries.get(other, secret).title == "Secret rotation"
    with db.tenant(tenant_id) as conn, pytest.raises(psycopg.errors.InsufficientPrivilege):
        conn.execute("INSERT INTO memory_entries (tenant_id, title, source) VALUES (%s, 'x', 'manual')", (other,))
