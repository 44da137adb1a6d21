"""Webhook payload → Job. Pure and cheap to import: the webhook path runs it on every delivery."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any, TypeGuard

from core.wire import (
    COMMANDS,
    ChecksJob,
    CommandJob,
    InstallationJob,
    IssueJob,
    Job,
    LineCommentJob,
    PullRequestClosedJob,
    PushJob,
    RepositoryJob,
    ReviewJob,
)

MEMFIX_BRANCH_PREFIX = "memfix/"
TRIGGER_LABEL = "memfix"
_COMMAND = re.compile(r"^/(?P<name>[a-z]+)\b[ \t]*(?P<rest>.*)$", re.DOTALL)


@dataclass(frozen=True)
class Command:
    name: str
    args: str


@dataclass(frozen=True)
class Routed:
    """A Job, or the reason there is none (logged, never an error)."""

    job: Job | None
    reason: str


def parse_command(body: str | None) -> Command | None:
    """The first non-blank line must be a known `/command`; text after it belongs to it."""
    text = (body or "").replace("\r\n", "\n").strip()
    match = _COMMAND.match(text)
    if not match or match["name"] not in COMMANDS:
        return None
    return Command(match["name"], match["rest"].strip())


def _is_self(payload: dict[str, Any], bot_login: str) -> bool:
    sender = payload.get("sender") or {}
    return sender.get("login") == bot_login


def route(event: str, payload: object, delivery_id: str, bot_login: str) -> Routed:
    if not isinstance(payload, dict):
        return Routed(None, "payload is not an object")
    if _is_self(payload, bot_login) and event not in _CI_EVENTS:  # CI runs on memfix's pushes: its verdict counts
        return Routed(None, "event caused by memfix itself")
    handler = _ROUTES.get(event)
    if handler is None:
        return Routed(None, f"event {event!r} is not handled")
    installation = _of(payload, "installation").get("id")
    if not isinstance(installation, int):
        return Routed(None, "no installation in payload")
    if not _repo(payload) and not event.startswith("installation"):
        return Routed(None, "no repository in payload")
    return _with_repo_id(handler(payload, installation, delivery_id, bot_login), payload)


def _with_repo_id(routed: Routed, payload: dict[str, Any]) -> Routed:
    """The job with its repository's id: memory is kept by the id, which a rename does not change."""
    repo_id = _of(payload, "repository").get("id")
    if routed.job is None or not routed.job.repo or not isinstance(repo_id, int) or isinstance(repo_id, bool):
        return routed
    return Routed(replace(routed.job, repo_id=repo_id), routed.reason)


def _of(obj: dict[str, Any], key: str) -> dict[str, Any]:
    """An object field of a payload; absent or null reads as an empty object (anything else is the payload's
    error, and raises as it did)."""
    return obj.get(key) or {}


def _str(obj: dict[str, Any], key: str) -> str:
    """A text field of a payload; absent or null reads as ''."""
    return obj.get(key) or ""


def _int(obj: dict[str, Any], key: str) -> int:
    return int(obj.get(key) or 0)


def _repo(payload: dict[str, Any]) -> str:
    name = (payload.get("repository") or {}).get("full_name")
    return name if isinstance(name, str) else ""


def _push(p: dict[str, Any], tenant: int, delivery: str, bot: str) -> Routed:
    repo = p.get("repository") or {}
    default = repo.get("default_branch") or repo.get("master_branch") or "main"
    if (skipped := _push_skipped(p, default, bot)) is not None:
        return Routed(None, skipped)
    status = _net_status(p.get("commits") or [])

    def pick(kind: str) -> tuple[str, ...]:
        return tuple(sorted(f for f, s in status.items() if s == kind))

    return Routed(
        PushJob(
            tenant_id=tenant,
            delivery_id=delivery,
            repo=_repo(p),
            default_branch=default,
            before=p.get("before") or "",
            after=p.get("after") or "",
            pusher=_login(p.get("pusher"), "name"),
            added=pick("added"),
            modified=pick("modified"),
            removed=pick("removed"),
        ),
        "push to default branch",
    )


