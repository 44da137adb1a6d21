"""Propose, the deterministic part: ruff's own safe fixes, and applying a model's search/replace edits."""

from __future__ import annotations

import difflib
from collections import defaultdict
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Any

from core import deadline
from core.change import Finding, Patch, apply_finding_edits
from core.errors import PermanentError
from core.languages.adapter import Linter, inside
from core.languages.python.ruff import selected
from core.languages.registry import fixer_of, language_of

_PARALLEL_FIXES = 4  # ruff runs at once, one per distinct set of codes to fix


class EditError(PermanentError):
    """A search/replace edit does not apply; the message says which edit and why (it goes back to the model)."""


def ruff_patch(ruff: Linter, root: Path, path: str, findings: list[Finding], select: tuple[str, ...]) -> Patch | None:
    """ruff's safe fixes for the fixable findings in `path`, as a patch targeting exactly those findings.

    Only their codes are selected, so ruff cannot slip in a change nobody asked for; None when there is nothing
    ruff can fix safely or its fixes change nothing.
    """
    targets = _targets(path, findings, select)
    if not targets:
        return None
    original = inside(Path(root), path).read_bytes().decode("utf-8")
    updated = ruff.fix(root, path, _codes(targets))
    return None if updated is None else _patch(path, original, updated, targets)


def _fixed(ruff: Linter, root: Path, groups: Mapping[tuple[str, ...], list[str]]) -> list[dict[str, str]]:
    """Each group of files fixed for its rules, a few groups side by side."""
    def fix(group: tuple[tuple[str, ...], list[str]]) -> dict[str, str]:
        return ruff.fix_many(root, group[1], group[0])
    with ThreadPoolExecutor(max(1, min(len(groups), _PARALLEL_FIXES)), thread_name_prefix="memfix-fix") as pool:
        return [*pool.map(deadline.carried(fix), groups.items())]


def ruff_patches(ruff: Linter, root: Path, findings: Mapping[str, list[Finding]],
                 select: tuple[str, ...]) -> dict[str, Patch]:
    """`ruff_patch` for many files: {path: patch} for each path of `findings` (path → its findings) that gets one.

    Files that need the same codes share one ruff run (`Ruff.fix_many`), and those runs go side by side, so each
    file is fixed under exactly the codes `ruff_patch` would select for it alone, at the cost of a few runs for
    a whole tree instead of one per file. A file that is not UTF-8 text gets no patch (ruff leaves it alone).
    """
    wanted = {path: t for path, items in findings.items() if (t := _targets(path, items, select))}
    patches = _reported_edits(root, wanted)
    patches |= _fixed_by_ruff(ruff, root, {path: t for path, t in wanted.items() if path not in patches})
    # To a fixpoint across the selected rules (a fix that makes another finding, UP031's .format() that UP032 turns
    # into an f-string, is finished here), so the next run has nothing left to change: one ruff run for all.
    for path, text in ruff.fix_texts({path: patch.updated for path, patch in patches.items()}, select,
                                     checkout=Path(root)).items():
        patches[path] = _patch(path, patches[path].original, text, wanted[path])
    return {path: patches[path] for path in findings if path in patches}  # in the order asked


