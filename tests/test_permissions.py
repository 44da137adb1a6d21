"""Who may make memfix act: GitHub's permission endpoint decides, not `author_association`."""

from __future__ import annotations

import pytest

from core.permissions import Permissions
from core.wire import CommandJob, IssueJob, PushJob, ReviewJob
from tests.fakes import payloads as P

REPO = "acme/api"


class CountingSource:
    def __init__(self, roles: dict[str, str]):
        self.roles, self.asked = roles, []

    def user_permission(self, repo: str, username: str) -> str:
        self.asked.append((repo, username))
        return self.roles.get(username, "none")


@pytest.mark.parametrize("role, allowed", [("admin", True), ("maintain", True), ("write", True),
                                           ("triage", False), ("read", False), ("none", False)])
def test_only_write_maintain_and_admin_may_command(role, allowed):
    permissions = Permissions(lambda tenant: CountingSource({"pat": role}))
    job = CommandJob(tenant_id=1, delivery_id="d", repo=REPO, command="autofix", author="pat", issue_number=3)
    refusal = permissions.refusal(job)
    assert (refusal is None) is allowed
    if not allowed:
        assert "@pat" in refusal and "write access" in refusal and "Nothing was run" in refusal


def test_answers_are_cached_per_installation_person_and_repository_for_a_few_minutes():
    source, now = CountingSource({"pat": "write"}), [0.0]
    permissions = Permissions(lambda tenant: source, ttl=300, clock=lambda: now[0])
    for _ in range(3):
        assert permissions.can_write(1, REPO, "pat")
    assert permissions.can_write(2, REPO, "pat") and permissions.can_write(1, "acme/other", "pat")
    assert len(source.asked) == 3  # one per (installation, repository, person)
    now[0] = 301
    permissions.can_write(1, REPO, "pat")
    assert len(source.asked) == 4


def test_reviews_from_readers_are_dropped_quietly_and_pushes_need_no_permission():
    permissions = Permissions(lambda tenant: CountingSource({}))
    review = ReviewJob(tenant_id=1, delivery_id="d", repo=REPO, pr_number=2, review_id=5, author="rita", body="x")
    assert permissions.refusal(review) == ""
    issue = IssueJob(tenant_id=1, delivery_id="d", repo=REPO, issue_number=4, author="rita")
    assert "the `memfix` label" in permissions.refusal(issue)
    assert permissions.refusal(PushJob(tenant_id=1, delivery_id="d", repo=REPO)) is None


# ---- end to end: signed webhook → memfix serve → fake GitHub ----

def _bot_comments(gh, number: int = 1) -> list[str]:
    return [c["body"] for c in gh.comments(REPO, number) if c["user"]["login"] == "memfix[bot]"]


def _comment(serve, gh, tenant: int, text: str, login: str, association: str) -> int:
    cid = gh.add_comment(REPO, 1, text, user=login)["id"]
    assert serve("issue_comment", P.issue_comment(text, installation=tenant, repo=REPO, comment_id=cid,
                                                  login=login, association=association, pull_request=False)) == 202
    assert serve.drain()
    return cid


def test_an_org_member_with_read_access_starts_nothing(serve, fake_github, tenant_id):
    fake_github._repo(REPO).collaborators["mallory"] = "read"  # a MEMBER of the organisation, read on this repo
    insights = serve.services.insights
    from core.memory.types import Insight

    kept = insights.save(tenant_id, Insight(repository=REPO, insight_type="decision", category="testing",
                                            title="Use fixtures for database tests")).insight
    for text in ("/autofix app.py", f"/forget {kept.id}", "/remember pattern testing: anything goes"):
        cid = _comment(serve, fake_github, tenant_id, text, "mallory", "MEMBER")
        assert fake_github.reactions(REPO, cid) == []
    replies = _bot_comments(fake_github)
    assert len(replies) == 3 and all("Sorry @mallory" in r and "Nothing was run" in r for r in replies)
    assert fake_github.check_runs(REPO) == []  # no run started
    assert insights.get(tenant_id, kept.id) is not None  # not forgotten
    assert [i.title for i in insights.for_repository(tenant_id, REPO)] == [kept.title]  # nothing remembered
    asked = [p for m, p, _ in fake_github.requests if "/collaborators/mallory/permission" in p]
    assert len(asked) == 1  # cached for the next two commands


def test_a_maintainer_is_answered(serve, fake_github, tenant_id):
    fake_github._repo(REPO).collaborators["maya"] = "maintain"
    cid = _comment(serve, fake_github, tenant_id, "/recall flaky tests", "maya", "NONE")  # private membership
    assert [r["content"] for r in fake_github.reactions(REPO, cid)] == ["eyes"]
    [reply] = _bot_comments(fake_github)
    assert "Nothing in memory matches" in reply


def test_a_label_from_someone_without_write_runs_nothing(serve, fake_github, tenant_id):
    fake_github._repo(REPO).collaborators["tess"] = "triage"
    number = fake_github.open_issue(REPO, "Crash in app.py", "app.py fails")
    assert serve("issues", P.issue_labelled(installation=tenant_id, repo=REPO, number=number, title="Crash",
                                            body="app.py", login="tess")) == 202
    assert serve.drain()
    [reply] = _bot_comments(fake_github, number)
    assert "Sorry @tess" in reply and "`memfix` label" in reply
    assert fake_github.check_runs(REPO) == []
