"""The GitHub adapter against the fake GitHub server: auth, token cache, retries, errors, and each call."""

import logging
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta

import httpx
import pytest

from core.errors import GitHubPermanentError, GitHubTransientError
from core.github.client import GitHubApp, InstallationToken, TokenCache
from core.settings import SettingsError
from tests.fakes.github import FakeGitHub, fake_github_settings, generate_app_key

REPO = "acme/widgets"
FILES = {"src/app.py": "print('héllo')\n", "README.md": "# widgets\n"}


@pytest.fixture
def fake(fake_github):
    fake_github.add_repo(REPO, FILES, collaborators={"alice": "write", "bob": "read"})
    return fake_github


@pytest.fixture
def app(fake):
    app = GitHubApp(fake_github_settings(fake))
    yield app
    app.close()


@pytest.fixture
def gh(app):
    return app.for_installation(7)


def api_calls(fake):
    """Requests other than token issuance."""
    return [r for r in fake.requests if not r[1].startswith("/app/")]


# ---- auth and token cache ----


def test_token_is_fetched_once_and_reused(fake, gh):
    gh.get_repository(REPO)
    gh.get_file(REPO, "README.md", "main")
    gh.user_permission(REPO, "alice")

    assert fake.tokens_issued == 1
    assert fake.requests[0] == ("POST", "/app/installations/7/access_tokens", 201)


def test_one_client_per_installation(fake, app):
    assert app.for_installation(7) is app.for_installation(7)
    app.for_installation(7).get_repository(REPO)
    app.for_installation(8).get_repository(REPO)

    assert [r[1] for r in fake.requests if r[1].startswith("/app/")] == [
        "/app/installations/7/access_tokens",
        "/app/installations/8/access_tokens",
    ]


def test_token_within_five_minutes_of_expiry_is_replaced(fake, gh):
    fake.token_lifetime = timedelta(minutes=4)  # already inside the refresh margin when issued
    gh.get_repository(REPO)
    gh.get_repository(REPO)
    assert fake.tokens_issued == 2

    fake.token_lifetime = timedelta(minutes=6)
    gh.get_repository(REPO)
    gh.get_repository(REPO)
    assert fake.tokens_issued == 3


def test_token_cache_refreshes_five_minutes_before_expiry():
    now = datetime(2030, 1, 1, tzinfo=UTC)
    clock = [now]
    issued = []

    def fetch():
        issued.append(f"ghs_{len(issued)}")
        return InstallationToken(issued[-1], now + timedelta(hours=1))

    cache = TokenCache(fetch, clock=lambda: clock[0])
    assert cache.get() == "ghs_0"
    clock[0] = now + timedelta(minutes=54, seconds=59)
    assert cache.get() == "ghs_0"
    clock[0] = now + timedelta(minutes=55)
    assert cache.get() == "ghs_1"


def test_revoked_token_is_replaced_and_the_call_repeated(fake, gh):
    gh.get_repository(REPO)
    fake.revoke_tokens()

    assert gh.get_repository(REPO)["default_branch"] == "main"
    assert fake.tokens_issued == 2
    assert api_calls(fake) == [
        ("GET", f"/repos/{REPO}", 200),
        ("GET", f"/repos/{REPO}", 401),
        ("GET", f"/repos/{REPO}", 200),
    ]


def test_wrong_app_key_is_a_permanent_error_without_retries(fake):
    other = fake_github_settings(fake, github_app_private_key=generate_app_key().private_pem)
    with pytest.raises(GitHubPermanentError) as err:
        GitHubApp(other).for_installation(7).get_repository(REPO)

    assert err.value.status == 401
    assert fake.requests == [("POST", "/app/installations/7/access_tokens", 401)]


def test_unparseable_app_key_is_a_permanent_error(fake):
    broken = fake_github_settings(fake, github_app_private_key="not a key")
    with pytest.raises(GitHubPermanentError, match="GITHUB_APP_PRIVATE_KEY"):
        GitHubApp(broken).for_installation(7).get_repository(REPO)
    assert fake.requests == []


def test_key_with_escaped_newlines_is_accepted(fake):
    escaped = fake.private_key_pem.replace("\n", "\\n")
    gh = GitHubApp(fake_github_settings(fake, github_app_private_key=escaped)).for_installation(7)
    assert gh.get_repository(REPO)["full_name"] == REPO


