"""The repository's CI as the behavioural verifier, end to end: signed webhooks → memfix serve → fake GitHub, real
PostgreSQL. Drafts wait for the checks; green → ready; red → one comment, an envelope, a pain point and the rule
held back on the next push; a person's word brings it back; redelivered check events change nothing twice."""

from __future__ import annotations

import pytest

from tests.fakes import payloads as P
from tests.test_pipelines import ASSERTS, BANDIT, GOOD_EDIT

REPO = "acme/api"
CI = {".github/workflows/ci.yml": "on: [push, pull_request]\njobs: {}\n", "ruff.toml": "line-length = 88\n"}
UNUSED = "import os\nimport sys\n\n\ndef greet(name):\n    return name\n"
UNUSED_2 = "import json\n\n\ndef load(text):\n    return text\n"
UNUSED_3 = "import re\n\n\ndef words(text):\n    return text.split()\n"


def push(serve, gh, tenant: int, files: dict[str, str]) -> str:
    sha = gh.push(REPO, "main", files)
    serve("push", P.push(installation=tenant, repo=REPO, after=sha,
                         commits=[{"added": list(files), "modified": [], "removed": []}]))
    assert serve.drain()
    return sha


def open_memfix_pulls(gh) -> list[dict]:
    return [p for p in gh.pulls(REPO) if p["head"]["ref"].startswith("memfix/") and p["state"] == "open"]


_suites = iter(range(7001, 8000))


def ci(serve, gh, tenant: int, pr: dict, conclusion: str, *, delivery: str | None = None, suite: int | None = None,
       **check) -> None:
    """A CI App's check run on the PR's head, then its check suite's completion (a new suite id unless given)."""
    sha, branch = pr["head"]["sha"], pr["head"]["ref"]
    if not check.get("skip_run"):
        gh.add_check_run(REPO, sha, check.get("name", "tests"), conclusion=conclusion,
                         title=check.get("title", ""), summary=check.get("summary", ""),
                         annotations=check.get("annotations"))
    assert serve("check_suite", P.check_suite_completed(installation=tenant, repo=REPO, head_sha=sha,
                                                        head_branch=branch, conclusion=conclusion,
                                                        suite_id=suite or next(_suites)),
                 delivery=delivery) == 202
    assert serve.drain()


def trusted_ci(serve, tenant: int) -> None:
    """A repository whose CI memfix knows: its re-runs confirmed three failures and overturned none."""
    from core.memory.proposals import CI_RECORD

    for n in range(CI_RECORD):
        serve.services.proposals.save(tenant, repository=REPO, pipeline="autofix", fingerprint=f"record{n}",
                                      path=f"old/{n}.py", branch=f"memfix/autofix/record-{n}", base_branch="main",
                                      pr_number=900 + n, state="closed", head_sha=f"{n:040d}", finding_codes=[])
    with serve.services.db.tenant(tenant) as conn:
        conn.execute("UPDATE proposals SET ci_rerun = head_sha, ci_state = 'failed' WHERE fingerprint LIKE 'record%'")


def green_before(serve, tenant: int, fixes: int = 32) -> None:
    """memfix's earlier fixes here (of another rule) all passed this CI: one red is more than its chance now, for
    either of the two rules the CI judged (under one in forty)."""
    for n in range(fixes):
        serve.services.proposals.save(tenant, repository=REPO, pipeline="autofix", fingerprint=f"green{n}",
                                      path=f"done/m{n}.py", branch=f"memfix/autofix/green-{n}", base_branch="main",
                                      pr_number=800 + n, state="merged", head_sha=f"{n:040x}", finding_codes=["E711"],
                                      ci_passes=1)


def bot_comments(gh, number: int) -> list[str]:
    return [c["body"] for c in gh.comments(REPO, number) if c["user"]["login"] == "memfix[bot]"]


def proposal(serve, tenant: int, number: int) -> dict:
    with serve.services.db.tenant(tenant) as conn:
        return conn.execute("SELECT * FROM proposals WHERE pr_number = %s", (number,)).fetchone()


def test_a_draft_waits_for_the_checks_and_green_makes_it_ready(serve, fake_github, tenant_id):
    fake_github.push(REPO, "main", CI)
    push(serve, fake_github, tenant_id, {"app/util.py": UNUSED})
    [pr] = open_memfix_pulls(fake_github)
    assert pr["draft"] is True and "draft until the repository's checks finish" in pr["body"]
    fake_github.add_check_run(REPO, pr["head"]["sha"], "lint", status="in_progress", conclusion=None)
    ci(serve, fake_github, tenant_id, pr, "success")
    assert fake_github.pull(REPO, pr["number"])["draft"] is True  # lint still runs
    assert proposal(serve, tenant_id, pr["number"])["ci_state"] == "waiting"
    fake_github.add_check_run(REPO, pr["head"]["sha"], "lint", conclusion="success")
    ci(serve, fake_github, tenant_id, pr, "success", skip_run=True)
    assert fake_github.pull(REPO, pr["number"])["draft"] is False
    row = proposal(serve, tenant_id, pr["number"])
    assert (row["ci_state"], row["ci_passes"]) == ("passed", 1)
    assert bot_comments(fake_github, pr["number"]) == []  # ready for review says it; no comment needed


