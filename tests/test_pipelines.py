"""AutoFix and Refactor end to end: signed webhooks → memfix serve → fake GitHub and a fake model over HTTP,
real PostgreSQL. The model's requests are read back from the fake to prove what memory injected."""

from __future__ import annotations

import json

from core.events import route
from core.memory.types import Insight
from core.wire import LineCommentJob
from tests.fakes import payloads as P

REPO = "acme/api"
BUGGY = "import os\nimport sys\n\n\ndef greet(name):\n    return f\"hello\" + name\n"
ASSERTS = "def charge(amount):\n    assert amount > 0\n    return amount * 100\n"
# The team's ruff selects bandit: `assert` outside tests is theirs to fix (memfix proposes only what they select).
BANDIT = {"ruff.toml": '[lint]\nextend-select = ["S"]\n'}
RUFF = {"ruff.toml": "line-length = 88\n"}  # the team runs ruff at its defaults
ASSERTS_2 = "def refund(amount):\n    assert amount >= 0\n    return -amount\n"
GOOD_EDIT = {"edits": [{"search": "    assert amount > 0\n",
                        "replace": "    if amount <= 0:\n        raise ValueError(\"amount must be positive\")\n"}],
             "confidence": 0.9, "rationale": "assert disappears under -O; raise instead"}
BROKEN_EDIT = {"edits": [{"search": "    assert amount > 0\n", "replace": "    if amount <= 0\n        raise\n"}],
               "confidence": 0.7, "rationale": "oops"}


def push(serve, gh, tenant: int, files: dict[str, str], listed: list[str] | None = None) -> str:
    sha = gh.push(REPO, "main", files)
    serve("push", P.push(installation=tenant, repo=REPO, after=sha,
                         commits=[{"added": [], "modified": listed or list(files), "removed": []}]))
    assert serve.drain()
    return sha


def reviewer_closes(serve, gh, tenant: int, pr: dict, *, merged: bool = False) -> None:
    """A reviewer closes memfix's PR, unmerged unless `merged`; memfix hears of it."""
    gh.close_pull(REPO, pr["number"], merged=merged)
    serve("pull_request", P.pull_request_closed(installation=tenant, repo=REPO, number=pr["number"],
                                               branch=pr["head"]["ref"], merged=merged, sha=pr["head"]["sha"]))
    assert serve.drain()


def close_twice(serve, gh, tenant: int, paths: tuple[str, ...] = ("app/util.py", "app/cli.py")) -> list[dict]:
    """Reviewers close memfix's F401 fix in each file: two closes of two, more than chance, hold F401 there."""
    closed = []
    for path in paths:
        push(serve, gh, tenant, {path: "import os\n\n\ndef f():\n    return 1\n"})
        [pr] = [p for p in memfix_pulls(gh) if p["state"] == "open"]
        reviewer_closes(serve, gh, tenant, pr)
        closed.append(pr)
    return closed


def days_pass(serve, tenant: int, days: int) -> None:
    """Days pass: memfix's decisions and PRs move into the past."""
    with serve.services.db.tenant(tenant) as conn:
        conn.execute("UPDATE rule_decisions SET created_at = created_at - make_interval(days => %s)", (days,))
        conn.execute("UPDATE proposals SET created_at = created_at - make_interval(days => %s),"
                     " updated_at = updated_at - make_interval(days => %s)", (days, days))


def memfix_pulls(gh) -> list[dict]:
    return [p for p in gh.pulls(REPO) if p["head"]["ref"].startswith("memfix/")]


def runs(serve, tenant: int) -> list[dict]:
    with serve.services.db.tenant(tenant) as conn:
        return conn.execute("SELECT * FROM runs ORDER BY id").fetchall()


def chat_requests(model_server) -> list[dict]:
    return [body for path, body in model_server.requests if path.endswith("/chat/completions")]


# ---- offline: ruff's safe fixes ----


def test_push_with_a_fixable_bug_opens_one_verified_single_file_pr(serve, fake_github, tenant_id):
    push(serve, fake_github, tenant_id, {"app/util.py": BUGGY})

    [pr] = memfix_pulls(fake_github)
    branch = pr["head"]["ref"]
    assert branch.startswith("memfix/autofix/app-util-py-") and pr["base"]["ref"] == "main"
    fixed = fake_github.file(REPO, branch, "app/util.py")
    assert "import os" not in fixed and 'return "hello" + name' in fixed
    assert fake_github.file(REPO, branch, "README.md") == fake_github.file(REPO, "main", "README.md")
    assert "### Verification" in pr["body"] and "F401" in pr["body"]
    assert "confidence **0.85**: 1.00 checks × 0.85 (F401: medium risk)" in pr["body"]
    assert "provider `offline`" in pr["body"]
    [check] = fake_github.check_runs(REPO)
    assert (check["status"], check["conclusion"]) == ("completed", "success")
    assert [r["phase"] for r in runs(serve, tenant_id)] == ["done"]

    # The same change found again (another push listing the file) updates nothing and opens no second PR.
    push(serve, fake_github, tenant_id, {"docs.md": "hi"}, listed=["app/util.py"])
    assert len(memfix_pulls(fake_github)) == 1
    assert [r["phase"] for r in runs(serve, tenant_id)] == ["done", "done"]


def test_a_pr_closed_unmerged_is_never_proposed_again(serve, fake_github, tenant_id):
    fake_github.push(REPO, "main", RUFF)
    push(serve, fake_github, tenant_id, {"app/util.py": BUGGY})
    [pr] = memfix_pulls(fake_github)
    reviewer_closes(serve, fake_github, tenant_id, pr)

    push(serve, fake_github, tenant_id, {"other.md": "x"}, listed=["app/util.py"])
    assert [p["number"] for p in memfix_pulls(fake_github)] == [pr["number"]]  # not again; one close holds nothing
    [other] = close_twice(serve, fake_github, tenant_id, ("app/cli.py",))  # F401 closed a second time
    push(serve, fake_github, tenant_id, {"other.md": "y"}, listed=["app/util.py"])
    [second] = [p for p in memfix_pulls(fake_github) if p["number"] not in (pr["number"], other["number"])]
    assert "F401" not in second["title"] and "F541" in second["title"]  # F401 is held, F541 (closed once) is not
    assert "import os" in fake_github.file(REPO, second["head"]["ref"], "app/util.py")
    assert "F401 held back in `app/**` (learned): reviewers closed 2 of its 2 PRs" in second["body"]  # where it was
    assert "`/remember decision enable F401 in app/**` proposes it again" in second["body"]
    rejected = serve.services.insights.search(tenant_id, "rejected change F401", repository=REPO)
    assert any("Reviewers rejected memfix's change" in h.insight.title for h in rejected)


