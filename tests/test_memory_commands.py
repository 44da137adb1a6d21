"""Memory commands end to end: signed webhooks → `memfix serve` → real Postgres → replies on the fake GitHub."""

from __future__ import annotations

import re

import pytest

from tests.fakes import payloads as P

REPO = "acme/api"


@pytest.fixture
def serve_settings(github_settings, model_server):
    return github_settings.with_(embeddings="local", embedding_base_url=model_server.openai_url,
                                 embedding_model="bow")


def command(serve, gh, tenant: int, text: str, *, number: int = 1, login: str = "alice",
            pull_request: bool = True) -> str:
    """Post `text` as a comment from a collaborator and return memfix's reply to it."""
    cid = gh.add_comment(REPO, number, text, user=login)["id"]
    assert serve("issue_comment", P.issue_comment(text, installation=tenant, repo=REPO, number=number,
                                                  comment_id=cid, login=login, pull_request=pull_request)) == 202
    assert serve.drain()
    assert [r["content"] for r in gh.reactions(REPO, cid)] == ["eyes"]
    return next(c["body"] for c in gh.comments(REPO, number) if f"command:{REPO}:{cid}" in c["body"])


def ids(reply: str, layer: str = "insight") -> list[int]:
    return [int(i) for i in re.findall(rf"`{layer}:(\d+)`", reply)]


def test_remember_recall_forget(serve, fake_github, tenant_id):
    saved = command(serve, fake_github, tenant_id,
                    "/remember pain_point security high: SQL built from f-strings\n"
                    "The login query concatenates user input.\nSuggestion: use parameterised queries")
    assert "Saved 1 insight" in saved and "[pain_point] [security]" in saved
    [insight_id] = ids(saved)
    stored = serve.services.insights.get(tenant_id, insight_id)
    assert (stored.severity, stored.suggestion) == ("high", "use parameterised queries")

    found = command(serve, fake_github, tenant_id, "/recall sql injection via f-strings in login")
    assert ids(found)[0] == insight_id and "score" in found

    assert f"Forgot insight {insight_id}" in command(serve, fake_github, tenant_id, f"/forget {insight_id}")
    assert "Nothing in memory matches" in command(serve, fake_github, tenant_id, "/recall f-strings")
    missing = command(serve, fake_github, tenant_id, f"/forget {insight_id}")
    assert "❌" in missing and f"no insight {insight_id}" in missing


def test_a_hold_a_person_asks_for_is_lifted_by_forgetting_its_decision(serve, fake_github, tenant_id):
    policy = serve.services.policy
    reply = command(serve, fake_github, tenant_id, "/remember decision hold s311")
    assert "memfix will not propose S311 fixes in this repository" in reply
    [decision] = ids(reply)
    [hold] = policy.holds(tenant_id, REPO, "refactor")
    assert (hold.code, hold.by, hold.scope) == ("S311", "alice", None)  # a person's: every pipeline, everywhere
    assert f"decision `insight:{decision}`" in policy.for_run(tenant_id, REPO, "autofix").used()[0]
    assert ids(command(serve, fake_github, tenant_id, "/recall hold back S311"))[0] == decision  # its record
    assert f"Forgot insight {decision}" in command(serve, fake_github, tenant_id, f"/forget insight:{decision}")
    assert policy.holds(tenant_id, REPO) == []


def test_a_decision_in_a_glob_holds_the_rule_there_and_an_enable_in_it_lifts_it(serve, fake_github, tenant_id):
    policy = serve.services.policy
    reply = command(serve, fake_github, tenant_id, "/remember decision hold F401 in tests/**")
    assert "memfix will not propose F401 fixes in `tests/**` of this repository" in reply
    assert "`/remember decision enable F401 in tests/**`" in reply
    [decision] = ids(reply)
    plan = policy.for_run(tenant_id, REPO, "autofix")
    assert plan.held_for("tests/x.py", "test") == ("F401",) and plan.held_for("src/x.py", "library") == ()
    assert ids(command(serve, fake_github, tenant_id, "/recall hold back F401"))[0] == decision  # its record
    assert "(`tests/**` only)" in policy.insights.get(tenant_id, decision).title

    reply = command(serve, fake_github, tenant_id, "/remember decision enable F401 in src/**")
    assert "memfix will propose F401 fixes in `src/**` of this repository again" in reply
    assert "no hold within `src/**` was in force; the decision is remembered" in reply
    assert policy.for_run(tenant_id, REPO, "autofix").held_for("tests/x.py", "test") == ("F401",)
    reply = command(serve, fake_github, tenant_id, "/remember decision enable F401 in tests/**")
    assert f"lifted hold `insight:{decision}`" in reply and policy.holds(tenant_id, REPO) == []


@pytest.mark.parametrize("text, problem", [
    ("/remember decision hold F401 in ../elsewhere/**", "is not a repository path pattern"),
    ("/remember decision hold F401 in kind:views", "kind:views is not a kind of place; the kinds are kind:library"),
])
def test_a_decision_in_a_scope_that_cannot_be_says_why_and_holds_nothing(serve, fake_github, tenant_id, text,
                                                                         problem):
    reply = command(serve, fake_github, tenant_id, text)
    assert "❌" in reply and problem in reply
    assert serve.services.policy.holds(tenant_id, REPO) == []


def test_remember_with_a_bad_header_explains_what_is_wrong(serve, fake_github, tenant_id):
    reply = command(serve, fake_github, tenant_id, "/remember pain_point vibes urgent: everything is slow")
    assert "❌" in reply and "severity 'urgent'" in reply
    reply = command(serve, fake_github, tenant_id, "/remember pain_point vibes: everything is slow")
    assert "❌" in reply and "category 'vibes'" in reply
    assert serve.services.insights.for_repository(tenant_id, REPO) == []