def test_memfix_own_check_run_is_not_the_repository_ci(serve, fake_github, tenant_id):
    fake_github.push(REPO, "main", CI)
    push(serve, fake_github, tenant_id, {"app/util.py": UNUSED})
    [pr] = open_memfix_pulls(fake_github)
    with fake_github._lock:  # memfix's own mirror on the branch commit, failing: not a CI verdict
        fake_github._repo(REPO).check_runs[1] = {"id": 1, "name": "memfix autofix", "head_sha": pr["head"]["sha"],
                                                 "status": "completed", "conclusion": "failure",
                                                 "app": {"slug": "memfix"}, "output": None}
    ci(serve, fake_github, tenant_id, pr, "success")
    assert fake_github.pull(REPO, pr["number"])["draft"] is False


def test_red_ci_comments_once_records_and_holds_the_rule_back_on_the_next_push(serve, fake_github, tenant_id):
    fake_github.push(REPO, "main", CI)
    green_before(serve, tenant_id)
    push(serve, fake_github, tenant_id, {"app/util.py": UNUSED})
    [pr] = open_memfix_pulls(fake_github)
    note = {"path": "app/util.py", "start_line": 1, "annotation_level": "failure",
            "message": "ImportError: cannot import name 'os' from 'app.util'"}
    ci(serve, fake_github, tenant_id, pr, "failure", delivery="red-1", suite=1, title="2 tests failed",
       summary="test_reexports failed", annotations=[note])
    ci(serve, fake_github, tenant_id, pr, "failure", delivery="red-1", suite=1, skip_run=True)  # a redelivery
    ci(serve, fake_github, tenant_id, pr, "failure", skip_run=True)  # another suite of the same commit
    [comment] = bot_comments(fake_github, pr["number"])
    assert "checks failed" in comment and "**tests** (check run): failure" in comment
    assert "test_reexports failed" in comment and "`app/util.py:1` failure: ImportError" in comment
    assert "now holding back F401" in comment and "What to look at" in comment  # offline: a person's turn
    assert fake_github.pull(REPO, pr["number"])["draft"] is True
    row = proposal(serve, tenant_id, pr["number"])
    assert (row["ci_state"], row["ci_failures"]) == ("failed", 1)
    services = serve.services
    with services.db.tenant(tenant_id) as conn:
        [envelope] = conn.execute("SELECT * FROM healing_envelopes WHERE patch_id = %s AND status = 'REJECTED'",
                                  (row["fingerprint"],)).fetchall()
    assert envelope["status"] == "REJECTED" and "CI failed" in envelope["error_message"]
    pains = services.insights.search(tenant_id, "CI failed F401", repository=REPO)
    assert any(h.insight.title.startswith("CI failed on memfix's F401 fix") for h in pains)

    push(serve, fake_github, tenant_id, {"app/more.py": UNUSED_2})  # the rule is held back here now
    assert len(open_memfix_pulls(fake_github)) == 1
    mirror = [r for r in fake_github.check_runs(REPO) if r["name"] == "memfix autofix"][-1]  # the run's summary
    assert "held back by what memfix learned here: F401" in mirror["output"]["summary"]
    [hold] = services.policy.for_run(tenant_id, REPO, "autofix").holds
    recalled = services.review_steps.recall  # /recall shows the decision
    assert hold.insight_id and recalled

    # a person re-enables it: the next push proposes F401 fixes again
    cid = fake_github.add_comment(REPO, pr["number"], "/remember decision enable F401", user="alice")["id"]
    serve("issue_comment", P.issue_comment("/remember decision enable F401", installation=tenant_id, repo=REPO,
                                           number=pr["number"], comment_id=cid))
    assert serve.drain()
    assert any("propose F401 fixes in this repository again" in b for b in bot_comments(fake_github, pr["number"]))
    assert services.policy.for_run(tenant_id, REPO, "autofix").holds == []
    push(serve, fake_github, tenant_id, {"app/third.py": UNUSED_3})  # app/more.py, held back before, comes too
    mirror = [r for r in fake_github.check_runs(REPO) if r["name"] == "memfix autofix"][-1]
    assert sorted(p["title"] for p in open_memfix_pulls(fake_github)) == [
        "memfix: fix F401 in app/more.py", "memfix: fix F401 in app/third.py", "memfix: fix F401 in app/util.py"], \
        mirror["output"]