def test_fixes_closed_in_tests_hold_the_rule_in_tests_and_library_modules_still_get_it(serve, fake_github,
                                                                                        tenant_id):
    body = "\n\ndef test_it():\n    assert True\n"
    fake_github.push(REPO, "main", RUFF)
    push(serve, fake_github, tenant_id, {"tests/test_cart.py": "import os\n" + body,
                                         "tests/test_user.py": "import sys\n" + body})
    first = memfix_pulls(fake_github)
    assert len(first) == 2
    for pr in first:  # reviewers keep their test files' imports
        reviewer_closes(serve, fake_github, tenant_id, pr)
    with serve.services.db.tenant(tenant_id) as conn:
        assert {r["place"] for r in conn.execute("SELECT place FROM proposals").fetchall()} == {"test"}

    push(serve, fake_github, tenant_id, {"tests/test_orders.py": "import json\n" + body,
                                         "app/orders.py": "import re\n\n\ndef total(items):\n    return sum(items)\n"})
    [pr] = [p for p in memfix_pulls(fake_github) if p["number"] not in {f["number"] for f in first}]
    assert pr["head"]["ref"].startswith("memfix/autofix/app-orders-py-")
    assert "### Learnings used\n- F401 held back in tests (learned): reviewers closed 2 of its 2 PRs" in pr["body"]
    # judged by its record where it is: none in library modules, so it is promoted as a first fix would be
    assert "× 1.00 (F401: no record in library modules) = 0.85" in pr["body"]
    assert "- F401 fixes: 0 merged, 2 closed in this repository; no record in library modules" in pr["body"]
    mirror = [r for r in fake_github.check_runs(REPO) if r["name"] == "memfix autofix"][-1]
    assert "held back by what memfix learned here: F401 in tests" in mirror["output"]["summary"]


def test_offline_a_merge_credits_no_learning_nothing_was_given(serve, fake_github, tenant_id):
    """Offline, no model saw the insight: the PR does not claim it was injected and a merge does not credit it."""
    prior = serve.services.insights.save(tenant_id, Insight(
        repository=REPO, insight_type="solution", category="correctness", workflow_type="autofix",
        title="F401 unused imports: remove them", detail="imported but unused")).insight
    push(serve, fake_github, tenant_id, {"app/util.py": BUGGY})
    [pr] = memfix_pulls(fake_github)
    assert f"insight:{prior.id}" not in pr["body"] and "Learnings injected" not in pr["body"]
    assert "F401 fixes: no record in this repository" in pr["body"]
    fake_github.close_pull(REPO, pr["number"], merged=True)
    serve("pull_request", P.pull_request_closed(installation=tenant_id, repo=REPO, number=pr["number"],
                                               branch=pr["head"]["ref"], merged=True, sha=pr["head"]["sha"]))
    assert serve.drain()
    assert serve.services.insights.get(tenant_id, prior.id).accepted_count == 0


def test_autofix_on_a_pr_targets_the_pr_head_branch_and_replies(serve, fake_github, tenant_id):
    fake_github.push(REPO, "feature", {"app/util.py": BUGGY}, base="main")
    pr = fake_github.open_pull(REPO, "feature", title="Feature")
    cid = fake_github.add_comment(REPO, pr["number"], "/autofix", user="alice")["id"]
    serve("issue_comment", P.issue_comment("/autofix", installation=tenant_id, repo=REPO, number=pr["number"],
                                           comment_id=cid))
    assert serve.drain()
    [fix] = memfix_pulls(fake_github)
    assert fix["base"]["ref"] == "feature"
    [reply] = [c["body"] for c in fake_github.comments(REPO, pr["number"]) if c["user"]["login"] == "memfix[bot]"]
    assert "**AutoFix** finished" in reply and f"#{fix['number']} (created)" in reply
    assert "Loaded historical learnings" not in reply and "provider `offline`" in reply  # no model saw them


def test_an_issue_labelled_memfix_links_its_pr(serve, fake_github, tenant_id):
    fake_github.push(REPO, "main", {"app/util.py": BUGGY, "app/other.py": "import json\n"})
    number = fake_github.open_issue(REPO, "Unused imports in app/util.py", "see app/util.py")
    serve("issues", P.issue_labelled(installation=tenant_id, repo=REPO, number=number,
                                     title="Unused imports in app/util.py", body="see app/util.py"))
    assert serve.drain()
    [fix] = memfix_pulls(fake_github)
    assert f"Fixes #{number}" in fix["body"] and "app/util.py" in fix["title"]
    [reply] = [c["body"] for c in fake_github.comments(REPO, number) if c["user"]["login"] == "memfix[bot]"]
    assert "scope: 1 file(s)" in reply


def refactor(serve, gh, tenant_id: int, words: str, issue: int) -> str:
    """`/refactor …` on an issue; memfix's reply."""
    cid = gh.add_comment(REPO, issue, f"/refactor {words}", user="alice")["id"]
    serve("issue_comment", P.issue_comment(f"/refactor {words}", installation=tenant_id, repo=REPO, number=issue,
                                           comment_id=cid, pull_request=False))
    assert serve.drain()
    return [c["body"] for c in gh.comments(REPO, issue) if c["user"]["login"] == "memfix[bot]"][-1]


def test_refactor_proposes_the_kinds_of_change_the_teams_linter_selects(serve, fake_github, tenant_id):
    fake_github.push(REPO, "main", {"app/model.py": "class Order(object):\n    pass\n",
                                    "pyproject.toml": '[tool.ruff.lint]\nextend-select = ["UP"]\n'})
    issue = fake_github.open_issue(REPO, "refactor please")
    refactor(serve, fake_github, tenant_id, "app/model.py", issue)
    [fix] = memfix_pulls(fake_github)
    assert fix["head"]["ref"].startswith("memfix/refactor/") and "UP004" in fix["body"]
    assert "`UP004`: chosen by \\[tool.ruff\\] in pyproject.toml" in fix["body"]  # brackets shown, never a link


