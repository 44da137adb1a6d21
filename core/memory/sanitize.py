"""Stored text on its way into a prompt: it must never expand a template such as `{{project.wisdom}}`."""

from __future__ import annotations

import re

_OPEN = re.compile(r"\{(?=\{)")
_CLOSE = re.compile(r"\}(?=\})")


def escape_braces(text: str) -> str:
    """Put a space between every pair of adjacent braces: `{{x}}` → `{ {x} }`, `{{{` → `{ { {`.

    The result holds no `{{` or `}}`, so a template engine sees no placeholder in it, and escaping
    it again changes nothing (idempotent). Single braces (code, JSON) are left alone.
    """
    return _CLOSE.sub("} ", _OPEN.sub("{ ", text))
