"""A PR may not change how memfix treats it; forks get suggestions, never pushes; only memfix's own PRs teach it.

Signed webhooks → memfix serve → the fake GitHub, real PostgreSQL."""

from __future__ import annotations

import json
import os

from core.bounded import shown
from tests.fakes import payloads as P
from tests.test_pipelines import BUGGY, REPO, memfix_pulls, push

CONFIG = ".github/memfix.yml"


def _command(serve, gh, tenant: int, number: int, text: str = "/autofix", pull_request: bool = True) -> str:
    cid = gh.add_comment(REPO, number, text, user="alice")["id"]
    assert serve("issue_comment", P.issue_comment(text, installation=tenant, repo=REPO, number=number,
                                                  comment_id=cid, pull_request=pull_request)) == 202
    assert serve.drain()
    return next(c["body"] for c in gh.comments(REPO, number) if f"command:{REPO}:{cid}" in c["body"])


# ---- configuration from the default branch ----

def test_a_pr_that_changes_the_configuration_does_not_change_its_own_run(serve, fake_github, tenant_id):
    main = fake_github.push(REPO, "main", {CONFIG: "max_prs: 2\n"})
    fake_github.push(REPO, "sneaky", {CONFIG: "autofix_rules: [E9]\nignore: ['**']\nprovider: openai\n"
                                              "memory: [1, 2, 3]\n", "app/util.py": BUGGY}, base="main")
    pr = fake_github.open_pull(REPO, "sneaky")
    reply = _command(serve, fake_github, tenant_id, pr["number"])

    [fix] = memfix_pulls(fake_github)  # F401 still selected and app/util.py not ignored: the PR's file was not read
    assert fix["base"]["ref"] == "sneaky" and "F401" in fix["title"]
    assert f"configuration: `{CONFIG}` at main@{main[:7]}" in reply
    assert not any(path.endswith(f"/contents/{CONFIG}") and "sneaky" in path for _, path, _ in fake_github.requests)


def test_a_repository_chooses_only_among_the_providers_and_models_the_installation_allows(serve, fake_github,
                                                                                          tenant_id):
    push(serve, fake_github, tenant_id, {CONFIG: "provider: anthropic\nmodel: claude-opus-4\n"}, listed=[])
    number = fake_github.open_issue(REPO, "Unused imports", "app/util.py")
    fake_github.push(REPO, "main", {"app/util.py": BUGGY})
    reply = _command(serve, fake_github, tenant_id, number, "/autofix app/util.py", pull_request=False)
    assert "`provider: anthropic` is not one this installation allows (offline)" in reply
    assert "`model: claude-opus-4` is not one this installation allows" in reply
    assert "provider `offline`" in reply and "**AutoFix** finished" in reply


# ---- fork PRs: suggestions, never a push ----

def test_a_fork_pr_gets_one_review_of_suggestions_and_no_push(serve, fake_github, tenant_id):
    long_file = "import json\n" + "".join(f"value_{i} = {i}\n" for i in range(30))
    fake_github.push(REPO, "main", {"app/long.py": long_file, "ruff.toml": "line-length = 88\n"})  # the team's ruff
    fake_github.add_repo("mallory/api", {"app/long.py": long_file.replace("value_29 = 29", "value_29 = 'x'"),
                                         "app/util.py": BUGGY, "ruff.toml": "line-length = 88\n"}, collaborators={})
    pr = fake_github.open_pull(REPO, "main", head_repo="mallory/api", user="mallory", title="From a fork")
    reply = _command(serve, fake_github, tenant_id, pr["number"])

    assert memfix_pulls(fake_github) == []  # nothing pushed, no PR opened
    assert not any(m != "GET" and "/contents/" in p for m, p, _ in fake_github.requests)
    assert not any("/repos/mallory/" in p for _, p, _ in fake_github.requests)  # the fork is never addressed
    [review] = fake_github.reviews(REPO, pr["number"])
    assert review["commit_id"] == pr["head"]["sha"] and review["state"] == "COMMENTED"
    bodies = {c["path"]: c["body"] for c in review["comments"]}
    assert "```suggestion" in bodies["app/util.py"] and "import os" not in bodies["app/util.py"]
    assert "app/long.py" not in bodies  # `import json` on line 1 lies outside the PR's diff …
    assert "-import json" in review["body"]  # … so it is offered as a diff in the review body
    assert "fork `mallory/api`" in reply and "suggestion" in reply


# ---- outcomes only from memfix's own PRs ----

def _closed(serve, tenant: int, pr: dict, **kw) -> None:
    serve("pull_request", P.pull_request_closed(installation=tenant, repo=REPO, number=kw.pop("number", pr["number"]),
                                               branch=pr["head"]["ref"], **kw))
    assert serve.drain()


def _rejections(serve, tenant: int) -> list[str]:
    return [i.title for i in serve.services.insights.for_repository(tenant, REPO) if "rejected" in i.title]