def test_a_repository_without_ci_gets_its_pr_ready_at_once_and_told_so(serve, fake_github, tenant_id):
    push(serve, fake_github, tenant_id, {"app/util.py": UNUSED})
    [pr] = open_memfix_pulls(fake_github)
    assert pr["draft"] is False and "No CI found in this repository" in pr["body"]
    assert proposal(serve, tenant_id, pr["number"])["ci_state"] == "absent"


def test_without_draft_support_the_pr_is_ready_and_still_waits_for_ci(serve, fake_github, tenant_id):
    fake_github.add_repo("acme/free", {**CI, "x.py": "x = 1\n"}, drafts=False)
    sha = fake_github.push("acme/free", "main", {"app/util.py": UNUSED})
    serve("push", P.push(installation=tenant_id, repo="acme/free", after=sha,
                         commits=[{"added": ["app/util.py"], "modified": [], "removed": []}]))
    assert serve.drain()
    [pr] = [p for p in fake_github.pulls("acme/free") if p["head"]["ref"].startswith("memfix/")]
    assert pr["draft"] is False
    with serve.services.db.tenant(tenant_id) as conn:
        assert conn.execute("SELECT ci_state FROM proposals WHERE repository = 'acme/free'").fetchone()["ci_state"] \
            == "waiting"


def test_checks_that_never_report_are_marked_after_the_wait(serve, fake_github, tenant_id):
    fake_github.push(REPO, "main", CI)
    push(serve, fake_github, tenant_id, {"app/util.py": UNUSED})
    [pr] = open_memfix_pulls(fake_github)
    with serve.services.db.tenant(tenant_id) as conn:
        conn.execute("UPDATE proposals SET ci_since = now() - interval '25 hours' WHERE pr_number = %s",
                     (pr["number"],))
    push(serve, fake_github, tenant_id, {"docs.md": "x"})  # the repository's next event looks
    [comment] = bot_comments(fake_github, pr["number"])
    assert "No check reported" in comment and "within 24 hours" in comment
    assert fake_github.pull(REPO, pr["number"])["draft"] is False
    assert proposal(serve, tenant_id, pr["number"])["ci_state"] == "silent"
    push(serve, fake_github, tenant_id, {"docs2.md": "x"})
    assert len(bot_comments(fake_github, pr["number"])) == 1


REFINED = {"edits": [{"search": "raise ValueError(\"amount must be positive\")", "replace": "raise AssertionError"}],
           "confidence": 0.9, "rationale": "the tests expect AssertionError"}


def test_with_a_model_red_ci_gets_one_refinement_from_the_failure_text(model_settings, serve, fake_github,
                                                                       model_server, tenant_id):
    fake_github.push(REPO, "main", CI)
    model_server.script_chat(GOOD_EDIT)
    trusted_ci(serve, tenant_id)
    push(serve, fake_github, tenant_id, {**BANDIT, "billing.py": ASSERTS})
    [pr] = open_memfix_pulls(fake_github)
    model_server.script_chat(REFINED)
    ci(serve, fake_github, tenant_id, pr, "failure", title="1 test failed",
       summary="test_charge_rejects_zero: expected AssertionError, got ValueError")
    prompt = [b for p, b in model_server.requests if p.endswith("/chat/completions")][-1]["messages"][-1]["content"]
    assert "expected AssertionError, got ValueError" in prompt  # the failure text reached the model
    [comment] = bot_comments(fake_github, pr["number"])
    assert "memfix refined the change from the failure text" in comment
    assert "raise AssertionError" in fake_github.file(REPO, pr["head"]["ref"], "billing.py")
    row = proposal(serve, tenant_id, pr["number"])
    new_head = fake_github.pull(REPO, pr["number"])["head"]["sha"]
    assert (row["ci_state"], row["head_sha"], row["ci_refined"]) == ("waiting", new_head, True)

    # the new commit's checks: red again → no second refinement, a person's turn; nothing asked of the model
    def chats() -> int:
        return sum(path.endswith("/chat/completions") for path, _ in model_server.requests)

    asked = chats()
    ci(serve, fake_github, tenant_id, fake_github.pull(REPO, pr["number"]), "failure", summary="still failing")
    assert chats() == asked
    assert "already made its one refinement attempt" in bot_comments(fake_github, pr["number"])[-1]


def test_offline_the_pr_says_which_learnings_were_used_and_never_claims_injection(serve, fake_github, tenant_id):
    serve.services.policy.hold(tenant_id, REPO, ["F401"], "alice", None)
    fake_github.push(REPO, "main", CI)
    push(serve, fake_github, tenant_id, {"app/mixed.py": "import os\n\n\ndef hi():\n    return f\"hi\"\n"})
    [pr] = open_memfix_pulls(fake_github)
    assert pr["title"] == "memfix: fix F541 in app/mixed.py"  # the held rule's fix is not in it
    assert "import os" in fake_github.file(REPO, pr["head"]["ref"], "app/mixed.py")
    body = pr["body"]
    assert "### Learnings used" in body and "F401 held back (asked by @\u200balice)" in body  # named, not pinged
    assert "Learnings injected" not in body and "F541 fixes: no record in this repository" in body
    mirror = [r for r in fake_github.check_runs(REPO) if r["name"] == "memfix autofix"][-1]["output"]["summary"]
    assert "held back by what memfix learned here: F401" in mirror and "Learnings used" in mirror