def test_a_rule_the_teams_ci_step_selects_is_proposed_and_its_workflow_named(serve, fake_github, tenant_id):
    workflow = "jobs:\n  lint:\n    steps:\n    - run: pip install ruff && ruff check --select UP .\n"
    fake_github.push(REPO, "main", {"app/model.py": "class Order(object):\n    pass\n",
                                    ".github/workflows/lint.yml": workflow})
    issue = fake_github.open_issue(REPO, "refactor please")
    refactor(serve, fake_github, tenant_id, "app/model.py", issue)
    [fix] = memfix_pulls(fake_github)
    assert "`UP004`: chosen by the `ruff` step in .github/workflows/lint.yml" in fix["body"]
    asked = [path for method, path, _ in fake_github.requests if method == "GET" and "/.github/workflows/" in path]
    assert asked == [f"/repos/{REPO}/contents/.github/workflows/lint.yml"]  # the CI files listed, not guessed at


def test_refactor_where_the_team_chose_none_says_what_it_could_do_and_suggests_one_kind_a_week(
        serve, fake_github, tenant_id):
    fake_github.push(REPO, "main", {"app/model.py": "class Order(object):\n    pass\n",
                                    "app/view.py": "class View(object):\n    pass\n"})
    issue = fake_github.open_issue(REPO, "refactor please")
    reply = refactor(serve, fake_github, tenant_id, "", issue)
    assert "It could do:" in reply and "UP: 2 finding(s) in 2 file(s)" in reply and "`/refactor UP`" in reply
    [suggestion] = memfix_pulls(fake_github)  # one file, one kind, said to be memfix's own
    assert "### memfix's own suggestion" in suggestion["body"] and "`UP004`: chosen by memfix's own suggestion" in \
        suggestion["body"]
    refactor(serve, fake_github, tenant_id, "", issue)
    assert len(memfix_pulls(fake_github)) == 1  # the week's suggestion is made: nothing more of memfix's own

    reviewer_closes(serve, fake_github, tenant_id, suggestion, merged=True)
    refactor(serve, fake_github, tenant_id, "", issue)  # merged: UP004 is this repository's now
    newer = [p for p in memfix_pulls(fake_github) if p["number"] != suggestion["number"]]
    assert newer and all("`UP004`: chosen by a decision in this repository" in p["body"] for p in newer)


def test_autofix_where_no_linter_is_configured_proposes_only_one_suggestion_of_its_own_a_week(
        serve, fake_github, tenant_id):
    """ruff's defaults are memfix's preference where the team configures no linter: surveyed and said, and at most
    one kind suggested in one file, as a PR that says so; merged, that kind is the repository's."""
    push(serve, fake_github, tenant_id, {"app/a.py": "import os\n", "app/b.py": "import sys\n"})
    [suggestion] = memfix_pulls(fake_github)
    assert "### memfix's own suggestion" in suggestion["body"] and "chosen by memfix's own suggestion" in \
        suggestion["body"] and suggestion["title"] == "memfix: fix F401 in app/a.py"
    said = [r for r in fake_github.check_runs(REPO) if r["name"] == "memfix autofix"][-1]["output"]["summary"]
    assert "none of its kinds is chosen (nobody: ruff's defaults (no linter is configured" in said
    assert "It could do:" in said and "F: 2 finding(s) in 2 file(s)" in said
    push(serve, fake_github, tenant_id, {"app/c.py": "import json\n"})
    assert len(memfix_pulls(fake_github)) == 1  # the week's suggestion is made: nothing more of memfix's own

    reviewer_closes(serve, fake_github, tenant_id, suggestion, merged=True)
    push(serve, fake_github, tenant_id, {"app/d.py": "import re\n"})  # merged: F401 is this repository's now
    newer = [p for p in memfix_pulls(fake_github) if p["number"] != suggestion["number"]]
    assert [p["title"] for p in newer] == ["memfix: fix F401 in app/d.py"]
    assert "chosen by a decision in this repository" in newer[0]["body"]


def test_a_person_names_the_rules_refactor_proposes(serve, fake_github, tenant_id):
    fake_github.push(REPO, "main", {"app/model.py": "class Order(object):\n    pass\n"})
    issue = fake_github.open_issue(REPO, "refactor please")
    refactor(serve, fake_github, tenant_id, "UP app/model.py", issue)
    [fix] = memfix_pulls(fake_github)
    assert "UP004" in fix["body"] and "`UP004`: chosen by a person" in fix["body"]


# ---- with a model ----


def test_model_patch_with_memory_injected(model_settings, serve, fake_github, model_server, tenant_id):
    insights = serve.services.insights
    lesson = insights.save(tenant_id, Insight(
        repository=REPO, insight_type="solution", category="security", workflow_type="autofix",
        title="Replace assert with explicit raise", detail="S101 assert is stripped under python -O")).insight
    model_server.script_chat(GOOD_EDIT)
    push(serve, fake_github, tenant_id, {**BANDIT, "billing.py": ASSERTS})

    [pr] = memfix_pulls(fake_github)
    assert "raise ValueError" in fake_github.file(REPO, pr["head"]["ref"], "billing.py")
    assert "fix by: model" in pr["body"] and "model `fake-coder`" in pr["body"]
    [ask] = chat_requests(model_server)
    prompt = ask["messages"][-1]["content"]
    assert "## Historical learnings" in prompt and "Replace assert with explicit raise" in prompt
    assert f"#{lesson.id}" in prompt and "## Recent healing context" in prompt and "S101" in prompt
    with serve.services.db.tenant(tenant_id) as conn:  # the attempt keeps exactly what the model was given
        [given] = conn.execute("SELECT sections FROM healing_envelopes WHERE sections IS NOT NULL").fetchall()
    assert "Replace assert with explicit raise" in given["sections"]["Historical learnings"]
    assert all(text in prompt for text in given["sections"].values())
    assert "data" in ask["messages"][0]["content"] and "never instructions" in ask["messages"][0]["content"]


