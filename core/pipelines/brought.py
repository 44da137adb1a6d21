"""What a push brought: of the findings in the files a push changed, the ones that were not there before it.

A push's AutoFix fixes those only, as the team's own tool run on its change would have; the findings the files
already had belong to `/autofix` and Refactor. The same linter, with the same rules, reads each changed file as it
was at the push's base; a kind of finding (rule and message) counts as brought as many times as it grew.
Which files changed, and where each one was at the base, is read the same way for a push (its payload, GitHub's
renames) and for `memfix autofix --since REF` (git): `changed`.
"""

from __future__ import annotations

import tempfile
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from core.change import Finding
from core.languages.adapter import Linter, inside

Previous = Callable[[str], "str | None"]  # a path's text at the push's base; None: the push added it


class Status(StrEnum):
    ADDED = "added"
    MODIFIED = "modified"
    RENAMED = "renamed"
    REMOVED = "removed"


@dataclass(frozen=True)
class Change:
    """One file changed since the base: where it was then and where it is now."""

    status: Status
    old: str | None  # its path at the base; None: added since
    new: str | None  # its path now; None: removed since


@dataclass(frozen=True)
class Changed:
    """The files a push's run works on, and the reader of each one's text at the base."""

    paths: list[str]  # changed and still there, in the order given
    previous: Previous  # a renamed file's text under its old name; None for an added file or any other path


def changed(changes: Iterable[Change], base: Callable[[str], str | None]) -> Changed:
    """The changed files that are still there, each read at the base (`base`: a path's text there) where it was
    then: a removed file is not run, an added one has nothing older, a renamed one is followed."""
    olds = {c.new: c.old for c in changes if c.new is not None and c.status != Status.REMOVED}

    def previous(path: str) -> str | None:
        old = olds.get(path)
        return None if old is None else base(old)

    return Changed(list(olds), previous)


def brought(linter: Linter, findings: list[Finding], previous: Previous,
            select: tuple[str, ...]) -> tuple[list[Finding], int]:
    """(the findings the push brought, how many were there before it), in the order given."""
    before = _before(linter, sorted({f.path for f in findings}), previous, select)
    seen: Counter[tuple[str, tuple[str, str]]] = Counter()
    new, old = [], 0
    for f in findings:
        seen[f.path, f.key] += 1
        if seen[f.path, f.key] <= before[f.path, f.key]:
            old += 1
        else:
            new.append(f)
    return new, old


def _before(linter: Linter, paths: list[str], previous: Previous,
            select: tuple[str, ...]) -> Counter[tuple[str, tuple[str, str]]]:
    counts: Counter[tuple[str, tuple[str, str]]] = Counter()
    with tempfile.TemporaryDirectory(prefix="memfix-before-") as scratch:
        root = Path(scratch)
        written = []
        for path in paths:
            text = previous(path)
            if text is None:
                continue  # added by the push: every finding in it is new
            target = inside(root, path)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8", errors="surrogateescape")
            written.append(path)
        for f in linter.check(root, written, select, listed=True) if written else []:
            counts[f.path, f.key] += 1
    return counts