def test_nothing_learned_means_no_learnings_section(serve, fake_github, tenant_id):
    push(serve, fake_github, tenant_id, {"app/util.py": UNUSED})
    [pr] = open_memfix_pulls(fake_github)
    assert "Learnings used" not in pr["body"] and "Learnings injected" not in pr["body"]


def test_commit_statuses_and_workflow_runs_are_verdicts_too(serve, fake_github, tenant_id):
    fake_github.push(REPO, "main", {"Jenkinsfile": "pipeline {}\n"})
    push(serve, fake_github, tenant_id, {"app/util.py": UNUSED})
    [pr] = open_memfix_pulls(fake_github)
    sha, branch = pr["head"]["sha"], pr["head"]["ref"]
    fake_github.set_status(REPO, sha, "ci/jenkins", "pending")
    fake_github.add_check_run(REPO, sha, "build", conclusion="success")
    serve("workflow_run", P.workflow_run_completed(installation=tenant_id, repo=REPO, head_sha=sha,
                                                   head_branch=branch))
    assert serve.drain()
    assert fake_github.pull(REPO, pr["number"])["draft"] is True  # Jenkins still pending
    fake_github.set_status(REPO, sha, "ci/jenkins", "success", description="42 tests passed")
    serve("status", P.status_event(installation=tenant_id, repo=REPO, sha=sha, branches=[branch]))
    assert serve.drain()
    assert fake_github.pull(REPO, pr["number"])["draft"] is False
    assert fake_github.ready_marked == [(REPO, pr["number"])]


# ---- CI verdicts that are memfix's: compared with the base commit; re-runs supersede ----


def test_a_check_that_fails_on_the_base_commit_too_is_noise_not_a_verdict(serve, fake_github, tenant_id):
    fake_github.push(REPO, "main", CI)
    push(serve, fake_github, tenant_id, {"app/util.py": UNUSED})
    [pr] = open_memfix_pulls(fake_github)
    base = pr["base"]["sha"]
    fake_github.add_check_run(REPO, base, "tests", conclusion="failure")  # main is red already
    fake_github.add_check_run(REPO, base, "lint", conclusion="success")
    fake_github.add_check_run(REPO, pr["head"]["sha"], "lint", conclusion="success")
    fake_github.add_check_run(REPO, pr["head"]["sha"], "deploy-preview", conclusion="cancelled")
    ci(serve, fake_github, tenant_id, pr, "failure")  # `tests` red on the change as on main

    [comment] = bot_comments(fake_github, pr["number"])
    assert "not because of this change" in comment
    assert f"**tests** fails on the base commit `{base[:7]}` too" in comment
    assert "**deploy-preview** was cancelled" in comment
    assert fake_github.pull(REPO, pr["number"])["draft"] is False  # the checks that could judge it passed
    row = proposal(serve, tenant_id, pr["number"])
    assert (row["ci_state"], row["ci_failures"]) == ("passed", 0)
    assert serve.services.policy.for_run(tenant_id, REPO, "autofix").held == ()  # nothing learned against F401


def test_a_check_that_passed_on_the_base_commit_and_fails_on_the_change_counts(serve, fake_github, tenant_id):
    fake_github.push(REPO, "main", CI)
    trusted_ci(serve, tenant_id)
    push(serve, fake_github, tenant_id, {"app/util.py": UNUSED})
    [pr] = open_memfix_pulls(fake_github)
    fake_github.add_check_run(REPO, pr["base"]["sha"], "tests", conclusion="success")
    fake_github.add_check_run(REPO, pr["base"]["sha"], "docs", conclusion="failure")  # red on main: noise here
    fake_github.add_check_run(REPO, pr["head"]["sha"], "docs", conclusion="failure")
    ci(serve, fake_github, tenant_id, pr, "failure")

    [comment] = bot_comments(fake_github, pr["number"])
    assert "checks failed on this change" in comment and "**tests** (check run): failure" in comment
    assert f"Each passed on the base commit `{pr['base']['sha'][:7]}`" in comment
    assert "**docs** fails on the base commit" in comment and "not counted" in comment
    assert (proposal(serve, tenant_id, pr["number"])["ci_failures"]) == 1


