"""Issue 16's database attacks, made over real connections as the application's login (and, where a temporary
object is the weapon, as a member of memfix_app that may still create one): each is refused. One test first
shows each attack working on the schema before core/migrations/010, so none of these can pass for want of an attack."""

from __future__ import annotations

import shutil
import stat
import time
import uuid
from contextlib import contextmanager

import psycopg
import pytest
from psycopg.conninfo import conninfo_to_dict, make_conninfo

from core.db import LOGIN_PASSWORD_FILE, LOGIN_ROLE, Database, migrate, migration_files
from core.queue import PgQueue, Schedule
from core.settings import Settings, SettingsError
from core.wiring import Services

TENANT_TABLES = ["installations", "repositories", "jobs", "runs", "memory_entries", "workflow_insights", "breakers",
                 "proposals", "action_points", "healing_envelopes", "rule_decisions", "ring_reads", "curations"]
NO_TEMP = "permission denied to create temporary tables"


def owner_of(url: str) -> str:
    with psycopg.connect(url) as conn:
        return conn.execute("SELECT current_user").fetchone()[0]


def two_tenants(owner_url: str, mine: int, victim: int) -> None:
    with psycopg.connect(owner_url) as conn:  # the owner, a superuser in the tests: row-level security aside
        conn.execute("INSERT INTO installations (tenant_id) VALUES (%s), (%s) ON CONFLICT DO NOTHING", (mine, victim))
        conn.execute("INSERT INTO repositories (tenant_id, repo_id, full_name) VALUES (%s, 1, 'mine/app'),"
                     " (%s, 1, 'victim/secret')", (mine, victim))


@pytest.fixture
def probe(pg_url):
    """(role, url): a login in memfix_app like the application's, which may still create temporary objects."""
    role = f"memfix_probe_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute(f"CREATE ROLE {role} LOGIN IN ROLE memfix_app")
    yield role, make_conninfo(pg_url, user=role)
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute(f"REVOKE ALL ON DATABASE {conn.info.dbname} FROM {role}")
        for _ in range(100):  # a closed session drops its temporary objects as its backend exits
            try:
                conn.execute(f"DROP ROLE {role}")
                break
            except psycopg.errors.DependentObjectsStillExist:
                time.sleep(0.05)
        else:
            raise AssertionError(f"role {role} still owns objects")


def attack(url: str, mine: int, victim: int, payload: str = "") -> dict:
    """Each attack through temporary objects and savepoints, by a login that may create them; what each achieved."""
    got = {}
    with psycopg.connect(url, autocommit=True) as conn:
        # A temporary tenant_sessions, with a row naming the victim for this very transaction.
        conn.execute("CREATE TEMP TABLE tenant_sessions (pid integer PRIMARY KEY, xid xid8 NOT NULL,"
                     " tenant_id bigint NOT NULL)")
        with conn.transaction(force_rollback=True):
            conn.execute("INSERT INTO pg_temp.tenant_sessions VALUES (pg_backend_pid(), pg_current_xact_id(), %s)",
                         (victim,))
            got["shadowed tenant"] = conn.execute("SELECT memfix_tenant()").fetchone()[0]
            got["shadowed rows"] = [r[0] for r in conn.execute("SELECT full_name FROM repositories")]
        # A trigger on it, fired by the definer function's write if that write lands in pg_temp.
        conn.execute("CREATE FUNCTION pg_temp.escalate() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
                     f" PERFORM set_config('memfix.probe', current_user, false); {payload} RETURN NEW; END $$")
        conn.execute("CREATE TRIGGER escalate BEFORE INSERT OR UPDATE ON pg_temp.tenant_sessions"
                     " FOR EACH ROW EXECUTE FUNCTION pg_temp.escalate()")
        with conn.transaction():
            conn.execute("SELECT memfix_enter_tenant(%s)", (mine,))
        got["trigger ran as"] = conn.execute("SELECT current_setting('memfix.probe', true)").fetchone()[0] or None
        got["superuser"] = conn.execute("SELECT rolsuper FROM pg_roles WHERE rolname = session_user").fetchone()[0]
        # Temporary functions and an operator named like the ones the policies and functions call.
        conn.execute(f"CREATE FUNCTION pg_temp.memfix_tenant() RETURNS bigint LANGUAGE sql AS 'SELECT {victim}::int8'")
        conn.execute("CREATE FUNCTION pg_temp.always(bigint, bigint) RETURNS boolean LANGUAGE sql AS 'SELECT true'")
        conn.execute("CREATE OPERATOR pg_temp.= (LEFTARG = bigint, RIGHTARG = bigint, FUNCTION = pg_temp.always)")
        with conn.transaction():
            conn.execute("SELECT memfix_enter_tenant(%s)", (mine,))
            got["rows with shadowed functions"] = [r[0] for r in conn.execute("SELECT full_name FROM repositories")]
        # A savepoint: enter the victim, read, roll back, enter another tenant in the same transaction.
        try:
            with conn.transaction(force_rollback=True):
                with conn.transaction(force_rollback=True):
                    conn.execute("SELECT memfix_enter_tenant(%s)", (victim,))
                conn.execute("SELECT memfix_enter_tenant(%s)", (mine,))
                got["switched tenant in a transaction"] = True
        except psycopg.errors.InsufficientPrivilege as exc:
            got["switched tenant in a transaction"] = exc.diag.message_primary
    return got


