"""Deadlines and bounded tool processes: a job's budget reaches every tool call and thread inside it, a tool past its
time is killed with every process it started, a tool that prints without end is stopped, and an outer deadline's
overrun is said as the outer one's."""

from __future__ import annotations

import sys
import textwrap
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from core import deadline
from core.deadline import Overrun
from core.tools import process
from core.tools.process import ToolFailed


def _python(code: str) -> list[str]:
    return [sys.executable, "-c", textwrap.dedent(code)]


def _alive(pid: int) -> bool:
    """Whether the process runs (a zombie waiting for its parent to read its status has stopped)."""
    try:
        state = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    return "\nState:\tZ" not in state


def test_a_tool_past_its_time_is_killed_with_every_process_it_started(tmp_path):
    pids = tmp_path / "pids"
    tree = _python(f"""
        import os, subprocess, sys, time
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
        open({str(pids)!r}, "w").write(f"{{os.getpid()}} {{child.pid}}")
        time.sleep(600)
    """)
    with pytest.raises(ToolFailed, match=r"^the tree did not finish within 1 s$"):
        process.run(tree, what="the tree", cap=1.0)
    assert pids.exists()
    tree = [int(pid) for pid in pids.read_text().split()]
    for _ in range(500):  # the kill is sent to the whole group at once; the kernel ends each process as it runs
        if not any(_alive(pid) for pid in tree):
            break
        threading.Event().wait(0.01)
    assert not any(_alive(pid) for pid in tree)


def test_a_tool_that_prints_without_end_is_stopped_at_its_cap():
    with pytest.raises(ToolFailed, match="printed more than 1 MiB and was stopped"):
        process.run(_python("import sys\nwhile True: sys.stdout.write('x' * 65536)"), what="the printer",
                    max_output=1 << 20)


def test_a_tool_that_reads_no_input_does_not_block_its_caller():
    done = process.run(_python("print('ready')"), what="the deaf tool", input="x" * (4 << 20))
    assert (done.returncode, done.stdout.strip()) == (0, "ready")


def test_a_tool_that_cannot_start_is_said_in_memfixs_words(tmp_path):
    with pytest.raises(ToolFailed, match="^ruff could not be started: No such file or directory$"):
        process.run([str(tmp_path / "no-such-ruff")], what="ruff")


def test_the_jobs_deadline_caps_a_tool_and_is_what_is_said_when_it_passes():
    with deadline.budget(0.5, "the job") as job, pytest.raises(Overrun) as stopped:
        process.run(_python("import time; time.sleep(600)"), what="ruff", cap=120)
    assert stopped.value.of(job) and str(stopped.value) == "the job took longer than 0.5 s and was stopped"


def test_an_outer_deadline_that_passed_is_said_before_an_inner_one():
    with deadline.budget(0.0, "the job") as job, deadline.budget(60, "the layout of a.js") as share:
        with pytest.raises(Overrun) as stopped:
            deadline.check()
    assert stopped.value.of(job) and not stopped.value.of(share)
    deadline.check()  # none in force out here


def test_a_thread_the_run_starts_works_under_the_run_s_deadlines():
    seen: list[float] = []
    with deadline.budget(30, "the job"), ThreadPoolExecutor(2) as pool:
        pool.map(deadline.carried(lambda _: seen.append(deadline.limit(1000))), range(4))
    assert len(seen) == 4 and all(0 < s <= 30 for s in seen)
    with ThreadPoolExecutor(1) as pool:  # a thread not handed them has none
        assert pool.submit(deadline.limit, 1000).result() == 1000


def test_a_deadline_in_one_thread_is_not_another_thread_s():
    inside = threading.Event()
    release = threading.Event()
    limits: list[float] = []

    def job() -> None:
        with deadline.budget(0.0, "another job"):
            inside.set()
            release.wait(10)

    other = threading.Thread(target=job)
    other.start()
    inside.wait(10)
    limits.append(deadline.limit(50))
    release.set()
    other.join()
    assert limits == [50]


def test_a_configuration_that_takes_longer_than_its_share_to_read_is_refused_by_name(monkeypatch):
    from core.bounded import ConfigRefused, read_config

    monkeypatch.setattr(deadline, "SCAN_SECONDS", 0.0)
    for fmt, text in (("json", "[1]"), ("yaml", "a: 1"), ("toml", "a = 1"), ("jsonc", "{}")):
        with pytest.raises(ConfigRefused) as refused:
            read_config(text, fmt, ".eslintrc")
        assert str(refused.value) == ".eslintrc: reading it took longer than 0 s"


def test_a_job_out_of_time_while_a_configuration_is_read_is_the_jobs_overrun_not_the_files():
    from core.bounded import read_config

    with deadline.budget(0.0, "the job") as job, pytest.raises(Overrun) as stopped:
        read_config("a: 1", "yaml", "ci.yml")
    assert stopped.value.of(job)


# ---- a job's budget, through the worker of memfix serve ----

@pytest.fixture
def serve_settings(github_settings):
    return github_settings.with_(job_seconds=0.3)


def test_a_job_past_its_budget_is_stopped_and_said_and_the_worker_takes_the_next(serve, fake_github, tenant_id):
    repo = "acme/api"
    slow = fake_github.hold_next("GET", rf"/repos/{repo}/contents/app\.py", limit=1.0)  # GitHub answers late
    cid = fake_github.add_comment(repo, 1, "/autofix app.py", user="alice")["id"]
    from tests.fakes import payloads as P

    assert serve("issue_comment", P.issue_comment("/autofix app.py", installation=tenant_id, repo=repo, number=1,
                                                  comment_id=cid, pull_request=False)) == 202
    assert slow.arrived.wait(30)
    recall = fake_github.add_comment(repo, 1, "/recall anything", user="alice")["id"]
    assert serve("issue_comment", P.issue_comment("/recall anything", installation=tenant_id, repo=repo, number=1,
                                                  comment_id=recall, pull_request=False)) == 202
    assert serve.drain()

    replies = [c["body"] for c in fake_github.comments(repo, 1) if c["user"]["login"] == "memfix[bot]"]
    assert any(r.startswith("❌ `/autofix` failed: the job took longer than 0.3 s and was stopped") for r in replies)
    assert any("Nothing in memory matches" in r for r in replies)  # the next job ran
    assert serve.services.queue.dead == [] and fake_github.pulls(repo) == []


def test_a_configuration_module_that_takes_longer_than_its_share_is_unknown_and_said(monkeypatch):
    from core.languages.javascript.literal import Unknown, exported

    monkeypatch.setattr(deadline, "SCAN_SECONDS", 0.0)
    text = "export default [" + ", ".join(["{rules: {semi: 'error'}}"] * 3000) + "];\n"
    assert exported(text) == Unknown("a configuration module that took longer than 0 s to read")
    monkeypatch.setattr(deadline, "SCAN_SECONDS", 20.0)
    assert len(exported(text)) == 3000
