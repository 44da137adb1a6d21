"""The application's login tries what an attacker with its SQL would: every way to another tenant's rows or to
the owner's rights through the functions that run with more rights than it (migrations/010_definer_guard.sql)."""

from __future__ import annotations

import psycopg
import pytest

from core.db import service_login

TENANT, OTHER = 71_000_001, 71_000_002


@pytest.fixture(scope="module")
def login_url(pg_url) -> str:
    return service_login(pg_url, "memfix_service")


@pytest.fixture
def login(login_url):
    with psycopg.connect(login_url) as conn:  # a transaction is open until commit or rollback, as in the pool
        yield conn


@pytest.fixture(scope="module", autouse=True)
def tenants(pg_url):
    with psycopg.connect(pg_url, autocommit=True) as conn:
        for t in (TENANT, OTHER):
            conn.execute("INSERT INTO installations (tenant_id) VALUES (%s) ON CONFLICT DO NOTHING", (t,))
        conn.execute("INSERT INTO runs (tenant_id, repository, pipeline) VALUES (%s, 'other/secret', 'autofix')",
                     (OTHER,))


def test_the_login_is_no_owner_and_has_nothing_to_reset_to(login):
    assert login.execute("SELECT current_user, rolsuper, rolcreaterole FROM pg_roles WHERE rolname = current_user"
                         ).fetchone() == ("memfix_service", False, False)
    login.execute("RESET ROLE")
    assert login.execute("SELECT current_user").fetchone()[0] == "memfix_service"
    for role in ("postgres", "memfix_definer"):
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            login.execute(f"SET ROLE {role}")
        login.rollback()


def test_no_temporary_table_can_shadow_the_tenant_record(login):
    with pytest.raises(psycopg.errors.InsufficientPrivilege, match="temporary"):
        login.execute("CREATE TEMP TABLE tenant_sessions (pid integer, xid xid8, tenant_id bigint)")
    login.rollback()
    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        login.execute("CREATE FUNCTION public.pg_backend_pid() RETURNS integer LANGUAGE sql AS 'SELECT 1'")


def test_the_functions_read_their_own_tables_even_where_a_temporary_one_exists(pg_url):
    """As a role that may create temporary objects (the owner): a shadow table and a trigger on it are ignored."""
    with psycopg.connect(pg_url) as owner:
        owner.execute("CREATE TEMP TABLE tenant_sessions (pid integer PRIMARY KEY, xid xid8, tenant_id bigint)")
        owner.execute("INSERT INTO pg_temp.tenant_sessions VALUES (pg_backend_pid(), pg_current_xact_id(), %s)",
                      (OTHER,))
        assert owner.execute("SELECT memfix_tenant()").fetchone()[0] is None  # not the shadow's tenant
        owner.execute("CREATE FUNCTION pg_temp.escalate() RETURNS trigger LANGUAGE plpgsql AS "
                      "$$ BEGIN RAISE EXCEPTION 'the shadow trigger ran'; END $$")
        owner.execute("CREATE TRIGGER escalate BEFORE INSERT OR UPDATE ON pg_temp.tenant_sessions "
                      "FOR EACH ROW EXECUTE FUNCTION pg_temp.escalate()")
        owner.commit()  # the shadow stays for the session; a tenant is entered first in the next transaction
        owner.execute("SELECT memfix_enter_tenant(%s)", (TENANT,))  # writes the real table; no trigger fires
        assert owner.execute("SELECT memfix_tenant()").fetchone()[0] == TENANT
        owner.rollback()


