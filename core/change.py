"""A change as every language and pipeline sees it: a finding in a file, a patch to exactly one file, and what
verifying that patch found."""

from __future__ import annotations

import difflib
import hashlib
from dataclasses import dataclass, field
from functools import cached_property
from typing import Literal

from core.memory.sanitize import printable


@dataclass(frozen=True)
class Finding:
    """One problem in one file, from ruff or from the model."""

    path: str  # relative to the repository root, forward slashes
    line: int
    column: int
    code: str  # ruff rule (F401, S608, ...) or "MODEL"
    message: str
    fixable: bool = False  # ruff has a safe fix for it
    source: str = "ruff"  # ruff | model
    # ruff's safe fix as edits (row, column, end row, end column, new text), 1-based, columns in characters
    edits: tuple[tuple[int, int, int, int, str], ...] = field(default=(), compare=False, repr=False)
    # the fix the linter calls unsafe, in the same form: proposed only for what a push brought, and CI decides
    unsafe_edits: tuple[tuple[int, int, int, int, str], ...] = field(default=(), compare=False, repr=False)
    unsafe_fix: bool = False  # the linter has an unsafe fix it reports without edits (Biome): `--unsafe` makes it

    def __post_init__(self) -> None:  # a tool's words are data: they may quote a NUL from the file
        object.__setattr__(self, "message", printable(self.message))

    @property
    def key(self) -> tuple[str, str]:
        """What identifies a finding across edits: lines move, code and message do not."""
        return self.code, self.message


def edit_spans(text: str, edits: tuple[tuple[int, int, int, int, str], ...]) -> list[tuple[int, int, str]]:
    """A finding's edits as (start, end, new text) offsets into `text`, in order (a row past the end is its end)."""
    starts, offset = [], 0
    for line in text.splitlines(keepends=True) or [""]:
        starts.append(offset)
        offset += len(line)
    starts.append(offset)

    def at(row: int, column: int) -> int:
        return starts[min(row - 1, len(starts) - 1)] + column - 1

    return sorted((at(r, c), at(er, ec), new) for r, c, er, ec, new in edits)


def apply_finding_edits(original: str, findings: tuple[Finding, ...]) -> tuple[str, tuple[Finding, ...]]:
    """One pass of a linter's own edits, as `ruff --fix` or `eslint --fix` makes its first pass: a finding whose
    edits overlap an earlier one's waits (it is not targeted, so it stays a finding), unless its edits make the very
    change the ones they overlap make (W293's stripped blank line, which the formatter's rewrite of that line also
    strips): that finding is fixed too. Returns the text and the findings fixed."""
    chosen: list[tuple[int, int, str]] = []
    applied: list[Finding] = []
    waiting: list[tuple[Finding, list[tuple[int, int, str]]]] = []
    for finding in sorted(findings, key=lambda f: (f.line, f.column)):
        spans = edit_spans(original, finding.edits or finding.unsafe_edits)
        if any(_overlap(span, other) for span in spans for other in chosen):
            waiting.append((finding, spans))  # the linter would apply it in a later pass
            continue
        chosen += spans
        applied.append(finding)
    text = _applied(original, chosen)
    applied += [finding for finding, spans in waiting if _same_change(original, text, chosen, spans)]
    return text, tuple(sorted(applied, key=lambda f: (f.line, f.column)))


def _same_change(original: str, text: str, chosen: list[tuple[int, int, str]], spans: list[tuple[int, int, str]],
                 ) -> bool:
    """Whether `spans`, in place of the chosen edits they overlap, make the same `text`."""
    rest = [other for other in chosen if not any(_overlap(span, other) for span in spans)]
    return _applied(original, rest + spans) == text


def _overlap(a: tuple[int, int, str], b: tuple[int, int, str]) -> bool:
    """Two edits touch the same text (two insertions at one place too)."""
    return a[0] < b[1] and b[0] < a[1] or a[0] == a[1] == b[0] == b[1]


def _applied(text: str, spans: list[tuple[int, int, str]]) -> str:
    for start, end, new in sorted(spans, reverse=True):
        text = text[:start] + new + text[end:]
    return text


class _Matching(difflib.SequenceMatcher[str]):
    def get_opcodes(self) -> list[tuple[Literal["replace", "delete", "insert", "equal"], int, int, int, int]]:
        return list(super().get_opcodes())  # get_grouped_opcodes edits the list it is given: keep the kept one whole


