"""A stateful fake of GitHub's REST API, served over real HTTP on 127.0.0.1 (use its .url as GITHUB_API_URL).

It models what memfix touches: App JWT → installation tokens, repositories whose branches point at commits
(each commit a full path → content snapshot), contents, refs, pull requests, issues, comments, review comments on
lines and their threads, reactions, check runs, commit comments and collaborator permissions. Tests read state
through the helper methods.
"""

from __future__ import annotations

import base64
import copy
import difflib
import hashlib
import html
import io
import itertools
import json
import re
import secrets
import tarfile
import threading
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from flask import Flask, Response, g, jsonify, redirect, request
from werkzeug.exceptions import HTTPException

from core.settings import Settings
from tests.fakes.http import FakeServer

REACTIONS = {"+1", "-1", "laugh", "confused", "heart", "hooray", "rocket", "eyes"}


# ---- reusable fixtures (plain functions; tests/conftest.py wires them) ----


@dataclass(frozen=True)
class AppKey:
    """An RSA key pair for a GitHub App, as PEM text."""

    private_pem: str = field(repr=False)
    public_pem: str


def generate_app_key() -> AppKey:
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    private = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    public = key.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    return AppKey(private.decode(), public.decode())


def fake_github_settings(fake: FakeGitHub, base: Settings | None = None, **overrides: Any) -> Settings:
    """Settings that point memfix at `fake`, with retry waits short enough for tests."""
    defaults = {
        "github_app_id": str(fake.app_id),
        "github_app_private_key": fake.private_key_pem,
        "github_api_url": fake.url,
        "github_retry_base_seconds": 0.01,
        "github_max_wait_seconds": 5.0,
    }
    return (base or Settings()).with_(**{**defaults, **overrides})


# ---- state ----


class ApiError(Exception):
    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status, self.message = status, message


@dataclass
class Repo:
    full_name: str
    id: int
    default_branch: str
    collaborators: dict[str, str]
    commits: dict[str, dict[str, str]] = field(default_factory=dict)  # sha → path → content
    branches: dict[str, str] = field(default_factory=dict)  # name → head commit sha
    issues: dict[int, dict] = field(default_factory=dict)  # number → issue or pull request
    comments: dict[int, dict] = field(default_factory=dict)  # id → issue comment
    review_comments: dict[int, dict] = field(default_factory=dict)  # id → comment on a line of a PR's diff
    reactions: dict[int, list[dict]] = field(default_factory=dict)  # comment id → reactions
    check_runs: dict[int, dict] = field(default_factory=dict)
    commit_comments: list[dict] = field(default_factory=list)
    reviews: dict[int, list[dict]] = field(default_factory=dict)  # pull number → reviews
    statuses: list[dict] = field(default_factory=list)  # commit statuses, oldest first
    annotations: dict[int, list[dict]] = field(default_factory=dict)  # check run id → annotations
    reruns: list[int] = field(default_factory=list)  # check run ids someone asked to run again
    actions_write: bool = True  # False: the installation did not grant the App `actions: write`
    drafts: bool = True  # False: the plan has no draft PRs (GitHub answers 422)
    next_number: int = 1  # issues and pull requests share one counter, like GitHub

    @property
    def owner(self) -> str:
        return self.full_name.split("/")[0]


@dataclass
class Fault:
    method: str
    path: re.Pattern
    status: int
    headers: dict[str, str]
    body: Any
    times: int


@dataclass
class Hold:
    """Matching requests wait, before GitHub acts on them, until the test calls `release()` (or `limit` seconds pass,
    so a forgotten hold never blocks for ever). `arrived` is set when the first one is being held, `answered` when
    GitHub has acted on the last one and answered it — whether or not whoever asked is still there."""

    method: str
    path: re.Pattern
    times: int
    limit: float
    arrived: threading.Event = field(default_factory=threading.Event)
    released: threading.Event = field(default_factory=threading.Event)
    answered: threading.Event = field(default_factory=threading.Event)
    holding: int = 0
    lost: bool = False

    def release(self) -> None:
        self.released.set()

    def lose(self) -> None:
        """Let the held requests go without GitHub acting on them: lost on the way, as a request cut off is."""
        self.lost = True
        self.released.set()


DEFAULT_COLLABORATORS = {"alice": "write", "octocat": "admin"}


def _blob_sha(content: str) -> str:
    data = content.encode()
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def _now() -> datetime:
    return datetime.now(UTC)


