"""GitHub Enterprise everywhere: the whole event path against an API under /api/v3, every link memfix writes
from the web URL setting, and no github.com anywhere."""

from __future__ import annotations

import re

import pytest

from tests.fakes import payloads as P
from tests.test_pipelines import BUGGY, memfix_pulls

REPO = "acme/api"
WEB = "https://ghe.example.test"


@pytest.fixture
def fake_github(app_key):
    from tests.fakes.github import FakeGitHub

    with FakeGitHub(app_key=app_key, prefix="/api/v3", web_url=WEB) as gh:
        yield gh


@pytest.fixture
def serve_settings(github_settings):
    assert github_settings.github_api_url.endswith("/api/v3")
    return github_settings.with_(github_web_url_setting=WEB)


def _comment(serve, gh, tenant: int, number: int, text: str, pull_request: bool = False) -> None:
    cid = gh.add_comment(REPO, number, text, user="alice")["id"]
    assert serve("issue_comment", P.issue_comment(text, installation=tenant, repo=REPO, number=number,
                                                  comment_id=cid, pull_request=pull_request)) == 202
    assert serve.drain()


def test_every_link_memfix_writes_points_at_the_enterprise_host(serve, fake_github, tenant_id):
    sha = fake_github.push(REPO, "main", {"app/util.py": BUGGY})
    serve("push", P.push(installation=tenant_id, repo=REPO, after=sha,
                         commits=[{"added": [], "modified": ["app/util.py", ".memory/letter_bad.md"], "removed": []}]))
    assert serve.drain()
    [pr] = memfix_pulls(fake_github)
    _comment(serve, fake_github, tenant_id, 1, "/remember decision testing: use fixtures for database tests")
    _comment(serve, fake_github, tenant_id, 1, "/autofix app/util.py")
    review = P.example("pull_request_review", "submitted")
    review["installation"] = {"id": tenant_id}
    review["repository"].update(full_name=REPO, id=P.repo_id(REPO))
    review["pull_request"]["number"] = pr["number"]
    review["review"].update(state="approved", id=4242, body="- Good: the unused import is gone for good")
    review["review"]["user"]["login"] = "alice"
    assert serve("pull_request_review", review) == 202
    fake_github.close_pull(REPO, pr["number"], merged=True)
    serve("pull_request", P.pull_request_closed(installation=tenant_id, repo=REPO, number=pr["number"],
                                               branch=pr["head"]["ref"], merged=True, sha=pr["head"]["sha"]))
    assert serve.drain()

    written = [c["body"] for n in (1, pr["number"]) for c in fake_github.comments(REPO, n)
               if c["user"]["login"] == "memfix[bot]"]
    written += [p["body"] for p in fake_github.pulls(REPO)]
    written += [(r.get("output") or {}).get("summary") or "" for r in fake_github.check_runs(REPO)]
    written += [c["body"] for c in fake_github.commit_comments(REPO)]
    written += [i.source_ref or "" for i in serve.services.insights.for_repository(tenant_id, REPO)]
    text = "\n".join(written)
    links = re.findall(r"https?://[^\s)\]>]+", text)
    assert len(links) >= 4 and "checks" in text  # the reply's run link, and the insights' sources
    assert all(link.startswith(WEB + "/") for link in links), [x for x in links if not x.startswith(WEB)]
    assert "github.com" not in text
    assert any(r.startswith(f"{WEB}/{REPO}/pull/{pr['number']}") for r in written)  # the merged PR's record


def test_drafts_are_marked_ready_through_the_enterprise_graphql_endpoint(serve, fake_github, tenant_id):
    fake_github.push(REPO, "main", {".github/workflows/ci.yml": "on: push\n"})
    sha = fake_github.push(REPO, "main", {"app/util.py": BUGGY})
    serve("push", P.push(installation=tenant_id, repo=REPO, after=sha,
                         commits=[{"added": [], "modified": ["app/util.py"], "removed": []}]))
    assert serve.drain()
    [pr] = memfix_pulls(fake_github)
    assert pr["draft"] is True
    fake_github.add_check_run(REPO, pr["head"]["sha"], "tests")
    serve("check_suite", P.check_suite_completed(installation=tenant_id, repo=REPO, head_sha=pr["head"]["sha"],
                                                 head_branch=pr["head"]["ref"]))
    assert serve.drain()
    assert fake_github.ready_marked == [(REPO, pr["number"])]
    assert ("POST", "/graphql", 200) in fake_github.requests  # reached as /api/graphql, beside /api/v3
