"""Routing is pure: payload in, Job (or a reason) out."""

import pytest

from core.events import parse_command, route
from core.wire import CommandJob, InstallationJob, Job, LineCommentJob, PullRequestClosedJob, PushJob, ReviewJob
from tests.fakes import payloads as P

BOT = "memfix[bot]"


@pytest.mark.parametrize(
    "body, expected",
    [
        ("/autofix", ("autofix", "")),
        ("  /autofix src/app.py -- keep the API\r\n", ("autofix", "src/app.py -- keep the API")),
        ("/remember pattern Testing: use fixtures\nmore", ("remember", "pattern Testing: use fixtures\nmore")),
        ("/recall sql injection", ("recall", "sql injection")),
        ("/forget 42", ("forget", "42")),
        ("/refine use a context manager", ("refine", "use a context manager")),
        ("/refactor", ("refactor", "")),
        ("please /autofix this", None),
        ("> /autofix\nquoted", None),
        ("/autofixes", None),
        ("/deploy now", None),
        ("", None),
        (None, None),
    ],
)
def test_parse_command(body, expected):
    command = parse_command(body)
    assert (None if command is None else (command.name, command.args)) == expected


def test_collaborator_command_becomes_a_command_job():
    p = P.issue_comment("/autofix src/x.py -- careful", installation=7, repo="o/r", number=12, comment_id=99)
    job = route("issue_comment", p, "d1", BOT).job
    assert isinstance(job, CommandJob)
    assert (job.command, job.issue_number, job.comment_id, job.is_pull_request) == ("autofix", 12, 99, True)
    assert job.path_and_guidance == ("src/x.py", "careful")
    assert job.key == "command:o/r:99"


@pytest.mark.parametrize("association", ["NONE", "CONTRIBUTOR", "MEMBER", "OWNER", ""])
def test_every_command_is_a_command_job_whatever_the_association(association):
    # The association is neither necessary nor sufficient; the worker asks GitHub (core/permissions.py).
    p = P.issue_comment("/autofix", installation=7, repo="o/r", association=association, login="mallory")
    job = route("issue_comment", p, "d1", BOT).job
    assert isinstance(job, CommandJob) and job.author == "mallory"


def test_memfix_own_comment_is_ignored():
    p = P.issue_comment("/autofix", installation=7, repo="o/r", login=BOT, user_type="Bot")
    routed = route("issue_comment", p, "d1", BOT)
    assert routed.job is None and "itself" in routed.reason


def test_edited_comment_and_plain_comment_are_ignored():
    p = P.issue_comment("/autofix", installation=7, repo="o/r")
    p["action"] = "edited"
    assert route("issue_comment", p, "d", BOT).job is None
    assert route("issue_comment", P.issue_comment("looks good", installation=7, repo="o/r"), "d", BOT).job is None


def test_push_to_default_branch_nets_file_changes_across_commits():
    commits = [
        {"added": ["a.py", "tmp.py"], "modified": [], "removed": ["old.py"]},
        {"added": ["old.py"], "modified": ["a.py", "b.py"], "removed": ["tmp.py"]},
    ]
    job = route("push", P.push(installation=7, repo="o/r", commits=commits), "d", BOT).job
    assert isinstance(job, PushJob)
    assert (job.added, job.modified, job.removed) == (("a.py",), ("b.py", "old.py"), ())


def test_push_elsewhere_or_by_memfix_is_ignored():
    assert route("push", P.push(installation=7, repo="o/r", commits=[], ref="refs/heads/feature"), "d", BOT).job is None
    assert route("push", P.push(installation=7, repo="o/r", commits=[], pusher=BOT), "d", BOT).job is None


def test_approved_review_with_body_is_a_review_step():
    p = P.example("pull_request_review", "submitted")
    p["installation"] = {"id": 7}
    p["review"].update(state="approved", body="Good: parameterised SQL everywhere", author_association="MEMBER")
    job = route("pull_request_review", p, "d", BOT).job
    assert isinstance(job, ReviewJob) and "parameterised" in job.body
    p["review"]["body"] = "  "
    assert route("pull_request_review", p, "d", BOT).job is None


def test_only_memfix_prs_closing_become_outcome_jobs():
    p = P.example("pull_request", "closed")
    p["installation"] = {"id": 7}
    assert route("pull_request", p, "d", BOT).job is None
    p["pull_request"]["head"]["ref"] = "memfix/autofix/app-py-abc123"
    p["pull_request"]["merged"] = True
    job = route("pull_request", p, "d", BOT).job
    assert isinstance(job, PullRequestClosedJob) and job.merged