def test_missing_app_credentials_are_a_settings_error(fake):
    with pytest.raises(SettingsError):
        GitHubApp(fake_github_settings(fake, github_app_id=None))


def test_secrets_never_reach_the_logs(fake, gh, caplog):
    caplog.set_level(logging.DEBUG)
    fake.fail_next("GET", f"/repos/{REPO}", 502)
    gh.get_repository(REPO)
    fake.revoke_tokens()
    gh.comment(REPO, fake.open_issue(REPO, "bug"), "hi")
    with pytest.raises(GitHubPermanentError):
        gh.get_pull(REPO, 999)

    assert fake.tokens_issued == 2 and caplog.records
    for secret in [*fake.issued_tokens, fake.private_key_pem.splitlines()[1]]:
        assert secret not in caplog.text


# ---- retries and errors ----


def test_retry_after_is_honoured_with_exactly_one_retry(fake, gh):
    fake.fail_next(
        "GET",
        f"/repos/{REPO}",
        403,
        headers={"Retry-After": "1"},
        body={"message": "You have exceeded a secondary rate limit"},
    )
    started = time.monotonic()

    assert gh.get_repository(REPO)["full_name"] == REPO
    assert time.monotonic() - started >= 0.9
    assert api_calls(fake) == [("GET", f"/repos/{REPO}", 403), ("GET", f"/repos/{REPO}", 200)]


def test_rate_limit_reset_already_passed_retries_at_once(fake, gh):
    # githubkit treats a zero wait as "sleep 60 s"; this would hang without our guard
    fake.fail_next(
        "GET",
        f"/repos/{REPO}",
        403,
        headers={"x-ratelimit-remaining": "0", "x-ratelimit-reset": str(int(time.time()) - 5)},
    )
    started = time.monotonic()

    gh.get_repository(REPO)
    assert time.monotonic() - started < 5
    assert [s for _, _, s in api_calls(fake)] == [403, 200]


def test_rate_limit_wait_is_capped_by_settings(fake):
    gh = GitHubApp(fake_github_settings(fake, github_max_wait_seconds=0.05)).for_installation(7)
    fake.fail_next("GET", f"/repos/{REPO}", 429, headers={"Retry-After": "120"})
    started = time.monotonic()

    gh.get_repository(REPO)
    assert time.monotonic() - started < 10


def test_server_errors_are_retried_then_transient(fake):
    gh = GitHubApp(fake_github_settings(fake, github_max_retries=2)).for_installation(7)
    fake.fail_next("GET", f"/repos/{REPO}/pulls/1", 502, times=3)

    with pytest.raises(GitHubTransientError) as err:
        gh.get_pull(REPO, 1)
    assert err.value.status == 502
    assert api_calls(fake) == [("GET", f"/repos/{REPO}/pulls/1", 502)] * 3


def test_server_error_then_success_recovers(fake, gh):
    fake.fail_next("POST", rf"/repos/{REPO}/issues/\d+/comments", 503, times=2)
    number = fake.open_issue(REPO, "bug")

    gh.comment(REPO, number, "on it")
    assert [s for m, _, s in api_calls(fake) if m == "POST"] == [503, 503, 201]
    assert len(fake.comments(REPO, number)) == 1


def test_rate_limit_that_outlasts_retries_is_transient(fake):
    gh = GitHubApp(fake_github_settings(fake, github_max_retries=1)).for_installation(7)
    fake.fail_next("GET", f"/repos/{REPO}", 403, headers={"Retry-After": "0"}, times=2)

    with pytest.raises(GitHubTransientError, match="rate-limited"):
        gh.get_repository(REPO)


def test_unreachable_github_is_transient(app_key):
    with FakeGitHub(app_key=app_key) as gone:
        settings = fake_github_settings(gone, github_max_retries=1)
    with pytest.raises(GitHubTransientError, match="could not be reached"):
        GitHubApp(settings).for_installation(7).get_repository(REPO)