def _reported_edits(root: Path, targets: Mapping[str, tuple[Finding, ...]]) -> dict[str, Patch]:
    """ruff already reported its safe fixes as edits: applied here, no second ruff run (verification judges them),
    for each file whose every target has its edits."""
    patches: dict[str, Patch] = {}
    for path, items in targets.items():
        if not all(f.edits for f in items):
            continue
        try:
            original = inside(Path(root), path).read_bytes().decode("utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        updated, applied = apply_finding_edits(original, items)
        if applied and updated != original:
            patches[path] = _patch(path, original, updated, applied)
    return patches


def _fixed_by_ruff(ruff: Linter, root: Path, targets: Mapping[str, tuple[Finding, ...]]) -> dict[str, Patch]:
    """ruff's fixes of each file's target codes, files that need the same codes in one run."""
    groups: dict[tuple[str, ...], list[str]] = defaultdict(list)
    for path, items in targets.items():
        groups[tuple(sorted(_codes(items)))].append(path)
    patches: dict[str, Patch] = {}
    for texts in _fixed(ruff, root, groups):
        for path, text in texts.items():
            try:
                original = inside(Path(root), path).read_bytes().decode("utf-8")
            except UnicodeDecodeError:
                continue
            patches[path] = _patch(path, original, text, targets[path])
    return patches


def edit_patches(texts: Mapping[str, str | None], findings: Mapping[str, list[Finding]]) -> dict[str, Patch]:
    """The linter's own edits for exactly these findings, safe and unsafe alike, and nothing else in the file (no
    second run, no fixpoint: a finding a fix makes is the verification's to catch). {path: patch}."""
    patches = {}
    for path, items in findings.items():
        original = texts.get(path)
        targets = tuple(f for f in items if f.edits or f.unsafe_edits)
        if original is None or not targets:
            continue
        if (patch := _edited(path, original, targets)) is not None:
            patches[path] = patch
    return patches


def _edited(path: str, original: str, targets: tuple[Finding, ...]) -> Patch | None:
    """The targets' own edits applied, safe and unsafe alike; None where they change nothing."""
    updated, applied = apply_finding_edits(original, targets)
    if not applied or updated == original:
        return None
    return _unsafe_said(_patch(path, original, updated, applied), {f.code for f in applied if not f.edits})


def _unsafe_said(patch: Patch, unsafe: set[str]) -> Patch:
    """The patch's rationale naming the rules whose fix the linter calls unsafe, which the repository's CI decides."""
    if not unsafe:
        return patch
    return replace(patch, rationale=patch.rationale + f"; the linter calls the fix for {', '.join(sorted(unsafe))} "
                   "unsafe: the repository's CI decides")


def scoped_patches(linter: Linter, texts: Mapping[str, str | None], findings: Mapping[str, list[Finding]],
                   checkout: Path | None) -> dict[str, Patch]:
    """A push's fixes of exactly `findings`: the linter's own edits for them where it reports edits (ruff, ESLint),
    else its fix of their rules kept to the hunks at their lines (Biome). {path: patch}"""
    edited = {path: items for path, items in findings.items() if any(f.edits or f.unsafe_edits for f in items)}
    rest = {path: items for path, items in findings.items() if path not in edited}
    return {**hunk_patches(linter, texts, rest, checkout=checkout), **edit_patches(texts, edited)}


def hunk_patches(linter: Linter, texts: Mapping[str, str | None], findings: Mapping[str, list[Finding]],
                 checkout: Path | None = None) -> dict[str, Patch]:
    """For a linter that reports no edits (Biome): its fix of exactly these findings' rules — the one it calls
    unsafe too, which the repository's CI then decides — kept only in the hunks that touch their lines, so a finding
    of the same rule elsewhere in the file stays as it was. {path: patch}"""
    wanted = {path: tuple(f for f in items if f.fixable or f.unsafe_fix) for path, items in findings.items()
              if texts.get(path)}
    patches = {}
    for (codes, unsafe), group in _by_codes(texts, wanted).items():
        for path, fixed in linter.fix_texts(group, codes, checkout=checkout, unsafe=unsafe).items():
            if (patch := _in_hunks(path, group[path], fixed, wanted[path])) is not None:
                patches[path] = patch
    return patches


def _in_hunks(path: str, original: str, fixed: str, targets: tuple[Finding, ...]) -> Patch | None:
    """The linter's fix kept to the hunks at the targets' lines; None where that changes nothing."""
    updated = hunks_at(original, fixed, {f.line for f in targets})
    if updated == original:
        return None
    return _unsafe_said(_patch(path, original, updated, targets), {f.code for f in targets if not f.fixable})


def _by_codes(texts: Mapping[str, str | None],
              wanted: Mapping[str, tuple[Finding, ...]]) -> dict[tuple[tuple[str, ...], bool], dict[str, str]]:
    """The texts grouped for one fix run each: by the codes their targets need, and whether any fix is unsafe."""
    groups: dict[tuple[tuple[str, ...], bool], dict[str, str]] = defaultdict(dict)
    for path, targets in wanted.items():
        if targets:
            unsafe = any(not f.fixable for f in targets)
            groups[tuple(sorted({f.code for f in targets})), unsafe][path] = texts[path] or ""
    return groups


def hunks_at(original: str, updated: str, lines: set[int]) -> str:
    """`updated`'s changes to `original` that touch `lines` (1-based, of `original`; an insertion touches the lines
    either side of it), every other change undone."""
    before, after = original.splitlines(keepends=True), updated.splitlines(keepends=True)
    kept: list[str] = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, before, after, autojunk=False).get_opcodes():
        if tag == "replace" and i2 - i1 == j2 - j1:  # line for line: each line's change is its own
            kept += [after[j1 + k] if i1 + k + 1 in lines else before[i1 + k] for k in range(i2 - i1)]
            continue
        kept += after[j1:j2] if tag == "equal" or _touched(tag, i1, i2, before, after[j1:j2]) & lines \
            else before[i1:i2]
    return "".join(kept)


