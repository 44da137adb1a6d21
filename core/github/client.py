"""GitHub REST adapter: App auth, cached installation tokens, retries. The only module importing githubkit."""

from __future__ import annotations

import base64
import logging
import threading
from collections.abc import Callable
from contextlib import nullcontext
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import quote

import httpx
from githubkit import AppAuthStrategy, GitHub, TokenAuthStrategy
from githubkit.cache import MemCacheStrategy
from githubkit.exception import GitHubException, RateLimitExceeded, RequestError, RequestFailed
from githubkit.retry import RetryOption

from core.errors import GitHubError, GitHubPermanentError, GitHubTransientError
from core.github.types import CheckResult, PullRequest, RerunAnswer
from core.paths import git_ref, url_path
from core.settings import Settings, SettingsError

log = logging.getLogger(__name__)

TOKEN_REFRESH_MARGIN = timedelta(minutes=5)
REQUEST_TIMEOUT = httpx.Timeout(30.0, connect=10.0)  # githubkit's default is no timeout at all
PER_PAGE = 100
RAW_MEDIA_TYPE = "application/vnd.github.raw+json"


def _utcnow() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True)
class InstallationToken:
    token: str = field(repr=False)
    expires_at: datetime


class TokenCache:
    """One installation's token, kept until `margin` before it expires, then fetched again."""

    def __init__(
        self,
        fetch: Callable[[], InstallationToken],
        *,
        margin: timedelta = TOKEN_REFRESH_MARGIN,
        clock: Callable[[], datetime] = _utcnow,
    ):
        self._fetch, self._margin, self._clock = fetch, margin, clock
        self._current: InstallationToken | None = None
        self._lock = threading.Lock()

    def get(self) -> str:
        with self._lock:
            if self._current is None or self._clock() >= self._current.expires_at - self._margin:
                self._current = self._fetch()
            return self._current.token

    def invalidate(self) -> None:
        with self._lock:
            self._current = None


class RetryPolicy:
    """githubkit `auto_retry` decision: honour rate-limit waits, back off exponentially on 5xx and network."""

    def __init__(self, max_retries: int, base_seconds: float, max_wait_seconds: float):
        self.max_retries = max_retries
        self.base_seconds = base_seconds
        self.max_wait_seconds = max_wait_seconds

    def __call__(self, exc: GitHubException, retry_count: int) -> RetryOption:
        if retry_count >= self.max_retries or not _is_transient(exc):
            return RetryOption(False)
        if isinstance(exc, RateLimitExceeded):
            wait = exc.retry_after.total_seconds()
        else:
            wait = self.base_seconds * 2**retry_count
        wait = min(wait, self.max_wait_seconds)
        log.warning(
            "GitHub %s; retry %d of %d in %.2fs", _describe(exc), retry_count + 1, self.max_retries, wait
        )
        # githubkit sleeps 60 s when handed a falsy (zero) timedelta, so never return one
        return RetryOption(True, timedelta(seconds=max(wait, 0.001)))


def _is_transient(exc: GitHubException) -> bool:
    if isinstance(exc, RequestFailed):
        return (
            isinstance(exc, RateLimitExceeded)
            or exc.response.status_code == 429
            or exc.response.is_server_error
        )
    return isinstance(exc, RequestError) and isinstance(exc.exc, httpx.TransportError)


def _describe(exc: GitHubException) -> str:
    """What went wrong, in words safe for logs and users: method, path, status and GitHub's own message."""
    if isinstance(exc, RequestFailed):
        response = exc.response.raw_response
        try:
            body = response.json()
        except ValueError:
            body = None
        message = str(body.get("message", ""))[:200] if isinstance(body, dict) else ""
        errors = body.get("errors") if isinstance(body, dict) else None
        if isinstance(errors, list):  # a 422's reasons ("Draft pull requests are not supported …")
            message += "".join(f"; {e['message'][:200]}" for e in errors if isinstance(e, dict) and e.get("message"))
        what = "rate-limited" if isinstance(exc, RateLimitExceeded) else "answered"
        detail = f": {message}" if message else ""
        return f"GitHub {what} {response.status_code} to {exc.request.method} {exc.request.url.path}{detail}"
    inner = exc.exc if isinstance(exc, RequestError) else exc
    if isinstance(inner, httpx.TransportError):
        return f"GitHub could not be reached ({type(inner).__name__})"
    return f"GitHub request failed ({type(inner).__name__})"