REFUSED = {"shadowed tenant": None, "shadowed rows": [], "trigger ran as": None, "superuser": False,
           "rows with shadowed functions": ["mine/app"],
           "switched tenant in a transaction": "a tenant is entered first in its transaction"}


def test_each_attack_worked_before_the_guard_and_fails_after_it(pg_url, probe, tmp_path, tenant_id):
    role, probe_url = probe
    name = f"guard_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    try:
        _before_and_after(make_conninfo(pg_url, dbname=name), role, make_conninfo(probe_url, dbname=name),
                          tmp_path, tenant_id)
    finally:
        with psycopg.connect(pg_url, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE {name} WITH (FORCE)")


def _before_and_after(owner_url, role, probe_url, tmp_path, tenant_id):
    name = conninfo_to_dict(owner_url)["dbname"]
    before = tmp_path / "before"
    before.mkdir()
    for path in migration_files():
        if path.name < "010":
            shutil.copy(path, before / path.name)
    migrate(owner_url, before)
    mine, victim = tenant_id, tenant_id + 1
    two_tenants(owner_url, mine, victim)

    assert attack(probe_url, mine, victim) == {  # the findings, as reported
        "shadowed tenant": victim, "shadowed rows": ["victim/secret"], "trigger ran as": owner_of(owner_url),
        "superuser": False, "rows with shadowed functions": ["mine/app"], "switched tenant in a transaction": True}

    assert migrate(owner_url) == [p.stem for p in migration_files() if p.name >= "010"]
    with psycopg.connect(probe_url, autocommit=True) as conn, pytest.raises(psycopg.errors.InsufficientPrivilege,
                                                                            match=NO_TEMP):
        conn.execute("CREATE TEMP TABLE tenant_sessions (pid integer)")
    with psycopg.connect(owner_url, autocommit=True) as conn:  # even a login that may: the functions hold
        conn.execute(f"GRANT TEMPORARY ON DATABASE {name} TO {role}")
    assert attack(probe_url, mine, victim, f"EXECUTE format('ALTER ROLE %I SUPERUSER', '{role}');") == REFUSED


def test_the_guard_holds_on_the_test_database_for_a_login_that_may_create_temporary_objects(
        pg_url, probe, tenant_id):
    role, probe_url = probe
    with psycopg.connect(pg_url, autocommit=True) as conn:
        database = conn.execute("SELECT current_database()").fetchone()[0]
        conn.execute(f'GRANT TEMPORARY ON DATABASE "{database}" TO {role}')
    two_tenants(pg_url, tenant_id, tenant_id + 1)
    assert attack(probe_url, tenant_id, tenant_id + 1,
                  f"EXECUTE format('ALTER ROLE %I SUPERUSER', '{role}');") == REFUSED


def test_every_definer_function_belongs_to_a_role_with_only_their_rights_and_searches_pg_temp_last(pg_url, app_url):
    with psycopg.connect(pg_url) as conn:
        definers = conn.execute(
            "SELECT p.oid::regprocedure::text, pg_get_userbyid(p.proowner), p.proconfig FROM pg_proc AS p"
            " WHERE p.prosecdef AND p.pronamespace = 'public'::regnamespace ORDER BY 1").fetchall()
        role = conn.execute("SELECT rolsuper, rolcanlogin, rolbypassrls, rolcreaterole, rolcreatedb FROM pg_roles"
                            " WHERE rolname = 'memfix_definer'").fetchone()
        rights = {t: conn.execute("SELECT has_table_privilege('memfix_definer', %s, 'SELECT, INSERT, UPDATE, DELETE')",
                                  (t,)).fetchone()[0] for t in [*TENANT_TABLES, "schema_migrations"]}
        members = conn.execute("SELECT pg_has_role(%s, 'memfix_definer', 'USAGE'),"
                               " pg_has_role('memfix_app', 'memfix_definer', 'MEMBER')", (LOGIN_ROLE,)).fetchone()
        triggers = conn.execute("SELECT proname, proconfig FROM pg_proc WHERE proname LIKE '%search_vector'"
                                " ORDER BY 1").fetchall()
        creates = conn.execute("SELECT has_schema_privilege('memfix_definer', 'public', 'CREATE')").fetchone()[0]
    assert len(definers) >= 13, definers
    for function, owner, config in definers:
        assert owner == "memfix_definer", function
        assert config == ["search_path=pg_catalog, pg_temp"], function
    assert role == (False, False, False, False, False)
    assert rights == dict.fromkeys(rights, False)  # not one tenant row, nor the migration record
    assert members == (False, False) and creates is False
    assert [c for _, c in triggers] == [["search_path=pg_catalog, pg_temp"]] * 2


@pytest.fixture
def login(app_url) -> Database:
    database = Database(app_url, app_role=None)
    yield database
    database.close()


def test_the_login_can_create_nothing_and_become_nothing_more(app_url, pg_url):
    owner = owner_of(pg_url)
    with psycopg.connect(app_url, autocommit=True) as conn:
        for statement in ("CREATE TEMP TABLE tenant_sessions (pid integer, xid xid8, tenant_id bigint)",
                          "CREATE FUNCTION pg_temp.memfix_tenant() RETURNS bigint LANGUAGE sql AS 'SELECT 1::bigint'",
                          "CREATE TEMP VIEW repositories AS SELECT 1 AS tenant_id"):
            with pytest.raises(psycopg.errors.InsufficientPrivilege, match=NO_TEMP):
                conn.execute(statement)
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="permission denied for schema public"):
            conn.execute("CREATE TABLE public.tenant_sessions_shadow (pid integer)")
        conn.execute("RESET ROLE")
        assert conn.execute("SELECT current_user, rolsuper FROM pg_roles WHERE rolname = current_user").fetchone() \
            == (LOGIN_ROLE, False)
        for statement in (f'SET ROLE "{owner}"', "SET ROLE memfix_definer", f'SET SESSION AUTHORIZATION "{owner}"'):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute(statement)
        for statement in ("SELECT * FROM tenant_sessions", "SELECT * FROM queued_jobs",
                          "SELECT * FROM dashboard_sessions", "SELECT memfix_tenant_of('1:x')"):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute(statement)


