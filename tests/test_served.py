"""End to end through processes, as GitHub reaches memfix: signed deliveries over HTTP to a real `memfix serve`
(waitress in front), which works against the fake GitHub in a process of its own (tests/served.py)."""

from __future__ import annotations

import pytest

from tests.fakes import payloads as P
from tests.fakes.github import ApiError
from tests.fakes.github_process import FakeGitHubError, GitHubProcess

REPO = "acme/api"
UTIL = "import os\n\n\ndef greet(name):\n    return \"hello \" + name\n"


def test_a_push_to_the_default_branch_gets_one_pr_removing_the_unused_import(served, tenant_id):
    gh = served.github
    base = gh.add_repo(REPO, {"README.md": "# api\n"})
    after = gh.push(REPO, "main", {"app/util.py": UTIL})
    assert served.post("push", P.push(installation=tenant_id, repo=REPO, before=base, after=after,
                                      commits=[{"added": ["app/util.py"], "modified": [], "removed": []}])) == 202
    served.wait_idle()

    [pr] = gh.pulls(REPO)
    assert pr["user"]["login"] == "memfix[bot]" and pr["base"]["ref"] == "main"
    assert pr["head"]["ref"].startswith("memfix/autofix/app-util-py-") and "F401" in pr["body"]
    fixed = UTIL.removeprefix("import os\n")  # ruff takes the line, not the blank lines after it
    assert gh.file(REPO, pr["head"]["ref"], "app/util.py") == fixed
    assert gh.file(REPO, "main", "app/util.py") == UTIL  # the team's branch is the team's
    assert "Traceback" not in served.log()


def test_autofix_from_a_collaborator_on_an_issue_gets_eyes_and_a_reply(served, tenant_id):
    gh = served.github
    gh.add_repo(REPO, {"app.py": "import os\n"})
    number = gh.open_issue(REPO, "Unused imports")
    cid = gh.add_comment(REPO, number, "/autofix app.py", user="alice")["id"]
    assert served.post("issue_comment", P.issue_comment("/autofix app.py", installation=tenant_id, repo=REPO,
                                                        number=number, comment_id=cid, pull_request=False)) == 202

    def replies() -> list[str]:
        return [c["body"] for c in gh.comments(REPO, number) if c["user"]["login"] == "memfix[bot]"]

    served.wait_for(replies, 60, "memfix's reply on the issue")
    served.wait_idle()
    assert [(r["content"], r["user"]["login"]) for r in gh.reactions(REPO, cid)] == [("eyes", "memfix[bot]")]
    [reply] = replies()
    assert "**AutoFix** finished" in reply and "`app.py`: PROMOTED" in reply and f"command:{REPO}:{cid}" in reply


def test_the_fake_github_process_answers_as_the_fake_does_and_says_what_it_cannot(tmp_path, app_key):
    with GitHubProcess(tmp_path, app_key=app_key) as gh:
        sha = gh.add_repo(REPO, {"app.py": "import os\n"})
        assert gh.branch_sha(REPO, "main") == sha and gh.pulls(REPO) == []
        with pytest.raises(ApiError) as missing:
            gh.pull(REPO, 7)
        assert missing.value.status == 404
        with pytest.raises(FakeGitHubError, match="missing 1 required positional argument"):
            gh.open_issue(REPO)
        with pytest.raises(AttributeError, match="no 'hold_next'"):
            gh.hold_next("GET", ".*")  # a Hold of threading Events does not travel
        gh.ready_marked = [[REPO, 1]]
        assert gh.ready_marked == [[REPO, 1]] and gh.private_key_pem == app_key.private_pem
        with pytest.raises(AssertionError, match="timed out after 0.1 s waiting for a pull request"):
            gh.wait_for(lambda: gh.pulls(REPO), 0.1, "a pull request")
        process = gh.process.process
    assert process.returncode == 0  # stopped by SIGTERM, cleanly
