"""SIGTERM and SIGINT on a real `memfix serve` process: it stops taking deliveries, finishes its job, and stops
everything it started — its embedded PostgreSQL included. Then nothing is left running."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.fakes import payloads as P

ROOT = Path(__file__).resolve().parents[1]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _processes_using(path: Path) -> list[str]:
    """Command lines of live processes that name `path` (a postgres started on that data directory)."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if str(path) in cmdline:
            found.append(f"{pid}: {cmdline}")
    return found


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_stopped_server_leaves_nothing_running(data_dir, fake_github, signum):
    fake_github.add_repo("acme/api", {"app.py": "import os\n"})
    number = fake_github.open_issue("acme/api", "stand-in")
    port, data = _free_port(), data_dir
    env = {**os.environ, "PYTHONPATH": str(ROOT), "MEMFIX_DATA_DIR": str(data), "GITHUB_WEBHOOK_SECRET": P.SECRET,
           "GITHUB_API_URL": fake_github.url, "GITHUB_APP_ID": str(fake_github.app_id),
           "GITHUB_APP_PRIVATE_KEY": fake_github.private_key_pem}
    env.pop("DATABASE_URL", None)
    server = subprocess.Popen([sys.executable, "-m", "handlers.cli", "serve", "--port", str(port), "--grace", "20"],
                              cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert "memfix listening" in server.stdout.readline()
        assert _processes_using(data), "the embedded PostgreSQL should be running under the data directory"
        cid = fake_github.add_comment("acme/api", number, "/recall anything", user="alice")["id"]
        body = P.encode(P.issue_comment("/recall anything", installation=77, repo="acme/api", number=number,
                                        comment_id=cid, pull_request=False))
        request = urllib.request.Request(f"http://127.0.0.1:{port}/webhook", data=body, method="POST",
                                         headers=P.headers("issue_comment", body))
        with urllib.request.urlopen(request, timeout=30) as answer:
            assert json.load(answer)["status"] == "queued"
        fake_github.wait_for(lambda: fake_github.reactions("acme/api", cid), 30, "the job to start (its 👀)")
        server.send_signal(signum)
        _, err = server.communicate(timeout=60)
    finally:
        if server.poll() is None:
            server.kill()
    assert server.returncode == 0, err
    assert "memfix stopped" in err
    assert _processes_using(data) == []  # no postgres left holding the data directory
    replies = [c["body"] for c in fake_github.comments("acme/api", number) if c["user"]["login"] == "memfix[bot]"]
    assert len(replies) == 1 and "Nothing in memory matches" in replies[0]  # the running job finished


def test_a_stopped_worker_leaves_unfinished_jobs_queued_for_the_next_one(db):
    import threading
    import uuid

    from core.errors import TransientError
    from core.queue import PgQueue, Schedule
    from core.wire import CommandJob

    started, release, ran = threading.Event(), threading.Event(), []

    def slow(job, attempt):
        started.set()
        release.wait(10)

    name = f"stop-{uuid.uuid4().hex[:8]}"
    queue = PgQueue(db, slow, queue=name, schedule=Schedule(lease_seconds=1.0, poll_seconds=0.05))
    jobs = [CommandJob(tenant_id=1, delivery_id="d", repo="o/r", command="recall", comment_id=i) for i in range(3)]
    for job in jobs:
        queue.send(job)
    assert started.wait(10)
    assert queue.stop(grace_seconds=0.2) == []  # the first is still running at the deadline: nothing is lost
    with pytest.raises(TransientError):
        queue.send(jobs[0])  # a stopping server takes no more work
    assert queue.counts() == {"running": 1, "queued": 2}  # in the database, not in a process
    release.set()  # the running job ends on the stopped worker; the two waiting ones wait for the next
    successor = PgQueue(db, lambda job, attempt: ran.append((job.comment_id, attempt)), queue=name,
                        schedule=Schedule(poll_seconds=0.05))
    try:
        assert successor.drain(timeout=20)
    finally:
        successor.stop(1)
    assert sorted(ran) == [(1, 1), (2, 1)] and queue.counts() == {"done": 3}


def test_a_dead_workers_job_is_taken_again_when_its_lease_lapses(db):
    import uuid

    from core.queue import PgQueue, Schedule
    from core.wire import CommandJob

    name, ran = f"lease-{uuid.uuid4().hex[:8]}", []
    enqueuer = PgQueue(db, None, queue=name)
    enqueuer.send(CommandJob(tenant_id=1, delivery_id="d", repo="o/r", command="recall", comment_id=7))
    with db.system() as conn:  # a worker takes it and is killed: no settle, no lease renewal
        assert conn.execute("SELECT * FROM memfix_job_take(%s, 'killed-worker', 0.3)", (name,)).fetchone()
    worker = PgQueue(db, lambda job, attempt: ran.append((job.comment_id, attempt)), queue=name,
                     schedule=Schedule(poll_seconds=0.05))
    try:
        assert worker.drain(timeout=20)
    finally:
        worker.stop(1)
    assert ran == [(7, 2)] and worker.counts() == {"done": 1}  # its second attempt: the crash counted


def test_dead_jobs_of_memfix_serve_are_replayed_from_the_database(db):
    import uuid

    from core.queue import PgQueue, Schedule
    from core.wire import CommandJob

    name, ran = f"dead-{uuid.uuid4().hex[:8]}", []

    def failing(job, attempt):
        if not ran:
            raise RuntimeError("GitHub is down")

    queue = PgQueue(db, failing, queue=name, schedule=Schedule(max_attempts=1, poll_seconds=0.05))
    job = CommandJob(tenant_id=1, delivery_id="d", repo="o/r", command="recall", comment_id=9)
    try:
        queue.send(job)
        assert queue.drain(10) and [j.key for j, _ in queue.dead] == [job.key] and queue.counts() == {"dead": 1}
        ran.append("fixed")
        assert queue.requeue() == 1 and queue.drain(10) and queue.counts() == {"done": 1}
        assert queue.requeue() == 0
    finally:
        queue.stop(1)


def test_the_container_image_and_compose_file_run_what_the_readme_says():
    import yaml

    dockerfile = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    assert 'ENTRYPOINT ["memfix"]' in dockerfile and '"serve"' in dockerfile and "USER memfix" in dockerfile
    for copied in ("core", "handlers"):  # migrations, templates and the manifest are their package data
        assert f"COPY {copied}" in dockerfile
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8"))["services"]
    assert compose["db"]["image"].startswith("pgvector/pgvector:")
    assert compose["web"]["command"][:1] == ["serve"] and compose["worker"]["command"] == ["serve", "--worker"]
    # Only the one-shot migration knows the owner's password; the app's processes log in as memfix's own login.
    migration = compose["migrate"]["environment"]
    owner, login = migration["DATABASE_URL"], migration["DATABASE_APP_URL"]
    assert compose["migrate"]["command"] == ["migrate"]
    assert owner.startswith(f"postgresql://{compose['db']['environment']['POSTGRES_USER']}:") and "@db:5432/" in owner
    assert login.startswith("postgresql://memfix_login:") and "@db:5432/" in login
    for name in ("web", "worker"):
        assert compose[name]["environment"]["DATABASE_APP_URL"] == login, name
        assert "DATABASE_URL" not in compose[name]["environment"], name
        assert compose[name]["depends_on"]["migrate"] == {"condition": "service_completed_successfully"}, name


def test_workers_sharing_one_database_take_each_job_once(db):
    import threading
    import uuid
    from collections import Counter

    from core.queue import PgQueue, Schedule
    from core.wire import CommandJob

    name, done, lock = f"shared-{uuid.uuid4().hex[:8]}", Counter(), threading.Lock()

    def run(worker: str):
        def work(job, attempt):
            time.sleep(0.01)
            with lock:
                done[(job.comment_id, worker)] += 1
        return work

    workers = [PgQueue(db, run(f"w{i}"), queue=name, schedule=Schedule(poll_seconds=0.02)) for i in range(3)]
    try:
        for i in range(40):
            workers[i % 3].send(CommandJob(tenant_id=1, delivery_id="d", repo="o/r", command="recall", comment_id=i))
        assert workers[0].drain(30)
    finally:
        for worker in workers:
            worker.stop(1)
    per_job = Counter(job for job, _ in done.elements())
    assert sorted(per_job) == list(range(40)) and set(per_job.values()) == {1}  # each once
    assert len({w for _, w in done}) >= 2  # and the work was shared


def test_a_restart_after_kill_9_owns_the_embedded_postgres_it_finds_and_stops_it(data_dir):
    port, data = _free_port(), data_dir
    env = {**os.environ, "PYTHONPATH": str(ROOT), "MEMFIX_DATA_DIR": str(data), "GITHUB_WEBHOOK_SECRET": P.SECRET}
    for name in ("DATABASE_URL", "DATABASE_APP_URL"):
        env.pop(name, None)

    def serve() -> subprocess.Popen:
        server = subprocess.Popen([sys.executable, "-m", "handlers.cli", "serve", "--port", str(port), "--grace", "1"],
                                  cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert "memfix listening" in server.stdout.readline()
        return server

    first = serve()
    first.send_signal(signal.SIGKILL)  # its PostgreSQL lives on, listing a holder that is dead
    first.wait(10)
    assert _processes_using(data)
    second = serve()
    try:
        second.send_signal(signal.SIGTERM)
        _, err = second.communicate(timeout=60)
    finally:
        if second.poll() is None:
            second.kill()
    assert second.returncode == 0, err
    assert _processes_using(data) == []  # the restarted server owned what it found, and stopped it