def test_a_savepoint_rolled_back_cannot_change_the_transactions_tenant(db, login, tenant_id):
    from core.tenants import Tenants

    victim = tenant_id + 1
    Tenants(db).register(victim, "victim", ((1, "victim/secret"),))
    Tenants(db).register(tenant_id, "mine", ((1, "mine/app"),))
    with login.tenant(tenant_id) as conn:  # entered first, any savepoint keeps it
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="already belongs to another tenant"):
            with conn.transaction():
                conn.execute("SELECT memfix_enter_tenant(%s)", (victim,))
        assert [r["full_name"] for r in conn.execute("SELECT full_name FROM repositories")] == ["mine/app"]
    with pytest.raises(psycopg.errors.InsufficientPrivilege, match="a tenant is entered first in its transaction"):
        with login.system() as conn:
            with conn.transaction(force_rollback=True):  # a savepoint, rolled back
                conn.execute("SELECT memfix_enter_tenant(%s)", (victim,))
                assert [r["full_name"] for r in conn.execute("SELECT full_name FROM repositories")] == \
                    ["victim/secret"]
            assert conn.execute("SELECT memfix_tenant() AS t").fetchone()["t"] is None  # nothing visible...
            conn.execute("SELECT memfix_enter_tenant(%s)", (tenant_id,))  # ... and no other tenant to choose
    with pytest.raises(psycopg.errors.InsufficientPrivilege, match="a tenant is entered first"):
        with login.system() as conn:  # a transaction that has written (has an xid) chose no tenant: it keeps none
            conn.execute("SELECT pg_current_xact_id()")
            conn.execute("SELECT memfix_enter_tenant(%s)", (tenant_id,))


