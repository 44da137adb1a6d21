"""Presentation: what people read of a run — PR titles and bodies, the reply, the summary, and the JSON."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from core.languages.adapter import covering
from core.languages.registry import EVERY_RULE, fixer_of, said_of
from core.learning.places import kind_scope, words
from core.learning.record import Record
from core.memory.proposals import CiState
from core.memory.sanitize import code, escape_braces, inert
from core.memory.types import AttemptStatus
from core.wire import JobResult

if TYPE_CHECKING:
    from core.change import Finding, Patch, Verification
    from core.languages.adapter import Selection
    from core.pipelines.values import FileOutcome, RunReport, RunRequest


def pr_title(pipeline: str, outcome: FileOutcome) -> str:
    codes = ", ".join(sorted({f.code for f in outcome.patch.findings})) if outcome.patch else "findings"
    return f"{'fix' if pipeline == 'autofix' else 'improve'} {codes} in {outcome.path}"


def pr_body(request: RunRequest, report: RunReport, outcome: FileOutcome, ci: CiState = CiState.WAITING,
            kind: str | None = None) -> str:
    """`kind`: the file's kind of place, whose record is shown beside the repository's where they differ."""
    patch, v = outcome.patch, outcome.verification
    assert patch is not None and v is not None  # only a verified patch is proposed
    lines = [f"memfix **{request.pipeline}** proposes this single-file change to {code(patch.path)}.", ""]
    if request.issue_number:
        lines += [f"Fixes #{request.issue_number}", ""]
    lines += ["### Findings", *(f"- line {f.line}: `{f.code}` {inert(escape_braces(f.message))}"
                                for f in patch.findings), ""]
    lines += _verification_section(report, outcome, patch, v)
    lines += _rules_section(report, patch)
    if patch.rationale:
        lines += ["### Rationale", inert(escape_braces(patch.rationale)), ""]
    lines += ["### Record here", *(f"- {code} fixes: {report.records.get(code, Record()).describe()}"
                                   f"{_record_in(report, code, kind)}"
                                   for code in sorted({f.code for f in patch.findings})), ""]
    lines += _learnings_section(report, patch)
    lines += _exploring_section(report, outcome)
    lines += [ci_line(ci), "",
              "Comment `/refine <feedback>` to have memfix revise this patch; merge or close it to teach memfix."]
    return "\n".join(lines)


def _yes(check: bool) -> str:
    return "yes" if check else "no"


def _verification_section(report: RunReport, outcome: FileOutcome, patch: Patch, v: Verification) -> list[str]:
    """Each depth of verification the patch passed, its confidence, and who made it."""
    return ["### Verification",
            f"- parses: {_yes(v.parses)}; targeted findings gone: {_yes(v.targeted_gone)};"
            f" new findings: {len(v.new_findings)}; one file: {_yes(v.single_file)};"
            f" {v.changed_lines} changed lines",
            f"- valid for {said_of(report.language, 'runtime')}: {_yes(v.compatible)}; {report.target}",
            f"- {said_of(report.language, 'surface')}: {_yes(v.surface)}",
            f"- {said_of(report.language, 'comments')}: {_yes(v.comments)}",
            f"- each fix one the team's own tool for its rule would make: {_yes(v.as_tool)}",
            f"- confidence **{outcome.confidence:.2f}**: {outcome.why} (promotion threshold {report.threshold})",
            f"- fix by: {fixed_by(patch, report.language)}; provider `{report.provider}`"
            + (f", model `{report.model}`" if report.model else ""), ""]


def _rules_section(report: RunReport, patch: Patch) -> list[str]:
    """Who chose each of the patch's rules, and the run's rules."""
    if report.rules is None:
        return []
    return ["### Rules", *(f"- `{c}`: chosen by {inert(escape_braces(report.rules.origin(c)))}"
                           for c in sorted({f.code for f in patch.findings})),
            f"- this run's rules: {inert(escape_braces(report.rules.chosen_by))}", ""]


def _learnings_section(report: RunReport, patch: Patch) -> list[str]:
    """The learnings a model was given for the patch (with their sources), and those that shaped the run."""
    lines = []
    if patch.origin == "model" and report.injected and report.learnings:
        lines += ["### Learnings injected", *(
            f"- `insight:{h.insight.id}` {inert(escape_braces(h.insight.title))}"
            + (f" ([source]({h.insight.source_ref}))" if (h.insight.source_ref or "").startswith("http") else "")
            for h in report.learnings), ""]
    if report.used:
        lines += ["### Learnings used", *(f"- {inert(escape_braces(u))}" for u in report.used), ""]
    return lines


def _exploring_section(report: RunReport, outcome: FileOutcome) -> list[str]:
    """Why an exploratory PR exists: memfix's own suggestion, or a hold tried again on purpose."""
    if not (report.exploring and report.explored == outcome.path):
        return []
    if report.suggested:
        return ["### memfix's own suggestion", f"Nobody chose {report.exploring} here: the team's linters do not "
                "select it and no person named it. memfix suggests it in this one PR because it has the best record "
                "of what it could do in this installation (at most one such PR per repository a week). Merge it and "
                f"{report.exploring} fixes are proposed here from now on; close it and they are not.", ""]
    what = "every rule" if report.exploring == EVERY_RULE else report.exploring
    return ["### Tried again on purpose", f"memfix had learned to hold back {what} where this file is; this PR "
            "tries it once more, so a team whose taste changed gets it back without a command. Merge it and "
            f"{what} is proposed there again; close it and it stays held (at most one such PR per repository "
            "a week, each hold tried less often the more its evidence grows).", ""]


