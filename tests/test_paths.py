"""Paths are data: one check at the edge, and nothing fetched or written outside the event's repository."""

from __future__ import annotations

import pytest

from core.paths import PathError, git_ref, repo_path, url_path
from tests.fakes import payloads as P

REPO = "acme/api"
TRAVERSALS = [
    "../../secret/contents/creds.py", "%2e%2e/%2e%2e/secret/contents/creds.py", "..%2f..%2fsecret/creds.py",
    ".\\.\\secret.py", "/etc/passwd", "C:/Windows/win.ini", "app/../../x.py", "app/\x00.py", "%252e%252e/x.py",
    "app//x.py", "app/./x.py", "a\\b.py", "app%2fx.py", "x" * 1025,
]


@pytest.mark.parametrize("bad", TRAVERSALS)
def test_every_traversal_form_is_refused_with_a_reason(bad):
    with pytest.raises(PathError) as error:
        repo_path(bad)
    assert str(error.value)  # the reply shows it


@pytest.mark.parametrize("good, normal", [("app.py", "app.py"), ("./src/pkg/mod.py", "src/pkg/mod.py"),
                                          ("docs/a b.py", "docs/a b.py"), (".github/memfix.yml", ".github/memfix.yml"),
                                          ("pkg/..hidden.py", "pkg/..hidden.py")])
def test_ordinary_paths_pass_normalised(good, normal):
    assert repo_path(good) == normal


def test_url_segments_are_encoded_so_a_path_can_only_address_a_file():
    assert url_path("docs/a b#1?.py") == "docs/a%20b%231%3F.py"
    for bad in ("main..evil", "../x", "a b", "-x", "x:y", "refs%2f..", "a//b"):
        with pytest.raises(PathError):
            git_ref(bad)
    assert git_ref("memfix/autofix/app-py-0123abcd") == "memfix/autofix/app-py-0123abcd"


@pytest.mark.parametrize("bad", TRAVERSALS[:6])
def test_a_traversal_in_a_command_fetches_nothing_outside_the_repository(serve, fake_github, tenant_id, bad):
    fake_github.add_repo("acme/secret", {"contents/creds.py": "TOKEN = 'hunter2'\n"})
    text = f"/autofix {bad}"
    cid = fake_github.add_comment(REPO, 1, text, user="alice")["id"]
    assert serve("issue_comment", P.issue_comment(text, installation=tenant_id, repo=REPO, comment_id=cid,
                                                  pull_request=False)) == 202
    assert serve.drain()
    [reply] = [c["body"] for c in fake_github.comments(REPO, 1) if c["user"]["login"] == "memfix[bot]"]
    assert "failed: path" in reply and "hunter2" not in reply
    assert fake_github.check_runs(REPO) == []  # no run started
    touched = [p for _, p, _ in fake_github.requests if p.startswith("/repos/")]
    assert touched and all(p.startswith(f"/repos/{REPO}/") for p in touched)
    assert not any("/contents/" in p for p in touched)


def test_push_lists_and_issue_text_with_traversal_are_skipped_and_the_rest_runs(serve, fake_github, tenant_id):
    from tests.test_pipelines import BUGGY, memfix_pulls

    fake_github.add_repo("acme/secret", {"creds.py": "import os\n"})
    sha = fake_github.push(REPO, "main", {"app/util.py": BUGGY})
    serve("push", P.push(installation=tenant_id, repo=REPO, after=sha, commits=[
        {"added": ["../secret/creds.py", "%2e%2e/secret/creds.py"], "modified": ["app/util.py"], "removed": []}]))
    assert serve.drain()
    assert len(memfix_pulls(fake_github)) == 1
    assert all(p.startswith(f"/repos/{REPO}/") for _, p, _ in fake_github.requests if p.startswith("/repos/"))
    # The file-name scan of issue text is linear: a long run of path characters is no slower than a short one.
    number = fake_github.open_issue(REPO, "x", "a" * 65_536 + " app/util.py")
    serve("issues", P.issue_labelled(installation=tenant_id, repo=REPO, number=number, title="x",
                                     body="a" * 65_536 + " ../secret/creds.py app/util.py"))
    assert serve.drain()
    [reply] = [c["body"] for c in fake_github.comments(REPO, number) if c["user"]["login"] == "memfix[bot]"]
    assert "scope: 1 file(s)" in reply
    assert not any("/repos/acme/secret" in p for _, p, _ in fake_github.requests)


@pytest.mark.parametrize("name", [".memory/../../secret/letter_20240101_abcd.md", ".memory/%2e%2e/letter_20240101_a.md",
                                  ".memory/letter_20240101_ab\x00.md", "/.memory/letter_20240101_abcd.md"])
def test_a_letter_name_that_could_leave_the_repository_is_no_letter(name):
    from core.memory.letters import is_letter_path

    assert not is_letter_path(name)
    assert is_letter_path(".memory/letter_20240101_abcd.md")


@pytest.mark.parametrize(("pattern", "path", "matches"), [
    ("**/a/" * 40 + "b", "a/" * 500 + "c", False),  # each `**` tried at every depth made pattern × path² steps
    ("**/a/" * 40 + "b", "a/" * 500 + "b", True),
    ("**/" + "a/" * 9 + "b/**/c", "a/" * 500 + "b/c", True),
    ("**/" + "a/" * 9 + "b/**/c", "a/" * 500 + "c", False),
    ("*a" * 99 + "b", "a" * 1000, False),  # a segment's glob of many stars
    ("*a" * 99 + "b", "a" * 1000 + "b", True),
    ("src/**", "src", True), ("src/**/x.py", "src/x.py", True), ("**/x.py", "deep/down/x.py", True),
    ("a/*/c", "a/b/c/d", True), ("a/*/c", "a/c", False), ("tests", "pkg/tests/t.py", True),
])
def test_path_patterns_match_in_pattern_times_path_steps(pattern, path, matches):
    from core.paths import path_matches

    assert path_matches(pattern, path) is matches
