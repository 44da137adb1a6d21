"""Verified patches as GitHub suggestion blocks: how memfix offers fixes on a PR it cannot push to (a fork's).

GitHub accepts a review comment only on lines the PR's diff shows (its hunks, context lines included), and a
multi-line comment only within one hunk. A change elsewhere in the file is shown in the review body as a diff.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from typing import Any

from core.change import Patch

_HUNK = re.compile(r"^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@", re.M)


@dataclass(frozen=True)
class Suggestion:
    path: str
    start_line: int  # 1-based lines of the file at the PR's head, inclusive
    end_line: int
    replacement: list[str]

    def comment(self) -> dict[str, Any]:
        """A review comment for `POST /pulls/{n}/reviews`."""
        fence = _fence(self.replacement)
        body = "\n".join([f"{fence}suggestion", *self.replacement, fence])
        comment = {"path": self.path, "line": self.end_line, "side": "RIGHT", "body": body}
        if self.start_line != self.end_line:
            comment.update(start_line=self.start_line, start_side="RIGHT")
        return comment

    def diff(self, original: list[str]) -> str:
        removed = original[self.start_line - 1:self.end_line]
        fence = _fence([*removed, *self.replacement])
        return "\n".join([f"{fence}diff", f"@@ line {self.start_line} @@", *(f"-{ln}" for ln in removed),
                          *(f"+{ln}" for ln in self.replacement), fence])


def _fence(lines: list[str]) -> str:
    """A code fence longer than any run of backticks in the text, so the text cannot close it."""
    longest = max((len(m) for ln in lines for m in re.findall(r"`+", ln)), default=0)
    return "`" * max(3, longest + 1)


def suggestions(patch: Patch) -> list[Suggestion]:
    """One suggestion per changed region; an insertion is anchored on the line before it (or the first line)."""
    before, after = patch.original.splitlines(), patch.updated.splitlines()
    found = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, before, after, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        new = after[j1:j2]
        if i1 == i2 and i1 > 0:  # a pure insertion: restate the line above with the new lines after it
            found.append(Suggestion(patch.path, i1, i1, [before[i1 - 1], *new]))
        elif i1 == i2:
            found.append(Suggestion(patch.path, 1, 1, [*new, *before[:1]]))
        else:
            found.append(Suggestion(patch.path, i1 + 1, i2, new))
    return found


def hunks(diff_text: str | None) -> list[range]:
    """The head-side line ranges a PR file's `patch` shows; a comment must fall inside one of them."""
    return [range(int(m[1]), int(m[1]) + int(m[2] if m[2] is not None else 1))
            for m in _HUNK.finditer(diff_text or "")]


def placeable(suggestion: Suggestion, shown: list[range]) -> bool:
    return any(suggestion.start_line in r and suggestion.end_line in r for r in shown)