def test_a_re_run_that_passes_supersedes_the_failure_and_corrects_the_record(serve, fake_github, tenant_id):
    fake_github.push(REPO, "main", CI)
    trusted_ci(serve, tenant_id)  # memfix counts a failure at once here: a maintainer's re-run overturns it
    green_before(serve, tenant_id)
    push(serve, fake_github, tenant_id, {"app/util.py": UNUSED})
    [pr] = open_memfix_pulls(fake_github)
    ci(serve, fake_github, tenant_id, pr, "failure")  # a flaky run: the base has no checks to compare with
    assert serve.services.policy.for_run(tenant_id, REPO, "autofix").named() == ("F401 in `app/**`",)

    ci(serve, fake_github, tenant_id, pr, "success")  # the maintainer re-runs it: green on the same commit
    assert fake_github.pull(REPO, pr["number"])["draft"] is False
    row = proposal(serve, tenant_id, pr["number"])
    assert (row["ci_state"], row["ci_failures"], row["ci_passes"]) == ("passed", 0, 1)
    failed, passed = bot_comments(fake_github, pr["number"])
    assert "checks failed" in failed and "passed when run again" in passed and "proposing F401 again" in passed
    assert serve.services.policy.for_run(tenant_id, REPO, "autofix").named() == ()
    ci(serve, fake_github, tenant_id, pr, "success", skip_run=True)  # redelivered: nothing twice
    assert len(bot_comments(fake_github, pr["number"])) == 2


def test_a_rule_the_cis_reds_put_in_doubt_gets_one_pr_a_run_until_one_is_merged(serve, fake_github, tenant_id):
    fake_github.push(REPO, "main", CI)
    green_before(serve, tenant_id, fixes=12)  # one red is more than this CI's noise, though not a hold of 2 rules
    push(serve, fake_github, tenant_id, {"app/util.py": UNUSED})
    [first] = open_memfix_pulls(fake_github)
    ci(serve, fake_github, tenant_id, first, "failure")
    plan = serve.services.policy.for_run(tenant_id, REPO, "autofix")
    assert plan.holds == [] and plan.doubted == {"F401"}
    push(serve, fake_github, tenant_id, {"app/a.py": UNUSED_2, "app/b.py": UNUSED_3, "app/c.py": "import io\n"})
    [tried] = [p for p in open_memfix_pulls(fake_github) if p["number"] != first["number"]]
    mirror = [r for r in fake_github.check_runs(REPO) if r["name"] == "memfix autofix"][-1]["output"]
    assert "; 2 file(s) wait for a later run: the CI's reds on F401 fixes are more than its noise explains (one PR " \
        "of it a run)" in mirror["summary"]
    assert len(serve.services.policy.lifted(tenant_id, REPO, "autofix")) == 2  # remembered for a later run

    push(serve, fake_github, tenant_id, {"docs/conf.py": "project = 'api'\n"})  # still on trial: one more
    assert len(open_memfix_pulls(fake_github)) == 3 and len(serve.services.policy.lifted(tenant_id, REPO,
                                                                                         "autofix")) == 1
    fake_github.close_pull(REPO, tried["number"], merged=True)
    serve("pull_request", P.pull_request_closed(installation=tenant_id, repo=REPO, number=tried["number"],
                                               branch=tried["head"]["ref"], merged=True, sha=tried["head"]["sha"]))
    assert serve.drain()
    push(serve, fake_github, tenant_id, {"docs/conf.py": "project = 'api2'\n"})  # merged: the last one comes
    assert len(fake_github.pulls(REPO)) == 4 and serve.services.policy.lifted(tenant_id, REPO, "autofix") == []


# ---- re-runs a team would accept: only a failure nothing ties to the change, announced once, capped a week ----

NET = {"path": "lib/net.py", "start_line": 9, "annotation_level": "failure", "message": "ConnectionResetError"}
ELSEWHERE = {"lib/net.py": "import socket\n\n\ndef host():\n    return socket.gethostname()\n"}  # imports no app/


def rerun_history(serve, tenant: int, pr: dict, *, recent: int, older: int) -> None:
    """Re-runs memfix asked for in this repository before: `recent` within the week, `older` before it."""
    with serve.services.db.tenant(tenant) as conn:
        for days in [1] * recent + [8] * older:
            conn.execute("INSERT INTO ci_reruns (tenant_id, repository, proposal_id, head_sha, answer, said, asked_at)"
                         " SELECT tenant_id, repository, id, head_sha, 'asked', true, now() - make_interval(days => %s)"
                         " FROM proposals WHERE pr_number = %s", (days, pr["number"]))