def test_jobs_and_delivery_claims_belong_to_the_tenant_the_transaction_entered(db, login, tenant_id):
    from core.wire import CommandJob

    victim, queue = tenant_id + 1, f"guard-{uuid.uuid4().hex[:8]}"
    theirs = CommandJob(tenant_id=victim, delivery_id="d", repo="victim/app", command="recall", comment_id=1)
    for key in (f"{victim}:{theirs.key}", f"{tenant_id}0:{theirs.key}", theirs.key):  # another's, or no one's
        for sql, args in (("SELECT memfix_job_put(%s, %s, %s)", (queue, key, theirs.to_json())),
                          ("SELECT memfix_claim_delivery(%s, 'push')", (key,))):
            with pytest.raises(psycopg.errors.InsufficientPrivilege, match="belongs to another tenant"):
                with login.tenant(tenant_id) as conn:
                    conn.execute(sql, args)
    for sql, args in (("SELECT memfix_job_put(%s, %s, %s)", (queue, f"{victim}:k", theirs.to_json())),
                      ("SELECT memfix_claim_delivery(%s, 'push')", (f"{victim}:k",))):
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="no tenant entered"):
            with login.system() as conn:
                conn.execute(sql, args)

    claim = f"{victim}:{theirs.key}"  # the victim's own claim stands: no other tenant releases it
    with login.tenant(victim) as conn:
        assert conn.execute("SELECT memfix_claim_delivery(%s, 'push') AS c", (claim,)).fetchone()["c"] is True
    with pytest.raises(psycopg.errors.InsufficientPrivilege, match="belongs to another tenant"):
        with login.tenant(tenant_id) as conn:
            conn.execute("SELECT memfix_release_delivery(%s)", (claim,))
    with login.tenant(victim) as conn:
        assert conn.execute("SELECT memfix_claim_delivery(%s, 'push') AS c", (claim,)).fetchone()["c"] is False

    # A body naming another tenant under this tenant's key is put, and never run: the worker dead-letters it.
    ran = []
    with login.tenant(tenant_id) as conn:
        assert conn.execute("SELECT memfix_job_put(%s, %s, %s) AS put",
                            (queue, f"{tenant_id}:{theirs.key}", theirs.to_json())).fetchone()["put"] is True
    worker = PgQueue(login, lambda job, attempt: ran.append(job), queue=queue,
                     schedule=Schedule(max_attempts=1, poll_seconds=0.05))
    try:
        assert worker.drain(20) and worker.counts() == {"dead": 1} and ran == []
    finally:
        worker.stop(1)


def test_memfix_serve_logs_in_as_its_own_login_on_the_test_database(settings, pg_url):
    def owner_rights():
        with psycopg.connect(pg_url) as conn:
            return conn.execute("SELECT rolsuper, rolcreaterole, rolcanlogin FROM pg_roles"
                                " WHERE rolname = current_user").fetchone()

    before = owner_rights()
    services = Services(settings, local=True)
    try:
        with services.db.system() as conn:
            assert conn.execute("SELECT current_user AS u, rolsuper AS s FROM pg_roles WHERE rolname = current_user"
                                ).fetchone() == {"u": LOGIN_ROLE, "s": False}
            conn.execute("RESET ROLE")
            assert conn.execute("SELECT current_user AS u, has_table_privilege('schema_migrations', 'SELECT') AS m,"
                                " has_table_privilege('tenant_sessions', 'SELECT') AS t").fetchone() == \
                {"u": LOGIN_ROLE, "m": False, "t": False}
    finally:
        services.close(1)
    with pytest.raises(SettingsError, match="set DATABASE_APP_URL too"):
        _ = Services(settings.with_(database_app_url=None), local=True).db
    as_owner = make_conninfo(pg_url, password="not-the-owners")  # the owner named as the login: never demoted
    with pytest.raises(SettingsError, match="is the database owner or a superuser"), \
            Services(settings.with_(database_app_url=as_owner), local=True).db.system():  # it opens in a thread
        pass
    assert owner_rights() == before


