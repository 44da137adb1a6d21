"""Faults on real processes, local addresses only: `memfix serve` killed with kill -9 in the middle of a job and
started again, PostgreSQL stopped in the middle of a job, GitHub answering 500 and a secondary rate limit with
retry-after, and a redelivery during a run. Each ends with the job done once, one reply showing the result, no
duplicate PR, and every run's phase true."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from core.queue import PgQueue
from tests.conftest import login_url
from tests.fakes import payloads as P
from tests.test_serve_stop import _free_port

ROOT = Path(__file__).resolve().parents[1]
REPO = "acme/api"
BUGGY = "import os\nimport sys\n\n\ndef greet(name):\n    return f\"hello\" + name\n"


def until(condition, timeout: float = 60.0, what: str = "") -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def start(fake, pg_url: str, queue: str, port: int, **extra: str) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "DATABASE_URL": pg_url, "DATABASE_APP_URL": login_url(pg_url),
           "GITHUB_WEBHOOK_SECRET": P.SECRET, "GITHUB_API_URL": fake.url, "GITHUB_APP_ID": str(fake.app_id),
           "GITHUB_APP_PRIVATE_KEY": fake.private_key_pem,
           "MEMFIX_QUEUE_NAME": queue, "MEMFIX_JOB_LEASE_SECONDS": "2", "MEMFIX_JOB_RETRY_BASE_SECONDS": "0.2",
           "MEMFIX_GITHUB_RETRY_BASE_SECONDS": "0.05", **extra}
    server = subprocess.Popen([sys.executable, "-m", "handlers.cli", "serve", "--port", str(port), "--grace", "5"],
                              cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = server.stdout.readline()
    if "memfix listening" not in line:
        server.kill()
        raise AssertionError(f"memfix serve did not start: {line!r} {server.stderr.read()[-2000:]}")
    return server


def finish_in_a_second_server(fake, pg_url: str, db, queue: str, port: int) -> None:
    """A new server takes the job the dead one held and finishes it, once: no duplicate PR."""
    second = start(fake, pg_url, queue, port)
    try:
        until(lambda: PgQueue(db, None, queue=queue).counts() == {"done": 1}, what="the job to finish")
    finally:
        second.send_signal(signal.SIGTERM)
        second.communicate(timeout=30)
    assert len(memfix_pulls(fake)) == 1


def post(port: int, event: str, payload: dict, delivery: str | None = None) -> int:
    import urllib.request

    body = P.encode(payload)
    request = urllib.request.Request(f"http://127.0.0.1:{port}/webhook", data=body, method="POST",
                                     headers=P.headers(event, body, delivery=delivery))
    with urllib.request.urlopen(request, timeout=30) as answer:
        return answer.status


def memfix_pulls(fake) -> list[dict]:
    return [p for p in fake.pulls(REPO) if p["head"]["ref"].startswith("memfix/")]


def replies(fake, number: int) -> list[str]:
    return [c["body"] for c in fake.comments(REPO, number) if c["user"]["login"] == "memfix[bot]"]


def runs_of(db, tenant: int) -> list[dict]:
    with db.tenant(tenant) as conn:
        return conn.execute("SELECT phase, error FROM runs ORDER BY id").fetchall()


def test_kill_9_in_the_middle_of_a_job_then_a_restart_finishes_it_once(fake_github, pg_url, db, tenant_id):
    fake_github.add_repo(REPO, {"app/util.py": BUGGY})
    number = fake_github.open_issue(REPO, "stand-in")
    queue, port = f"faults-{uuid.uuid4().hex[:8]}", _free_port()
    final_reply = fake_github.hold_next("PATCH", rf"/repos/{REPO}/issues/comments/\d+")  # the final reply hangs...
    first = start(fake_github, pg_url, queue, port)
    try:
        cid = fake_github.add_comment(REPO, number, "/autofix app/util.py", user="alice")["id"]
        assert post(port, "issue_comment", P.issue_comment("/autofix app/util.py", installation=tenant_id, repo=REPO,
                                                           number=number, comment_id=cid, pull_request=False)) == 202
        assert final_reply.arrived.wait(60), "the final reply was never sent"
        assert memfix_pulls(fake_github)  # ... after the PR is open
        first.send_signal(signal.SIGKILL)  # ... and the server dies with the job half done
        first.wait(10)
    finally:
        if first.poll() is None:
            first.kill()
    finish_in_a_second_server(fake_github, pg_url, db, queue, port)
    final_reply.release()  # the dead server's edit, which GitHub had taken in, lands last
    assert final_reply.answered.wait(30)
    [reply] = replies(fake_github, number)  # one reply, showing the result
    assert "**AutoFix** finished" in reply
    assert all(r["phase"] in ("done", "failed") for r in runs_of(db, tenant_id))
    with db.tenant(tenant_id) as conn:
        [job] = conn.execute("SELECT status, attempts FROM jobs").fetchall()
    assert job["status"] == "done" and job["attempts"] == 2


def test_a_job_killed_as_its_reply_shows_the_result_shows_it_after_the_restart(fake_github, pg_url, db, tenant_id):
    """The server dies as it edits the reply to the result, and the edit never reaches GitHub: the job is recorded
    done only once its reply shows the result, so the restart does the job again (once: no second PR) and shows it."""
    fake_github.add_repo(REPO, {"app/util.py": BUGGY})
    number = fake_github.open_issue(REPO, "stand-in")
    queue, port = f"faults-{uuid.uuid4().hex[:8]}", _free_port()
    final_reply = fake_github.hold_next("PATCH", rf"/repos/{REPO}/issues/comments/\d+")
    first = start(fake_github, pg_url, queue, port)
    try:
        cid = fake_github.add_comment(REPO, number, "/autofix app/util.py", user="alice")["id"]
        assert post(port, "issue_comment", P.issue_comment("/autofix app/util.py", installation=tenant_id, repo=REPO,
                                                           number=number, comment_id=cid, pull_request=False)) == 202
        assert final_reply.arrived.wait(60), "the final reply was never sent"
        first.send_signal(signal.SIGKILL)
        first.wait(10)
    finally:
        if first.poll() is None:
            first.kill()
    final_reply.lose()
    assert final_reply.answered.wait(30)
    finish_in_a_second_server(fake_github, pg_url, db, queue, port)
    [reply] = replies(fake_github, number)
    assert "**AutoFix** finished" in reply, reply


def test_github_500s_and_a_secondary_rate_limit_are_waited_out(serve, fake_github, tenant_id):
    sha = fake_github.push(REPO, "main", {"app/util.py": BUGGY})
    fake_github.fail_next("POST", rf"/repos/{REPO}/pulls", 500, times=2)
    fake_github.fail_next("POST", rf"/repos/{REPO}/git/refs", 403, times=1, headers={"retry-after": "1"},
                          body={"message": "You have exceeded a secondary rate limit. Please wait a few minutes."})
    serve("push", P.push(installation=tenant_id, repo=REPO, after=sha,
                         commits=[{"added": [], "modified": ["app/util.py"], "removed": []}]))
    assert serve.drain()
    assert len(memfix_pulls(fake_github)) == 1 and serve.services.queue.dead == []
    assert [r["phase"] for r in runs_of(serve.services.db, tenant_id)] == ["done"]


def test_a_redelivery_during_the_run_acts_once(serve, fake_github, tenant_id):
    number = fake_github.open_issue(REPO, "another")
    fake_github.push(REPO, "main", {"app/util.py": BUGGY})
    reading = fake_github.hold_next("GET", rf"/repos/{REPO}/contents/.*")
    cid = fake_github.add_comment(REPO, number, "/autofix app/util.py", user="alice")["id"]
    payload = P.issue_comment("/autofix app/util.py", installation=tenant_id, repo=REPO, number=number,
                              comment_id=cid, pull_request=False)
    assert serve("issue_comment", payload, delivery="once") == 202
    assert reading.arrived.wait(30)  # the run is under way...
    assert serve("issue_comment", payload, delivery="once") == 202  # ... when GitHub redelivers
    assert serve("issue_comment", payload) == 202  # ... or replays it under a new delivery id
    reading.release()
    assert serve.drain()
    assert len(memfix_pulls(fake_github)) == 1 and len(replies(fake_github, number)) == 1
    assert [r["phase"] for r in runs_of(serve.services.db, tenant_id)] == ["done"]


def test_postgres_stopped_in_the_middle_of_a_job(fake_github, data_dir, tenant_id):
    """The database goes away while a job runs and comes back: the job is done once, its reply shows the result,
    no PR is doubled, and the run that was cut off says it failed."""
    from core import db as core_db

    url = core_db.embedded_url(data_dir)  # a PostgreSQL of this test's own, to stop and start
    core_db.migrate(url)
    pgdata = next(k for k in core_db._embedded if str(k).startswith(str(data_dir)))
    fake_github.add_repo(REPO, {"app/util.py": BUGGY})
    number = fake_github.open_issue(REPO, "stand-in")
    queue, port = "outage", _free_port()
    fetching = fake_github.hold_next("GET", rf"/repos/{REPO}/tarball/.*")  # the run reads the repository...
    server = start(fake_github, url, queue, port, MEMFIX_DB_POOL_TIMEOUT="1")  # fail fast while it is away
    database = None
    try:
        cid = fake_github.add_comment(REPO, number, "/autofix app/util.py", user="alice")["id"]
        assert post(port, "issue_comment", P.issue_comment("/autofix app/util.py", installation=tenant_id, repo=REPO,
                                                           number=number, comment_id=cid, pull_request=False)) == 202
        assert fetching.arrived.wait(60), "the run never read the repository"
        fake_github.wait_for(lambda: fake_github.check_runs(REPO), 60, "the run to start")  # its check run mirrors it
        core_db._embedded.pop(pgdata).cleanup()  # ... when PostgreSQL stops
        fetching.release()
        fake_github.wait_for(lambda: "⏳" in (replies(fake_github, number) or [""])[0], 60,  # the run met the outage
                             "the attempt cut off by the outage to say it is retried")
        assert core_db.embedded_url(data_dir) == url  # ... and PostgreSQL starts again
        database = core_db.Database(url)
        until(lambda: PgQueue(database, None, queue=queue).counts() == {"done": 1}, 120, "the job to finish")
        until(lambda: "**AutoFix** finished" in (replies(fake_github, number) or [""])[0], 30, "the reply")
    finally:
        server.send_signal(signal.SIGTERM)
        server.communicate(timeout=30)
        if database is not None:
            runs = runs_of(database, tenant_id)
            with database.tenant(tenant_id) as conn:
                jobs = conn.execute("SELECT status FROM jobs").fetchall()
            database.close()
        core_db._embedded.pop(pgdata).cleanup()
    assert len(memfix_pulls(fake_github)) == 1 and len(replies(fake_github, number)) == 1
    assert [j["status"] for j in jobs] == ["done"]
    assert runs[-1]["phase"] == "done" and all(r["phase"] in ("done", "failed") for r in runs)
    assert len(runs) >= 2 and runs[0]["phase"] == "failed", runs  # the run cut off by the outage says so


PHASES = {  # where the first attempt is killed: a request to GitHub held until the process is gone
    "during the reply": ("POST", rf"/repos/{REPO}/issues/\d+/comments"),
    "before the check run": ("POST", rf"/repos/{REPO}/check-runs"),
    "while fetching": ("GET", rf"/repos/{REPO}/tarball/.*"),
    "while publishing": ("PUT", rf"/repos/{REPO}/contents/.*"),
}


@pytest.mark.parametrize("phase", PHASES)
def test_a_job_killed_at_any_phase_is_finished_once_and_leaves_nothing_open(fake_github, pg_url, db, tenant_id,
                                                                            phase):
    method, path = PHASES[phase]
    fake_github.add_repo(REPO, {"app/util.py": BUGGY})
    number = fake_github.open_issue(REPO, "stand-in")
    queue, port = f"faults-{uuid.uuid4().hex[:8]}", _free_port()
    held = fake_github.hold_next(method, path)  # answered after the process that asked is dead: GitHub acted anyway
    first = start(fake_github, pg_url, queue, port)
    try:
        cid = fake_github.add_comment(REPO, number, "/autofix app/util.py", user="alice")["id"]
        assert post(port, "issue_comment", P.issue_comment("/autofix app/util.py", installation=tenant_id, repo=REPO,
                                                           number=number, comment_id=cid, pull_request=False)) == 202
        assert held.arrived.wait(60), f"no request {phase}"  # held: the process is killed while it waits
        first.send_signal(signal.SIGKILL)
        first.wait(10)
    finally:
        if first.poll() is None:
            first.kill()
    held.release()
    assert held.answered.wait(30)  # the held request completes on GitHub's side, as it would have
    finish_in_a_second_server(fake_github, pg_url, db, queue, port)
    [reply] = replies(fake_github, number)  # one reply, edited to the result
    assert "**AutoFix** finished" in reply
    checks = [c for c in fake_github._repos[REPO].check_runs.values() if c["name"] == "memfix autofix"]
    assert checks and all(c["status"] == "completed" for c in checks)  # none left in progress
    assert [c["conclusion"] for c in checks].count("success") == 1
    assert all(c["conclusion"] == "neutral" and "superseded" in c["output"]["title"]
               for c in checks if c["conclusion"] != "success")
    assert all(r["phase"] in ("done", "failed") for r in runs_of(db, tenant_id))
