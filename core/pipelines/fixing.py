"""Fix and verify, as named steps the runner takes in order: set aside what cannot be fixed (files that do not parse,
binary, generated or unreadable ones), the linter's own patches for the rest, and the repair of a linter patch that
failed verification. The model's attempts, the envelopes and the run log stay with the runner."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, replace

from core.change import PROJECT_CHECKS, Finding, Patch, Verification, apply_finding_edits
from core.learning.places import says_generated
from core.pipelines.propose import ruff_patches, scoped_patches
from core.pipelines.values import FileOutcome, RunContext
from core.pipelines.verify import verify_checked

MAX_FIXES_LEFT_OUT = 4  # leave-one-fix-out tries for a ruff patch a project check vetoed
MAX_RULES_LEFT_OUT = 4  # leave-one-rule-out tries for a failing ruff patch whose verdict names no rule of its own

Files = list[tuple[str, list[Finding]]]
Repairs = dict[str, tuple[Patch, Verification, str]]


def set_aside_unparseable(ctx: RunContext, files: Files) -> Files:
    """The files less those their linter cannot parse: each of those is an outcome left to a person, said so, and
    nothing is proposed for it."""
    broken = {path: f for path, findings in files for f in findings if f.code == ctx.linter.syntax_code}
    for path, f in sorted(broken.items()):
        ctx.report.outcomes.append(FileOutcome(path, [f], note=f"does not parse (line {f.line}: {f.message}); "
                                               "left as it is"))
    return [(path, findings) for path, findings in files if path not in broken]


@dataclass(frozen=True)
class Texts:
    """The files' texts as fixing reads them: None where a file is left as it is (not wanted, binary, generated or
    not UTF-8 text)."""

    of: dict[str, str | None]
    wanted: frozenset[str]
    binary: frozenset[str]
    generated: frozenset[str]

    def why_left(self, path: str) -> str:
        """Why a wanted file's text is not worked on."""
        if path in self.binary:
            return "binary (it contains a NUL byte): left as it is"
        if path in self.generated:
            return "generated (its first lines say a tool wrote it): left as it is"
        return "not UTF-8 text: left as it is"


def _worth_reading(ctx: RunContext, findings: list[Finding]) -> bool:
    """With a model every file is; offline, only one with a finding ruff can fix safely (or, on a push, fix at
    its lines)."""
    if ctx.llm.model:
        return True
    return any(f.fixable or ctx.scoped and (f.unsafe_edits or f.unsafe_fix) for f in findings)


def read_texts(ctx: RunContext, files: Files) -> Texts:
    """The texts of the files worth reading, less binary ones (git's own test: a NUL byte, which no table stores
    and no search takes) and generated ones."""
    wanted = frozenset(path for path, findings in files if _worth_reading(ctx, findings))
    texts = {path: ctx.workspace.read(path) if path in wanted else None for path, _ in files}
    binary = _dropped(texts, lambda text: "\x00" in text)
    generated = _dropped(texts, says_generated)
    return Texts(texts, wanted, binary, generated)


def _dropped(texts: dict[str, str | None], unread: Callable[[str], bool]) -> frozenset[str]:
    """The paths whose texts `unread` says are not to be read, their texts set to None."""
    dropped = frozenset(path for path, text in texts.items() if text is not None and unread(text))
    texts.update(dict.fromkeys(dropped))
    return dropped


def linter_patches(ctx: RunContext, texts: Texts, files: Files) -> dict[str, Patch]:
    """The linter's own fixes, for all files at once (a few linter runs, not one per file). On a push, of what it
    brought only: the linter's edits for those findings where it reports them (ruff), else its fix of their rules
    kept to the hunks at their lines (Biome)."""
    if ctx.scoped:
        return scoped_patches(ctx.linter, texts.of, dict(files), ctx.workspace.root)
    # Files with the same rules held back share a linter that leaves those rules alone, to its fixpoint too.
    alike: dict[tuple[str, ...], dict[str, list[Finding]]] = defaultdict(dict)
    for path, findings in files:
        if texts.of[path] is not None:
            alike[ctx.held_for(path)][path] = findings
    return {path: patch for held, group in alike.items()
            for path, patch in ruff_patches(ctx.linter_for(held), ctx.workspace.root, group, ctx.select).items()}


def unfixed(findings: list[Finding], base: Patch | None) -> list[Finding]:
    """The findings the linter's patch leaves."""
    fixed = {f.key for f in base.findings} if base else set()
    return [f for f in findings if f.key not in fixed]


def without_model(ctx: RunContext, outcome: FileOutcome, texts: Texts, base: Patch | None) -> FileOutcome:
    """A file the model does not work on: left as it is (said why), or its linter patch, which waits with the others
    like it for one batched verification (no attempts yet)."""
    if texts.of[outcome.path] is None and outcome.path in texts.wanted:
        outcome.note = texts.why_left(outcome.path)
    elif base is None:
        outcome.note = "no safe fix" + ("" if ctx.llm.model else " (offline: no model configured)")
    else:
        outcome.note, outcome.patch = "linter only", base
    return outcome


def project_checks(ctx: RunContext) -> Callable[[Verification, Patch], Verification]:
    """The project depth of verification, as the run's language checks it, over the whole repository read once
    per run (read to the end first: checks may run in forked workers, where no reading thread goes on)."""
    view = ctx.repository.view()
    return lambda verification, patch: ctx.project.checks(verification, patch, lambda: view)