def test_every_definer_function_is_owned_by_a_role_without_rights_and_searches_pg_temp_last(pg_url):
    with psycopg.connect(pg_url) as owner:
        rows = owner.execute(
            "SELECT p.proname, r.rolname, r.rolsuper, r.rolcanlogin, p.proconfig FROM pg_proc p"
            " JOIN pg_roles r ON r.oid = p.proowner JOIN pg_namespace n ON n.oid = p.pronamespace"
            " WHERE p.prosecdef AND n.nspname = 'public'").fetchall()
    assert len(rows) >= 13
    for name, owner_role, superuser, can_login, config in rows:
        assert (owner_role, superuser, can_login) == ("memfix_definer", False, False), name
        assert "search_path=pg_catalog, pg_temp" in config, name


def test_a_savepoint_rolled_back_cannot_switch_the_tenant(login):
    login.execute("SAVEPOINT s")
    login.execute("SELECT memfix_enter_tenant(%s)", (TENANT,))
    login.execute("ROLLBACK TO SAVEPOINT s")
    with pytest.raises(psycopg.errors.InsufficientPrivilege, match="entered first"):
        login.execute("SELECT memfix_enter_tenant(%s)", (OTHER,))
    login.rollback()
    login.execute("SELECT pg_current_xact_id()")  # anything that writes first
    with pytest.raises(psycopg.errors.InsufficientPrivilege, match="entered first"):
        login.execute("SELECT memfix_enter_tenant(%s)", (OTHER,))
    login.rollback()
    login.execute("SELECT memfix_enter_tenant(%s)", (TENANT,))
    with pytest.raises(psycopg.errors.InsufficientPrivilege, match="another tenant"):
        login.execute("SELECT memfix_enter_tenant(%s)", (OTHER,))


def test_another_tenants_rows_stay_invisible(login):
    login.execute("SELECT memfix_enter_tenant(%s)", (TENANT,))
    assert login.execute("SELECT count(*) FROM runs WHERE tenant_id = %s", (OTHER,)).fetchone()[0] == 0
    assert login.execute("UPDATE runs SET repository = 'x' WHERE tenant_id = %s RETURNING 1", (OTHER,)).fetchall() == []
    with pytest.raises(psycopg.errors.InsufficientPrivilege, match="row-level security"):
        login.execute("INSERT INTO runs (tenant_id, repository, pipeline) VALUES (%s, 'x', 'autofix')", (OTHER,))
    login.rollback()
    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        login.execute("SELECT * FROM tenant_sessions")


def test_jobs_and_deliveries_are_put_only_for_the_tenant_entered(login):
    with pytest.raises(psycopg.errors.InsufficientPrivilege, match="own tenant"):
        login.execute("SELECT memfix_job_put('guard', 'k1', %s, '{}')", (OTHER,))  # no tenant entered
    login.rollback()
    login.execute("SELECT memfix_enter_tenant(%s)", (TENANT,))
    with pytest.raises(psycopg.errors.InsufficientPrivilege, match="own tenant"):
        login.execute("SELECT memfix_job_put('guard', 'k1', %s, '{}')", (OTHER,))
    login.rollback()
    login.execute("SELECT memfix_enter_tenant(%s)", (TENANT,))
    with pytest.raises(psycopg.errors.InsufficientPrivilege, match="own tenant"):
        login.execute("SELECT memfix_claim_delivery('guard-d1', 'push', %s)", (OTHER,))
    login.rollback()
    login.execute("SELECT memfix_enter_tenant(%s)", (TENANT,))
    assert login.execute("SELECT memfix_job_put('guard', 'k1', %s, '{}')", (TENANT,)).fetchone()[0] is True
    login.rollback()


def test_memfix_serve_works_as_its_own_login(settings):
    from core.wiring import Services

    services = Services(settings, local=True)
    try:
        with services.db.tenant(TENANT) as conn:
            assert conn.execute("SELECT current_user AS u, session_user AS s").fetchone() == {
                "u": "memfix_service", "s": "memfix_service"}
            conn.execute("RESET ROLE")
            assert conn.execute("SELECT count(*) AS n FROM runs WHERE tenant_id = %s", (OTHER,)).fetchone()["n"] == 0
    finally:
        services.close(grace_seconds=1)