def _record_in(report: RunReport, code: str, kind: str | None) -> str:
    """The rule's record in the file's kind of place, when it differs from its record in the repository."""
    if kind is None:
        return ""
    here = report.contexts.get(code, {}).get(kind_scope(kind), Record())
    return f"; {here.describe(words(kind_scope(kind)))}" if here != report.records.get(code, Record()) else ""


def ci_line(ci: CiState) -> str:
    """What the PR waits for: the repository's CI is the behavioural verifier (memfix never runs its code)."""
    if ci == CiState.ABSENT:
        return ("No CI found in this repository (no workflow or CI configuration), so nothing ran this change's "
                "tests: it is ready for review at once; please check its behaviour yourself.")
    return ("This PR is a draft until the repository's checks finish on it: all green marks it ready for review; "
            "a failure keeps it a draft and memfix comments with what failed.")


def fixed_by(patch: Patch, language: str) -> str:
    """Who made the change: the language's linter (its safe fix, or the one it calls unsafe), or the model."""
    if patch.origin == "model":
        return "model"
    source = patch.findings[0].source if patch.findings else ""
    return f"{fixer_of(language, source)}'s {'unsafe fix (the repository CI decides)' if patch.unsafe else 'safe fix'}"


def why_left(outcome: FileOutcome, finding: Finding, offline: bool) -> str:
    """Why a finding is still in the file after the run, in that finding's own terms: its tool has no fix for it, the
    fix of its rule failed a check (the note that names its rule), or why nothing was proposed for the file."""
    if not (finding.edits or finding.unsafe_edits):
        return "its tool has no fix for it" + ("; no model is configured to write one" if offline else "")
    note = outcome.note if outcome.note and outcome.note != "linter only" else ""
    if finding.code in note or outcome.status != AttemptStatus.PROMOTED:
        return _not_proposed(outcome, note)
    return "its fix was left out of the verified patch"


def _not_proposed(outcome: FileOutcome, note: str) -> str:
    """Why a file's fix was not proposed: its verification's error where it was not promoted, else its note."""
    verified = outcome.verification.error if outcome.verification else None
    return (verified if outcome.status != AttemptStatus.PROMOTED and verified else note) or "no fix proposed"


def could_do(pipeline: str, selection: Selection, findings: list[Finding]) -> list[str]:
    """What a pipeline would propose here if someone chose its rules: each kind of change, its findings and files,
    one example; and how to choose them."""
    if not findings:
        return [f"{pipeline} proposes only the rules the team's linters select or a person names; here none are "
                f"chosen ({selection.chosen_by}), and none of its kinds ({', '.join(selection.could)}) finds anything"]
    families: dict[str, list[Finding]] = {}
    for f in findings:
        families.setdefault(covering(f.code, selection.could) or f.code, []).append(f)
    lines = [f"{pipeline} proposes only the rules the team's linters select or a person names; here none of its "
             f"kinds is chosen ({selection.chosen_by}). It could do:"]
    for family, found in sorted(families.items(), key=lambda item: -len(item[1])):
        first = found[0]
        lines.append(f"  {family}: {len(found)} finding(s) in {len({f.path for f in found})} file(s), e.g. "
                     f"{code(first.path)}:{first.line} `{first.code}` {inert(escape_braces(first.message))}")
    named = " ".join(sorted(families)[:3])
    lines.append(f"Name them to have them proposed: `/{pipeline} {named}` (or `memfix {pipeline} DIR --rules "
                 f"{','.join(sorted(families)[:3])}`), or select them in the linter's configuration.")
    return lines


def summary(report: RunReport) -> str:
    if report.failed:
        return f"not done: {report.failed}"
    fixed = len(report.promoted)
    held = f"; held back by what memfix learned here: {', '.join(report.held)}" if report.held else ""
    back = f"; {report.back}" if report.back else ""
    later = f"; {report.later}" if report.later else ""
    return (f"{len(report.findings)} findings in {report.files_scanned} files; {fixed} verified "
            f"patch{'es' if fixed != 1 else ''}; {len(report.prs)} PR(s){held}{later}{back}")


