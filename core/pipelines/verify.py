"""Verify a patch in a scratch directory, score it, and decide what becomes of the attempt.

Checks, in the order the first failure is reported: the file still parses; the targeted findings are gone; no
finding appeared that was not there before; the change stays in one file; it is proportionate to what it fixes.
Findings are compared as multisets of (code, message): lines move when code changes, codes and messages do not.
"""

from __future__ import annotations

import difflib
import tempfile
from collections import Counter
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

from core import deadline
from core.change import PROJECT_CHECKS, Finding, Patch, Verification
from core.fanout import fan_out
from core.languages.adapter import Linter, inside, mirror_layout
from core.learning.record import PROMOTE_THRESHOLD
from core.memory.types import AttemptStatus

RETRY_THRESHOLD = 0.4
MIN_CHANGE_BUDGET = 12  # lines any fix may touch
LINES_PER_FINDING = 6
MAX_SHARE = 0.4  # of a file over SMALL_FILE lines
SMALL_FILE = 40

# What each failing check costs the verification score (it starts at 1.0 and is floored at 0).
PENALTIES = {"targeted_gone": 0.5, "new_findings": 0.3, "single_file": 0.5, "proportionate": 0.3,
             "compatible": 1.0, "surface": 1.0}
VERIFICATION_WEIGHT = 0.6  # the rest is the proposer's own confidence


def verify(ruff: Linter, patch: Patch, select: tuple[str, ...], *, files_changed: int = 1,
           checkout: Path | None = None) -> Verification:
    """Run every check on `patch`; `files_changed` is how many files the whole proposal touched; `checkout`: the
    repository whose layout the copies stand in (its package skeleton is mirrored beside them)."""
    return _verify_all(ruff, [patch], select, {}, files_changed, checkout)[patch.path]


_UNCHECKED = Verification(parses=True, targeted_gone=True)  # what the project checks start from before the linter


def verify_checked(linter: Linter, patches: list[Patch], select: tuple[str, ...],
                   checks: Callable[[Verification, Patch], Verification], *,
                   before: Mapping[str, list[Finding]] | None = None,
                   checkout: Path | None = None) -> dict[str, Verification]:
    """`verify_many`, then the project's `checks` on each verdict: the checks, pure Python that needs no linter,
    run on every core while the linter verifies. The verdicts are those of checking after the linter, in order."""
    with ThreadPoolExecutor(1, thread_name_prefix="memfix-verify") as pool:
        linted = pool.submit(deadline.carried(verify_many), linter, patches, select, before=before, checkout=checkout)
        early = fan_out(lambda patch: checks(_UNCHECKED, patch), patches)
        verdicts = linted.result()
    return {p.path: checks(verdicts[p.path], p) if found is None else _merged(verdicts[p.path], found)
            for p, found in zip(patches, early, strict=True)}


def _merged(linted: Verification, checked: Verification) -> Verification:
    """The linter's verdict with the project checks' findings, as if they had run on it: its error is said first."""
    if not linted.parses:
        return linted  # a file that does not parse is not checked further
    return replace(linted, **{c: getattr(checked, c) for c in PROJECT_CHECKS}, error=linted.error or checked.error,
                   failed_codes=linted.failed_codes | checked.failed_codes)


def verify_many(ruff: Linter, patches: list[Patch], select: tuple[str, ...], *,
                before: Mapping[str, list[Finding]] | None = None,
                checkout: Path | None = None) -> dict[str, Verification]:
    """`verify` for single-file patches to different files, with ONE ruff run for all of them: {path: verdict}.

    Each verdict is the one `verify` gives that patch alone (ruff's rules look at one file at a time): parse
    checks run in-process, and every original and updated copy goes into one scratch directory for ruff.
    `before` may give the findings already known for some originals (path → findings, e.g. from the scan);
    those originals are not checked again. Two patches to one path are a ValueError.
    """
    paths = [p.path for p in patches]
    if len(set(paths)) != len(paths):
        raise ValueError("verify_many takes at most one patch per file")
    return _verify_all(ruff, patches, select, before or {}, 1, checkout)


