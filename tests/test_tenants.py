"""Installation lifecycle and tenant isolation against the real database, as the application role."""

from __future__ import annotations

import threading
import uuid

import psycopg
import pytest
from psycopg.conninfo import make_conninfo

from core.db import Database, migrate, migration_files
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
    url = make_conninfo(pg_url, dbname=name)
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


TENANT_TABLES = ["installations", "repositories", "jobs", "runs", "memory_entries", "workflow_insights", "breakers",
                 "proposals", "action_points", "healing_envelopes", "rule_decisions", "held_back",
                 "ci_reruns"]


@pytest.fixture(scope="module")
def app_login(app_url):
    """The application's login, only a member of memfix_app: a connection with nothing to reset."""
    database = Database(app_url, app_role=None)
    yield database
    database.close()


def test_every_tenant_table_is_isolated_for_the_application_login(db, app_login, tenant_id):
    from core.memory.embeddings import NoEmbedder
    from core.memory.entries import Entries
    from core.memory.insights import Insights
    from core.memory.ring import HealingLog, LocalRing
    from core.memory.types import Envelope, Insight, MemoryEntry

    victim = tenant_id + 1
    Tenants(db).register(victim, "victim", ((1, "victim/app"),))
    pain = Insight(repository="victim/app", insight_type="pain_point", category="security", severity="high",
                   title="Secret key in repo")
    Insights(db, NoEmbedder()).save(victim, pain)
    Insights(db, NoEmbedder()).save(victim, pain.__class__(**{**pain.__dict__, "repository": "victim/other"}))
    with db.tenant(victim) as conn:  # an action point, by hand: cross-project needs embeddings
        ids = [r["id"] for r in conn.execute("SELECT id FROM workflow_insights ORDER BY id")]
        conn.execute("INSERT INTO action_points (tenant_id, source_insight_id, source_repository, target_repository,"
                     " similarity) VALUES (%s, %s, 'victim/app', 'victim/other', 0.9)", (victim, ids[0]))
    Entries(db).add(victim, MemoryEntry(title="Private runbook", content="root password rotation"))
    HealingLog(LocalRing(), db).record(victim, Envelope(repository="victim/app", status="RETRY"))
    with db.tenant(victim) as conn:
        conn.execute("INSERT INTO jobs (tenant_id, job_key, kind, status) VALUES (%s, 'k', 'push', 'done')", (victim,))
        run_id = conn.execute("INSERT INTO runs (tenant_id, repository, pipeline) VALUES (%s, 'victim/app', "
                              "'autofix') RETURNING id", (victim,)).fetchone()["id"]
        proposal_id = conn.execute(
            "INSERT INTO proposals (tenant_id, repository, pipeline, fingerprint, path, branch, base_branch, run_id)"
            " VALUES (%s, 'victim/app', 'autofix', 'f1', 'a.py', 'memfix/x', 'main', %s) RETURNING id",
            (victim, run_id)).fetchone()["id"]
    from core.memory.reruns import CiReruns

    assert CiReruns(db).claim(victim, "victim/app", proposal_id, "a" * 40, 5)
    from core.learning.policy import HeldBack, Policy
    from core.pipelines.breaker import Breakers, Trial

    Breakers(db).record(victim, "victim/app", "autofix", Trial.SYNTAX)
    policy = Policy(db, Insights(db, NoEmbedder()))
    policy.hold(victim, "victim/app", ["S311"], "mallory", None)
    policy.keep_held(victim, "victim/app", "autofix", [HeldBack("S311", "app/keys.py", "library")])

    with app_login.tenant(tenant_id) as conn:
        assert conn.execute("SELECT current_user AS u").fetchone()["u"] == "memfix_login"
        for table in TENANT_TABLES:
            assert conn.execute(f"SELECT * FROM {table}").fetchall() == [], table
            assert conn.execute(f"UPDATE {table} SET tenant_id = tenant_id").rowcount == 0, table
            assert conn.execute(f"DELETE FROM {table}").rowcount == 0, table
    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        with app_login.tenant(tenant_id) as conn:
            conn.execute("SET row_security = off; SELECT * FROM workflow_insights")
    with app_login.tenant(victim) as conn:  # the rows are there, for their owner
        counts = {t: conn.execute(f"SELECT count(*) AS n FROM {t}").fetchone()["n"] for t in TENANT_TABLES}
    assert all(counts.values()), counts