def _to_memfix_error(exc: GitHubException) -> GitHubError:
    status = exc.response.status_code if isinstance(exc, RequestFailed) else None
    cls = GitHubTransientError if _is_transient(exc) else GitHubPermanentError
    return cls(_describe(exc), status)


def _ref(branch: str) -> str:
    """A branch name in a URL: its `/` stay (GitHub reads them as part of the name); nothing else can escape."""
    return quote(git_ref(branch), safe="/")


def _split(repo: str) -> str:
    owner, _, name = repo.partition("/")
    if not owner or not name:
        raise GitHubPermanentError(f"repository must be owner/name, got {repo!r}")
    return f"/repos/{quote(owner, safe='')}/{quote(name, safe='')}"


class _SharedTransport(httpx.BaseTransport):
    """githubkit opens and closes an httpx.Client per request; one shared pool keeps connections alive."""

    def __init__(self) -> None:
        self.pool = httpx.HTTPTransport()

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        return self.pool.handle_request(request)

    def close(self) -> None:
        pass  # called after every request; GitHubApp.close() closes the pool


class GitHubApp:
    """The App's identity: signs JWTs, mints installation tokens, and hands out one client per installation."""

    def __init__(self, settings: Settings):
        if not settings.github_app_id or not settings.github_app_private_key:
            raise SettingsError("GITHUB_APP_ID and GITHUB_APP_PRIVATE_KEY must both be set to talk to GitHub")
        self.settings = settings
        # env vars often carry the PEM with literal "\n"
        private_key = settings.github_app_private_key.replace("\\n", "\n")
        self._retry = RetryPolicy(
            settings.github_max_retries, settings.github_retry_base_seconds, settings.github_max_wait_seconds
        )
        # githubkit's default cache is process-global and keys JWTs by app id only; keep ours private
        self._cache = MemCacheStrategy()
        self._transport = _SharedTransport()
        self._app_github = self._new_github(AppAuthStrategy(settings.github_app_id, private_key))
        self._clients: dict[int, InstallationClient] = {}
        self._lock = threading.Lock()

    def _new_github(self, auth: Any) -> GitHub[Any]:
        return GitHub(
            auth,
            base_url=self.settings.github_api_url,
            user_agent=f"{self.settings.app_slug} (githubkit)",
            timeout=REQUEST_TIMEOUT,
            http_cache=False,
            cache_strategy=self._cache,
            auto_retry=self._retry,
            transport=self._transport,
        )

    def close(self) -> None:
        self._transport.pool.close()

    def for_installation(self, installation_id: int) -> InstallationClient:
        with self._lock:
            client = self._clients.get(installation_id)
            if client is None:
                client = self._clients[installation_id] = InstallationClient(self, installation_id)
            return client

    def fetch_installation_token(self, installation_id: int) -> InstallationToken:
        try:
            data = self._app_github.request(
                "POST", f"/app/installations/{installation_id}/access_tokens"
            ).json()
        except RequestFailed as exc:
            raise _to_memfix_error(exc) from exc
        except RequestError as exc:
            if isinstance(exc.exc, httpx.TransportError):
                raise _to_memfix_error(exc) from exc
            # anything else failed before sending: the JWT could not be signed with the configured key
            raise GitHubPermanentError(
                f"could not sign the GitHub App JWT ({type(exc.exc).__name__}); check GITHUB_APP_PRIVATE_KEY"
            ) from None
        expires_at = datetime.fromisoformat(data["expires_at"])
        log.info("installation %s token issued, expires %s", installation_id, expires_at.isoformat())
        return InstallationToken(data["token"], expires_at)