def _verify_all(linter: Linter, patches: list[Patch], select: tuple[str, ...], before: Mapping[str, list[Finding]],
                files_changed: int, checkout: Path | None = None) -> dict[str, Verification]:
    python = [p for p in patches if linter.owns(p.path)]  # other text files only need to stay text
    found = {p.path: _sides(before.get(p.path)) for p in python}
    with tempfile.TemporaryDirectory(prefix="memfix-verify-") as scratch, \
            ThreadPoolExecutor(2, thread_name_prefix="memfix-verify") as pool:
        check = deadline.carried(linter.check)
        runs = [(side, pool.submit(check, root, paths, select, listed=True))  # one linter run a side
                for side, root, paths in _copies(Path(scratch).resolve(), python, before, checkout) if paths]
        syntax = {p.path: error for p in patches if (error := _text_error(p))}
        for side, run in runs:
            _sorted_in(run.result(), side, found, syntax, linter.syntax_code)
    return {p.path: _verdict(p, syntax.get(p.path), *found.get(p.path, ([], [])), files_changed) for p in patches}


def _sides(before: list[Finding] | None) -> tuple[list[Finding], list[Finding]]:
    """A file's findings before the patch (those given, where they were) and after it (to be found)."""
    return ([*before] if before is not None else [], [])


def _sorted_in(findings: list[Finding], side: int, found: dict[str, tuple[list[Finding], list[Finding]]],
               syntax: dict[str, str], syntax_code: str) -> None:
    """One side's findings (0: before, 1: after) put with their file; the linter parses every file it checks, so a
    syntax error after the patch is its verdict's, with no second parse."""
    for f in findings:
        if f.path not in found:
            continue
        if side == 1 and f.code == syntax_code:
            syntax.setdefault(f.path, f"SyntaxError: {f.message} (line {f.line})")
            continue
        found[f.path][side].append(f)


def _verdict(patch: Patch, syntax_error: str | None, before: list[Finding], after: list[Finding],
             files_changed: int) -> Verification:
    changed = len(patch.changed_lines())
    single_file = files_changed == 1
    proportion_error = _disproportion(patch, changed)
    if syntax_error is not None:
        return Verification(parses=False, targeted_gone=False, single_file=single_file,
                            proportionate=proportion_error is None, changed_lines=changed, error=syntax_error)

    remaining, new = _left_and_new(patch, before, after)
    errors = [
        "the patch changes nothing" if patch.updated == patch.original else None,
        *(f"{code} still present: {message}" for code, message in remaining),
        *(f"new finding {f.code} at line {f.line}: {f.message}" for f in new),
        None if single_file else f"the change spans {files_changed} files; a patch must stay inside one",
        proportion_error,
    ]
    return Verification(
        parses=True, targeted_gone=not remaining and patch.updated != patch.original, new_findings=new,
        single_file=single_file, proportionate=proportion_error is None, changed_lines=changed,
        error=_first(errors), failed_codes=frozenset(code for code, _ in remaining) | {f.code for f in new},
    )


def _first(errors: list[str | None]) -> str | None:
    return next((e for e in errors if e), None)


def _left_and_new(patch: Patch, before: list[Finding],
                  after: list[Finding]) -> tuple[list[tuple[str, str]], tuple[Finding, ...]]:
    """The targeted findings the patch leaves (by key), and the findings it brings."""
    had, has = Counter(f.key for f in before), Counter(f.key for f in after)
    targeted = Counter(f.key for f in patch.findings)
    remaining = [key for key, n in targeted.items() if has[key] > max(0, had[key] - n)]
    grown = {key: has[key] - had[key] for key in has if has[key] > had[key]}
    return remaining, _new_findings(patch, after, grown)


def confidence(verification: Verification, proposer_confidence: float) -> float:
    """0.0 when the file does not parse; otherwise 0.6 × verification score + 0.4 × the proposer's confidence.

    The verification score is 1.0 less PENALTIES for each failing check, floored at 0; so a ruff fix (proposer
    1.0) that verifies scores 1.0, and a model patch that verifies scores 0.6 + 0.4 × what the model claimed.
    """
    if not verification.parses:
        return 0.0
    failed = [check for check, passed in (
        ("targeted_gone", verification.targeted_gone), ("new_findings", not verification.new_findings),
        ("single_file", verification.single_file), ("proportionate", verification.proportionate),
        ("compatible", verification.compatible), ("surface", verification.surface),
    ) if not passed]
    score = max(0.0, 1.0 - sum(PENALTIES[check] for check in failed))
    blended = VERIFICATION_WEIGHT * score + (1 - VERIFICATION_WEIGHT) * min(max(proposer_confidence, 0.0), 1.0)
    return round(min(max(blended, 0.0), 1.0), 4)