def test_client_errors_are_permanent_and_not_retried(fake, gh):
    with pytest.raises(GitHubPermanentError) as missing:
        gh.get_pull(REPO, 404)
    with pytest.raises(GitHubPermanentError) as invalid:
        gh.create_pr(REPO, "t", "b", head="no-such-branch", base="main")
    fake.fail_next("GET", f"/repos/{REPO}", 403, body={"message": "Resource not accessible by integration"})
    with pytest.raises(GitHubPermanentError, match="not accessible") as forbidden:
        gh.get_repository(REPO)

    assert (missing.value.status, invalid.value.status, forbidden.value.status) == (404, 422, 403)
    assert [s for _, _, s in api_calls(fake)] == [404, 422, 403]
    assert "ghs_" not in str(missing.value) and f"/repos/{REPO}/pulls/404" in str(missing.value)


# ---- contents, branches, pull requests ----


def test_get_file_at_branch_and_commit(fake, gh):
    first = fake.branch_sha(REPO, "main")
    fake.push(REPO, "main", {"src/app.py": "print('bye')\n"})

    assert gh.get_file(REPO, "src/app.py", "main") == "print('bye')\n"
    assert gh.get_file(REPO, "src/app.py", first) == "print('héllo')\n"
    assert gh.get_file(REPO, "missing.py", "main") is None
    assert gh.get_file_sha(REPO, "missing.py", "main") is None
    assert len(gh.get_file_sha(REPO, "README.md", "main")) == 40


def test_branch_file_pull_request_round_trip(fake, gh):
    base = gh.get_repository(REPO)["default_branch"]
    branch = "memfix/autofix/src-app-py-abc123"
    gh.create_branch(REPO, branch, gh.get_branch_sha(REPO, base))
    sha = gh.get_file_sha(REPO, "src/app.py", branch)
    commit = gh.put_file(REPO, "src/app.py", "print('fixed')\n", branch, "fix: app", sha=sha)
    gh.put_file(REPO, "src/new.py", "x = 1\n", branch, "add new")
    assert gh.find_open_pr(REPO, branch) is None

    pr = gh.create_pr(REPO, "Fix app", "body", head=branch, base=base)
    found = gh.find_open_pr(REPO, branch)
    updated = gh.update_pr(REPO, pr.number, body="better body")

    assert found.number == pr.number and found.head_ref == branch and found.head_repo == REPO
    assert gh.get_branch_sha(REPO, branch) != commit  # the second put_file moved the branch on
    assert gh.get_pull(REPO, pr.number).head_sha == gh.get_branch_sha(REPO, branch)
    assert (updated["title"], updated["body"]) == ("Fix app", "better body")
    assert fake.file(REPO, branch, "src/app.py") == "print('fixed')\n"
    assert fake.file(REPO, "main", "src/app.py") == FILES["src/app.py"]
    assert sorted((f["filename"], f["status"]) for f in gh.list_pull_files(REPO, pr.number)) == [
        ("src/app.py", "modified"),
        ("src/new.py", "added"),
    ]
    assert fake.pulls(REPO)[0]["user"]["login"] == "memfix[bot]"


def test_closed_pull_request_is_not_found_as_open(fake, gh):
    fake.push(REPO, "feature", {"a.py": "a = 1\n"})
    pr = fake.open_pull(REPO, "feature")
    assert gh.find_open_pr(REPO, "feature").number == pr["number"]

    fake.close_pull(REPO, pr["number"], merged=True)
    assert gh.find_open_pr(REPO, "feature") is None
    assert gh.get_pull(REPO, pr["number"]).merged is True
    assert gh.get_file(REPO, "a.py", "main") == "a = 1\n"


def test_create_branch_that_exists_is_moved(fake, gh):
    old = fake.branch_sha(REPO, "main")
    fake.push(REPO, "main", {"README.md": "# v2\n"})
    gh.create_branch(REPO, "memfix/x", old)

    gh.create_branch(REPO, "memfix/x", fake.branch_sha(REPO, "main"))
    assert fake.branch_sha(REPO, "memfix/x") == fake.branch_sha(REPO, "main")
    assert [(m, s) for m, p, s in api_calls(fake) if "git/refs" in p] == [
        ("POST", 201),
        ("POST", 422),
        ("PATCH", 200),
    ]


def test_put_file_with_stale_sha_is_permanent(gh):
    with pytest.raises(GitHubPermanentError) as err:
        gh.put_file(REPO, "README.md", "new", "main", "edit", sha="0" * 40)
    assert err.value.status == 409


