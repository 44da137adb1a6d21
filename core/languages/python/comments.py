"""Comments that mean something where they stand: a fix may not lose one, nor leave one that sat on a line of code
(`else:  # pragma: no cover`, `pass  # noqa: F401`, `x = f()  # type: ignore`) on a line of its own, where it no
longer applies to anything. Read with `tokenize`; nothing is run."""

from __future__ import annotations

import io
import tokenize
from collections import Counter

from core.change import Patch


def comment_problem(patch: Patch) -> str | None:
    """Why the patch changes what a comment means, or None."""
    if _commented(patch.original) == _commented(patch.updated):
        return None  # every comment still stands on the very line it stood on: nothing moved, nothing lost
    before, after = _comments(patch.original), _comments(patch.updated)
    if before is None or after is None:
        return None  # a file tokenize cannot read is another check's verdict
    if lost := _texts(before) - _texts(after):
        return f"removes the comment `{_short(next(iter(lost)))}`"
    if detached := _texts(before, trailing=True) - _texts(after, trailing=True):
        return f"leaves the comment `{_short(next(iter(detached)))}` on a line of its own, away from its code"
    return None


def _texts(comments: list[tuple[str, bool]], trailing: bool = False) -> Counter[str]:
    """The comments' texts, counted; only those after code on their line where `trailing`."""
    return Counter(text for text, after_code in comments if after_code or not trailing)


def _comments(text: str) -> list[tuple[str, bool]] | None:
    """Every comment as (its text, whether code stands before it on its line)."""
    found = []
    code_lines: set[int] = set()
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.COMMENT:
                found.append((token.string.strip(), token.start[0] in code_lines))
            elif token.type not in (tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT,
                                    tokenize.ENDMARKER, tokenize.ENCODING):
                code_lines.update(range(token.start[0], token.end[0] + 1))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return None
    return found


def _commented(text: str) -> Counter[str]:
    return Counter(line.strip() for line in text.splitlines() if "#" in line)


def _short(comment: str) -> str:
    return comment if len(comment) <= 60 else comment[:59] + "…"