def status_for(verification: Verification, confidence: float, attempt: int, max_attempts: int,
               threshold: float = PROMOTE_THRESHOLD) -> AttemptStatus:
    """PROMOTED, RETRY, REJECTED or HUMAN_REVIEW for attempt `attempt` (1-based) of `max_attempts`.

    - PROMOTED: every check passed and confidence ≥ PROMOTE_THRESHOLD.
    - Attempts remain: RETRY when a check failed (the next attempt is told which; any of them can be fixed by
      another try) or confidence ≥ RETRY_THRESHOLD; REJECTED only for a patch that passes every check yet
      scores below RETRY_THRESHOLD (trying the same thing again would not help).
    - Last attempt: REJECTED when the file does not parse or confidence < RETRY_THRESHOLD; otherwise
      HUMAN_REVIEW (a plausible patch that a person should decide on).
    """
    if verification.ok and confidence >= threshold:
        return AttemptStatus.PROMOTED
    if attempt < max_attempts:
        return AttemptStatus.RETRY if not verification.ok or confidence >= RETRY_THRESHOLD else AttemptStatus.REJECTED
    if not verification.parses or confidence < RETRY_THRESHOLD:
        return AttemptStatus.REJECTED
    return AttemptStatus.HUMAN_REVIEW


def _text_error(patch: Patch) -> str | None:
    """What makes the text unusable as a file at all; whether Python parses it is ruff's run to say."""
    try:
        patch.updated.encode("utf-8")
    except UnicodeEncodeError as exc:
        return f"not valid UTF-8 text: {exc.reason}"
    if "\0" in patch.updated:
        return "not text: contains NUL bytes"
    return None


def _copies(scratch: Path, patches: list[Patch], known: Mapping[str, list[Finding]],
            checkout: Path | None) -> list[tuple[int, Path, list[str]]]:
    """Each patch's original (unless its findings are `known`) and its update, each side in a folder of its own at
    the file's own path, beside the checkout's package skeleton (its `__init__.py` files and top-level modules,
    empty): rules that read the layout (implicit namespace packages, first-party imports) see the repository's.
    [(0 for before or 1 for after, the side's folder, the paths written there)]."""
    sides: list[tuple[int, Path, list[str]]] = [(0, scratch / "before", []), (1, scratch / "after", [])]
    for patch in patches:
        texts = ((1, patch.updated),) if patch.path in known else ((0, patch.original), (1, patch.updated))
        for side, text in texts:
            target = inside(sides[side][1], patch.path)
            target.parent.mkdir(parents=True, exist_ok=True)
            try:
                target.write_text(text, encoding="utf-8", newline="")
            except UnicodeEncodeError:  # lone surrogates from a model: the parse check fails it, the linter need not
                break
            sides[side][2].append(patch.path)
    for _, root, paths in sides:
        if paths:  # a side with no copies is never linted
            mirror_layout(root, paths, checkout)
    return sides


def _new_findings(patch: Patch, after: list[Finding], grown: dict[tuple[str, str], int]) -> tuple[Finding, ...]:
    """For each key that grew, as many findings as it grew by, preferring those on lines the patch changed.

    Which lines changed is only worked out when there is a choice to make (a diff of a long file is costly).
    """
    touched: set[int] | None = None
    new: list[Finding] = []
    for key, extra in grown.items():
        candidates = [f for f in after if f.key == key]
        if len(candidates) > extra:
            if touched is None:
                # autojunk (blank and repeated lines) keeps long files cheap; this only orders candidates
                matcher = difflib.SequenceMatcher(None, patch.original.splitlines(), patch.updated.splitlines())
                touched = {j + 1 for tag, _, _, j1, j2 in matcher.get_opcodes() if tag != "equal"
                           for j in range(j1, j2)}
            candidates.sort(key=lambda f: f.line not in touched)
        new.extend(candidates[:extra])
    return tuple(sorted(new, key=lambda f: (f.line, f.column, f.code)))


def _disproportion(patch: Patch, changed: int) -> str | None:
    targets = len(patch.findings)
    budget = max(MIN_CHANGE_BUDGET, LINES_PER_FINDING * targets)
    if changed > budget:
        return f"change touches {changed} lines for {targets} finding{'s' if targets != 1 else ''} (at most {budget})"
    total = len(patch.original.splitlines())
    if total > SMALL_FILE and changed > MAX_SHARE * total:
        return f"change touches {changed} of the file's {total} lines (over {MAX_SHARE:.0%})"
    return None