def test_the_first_re_run_in_a_repository_is_announced_once_with_the_line_that_turns_them_off(serve, fake_github,
                                                                                                tenant_id):
    fake_github.push(REPO, "main", {**CI, **ELSEWHERE})
    push(serve, fake_github, tenant_id, {"app/util.py": UNUSED})
    [first] = open_memfix_pulls(fake_github)
    ci(serve, fake_github, tenant_id, first, "failure", annotations=[NET])  # nothing ties it to app/util.py
    assert len(fake_github.reruns(REPO)) == 1 and fake_github.pull(REPO, first["number"])["draft"] is True
    [announced] = bot_comments(fake_github, first["number"])
    assert "`tests` failed on" in announced and "the first time memfix runs a failed check again" in announced
    assert "```yaml\nci_rerun: never\n```" in announced and "`.github/memfix.yml`" in announced
    assert proposal(serve, tenant_id, first["number"])["ci_state"] == "waiting"
    ci(serve, fake_github, tenant_id, first, "success")  # the re-run passes: ready, nothing more to say
    assert fake_github.pull(REPO, first["number"])["draft"] is False
    assert len(bot_comments(fake_github, first["number"])) == 1

    push(serve, fake_github, tenant_id, {"app/io.py": UNUSED_2})
    [second] = [p for p in open_memfix_pulls(fake_github) if p["number"] != first["number"]]
    ci(serve, fake_github, tenant_id, second, "failure", annotations=[NET])
    assert len(fake_github.reruns(REPO)) == 2 and bot_comments(fake_github, second["number"]) == []  # said once


def test_a_ci_that_lied_before_gets_an_untied_failure_run_again_twice_before_it_counts(serve, fake_github,
                                                                                          tenant_id):
    fake_github.push(REPO, "main", {**CI, **ELSEWHERE})
    push(serve, fake_github, tenant_id, {"app/util.py": UNUSED})
    [first] = open_memfix_pulls(fake_github)
    ci(serve, fake_github, tenant_id, first, "failure", annotations=[NET])
    ci(serve, fake_github, tenant_id, first, "success")  # its re-run passes: the CI lied once
    assert proposal(serve, tenant_id, first["number"])["ci_flakes"] == 1

    push(serve, fake_github, tenant_id, {"app/io.py": UNUSED_2})
    [second] = [p for p in open_memfix_pulls(fake_github) if p["number"] != first["number"]]
    ci(serve, fake_github, tenant_id, second, "failure", annotations=[NET])
    [red] = [r["id"] for r in fake_github.check_runs(REPO) if r["head_sha"] == second["head"]["sha"]]
    assert fake_github.reruns(REPO)[-1] == red  # GitHub Actions: the job is run again on the same commit
    row = proposal(serve, tenant_id, second["number"])
    assert (row["ci_state"], row["ci_failures"], row["ci_rerun"]) == ("waiting", 0, second["head"]["sha"])
    assert serve.services.policy.for_run(tenant_id, REPO, "autofix").named() == ()
    ci(serve, fake_github, tenant_id, second, "success")  # the re-run passes: ready, no failure on record
    row = proposal(serve, tenant_id, second["number"])
    assert (row["ci_state"], row["ci_failures"], row["ci_passes"], row["ci_flakes"]) == ("passed", 0, 1, 1)
    assert serve.services.proposals.flakes(tenant_id, REPO) == 2

    push(serve, fake_github, tenant_id, {"app/words.py": UNUSED_3})
    [third] = [p for p in open_memfix_pulls(fake_github) if p["number"] not in (first["number"], second["number"])]
    ci(serve, fake_github, tenant_id, third, "failure", annotations=[NET])
    ci(serve, fake_github, tenant_id, third, "failure", annotations=[NET])  # a CI that lied twice gets another
    assert len(fake_github.reruns(REPO)) == 4 and bot_comments(fake_github, third["number"]) == []
    ci(serve, fake_github, tenant_id, third, "failure", annotations=[NET])  # red a third time: now it counts, once
    [comment] = bot_comments(fake_github, third["number"])
    assert "checks failed on this change" in comment and "failed again when memfix ran them a second time" in comment
    assert proposal(serve, tenant_id, third["number"])["ci_failures"] == 1


@pytest.mark.parametrize(("files", "where", "said"), [
    ({}, {"path": "tests/test_util.py", "start_line": 12, "message": "AssertionError"},
     "**tests** failed in the tests (`tests/test_util.py`)"),
    ({"app/api.py": "from app.util import greet\n\n\ndef hello():\n    return greet('x')\n"},
     {"path": "app/api.py", "start_line": 5, "message": "TypeError"},
     "**tests** failed in `app/api.py`, which imports `app/util.py`"),
    ({}, {"path": ".github", "start_line": 1, "message": "Process completed with exit code 1."},
     "nothing says where **tests** failed"),
], ids=["in-the-tests", "in-a-dependent", "nowhere"])
def test_a_failure_tied_to_the_change_counts_at_once_and_says_why(serve, fake_github, tenant_id, files, where, said):
    fake_github.push(REPO, "main", {**CI, **files})
    push(serve, fake_github, tenant_id, {"app/util.py": UNUSED})
    [pr] = open_memfix_pulls(fake_github)
    ci(serve, fake_github, tenant_id, pr, "failure", annotations=[{**where, "annotation_level": "failure"}])
    assert fake_github.reruns(REPO) == []
    row = proposal(serve, tenant_id, pr["number"])
    assert (row["ci_state"], row["ci_failures"], row["ci_rerun"]) == ("failed", 1, None)
    [comment] = bot_comments(fake_github, pr["number"])
    assert "checks failed on this change" in comment and f"memfix did not run them again: {said}" in comment


