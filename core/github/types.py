"""GitHub as the pipelines see it: a pull request and a check on a commit, read from the API's JSON."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any


@dataclass(frozen=True)
class PullRequest:
    number: int
    head_ref: str
    head_sha: str
    head_repo: str  # owner/name; a fork's for a fork PR, "" when that repository is gone
    base_ref: str
    merged: bool = False
    html_url: str | None = None
    draft: bool = False
    node_id: str = ""  # GraphQL's id: marking a draft ready for review has no REST endpoint
    base_sha: str = ""  # the base branch's commit the PR is compared with

    @staticmethod
    def from_api(data: dict[str, Any]) -> PullRequest:
        head, base = data.get("head") or {}, data.get("base") or {}
        return PullRequest(int(data["number"]), head.get("ref") or "", head.get("sha") or "",
                           (head.get("repo") or {}).get("full_name") or "", base.get("ref") or "",
                           bool(data.get("merged")), data.get("html_url"), bool(data.get("draft")),
                           data.get("node_id") or "", base.get("sha") or "")


@dataclass(frozen=True)
class CheckResult:
    """One check on a commit: a check run of any CI App (GitHub Actions included), or a commit status."""

    name: str
    kind: str  # check | status
    status: str  # queued | in_progress | completed
    conclusion: str | None  # GitHub's conclusion (statuses: success, failure, error); None while pending
    summary: str = ""
    url: str = ""
    app: str = ""  # a check run's App slug
    id: int = 0

    @property
    def done(self) -> bool:
        return self.status == "completed"

    @property
    def green(self) -> bool:
        return self.done and self.conclusion in ("success", "neutral", "skipped")

    @property
    def red(self) -> bool:
        return self.done and not self.green

    @staticmethod
    def from_check_run(data: dict[str, Any]) -> CheckResult:
        output = data.get("output") or {}
        summary = "\n".join(t for t in (output.get("title"), output.get("summary")) if t)
        return CheckResult(data.get("name") or "", "check", data.get("status") or "queued", data.get("conclusion"),
                           summary, data.get("details_url") or data.get("html_url") or "",
                           (data.get("app") or {}).get("slug") or "", int(data.get("id") or 0))

    @staticmethod
    def from_status(data: dict[str, Any]) -> CheckResult:
        state = data.get("state") or "pending"
        return CheckResult(data.get("context") or "", "status", "in_progress" if state == "pending" else "completed",
                           None if state == "pending" else state, data.get("description") or "",
                           data.get("target_url") or "", "", int(data.get("id") or 0))


class RerunAnswer(StrEnum):
    """What GitHub answered a request to run a failed check again."""

    ASKED = "asked"
    REFUSED = "refused"  # 403: the installation has not granted the permission (GitHub Actions: `actions: write`)
    UNABLE = "unable"  # nothing to run again: a commit status, a check run gone, or one GitHub will not re-run