def test_remember_without_text_saves_the_review_points(serve, fake_github, tenant_id):
    pr = fake_github.open_pull(REPO, "main", title="Login hardening")["number"]
    fake_github.add_review(REPO, pr, "- Always use parameterised queries for SQL\n- Good test coverage on login",
                           user="bob")
    fake_github.add_comment(REPO, pr, "We should pin the crypto dependency version.", user="carol")
    reply = command(serve, fake_github, tenant_id, "/remember", number=pr)
    assert "Saved 3 insight(s) from the review and discussion" in reply
    titles = {i.title: (i.insight_type, i.category) for i in serve.services.insights.for_repository(tenant_id, REPO)}
    assert titles == {
        "Always use parameterised queries for SQL": ("decision", "security"),
        "Good test coverage on login": ("strength", "testing"),
        "We should pin the crypto dependency version": ("decision", "dependencies"),
    }


def test_approved_review_is_a_review_step(serve, fake_github, tenant_id):
    pr = fake_github.open_pull(REPO, "main")["number"]
    p = P.example("pull_request_review", "submitted")
    p["installation"] = {"id": tenant_id}
    p["repository"].update(full_name=REPO, id=P.repo_id(REPO))
    p["pull_request"]["number"] = pr
    p["review"].update(state="approved", author_association="MEMBER", id=777,
                       body="Nice: retries now back off exponentially.\n\n> quoted text is ignored")
    p["review"]["user"]["login"] = "alice"
    assert serve("pull_request_review", p) == 202
    assert serve.drain()
    [reply] = [c["body"] for c in fake_github.comments(REPO, pr) if c["user"]["login"] == "memfix[bot]"]
    assert "Saved 1 insight(s) from @" in reply
    [insight] = serve.services.insights.for_repository(tenant_id, REPO)
    assert insight.title == "Nice: retries now back off exponentially"
    assert insight.source_ref.endswith("#pullrequestreview-777") and insight.workflow_type == "review"


def test_push_syncs_letters_and_reports_a_bad_one_on_the_commit(serve, fake_github, tenant_id):
    good, bad = ".memory/letter_20240115_ab12.md", ".memory/letter_2024.md"
    sha = fake_github.push(REPO, "main", {good: "---\ntags: [deploy]\n---\n# Deploys freeze on Fridays\nNo.\n",
                                          bad: "# misnamed\n"})
    payload = P.push(installation=tenant_id, repo=REPO, after=sha,
                     commits=[{"added": [good, bad], "modified": [], "removed": []}])
    assert serve("push", payload) == 202
    assert serve.drain()
    [(entry, _)] = serve.services.entries.search(tenant_id, "deploys friday")
    assert entry.title == "Deploys freeze on Fridays" and entry.tags == ("deploy",)
    assert entry.source_ref == f"github://{REPO}/{good}"
    [note] = fake_github.commit_comments(REPO)
    assert "1 created" in note["body"] and "1 skipped" in note["body"] and f"- skipped `{bad}`: " in note["body"]
    # /recall searches both layers, each hit labelled with its layer.
    assert ids(command(serve, fake_github, tenant_id, "/recall deploys friday"), "entry") == [entry.id]
    # Removing the letter deletes the entry.
    sha = fake_github.push(REPO, "main", {good: None})
    serve("push", P.push(installation=tenant_id, repo=REPO, after=sha,
                         commits=[{"added": [], "modified": [], "removed": [good]}]))
    assert serve.drain()
    assert serve.services.entries.search(tenant_id, "deploys friday") == []


def test_memory_stays_in_its_repository(serve, fake_github, tenant_id):
    from core.memory.types import Insight, MemoryEntry

    services = serve.services
    secret = services.insights.save(tenant_id, Insight(
        repository="acme/private", insight_type="decision", category="security",
        title="Payroll password rotates monthly", detail="payroll password in the vault")).insight
    entry = services.entries.add(tenant_id, MemoryEntry(title="Payroll password", content="payroll password notes",
                                                        repository="acme/private"))
    reply = command(serve, fake_github, tenant_id, "/recall payroll password")
    assert "Nothing in memory matches" in reply and "Payroll" not in reply
    for text in (f"/forget insight:{secret.id}", f"/forget entry:{entry}"):
        reply = command(serve, fake_github, tenant_id, text)
        assert "❌" in reply and "in this repository's memory" in reply
    assert services.insights.get(tenant_id, secret.id) is not None
    assert services.entries.get(tenant_id, entry) is not None

    # linked from acme/api's configuration: reported, not injected
    fake_github.push(REPO, "main", {".github/memfix.yml": f"memory: [{secret.id}]\n", "app.py": "import os\n"})
    reply = command(serve, fake_github, tenant_id, "/autofix app.py", pull_request=False)
    assert f"memory: insight {secret.id} is not in this repository's memory; not linked" in reply


def test_a_lone_surrogate_is_refused_once_with_a_reason(serve, fake_github, tenant_id):
    reply = command(serve, fake_github, tenant_id, "/remember pain_point security high: half an emoji \ud83d here")
    assert "❌" in reply and "lone surrogate" in reply and "retrying" not in reply
    with serve.services.db.tenant(tenant_id) as conn:
        [job] = conn.execute("SELECT status, attempts FROM jobs WHERE kind = 'command'").fetchall()
    assert job == {"status": "failed", "attempts": 1}