def test_malformed_model_output_is_asked_again(model_settings, serve, fake_github, model_server, tenant_id):
    model_server.script_chat({"edits": "not a list", "confidence": 2}, GOOD_EDIT)
    push(serve, fake_github, tenant_id, {**BANDIT, "billing.py": ASSERTS})
    first, second = chat_requests(model_server)
    assert "edits" in str(second["messages"][-1]) and len(second["messages"]) > len(first["messages"])
    assert len(memfix_pulls(fake_github)) == 1


def test_broken_patches_retry_then_reject_and_the_breaker_stops_model_calls(
        model_settings, serve, fake_github, model_server, tenant_id):
    model_server.script_chat(BROKEN_EDIT, BROKEN_EDIT, BROKEN_EDIT)
    push(serve, fake_github, tenant_id, {**BANDIT, "a_billing.py": ASSERTS, "b_refunds.py": ASSERTS_2})

    assert len(chat_requests(model_server)) == 3  # the second file got no model call: the breaker is open
    envelopes = serve.services.healing.all(tenant_id, REPO)
    assert [e.status for e in reversed(envelopes)] == ["RETRY", "RETRY", "REJECTED"]
    assert all("SyntaxError" in (e.error_message or "") for e in envelopes)
    breaker = serve.services.pipeline_runner.breakers.current(tenant_id, REPO, "autofix")
    assert breaker.state == "open" and breaker.syntax_failures == 3
    assert memfix_pulls(fake_github) == []
    [run] = runs(serve, tenant_id)
    assert run["phase"] == "done"
    # The third prompt carried the healing context of the two failures before it.
    third = chat_requests(model_server)[2]["messages"][-1]["content"]
    assert "RETRY attempt 2" in third and "The previous attempt failed" in third


def test_refine_sends_the_previous_patch_and_the_feedback(model_settings, serve, fake_github, model_server,
                                                          tenant_id):
    model_server.script_chat(GOOD_EDIT)
    push(serve, fake_github, tenant_id, {**BANDIT, "billing.py": ASSERTS})
    [pr] = memfix_pulls(fake_github)
    refined = {"edits": [{"search": 'raise ValueError("amount must be positive")',
                          "replace": 'raise ValueError(f"amount must be positive, got {amount}")'}],
               "confidence": 0.9, "rationale": "include the value"}
    model_server.script_chat(refined)
    cid = fake_github.add_comment(REPO, pr["number"], "/refine include the amount in the message", user="alice")["id"]
    serve("issue_comment", P.issue_comment("/refine include the amount in the message", installation=tenant_id,
                                           repo=REPO, number=pr["number"], comment_id=cid))
    assert serve.drain()
    prompt = chat_requests(model_server)[-1]["messages"][-1]["content"]
    assert "include the amount in the message" in prompt
    assert '+        raise ValueError("amount must be positive")' in prompt  # the previous patch, as a diff
    assert "got {amount}" in fake_github.file(REPO, pr["head"]["ref"], "billing.py")
    [reply] = [c["body"] for c in fake_github.comments(REPO, pr["number"]) if c["user"]["login"] == "memfix[bot]"]
    assert "Revised `billing.py`" in reply and len(memfix_pulls(fake_github)) == 1


def test_a_model_outage_fails_the_run_visibly_never_stuck(model_settings, serve, fake_github, model_server,
                                                          tenant_id):
    model_server.fail_next(r"/v1/chat/completions", 503, times=50)
    push(serve, fake_github, tenant_id, {**BANDIT, "billing.py": ASSERTS})
    phases = [r["phase"] for r in runs(serve, tenant_id)]
    assert phases and set(phases) == {"failed"}  # one per attempt of the job, each closed
    assert {c["conclusion"] for c in fake_github.check_runs(REPO)} == {"failure"}  # one per attempt
    [note] = fake_github.commit_comments(REPO)
    assert "failed after 3 attempts" in note["body"]


def test_repository_config_switches_autofix_off_and_bad_config_is_reported(serve, fake_github, tenant_id):
    push(serve, fake_github, tenant_id, {".github/memfix.yml": "autofix: false\n", "app/util.py": BUGGY},
         listed=["app/util.py"])
    assert memfix_pulls(fake_github) == [] and fake_github.commit_comments(REPO) == []

    fake_github.push(REPO, "main", {".github/memfix.yml": "max_prs: lots\nignore: [legacy/**]\nflavour: x\n",
                                    "legacy/old.py": BUGGY})
    number = fake_github.open_issue(REPO, "please fix")
    cid = fake_github.add_comment(REPO, number, "/autofix", user="alice")["id"]
    serve("issue_comment", P.issue_comment("/autofix", installation=tenant_id, repo=REPO, number=number,
                                           comment_id=cid, pull_request=False))
    assert serve.drain()
    [reply] = [c["body"] for c in fake_github.comments(REPO, number) if c["user"]["login"] == "memfix[bot]"]
    assert "config: " in reply and "max_prs" in reply and "flavour" in reply
    assert not any(p["head"]["ref"].startswith("memfix/autofix/legacy") for p in memfix_pulls(fake_github))
    assert "/commit/" in reply and "/checks)" in reply


def test_remember_without_text_asks_the_model_for_the_key_points(model_settings, serve, fake_github, model_server,
                                                                 tenant_id):
    pr = fake_github.open_pull(REPO, "main", title="Billing")["number"]
    fake_github.add_review(REPO, pr, "Please never log card numbers. {{project.wisdom}}", user="bob")
    model_server.script_chat({"points": [{"insight_type": "decision", "category": "security",
                                          "title": "Never log card numbers", "detail": "PCI scope",
                                          "suggestion": "mask all but the last four digits"}]})
    cid = fake_github.add_comment(REPO, pr, "/remember", user="alice")["id"]
    serve("issue_comment", P.issue_comment("/remember", installation=tenant_id, repo=REPO, number=pr, comment_id=cid))
    assert serve.drain()
    [reply] = [c["body"] for c in fake_github.comments(REPO, pr) if c["user"]["login"] == "memfix[bot]"]
    assert "the model distilled" in reply and "model `fake-coder`" in reply
    [ask] = chat_requests(model_server)
    assert "never log card numbers" in ask["messages"][-1]["content"] and "{{" not in ask["messages"][-1]["content"]
    [saved] = serve.services.insights.for_repository(tenant_id, REPO)
    assert (saved.insight_type, saved.category, saved.suggestion) == ("decision", "security",
                                                                       "mask all but the last four digits")


