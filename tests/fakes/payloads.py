"""Real webhook payloads (vendored @octokit/webhooks-examples), signed and adjusted for a test."""

from __future__ import annotations

import copy
import hashlib
import hmac
import json
import uuid
import zlib
from functools import lru_cache
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parent.parent / "fixtures" / "webhooks-examples" / "index.json"
SECRET = "test-webhook-secret"


@lru_cache(maxsize=1)
def _index() -> list[dict]:
    return json.loads(EXAMPLES.read_text(encoding="utf-8"))


def all_examples() -> list[tuple[str, int, dict]]:
    """(event name, index, payload) for every vendored example."""
    return [(e["name"], i, x) for e in _index() for i, x in enumerate(e["examples"])]


def example(event: str, action: str | None = None) -> dict:
    for x in next(e for e in _index() if e["name"] == event)["examples"]:
        if action is None or x.get("action") == action:
            return copy.deepcopy(x)
    raise LookupError(f"no {event}/{action} example")


def sign(body: bytes, secret: str = SECRET) -> str:
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def headers(event: str, body: bytes, *, delivery: str | None = None, secret: str | None = SECRET) -> dict:
    h = {"X-GitHub-Event": event, "X-GitHub-Delivery": delivery or str(uuid.uuid4()),
         "Content-Type": "application/json"}
    if secret is not None:
        h["X-Hub-Signature-256"] = sign(body, secret)
    return h


def encode(payload: dict) -> bytes:
    return json.dumps(payload).encode()


def repo_id(repo: str) -> int:
    """A repository's GitHub id in these payloads: one per name, as on GitHub (the examples share one)."""
    return 100_000 + zlib.crc32(repo.encode()) % 900_000_000


def _place(p: dict, *, installation: int, repo: str) -> dict:
    p["installation"] = {"id": installation, "node_id": "x"}
    owner, name = repo.split("/")
    p["repository"].update(full_name=repo, name=name, id=repo_id(repo))
    p["repository"]["owner"]["login"] = owner
    return p


def issue_comment(body: str, *, installation: int, repo: str, number: int = 1, login: str = "alice",
                  association: str = "COLLABORATOR", comment_id: int = 1001, pull_request: bool = True,
                  user_type: str = "User") -> dict:
    p = _place(example("issue_comment", "created"), installation=installation, repo=repo)
    p["comment"].update(body=body, id=comment_id, author_association=association)
    p["comment"]["user"].update(login=login, type=user_type)
    p["sender"].update(login=login, type=user_type)
    p["issue"]["number"] = number
    if pull_request:
        p["issue"]["pull_request"] = {"url": f"https://api.github.com/repos/{repo}/pulls/{number}"}
    else:
        p["issue"].pop("pull_request", None)
    return p


def installation(action: str, *, installation: int, repos: list[tuple[int, str]]) -> dict:
    p = example("installation", action)
    p["installation"]["id"] = installation
    p["repositories"] = [{"id": i, "full_name": n, "name": n.split("/")[1], "private": False} for i, n in repos]
    return p


def push(*, installation: int, repo: str, commits: list[dict], ref: str = "refs/heads/main",
         pusher: str = "alice", after: str = "a" * 40, before: str | None = None) -> dict:
    p = _place(example("push"), installation=installation, repo=repo)
    p["repository"]["default_branch"] = "main"
    p.update(ref=ref, after=after, deleted=False, commits=commits)
    if before is not None:
        p["before"] = before
    p["pusher"] = {"name": pusher, "email": f"{pusher}@example.com"}
    p["sender"]["login"] = pusher
    return p


def pull_request_closed(*, installation: int, repo: str, number: int, branch: str, merged: bool,
                        sha: str = "b" * 40, closer: str = "bob", head_repo: str | None = None,
                        author: str = "memfix[bot]") -> dict:
    p = _place(example("pull_request", "closed"), installation=installation, repo=repo)
    p["number"] = number
    p["pull_request"].update(number=number, merged=merged)
    p["pull_request"]["head"].update(ref=branch, sha=sha)
    p["pull_request"]["head"]["repo"]["full_name"] = head_repo or repo
    p["pull_request"]["user"]["login"] = author
    p["sender"]["login"] = closer
    return p


def line_comment(comment: dict, *, installation: int, repo: str, number: int, branch: str,
                 sha: str = "b" * 40) -> dict:
    """A person's comment on a line of a pull request's diff (as the fake GitHub made it) is delivered."""
    p = _place(example("pull_request_review_comment", "created"), installation=installation, repo=repo)
    p["comment"].update(copy.deepcopy(comment))
    p["pull_request"]["number"] = number
    p["pull_request"]["head"].update(ref=branch, sha=sha)
    p["sender"].update(login=comment["user"]["login"], type=comment["user"]["type"])
    return p


def issue_labelled(*, installation: int, repo: str, number: int, title: str, body: str, label: str = "memfix",
                   login: str = "alice") -> dict:
    p = _place(example("issues", "labeled"), installation=installation, repo=repo)
    p["issue"].update(number=number, title=title, body=body)
    p["label"]["name"] = label
    p["sender"]["login"] = login
    return p


def _ci_sender(p: dict, sender: str) -> None:
    p["sender"]["login"] = sender
    p["sender"]["type"] = "Bot" if sender.endswith("[bot]") else "User"


def check_suite_completed(*, installation: int, repo: str, head_sha: str, head_branch: str,
                          conclusion: str = "success", app_slug: str = "github-actions",
                          sender: str = "memfix[bot]", suite_id: int | None = None) -> dict:
    """A CI App's check suite finished on a commit (the sender of CI on memfix's push is memfix's bot)."""
    p = _place(example("check_suite", "completed"), installation=installation, repo=repo)
    p["check_suite"].update(head_sha=head_sha, head_branch=head_branch, conclusion=conclusion, status="completed",
                            id=suite_id or int(head_sha[:8], 16) % 10**9)
    p["check_suite"]["app"]["slug"] = app_slug
    _ci_sender(p, sender)
    return p


def check_run_completed(*, installation: int, repo: str, head_sha: str, head_branch: str, name: str = "tests",
                        conclusion: str = "success", app_slug: str = "github-actions", sender: str = "memfix[bot]",
                        run_id: int = 4001) -> dict:
    p = _place(example("check_run", "completed"), installation=installation, repo=repo)
    p["check_run"].update(head_sha=head_sha, name=name, conclusion=conclusion, status="completed", id=run_id)
    p["check_run"]["check_suite"].update(head_branch=head_branch, head_sha=head_sha)
    p["check_run"]["app"]["slug"] = app_slug
    _ci_sender(p, sender)
    return p


def workflow_run_completed(*, installation: int, repo: str, head_sha: str, head_branch: str,
                           conclusion: str = "success", name: str = "CI", sender: str = "memfix[bot]",
                           run_id: int = 5001) -> dict:
    p = _place(example("workflow_run", "completed"), installation=installation, repo=repo)
    p["workflow_run"].update(head_sha=head_sha, head_branch=head_branch, conclusion=conclusion,
                             status="completed", name=name, id=run_id)
    _ci_sender(p, sender)
    return p


def status_event(*, installation: int, repo: str, sha: str, branches: list[str], state: str = "success",
                 context: str = "ci/jenkins", sender: str = "jenkins", status_id: int = 6001) -> dict:
    p = _place(example("status"), installation=installation, repo=repo)
    p.update(sha=sha, state=state, context=context, id=status_id,
             branches=[{"name": b, "commit": {"sha": sha}} for b in branches])
    _ci_sender(p, sender)
    return p