def _touched(tag: str, i1: int, i2: int, before: list[str], added: list[str]) -> set[int]:
    """The original's lines (1-based) a change touches: those it replaces or deletes, or either side of an
    insertion, and the run of identical lines a deletion or insertion of that same line sits in."""
    touched = set(range(i1 + 1, i2 + 1)) if i2 > i1 else {i1, i1 + 1}
    if tag in ("delete", "insert"):
        touched |= alike(before, i1, i2, added if tag == "insert" else before[i1:i2])
    return touched


def alike(before: list[str], i1: int, i2: int, moved: list[str]) -> set[int]:
    """The lines (1-based) of the run of identical lines a deletion or insertion of that same line sits in: which
    of two blank lines the diff says went is its choice, not the fix's, so the whole run counts as touched."""
    if len(set(moved)) != 1:
        return set()
    lo, hi = i1, i2
    while lo > 0 and before[lo - 1] == moved[0]:
        lo -= 1
    while hi < len(before) and before[hi] == moved[0]:
        hi += 1
    return set(range(lo + 1, hi + 1))


def _targets(path: str, findings: list[Finding], select: tuple[str, ...]) -> tuple[Finding, ...]:
    return tuple(f for f in findings if f.path == path and f.fixable and selected(f.code, select))


def _codes(targets: tuple[Finding, ...]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(f.code for f in targets))


def _patch(path: str, original: str, updated: str, targets: tuple[Finding, ...]) -> Patch:
    fixer = fixer_of(language_of(path) or "", targets[0].source if targets else "")
    return Patch(path=path, original=original, updated=updated, findings=targets, origin="ruff", confidence=1.0,
                 rationale=f"{fixer}'s fixes for {', '.join(_codes(targets))}")


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
    start = _only_match(lines, wanted, where)
    end = start + len(wanted)
    ending = lines[end - 1][len(lines[end - 1].rstrip("\r\n")):]
    if replace and ending and not replace.endswith(("\n", "\r")):
        replace += ending  # the matched lines ended with a newline; keep the next line on its own
    return "".join([*lines[:start], replace, *lines[end:]])


def _only_match(lines: list[str], wanted: list[str], where: str) -> int:
    """Where the wanted lines occur in `lines`, trailing whitespace aside: exactly once, else an EditError."""
    starts = [i for i in range(len(lines) - len(wanted) + 1)
              if all(lines[i + k].rstrip() == w for k, w in enumerate(wanted))]
    if not starts:
        first = wanted[0].strip() or "(blank line)"
        raise EditError(f"{where}: the search text was not found (it starts with {first[:80]!r}); "
                        "copy it exactly from the file")
    if len(starts) > 1:
        raise EditError(f"{where}: the search text occurs {len(starts)} times; include more lines so it matches once")
    return starts[0]