def _iso(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


class FakeGitHub(FakeServer):
    """GitHub's REST API over HTTP. `with FakeGitHub() as gh:` starts it; `gh.url` is the API base URL."""
    name = "fake-github"

    def __init__(self, *, app_id: int = 4242, app_key: AppKey | None = None, bot_login: str = "memfix[bot]",
                 prefix: str = "", web_url: str = "https://github.com"):
        """`prefix="/api/v3"` and a `web_url` make it look like GitHub Enterprise Server."""
        self.prefix, self.web_url = prefix.rstrip("/"), web_url.rstrip("/")
        self.app_id = app_id
        self.app_key = app_key or generate_app_key()
        self.bot_login = bot_login
        self.token_lifetime = timedelta(hours=1)  # applies to tokens issued from now on
        self.requests: list[tuple[str, str, int]] = []
        self.issued_tokens: list[str] = []
        self.ready_marked: list[tuple[str, int]] = []  # (repo, number) each time a draft was marked ready
        # People and the App's web pages: OAuth sign-in and registration from a manifest
        self.installations: dict[int, list[str]] = {}  # installation id → its repositories
        self.signed_in_as = "alice"  # who the browser is signed in to the fake github.com as
        self.client_id, self.client_secret = "Iv1.fakeclient", "fake-client-secret"
        self._oauth_codes: dict[str, tuple[str, str]] = {}  # code → (login, redirect_uri)
        self._user_tokens: dict[str, str] = {}  # ghu_ token → login
        self._manifest_codes: dict[str, tuple[dict, datetime]] = {}  # code → (manifest, expiry)
        self.apps_created: list[dict] = []
        self._holds: list[Hold] = []  # requests kept waiting until a fault test releases them
        self._tokens: dict[str, tuple[int, datetime]] = {}  # token → (installation id, expiry)
        self._repos: dict[str, Repo] = {}
        self._faults: list[Fault] = []
        self.archives: dict[str, bytes] = {}  # repository → what its archive host answers instead of a tarball
        self._ids = itertools.count(1001)
        self._shas = itertools.count(1)
        self._lock = threading.RLock()
        self._changed = threading.Condition(self._lock)  # notified as each request is answered: `wait_for`
        self.app = _Prefixed(self._build_app(), self.prefix) if self.prefix else self._build_app()

    @property
    def url(self) -> str:
        return super().url + self.prefix


    @property
    def private_key_pem(self) -> str:
        return self.app_key.private_pem

    # ---- arranging state ----

    def add_repo(
        self,
        full_name: str,
        files: dict[str, str] | None = None,
        default_branch: str = "main",
        collaborators: dict[str, str] | None = None,
        drafts: bool = True,
    ) -> str:
        """Create a repository with one commit on `default_branch`; returns that commit's sha. By default the
        payloads' usual people may write: alice (write) and octocat (admin); everyone else has no access."""
        with self._lock:
            people = DEFAULT_COLLABORATORS if collaborators is None else collaborators
            repo = Repo(full_name, next(self._ids), default_branch, dict(people), drafts=drafts)
            self._repos[full_name] = repo
            sha = self._commit(repo, dict(files or {}))
            repo.branches[default_branch] = sha
            return sha

    def push(self, repo: str, branch: str, files: dict[str, str | None], *, base: str | None = None) -> str:
        """A human pushes: apply `files` (None deletes) on `branch`, created from `base` if new."""
        with self._lock:
            r = self._repo(repo)
            start = r.branches.get(branch) or r.branches[base or r.default_branch]
            snapshot = {**r.commits[start], **files}
            r.branches[branch] = self._commit(r, {p: c for p, c in snapshot.items() if c is not None})
            return r.branches[branch]

    def open_pull(
        self,
        repo: str,
        head: str,
        base: str | None = None,
        *,
        title: str = "Change",
        body: str = "",
        user: str = "octocat",
        head_repo: str | None = None,
    ) -> dict:
        """A human opens a pull request from an existing branch, of this repository or of `head_repo` (a fork)."""
        with self._lock:
            r = self._repo(repo)
            pr = self._new_pull(r, title, body, head, base or r.default_branch, user, head_repo)
            return self._render_pull(r, pr)

    def open_issue(self, repo: str, title: str, body: str = "", user: str = "octocat") -> int:
        with self._lock:
            r = self._repo(repo)
            number = self._next_number(r)
            r.issues[number] = {
                "number": number,
                "title": title,
                "body": body,
                "state": "open",
                "user": self._user(user),
                "is_pull": False,
            }
            return number

    def add_comment(self, repo: str, number: int, body: str, user: str = "octocat") -> dict:
        """A human comments on an issue or pull request."""
        with self._lock:
            return copy.deepcopy(self._new_comment(self._repo(repo), number, body, user))

    def add_review(self, repo: str, number: int, body: str, state: str = "APPROVED", user: str = "octocat") -> dict:
        """A human submits a review on a pull request."""
        with self._lock:
            r = self._repo(repo)
            review = {"id": next(self._ids), "body": body, "state": state, "user": self._user(user),
                      "html_url": self._html(r, f"pull/{number}#pullrequestreview-x")}
            r.reviews.setdefault(number, []).append(review)
            return copy.deepcopy(review)

    def add_review_comment(self, repo: str, number: int, body: str, *, path: str, line: int, side: str = "RIGHT",
                           user: str = "alice") -> dict:
        """A human comments on one line of a pull request's diff (RIGHT: the line as changed, LEFT: as it was);
        the comment carries its `diff_hunk`, which ends at that line, as GitHub's does."""
        with self._lock:
            r = self._repo(repo)
            pr = self._pull(r, number)
            patch = next((f["patch"] for f in self._diff(r, pr) if f["filename"] == path), "")
            hunk = _hunk_to(patch, line, side)
            if hunk is None:
                raise ApiError(422, "Unprocessable Entity: pull_request_review_thread.line could not be resolved")
            cid, now = next(self._ids), _iso(_now())
            r.review_comments[cid] = {
                "id": cid, "number": number, "pull_request_review_id": next(self._ids), "diff_hunk": hunk,
                "path": path, "line": line, "original_line": line, "side": side, "start_line": None,
                "subject_type": "line", "commit_id": self._head_sha(r, pr), "in_reply_to_id": None, "body": body,
                "user": self._user(user),
                "author_association": "COLLABORATOR" if user in r.collaborators else "NONE",
                "html_url": self._html(r, f"pull/{number}#discussion_r{cid}"),
                "url": self._api(r, f"pulls/comments/{cid}"), "pull_request_url": self._api(r, f"pulls/{number}"),
                "created_at": now, "updated_at": now,
            }
            return _public(r.review_comments[cid])

    def close_pull(self, repo: str, number: int, merged: bool) -> None:
        """A human merges (head's changes land on base) or closes a pull request."""
        with self._lock:
            r = self._repo(repo)
            pr = self._pull(r, number)
            if merged:
                changes = {
                    f["filename"]: r.commits[self._head_sha(r, pr)].get(f["filename"])
                    for f in self._diff(r, pr)
                }
                pr["merge_commit_sha"] = self.push(repo, pr["base_ref"], changes)
                pr["merged_at"] = _iso(_now())
            pr.update(state="closed", merged=merged, head_sha=self._head_sha(r, pr), closed_at=_iso(_now()))

    def add_check_run(self, repo: str, sha: str, name: str, *, status: str = "completed",
                      conclusion: str | None = "success", app: str = "github-actions", title: str = "",
                      summary: str = "", annotations: list[dict] | None = None) -> dict:
        """A CI system (another App) reports a check run on a commit."""
        with self._lock:
            r = self._repo(repo)
            rid = next(self._ids)
            r.check_runs[rid] = {
                "id": rid, "name": name, "head_sha": sha, "status": status,
                "conclusion": conclusion if status == "completed" else None,
                "output": {"title": title, "summary": summary, "annotations_count": len(annotations or [])},
                "app": {"slug": app}, "details_url": f"https://ci.example/{rid}",
                "html_url": self._html(r, f"runs/{rid}"), "url": self._api(r, f"check-runs/{rid}"),
            }
            r.annotations[rid] = list(annotations or [])
            return copy.deepcopy(r.check_runs[rid])

    def set_status(self, repo: str, sha: str, context: str, state: str, *, description: str = "",
                   target_url: str = "") -> dict:
        """A CI system posts a commit status; the latest per context is what the combined status shows."""
        with self._lock:
            r = self._repo(repo)
            status = {"id": next(self._ids), "sha": sha, "context": context, "state": state,
                      "description": description, "target_url": target_url}
            r.statuses.append(status)
            return dict(status)

    def add_installation(self, installation_id: int, repos: list[str]) -> None:
        """The App is installed on these repositories (created if new) under this installation id."""
        with self._lock:
            for name in repos:
                if name not in self._repos:
                    self.add_repo(name, {"README.md": "# x\n"})
            self.installations[installation_id] = list(repos)

    def withhold_actions_write(self, repo: str) -> None:
        """The installation has not granted the App `actions: write`: GitHub refuses its re-runs of Actions jobs."""
        with self._lock:
            self._repo(repo).actions_write = False

    def expire_manifest_codes(self) -> None:
        with self._lock:
            self._manifest_codes = {c: (m, _now() - timedelta(seconds=1)) for c, (m, _) in self._manifest_codes.items()}

    def pull(self, repo: str, number: int) -> dict:
        with self._lock:
            r = self._repo(repo)
            return self._render_pull(r, self._pull(r, number))

    def fail_next(
        self,
        method: str,
        path_regex: str,
        status: int,
        *,
        headers: dict[str, str] | None = None,
        body: Any = None,
        times: int = 1,
    ) -> None:
        """The next `times` requests whose path fully matches `path_regex` get this answer instead."""
        with self._lock:
            self._faults.append(
                Fault(
                    method.upper(),
                    re.compile(path_regex),
                    status,
                    dict(headers or {}),
                    body if body is not None else {"message": f"injected {status}"},
                    times,
                )
            )

    def hold_next(self, method: str, path_regex: str, *, times: int = 1, limit: float = 120.0) -> Hold:
        """The next `times` requests whose path fully matches `path_regex` wait before GitHub acts on them, until
        the returned Hold is released (the rest of the fake goes on meanwhile)."""
        hold = Hold(method.upper(), re.compile(path_regex), times, limit)
        with self._lock:
            self._holds.append(hold)
        return hold

    def wait_for(self, condition: Callable[[], Any], timeout: float = 60.0, what: str = "") -> None:
        """Until `condition()` (asked again as each request is answered) is true; an AssertionError after `timeout`."""
        with self._changed:
            if not self._changed.wait_for(condition, timeout):
                raise AssertionError(f"timed out waiting for {what or condition}")

    def _hold(self) -> Response | None:
        with self._lock:
            hold = next((h for h in self._holds if h.times > 0 and h.method == request.method
                         and h.path.fullmatch(request.path)), None)
            if hold is None:
                return None
            hold.times -= 1
            hold.holding += 1
            g.hold = hold
            hold.arrived.set()
        hold.released.wait(hold.limit)  # outside the lock: other requests are served meanwhile
        if hold.lost:
            return _error(502, "the request was lost on the way")
        return None

    def _answered(self, _exc: BaseException | None) -> None:
        hold = g.pop("hold", None)
        with self._lock:
            if hold is not None:
                hold.holding -= 1
                if hold.times == 0 and hold.holding == 0:
                    hold.answered.set()
            self._changed.notify_all()

    def stop(self) -> None:
        with self._lock:
            for hold in self._holds:  # no thread of this server waits on a test that has ended
                hold.release()
        super().stop()

    def revoke_tokens(self) -> None:
        with self._lock:
            self._tokens.clear()

    # ---- reading state ----

    @property
    def tokens_issued(self) -> int:
        return len(self.issued_tokens)

    def file(self, repo: str, branch: str, path: str) -> str | None:
        with self._lock:
            r = self._repo(repo)
            return r.commits[r.branches[branch]].get(path)

    def branch_sha(self, repo: str, branch: str) -> str | None:
        with self._lock:
            return self._repo(repo).branches.get(branch)

    def pulls(self, repo: str) -> list[dict]:
        with self._lock:
            r = self._repo(repo)
            return [self._render_pull(r, i) for i in r.issues.values() if i["is_pull"]]

    def comments(self, repo: str, number: int) -> list[dict]:
        with self._lock:
            return [copy.deepcopy(c) for c in self._repo(repo).comments.values() if c["number"] == number]

    def review_comments(self, repo: str, number: int) -> list[dict]:
        """A pull request's comments on lines, replies included (`in_reply_to_id` names the thread's first)."""
        with self._lock:
            return [_public(c) for c in self._repo(repo).review_comments.values() if c["number"] == number]

    def reactions(self, repo: str, comment_id: int) -> list[dict]:
        with self._lock:
            return copy.deepcopy(self._repo(repo).reactions.get(comment_id, []))

    def reviews(self, repo: str, number: int) -> list[dict]:
        with self._lock:
            return copy.deepcopy(self._repo(repo).reviews.get(number, []))

    def reruns(self, repo: str) -> list[int]:
        """The check run ids someone (memfix) asked to run again, in order."""
        with self._lock:
            return list(self._repo(repo).reruns)

    def check_runs(self, repo: str) -> list[dict]:
        with self._lock:
            return copy.deepcopy(list(self._repo(repo).check_runs.values()))

    def commit_comments(self, repo: str) -> list[dict]:
        with self._lock:
            return copy.deepcopy(self._repo(repo).commit_comments)

    # ---- model ----

    def _repo(self, full_name: str) -> Repo:
        if full_name not in self._repos:
            raise ApiError(404, "Not Found")
        return self._repos[full_name]

    def _commit(self, repo: Repo, files: dict[str, str]) -> str:
        sha = hashlib.sha1(f"{repo.full_name}:{next(self._shas)}".encode()).hexdigest()
        repo.commits[sha] = files
        return sha

    def _resolve(self, repo: Repo, ref: str | None) -> str:
        ref = (ref or repo.default_branch).removeprefix("refs/heads/")
        if ref in repo.branches:
            return repo.branches[ref]
        if ref in repo.commits:
            return ref
        raise ApiError(404, f"No commit found for the ref {ref}")

    def _next_number(self, repo: Repo) -> int:
        repo.next_number += 1
        return repo.next_number - 1

    def _user(self, login: str) -> dict:
        uid = int(hashlib.sha1(login.encode()).hexdigest()[:7], 16)
        return {"login": login, "id": uid, "type": "Bot" if login.endswith("[bot]") else "User"}

    def _html(self, repo: Repo, tail: str) -> str:
        return f"{self.web_url}/{repo.full_name}/{tail}"

    def _api(self, repo: Repo, tail: str) -> str:
        return f"{self.url}/repos/{repo.full_name}/{tail}"

    def _new_pull(self, repo: Repo, title: str, body: str, head: str, base: str, user: str,
                  head_repo: str | None = None, draft: bool = False) -> dict:
        head = head.split(":", 1)[-1]
        source = self._repo(head_repo) if head_repo else repo
        if head not in source.branches or base not in repo.branches:
            raise ApiError(422, "Validation Failed: head or base branch does not exist")
        if any(
            i["is_pull"] and i["state"] == "open" and i["head_ref"] == head and i["base_ref"] == base
            and i.get("head_repo", repo.full_name) == source.full_name
            for i in repo.issues.values()
        ):
            raise ApiError(422, f"A pull request already exists for {repo.owner}:{head}.")
        number = self._next_number(repo)
        repo.issues[number] = {
            "id": next(self._ids),
            "number": number,
            "title": title,
            "body": body,
            "state": "open",
            "user": self._user(user),
            "is_pull": True,
            "head_ref": head,
            "head_repo": source.full_name,
            "base_ref": base,
            "base_sha": repo.branches[base],
            "head_sha": None,
            "merged": False,
            "merged_at": None,
            "merge_commit_sha": None,
            "closed_at": None,
            "draft": draft,
            "node_id": f"PR_kw{next(self._ids)}",
        }
        return repo.issues[number]

    def _head_sha(self, repo: Repo, pr: dict) -> str:
        # an open pull request follows its branch; a closed one keeps the sha it was closed at
        if pr["head_sha"]:
            return pr["head_sha"]
        source = self._repo(pr.get("head_repo") or repo.full_name)
        sha = source.branches[pr["head_ref"]]
        repo.commits.setdefault(sha, source.commits[sha])  # like refs/pull/N/head: a fork's commit is here too
        return sha

    def _diff(self, repo: Repo, pr: dict) -> list[dict]:
        before, after = repo.commits[pr["base_sha"]], repo.commits[self._head_sha(repo, pr)]
        out = []
        for path in sorted(before.keys() | after.keys()):
            if before.get(path) == after.get(path):
                continue
            status = "added" if path not in before else "removed" if path not in after else "modified"
            patch = "\n".join(difflib.unified_diff(before.get(path, "").splitlines(),
                                                   after.get(path, "").splitlines(), lineterm="", n=3))
            out.append({"sha": _blob_sha(after.get(path, "")), "filename": path, "status": status,
                        "patch": patch.split("\n", 2)[2] if patch.count("\n") >= 2 else ""})
        return out

    def _render_pull(self, repo: Repo, pr: dict) -> dict:
        ref = {"repo": {"full_name": repo.full_name, "id": repo.id}}
        source = self._repo(pr.get("head_repo") or repo.full_name)
        public = {
            k: v
            for k, v in pr.items()
            if k not in ("is_pull", "head_ref", "head_repo", "base_ref", "base_sha", "head_sha")
        }
        return copy.deepcopy(
            {
                **public,
                "html_url": self._html(repo, f"pull/{pr['number']}"),
                "url": self._api(repo, f"pulls/{pr['number']}"),
                "head": {
                    "ref": pr["head_ref"],
                    "sha": self._head_sha(repo, pr),
                    "label": f"{source.owner}:{pr['head_ref']}",
                    "repo": {"full_name": source.full_name, "id": source.id, "fork": source is not repo},
                },
                "base": {
                    "ref": pr["base_ref"],
                    "sha": repo.branches[pr["base_ref"]],
                    "label": f"{repo.owner}:{pr['base_ref']}",
                    **ref,
                },
            }
        )

    def _new_comment(self, repo: Repo, number: int, body: str, user: str) -> dict:
        if number not in repo.issues:
            raise ApiError(404, "Not Found")
        cid = next(self._ids)
        now = _iso(_now())
        repo.comments[cid] = {
            "id": cid,
            "number": number,
            "body": body,
            "user": self._user(user),
            "author_association": "COLLABORATOR" if user in repo.collaborators else "NONE",
            "html_url": self._html(repo, f"issues/{number}#issuecomment-{cid}"),
            "url": self._api(repo, f"issues/comments/{cid}"),
            "issue_url": self._api(repo, f"issues/{number}"),
            "created_at": now,
            "updated_at": now,
        }
        return repo.comments[cid]

    # ---- HTTP ----

    def _build_app(self) -> Flask:
        app = Flask("fake_github")
        for methods, rule, handler in self._routes():
            app.add_url_rule(rule, f"{handler.__name__}:{rule}", self._locked(handler), methods=methods)
        app.before_request(self._hold)
        app.before_request(self._before)
        app.after_request(self._after)
        app.teardown_request(self._answered)
        app.register_error_handler(
            HTTPException,
            lambda e: _error(e.code or 500, "Not Found" if e.code == 404 else e.description or "Error"),
        )
        app.register_error_handler(ApiError, lambda e: _error(e.status, e.message))
        return app

    def _routes(self) -> list[tuple[list[str], str, Callable]]:
        repo = "/repos/<owner>/<name>"
        return [
            (["POST"], "/app/installations/<int:installation_id>/access_tokens", self._create_token),
            (["GET"], repo, self._get_repo),
            (["GET"], f"{repo}/contents/<path:path>", self._get_contents),
            (["PUT"], f"{repo}/contents/<path:path>", self._put_contents),
            (["GET"], f"{repo}/git/ref/heads/<path:branch>", self._get_ref),
            (["GET"], f"{repo}/git/trees/<ref>", self._get_tree),
            (["GET"], f"{repo}/tarball/<ref>", self._get_tarball),
            (["GET"], f"{repo}/compare/<path:basehead>", self._compare),
            (["POST"], f"{repo}/git/refs", self._create_ref),
            (["PATCH"], f"{repo}/git/refs/heads/<path:branch>", self._update_ref),
            (["GET"], f"{repo}/pulls", self._list_pulls),
            (["POST"], f"{repo}/pulls", self._create_pull),
            (["GET"], f"{repo}/pulls/<int:number>", self._get_pull),
            (["PATCH"], f"{repo}/pulls/<int:number>", self._update_pull),
            (["GET"], f"{repo}/pulls/<int:number>/files", self._list_pull_files),
            (["GET"], f"{repo}/pulls/<int:number>/reviews", self._list_reviews),
            (["POST"], f"{repo}/pulls/<int:number>/reviews", self._create_review),
            (["POST"], f"{repo}/pulls/<int:number>/comments/<int:comment_id>/replies", self._reply_in_thread),
            (["GET"], f"{repo}/pulls/<int:number>/comments", self._list_review_comments),
            (["GET"], f"{repo}/issues/<int:number>/comments", self._list_comments),
            (["POST"], f"{repo}/issues/<int:number>/comments", self._create_comment),
            (["PATCH"], f"{repo}/issues/comments/<int:comment_id>", self._edit_comment),
            (["POST"], f"{repo}/issues/comments/<int:comment_id>/reactions", self._create_reaction),
            (["GET"], f"{repo}/collaborators/<user>/permission", self._permission),
            (["POST"], f"{repo}/check-runs", self._create_check_run),
            (["PATCH"], f"{repo}/check-runs/<int:run_id>", self._update_check_run),
            (["POST"], f"{repo}/commits/<sha>/comments", self._create_commit_comment),
            (["GET"], f"{repo}/commits/<ref>/check-runs", self._commit_check_runs),
            (["GET"], f"{repo}/commits/<ref>/status", self._combined_status),
            (["GET"], f"{repo}/check-runs/<int:run_id>/annotations", self._check_annotations),
            (["POST"], f"{repo}/check-runs/<int:run_id>/rerequest", self._rerequest_check_run),
            (["POST"], f"{repo}/actions/jobs/<int:run_id>/rerun", self._rerun_job),
            (["POST"], "/graphql", self._graphql),
            (["GET"], "/login/oauth/authorize", self._oauth_authorize),
            (["POST"], "/login/oauth/authorize", self._oauth_approve),
            (["POST"], "/login/oauth/access_token", self._oauth_token),
            (["GET"], "/user", self._user_self),
            (["GET"], "/user/installations", self._user_installations),
            (["GET"], "/user/installations/<int:installation_id>/repositories", self._user_repositories),
            (["POST"], "/settings/apps/new", self._new_app_page),
            (["POST"], "/organizations/<org>/settings/apps/new", self._new_app_page),
            (["POST"], "/settings/apps/new/confirm", self._new_app_confirm),
            (["POST"], "/app-manifests/<code>/conversions", self._convert_manifest),
        ]

    def _locked(self, handler: Callable) -> Callable:
        def view(**kwargs: Any) -> Any:
            with self._lock:
                if "owner" in kwargs:
                    kwargs["repo"] = self._repo(f"{kwargs.pop('owner')}/{kwargs.pop('name')}")
                return handler(**kwargs)

        view.__name__ = handler.__name__
        return view

    def _before(self) -> Response | None:
        with self._lock:
            for fault in self._faults:
                if fault.times > 0 and fault.method == request.method and fault.path.fullmatch(request.path):
                    fault.times -= 1
                    response = jsonify(fault.body)
                    response.status_code = fault.status
                    response.headers.update(fault.headers)
                    return response
            scheme, _, credential = request.headers.get("Authorization", "").partition(" ")
            if request.path.startswith(("/login/", "/settings/", "/organizations/", "/app-manifests/")):
                return None  # web pages and code exchanges: no token (the browser, or a code, is the credential)
            if request.path == "/user" or request.path.startswith("/user/"):
                return None if credential in self._user_tokens else _error(401, "Bad credentials")
            if request.path.startswith("/app/"):  # App endpoints take the App's JWT, not a token
                valid = self._valid_jwt(scheme, credential)
                return None if valid else _error(401, "A JSON web token could not be decoded")
            token = self._tokens.get(credential) if scheme.lower() in ("token", "bearer") else None
            if token is None or token[1] <= _now():
                return _error(401, "Bad credentials")
            return None

    def _after(self, response: Response) -> Response:
        with self._lock:
            self.requests.append((request.method, request.path, response.status_code))
        return response

    def _valid_jwt(self, scheme: str, credential: str) -> bool:
        if scheme.lower() != "bearer":
            return False
        try:
            claims = jwt.decode(
                credential,
                self.app_key.public_pem,
                algorithms=["RS256"],
                options={"require": ["iat", "exp", "iss"]},
            )
        except jwt.PyJWTError:
            return False
        return str(claims["iss"]) == str(self.app_id)

    # ---- handlers: one per route, run under the state lock ----

    def _create_token(self, installation_id: int):
        token = "ghs_" + secrets.token_urlsafe(27)
        expires_at = _now() + self.token_lifetime
        self._tokens[token] = (installation_id, expires_at)
        self.issued_tokens.append(token)
        return jsonify(
            token=token, expires_at=_iso(expires_at), permissions={}, repository_selection="all"
        ), 201

    def _get_repo(self, repo: Repo):
        return jsonify(
            id=repo.id,
            name=repo.full_name.split("/")[1],
            full_name=repo.full_name,
            owner={"login": repo.owner},
            default_branch=repo.default_branch,
            private=False,
            html_url=f"{self.web_url}/{repo.full_name}",
            url=self._api(repo, "").rstrip("/"),
        )

    def _get_contents(self, repo: Repo, path: str):
        files = repo.commits[self._resolve(repo, request.args.get("ref"))]
        if path not in files:
            entries = sorted({p[len(path) + 1 :].split("/")[0] for p in files if p.startswith(path + "/")})
            if not entries:
                raise ApiError(404, "Not Found")
            return jsonify(
                [
                    {"type": "file" if f"{path}/{e}" in files else "dir", "name": e, "path": f"{path}/{e}"}
                    for e in entries
                ]
            )
        content = files[path]
        if "vnd.github.raw" in request.headers.get("Accept", ""):
            return Response(content.encode(), mimetype="application/vnd.github.raw")
        return jsonify(
            type="file",
            encoding="base64",
            name=path.rsplit("/", 1)[-1],
            path=path,
            sha=_blob_sha(content),
            size=len(content.encode()),
            content=base64.b64encode(content.encode()).decode(),
            html_url=self._html(repo, f"blob/{request.args.get('ref') or repo.default_branch}/{path}"),
        )

    def _put_contents(self, repo: Repo, path: str):
        data = request.get_json()
        branch = data.get("branch") or repo.default_branch
        if branch not in repo.branches:
            raise ApiError(404, f"Branch {branch} not found")
        files = dict(repo.commits[repo.branches[branch]])
        current = _blob_sha(files[path]) if path in files else None
        if current and not data.get("sha"):
            raise ApiError(422, 'Invalid request.\n\n"sha" wasn\'t supplied.')
        if data.get("sha") and data["sha"] != current:
            raise ApiError(409, f"{path} does not match {data['sha']}")
        files[path] = base64.b64decode(data["content"]).decode()
        sha = repo.branches[branch] = self._commit(repo, files)
        return jsonify(
            content={"name": path.rsplit("/", 1)[-1], "path": path, "sha": _blob_sha(files[path])},
            commit={
                "sha": sha,
                "message": data.get("message", ""),
                "html_url": self._html(repo, f"commit/{sha}"),
            },
        ), (200 if current else 201)

    def _ref(self, repo: Repo, branch: str):
        sha = repo.branches[branch]
        return jsonify(
            ref=f"refs/heads/{branch}",
            url=self._api(repo, f"git/refs/heads/{branch}"),
            object={"type": "commit", "sha": sha},
        )

    def _get_tree(self, repo: Repo, ref: str):
        sha = self._resolve(repo, ref)
        tree = [{"path": p, "type": "blob", "mode": "100644", "sha": _blob_sha(c)}
                for p, c in sorted(repo.commits[sha].items())]
        return jsonify({"sha": sha, "tree": tree, "truncated": False})

    def _get_tarball(self, repo: Repo, ref: str):
        """The repository at `ref` as GitHub's archive host serves it: one top folder, gzipped."""
        if repo.full_name in self.archives:  # an error page, a cut-off body, nothing
            return Response(self.archives[repo.full_name], mimetype="application/x-gzip")
        sha = self._resolve(repo, ref)
        buffer = io.BytesIO()
        with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
            for path, content in sorted(repo.commits[sha].items()):
                data = content.encode()
                info = tarfile.TarInfo(f"{repo.full_name.replace('/', '-')}-{sha[:7]}/{path}")
                info.size = len(data)
                tar.addfile(info, io.BytesIO(data))
        return Response(buffer.getvalue(), mimetype="application/x-gzip")

    def _compare(self, repo: Repo, basehead: str):
        """Two commits' files as GitHub compares them: added, removed, modified, and renamed where a removed file's
        text is at least half the same as an added one's (git's own -M threshold), the most alike paired first."""
        base, _, head = basehead.partition("...")
        before, after = (repo.commits[self._resolve(repo, ref)] for ref in (base, head))
        gone = sorted(set(before) - set(after))
        came = sorted(set(after) - set(before))
        pairs = sorted(((difflib.SequenceMatcher(None, before[old], after[new]).ratio(), old, new)
                        for old in gone for new in came), reverse=True)
        renamed: dict[str, str] = {}
        for score, old, new in pairs:
            if score >= 0.5 and old not in renamed.values() and new not in renamed:
                renamed[new] = old
        files = [{"filename": p, "status": "modified"} for p in sorted(set(before) & set(after))
                 if before[p] != after[p]]
        files += [{"filename": p, "status": "renamed", "previous_filename": renamed[p]} if p in renamed
                  else {"filename": p, "status": "added"} for p in came]
        files += [{"filename": p, "status": "removed"} for p in gone if p not in renamed.values()]
        return jsonify({"status": "ahead", "files": files})

    def _get_ref(self, repo: Repo, branch: str):
        if branch not in repo.branches:
            raise ApiError(404, "Not Found")
        return self._ref(repo, branch)

    def _create_ref(self, repo: Repo):
        data = request.get_json()
        branch = data.get("ref", "").removeprefix("refs/heads/")
        if branch in repo.branches:
            raise ApiError(422, "Reference already exists")
        if data.get("sha") not in repo.commits:
            raise ApiError(422, "Object does not exist")
        repo.branches[branch] = data["sha"]
        return self._ref(repo, branch), 201

    def _update_ref(self, repo: Repo, branch: str):
        data = request.get_json()
        if branch not in repo.branches:
            raise ApiError(422, "Reference does not exist")
        if data.get("sha") not in repo.commits:
            raise ApiError(422, "Object does not exist")
        repo.branches[branch] = data["sha"]
        return self._ref(repo, branch)

    def _pull(self, repo: Repo, number: int) -> dict:
        issue = repo.issues.get(number)
        if issue is None or not issue["is_pull"]:
            raise ApiError(404, "Not Found")
        return issue

    def _list_pulls(self, repo: Repo):
        state, head, base = (
            request.args.get("state", "open"),
            request.args.get("head"),
            request.args.get("base"),
        )
        pulls = [
            i
            for i in repo.issues.values()
            if i["is_pull"]
            and state in ("all", i["state"])
            and (head is None or f"{self._repo(i.get('head_repo') or repo.full_name).owner}:{i['head_ref']}" == head)
            and (base is None or i["base_ref"] == base)
        ]
        return jsonify(_page([self._render_pull(repo, p) for p in pulls]))

    def _create_pull(self, repo: Repo):
        data = request.get_json()
        if data.get("draft") and not repo.drafts:
            return jsonify(message="Validation Failed", errors=[{
                "resource": "PullRequest", "code": "custom",
                "message": "Draft pull requests are not supported in this repository."}]), 422
        pr = self._new_pull(
            repo, data["title"], data.get("body") or "", data["head"], data["base"], self._caller(),
            draft=bool(data.get("draft")),
        )
        return jsonify(self._render_pull(repo, pr)), 201

    def _get_pull(self, repo: Repo, number: int):
        return jsonify(self._render_pull(repo, self._pull(repo, number)))

    def _update_pull(self, repo: Repo, number: int):
        pr = self._pull(repo, number)
        data = request.get_json()
        pr.update({k: data[k] for k in ("title", "body", "base") if k in data})
        if data.get("state") in ("open", "closed"):
            pr["head_sha"] = None if data["state"] == "open" else self._head_sha(repo, pr)
            pr["state"] = data["state"]
        return jsonify(self._render_pull(repo, pr))

    def _list_pull_files(self, repo: Repo, number: int):
        return jsonify(_page(self._diff(repo, self._pull(repo, number))))

    def _list_reviews(self, repo: Repo, number: int):
        if number not in repo.issues:
            raise ApiError(404, "Not Found")
        return jsonify(_page(repo.reviews.get(number, [])))

    def _create_review(self, repo: Repo, number: int):
        """GitHub refuses (422) a comment on a line the PR's diff does not show, or spanning two hunks."""
        pr, data = self._pull(repo, number), request.get_json()
        shown = {f["filename"]: _hunks(f["patch"]) for f in self._diff(repo, pr)}
        for c in data.get("comments") or []:
            start, end = c.get("start_line") or c["line"], c["line"]
            if not any(start in r and end in r for r in shown.get(c["path"], [])):
                raise ApiError(422, "Unprocessable Entity: pull_request_review_thread.line could not be resolved")
        review = {"id": next(self._ids), "body": data.get("body") or "", "state": "COMMENTED",
                  "user": self._user(self._caller()), "commit_id": data.get("commit_id"),
                  "comments": copy.deepcopy(data.get("comments") or []),
                  "html_url": self._html(repo, f"pull/{number}#pullrequestreview-{next(self._ids)}")}
        repo.reviews.setdefault(number, []).append(review)
        return jsonify(review), 200

    def _list_review_comments(self, repo: Repo, number: int):
        return jsonify(_page([_public(c) for c in repo.review_comments.values() if c["number"] == number]))

    def _reply_in_thread(self, repo: Repo, number: int, comment_id: int):
        """GitHub answers only a thread's first comment: a reply to a reply is refused, as there."""
        first = repo.review_comments.get(comment_id)
        if first is None or first["number"] != number:
            raise ApiError(404, "Not Found")
        if first["in_reply_to_id"] is not None:
            raise ApiError(422, "Validation Failed: in_reply_to_id cannot be a reply to a reply")
        cid, now = next(self._ids), _iso(_now())
        caller = self._caller()
        repo.review_comments[cid] = {
            **copy.deepcopy(first), "id": cid, "in_reply_to_id": comment_id, "body": request.get_json()["body"],
            "user": self._user(caller), "author_association": "NONE",
            "html_url": self._html(repo, f"pull/{number}#discussion_r{cid}"),
            "url": self._api(repo, f"pulls/comments/{cid}"), "created_at": now, "updated_at": now,
        }
        return jsonify(_public(repo.review_comments[cid])), 201

    def _list_comments(self, repo: Repo, number: int):
        if number not in repo.issues:
            raise ApiError(404, "Not Found")
        return jsonify(_page([_public(c) for c in repo.comments.values() if c["number"] == number]))

    def _create_comment(self, repo: Repo, number: int):
        return jsonify(
            _public(self._new_comment(repo, number, request.get_json()["body"], self._caller()))
        ), 201

    def _edit_comment(self, repo: Repo, comment_id: int):
        comment = repo.comments.get(comment_id)
        if comment is None:
            raise ApiError(404, "Not Found")
        comment.update(body=request.get_json()["body"], updated_at=_iso(_now()))
        return jsonify(_public(comment))

    def _create_reaction(self, repo: Repo, comment_id: int):
        content = request.get_json().get("content")
        if comment_id not in repo.comments:
            raise ApiError(404, "Not Found")
        if content not in REACTIONS:
            raise ApiError(422, "Validation Failed: content is not a valid reaction")
        existing = repo.reactions.setdefault(comment_id, [])
        for reaction in existing:
            if reaction["content"] == content and reaction["user"]["login"] == self._caller():
                return jsonify(reaction), 200
        reaction = {
            "id": next(self._ids),
            "content": content,
            "user": self._user(self._caller()),
            "created_at": _iso(_now()),
        }
        existing.append(reaction)
        return jsonify(reaction), 201

    def _permission(self, repo: Repo, user: str):
        role = repo.collaborators.get(user)
        if role is None:
            raise ApiError(404, f"{user} is not a user")  # GitHub: 404 for unknown users, none for strangers
        legacy = {"maintain": "write", "triage": "read"}.get(role, role)  # `permission` folds the finer roles
        return jsonify(permission=legacy, role_name=role, user=self._user(user))

    def _check_run_fields(self, data: dict, run: dict) -> dict:
        if data.get("status") not in (None, "queued", "in_progress", "completed"):
            raise ApiError(422, "Validation Failed: status")
        output = data.get("output")
        if output is not None and not ("title" in output and "summary" in output):
            raise ApiError(422, "Validation Failed: output needs title and summary")
        run.update({k: data[k] for k in ("name", "status", "conclusion", "output") if k in data})
        if run.get("conclusion"):
            run["status"] = "completed"
        elif run["status"] == "completed":
            raise ApiError(422, "Validation Failed: conclusion is required when status is completed")
        return run

    def _create_check_run(self, repo: Repo):
        data = request.get_json()
        if data.get("head_sha") not in repo.commits or not data.get("name"):
            raise ApiError(422, "Validation Failed: name and a known head_sha are required")
        rid = next(self._ids)
        run = {
            "id": rid,
            "head_sha": data["head_sha"],
            "external_id": data.get("external_id"),
            "status": "queued",
            "conclusion": None,
            "output": None,
            "app": {"slug": self.bot_login.removesuffix("[bot]")},
            "html_url": self._html(repo, f"runs/{rid}"),
            "url": self._api(repo, f"check-runs/{rid}"),
        }
        repo.check_runs[rid] = self._check_run_fields(data, run)
        return jsonify(run), 201

    def _update_check_run(self, repo: Repo, run_id: int):
        if run_id not in repo.check_runs:
            raise ApiError(404, "Not Found")
        updated = self._check_run_fields(request.get_json(), copy.deepcopy(repo.check_runs[run_id]))
        repo.check_runs[run_id] = updated
        return jsonify(updated)

    def _create_commit_comment(self, repo: Repo, sha: str):
        if sha not in repo.commits:
            raise ApiError(404, "Not Found")
        cid = next(self._ids)
        comment = {
            "id": cid,
            "body": request.get_json()["body"],
            "commit_id": sha,
            "user": self._user(self._caller()),
            "html_url": self._html(repo, f"commit/{sha}#commitcomment-{cid}"),
            "url": self._api(repo, f"comments/{cid}"),
        }
        repo.commit_comments.append(comment)
        return jsonify(comment), 201

    def _commit_check_runs(self, repo: Repo, ref: str):
        sha = self._resolve(repo, ref)
        runs = [r for r in repo.check_runs.values() if r["head_sha"] == sha
                and request.args.get("check_name", r["name"]) == r["name"]]
        latest = {r["name"]: r for r in runs} if request.args.get("filter", "latest") == "latest" else None
        shown = list(latest.values()) if latest is not None else runs
        return jsonify(total_count=len(shown), check_runs=_page(copy.deepcopy(shown)))

    def _combined_status(self, repo: Repo, ref: str):
        sha = self._resolve(repo, ref)
        latest = {s["context"]: s for s in repo.statuses if s["sha"] == sha}
        states = {s["state"] for s in latest.values()}
        state = "failure" if states & {"failure", "error"} else "pending" if not states or "pending" in states \
            else "success"
        return jsonify(state=state, sha=sha, total_count=len(latest), statuses=list(latest.values()))

    def _rerequest_check_run(self, repo: Repo, run_id: int):
        """GitHub asks the check run's App to run it again; GitHub Actions' own runs are re-run as jobs instead."""
        run = repo.check_runs.get(run_id)
        if run is None:
            raise ApiError(404, "Not Found")
        if run["app"]["slug"] == "github-actions":
            raise ApiError(422, "Unprocessable Entity: re-run GitHub Actions jobs through the Actions API")
        repo.reruns.append(run_id)
        return Response(status=201)

    def _rerun_job(self, repo: Repo, run_id: int):
        run = repo.check_runs.get(run_id)
        if run is None or run["app"]["slug"] != "github-actions":
            raise ApiError(404, "Not Found")
        if not repo.actions_write:
            raise ApiError(403, "Resource not accessible by integration")
        if run["status"] != "completed":
            raise ApiError(403, "This job is already running")
        repo.reruns.append(run_id)
        return Response(status=201)

    def _check_annotations(self, repo: Repo, run_id: int):
        if run_id not in repo.check_runs:
            raise ApiError(404, "Not Found")
        return jsonify(_page(copy.deepcopy(repo.annotations.get(run_id, []))))

    def _graphql(self):
        """The one mutation memfix sends: markPullRequestReadyForReview (GraphQL answers 200 with `errors`)."""
        data = request.get_json()
        if "markPullRequestReadyForReview" not in str(data.get("query")):
            return jsonify(errors=[{"message": "Field is not supported by the fake GitHub"}])
        node = (data.get("variables") or {}).get("id")
        for repo in self._repos.values():
            for pr in repo.issues.values():
                if pr.get("node_id") == node and pr["is_pull"]:
                    pr["draft"] = False
                    self.ready_marked.append((repo.full_name, pr["number"]))
                    return jsonify(data={"markPullRequestReadyForReview": {"pullRequest": {"isDraft": False}}})
        return jsonify(errors=[{"type": "NOT_FOUND", "message": f"Could not resolve to a node with the global id of "
                                                                 f"'{node}'"}])

    # ---- people (OAuth web flow of the App's user authorization) ----

    def _oauth_authorize(self):
        """github.com's authorization page: the signed-in person approves the App (a button, as on GitHub)."""
        args = request.args
        if args.get("client_id") != self.client_id:
            return Response("<h1>404: unknown OAuth application</h1>", status=404, mimetype="text/html")
        fields = "".join(f'<input type="hidden" name="{k}" value="{html.escape(v, quote=True)}">'
                         for k, v in args.items() if k in ("client_id", "redirect_uri", "state"))
        page = (f"<!doctype html><title>Authorize memfix</title><h1>Authorize memfix</h1>"
                f"<p>Signed in as <strong>{self.signed_in_as}</strong></p><form method='post'>{fields}"
                "<button id='authorize'>Authorize</button></form>")
        return Response(page, mimetype="text/html")

    def _oauth_approve(self):
        code = secrets.token_hex(10)
        self._oauth_codes[code] = (self.signed_in_as, request.form["redirect_uri"])
        query = urllib.parse.urlencode({"code": code, "state": request.form.get("state", "")})
        return redirect(f"{request.form['redirect_uri']}?{query}")

    def _oauth_token(self):
        form = request.form
        found = self._oauth_codes.pop(form.get("code", ""), None)
        if (form.get("client_id"), form.get("client_secret")) != (self.client_id, self.client_secret):
            return jsonify(error="incorrect_client_credentials")
        if found is None or found[1] != form.get("redirect_uri"):
            return jsonify(error="bad_verification_code",
                           error_description="The code passed is incorrect or expired.")
        token = "ghu_" + secrets.token_urlsafe(20)
        self._user_tokens[token] = found[0]
        return jsonify(access_token=token, token_type="bearer", scope="")

    def _person(self) -> str:
        return self._user_tokens[request.headers.get("Authorization", "").partition(" ")[2]]

    def _user_self(self):
        return jsonify(self._user(self._person()))

    def _visible_repos(self, login: str, installation_id: int) -> list[Repo]:
        return [self._repos[n] for n in self.installations.get(installation_id, ())
                if login in self._repos[n].collaborators]

    def _user_installations(self):
        login = self._person()
        mine = [{"id": i, "account": {"login": repos[0].split("/")[0] if repos else "x"}}
                for i, repos in self.installations.items() if self._visible_repos(login, i)]
        return jsonify(total_count=len(mine), installations=_page(mine))

    def _user_repositories(self, installation_id: int):
        login = self._person()
        repos = []
        for r in self._visible_repos(login, installation_id):
            role = r.collaborators[login]
            repos.append({"id": r.id, "full_name": r.full_name, "permissions": {
                "admin": role == "admin", "maintain": role in ("admin", "maintain"),
                "push": role in ("admin", "maintain", "write"), "pull": True}})
        return jsonify(total_count=len(repos), repositories=_page(repos))

    # ---- registration from a manifest ----

    def _new_app_page(self, org: str | None = None):
        manifest = json.loads(request.form["manifest"])
        fields = (f'<input type="hidden" name="manifest" value="{html.escape(request.form["manifest"], quote=True)}">'
                  f'<input type="hidden" name="state" value="{html.escape(request.args.get("state", ""), quote=True)}">'
                  f'<input type="hidden" name="org" value="{html.escape(org or "", quote=True)}">')
        page = (f"<!doctype html><title>Create GitHub App</title><h1>Create GitHub App {html.escape(manifest['name'])}"
                f"</h1><form method='post' action='/settings/apps/new/confirm'>{fields}"
                "<button id='create-app'>Create GitHub App</button></form>")
        return Response(page, mimetype="text/html")

    def _new_app_confirm(self):
        manifest = json.loads(request.form["manifest"])
        code = secrets.token_hex(10)
        self._manifest_codes[code] = ({**manifest, "org": request.form.get("org") or None},
                                      _now() + timedelta(hours=1))
        query = urllib.parse.urlencode({"code": code, "state": request.form.get("state", "")})
        return redirect(f"{manifest['redirect_url']}?{query}")

    def _convert_manifest(self, code: str):
        manifest, expiry = self._manifest_codes.pop(code, (None, None))
        if manifest is None or expiry <= _now():
            raise ApiError(404, "Not Found")
        slug = re.sub(r"[^a-z0-9]+", "-", manifest["name"].lower()).strip("-")
        app = {"id": 90000 + len(self.apps_created), "slug": slug, "name": manifest["name"], "node_id": "A_x",
               "owner": {"login": manifest["org"] or self.signed_in_as},
               "html_url": f"{self.web_url}/apps/{slug}", "client_id": f"Iv1.{secrets.token_hex(8)}",
               "client_secret": secrets.token_hex(20), "webhook_secret": secrets.token_hex(16),
               "pem": generate_app_key().private_pem, "permissions": manifest.get("default_permissions", {}),
               "events": manifest.get("default_events", []), "hook_url": manifest["hook_attributes"]["url"]}
        self.apps_created.append(app)
        return jsonify(app), 201

    def _caller(self) -> str:
        return self.bot_login  # every installation token acts as the App's bot user


class _Prefixed:
    """Serves the API under a path prefix, as GitHub Enterprise Server does under /api/v3; 404 elsewhere."""

    def __init__(self, app: Any, prefix: str):
        self.app, self.prefix = app, prefix

    def __call__(self, environ: dict, start_response: Callable) -> Any:
        path = environ.get("PATH_INFO", "")
        if path == self.prefix.removesuffix("/v3") + "/graphql":  # Enterprise: GraphQL lives at /api/graphql
            return self.app({**environ, "PATH_INFO": "/graphql"}, start_response)
        if not path.startswith(self.prefix + "/") or path == self.prefix + "/graphql":  # no GraphQL under /v3
            start_response("404 NOT FOUND", [("Content-Type", "application/json")])
            return [b'{"message": "Not Found"}']
        environ = {**environ, "PATH_INFO": path[len(self.prefix):], "SCRIPT_NAME": self.prefix}
        return self.app(environ, start_response)


def _hunks(patch: str) -> list[range]:
    return [range(int(m[1]), int(m[1]) + int(m[2] if m[2] is not None else 1))
            for m in re.finditer(r"^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@", patch, re.M)]


def _hunk_to(patch: str, line: int, side: str) -> str | None:
    """A file's patch from its hunk's header down to `line` on `side`, as GitHub's `diff_hunk`; None when the diff
    does not show that line."""
    start, old, new = 0, 0, 0
    lines = patch.split("\n")
    for index, text in enumerate(lines):
        if header := re.match(r"@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@", text):
            start, old, new = index, int(header[1]), int(header[2])
            continue
        mark = text[:1] or "\\"  # an empty line is no line of the file
        if (side == "RIGHT" and mark in "+ " and new == line) or (side == "LEFT" and mark in "- " and old == line):
            return "\n".join(lines[start:index + 1])
        old += mark in "- "
        new += mark in "+ "
    return None


def _public(comment: dict) -> dict:
    return copy.deepcopy({k: v for k, v in comment.items() if k != "number"})


def _page(items: list) -> list:
    per_page = min(int(request.args.get("per_page", 30)), 100)
    page = max(int(request.args.get("page", 1)), 1)
    return items[(page - 1) * per_page : page * per_page]


def _error(status: int, message: str) -> Response:
    response = jsonify(message=message, documentation_url="https://docs.github.com/rest")
    response.status_code = status
    return response
