"""Propose, the deterministic part: ruff's own safe fixes, and applying a model's search/replace edits."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from core.errors import PermanentError
from core.models import Finding, Patch
from core.pipelines.detect import Ruff, inside, selected


class EditError(PermanentError):
    """A search/replace edit does not apply; the message says which edit and why (it goes back to the model)."""


def ruff_patch(ruff: Ruff, root: Path, path: str, findings: list[Finding], select: tuple[str, ...]) -> Patch | None:
    """ruff's safe fixes for the fixable findings in `path`, as a patch targeting exactly those findings.

    Only their codes are selected, so ruff cannot slip in a change nobody asked for; None when there is nothing
    ruff can fix safely or its fixes change nothing.
    """
    targets = tuple(f for f in findings if f.path == path and f.fixable and selected(f.code, select))
    if not targets:
        return None
    codes = tuple(dict.fromkeys(f.code for f in targets))
    original = inside(Path(root), path).read_bytes().decode("utf-8")
    updated = ruff.fix(root, path, codes)
    if updated is None:
        return None
    return Patch(path=path, original=original, updated=updated, findings=targets, origin="ruff", confidence=1.0,
                 rationale=f"ruff's safe fixes for {', '.join(codes)}")


def apply_edits(original: str, edits: list[dict[str, Any]]) -> str:
    """`original` with each `{"search", "replace"}` edit applied in order.

    The search text must occur exactly once: first as written, else line by line ignoring trailing whitespace
    (models often drop or add it). Anything else raises EditError naming the edit.
    """
    text = original
    for number, edit in enumerate(edits, 1):
        where = f"edit {number} of {len(edits)}"
        search, replace = (edit.get("search"), edit.get("replace")) if isinstance(edit, dict) else (None, None)
        if not isinstance(search, str) or not isinstance(replace, str):
            raise EditError(f"{where}: needs a `search` and a `replace` string")
        if not search.strip():
            raise EditError(f"{where}: the search text is empty")
        count = text.count(search)
        if count == 1:
            text = text.replace(search, replace, 1)
        elif count > 1:
            raise EditError(f"{where}: the search text occurs {count} times; include more lines so it matches once")
        else:
            text = _replace_lines(text, search, replace, where)
    return text


def _replace_lines(text: str, search: str, replace: str, where: str) -> str:
    lines = text.splitlines(keepends=True)
    wanted = [line.rstrip() for line in search.splitlines()]
    starts = [i for i in range(len(lines) - len(wanted) + 1)
              if all(lines[i + k].rstrip() == w for k, w in enumerate(wanted))]
    if not starts:
        first = wanted[0].strip() or "(blank line)"
        raise EditError(f"{where}: the search text was not found (it starts with {first[:80]!r}); "
                        "copy it exactly from the file")
    if len(starts) > 1:
        raise EditError(f"{where}: the search text occurs {len(starts)} times; include more lines so it matches once")
    start, end = starts[0], starts[0] + len(wanted)
    ending = lines[end - 1][len(lines[end - 1].rstrip("\r\n")):]
    if replace and ending and not replace.endswith(("\n", "\r")):
        replace += ending  # the matched lines ended with a newline; keep the next line on its own
    return "".join([*lines[:start], replace, *lines[end:]])