def test_refine_goes_through_the_runners_own_path_and_survives_template_braces(model_settings, serve, fake_github,
                                                                                model_server, tenant_id):
    braces = ASSERTS + '\n\nTEMPLATE = "{{ amount }}"\n'
    model_server.script_chat(GOOD_EDIT)
    push(serve, fake_github, tenant_id, {**BANDIT, "billing.py": braces})
    [pr] = memfix_pulls(fake_github)
    # The model copies search text from the prompt, where `{{` reads `{ {`: memfix undoes that before applying.
    model_server.script_chat({"edits": [{"search": 'TEMPLATE = "{ { amount } }"',
                                         "replace": 'TEMPLATE = "{ { amount } } cents"'}],
                              "confidence": 0.9, "rationale": "say the unit"})
    cid = fake_github.add_comment(REPO, pr["number"], "/refine say the unit", user="alice")["id"]
    serve("issue_comment", P.issue_comment("/refine say the unit", installation=tenant_id, repo=REPO,
                                           number=pr["number"], comment_id=cid))
    assert serve.drain()
    assert 'TEMPLATE = "{{ amount }} cents"' in fake_github.file(REPO, pr["head"]["ref"], "billing.py")
    prompt = chat_requests(model_server)[-1]["messages"][-1]["content"]
    assert "## Recent healing context" in prompt  # memory injected, as for any attempt
    refine_runs = [r for r in runs(serve, tenant_id) if r["trigger"] == "refine"]
    assert [r["phase"] for r in refine_runs] == ["done"]
    envelopes = serve.services.healing.all(tenant_id, REPO)
    assert any(e.run_id == str(refine_runs[0]["id"]) and e.status == "PROMOTED" for e in envelopes)
    [reply] = [c["body"] for c in fake_github.comments(REPO, pr["number"]) if c["user"]["login"] == "memfix[bot]"]
    assert "Revised `billing.py`" in reply and "checks ×" in reply


def test_a_held_rule_is_tried_again_in_one_exploratory_pr_two_weeks_later(serve, fake_github, tenant_id):
    fake_github.push(REPO, "main", RUFF)
    closed = {pr["number"] for pr in close_twice(serve, fake_github, tenant_id)}
    days_pass(serve, tenant_id, 8)  # a week on: two closes still hold it (a week for the first, doubled)
    push(serve, fake_github, tenant_id, {"app/z.py": "import io\n"})
    assert {p["number"] for p in memfix_pulls(fake_github)} == closed
    days_pass(serve, tenant_id, 7)
    push(serve, fake_github, tenant_id, {"app/a.py": "import os\n", "app/b.py": "import sys\n"})
    tried = [p for p in memfix_pulls(fake_github) if p["number"] not in closed]
    assert len(tried) == 1 and "F401" in tried[0]["title"]  # one file only: one exploratory PR
    assert "### Tried again on purpose" in tried[0]["body"] and "at most one such PR" in tried[0]["body"]
    with serve.services.db.tenant(tenant_id) as conn:
        assert conn.execute("SELECT exploratory FROM proposals WHERE pr_number = %s",
                            (tried[0]["number"],)).fetchone()["exploratory"] is True
    push(serve, fake_github, tenant_id, {"app/c.py": "import re\n"})  # the week's budget is spent
    assert len(memfix_pulls(fake_github)) == 3


def test_a_scoped_hold_is_explored_in_a_file_it_held_and_a_merge_lifts_it_there_only(serve, fake_github, tenant_id):
    fake_github.push(REPO, "main", RUFF)
    closed = {p["number"] for p in close_twice(serve, fake_github, tenant_id, ("tests/test_a.py", "tests/test_c.py"))}
    days_pass(serve, tenant_id, 15)  # F401 held in tests, two weeks and a day ago
    push(serve, fake_github, tenant_id, {"app/lib.py": "import os\n", "tests/test_b.py": "import sys\n"})
    new = {p["title"]: p for p in memfix_pulls(fake_github) if p["number"] not in closed}
    assert sorted(new) == ["memfix: fix F401 in app/lib.py", "memfix: fix F401 in tests/test_b.py"]
    tried = new["memfix: fix F401 in tests/test_b.py"]  # the try is in a file the hold held, not in library code
    assert "### Tried again on purpose" in tried["body"]
    assert "### Tried again on purpose" not in new["memfix: fix F401 in app/lib.py"]["body"]
    fake_github.close_pull(REPO, tried["number"], merged=True)
    serve("pull_request", P.pull_request_closed(installation=tenant_id, repo=REPO, number=tried["number"],
                                               branch=tried["head"]["ref"], merged=True, sha=tried["head"]["sha"]))
    assert serve.drain()
    with serve.services.db.tenant(tenant_id) as conn:
        enabled = conn.execute("SELECT rule, scope FROM rule_decisions WHERE stance = 'enable'").fetchall()
    assert [(e["rule"], e["scope"]) for e in enabled] == [("F401", "kind:test")]


def test_a_rule_reviewers_merged_then_close_three_times_in_a_row_is_held_back(serve, fake_github, tenant_id):
    fake_github.push(REPO, "main", RUFF)
    push(serve, fake_github, tenant_id, {f"app/a{i}.py": f"import os\n\nA = {i}\n" for i in range(3)})
    took = memfix_pulls(fake_github)
    for pr in took:
        fake_github.close_pull(REPO, pr["number"], merged=True)
        serve("pull_request", P.pull_request_closed(installation=tenant_id, repo=REPO, number=pr["number"],
                                                   branch=pr["head"]["ref"], merged=True, sha=pr["head"]["sha"]))
        assert serve.drain()
    push(serve, fake_github, tenant_id, {f"app/b{i}.py": f"import os\n\nB = {i}\n" for i in range(3)})
    turned = [p for p in memfix_pulls(fake_github) if p not in took and p["state"] == "open"]
    assert len(took) == len(turned) == 3
    for n, pr in enumerate(turned, 1):  # a new maintainer: no more F401 removals
        reviewer_closes(serve, fake_github, tenant_id, pr)
        assert bool(serve.services.policy.for_run(tenant_id, REPO, "autofix").holds) == (n == 3)  # not by chance
    [hold] = serve.services.policy.for_run(tenant_id, REPO, "autofix").holds
    assert hold.code == "F401" and "turned down its last 3 PRs after merging 3" in hold.reason
    push(serve, fake_github, tenant_id, {"app/c.py": "import os\n"})
    assert len(memfix_pulls(fake_github)) == 6  # held back: no new PR


