"""Session-wide real parts: PostgreSQL+pgvector (embedded unless DATABASE_URL), settings, tenants."""

from __future__ import annotations

import itertools
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import uuid
from pathlib import Path

import pytest
from psycopg.conninfo import make_conninfo

from core.db import LOGIN_ROLE, Database, embedded_url, ensure_login_role, migrate
from core.settings import Settings, get_settings
from tests import checkout

ROOT = Path(__file__).resolve().parents[1]
# xdist names its workers gw0, gw1, …: each worker draws installation ids of its own.
_WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")
_tenants = itertools.count(10_000 + (int(_WORKER[2:]) if _WORKER else os.getpid() % 1000) * 100_000, 10)
_queues = itertools.count(int(uuid.uuid4().int % 10**9))


_CHECKOUT = pytest.StashKey[checkout.Snapshot]()
_LEFT = pytest.StashKey[list[str]]()


def pytest_configure(config) -> None:
    # no registry is reached from a test: memfix's own reading stands in for the team's tools unless a test serves a
    # registry of its own (tests/fakes/registry.py) and turns them on
    os.environ["MEMFIX_TEAM_TOOLS"] = "false"
    # a command's embedded database stops with it: no keeper outlives a test (tests/test_cli_lifecycle.py tries one)
    os.environ["MEMFIX_DB_IDLE_SECONDS"] = "0"
    if not _WORKER:  # the controller (or the only process): its workers inherit both
        # memfix's data folder (worker heartbeats, the tool cache, an embedded database) is a temporary one for every
        # process of the session, never the checkout's `.memfix/`, nor a developer's own MEMFIX_DATA_DIR
        os.environ["MEMFIX_DATA_DIR"] = tempfile.mkdtemp(prefix="memfix-test-data-")
        config.stash[_CHECKOUT] = checkout.snapshot(ROOT)
    # pytest makes --basetemp itself but not its parent, and a clean clone has no build/ yet.
    if config.option.basetemp:
        Path(config.option.basetemp).parent.mkdir(parents=True, exist_ok=True)
    if os.environ.get("DATABASE_URL") and (getattr(config.option, "numprocesses", None) or 0) > 1:
        raise pytest.UsageError("with DATABASE_URL the tests run on one worker (-n auto, -n 1 or -n 0): the workers "
                                "would share its server's roles")
    # Compiled bytecode kept under build/pycache for every process the suite starts after this one (xdist workers,
    # memfix serve, the CLI), even where the environment says PYTHONDONTWRITEBYTECODE: each would compile memfix,
    # the tests and much of the standard library again (about half a worker's collection time).
    prefix = os.environ.setdefault("PYTHONPYCACHEPREFIX", str(ROOT / "build/pycache"))
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    sys.pycache_prefix, sys.dont_write_bytecode = prefix, False


def pytest_sessionfinish(session) -> None:
    """The suite leaves the checkout as it found it: a file a test wrote there (outside build/, the suite's scratch
    folder) fails the run, named."""
    before = session.config.stash.get(_CHECKOUT, None)
    if before is None:  # a worker: the controller looks once, after every worker is done
        return
    left = checkout.changes(before, checkout.snapshot(ROOT))
    if left:
        session.config.stash[_LEFT] = left
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_unconfigure(config) -> None:
    if not _WORKER:
        shutil.rmtree(os.environ.get("MEMFIX_DATA_DIR", ""), ignore_errors=True)


@pytest.fixture
def alarm():
    """Fail instead of hanging: the bounds under test hold by construction (nothing waits on a timeout), this only
    guards the suite against a regression that would block for ever."""
    def expired(*_):
        raise TimeoutError("the refusal did not come")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.alarm(20)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


@pytest.fixture(scope="session")
def pg_url(request, tmp_path_factory) -> str:
    """DATABASE_URL's database, or an embedded server of this pytest process's own (xdist gives each worker its own
    temporary folder) started from the made cluster."""
    url = os.environ.get("DATABASE_URL")
    if not url:
        folder = tmp_path_factory.getbasetemp() / "memfix-data"
        _copy_cluster(request.getfixturevalue("_made_cluster"), folder)
        url = embedded_url(folder, os.environ.get("MEMFIX_EMBEDDED_POSTGRES", "auto"))
    migrate(url)
    return url


