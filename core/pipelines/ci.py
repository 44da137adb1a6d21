"""The repository's CI as memfix's behavioural verifier. memfix never runs repository code: its PRs open as drafts,
and the checks GitHub reports on the branch's commit (check runs of any CI App, GitHub Actions included, and commit
statuses) decide: all green → ready for review; any red → the PR stays a draft and memfix says what failed."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from core.github.types import CheckResult
from core.languages.registry import imports
from core.learning.places import Kind, place
from core.memory.proposals import CiState
from core.memory.sanitize import escape_braces

MAX_FAILING, MAX_ANNOTATIONS, MAX_SUMMARY = 5, 5, 400
MAX_READS = 10  # annotated files read to tell whether they import the changed file; a failure spread wider counts
MAX_READ_CHARS = 256 * 1024  # an importer's import lines are near its top
NOWHERE = ".github"  # the path GitHub Actions gives an annotation that names no file ("Process completed with exit…")


@dataclass(frozen=True)
class CiVerdict:
    checks: tuple[CheckResult, ...]

    @property
    def pending(self) -> list[CheckResult]:
        return [c for c in self.checks if not c.done]

    @property
    def failing(self) -> list[CheckResult]:
        return [c for c in self.checks if c.red]

    @property
    def state(self) -> CiState:
        """WAITING (nothing yet, or something still running), PASSED or FAILED."""
        if not self.checks or self.pending:
            return CiState.WAITING
        return CiState.FAILED if self.failing else CiState.PASSED

    def names(self, checks: list[CheckResult] | None = None) -> str:
        return ", ".join(f"`{c.name}`" for c in (self.checks if checks is None else checks)) or "none"


_NOT_A_RESULT = {"cancelled": "was cancelled", "timed_out": "timed out", "stale": "went stale",
                 "startup_failure": "could not start"}


@dataclass(frozen=True)
class Judgement:
    """Which failing checks speak against the change: those that passed on the base commit (or, where the base
    commit has no checks at all, every failing one that finished); the rest are CI noise, each with why."""

    counted: tuple[CheckResult, ...]
    noise: tuple[tuple[CheckResult, str], ...]
    compared: bool  # the base commit had checks to compare with

    def noise_lines(self) -> list[str]:
        return [f"- **{escape_braces(c.name)}** {why}: not counted against this change" for c, why in self.noise]


def judge(verdict: CiVerdict, base: CiVerdict, base_sha: str) -> Judgement:
    """A failing check counts against memfix's change only when the same check passed on the base commit; one that
    fails there too, did not run there, was cancelled or timed out is not a verdict on the change."""
    counted, noise = [], []
    known = {(c.name, c.kind): c for c in base.checks}
    for check in verdict.failing:
        before = known.get((check.name, check.kind))
        if check.conclusion in _NOT_A_RESULT:
            noise.append((check, _NOT_A_RESULT[check.conclusion]))
        elif not known:
            counted.append(check)  # a CI that runs only on pull requests: the failure is all there is to go on
        elif before is None:
            noise.append((check, f"did not run on the base commit `{base_sha[:7]}`"))
        elif not before.done:
            noise.append((check, f"has no result yet on the base commit `{base_sha[:7]}`"))
        elif before.red:
            noise.append((check, f"fails on the base commit `{base_sha[:7]}` too"))
        else:
            counted.append(check)
    return Judgement(tuple(counted), tuple(noise), bool(known))


def read(checks: list[CheckResult], app_slug: str) -> CiVerdict:
    """The repository's checks on a commit; memfix's own check runs (the run mirror) are not its CI."""
    return CiVerdict(tuple(c for c in checks if c.app != app_slug))


def failure_report(verdict: CiVerdict, annotations: dict[int, list[dict[str, Any]]]) -> list[str]:
    """The failing checks as markdown lines: name, kind, conclusion, what the check said, its annotations."""
    lines = []
    for check in verdict.failing[:MAX_FAILING]:
        link = f" ([details]({check.url}))" if check.url.startswith("http") else ""
        lines.append(f"- **{escape_braces(check.name)}** ({'check run' if check.kind == 'check' else 'status'}): "
                     f"{check.conclusion}{link}")
        if check.summary.strip():
            text = " ".join(check.summary.split())
            lines.append(f"  > {escape_braces(text[:MAX_SUMMARY])}{'…' if len(text) > MAX_SUMMARY else ''}")
        for note in annotations.get(check.id, [])[:MAX_ANNOTATIONS]:
            where = f"{note.get('path')}:{note.get('start_line')}"
            lines.append(f"  - `{escape_braces(where)}` {note.get('annotation_level', '')}: "
                         f"{escape_braces(' '.join(str(note.get('message', '')).split())[:MAX_SUMMARY])}")
    if len(verdict.failing) > MAX_FAILING:
        lines.append(f"- … and {len(verdict.failing) - MAX_FAILING} more failing check(s)")
    return lines


def _failure_paths(notes: Sequence[Mapping[str, object]]) -> set[str]:
    """The files a check's failure annotations name."""
    named = {str(n.get("path") or "") for n in notes if n.get("annotation_level", "failure") == "failure"}
    return named - {"", NOWHERE}


def _tied_where(name: str, paths: set[str], changed: str) -> str:
    """Why where a check failed ties it to the change ("" where it may not): nowhere said, the changed file, the
    tests."""
    if not paths:
        return f"nothing says where {name} failed (no failure annotation names a file)"
    if changed in paths:
        return f"{name} failed in `{escape_braces(changed)}`, the changed file"
    if tests := sorted(p for p in paths if place(p) == Kind.TEST):
        return f"{name} failed in the tests (`{escape_braces(tests[0])}`)"
    return ""


def tie(counted: tuple[CheckResult, ...], annotations: dict[int, list[dict[str, Any]]], changed: str,
        read: Callable[[str], str | None]) -> str:
    """Why a counted failure is the change's own, in words for the PR ("" when nothing ties it to the change, and
    only then may it be run again): a commit status (no re-run), no failure annotation naming a file, or one in the
    changed file, in the tests, or in a file that imports the changed file (`read` gives a file at the PR's head)."""
    places: dict[str, str] = {}  # each annotated file → the failing check that names it
    for check in counted:
        name = f"**{escape_braces(check.name)}**"
        if check.kind != "check":
            return f"{name} is a commit status, which GitHub cannot run again"
        paths = _failure_paths(annotations.get(check.id, []))
        if why := _tied_where(name, paths, changed):
            return why
        places |= dict.fromkeys(paths, name)
    if len(places) > MAX_READS:
        return f"the failures name {len(places)} files, more than memfix reads to tell whether they import the change"
    for path, name in sorted(places.items()):
        if imports(path, (read(path) or "")[:MAX_READ_CHARS], changed):
            return f"{name} failed in `{escape_braces(path)}`, which imports `{escape_braces(changed)}`"
    return ""