def report_json(report: RunReport) -> dict[str, Any]:
    return {
        "run_id": report.run_id, "repository": report.repo, "pipeline": report.pipeline, "language": report.language,
        "provider": report.provider, "model": report.model, "files_scanned": report.files_scanned,
        "findings": [f.__dict__ for f in report.findings],
        "outcomes": [_outcome_json(o) for o in report.outcomes],
        "learnings": [{"id": h.insight.id, "title": h.insight.title, "score": round(h.score, 3)}
                      for h in report.learnings],
        "learned": report.learned, "remembered": report.remembered, "prompt_tokens": report.prompt_tokens,
        "config_problems": report.config_problems, "notes": report.notes, "target": report.target,
        "rules": _rules_json(report.rules) if report.rules else None,
        "project": report.project, "learnings_used": report.used, "learnings_injected": report.injected,
        "records": {c: r.__dict__ for c, r in report.records.items()},
        "seconds": report.seconds, "failed": report.failed or None,
    }


def _outcome_json(o: FileOutcome) -> dict[str, object]:
    return {"path": o.path, "status": o.status, "confidence": round(o.confidence, 3), "why": o.why,
            "attempts": o.attempts, "note": o.note, "findings": [f.code for f in o.findings],
            "fixed": sorted({f.code for f in o.patch.findings}) if o.patch else [],
            "diff": o.patch.changed_lines() if o.patch else [],
            "unified_diff": o.patch.unified_diff() if o.patch else [],
            "verification": o.verification.error if o.verification else None,
            "checks": o.verification.checks() if o.verification else None,
            "pr": o.published.pr_number if o.published else None}


def _rules_json(rules: Selection) -> dict[str, object]:
    return {"selected": list(rules.rules), "chosen_by": rules.chosen_by, "origins": dict(rules.origins),
            "extended": list(rules.extended)}


def dumps(report: RunReport) -> str:
    return json.dumps(report_json(report), indent=2, default=str)


def dumps_all(reports: list[RunReport]) -> str:
    return json.dumps([report_json(r) for r in reports], indent=2, default=str)


def result(reports: list[RunReport], pipeline: str, paths: list[str], checks: str | None = None) -> JobResult:
    """The reply a person reads: what each language's run found, fixed, published and remembered."""
    name = _named(pipeline)
    if not reports:
        return JobResult(f"**{name}**: none of the {len(paths)} file(s) in scope is in a language memfix works on "
                         "here (`languages:` in .github/memfix.yml).")
    if len(reports) == 1:
        return _result(reports[0], pipeline, paths, checks)
    parts = [_result(r, pipeline, paths, checks) for r in reports]
    return JobResult(f"**{name}** finished: " + "; ".join(f"{r.language}: {summary(r)}" for r in reports) + ".",
                     [f"**{r.language}**: " + d if i == 0 else d
                      for r, part in zip(reports, parts, strict=True) for i, d in enumerate(part.details)])


def _result(report: RunReport, pipeline: str, paths: list[str], checks: str | None) -> JobResult:
    if report.failed:
        return JobResult(f"**{_named(pipeline)}** did not finish: {report.failed}.",
                         [f"not done: {report.failed}"])
    run = f"[run {report.run_id}]({checks})" if checks else f"run {report.run_id}"
    details = [f"scope: {len(paths)} file(s); {summary(report)}"]
    if report.rules is not None:
        details.append(_rules_line(report.rules))
    if report.injected:
        details.append(f"Loaded historical learnings from {len(report.learnings)} similar analyses into the model's "
                       "prompts")
    details += [f"learnings used: {u}" for u in report.used]
    details += [f"provider `{report.provider}`" + (f", model `{report.model}`" if report.model else "") + f"; {run}"]
    details += [_outcome_line(o) for o in report.outcomes]
    details += [f"config: {p}" for p in report.config_problems]
    details += report.notes
    return JobResult(f"**{_named(pipeline)}** finished: {summary(report)}.", details)


def _named(pipeline: str) -> str:
    """A pipeline's name as a reply says it."""
    return "AutoFix" if pipeline == "autofix" else "Refactor"


def _rules_line(rules: Selection) -> str:
    extended = f"; beyond it, from `.github/memfix.yml` `rules: extend`: {', '.join(rules.extended)}" \
        if rules.extended else ""
    return f"rules: {', '.join(rules.rules) or 'none'} — chosen by {rules.chosen_by}{extended}"


def _outcome_line(o: FileOutcome) -> str:
    """One file's outcome in the reply: its status and confidence, its PR, and why it was not proposed."""
    line = f"`{o.path}`: {o.status}"
    if o.status != AttemptStatus.UNFIXED:
        line += f" (confidence {o.confidence:.2f})"
    if o.published and o.published.pr_number:
        line += f" → #{o.published.pr_number} ({o.published.action})"
    elif o.published:
        line += f" → not proposed again: {o.published.reason}"
    if o.note and o.note != "linter only":
        line += f" — {o.note}"
    elif o.status != AttemptStatus.PROMOTED and o.verification and o.verification.error:
        line += f" — {escape_braces(o.verification.error)[:300]}"  # why it was not proposed
    return line