Refix = Callable[[RunContext, list[Patch], dict[str, Verification], int], dict[str, Patch]]


def repair(ctx: RunContext, failing: list[Patch], verdicts: dict[str, Verification],
           known: dict[str, list[Finding]]) -> Repairs:
    """Failing ruff patches made good where ruff can: first fixed to a fixpoint (a cascade is fixed whole, as
    `ruff --fix` loops), else without the one fix a check vetoed (each of the blamed fixes left out in turn, the
    file's other fixes kept), else without the rules whose fixes failed (named by the verdict, or found by
    leaving one rule out at a time). {path: (patch, verdict, note)}."""
    repaired: Repairs = {}
    failing = [p for p in failing if p.origin == "ruff"]
    rounds: list[tuple[Refix, int]] = [(refixed, 0), *((without_one, i) for i in range(MAX_FIXES_LEFT_OUT)),
                                       *((refixed, r) for r in range(1, 2 + MAX_RULES_LEFT_OUT))]
    for refix, round_ in rounds:
        candidates = refix(ctx, [p for p in failing if p.path not in repaired], verdicts, round_)
        if candidates:
            repaired.update(_verified_repairs(ctx, failing, candidates, known))
    return repaired


def _verified_repairs(ctx: RunContext, failing: list[Patch], candidates: dict[str, Patch],
                      known: dict[str, list[Finding]]) -> Repairs:
    """The candidates that pass verification, each with what its repair changed in words."""
    checked = verify_checked(ctx.linter, list(candidates.values()), ctx.select, project_checks(ctx),
                             before={p: known[p] for p in candidates if p in known}, checkout=ctx.workspace.root)
    repaired: Repairs = {}
    for path, candidate in candidates.items():
        if checked[path].ok:
            original = next(p for p in failing if p.path == path)
            repaired[path] = (candidate, checked[path], repair_note(original, candidate))
    return repaired


def without_one(ctx: RunContext, failing: list[Patch], verdicts: dict[str, Verification],
                round_: int) -> dict[str, Patch]:
    """Each patch a project check vetoed, with the linter's own edits for all its findings but one: the
    `round_`-th of those whose rule the verdict blames (or of all, when it blames none)."""
    candidates: dict[str, Patch] = {}
    for patch in failing:
        verdict = verdicts[patch.path]
        if not _vetoed_and_separable(patch, verdict):
            continue
        blamed = [f for f in patch.findings if f.code in verdict.failed_codes] or list(patch.findings)
        if round_ < len(blamed) and (candidate := _without(patch, blamed[round_])) is not None:
            candidates[patch.path] = candidate
    return candidates


def _vetoed_and_separable(patch: Patch, verdict: Verification) -> bool:
    """A patch a project check vetoed whose fixes can be taken apart: two or more, each with its own edits."""
    vetoed = not all(getattr(verdict, check) for check in PROJECT_CHECKS)
    return vetoed and len(patch.findings) >= 2 and all(f.edits for f in patch.findings)


def _without(patch: Patch, left_out: Finding) -> Patch | None:
    """The patch with the linter's edits for all its findings but one; None where that changes nothing new."""
    kept = tuple(f for f in patch.findings if f is not left_out)
    updated, applied = apply_finding_edits(patch.original, kept)
    if applied and updated not in (patch.original, patch.updated):
        return replace(patch, updated=updated, findings=applied)
    return None


def refixed(ctx: RunContext, failing: list[Patch], verdicts: dict[str, Verification],
            round_: int) -> dict[str, Patch]:
    """Each failing patch fixed again by ruff with the rules this round keeps, where that changes it."""
    candidates: dict[str, Patch] = {}
    for patch in failing:
        codes = rules_kept(patch, verdicts[patch.path], round_)
        if not codes:
            continue
        fixed = ctx.linter.fix_texts({patch.path: patch.original}, tuple(sorted(codes)),
                                     checkout=ctx.workspace.root).get(patch.path)
        if fixed is not None and fixed != patch.updated:
            candidates[patch.path] = replace(patch, updated=fixed,
                                             findings=tuple(f for f in patch.findings if f.code in codes))
    return candidates


def repair_note(original: Patch, candidate: Patch) -> str:
    """What a repair changed, in words: the fixes it left out and why."""
    left = [f for f in original.findings if f not in candidate.findings]
    dropped = sorted({f.code for f in original.findings} - {f.code for f in candidate.findings})
    if not left:
        return "fixed to a fixpoint"
    if dropped:
        return f"without {', '.join(dropped)}: its fixes failed verification; the rest kept"
    return "without " + ", ".join(f"the {f.code} fix at line {f.line}" for f in left) + \
        ": a check vetoed it; the file's other fixes kept"


def rules_kept(patch: Patch, verdict: Verification, round_: int) -> set[str] | None:
    """The rules a repair round fixes a failing patch with: round 0 all of them again (to a fixpoint), round 1
    those whose fixes did not fail, then each one left out in turn; None when the round has nothing to try."""
    codes = {f.code for f in patch.findings}
    if round_ == 0:  # another pass of the same rules helps only when one of them is left over
        return codes if verdict.failed_codes & codes else None
    if round_ == 1:
        kept = codes - verdict.failed_codes
        return kept if kept and kept != codes else None
    order = sorted(codes)
    return codes - {order[round_ - 2]} if len(codes) > 1 and round_ - 2 < len(order) else None