def test_the_files_a_hold_held_back_come_back_into_the_next_run_when_it_lifts(serve, fake_github, tenant_id):
    fake_github.push(REPO, "main", RUFF)
    closed = close_twice(serve, fake_github, tenant_id)  # F401 held back
    pr = closed[-1]
    push(serve, fake_github, tenant_id, {"app/a.py": "import os\n", "app/b.py": "import sys\n"})
    assert [p["number"] for p in memfix_pulls(fake_github)] == [p["number"] for p in closed]  # held: remembered
    policy = serve.services.policy
    assert policy.lifted(tenant_id, REPO, "autofix") == []

    cid = fake_github.add_comment(REPO, pr["number"], "/remember decision enable F401 in app/a.py", user="alice")["id"]
    serve("issue_comment", P.issue_comment("/remember decision enable F401 in app/a.py", installation=tenant_id,
                                           repo=REPO, number=pr["number"], comment_id=cid))
    assert serve.drain()
    [back] = policy.lifted(tenant_id, REPO, "autofix")  # lifted in app/a.py only: app/b.py stays held
    assert (back.rule, back.path, back.place) == ("F401", "app/a.py", "library")

    push(serve, fake_github, tenant_id, {"docs/conf.py": "project = 'api'\n"})  # a push that changes no such file
    [came] = [p for p in memfix_pulls(fake_github) if p not in closed and p["state"] == "open"]
    assert "app/a.py" in came["title"] and "F401" in came["title"]
    with serve.services.db.tenant(tenant_id) as conn:
        said = conn.execute("SELECT result FROM jobs WHERE job_key = %s",
                            (runs(serve, tenant_id)[-1]["job_key"],)).fetchone()["result"]
    assert "1 PR(s)" in said and "; 1 file(s) where F401 had been held back are in this run again" in said
    assert policy.lifted(tenant_id, REPO, "autofix") == []  # brought back once
    push(serve, fake_github, tenant_id, {"docs/conf.py": "project = 'api2'\n"})
    assert len(memfix_pulls(fake_github)) == 3


def test_held_back_files_over_the_runs_pr_cap_wait_for_the_next_run(serve, fake_github, tenant_id):
    fake_github.push(REPO, "main", RUFF)
    pr = close_twice(serve, fake_github, tenant_id)[-1]
    push(serve, fake_github, tenant_id, {f"app/m{i}.py": f"import os\n\nX = {i}\n" for i in range(5)})
    cid = fake_github.add_comment(REPO, pr["number"], "/remember decision enable F401", user="alice")["id"]
    serve("issue_comment", P.issue_comment("/remember decision enable F401", installation=tenant_id, repo=REPO,
                                           number=pr["number"], comment_id=cid))
    assert serve.drain()
    push(serve, fake_github, tenant_id, {"docs/conf.py": "import sys\n\nproject = 'api'\n"})
    titles = [p["title"] for p in memfix_pulls(fake_github)]
    assert len(titles) == 2 + 3  # at most 3 PRs a run, the push's own file first: only the lifted ones can wait
    assert any("docs/conf.py" in t for t in titles)
    assert len(serve.services.policy.lifted(tenant_id, REPO, "autofix")) == 3  # the rest still remembered
    push(serve, fake_github, tenant_id, {"docs/conf.py": "project = 'api2'\n"})
    assert len(memfix_pulls(fake_github)) == 2 + 6
    assert serve.services.policy.lifted(tenant_id, REPO, "autofix") == []


def test_a_reason_given_when_closing_is_offered_back_as_a_decision_and_becomes_one_when_sent(
        serve, fake_github, tenant_id):
    push(serve, fake_github, tenant_id, {"app/util.py": BUGGY})
    [pr] = memfix_pulls(fake_github)
    fake_github.add_comment(REPO, pr["number"], "We keep these imports in app/util.py: F401 is noise here.",
                            user="alice")
    fake_github.add_comment(REPO, pr["number"], "F541 too", user="mallory")  # no write access: not offered
    reviewer_closes(serve, fake_github, tenant_id, pr)
    [offer] = [c["body"] for c in fake_github.comments(REPO, pr["number"]) if c["user"]["login"] == "memfix[bot]"]
    assert "`/remember decision hold F401 in app/util.py`" in offer and "F541" not in offer
    closed = route("pull_request", P.pull_request_closed(installation=tenant_id, repo=REPO, number=pr["number"],
                                                         branch=pr["head"]["ref"], merged=False,
                                                         sha=pr["head"]["sha"]), "retry", "memfix[bot]").job
    serve.services.decision_offers.after_closing(closed)  # a retry of the job after its reply went out
    assert len([c for c in fake_github.comments(REPO, pr["number"]) if c["user"]["login"] == "memfix[bot]"]) == 1

    cid = fake_github.add_comment(REPO, pr["number"], "/remember decision hold F401 in app/util.py",
                                  user="alice")["id"]
    serve("issue_comment", P.issue_comment("/remember decision hold F401 in app/util.py", installation=tenant_id,
                                           repo=REPO, number=pr["number"], comment_id=cid))
    assert serve.drain()
    plan = serve.services.policy.for_run(tenant_id, REPO, "autofix")
    assert any(h.code == "F401" and h.scope == "app/util.py" and h.by == "alice" for h in plan.holds)


# ---- words on a line of memfix's PR ----

ONE_RULE = "import os\n\n\ndef answer():\n    return 42\n"  # F401 alone: the fix removes line 1


def comment_on_line(serve, gh, tenant: int, pr: dict, body: str, *, user: str = "alice", side: str = "LEFT") -> dict:
    """A person comments on line 1 of memfix's PR (LEFT: the import the fix removed); memfix hears of it."""
    said = gh.add_review_comment(REPO, pr["number"], body, path="app/util.py", line=1, side=side, user=user)
    return deliver_line_comment(serve, tenant, pr, said)


