"""Installation lifecycle and tenant isolation against the real database, as the application role."""

from __future__ import annotations

import threading
import uuid

import psycopg
import pytest

from core.db import migrate, migration_files
from core.tenants import Tenants


def test_install_registers_tenant_and_repositories(db, tenant_id):
    tenants = Tenants(db)
    tenants.register(tenant_id, "acme", ((1, "acme/api"), (2, "acme/web")))
    tenants.register(tenant_id, "", ((2, "acme/web-renamed"),))
    assert tenants.repositories(tenant_id) == ["acme/api", "acme/web-renamed"]
    tenants.forget_repositories(tenant_id, [1])
    assert tenants.repositories(tenant_id) == ["acme/web-renamed"]


def test_uninstall_removes_only_that_tenants_rows(db, tenant_id):
    other = tenant_id + 1
    tenants = Tenants(db)
    for t in (tenant_id, other):
        tenants.register(t, f"org{t}", ((t * 10, f"org{t}/repo"),))
        with db.tenant(t) as conn:
            conn.execute("INSERT INTO jobs (tenant_id, job_key, kind, status) VALUES (%s, 'k', 'push', 'done')", (t,))
            conn.execute("INSERT INTO runs (tenant_id, repository, pipeline) VALUES (%s, 'r', 'autofix')", (t,))

    assert tenants.delete(tenant_id) == 1

    counts = lambda t: [db_count(db, t, table) for table in ("installations", "repositories", "jobs", "runs")]  # noqa: E731
    assert counts(tenant_id) == [0, 0, 0, 0]
    assert counts(other) == [1, 1, 1, 1]


def db_count(db, tenant, table) -> int:
    with db.tenant(tenant) as conn:
        return conn.execute(f"SELECT count(*) AS n FROM {table}").fetchone()["n"]


def test_row_level_security_hides_other_tenants_even_from_select_star(db, tenant_id):
    other = tenant_id + 1
    Tenants(db).register(other, "victim", ((1, "victim/secret"),))
    with db.tenant(tenant_id) as conn:
        assert conn.execute("SELECT * FROM repositories").fetchall() == []
        assert conn.execute("UPDATE repositories SET full_name = 'x'").rowcount == 0
        assert conn.execute("DELETE FROM installations").rowcount == 0
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("INSERT INTO repositories (tenant_id, repo_id, full_name) VALUES (%s, 9, 'x/y')", (other,))
    with db.system() as conn:  # no tenant set: nothing visible at all
        assert conn.execute("SELECT count(*) AS n FROM repositories").fetchone()["n"] == 0
        assert conn.execute("SELECT current_user AS u").fetchone()["u"] == "memfix_app"
    assert Tenants(db).repositories(other) == ["victim/secret"]


def test_the_application_role_cannot_switch_off_row_security(db, tenant_id):
    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        with db.tenant(tenant_id) as conn:
            conn.execute("ALTER TABLE repositories DISABLE ROW LEVEL SECURITY")


def test_migrations_apply_once_even_when_four_processes_race(pg_url):
    name = f"mig_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    url = pg_url.replace("/postgres?", f"/{name}?") if "/postgres?" in pg_url else pg_url.rsplit("/", 1)[0] + "/" + name
    results: list[list[str]] = []
    threads = [threading.Thread(target=lambda: results.append(migrate(url))) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    applied = sorted(v for r in results for v in r)
    assert applied == [p.stem for p in migration_files()]
    assert migrate(url) == []
    with psycopg.connect(url) as conn:
        assert conn.execute("SELECT count(*) FROM schema_migrations").fetchone()[0] == len(migration_files())
