"""A real `memfix serve` process (waitress in front) on the session's PostgreSQL, pointed through GITHUB_API_URL at
the fake GitHub in a process of its own: what anything a network reaches is tested through (ARCHITECTURE §9).
tests/conftest.py makes it the `served` fixture; a test that needs other settings calls `serving(...)` itself."""

from __future__ import annotations

import json
import os
import re
import urllib.error
import urllib.request
import uuid
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.conftest import login_url
from tests.fakes import payloads as P
from tests.fakes.github import AppKey
from tests.fakes.github_process import GitHubProcess
from tests.fakes.process import Child, wait_for

# The environment's own settings stay out of the server's: it runs with what the test gives it only.
SETTINGS_PREFIXES = ("MEMFIX_", "GITHUB_", "DATABASE_", "OPENAI_", "ANTHROPIC_")
# Waits as short as the in-thread `serve` fixture's (tests/conftest.py `github_settings`, `model_settings`).
SHORT_WAITS = {"MEMFIX_TEAM_TOOLS": "false", "MEMFIX_GITHUB_RETRY_BASE_SECONDS": "0.01",
               "MEMFIX_GITHUB_MAX_WAIT_SECONDS": "5",
               "MEMFIX_JOB_RETRY_BASE_SECONDS": "0.01", "MEMFIX_PIPELINE_BACKOFF_SECONDS": "0.01"}
GRACE_SECONDS = 5  # a job still running at the end has this long to finish


@dataclass(frozen=True)
class Served:
    """`github`: the fake GitHub's handle (tests/fakes/github_process.py); `url`: memfix serve's own address."""

    github: GitHubProcess
    url: str
    server: Child

    def post(self, event: str, payload: dict[str, Any], *, delivery: str | None = None) -> int:
        """A webhook delivery signed with the test secret, as GitHub sends it; the answer's status."""
        body = P.encode(payload)
        sent = urllib.request.Request(f"{self.url}/webhook", data=body, method="POST",
                                      headers=P.headers(event, body, delivery=delivery))
        try:
            with urllib.request.urlopen(sent, timeout=30) as answer:
                return int(answer.status)
        except urllib.error.HTTPError as exc:
            return exc.code

    def health(self) -> dict[str, Any]:
        """memfix serve's /healthz: `pending_jobs` counts its queue's rows waiting or running, in the database."""
        try:
            with urllib.request.urlopen(f"{self.url}/healthz", timeout=30) as answer:
                return dict(json.load(answer))
        except urllib.error.URLError:
            self.server.check()  # it died: say what it said
            raise

    def wait_idle(self, timeout: float = 60.0) -> None:
        """Until no job of this server waits (a retry's included) or runs."""
        self.wait_for(lambda: self.health()["pending_jobs"] == 0, timeout, "memfix serve's queue to empty")

    def wait_for(self, condition: Callable[[], Any], timeout: float = 60.0, what: str = "") -> Any:
        """`condition()`'s first truthy value; at once an AssertionError if either process has exited, or after
        `timeout`, with what memfix serve (and the fake) said."""
        return wait_for(condition, timeout, what, self.server, self.github.process)

    def log(self) -> str:
        """What memfix serve wrote to its standard error so far."""
        return self.server.log()


@contextmanager
def serving(folder: Path, pg_url: str, tenant_id: int, app_key: AppKey, **settings: str) -> Iterator[Served]:
    """Both processes, started side by side (the fake's socket is bound first, so its URL is known), stopped at the
    end with SIGTERM: an AssertionError if either had to be killed, failed, or left a process running."""
    with ExitStack() as stack:
        github = GitHubProcess(folder, app_key=app_key).start()
        stack.callback(github.stop)
        server = Child("memfix-serve", ["handlers.cli", "serve", "--port", "0", "--grace", str(GRACE_SECONDS)],
                       folder=folder, env=_environment(github, folder, pg_url, tenant_id, settings))
        stack.callback(server.stop, GRACE_SECONDS + 15)  # stopped first: its last job may still talk to GitHub
        started = server.first_line(60)
        github.ready()
        listening = re.search(r"memfix listening on (http://\S+)/webhook", started)
        if listening is None:
            raise AssertionError(f"memfix serve started with {started!r}, not its `memfix listening on …` line")
        yield Served(github, listening[1], server)


def _environment(github: GitHubProcess, folder: Path, pg_url: str, tenant_id: int,
                 settings: dict[str, str]) -> dict[str, str]:
    inherited = {name: value for name, value in os.environ.items() if not name.startswith(SETTINGS_PREFIXES)}
    return {**inherited, **SHORT_WAITS,
            "DATABASE_URL": pg_url, "DATABASE_APP_URL": login_url(pg_url),
            "MEMFIX_DATA_DIR": str(folder / "data"), "MEMFIX_ENV_FILE": str(folder / ".env"),
            "MEMFIX_QUEUE_NAME": f"served-{uuid.uuid4().hex[:12]}",  # its own jobs: servers share the database
            "MEMFIX_LOCAL_INSTALLATION": str(tenant_id),
            "GITHUB_API_URL": github.url, "GITHUB_APP_ID": str(github.app_id),
            "GITHUB_APP_PRIVATE_KEY": github.private_key_pem, "GITHUB_WEBHOOK_SECRET": P.SECRET,
            **settings}