@contextmanager
def own_cluster(data_dir):
    """An embedded PostgreSQL of this test's own (roles are per cluster) under `data_dir` (the `data_dir` fixture's:
    made before), stopped after it; the session's runs on."""
    from core import db as core_db

    try:
        yield core_db.embedded_url(data_dir)
    finally:
        for pgdata in [k for k in core_db._embedded if str(k).startswith(str(data_dir))]:
            core_db._embedded.pop(pgdata).cleanup()


def test_the_migrations_hand_the_functions_over_when_an_rds_style_master_runs_them(data_dir):
    """Aurora's master user is no superuser: it may create roles and owns the database. It makes memfix_definer,
    grants it to itself and gives it every definer function; TEMPORARY is gone from the application."""
    with own_cluster(data_dir) as url:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("CREATE ROLE master LOGIN CREATEROLE")
            conn.execute("CREATE DATABASE app OWNER master")
        with psycopg.connect(make_conninfo(url, dbname="app"), autocommit=True) as conn:
            conn.execute("CREATE EXTENSION vector")  # RDS lets its master create it; here the superuser does
        master = make_conninfo(url, user="master", dbname="app")
        assert migrate(master) == [p.stem for p in migration_files()]
        with psycopg.connect(master) as conn:
            owners = {r[0] for r in conn.execute("SELECT pg_get_userbyid(proowner) FROM pg_proc WHERE prosecdef"
                                                 " AND pronamespace = 'public'::regnamespace")}
            facts = conn.execute("SELECT rolsuper, has_database_privilege('memfix_app', 'app', 'TEMPORARY')"
                                 " FROM pg_roles WHERE rolname = current_user").fetchone()
    assert owners == {"memfix_definer"} and facts == (False, False)


def test_memfix_serve_on_the_embedded_database_makes_its_login_and_keeps_its_password(data_dir):
    from core.db import login_database

    settings = Settings(data_dir=data_dir, github_webhook_secret="s")
    with own_cluster(data_dir):
        first = Services(settings, local=True).db
        try:
            with first.system() as conn:
                conn.execute("RESET ROLE")  # nothing to reset to: the pool logged in as the login
                assert conn.execute("SELECT current_user AS u, rolsuper AS s FROM pg_roles"
                                    " WHERE rolname = current_user").fetchone() == {"u": LOGIN_ROLE, "s": False}
        finally:
            first.close()
        again = login_database(settings)  # a restart: the same login, the same password
        again.close()
    kept = data_dir / LOGIN_PASSWORD_FILE
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    password = kept.read_text()
    assert conninfo_to_dict(first.url)["password"] == password and len(password) >= 32
    assert again.url == first.url


def test_memfix_migrate_makes_the_login_database_app_url_names_and_needs_the_owner(cli, monkeypatch, pg_url):
    name = f"memfix_login_{uuid.uuid4().hex[:8]}"
    monkeypatch.setenv("DATABASE_APP_URL", make_conninfo(pg_url, user=name, password="compose-login"))
    code, out, _ = cli("migrate")  # compose's one-shot `migrate`: the only process with the owner's password
    assert code == 0 and out.strip() == "database is up to date"
    with psycopg.connect(pg_url, autocommit=True) as conn:
        assert conn.execute("SELECT rolcanlogin, rolsuper, rolbypassrls, pg_has_role(rolname, 'memfix_app', 'MEMBER')"
                            " FROM pg_roles WHERE rolname = %s", (name,)).fetchone() == (True, False, False, True)
        conn.execute(f"DROP ROLE {name}")
    monkeypatch.delenv("DATABASE_URL")
    code, _, err = cli("migrate")
    assert code == 2 and "migrations run as the database's owner: set DATABASE_URL" in err