def deliver_line_comment(serve, tenant: int, pr: dict, said: dict, delivery: str | None = None) -> dict:
    payload = P.line_comment(said, installation=tenant, repo=REPO, number=pr["number"], branch=pr["head"]["ref"],
                             sha=pr["head"]["sha"])
    assert serve("pull_request_review_comment", payload, delivery=delivery) == 202
    assert serve.drain()
    return said


def thread_replies(gh, pr: dict, said: dict) -> list[str]:
    return [c["body"] for c in gh.review_comments(REPO, pr["number"])
            if c["in_reply_to_id"] == said["id"] and c["user"]["login"] == "memfix[bot]"]


def test_an_objection_on_a_line_the_fix_changed_is_offered_back_in_its_thread_and_decides_once_sent(
        serve, fake_github, tenant_id):
    push(serve, fake_github, tenant_id, {"app/util.py": ONE_RULE})
    [pr] = memfix_pulls(fake_github)
    said = fake_github.add_review_comment(REPO, pr["number"], "Keep this: the plugin loader imports it by name.",
                                         path="app/util.py", line=1, side="LEFT", user="alice")
    deliver_line_comment(serve, tenant_id, pr, said, delivery="line-1")

    [offer] = thread_replies(fake_github, pr, said)
    assert "Hold F401 in `app/util.py`? Send `/remember decision hold F401 in app/util.py`." in offer
    assert not [c for c in fake_github.comments(REPO, pr["number"]) if c["user"]["login"] == "memfix[bot]"]
    # Redelivered, by GitHub (the same delivery) or replayed (a new one): still one reply.
    deliver_line_comment(serve, tenant_id, pr, said, delivery="line-1")
    deliver_line_comment(serve, tenant_id, pr, said, delivery="line-1-again")
    assert len(thread_replies(fake_github, pr, said)) == 1
    # A retry after the reply went out but before the job was marked done finds its reply by the mark.
    job = LineCommentJob(tenant_id, "retry", REPO, pr_number=pr["number"], comment_id=said["id"],
                         thread_id=said["id"], author="alice", body=said["body"], path="app/util.py",
                         hunk=said["diff_hunk"], head_ref=pr["head"]["ref"])
    assert "offered already" in serve.services.decision_offers.on_line_comment(job).summary
    assert len(thread_replies(fake_github, pr, said)) == 1
    assert not serve.services.policy.for_run(tenant_id, REPO, "autofix").holds  # an offer decides nothing

    command = "/remember decision hold F401 in app/util.py"
    cid = fake_github.add_comment(REPO, pr["number"], command, user="alice")["id"]
    serve("issue_comment", P.issue_comment(command, installation=tenant_id, repo=REPO, number=pr["number"],
                                           comment_id=cid))
    assert serve.drain()
    plan = serve.services.policy.for_run(tenant_id, REPO, "autofix")
    assert any(h.code == "F401" and h.scope == "app/util.py" and h.by == "alice" for h in plan.holds)


def test_an_outsiders_copy_of_memfixs_mark_never_stops_an_offer(serve, fake_github, tenant_id):
    push(serve, fake_github, tenant_id, {"app/util.py": ONE_RULE})
    [pr] = memfix_pulls(fake_github)
    said = fake_github.add_review_comment(REPO, pr["number"], "Keep this: the plugin loader imports it by name.",
                                         path="app/util.py", line=1, side="LEFT", user="alice")
    payload = P.line_comment(said, installation=tenant_id, repo=REPO, number=pr["number"], branch=pr["head"]["ref"],
                             sha=pr["head"]["sha"])
    key = route("pull_request_review_comment", payload, "line-x", "memfix[bot]").job.key
    # The mark is built from public ids: an outsider posts it first, in the thread and in the conversation.
    fake_github.add_review_comment(REPO, pr["number"], f"<!-- memfix:offer={key} -->", path="app/util.py", line=1,
                                   side="LEFT", user="mallory")
    deliver_line_comment(serve, tenant_id, pr, said, delivery="line-x")
    [offer] = thread_replies(fake_github, pr, said)
    assert "Send `/remember decision hold F401 in app/util.py`" in offer

    fake_github.add_comment(REPO, pr["number"], "We keep these imports in app/util.py.", user="alice")
    closing = P.pull_request_closed(installation=tenant_id, repo=REPO, number=pr["number"], branch=pr["head"]["ref"],
                                    merged=False, sha=pr["head"]["sha"])
    closed = route("pull_request", closing, "c", "memfix[bot]").job
    fake_github.add_comment(REPO, pr["number"], f"<!-- memfix:offer={closed.key} -->", user="mallory")
    reviewer_closes(serve, fake_github, tenant_id, pr)
    [offer] = [c["body"] for c in fake_github.comments(REPO, pr["number"]) if c["user"]["login"] == "memfix[bot]"]
    assert "`/remember decision hold F401 in app/util.py`" in offer


def test_a_line_comment_gets_no_offer_from_a_reader_for_praise_or_a_question(serve, fake_github, tenant_id):
    push(serve, fake_github, tenant_id, {"app/util.py": ONE_RULE})
    [pr] = memfix_pulls(fake_github)
    quiet = [comment_on_line(serve, fake_github, tenant_id, pr, "Keep this, it is used.", user="mallory"),
             comment_on_line(serve, fake_github, tenant_id, pr, "nice, thanks"),
             comment_on_line(serve, fake_github, tenant_id, pr, "Is this used anywhere?"),
             comment_on_line(serve, fake_github, tenant_id, pr, "Keep this.", side="RIGHT")]  # a line left alone
    assert [thread_replies(fake_github, pr, said) for said in quiet] == [[], [], [], []]
    assert not [c for c in fake_github.comments(REPO, pr["number"]) if c["user"]["login"] == "memfix[bot]"]

    # A command sent in the thread is not run there: memfix says where commands are read.
    said = comment_on_line(serve, fake_github, tenant_id, pr, "/remember decision hold F401 in app/util.py")
    [pointer] = thread_replies(fake_github, pr, said)
    assert "send `/remember` there" in pointer and not serve.services.policy.for_run(tenant_id, REPO, "autofix").holds