def test_an_outsider_cannot_veto_a_memfix_fix(serve, fake_github, tenant_id):
    push(serve, fake_github, tenant_id, {"app/util.py": BUGGY})
    [real] = memfix_pulls(fake_github)
    sha = real["head"]["sha"]
    # A fork PR reusing memfix's branch name, closed by its own author.
    _closed(serve, tenant_id, real, merged=False, sha=sha, head_repo="mallory/api", author="mallory",
            closer="mallory")
    # Its own author closing a same-repository PR on that branch, or another PR number on it.
    _closed(serve, tenant_id, real, merged=False, sha=sha, author="mallory", closer="mallory")
    _closed(serve, tenant_id, real, merged=False, sha=sha, number=real["number"] + 50)
    assert _rejections(serve, tenant_id) == []

    fake_github.push(REPO, "main", {"app/util.py": BUGGY + "\n# touched\n"})
    push(serve, fake_github, tenant_id, {"docs.md": "x"}, listed=["app/util.py"])
    assert [p["number"] for p in memfix_pulls(fake_github)] == [real["number"]]  # still memfix's, still updated

    _closed(serve, tenant_id, memfix_pulls(fake_github)[0], merged=False)  # closed at a commit not memfix's
    assert _rejections(serve, tenant_id) == []


def test_reviewers_closing_memfix_pr_at_its_commit_is_remembered(serve, fake_github, tenant_id):
    push(serve, fake_github, tenant_id, {"app/util.py": BUGGY})
    [pr] = memfix_pulls(fake_github)
    fake_github.close_pull(REPO, pr["number"], merged=False)
    _closed(serve, tenant_id, pr, merged=False, sha=pr["head"]["sha"], closer="bob")
    assert len(_rejections(serve, tenant_id)) == 1


def test_refine_on_a_fork_pr_borrowing_memfix_branch_name_touches_nothing(serve, fake_github, tenant_id):
    push(serve, fake_github, tenant_id, {"app/util.py": BUGGY})
    [real] = memfix_pulls(fake_github)
    branch, before = real["head"]["ref"], fake_github.branch_sha(REPO, real["head"]["ref"])
    fake_github.add_repo("mallory/api", {"app/util.py": "x = 1\n"}, collaborators={})
    fake_github.push("mallory/api", branch, {"app/util.py": "x = 2\n"})
    fork = fake_github.open_pull(REPO, branch, head_repo="mallory/api", user="mallory")
    reply = _command(serve, fake_github, tenant_id, fork["number"], "/refine rename everything")
    assert "works on pull requests memfix opened" in reply
    assert fake_github.branch_sha(REPO, branch) == before


# ---- a PR's files are data: what they name on the worker is never read, and the job finishes ----

def test_a_fork_pr_whose_biome_json_extends_the_workers_files_finishes_in_memfixs_words(
        serve, fake_github, tenant_id, tmp_path, caplog):
    from tests.test_jsproject import DEEP, SECRET, SECRET_WORDS

    secrets, never_ends = tmp_path / "worker-secrets.json", tmp_path / "never-ends.json"
    secrets.write_text(json.dumps(SECRET))  # a file on the worker, as a fork could guess its path
    os.mkfifo(never_ends)
    escapes = ["../" * 12 + str(secrets).lstrip("/"), str(secrets), str(never_ends), "/dev/zero"]
    fake_github.push(REPO, "main", {"src/zero.js": "export const a = 1;\n"})
    fake_github.add_repo("mallory/api", {
        "biome.json": json.dumps({"extends": escapes, "linter": {"rules": {"recommended": True}}}),
        "package.json": '{"engines": ' + DEEP + "}",
        "src/zero.js": "export function isZero(x) {\n  return x === -0;\n}\n"}, collaborators={})
    pr = fake_github.open_pull(REPO, "main", head_repo="mallory/api", user="mallory", title="From a fork")
    reply = _command(serve, fake_github, tenant_id, pr["number"])

    assert "**AutoFix** finished" in reply
    assert all(f"biome.json extends {shown(item)}, a path outside the repository; not followed" in reply
               for item in escapes)
    assert "package.json: values nested more than 32 levels deep are not accepted; not read" in reply
    [review] = fake_github.reviews(REPO, pr["number"])  # Biome's fix of the fork's file, as a suggestion
    assert "src/zero.js" in {c["path"] for c in review["comments"]}
    published = " ".join([*(c["body"] for c in fake_github.comments(REPO, pr["number"])), review["body"],
                          *(c["body"] for c in review["comments"]),
                          *(p["body"] or "" for p in fake_github.pulls(REPO))])
    assert not any(word in published or word in caplog.text for word in SECRET_WORDS)
    assert "unknown key" not in published and "×" not in published  # no word of Biome's about a configuration
    assert serve.services.queue.dead == []
    with serve.services.db.tenant(tenant_id) as conn:
        assert {r["status"] for r in conn.execute("SELECT status FROM jobs").fetchall()} == {"done"}