def test_the_application_login_cannot_change_its_tenant_or_reach_another(db, app_login, tenant_id):
    from core.errors import PermanentError
    from core.memory.embeddings import NoEmbedder
    from core.memory.insights import Insights
    from core.memory.types import Insight

    victim = tenant_id + 1
    Tenants(db).register(victim, "victim", ((1, "victim/app"),))
    lesson = Insight(repository="acme/api", insight_type="pain_point", category="security", title="Payroll secret")
    theirs = Insights(db, NoEmbedder()).save(victim, lesson).insight
    mine = Insights(db, NoEmbedder()).save(tenant_id, lesson).insight

    with app_login.tenant(tenant_id) as conn:  # the old way of choosing a tenant chooses nothing now
        conn.execute("SELECT set_config('app.tenant_id', %s, true)", (str(victim),))
        assert conn.execute("SELECT id FROM workflow_insights").fetchall() == [{"id": mine.id}]
    with pytest.raises(psycopg.errors.InsufficientPrivilege, match="another tenant"):
        with app_login.tenant(tenant_id) as conn:
            conn.execute("SELECT memfix_enter_tenant(%s)", (victim,))
    for attack in ("UPDATE tenant_sessions SET tenant_id = 1", "DELETE FROM tenant_sessions",
                   "SELECT * FROM webhook_deliveries", "DELETE FROM webhook_deliveries",
                   "SELECT * FROM schema_migrations"):
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            with app_login.tenant(tenant_id) as conn:
                conn.execute(attack)

    # Pairing with another tenant's insight fails exactly as pairing with an id that exists nowhere.
    answers = []
    for target in (theirs.id, 10**15):
        with pytest.raises(PermanentError) as refused:
            with app_login.tenant(tenant_id) as conn:
                conn.execute("UPDATE workflow_insights SET paired_insight_id = %s WHERE id = %s", (target, mine.id))
        answers.append(str(refused.value))
    assert answers[0] == answers[1] == "a referenced record does not exist in this installation"

    with app_login.system() as conn:  # no tenant entered: no tenant row
        assert [conn.execute(f"SELECT count(*) AS n FROM {t}").fetchone()["n"] for t in TENANT_TABLES] == \
            [0] * len(TENANT_TABLES)
    key = f"{tenant_id}:probe-{uuid.uuid4()}"  # deliveries only through functions, inside their tenant
    for claimed in (True, False):
        with app_login.tenant(tenant_id) as conn:
            assert conn.execute("SELECT memfix_claim_delivery(%s, 'push') AS c", (key,)).fetchone()["c"] is claimed
    with app_login.tenant(tenant_id) as conn:
        conn.execute("SELECT memfix_release_delivery(%s)", (key,))
        assert conn.execute("SELECT memfix_claim_delivery(%s, 'push') AS c", (key,)).fetchone()["c"] is True


def test_a_read_in_one_round_trip_enters_its_tenant_first_and_leaves_nothing_behind(db, app_url, tenant_id):
    victim = tenant_id + 1
    Tenants(db).register(victim, "victim", ((1, "victim/secret"),))
    Tenants(db).register(tenant_id, "mine", ((1, "mine/app"),))
    login = Database(app_url, app_role=None, max_size=1)  # one session: the next transaction finds what a read left
    try:
        rows = login.read(tenant_id, "SELECT full_name, memfix_tenant() AS t, current_setting('work_mem') AS w"
                          " FROM repositories", {}, local={"work_mem": "77kB"})
        assert rows == [{"full_name": "mine/app", "t": tenant_id, "w": "77kB"}]
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="already belongs to another tenant"):
            login.read(tenant_id, "SELECT full_name FROM repositories, memfix_enter_tenant(%(v)s)", {"v": victim})
        with login.system() as conn:  # the read's transaction ended with it: no tenant, no setting
            after = conn.execute("SELECT memfix_tenant() AS t, current_setting('work_mem') AS w").fetchone()
        assert after["t"] is None and after["w"] != "77kB"
    finally:
        login.close()