def test_list_pull_files_follows_pages(fake, gh):
    fake.push(REPO, "many", {f"gen/f{i:03}.py": f"x = {i}\n" for i in range(130)})
    pr = fake.open_pull(REPO, "many")

    files = gh.list_pull_files(REPO, pr["number"])
    assert len(files) == 130 and {f["status"] for f in files} == {"added"}
    assert len([p for _, p, _ in api_calls(fake) if p.endswith("/files")]) == 2


# ---- comments, reactions, checks, permissions ----


def test_comment_edit_and_react(fake, gh):
    fake.push(REPO, "feature", {"a.py": "a = 1\n"})
    number = fake.open_pull(REPO, "feature")["number"]
    command = fake.add_comment(REPO, number, "/autofix", user="alice")

    gh.react(REPO, command["id"])
    reply = gh.comment(REPO, number, "Working on it…")
    gh.edit_comment(REPO, reply, "Done: opened 1 PR")

    assert [r["content"] for r in fake.reactions(REPO, command["id"])] == ["eyes"]
    assert [(c["user"]["login"], c["body"]) for c in fake.comments(REPO, number)] == [
        ("alice", "/autofix"),
        ("memfix[bot]", "Done: opened 1 PR"),
    ]


def test_a_reply_goes_into_the_thread_of_a_comment_on_a_line(fake, gh):
    fake.push(REPO, "feature", {"src/app.py": "print('hello')\n"})
    number = fake.open_pull(REPO, "feature")["number"]
    said = fake.add_review_comment(REPO, number, "keep the accent", path="src/app.py", line=1, side="LEFT")
    assert said["diff_hunk"].endswith("-print('héllo')")  # GitHub's hunk ends at the line commented on

    reply = gh.reply_in_thread(REPO, number, said["id"], "noted")

    assert [(c["user"]["login"], c["body"], c["in_reply_to_id"]) for c in fake.review_comments(REPO, number)] == [
        ("alice", "keep the accent", None), ("memfix[bot]", "noted", said["id"])]
    with pytest.raises(GitHubPermanentError):  # a reply to a reply is refused, as on GitHub
        gh.reply_in_thread(REPO, number, reply, "again")


def test_check_run_create_and_update(fake, gh):
    head = fake.branch_sha(REPO, "main")
    run_id = gh.create_check_run(
        REPO, head, "memfix", "in_progress", title="Running", summary="AutoFix started"
    )
    gh.update_check_run(REPO, run_id, conclusion="success", title="Done", summary="2 fixes")

    [run] = fake.check_runs(REPO)
    assert (run["id"], run["head_sha"], run["status"], run["conclusion"]) == (
        run_id,
        head,
        "completed",
        "success",
    )
    assert run["output"] == {"title": "Done", "summary": "2 fixes"}


def test_commit_comment_and_permissions(fake, gh):
    head = fake.branch_sha(REPO, "main")
    comment_id = gh.create_commit_comment(REPO, head, "Synced 2 letters")

    assert fake.commit_comments(REPO)[0]["id"] == comment_id
    assert [gh.user_permission(REPO, u) for u in ("alice", "bob", "mallory")] == ["write", "read", "none"]


def test_fake_rejects_unauthenticated_and_unknown_routes(fake, gh):
    assert httpx.get(f"{fake.url}/repos/{REPO}").status_code == 401
    gh.get_repository(REPO)
    headers = {"Authorization": f"token {fake.issued_tokens[-1]}"}
    response = httpx.get(f"{fake.url}/nowhere", headers=headers)
    assert (response.status_code, response.json()["message"]) == (404, "Not Found")


def test_importing_the_package_does_not_load_githubkit():
    code = "import sys, core.github; assert 'githubkit' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True)


def test_the_client_fills_the_pipelines_port():
    import inspect

    from core.github.client import InstallationClient
    from core.pipelines.port import GitHubPort

    for name, wanted in inspect.getmembers(GitHubPort, inspect.isfunction):
        if name.startswith("_"):
            continue
        have = getattr(InstallationClient, name, None)
        assert have is not None, name
        assert list(inspect.signature(have).parameters) == list(inspect.signature(wanted).parameters), name


# ---- the repository's CI on memfix's PRs ----