def _line_comment(branch: str, **comment) -> dict:
    said = {"id": 77, "body": "keep this import", "path": "pkg/a.py", "diff_hunk": "@@ -1,2 +1 @@\n-import os",
            "user": {"login": "alice", "type": "User"}, **comment}
    return P.line_comment(said, installation=7, repo="o/r", number=12, branch=branch)


def test_a_comment_on_a_line_of_a_memfix_pr_is_a_line_comment_job():
    job = route("pull_request_review_comment", _line_comment("memfix/autofix/pkg-a-py-1"), "d", BOT).job
    assert isinstance(job, LineCommentJob)
    assert (job.pr_number, job.comment_id, job.thread_id, job.author, job.path) == (12, 77, 77, "alice", "pkg/a.py")
    assert job.hunk.endswith("-import os") and job.key == "line_comment:o/r:77"
    assert Job.from_json(job.to_json()) == job
    reply = route("pull_request_review_comment", _line_comment("memfix/x", in_reply_to_id=70), "d", BOT).job
    assert reply.thread_id == 70  # GitHub takes replies under a thread's first comment only
    whole_file = route("pull_request_review_comment", _line_comment("memfix/x", subject_type="file"), "d", BOT).job
    assert whole_file.hunk == ""


@pytest.mark.parametrize("branch, changes, action, reason", [
    ("feature", {}, "created", "not on a memfix PR"),
    ("memfix/x", {"user": {"login": BOT, "type": "Bot"}}, "created", "itself"),
    ("memfix/x", {"user": {"login": "ci-app[bot]", "type": "Bot"}}, "created", "by a bot"),
    ("memfix/x", {"body": "  "}, "created", "no text"),
    ("memfix/x", {}, "edited", "not newly created"),
])
def test_other_line_comments_are_not_memfix_business(branch, changes, action, reason):
    p = _line_comment(branch, **changes)
    p["action"] = action
    routed = route("pull_request_review_comment", p, "d", BOT)
    assert routed.job is None and reason in routed.reason


def test_issue_labelled_memfix():
    p = P.example("issues", "labeled")
    p["installation"] = {"id": 7}
    p["label"]["name"] = "bug"
    assert route("issues", p, "d", BOT).job is None
    p["label"]["name"] = "memfix"
    assert route("issues", p, "d", BOT).job.kind == "issue"


def test_installation_lifecycle_jobs():
    created = route("installation", P.installation("created", installation=5, repos=[(1, "o/a")]), "d", BOT).job
    assert isinstance(created, InstallationJob) and created.repositories == ((1, "o/a"),)
    added = P.example("installation_repositories", "added")
    job = route("installation_repositories", added, "d", BOT).job
    assert job.action == "added" and job.repositories


def test_jobs_survive_the_queue_round_trip():
    p = P.installation("created", installation=5, repos=[(1, "o/a"), (2, "o/b")])
    job = route("installation", p, "d", BOT).job
    assert Job.from_json(job.to_json()) == job


def test_unhandled_events_and_missing_installation_give_reasons():
    assert "not handled" in route("star", P.example("star"), "d", BOT).reason
    assert "installation" in route("issue_comment", P.example("issue_comment", "created"), "d", BOT).reason


@pytest.mark.parametrize("event", ["issue_comment", "push"])
def test_a_repository_event_without_a_repository_is_refused_by_name(event):
    p = P.issue_comment("/autofix", installation=7, repo="o/r") if event == "issue_comment" else \
        P.push(installation=7, repo="o/r", commits=[{"added": ["a.py"], "modified": [], "removed": []}])
    del p["repository"]
    routed = route(event, p, "d", BOT)
    assert routed.job is None and routed.reason == "no repository in payload"


# ---- the repository's CI on memfix's branches ----

def _ci(event: str, action: str | None, branch: str, **changes) -> dict:
    p = P.example(event, action)
    p["installation"] = {"id": 7}
    p["repository"]["full_name"] = "o/r"
    p["sender"] = {"login": "memfix[bot]", "type": "Bot"}  # CI ran on memfix's push: its verdict still counts
    if event == "check_suite":
        p["check_suite"].update({"head_branch": branch, "head_sha": "abc", "app": {"slug": "github-actions"},
                                 **changes})
    elif event == "check_run":
        p["check_run"].update({"head_sha": "abc", "app": {"slug": "github-actions"}, **changes})
        p["check_run"]["check_suite"]["head_branch"] = branch
    elif event == "workflow_run":
        p["workflow_run"].update(head_branch=branch, head_sha="abc", **changes)
    else:
        p.update(sha="abc", branches=[{"name": branch, "commit": {"sha": "abc"}}], **changes)
    return p


