"""Marks memfix leaves in its own comments, so that a retried job finds the reply an earlier attempt posted.

A mark is found only in a comment memfix itself wrote: anyone can paste `<!-- memfix:… -->` into a comment of
their own, and a mark they wrote must never stop memfix from answering.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

JOB = "<!-- memfix:job={key} -->"  # lets a person (and memfix) tell which job a comment answers
OFFER = "<!-- memfix:offer={key} -->"  # the decisions offered for one closing or one line comment


def by(comment: dict[str, Any], bot_login: str) -> bool:
    """Whether memfix wrote the comment (its App's bot user)."""
    return (comment.get("user") or {}).get("login") == bot_login


def left(comments: Iterable[dict[str, Any]], mark: str, bot_login: str) -> dict[str, Any] | None:
    """memfix's own comment carrying `mark`, if any."""
    return next((c for c in comments if by(c, bot_login) and mark in (c.get("body") or "")), None)