@pytest.fixture(scope="session")
def _made_cluster(tmp_path_factory) -> Path:
    """A data folder whose embedded PostgreSQL memfix has made (initdb, sized) and stopped, once per session: the
    first run's path. Every embedded server of the tests starts from a copy of it, as on any run after the first,
    instead of making one (several seconds each); the package test makes one in a fresh folder too."""
    import fcntl

    from core.db import stop_embedded

    shared = tmp_path_factory.getbasetemp()
    if _WORKER:  # one for all the workers: the first makes it, the others wait for it
        shared = shared.parent
    folder = shared / "made-cluster"
    with open(shared / "made-cluster.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (shared / "made-cluster.done").exists():
            embedded_url(folder, os.environ.get("MEMFIX_EMBEDDED_POSTGRES", "auto"))
            stop_embedded(folder)
            (shared / "made-cluster.done").touch()
    return folder


def _copy_cluster(made: Path, folder: Path) -> None:
    subprocess.run(["cp", "-a", str(made), str(folder)], check=True)  # -a: the server's own user still owns it


@pytest.fixture
def data_dir(tmp_path, _made_cluster) -> Path:
    """A MEMFIX_DATA_DIR of this test's own whose embedded PostgreSQL was made before and is stopped."""
    folder = tmp_path / "data"
    _copy_cluster(_made_cluster, folder)
    return folder


def login_url(owner_url: str) -> str:
    """The application's login on the test database, as DATABASE_APP_URL names it (memfix serve makes it)."""
    return make_conninfo(owner_url, user=LOGIN_ROLE, password="test-login-password")


@pytest.fixture(scope="session")
def app_url(pg_url) -> str:
    """The application's own login (a member of memfix_app and nothing else), as `memfix serve` logs in."""
    url = login_url(pg_url)
    ensure_login_role(pg_url, LOGIN_ROLE, "test-login-password")
    return url


@pytest.fixture(scope="session")
def db(pg_url) -> Database:
    database = Database(pg_url)
    yield database
    database.close()


@pytest.fixture
def tenant_id() -> int:
    """A fresh installation id per test (ids up to +9 are free too): tests never see each other's rows."""
    return next(_tenants)


@pytest.fixture
def aws_env(monkeypatch):
    """Credentials and region for moto; no request can reach AWS."""
    for name, value in {
        "AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing", "AWS_SESSION_TOKEN": "testing",
        "AWS_DEFAULT_REGION": "us-east-1",
    }.items():
        monkeypatch.setenv(name, value)
    from core import aws

    aws.client.cache_clear()
    yield
    aws.client.cache_clear()


@pytest.fixture
def settings(pg_url, app_url) -> Settings:
    return Settings(database_url=pg_url, database_app_url=app_url, github_webhook_secret="test-webhook-secret",
                    data_dir=Path(os.environ["MEMFIX_DATA_DIR"]),
                    team_tools=False)  # no registry is reached: tests of the team's tools serve one of their own


@pytest.fixture(scope="session")
def app_key():
    from tests.fakes.github import generate_app_key

    return generate_app_key()


@pytest.fixture
def fake_github(app_key):
    """A fresh stateful GitHub per test, reached over HTTP through GITHUB_API_URL."""
    from tests.fakes.github import FakeGitHub

    with FakeGitHub(app_key=app_key) as gh:
        yield gh


@pytest.fixture
def github_settings(settings, fake_github) -> Settings:
    from tests.fakes.github import fake_github_settings

    return fake_github_settings(fake_github, settings, job_retry_base_seconds=0.01,
                                queue_name=f"test-{next(_queues)}")  # each server its own jobs


@pytest.fixture
def model_server():
    """OpenAI/Anthropic wire formats over HTTP: bag-of-words embeddings, scripted chat."""
    from tests.fakes.llm import FakeModelServer

    with FakeModelServer() as server:
        yield server


@pytest.fixture
def embedder(model_server):
    from core.memory.embeddings import OpenAIEmbedder

    return OpenAIEmbedder("text-embedding-3-small", "test-key", model_server.openai_url, max_retries=0)


@pytest.fixture
def model_settings(github_settings, model_server):
    """The fake model behind the local (OpenAI-compatible) provider, for chat and embeddings."""
    return github_settings.with_(llm_provider="local", llm_base_url=model_server.openai_url, llm_model="fake-coder",
                                 llm_max_retries=0, embeddings="local", embedding_base_url=model_server.openai_url,
                                 embedding_model="bow", pipeline_backoff_seconds=0.01)


@pytest.fixture
def serve_settings(request, github_settings) -> Settings:
    """What `serve` runs with: offline, or with the fake model when a test asks for `model_settings`; a test module
    may override it (e.g. to add embeddings)."""
    return request.getfixturevalue("model_settings") if "model_settings" in request.fixturenames else github_settings


@pytest.fixture
def serve(serve_settings, fake_github):
    """memfix serve on an ephemeral port, with repository acme/api and issue #1 on the fake GitHub;
    yields a function that posts a signed delivery (`.services`, `.drain()` ride along)."""
    import threading
    import urllib.error
    import urllib.request

    from werkzeug.serving import make_server

    from core.wiring import Services
    from handlers.dashboard import dashboard_link
    from handlers.devserver import create_app
    from tests.fakes import payloads as P

    services = Services(serve_settings, local=True)
    app = create_app(services)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    app.config["MEMFIX_ADDRESS"] = f"http://127.0.0.1:{server.server_port}"
    # a short poll: shutdown() waits for the next one, and every test using `serve` pays it (the default is 0.5 s)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
    thread.start()
    fake_github.add_repo("acme/api", {"app.py": "import os\n"})
    fake_github.open_issue("acme/api", "PR stand-in")

    def post(event: str, payload: dict, *, delivery: str | None = None) -> int:
        body = P.encode(payload)
        request = urllib.request.Request(f"http://127.0.0.1:{server.server_port}/webhook", data=body,
                                         headers=P.headers(event, body, delivery=delivery), method="POST")
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status
        except urllib.error.HTTPError as exc:
            return exc.code

    post.services = services
    post.url = f"http://127.0.0.1:{server.server_port}"
    post.app = app
    post.link = dashboard_link(app)  # what memfix serve prints: in local mode, with the token that signs a browser in
    post.drain = lambda: services.queue.drain(timeout=30)
    yield post
    server.shutdown()
    services.close(grace_seconds=5)  # its pool's connections go back: the shared server has a client limit


@pytest.fixture
def served(tmp_path, pg_url, tenant_id, app_key):
    """A real `memfix serve` process in front of the fake GitHub in a process of its own (tests/served.py), for this
    test's installation: `.github` (the fake's handle), `.post(event, payload)`, `.wait_idle()`, `.wait_for(...)`,
    `.log()`, `.url`. Both are stopped at the end, and nothing of them may be left running."""
    from tests.served import serving

    with serving(tmp_path, pg_url, tenant_id, app_key) as running:
        yield running


@pytest.fixture
def cli(monkeypatch, pg_url, app_url, tenant_id, capsys):
    """`memfix …` in-process on the test database and this test's installation: (exit code, stdout, stderr)."""
    from handlers.cli import main

    monkeypatch.setenv("DATABASE_URL", pg_url)
    monkeypatch.setenv("DATABASE_APP_URL", app_url)
    monkeypatch.setenv("MEMFIX_LOCAL_INSTALLATION", str(tenant_id))
    monkeypatch.delenv("MEMFIX_EMBEDDINGS", raising=False)
    get_settings.cache_clear()

    def run(*argv: str) -> tuple[int, str, str]:
        get_settings.cache_clear()
        code = main(list(argv))
        out = capsys.readouterr()
        return code, out.out, out.err

    yield run
    get_settings.cache_clear()


@pytest.fixture(scope="session")
def wheelhouse_index(tmp_path_factory):
    """A fake PyPI serving the real wheels `make setup` fetched (flake8 and its plugins, an older ruff)."""
    import shutil

    from core.tools import sandbox as sandboxes
    from tests.fakes.registry import FakePyPI

    wheelhouse = ROOT / ".venv" / "wheelhouse"
    if not (wheelhouse / ".complete").is_file():
        pytest.skip(f"NO WHEELHOUSE: {wheelhouse} is missing; `make setup` downloads it")
    if sandboxes.find()[0] is None:
        pytest.skip(f"NO SANDBOX: {sandboxes.find()[1]} (.ci/run installs bubblewrap)")
    folder = tmp_path_factory.mktemp("index")
    for wheel in wheelhouse.glob("*.whl"):
        shutil.copy(wheel, folder)
    with FakePyPI(folder) as fake:
        yield fake


@pytest.fixture(scope="session")
def npmhouse_registry():
    """A fake npm registry serving every package of the npmhouse's trees (real ESLint 8 and 9 with their plugins)."""
    from tests.fakes.registry import FakeNpm
    from tests.npm_sets import SETS, tree

    with FakeNpm() as fake:
        for name in SETS:
            fake.publish_installed(tree(name))
        yield fake


@pytest.fixture(scope="session")
def npm_tools(npmhouse_registry):
    """A tool cache installing from the npmhouse registry, in a folder the sandbox's user can reach (pytest's own
    temporary folders are closed to others), for the whole session: each tool is installed once per test process."""
    import shutil
    import tempfile

    from core.tools.install import ToolCache

    folder = Path(tempfile.mkdtemp(prefix="memfix-npm-tools-"))
    folder.chmod(0o755)
    yield ToolCache(folder / "tools", npm_registry=npmhouse_registry.url)
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="session")
def eslint8(npm_tools):
    """ESLint 8.57.0 with eslint-config-standard 17.1.0 and its plugins, installed from the npmhouse registry."""
    from tests.npm_sets import ESLINT8, NpmTool

    return NpmTool(npm_tools, ESLINT8, npm_tools.ensure(ESLINT8))