@pytest.mark.parametrize("event, action", [("check_suite", "completed"), ("check_run", "completed"),
                                           ("workflow_run", "completed"), ("status", None)])
def test_ci_results_on_a_memfix_branch_become_checks_jobs(event, action):
    from core.wire import ChecksJob

    extra = {"state": "failure"} if event == "status" else {"conclusion": "failure"}
    job = route(event, _ci(event, action, "memfix/autofix/a-py-123", **extra), "d", BOT).job
    assert isinstance(job, ChecksJob) and (job.repo, job.head_sha, job.source) == ("o/r", "abc", event)
    assert job.key.startswith("checks:o/r:abc:") and job.state == "failure"
    assert Job.from_json(job.to_json()) == job


@pytest.mark.parametrize("event, action", [("check_suite", "completed"), ("check_run", "completed"),
                                           ("workflow_run", "completed"), ("status", None)])
def test_ci_results_elsewhere_are_not_memfix_business(event, action):
    assert route(event, _ci(event, action, "feature"), "d", BOT).job is None


def test_memfix_own_check_runs_and_unfinished_ones_are_not_verdicts():
    own = _ci("check_run", "completed", "memfix/autofix/x", app={"slug": "memfix"})
    assert route("check_run", own, "d", BOT).job is None
    assert route("check_suite", _ci("check_suite", "requested", "memfix/autofix/x"), "d", BOT).job is None
    assert route("status", _ci("status", None, "memfix/autofix/x", state="pending"), "d", BOT).job is None


def test_a_command_names_rules_apart_from_its_path_and_guidance():
    from core.wire import CommandJob

    def command(args: str) -> CommandJob:
        return CommandJob(delivery_id="d", tenant_id=1, repo="o/r", command="refactor", args=args)

    job = command("UP SIM, app/models.py -- keep it short")
    assert job.rules == ("UP", "SIM") and job.path_and_guidance == ("app/models.py", "keep it short")
    assert command("src/").rules == () and command("F401").path_and_guidance == (None, None)


@pytest.mark.parametrize("args, rules, path", [
    ("lint/style/useConst", ("lint/style/useConst",), None),  # Biome's name is a rule, not a path
    ("style/useConst src/app.js", ("lint/style/useConst",), "src/app.js"),
    ("biome:lint/style/useConst,eslint:indent web/", ("lint/style/useConst", "eslint:indent"), "web/"),
    ("eslint:@typescript-eslint/no-unused-vars eslint:import src/", ("eslint:@typescript-eslint/no-unused-vars",
                                                                     "eslint:import"), "src/"),
    ("ruff:f401 flake8:E501 pylint:C0414 app.py", ("F401", "E501", "PLC0414"), "app.py"),
    ("lint/rules.js", (), "lint/rules.js"),  # a file in a folder named like Biome's prefix stays a path
    ("src/app up", (), "src/app"),  # ruff's codes in a command are upper case: `up` is a path
])
def test_a_command_names_any_tools_rules_as_written(args, rules, path):
    from core.wire import CommandJob

    job = CommandJob(delivery_id="d", tenant_id=1, repo="o/r", command="autofix", args=args)
    assert (job.rules, job.path_and_guidance[0]) == (rules, path)


@pytest.mark.parametrize("args, said", [
    ("black:E501 app.py", "`black:E501` is not a rule (memfix names no rules of `black`)"),
    ("eslint:/x app.js", "`eslint:/x` is not a rule (an ESLint rule is `eslint:` and its id"),
    ("pylint:unused-import", "pylint's rules are named by their message id"),
])
def test_a_command_naming_no_rule_with_a_tools_prefix_is_refused(args, said):
    from core.errors import PermanentError
    from core.wire import CommandJob

    job = CommandJob(delivery_id="d", tenant_id=1, repo="o/r", command="autofix", args=args)
    for read in (lambda: job.rules, lambda: job.path_and_guidance):
        with pytest.raises(PermanentError) as refused:
            read()
        assert said in str(refused.value) and "`lint/style/useConst`" in str(refused.value)
        assert str(refused.value).endswith("; nothing was started")