def _push_skipped(p: dict[str, Any], default: str, bot: str) -> str | None:
    """Why a push is not memfix's to work on, if it is not."""
    if p.get("ref") != f"refs/heads/{default}":
        return "push is not to the default branch"
    if p.get("deleted"):
        return "branch deleted"
    if (p.get("pusher") or {}).get("name") == bot:
        return "push by memfix itself"
    return None


def _net_status(commits: list[dict[str, Any]]) -> dict[str, str]:
    """Each path's net change across commits: a file added then removed is gone, removed then re-added is
    modified."""
    status: dict[str, str] = {}
    for commit in commits:
        for change in ("added", "modified", "removed"):
            for path in commit.get(change) or []:
                net = _NET_CHANGE.get((status.pop(path, None), change), change)
                if net is not None:
                    status[path] = net
    return status


# (the path's net change so far, this commit's change) → the net change after it, where it is not this commit's;
# None: the path is gone (added, then removed)
_NET_CHANGE: dict[tuple[str | None, str], str | None] = {
    ("removed", "added"): "modified",
    ("added", "modified"): "added",
    ("added", "removed"): None,
}


def _login(user: dict[str, Any] | None, key: str = "login") -> str:
    """A user object's login (a pusher's `name`), or "" where the payload has none."""
    return (user or {}).get(key) or ""


def _by_bot(comment: dict[str, Any], bot: str) -> bool:
    user = comment.get("user") or {}
    return bool(user.get("login") == bot or user.get("type") == "Bot")


def _issue_comment(p: dict[str, Any], tenant: int, delivery: str, bot: str) -> Routed:
    if p.get("action") != "created":
        return Routed(None, "comment not newly created")
    comment = p.get("comment") or {}
    if _by_bot(comment, bot):
        return Routed(None, "comment by a bot")
    command = parse_command(comment.get("body"))
    if command is None:
        return Routed(None, "comment has no memfix command")
    issue = p.get("issue") or {}
    # Who may command memfix is GitHub's permission endpoint's call, asked by the worker: the association
    # in the payload is neither necessary (private members) nor sufficient (members with read only).
    return Routed(
        CommandJob(
            tenant_id=tenant,
            delivery_id=delivery,
            repo=_repo(p),
            command=command.name,
            args=command.args,
            issue_number=int(issue.get("number") or 0),
            is_pull_request=bool(issue.get("pull_request")),
            comment_id=int(comment.get("id") or 0),
            author=(comment.get("user") or {}).get("login") or "",
        ),
        f"/{command.name}",
    )


def _review(p: dict[str, Any], tenant: int, delivery: str, bot: str) -> Routed:
    review = _of(p, "review")
    if p.get("action") != "submitted" or _str(review, "state").lower() != "approved":
        return Routed(None, "review is not an approval")
    if not _str(review, "body").strip():
        return Routed(None, "approval has no body")
    pr = _of(p, "pull_request")
    return Routed(
        ReviewJob(
            tenant_id=tenant,
            delivery_id=delivery,
            repo=_repo(p),
            pr_number=_int(pr, "number"),
            review_id=_int(review, "id"),
            author=_login(review.get("user")),
            body=review["body"],
            head_ref=_str(_of(pr, "head"), "ref"),
        ),
        "approved review",
    )


def _line_comment(p: dict[str, Any], tenant: int, delivery: str, bot: str) -> Routed:
    comment, pr = _of(p, "comment"), _of(p, "pull_request")
    head = _str(_of(pr, "head"), "ref")
    if (skipped := _line_comment_skipped(p.get("action"), comment, head, bot)) is not None:
        return Routed(None, skipped)
    on_line = comment.get("subject_type") != "file"  # a comment on a whole file has no line
    return Routed(
        LineCommentJob(
            tenant_id=tenant,
            delivery_id=delivery,
            repo=_repo(p),
            pr_number=_int(pr, "number"),
            comment_id=_int(comment, "id"),
            thread_id=int(comment.get("in_reply_to_id") or comment.get("id") or 0),
            author=_login(comment.get("user")),
            body=comment["body"],
            path=_str(comment, "path"),
            hunk=_str(comment, "diff_hunk")[-2000:] if on_line else "",
            head_ref=head,
        ),
        "comment on a line of a memfix PR",
    )