class InstallationClient:
    """GitHub as one installation sees it. `repo` is "owner/name"; answers are GitHub's raw JSON."""

    def __init__(self, app: GitHubApp, installation_id: int):
        self.installation_id = installation_id
        self._app = app
        self.tokens = TokenCache(lambda: app.fetch_installation_token(installation_id))
        self._github: GitHub[Any] | None = None
        self._github_token: str | None = None
        self._lock = threading.Lock()
        self._write_lock = threading.Lock()  # GitHub asks integrators to send mutating requests serially

    def _client(self) -> GitHub[Any]:
        token = self.tokens.get()
        with self._lock:
            if token != self._github_token:
                self._github, self._github_token = self._app._new_github(TokenAuthStrategy(token)), token
            assert self._github is not None  # made above for this token
            return self._github

    def _send(
        self, method: str, path: str, *, missing_ok: bool = False, **kwargs: Any
    ) -> httpx.Response | None:
        """One API call under our retry policy; None for a 404 when `missing_ok`."""
        try:
            return self._send_as_installation(method, path, **kwargs)
        except GitHubPermanentError as exc:
            if missing_ok and exc.status == 404:
                return None
            raise

    def _send_as_installation(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        def attempt() -> httpx.Response:
            with self._write_lock if method != "GET" else nullcontext():
                return self._client().request(method, path, **kwargs).raw_response

        try:
            return attempt()
        except GitHubException as exc:
            if not (isinstance(exc, RequestFailed) and exc.response.status_code == 401):
                raise _to_memfix_error(exc) from exc
            self.tokens.invalidate()  # revoked or expired early: fetch a new token and try once more
        try:
            return attempt()
        except GitHubException as exc:
            raise _to_memfix_error(exc) from exc

    def _json(self, method: str, path: str, **kwargs: Any) -> Any:
        response = self._send(method, path, **kwargs)
        return response.json() if response is not None and response.content else None

    def _object(self, method: str, path: str, **kwargs: Any) -> dict[str, Any]:
        """An answer that must be a JSON object; anything else is GitHub misbehaving, worth a retry."""
        data = self._json(method, path, **kwargs)
        if not isinstance(data, dict):
            raise GitHubTransientError(f"GitHub answered {method} {path} with {type(data).__name__}, not an object")
        return data

    def _pages(self, path: str) -> list[dict[str, Any]]:
        items: list[dict[str, Any]] = []
        while True:
            batch = self._json("GET", path, params={"per_page": PER_PAGE, "page": len(items) // PER_PAGE + 1})
            items.extend(batch)
            if len(batch) < PER_PAGE:
                return items

    # contents

    def get_file(self, repo: str, path: str, ref: str) -> str | None:
        url = f"{_split(repo)}/contents/{url_path(path)}"
        response = self._send(
            "GET", url, missing_ok=True, params={"ref": ref}, headers={"Accept": RAW_MEDIA_TYPE}
        )
        if response is None:
            return None
        try:
            return response.content.decode("utf-8")
        except UnicodeDecodeError:
            raise GitHubPermanentError(f"{repo}:{path} at {ref} is not UTF-8 text") from None

    def get_file_sha(self, repo: str, path: str, ref: str) -> str | None:
        data = self._json(
            "GET", f"{_split(repo)}/contents/{url_path(path)}", missing_ok=True, params={"ref": ref}
        )
        return data.get("sha") if isinstance(data, dict) else None

    def get_archive(self, repo: str, ref: str) -> bytes:
        """The repository at `ref` as a gzipped tarball (GitHub redirects to its archive host; followed)."""
        response = self._send("GET", f"{_split(repo)}/tarball/{quote(git_ref(ref), safe='')}")
        assert response is not None  # only a missing_ok request answers None
        return response.content

    def renames(self, repo: str, base: str, head: str) -> dict[str, str]:
        """The files GitHub's comparison of two commits calls renamed, new path → old path (it lists at most 300
        changed files: a rename past them reads as a removal and an addition, as the push's payload has it)."""
        compared = self._object("GET", f"{_split(repo)}/compare/{quote(git_ref(base), safe='')}..."
                                       f"{quote(git_ref(head), safe='')}")
        files = compared.get("files")
        return {f["filename"]: f["previous_filename"] for f in files if isinstance(f, dict)
                and f.get("status") == "renamed" and isinstance(f.get("filename"), str)
                and isinstance(f.get("previous_filename"), str)} if isinstance(files, list) else {}

    def put_file(
        self, repo: str, path: str, content: str, branch: str, message: str, sha: str | None = None
    ) -> str:
        body = {"message": message, "branch": branch, "content": base64.b64encode(content.encode()).decode()}
        if sha:
            body["sha"] = sha
        return str(self._object("PUT", f"{_split(repo)}/contents/{url_path(path)}", json=body)["commit"]["sha"])

    # repositories and branches

    def get_repository(self, repo: str) -> dict[str, Any]:
        return self._object("GET", _split(repo))

    def get_branch_sha(self, repo: str, branch: str) -> str:
        return str(self._object("GET", f"{_split(repo)}/git/ref/heads/{_ref(branch)}")["object"]["sha"])

    def create_branch(self, repo: str, branch: str, sha: str) -> None:
        try:
            self._json("POST", f"{_split(repo)}/git/refs", json={"ref": f"refs/heads/{branch}", "sha": sha})
        except GitHubPermanentError as exc:
            if exc.status != 422:  # 422: the ref exists; our branches are deterministic, so move it
                raise
            self._json(
                "PATCH", f"{_split(repo)}/git/refs/heads/{_ref(branch)}", json={"sha": sha, "force": True}
            )

    # pull requests

    def get_pull(self, repo: str, number: int) -> PullRequest:
        return PullRequest.from_api(self._json("GET", f"{_split(repo)}/pulls/{number}"))

    def list_pull_files(self, repo: str, number: int) -> list[dict[str, Any]]:
        return self._pages(f"{_split(repo)}/pulls/{number}/files")

    def list_files(self, repo: str, ref: str) -> list[str]:
        """Every file path at a commit (one recursive tree request)."""
        tree = self._json("GET", f"{_split(repo)}/git/trees/{quote(git_ref(ref), safe='')}", params={"recursive": "1"})
        # mode 120000 is a symlink: its blob is a target path, not a file to fetch
        return [entry["path"] for entry in tree.get("tree", [])
                if entry.get("type") == "blob" and entry.get("mode") != "120000"]

    def list_reviews(self, repo: str, number: int) -> list[dict[str, Any]]:
        return self._pages(f"{_split(repo)}/pulls/{number}/reviews")

    def list_issue_comments(self, repo: str, number: int) -> list[dict[str, Any]]:
        return self._pages(f"{_split(repo)}/issues/{number}/comments")

    def find_open_pr(self, repo: str, head_branch: str) -> PullRequest | None:
        owner = repo.partition("/")[0]
        pulls = self._json(
            "GET", f"{_split(repo)}/pulls", params={"head": f"{owner}:{head_branch}", "state": "open"}
        )
        return PullRequest.from_api(pulls[0]) if pulls else None

    def create_pr(self, repo: str, title: str, body: str, head: str, base: str, *, draft: bool = False) -> PullRequest:
        payload = {"title": title, "body": body, "head": head, "base": base, **({"draft": True} if draft else {})}
        try:
            return PullRequest.from_api(self._json("POST", f"{_split(repo)}/pulls", json=payload))
        except GitHubPermanentError as exc:
            if not (draft and exc.status == 422 and "draft" in str(exc).lower()):
                raise
        # the repository's plan has no draft PRs: a ready one, which says what it waits for in its body
        return self.create_pr(repo, title, body, head, base)

    def mark_ready(self, repo: str, pr: PullRequest) -> None:
        """A draft becomes ready for review (GraphQL only: REST has no endpoint for it)."""
        if not pr.draft:
            return
        query = ("mutation($id: ID!) { markPullRequestReadyForReview(input: {pullRequestId: $id}) "
                 "{ pullRequest { isDraft } } }")
        data = self._json("POST", self._graphql_url(), json={"query": query, "variables": {"id": pr.node_id}})
        if not isinstance(data, dict) or data.get("errors"):
            errors = data.get("errors") if isinstance(data, dict) else None
            first = errors[0].get("message", "") if errors and isinstance(errors[0], dict) else "no answer"
            raise GitHubPermanentError(f"GitHub could not mark {repo}#{pr.number} ready for review: {first[:200]}")

    def _graphql_url(self) -> str:
        """api.github.com/graphql; GitHub Enterprise Server serves REST under /api/v3 and GraphQL at /api/graphql."""
        base = self._app.settings.github_api_url.rstrip("/")
        return base.removesuffix("/v3") + "/graphql" if base.endswith("/api/v3") else base + "/graphql"

    def commit_checks(self, repo: str, sha: str) -> list[CheckResult]:
        """Every check on a commit: the latest check runs of every App, and the latest status of every context."""
        ref = quote(git_ref(sha), safe="")
        runs: list[dict[str, Any]] = []
        while True:
            page = self._json("GET", f"{_split(repo)}/commits/{ref}/check-runs",
                              params={"filter": "latest", "per_page": PER_PAGE, "page": len(runs) // PER_PAGE + 1})
            batch = (page or {}).get("check_runs") or []
            runs.extend(batch)
            if len(batch) < PER_PAGE:
                break
        combined = self._json("GET", f"{_split(repo)}/commits/{ref}/status") or {}
        return ([CheckResult.from_check_run(r) for r in runs]
                + [CheckResult.from_status(s) for s in combined.get("statuses") or []])

    def rerun_check(self, repo: str, check: CheckResult) -> RerunAnswer:
        """Runs a failed check again on the same commit: a GitHub Actions job by its id (a job's id is its check
        run's; needs `actions: write`), another App's check run by asking that App; a commit status has no re-run.
        REFUSED on a 403 (the installation did not grant the permission), UNABLE when there is nothing to re-run."""
        if check.kind != "check" or not check.id:
            return RerunAnswer.UNABLE
        how = f"actions/jobs/{check.id}/rerun" if check.app == "github-actions" else f"check-runs/{check.id}/rerequest"
        try:
            self._json("POST", f"{_split(repo)}/{how}")
        except GitHubPermanentError as exc:
            if exc.status == 403:  # a rate limit's 403 is transient and retried before it gets here
                log.info("GitHub refused to run %s's check %s again: %s", repo, check.name, exc)
                return RerunAnswer.REFUSED
            if exc.status in (404, 422):  # gone, or not re-runnable: the failure stands
                return RerunAnswer.UNABLE
            raise
        return RerunAnswer.ASKED

    def check_annotations(self, repo: str, check_run_id: int) -> list[dict[str, Any]]:
        """A check run's annotations (file, line, level, message): the first page is enough to say what failed."""
        return self._json("GET", f"{_split(repo)}/check-runs/{int(check_run_id)}/annotations",
                          params={"per_page": 50}) or []

    def create_review(self, repo: str, number: int, *, commit_id: str, body: str,
                      comments: list[dict[str, Any]]) -> dict[str, Any]:
        """A COMMENT review: memfix suggests, people decide."""
        payload = {"commit_id": commit_id, "body": body, "event": "COMMENT", "comments": comments}
        return self._object("POST", f"{_split(repo)}/pulls/{number}/reviews", json=payload)

    def update_pr(self, repo: str, number: int, *, title: str | None = None, body: str | None = None) -> dict[str, Any]:
        changes = {k: v for k, v in {"title": title, "body": body}.items() if v is not None}
        return self._object("PATCH", f"{_split(repo)}/pulls/{number}", json=changes)

    # comments and reactions

    def comment(self, repo: str, number: int, body: str) -> int:
        return int(self._object("POST", f"{_split(repo)}/issues/{number}/comments", json={"body": body})["id"])

    def edit_comment(self, repo: str, comment_id: int, body: str) -> None:
        self._json("PATCH", f"{_split(repo)}/issues/comments/{comment_id}", json={"body": body})

    def review_comments(self, repo: str, number: int) -> list[dict[str, Any]]:
        """A pull request's comments on lines of its diff, replies included."""
        return self._pages(f"{_split(repo)}/pulls/{number}/comments")

    def reply_in_thread(self, repo: str, number: int, comment_id: int, body: str) -> int:
        """A reply under a comment on a line of a PR's diff; `comment_id` is the thread's first comment (GitHub
        refuses a reply to a reply)."""
        url = f"{_split(repo)}/pulls/{number}/comments/{comment_id}/replies"
        return int(self._object("POST", url, json={"body": body})["id"])

    def react(self, repo: str, comment_id: int, content: str = "eyes") -> None:
        self._json(
            "POST", f"{_split(repo)}/issues/comments/{comment_id}/reactions", json={"content": content}
        )

    def create_commit_comment(self, repo: str, sha: str, body: str) -> int:
        url = f"{_split(repo)}/commits/{quote(git_ref(sha), safe='')}/comments"
        return int(self._object("POST", url, json={"body": body})["id"])

    # checks and permissions

    def create_check_run(
        self,
        repo: str,
        head_sha: str,
        name: str,
        status: str,
        *,
        title: str | None = None,
        summary: str | None = None,
        conclusion: str | None = None,
        external_id: str | None = None,
    ) -> int:
        body = {
            "name": name,
            "head_sha": head_sha,
            "status": status,
            **({"external_id": external_id} if external_id else {}),
            **_check_fields(name, conclusion, title, summary),
        }
        return int(self._object("POST", f"{_split(repo)}/check-runs", json=body)["id"])

    def open_check_runs(self, repo: str, sha: str, name: str) -> list[dict[str, Any]]:
        """This App's check runs named `name` on a commit that have not completed (id, external_id, status)."""
        ref = quote(git_ref(sha), safe="")
        page = self._json("GET", f"{_split(repo)}/commits/{ref}/check-runs",
                          params={"check_name": name, "filter": "all", "per_page": PER_PAGE}) or {}
        return [{"id": r["id"], "external_id": r.get("external_id"), "status": r.get("status")}
                for r in page.get("check_runs") or [] if r.get("status") != "completed"]

    def update_check_run(
        self,
        repo: str,
        check_run_id: int,
        *,
        status: str | None = None,
        conclusion: str | None = None,
        title: str | None = None,
        summary: str | None = None,
    ) -> None:
        body = {**({"status": status} if status else {}), **_check_fields(None, conclusion, title, summary)}
        self._json("PATCH", f"{_split(repo)}/check-runs/{check_run_id}", json=body)

    def user_permission(self, repo: str, username: str) -> str:
        url = f"{_split(repo)}/collaborators/{quote(username, safe='')}/permission"
        data = self._json("GET", url, missing_ok=True) or {}
        role = data.get("role_name")  # names maintain and triage, which `permission` folds into write and read
        return role if role in ("admin", "maintain", "write", "triage", "read") else str(data.get("permission", "none"))


SUMMARY_MAX = 65_535  # GitHub refuses a check run whose summary is longer (characters)


def _within(text: str, most: int) -> str:
    """`text` cut to `most` characters, saying so at its end."""
    return text if len(text) <= most else text[:most - 40] + "\n\n… (cut: GitHub's limit)"


def _check_fields(name: str | None, conclusion: str | None, title: str | None, summary: str | None) -> dict[str, Any]:
    fields: dict[str, Any] = {"conclusion": conclusion} if conclusion else {}
    if title or summary:  # GitHub wants both or neither
        fields["output"] = {"title": (title or name or "memfix")[:255], "summary": _within(summary or "", SUMMARY_MAX)}
    return fields


# ---- people: the App's user authorization (dashboard sign-in), and App registration from a manifest ----

WRITE_ROLES = ("admin", "maintain", "push")


@dataclass(frozen=True)
class Visitor:
    """A person signed in with GitHub, and what GitHub says they may see: {installation id: {repo: their role}},
    the role being admin, write or read."""

    login: str
    access: dict[int, dict[str, str]]


def _plain(settings: Settings, method: str, url: str, **kwargs: Any) -> Any:
    """One request outside an installation (OAuth, manifest conversion); GitHub's trouble as memfix's errors."""
    try:
        response = httpx.request(method, url, timeout=REQUEST_TIMEOUT, headers={
            "Accept": "application/json", "User-Agent": f"{settings.app_slug} (httpx)", **kwargs.pop("headers", {})},
            **kwargs)
    except httpx.TransportError as exc:
        raise GitHubTransientError(f"GitHub could not be reached ({type(exc).__name__})") from None
    if response.status_code >= 500:
        raise GitHubTransientError(f"GitHub answered {response.status_code}", response.status_code)
    try:
        body = response.json()
    except ValueError:
        body = None
    if response.status_code >= 400:
        message = body.get("message", "") if isinstance(body, dict) else ""
        raise GitHubPermanentError(f"GitHub answered {response.status_code}: {str(message)[:200]}",
                                   response.status_code)
    return body


def oauth_token(settings: Settings, code: str, redirect_uri: str) -> str:
    """The code GitHub's authorization page sent back, exchanged for the person's user token."""
    body = _plain(settings, "POST", f"{settings.github_web_url}/login/oauth/access_token", data={
        "client_id": settings.github_client_id, "client_secret": settings.github_client_secret, "code": code,
        "redirect_uri": redirect_uri})
    if not isinstance(body, dict) or not body.get("access_token"):
        error = body.get("error_description") or body.get("error") if isinstance(body, dict) else None
        raise GitHubPermanentError(f"GitHub refused the sign-in: {str(error or 'no token')[:200]}")
    return str(body["access_token"])


def visitor(settings: Settings, token: str, max_repos: int = 1000) -> Visitor:
    """Who the token's person is and which installations and repositories of this App they can access (GitHub's
    answer, with their permission on each repository)."""
    auth = {"Authorization": f"Bearer {token}"}
    api = settings.github_api_url
    login = _plain(settings, "GET", f"{api}/user", headers=auth)["login"]
    access: dict[int, dict[str, str]] = {}
    for page in range(1, 11):
        batch = _plain(settings, "GET", f"{api}/user/installations", headers=auth,
                       params={"per_page": PER_PAGE, "page": page}).get("installations") or []
        for installation in batch:
            repos: dict[str, str] = {}
            for repo_page in range(1, max_repos // PER_PAGE + 1):
                found = _plain(settings, "GET", f"{api}/user/installations/{int(installation['id'])}/repositories",
                               headers=auth, params={"per_page": PER_PAGE, "page": repo_page}).get("repositories")
                for repo in found or []:
                    rights = repo.get("permissions") or {}
                    repos[repo["full_name"]] = ("admin" if rights.get("admin") else
                                                "write" if any(rights.get(r) for r in WRITE_ROLES) else "read")
                if len(found or []) < PER_PAGE:
                    break
            access[int(installation["id"])] = repos
        if len(batch) < PER_PAGE:
            break
    return Visitor(login, access)


def convert_manifest(settings: Settings, code: str) -> dict[str, Any]:
    """The App GitHub created from memfix's manifest: id, slug, pem, webhook_secret, client_id, client_secret,
    html_url. A code is good once, for an hour."""
    app = _plain(settings, "POST", f"{settings.github_api_url}/app-manifests/{quote(code, safe='')}/conversions",
                 headers={"Accept": "application/vnd.github+json"})
    if not isinstance(app, dict):
        raise GitHubTransientError("GitHub's answer to the manifest conversion was not an App")
    return app
