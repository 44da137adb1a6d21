"""`memfix serve` end to end: signed deliveries over HTTP → its job queue and worker → fake GitHub, on real Postgres."""

from __future__ import annotations

from handlers.devserver import create_app
from tests.fakes import payloads as P

REPO = "acme/api"


def human_comment(gh, text: str, login: str = "alice") -> int:
    return gh.add_comment(REPO, 1, text, user=login)["id"]


def bot_comments(gh) -> list[str]:
    return [c["body"] for c in gh.comments(REPO, 1) if c["user"]["login"] == "memfix[bot]"]


def test_autofix_from_a_collaborator_gets_eyes_and_a_reply(serve, fake_github, tenant_id):
    cid = human_comment(fake_github, "/autofix app.py")
    assert serve("issue_comment", P.issue_comment("/autofix app.py", installation=tenant_id, repo=REPO,
                                                  comment_id=cid, pull_request=False)) == 202
    assert serve.drain()
    assert [r["content"] for r in fake_github.reactions(REPO, cid)] == ["eyes"]
    [reply] = bot_comments(fake_github)
    assert "**AutoFix** finished" in reply and "`app.py`: PROMOTED" in reply and f"command:{REPO}:{cid}" in reply


def test_outsider_is_refused_politely(serve, fake_github, tenant_id):
    cid = human_comment(fake_github, "/autofix", login="mallory")
    serve("issue_comment", P.issue_comment("/autofix", installation=tenant_id, repo=REPO, comment_id=cid,
                                           login="mallory", association="NONE"))
    assert serve.drain()
    [reply] = bot_comments(fake_github)
    assert "Sorry @mallory" in reply and "write access" in reply


def test_memfix_own_comment_causes_nothing(serve, fake_github, tenant_id):
    payload = P.issue_comment("/autofix", installation=tenant_id, repo=REPO, login="memfix[bot]", user_type="Bot")
    assert serve("issue_comment", payload) == 202
    assert serve.drain()
    assert bot_comments(fake_github) == [] and serve.services.queue.done == 0


def test_three_redeliveries_act_once(serve, fake_github, tenant_id):
    cid = human_comment(fake_github, "/recall flaky tests")
    payload = P.issue_comment("/recall flaky tests", installation=tenant_id, repo=REPO, comment_id=cid)
    assert [serve("issue_comment", payload, delivery="same") for _ in range(3)] == [202] * 3
    assert serve.drain()
    assert len(bot_comments(fake_github)) == 1


def test_a_transient_github_failure_is_retried_then_answered(serve, fake_github, tenant_id):
    cid = human_comment(fake_github, "/recall x")
    fake_github.fail_next("POST", rf"/repos/{REPO}/issues/1/comments", 502, times=5)  # outlasts one attempt
    serve("issue_comment", P.issue_comment("/recall x", installation=tenant_id, repo=REPO, comment_id=cid))
    assert serve.drain()
    [reply] = bot_comments(fake_github)
    assert "Nothing in memory matches" in reply
    assert serve.services.queue.dead == []


def test_a_job_that_keeps_failing_is_dead_lettered_and_reported(serve, fake_github, tenant_id):
    cid = human_comment(fake_github, "/recall y")
    # 3 attempts × (1 try + 3 retries) fail; the report after the last attempt gets through.
    fake_github.fail_next("POST", rf"/repos/{REPO}/issues/1/comments", 502, times=12)
    serve("issue_comment", P.issue_comment("/recall y", installation=tenant_id, repo=REPO, comment_id=cid))
    assert serve.drain()
    [reply] = bot_comments(fake_github)
    assert "failed after 3 attempts" in reply
    assert [job.key for job, _ in serve.services.queue.dead] == [f"command:{REPO}:{cid}"]


def test_install_then_uninstall_through_the_webhook(serve, tenant_id):
    repos = [(tenant_id * 10 + 1, "acme/one"), (tenant_id * 10 + 2, "acme/two")]
    serve("installation", P.installation("created", installation=tenant_id, repos=repos))
    assert serve.drain()
    tenants = serve.services.tenants
    assert tenants.repositories(tenant_id) == ["acme/one", "acme/two"]
    serve("installation", P.installation("deleted", installation=tenant_id, repos=repos))
    assert serve.drain()
    assert tenants.repositories(tenant_id) == []


def test_healthz(serve):
    app = create_app(serve.services)
    assert app.test_client().get("/healthz").get_json()["ok"] is True