def _line_comment_skipped(action: object, comment: dict[str, Any], head: str, bot: str) -> str | None:
    """Why a review comment is not memfix's to answer, if it is not."""
    if action != "created":
        return "review comment not newly created"
    if _by_bot(comment, bot):
        return "comment by a bot"
    if not _memfix_branch(head):
        return "review comment is not on a memfix PR"
    if not (comment.get("body") or "").strip():
        return "review comment has no text"
    return None


def _pull_request(p: dict[str, Any], tenant: int, delivery: str, bot: str) -> Routed:
    pr = _of(p, "pull_request")
    head = _of(pr, "head")
    if p.get("action") != "closed":
        return Routed(None, f"pull_request {p.get('action')} is not handled")
    if not _str(head, "ref").startswith(MEMFIX_BRANCH_PREFIX):
        return Routed(None, "closed PR is not a memfix PR")
    return Routed(
        PullRequestClosedJob(
            tenant_id=tenant,
            delivery_id=delivery,
            repo=_repo(p),
            pr_number=int(pr.get("number") or p.get("number") or 0),
            merged=bool(pr.get("merged")),
            head_ref=_str(head, "ref"),
            head_sha=_str(head, "sha"),
            closed_by=_login(p.get("sender")),
            head_repo=_str(_of(head, "repo"), "full_name"),
            author=_login(pr.get("user")),
            closed_at=str(pr.get("closed_at") or ""),
        ),
        "memfix PR merged" if pr.get("merged") else "memfix PR closed unmerged",
    )


def _issues(p: dict[str, Any], tenant: int, delivery: str, bot: str) -> Routed:
    label = _of(p, "label").get("name")
    if p.get("action") != "labeled" or label != TRIGGER_LABEL:
        return Routed(None, "issue not labelled memfix")
    issue = _of(p, "issue")
    return Routed(
        IssueJob(
            tenant_id=tenant,
            delivery_id=delivery,
            repo=_repo(p),
            issue_number=_int(issue, "number"),
            title=_str(issue, "title"),
            body=_str(issue, "body"),
            author=_login(p.get("sender")),
            updated_at=str(issue.get("updated_at") or ""),
        ),
        "issue labelled memfix",
    )


def _installation_job(p: dict[str, Any], tenant: int, delivery: str, action: str, repos: list[Any]) -> InstallationJob:
    return InstallationJob(
        tenant_id=tenant,
        delivery_id=delivery,
        repo=None,
        action=action,
        account=((p.get("installation") or {}).get("account") or {}).get("login") or "",
        repositories=tuple((int(r["id"]), r["full_name"]) for r in repos or [] if "id" in r and "full_name" in r),
        updated_at=str((p.get("installation") or {}).get("updated_at") or ""),
    )


def _installation(p: dict[str, Any], tenant: int, delivery: str, bot: str) -> Routed:
    action = p.get("action")
    if action not in ("created", "deleted"):
        return Routed(None, f"installation {action} is not handled")
    return Routed(_installation_job(p, tenant, delivery, action, p.get("repositories") or []),
                  f"installation {action}")


def _repository(p: dict[str, Any], tenant: int, delivery: str, bot: str) -> Routed:
    action = p.get("action")
    if action not in ("renamed", "transferred"):
        return Routed(None, f"repository {action} is not handled")
    former = _former_name(_of(p, "changes"), _repo(p), action)
    return Routed(RepositoryJob(tenant_id=tenant, delivery_id=delivery, repo=_repo(p), action=action, former=former,
                                updated_at=str(_of(p, "repository").get("updated_at") or "")),
                  f"repository {action}")


def _former_name(changes: dict[str, Any], repo: str, action: str) -> str:
    """The repository's full name before it was renamed or transferred."""
    if action == "renamed":
        return f"{repo.partition('/')[0]}/{_of(_of(changes, 'repository'), 'name').get('from')}"
    owner = _of(_of(changes, "owner"), "from")
    return f"{(owner.get('user') or owner.get('organization') or {}).get('login')}/{repo.partition('/')[2]}"