def test_a_draft_pr_is_marked_ready_over_graphql(fake, gh):
    fake.add_repo("acme/ci", {"a.py": "x = 1\n"})
    fake.push("acme/ci", "memfix/x", {"a.py": "x = 2\n"})
    pr = gh.create_pr("acme/ci", "t", "b", "memfix/x", "main", draft=True)
    assert pr.draft and pr.node_id
    gh.mark_ready("acme/ci", pr)
    assert fake.pull("acme/ci", pr.number)["draft"] is False
    assert ("POST", "/graphql", 200) in fake.requests


def test_without_draft_support_a_ready_pr_is_opened(fake, gh):
    fake.add_repo("acme/free", {"a.py": "x = 1\n"}, drafts=False)
    fake.push("acme/free", "memfix/x", {"a.py": "x = 2\n"})
    pr = gh.create_pr("acme/free", "t", "b", "memfix/x", "main", draft=True)
    assert pr.draft is False and fake.pull("acme/free", pr.number)["state"] == "open"


def test_graphql_errors_are_permanent_errors(fake, gh):
    from core.errors import GitHubPermanentError
    from core.github.types import PullRequest

    with pytest.raises(GitHubPermanentError, match="Could not resolve to a node"):
        gh.mark_ready("acme/api", PullRequest(9, "b", "s", "acme/api", "main", draft=True, node_id="PR_nope"))


def test_commit_checks_reads_check_runs_and_statuses(fake, gh):
    sha = fake.add_repo("acme/checks", {"a.py": "x = 1\n"})
    fake.add_check_run("acme/checks", sha, "tests", conclusion="failure", title="1 failed", summary="boom",
                       annotations=[{"path": "a.py", "start_line": 1, "annotation_level": "failure", "message": "m"}])
    fake.add_check_run("acme/checks", sha, "lint", status="queued", conclusion=None)
    fake.set_status("acme/checks", sha, "ci/jenkins", "pending")
    fake.set_status("acme/checks", sha, "ci/jenkins", "error", description="agent lost")
    checks = {c.name: c for c in gh.commit_checks("acme/checks", sha)}
    assert checks["tests"].red and checks["tests"].summary == "1 failed\nboom" and checks["tests"].app
    assert not checks["lint"].done
    assert checks["ci/jenkins"].kind == "status" and checks["ci/jenkins"].red
    assert checks["ci/jenkins"].summary == "agent lost"
    [note] = gh.check_annotations("acme/checks", checks["tests"].id)
    assert note["message"] == "m"


def test_rerun_check_runs_an_actions_job_again_asks_another_app_and_says_when_it_cannot(fake, gh):
    sha = fake.add_repo("acme/reruns", {"a.py": "x = 1\n"})
    fake.add_check_run("acme/reruns", sha, "tests", conclusion="failure")
    fake.add_check_run("acme/reruns", sha, "circle", conclusion="failure", app="circleci-checks")
    fake.set_status("acme/reruns", sha, "ci/jenkins", "failure")
    checks = {c.name: c for c in gh.commit_checks("acme/reruns", sha)}
    assert gh.rerun_check("acme/reruns", checks["tests"]) == gh.rerun_check("acme/reruns", checks["circle"]) == "asked"
    assert fake.reruns("acme/reruns") == [checks["tests"].id, checks["circle"].id]
    assert gh.rerun_check("acme/reruns", checks["ci/jenkins"]) == "unable"  # a commit status has no re-run
    fake.withhold_actions_write("acme/reruns")
    assert gh.rerun_check("acme/reruns", checks["tests"]) == "refused"  # the installation lacks `actions: write`
    assert gh.rerun_check("acme/reruns", checks["circle"]) == "asked"  # another App's re-run needs only checks
    assert len(fake.reruns("acme/reruns")) == 3


def test_a_check_runs_summary_is_cut_to_what_github_takes_and_says_so():
    from core.github.client import SUMMARY_MAX, _check_fields

    fields = _check_fields("memfix autofix", "success", "t" * 300, "x" * (SUMMARY_MAX + 10))
    out = fields["output"]
    assert len(out["summary"]) <= SUMMARY_MAX and out["summary"].endswith("(cut: GitHub's limit)")
    assert len(out["title"]) == 255 and _check_fields(None, None, "t", "short")["output"]["summary"] == "short"