def test_with_a_model_the_words_on_a_line_and_at_closing_become_its_decisions(model_settings, serve, fake_github,
                                                                             model_server, tenant_id):
    push(serve, fake_github, tenant_id, {"app/util.py": ONE_RULE})
    [pr] = memfix_pulls(fake_github)
    asked = len(chat_requests(model_server))
    model_server.script_chat({"reading": "imports in app/ are loaded by name, so F401 fixes break them",
                              "decisions": [{"stance": "hold", "codes": ["F401"], "scope": "app/**",
                                             "why": "plugins are imported by name"}]})
    said = comment_on_line(serve, fake_github, tenant_id, pr, "Our plugins import these by name; ignore the linter.")

    [offer] = thread_replies(fake_github, pr, said)
    assert "memfix read your comment as: imports in app/ are loaded by name, so F401 fixes break them" in offer
    assert "Send `/remember decision hold F401 in app/**`. (plugins are imported by name)" in offer
    [ask] = chat_requests(model_server)[asked:]
    assert "Our plugins import these by name" in ask["messages"][-1]["content"]

    model_server.script_chat({"reading": "F401 is unwanted in this repository",
                              "decisions": [{"stance": "hold", "codes": ["F401"], "scope": None, "why": "team taste"}]})
    fake_github.add_comment(REPO, pr["number"], "We never take these import removals.", user="alice")
    reviewer_closes(serve, fake_github, tenant_id, pr)
    [closing] = [c["body"] for c in fake_github.comments(REPO, pr["number"]) if c["user"]["login"] == "memfix[bot]"]
    assert "memfix read your words as: F401 is unwanted in this repository" in closing
    assert "Reply `/remember decision hold F401`. (team taste)" in closing


def test_a_push_gets_fixes_for_what_it_brought_only_unsafe_ones_included_and_older_findings_stay(
        serve, fake_github, tenant_id):
    """The team's own tool run on the change: the unused import and the unused variable the push added are fixed
    (ruff calls the variable's fix unsafe: the draft waits for CI), the unused import the file already had stays."""
    old = "import os\n\n\ndef total(prices):\n    return sum(prices)\n"
    base = fake_github.push(REPO, "main", {**RUFF, "app/cart.py": old, ".github/workflows/ci.yml": "jobs: {}\n"})
    new = "import os\nimport sys\n\n\ndef total(prices):\n    count = len(prices)\n    return sum(prices)\n"
    after = fake_github.push(REPO, "main", {"app/cart.py": new})
    serve("push", P.push(installation=tenant_id, repo=REPO, before=base, after=after,
                         commits=[{"added": [], "modified": ["app/cart.py"], "removed": []}]))
    assert serve.drain()
    [pr] = memfix_pulls(fake_github)
    fixed = fake_github.file(REPO, pr["head"]["ref"], "app/cart.py")
    assert "import os\n" in fixed and "import sys" not in fixed and "count = " not in fixed
    assert "`F841`" in pr["body"] and "unsafe: the repository's CI decides" in pr["body"] and pr["draft"]
    [run] = runs(serve, tenant_id)
    assert run["phase"] == "done"


def test_a_javascript_push_gets_biomes_fix_for_what_it_brought_only(serve, fake_github, tenant_id):
    """Biome reports no edits: its fix of the rule is kept only at the line the push brought, and the same rule's
    older finding in the file stays as the team left it."""
    config = json.dumps({"linter": {"enabled": True, "rules": {"recommended": False, "style": {"useConst": "error"}}}})
    old = "let rate = 2;\nmodule.exports = function (x) { return x * rate; };\n"
    base = fake_github.push(REPO, "main", {"biome.json": config, "lib/price.js": old})
    new = "let rate = 2;\nlet fee = 1;\nmodule.exports = function (x) { return x * rate + fee; };\n"
    after = fake_github.push(REPO, "main", {"lib/price.js": new})
    serve("push", P.push(installation=tenant_id, repo=REPO, before=base, after=after,
                         commits=[{"added": [], "modified": ["lib/price.js"], "removed": []}]))
    assert serve.drain()
    [pr] = memfix_pulls(fake_github)
    fixed = fake_github.file(REPO, pr["head"]["ref"], "lib/price.js")
    assert fixed == new.replace("let fee", "const fee")
    assert "Biome's safe fix" in pr["body"] and "oldest runtime" in pr["body"]


def test_a_javascript_push_gets_biomes_unsafe_fix_as_a_draft_ci_decides(serve, fake_github, tenant_id):
    config = json.dumps({"linter": {"enabled": True, "rules": {"recommended": False,
                                                               "suspicious": {"noDoubleEquals": "error"}}}})
    old = "exports.same = function (a, b) { return a == b; };\n"
    base = fake_github.push(REPO, "main", {"biome.json": config, "lib/eq.js": old})
    new = old + "exports.other = function (a, b) { return a == b; };\n"
    after = fake_github.push(REPO, "main", {"lib/eq.js": new})
    serve("push", P.push(installation=tenant_id, repo=REPO, before=base, after=after,
                         commits=[{"added": [], "modified": ["lib/eq.js"], "removed": []}]))
    assert serve.drain()
    assert memfix_pulls(fake_github) == []  # no CI to verify an unsafe fix: none goes out
    ci = fake_github.push(REPO, "main", {".github/workflows/test.yml": "jobs: {}\n"})
    newer = fake_github.push(REPO, "main", {"lib/eq.js": new + "exports.third = (a, b) => a == b;\n"})
    serve("push", P.push(installation=tenant_id, repo=REPO, before=ci, after=newer,
                         commits=[{"added": [], "modified": ["lib/eq.js"], "removed": []}]))
    assert serve.drain()
    [pr] = memfix_pulls(fake_github)
    assert fake_github.file(REPO, pr["head"]["ref"], "lib/eq.js") == new + "exports.third = (a, b) => a === b;\n"
    assert pr["draft"] and "Biome's unsafe fix (the repository CI decides)" in pr["body"]


def test_a_push_to_a_new_branch_or_a_file_it_adds_has_nothing_older(serve, fake_github, tenant_id):
    sha = fake_github.push(REPO, "main", {"app/new.py": "import os\n"})
    serve("push", P.push(installation=tenant_id, repo=REPO, before="0" * 40, after=sha,
                         commits=[{"added": ["app/new.py"], "modified": [], "removed": []}]))
    assert serve.drain()
    [pr] = memfix_pulls(fake_github)
    assert "import os" not in fake_github.file(REPO, pr["head"]["ref"], "app/new.py")