def test_a_ci_with_a_record_counts_a_failure_at_the_changed_file_at_once(serve, fake_github, tenant_id):
    fake_github.push(REPO, "main", CI)
    trusted_ci(serve, tenant_id)  # three failures confirmed by a re-run, none overturned: the CI fails for real
    assert serve.services.proposals.ci_record(tenant_id, REPO).known
    push(serve, fake_github, tenant_id, {"app/util.py": UNUSED})
    [pr] = open_memfix_pulls(fake_github)
    ci(serve, fake_github, tenant_id, pr, "failure",
       annotations=[{"path": "app/util.py", "start_line": 1, "annotation_level": "failure", "message": "boom"}])
    assert fake_github.reruns(REPO) == [] and proposal(serve, tenant_id, pr["number"])["ci_failures"] == 1


def test_a_failure_in_an_unrelated_module_is_run_again_whatever_the_record(serve, fake_github, tenant_id):
    fake_github.push(REPO, "main", {**CI, **ELSEWHERE})
    trusted_ci(serve, tenant_id)
    push(serve, fake_github, tenant_id, {"app/io.py": UNUSED_2})
    [pr] = open_memfix_pulls(fake_github)
    ci(serve, fake_github, tenant_id, pr, "failure", annotations=[NET])  # lib/net.py imports nothing of app/
    assert len(fake_github.reruns(REPO)) == 1 and fake_github.pull(REPO, pr["number"])["draft"] is True
    assert proposal(serve, tenant_id, pr["number"])["ci_state"] == "waiting"
    ci(serve, fake_github, tenant_id, pr, "success")
    assert fake_github.pull(REPO, pr["number"])["draft"] is False
    assert not serve.services.proposals.ci_record(tenant_id, REPO).known  # it lied once


def test_re_runs_stop_at_the_weekly_cap_and_a_failure_then_counts_saying_so(serve, fake_github, tenant_id):
    from core.memory.reruns import WEEKLY_RERUNS

    fake_github.push(REPO, "main", {**CI, **ELSEWHERE})
    push(serve, fake_github, tenant_id, {"app/util.py": UNUSED})
    [first] = open_memfix_pulls(fake_github)
    rerun_history(serve, tenant_id, first, recent=WEEKLY_RERUNS - 1, older=3)  # older than a week: not counted
    ci(serve, fake_github, tenant_id, first, "failure", annotations=[NET])  # the week's last re-run
    assert len(fake_github.reruns(REPO)) == 1 and bot_comments(fake_github, first["number"]) == []  # said before
    ci(serve, fake_github, tenant_id, first, "success")

    push(serve, fake_github, tenant_id, {"app/io.py": UNUSED_2})
    [second] = [p for p in open_memfix_pulls(fake_github) if p["number"] != first["number"]]
    ci(serve, fake_github, tenant_id, second, "failure", annotations=[NET])
    assert len(fake_github.reruns(REPO)) == 1
    row = proposal(serve, tenant_id, second["number"])
    assert (row["ci_state"], row["ci_failures"], row["ci_rerun"]) == ("failed", 1, None)
    [comment] = bot_comments(fake_github, second["number"])
    assert f"already ran failed checks again {WEEKLY_RERUNS} times in this repository in the last 7 days" in comment


def test_without_actions_write_a_failure_counts_as_with_never_said_once_and_the_job_succeeds(serve, fake_github,
                                                                                                tenant_id):
    fake_github.push(REPO, "main", {**CI, **ELSEWHERE})
    fake_github.withhold_actions_write(REPO)  # the installation did not grant `actions: write`
    push(serve, fake_github, tenant_id, {"app/util.py": UNUSED})
    [first] = open_memfix_pulls(fake_github)
    ci(serve, fake_github, tenant_id, first, "failure", annotations=[NET])
    assert fake_github.reruns(REPO) == []
    row = proposal(serve, tenant_id, first["number"])
    assert (row["ci_state"], row["ci_failures"], row["ci_rerun"]) == ("failed", 1, None)
    [comment] = bot_comments(fake_github, first["number"])  # no announcement: nothing was run again
    assert "checks failed on this change" in comment and "GitHub refused" in comment
    assert "`actions: write`" in comment and "`ci_rerun: never`" in comment
    ci(serve, fake_github, tenant_id, first, "success")  # a maintainer runs it again: the F401 hold lifts

    push(serve, fake_github, tenant_id, {"app/io.py": UNUSED_2})
    [second] = [p for p in open_memfix_pulls(fake_github) if p["number"] != first["number"]]
    ci(serve, fake_github, tenant_id, second, "failure", annotations=[NET])
    [comment] = bot_comments(fake_github, second["number"])
    assert "checks failed on this change" in comment and "GitHub refused" not in comment  # said once
    assert proposal(serve, tenant_id, second["number"])["ci_failures"] == 1
    refused = [r for r in fake_github.requests if r[0] == "POST" and r[1].endswith("/rerun")]
    assert [status for *_, status in refused] == [403, 403]  # asked once a failure, never again in a loop
    with serve.services.db.tenant(tenant_id) as conn:
        jobs = conn.execute("SELECT status, attempts FROM jobs WHERE kind = 'checks'").fetchall()
    assert {(j["status"], j["attempts"]) for j in jobs} == {("done", 1)}