def _range(start: int, stop: int) -> str:
    """A hunk's line range as unified diffs write it (`3`, `3,2`, or `2,0` for none after line 2)."""
    length = stop - start
    return str(start + 1) if length == 1 else f"{start + (length > 0)},{length}"


@dataclass(frozen=True)
class Patch:
    """A proposed change to exactly one file."""

    path: str
    original: str
    updated: str
    findings: tuple[Finding, ...]  # the findings it targets
    origin: str  # ruff | model
    confidence: float = 1.0  # the proposer's own figure (ruff's safe fixes: 1.0)
    rationale: str = ""

    @cached_property
    def _opcodes(self) -> tuple[list[str], list[str], _Matching]:
        """The two texts' lines and their matching, found once per patch: every diff of it is drawn from them."""
        before, after = self.original.splitlines(), self.updated.splitlines()
        return before, after, _Matching(None, before, after)

    @cached_property
    def _diff(self) -> tuple[str, ...]:
        return tuple(ln for ln in self.unified_diff(context=0) if ln[:1] in "+-" and not ln.startswith(("+++", "---")))

    def changed_lines(self) -> list[str]:
        """The removed (-) and added (+) lines, computed once per patch."""
        return list(self._diff)

    def unified_diff(self, context: int = 1) -> list[str]:
        """The patch as a unified diff, hunk headers carrying the line numbers (as `difflib.unified_diff` writes
        it, from the patch's one matching)."""
        before, after, matcher = self._opcodes
        lines: list[str] = []
        for group in matcher.get_grouped_opcodes(context):
            if not lines:
                lines += [f"--- a/{self.path}", f"+++ b/{self.path}"]
            (_, i1, _, j1, _), (_, _, i2, _, j2) = group[0], group[-1]
            lines.append(f"@@ -{_range(i1, i2)} +{_range(j1, j2)} @@")
            for tag, a1, a2, b1, b2 in group:
                if tag == "equal":
                    lines += [" " + line for line in before[a1:a2]]
                    continue
                if tag in ("replace", "delete"):
                    lines += ["-" + line for line in before[a1:a2]]
                if tag in ("replace", "insert"):
                    lines += ["+" + line for line in after[b1:b2]]
        return lines

    @property
    def unsafe(self) -> bool:
        """It makes a fix its linter calls unsafe (for what a push brought: the repository's CI decides)."""
        return self.origin == "ruff" and any((f.unsafe_edits or f.unsafe_fix) and not (f.edits or f.fixable)
                                             for f in self.findings)

    def fingerprint(self, pipeline: str) -> str:
        """The same change to the same file for the same findings, whatever else moved in the file."""
        basis = "\n".join([pipeline, self.path, *sorted(f"{c}:{m}" for c, m in {f.key for f in self.findings}),
                           *(" ".join(ln.split()) for ln in self.changed_lines())])
        return hashlib.sha256(basis.encode()).hexdigest()[:12]


PROJECT_CHECKS = ("compatible", "surface", "comments", "as_tool")  # the Verification fields a language's checks decide


@dataclass(frozen=True)
class Verification:
    """What the scratch-directory check found; `ok` means the patch may be promoted."""

    parses: bool
    targeted_gone: bool
    new_findings: tuple[Finding, ...] = ()
    single_file: bool = True
    proportionate: bool = True
    changed_lines: int = 0
    error: str | None = None  # the first problem, in words (also the envelope's error message)
    compatible: bool = True  # valid for the project's oldest supported Python (syntax and runtime annotations)
    surface: bool = True  # the public surface and dynamic uses survive (core/languages/python/surface.py)
    comments: bool = True  # no comment lost or left away from its code (core/languages/python/comments.py)
    as_tool: bool = True  # each fix is one the team's own tool for its rule would make (core/languages/*/team.py)
    failed_codes: frozenset[str] = frozenset()  # the rules it blames: targeted findings left, findings made

    @property
    def ok(self) -> bool:
        return (self.parses and self.targeted_gone and not self.new_findings and self.single_file
                and self.proportionate and self.compatible and self.surface and self.comments and self.as_tool)

    def checks(self) -> dict[str, bool]:
        """Every named check: lint depth, then project depth (PR body, `--json`, the dashboard)."""
        return {"parses": self.parses, "targeted_gone": self.targeted_gone, "no_new_findings": not self.new_findings,
                "single_file": self.single_file, "proportionate": self.proportionate, "oldest_runtime": self.compatible,
                "public_surface": self.surface, "comments_kept": self.comments, "as_the_teams_tool": self.as_tool}