def _installation_repositories(p: dict[str, Any], tenant: int, delivery: str, bot: str) -> Routed:
    action = p.get("action")
    if action not in ("added", "removed"):
        return Routed(None, f"installation_repositories {action} is not handled")
    repos = p.get(f"repositories_{action}")
    return Routed(_installation_job(p, tenant, delivery, action, repos or []), f"repositories {action}")


def _memfix_branch(branch: str | None) -> TypeGuard[str]:
    return bool(branch) and str(branch).startswith(MEMFIX_BRANCH_PREFIX)


def _checks_job(p: dict[str, Any], tenant: int, delivery: str, sha: str, branch: str, source: str, ident: object,
                state: str) -> Routed:
    return Routed(ChecksJob(tenant_id=tenant, delivery_id=delivery, repo=_repo(p), head_sha=sha, branch=branch,
                            source=source, ident=str(ident or ""), state=state),
                  f"{source} {state} on memfix's branch")


def _own_app(app: dict[str, Any] | None, bot: str) -> bool:
    """memfix's own check runs (the run's mirror) are not the repository's CI."""
    return app is not None and f"{app.get('slug')}[bot]" == bot


def _check_suite(p: dict[str, Any], tenant: int, delivery: str, bot: str) -> Routed:
    suite = p.get("check_suite") or {}
    if p.get("action") != "completed":
        return Routed(None, f"check_suite {p.get('action')} is not a result")
    if not _memfix_branch(suite.get("head_branch")) or _own_app(suite.get("app"), bot):
        return Routed(None, "check suite is not CI on a memfix branch")
    return _checks_job(p, tenant, delivery, suite.get("head_sha") or "", suite["head_branch"], "check_suite",
                       suite.get("id"), suite.get("conclusion") or "")


def _check_run(p: dict[str, Any], tenant: int, delivery: str, bot: str) -> Routed:
    run = p.get("check_run") or {}
    branch = (run.get("check_suite") or {}).get("head_branch")
    if p.get("action") != "completed":
        return Routed(None, f"check_run {p.get('action')} is not a result")
    if not _memfix_branch(branch) or _own_app(run.get("app"), bot):
        return Routed(None, "check run is not CI on a memfix branch")
    return _checks_job(p, tenant, delivery, run.get("head_sha") or "", branch, "check_run", run.get("id"),
                       run.get("conclusion") or "")


def _workflow_run(p: dict[str, Any], tenant: int, delivery: str, bot: str) -> Routed:
    run = p.get("workflow_run") or {}
    if p.get("action") != "completed":
        return Routed(None, f"workflow_run {p.get('action')} is not a result")
    if not _memfix_branch(run.get("head_branch")):
        return Routed(None, "workflow run is not on a memfix branch")
    return _checks_job(p, tenant, delivery, run.get("head_sha") or "", run["head_branch"], "workflow_run",
                       run.get("id"), run.get("conclusion") or "")


def _status(p: dict[str, Any], tenant: int, delivery: str, bot: str) -> Routed:
    if p.get("state") == "pending":
        return Routed(None, "status is pending")
    branch = next((b.get("name") for b in p.get("branches") or [] if _memfix_branch(b.get("name"))), None)
    if branch is None:
        return Routed(None, "status is not on a memfix branch")
    return _checks_job(p, tenant, delivery, p.get("sha") or "", branch, "status", p.get("id"), p.get("state") or "")


_CI_EVENTS = ("check_suite", "check_run", "workflow_run", "status")
_ROUTES = {
    "check_suite": _check_suite,
    "check_run": _check_run,
    "workflow_run": _workflow_run,
    "status": _status,
    "push": _push,
    "issue_comment": _issue_comment,
    "pull_request_review": _review,
    "pull_request_review_comment": _line_comment,
    "pull_request": _pull_request,
    "issues": _issues,
    "installation": _installation,
    "installation_repositories": _installation_repositories,
    "repository": _repository,
}