@pytest.mark.parametrize(("on_base", "counted"), [("failure", False), ("success", True)])
def test_a_commit_status_is_judged_against_the_base_commits_status(serve, fake_github, tenant_id, on_base, counted):
    fake_github.push(REPO, "main", {"Jenkinsfile": "pipeline {}\n"})
    push(serve, fake_github, tenant_id, {"app/util.py": UNUSED})
    [pr] = open_memfix_pulls(fake_github)
    sha, base = pr["head"]["sha"], pr["base"]["sha"]
    fake_github.set_status(REPO, base, "ci/jenkins", on_base)
    fake_github.set_status(REPO, sha, "ci/jenkins", "failure", description="3 tests failed")
    serve("status", P.status_event(installation=tenant_id, repo=REPO, sha=sha, branches=[pr["head"]["ref"]],
                                   state="failure"))
    assert serve.drain()
    assert fake_github.reruns(REPO) == []  # a commit status has no re-run
    row = proposal(serve, tenant_id, pr["number"])
    [comment] = bot_comments(fake_github, pr["number"])
    if counted:  # green on main, red on the change: the change's failure
        assert (row["ci_state"], row["ci_failures"]) == ("failed", 1)
        assert "**ci/jenkins** (status): failure" in comment
        assert f"Each passed on the base commit `{base[:7]}`" in comment
        assert fake_github.pull(REPO, pr["number"])["draft"] is True
    else:  # red on main too: the base's noise, not counted against the rule
        assert (row["ci_state"], row["ci_failures"]) == ("passed", 0)
        assert f"**ci/jenkins** fails on the base commit `{base[:7]}` too" in comment
        assert fake_github.pull(REPO, pr["number"])["draft"] is False
        assert serve.services.policy.for_run(tenant_id, REPO, "autofix").held == ()


@pytest.mark.parametrize(("importer", "text", "target", "imports"), [
    ("app/api.py", "from app.util import greet\n", "app/util.py", True),
    ("app/api.py", "from app import (\n    other,\n    util,\n)\n", "app/util.py", True),
    ("app/sub/api.py", "from ..util import greet\n", "app/util.py", True),
    ("src/app/api.py", "import os, app.util as u\n", "src/app/util.py", True),
    ("app/api.py", "from app import utility\nx = 'from app.util import y'  # import app.util\n", "app/util.py", False),
    ("web/api.ts", "import { greet } from '../lib/util';\n", "lib/util.ts", True),
    ("web/api.js", "const u = require('./util/index.js')\n", "web/util/index.js", True),
    ("web/api.js", "import util from 'util'\n", "web/util.js", False),
    ("web/api.js", "import util from './util'\n", "web/util.py", False),
])
def test_a_dependent_is_read_from_its_import_lines(importer, text, target, imports):
    from core.languages.registry import imports as reads_import

    assert reads_import(importer, text, target) is imports


@pytest.mark.parametrize(("said", "reruns"), [("never", 0), ("always", 1)])
def test_a_person_corrects_what_memfix_learned_of_the_ci_in_its_configuration(serve, fake_github, tenant_id, said,
                                                                               reruns):
    fake_github.push(REPO, "main", {**CI, ".github/memfix.yml": f"ci_rerun: {said}\n"})
    if said == "always":
        trusted_ci(serve, tenant_id)  # memfix's record says a failure counts at once: the person says otherwise
    push(serve, fake_github, tenant_id, {"app/util.py": UNUSED})
    [pr] = open_memfix_pulls(fake_github)
    ci(serve, fake_github, tenant_id, pr, "failure")
    assert len(fake_github.reruns(REPO)) == reruns
    assert proposal(serve, tenant_id, pr["number"])["ci_failures"] == 1 - reruns


def test_a_ci_rerun_setting_memfix_does_not_know_is_said_and_learning_kept():
    from core.pipelines.config import parse_config

    config, problems = parse_config("ci_rerun: sometimes\n")
    assert config.ci_rerun == "learn" and problems == ["`ci_rerun` must be one of learn, always, never, not "
                                                       "'sometimes'; kept `learn`"]