@pytest.fixture(scope="session")
def eslint9(npm_tools):
    """ESLint 9.17.0 with @eslint/js and globals (what a flat eslint.config.js loads), from the npmhouse registry."""
    from tests.npm_sets import ESLINT9, NpmTool

    return NpmTool(npm_tools, ESLINT9, npm_tools.ensure(ESLINT9))


def pytest_xdist_auto_num_workers(config) -> int:
    """`-n auto`: a worker per CPU, at least two (the process-level tests mostly wait on the processes they start)
    and at most four (each worker runs an embedded PostgreSQL of its own); one on DATABASE_URL's server, whose roles
    memfix changes as it starts (workers sharing it would race: "tuple concurrently updated")."""
    if os.environ.get("DATABASE_URL"):
        return 1
    return max(2, min(4, os.cpu_count() or 1))


def pytest_terminal_summary(terminalreporter):
    """Skipped browser, sandbox and npm tool tests are said loudly: a green run without them did not look at the
    dashboard, at what holds the team's tools in, or at real npm tools. So is what the suite left in the checkout."""
    left = terminalreporter.config.stash.get(_LEFT, [])
    if left:
        terminalreporter.write_sep("!", f"THE SUITE CHANGED {len(left)} FILE(S) IN THE CHECKOUT (tests write under "
                                        "tmp_path, or build/; or someone edited these while it ran)",
                                   red=True, bold=True)
        for line in left[:50]:
            terminalreporter.write_line(line)
    skipped = [r for r in terminalreporter.stats.get("skipped", []) if "NO BROWSER" in str(r.longrepr)]
    if skipped:
        terminalreporter.write_sep("!", f"{len(skipped)} BROWSER TEST(S) SKIPPED: no chromium on this machine "
                                        "(apt-get install chromium, as .ci/run does)", red=True, bold=True)
    unhoused = [r for r in terminalreporter.stats.get("skipped", []) if "NO NPMHOUSE" in str(r.longrepr)]
    if unhoused:
        terminalreporter.write_sep("!", f"{len(unhoused)} NPM TOOL TEST(S) SKIPPED: no .venv/npmhouse (make setup "
                                        "installs it)", red=True, bold=True)
    unboxed = [r for r in terminalreporter.stats.get("skipped", []) if "NO SANDBOX" in str(r.longrepr)]
    if unboxed:
        terminalreporter.write_sep("!", f"{len(unboxed)} SANDBOX TEST(S) SKIPPED: no sandbox can start on this "
                                        "machine (apt-get install bubblewrap, as .ci/run does)", red=True, bold=True)


def forget_services(*handlers) -> None:
    """Each Lambda handler's cached Services closed and forgotten: a test's database pool never outlives the test
    (left open, it retried against the worker's embedded PostgreSQL as the session stopped it)."""
    for handler in handlers:
        if handler.services.cache_info().currsize:
            close = getattr(handler.services(), "close", None)
            if close is not None:
                close(1)
        handler.services.cache_clear()
