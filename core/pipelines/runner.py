"""One runner, two pipelines: detect → propose → verify → record → publish → learn.

AutoFix (correctness and security) and Refactor (improvements) differ only in their rule sets.
Every attempt is an envelope; a model is only called while the repository's breaker allows it,
and it is told what memory knows before each attempt (re-injected after every failure).
"""

from __future__ import annotations

import copy
import logging
import re
import time
from collections import defaultdict
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from core.errors import PermanentError
from core.models import Envelope, Finding, Patch, Verification
from core.pipelines.comments import comment_problem
from core.pipelines.confidence import Record, score
from core.pipelines.config import RepoConfig, parse_config
from core.pipelines.detect import Ruff
from core.pipelines.policy import RepoPolicy
from core.pipelines.present import pr_body, pr_title, summary
from core.pipelines.project import Profile, Selection, read_profile, within
from core.pipelines.prompt import EDIT_SCHEMA, SYSTEM, Revision, build_prompt, refine_prompt, unescape_braces
from core.pipelines.propose import apply_edits, ruff_patches
from core.pipelines.surface import RepositoryView, surface_problem
from core.pipelines.verify import PROMOTE_THRESHOLD, compatibility, confidence, status_for, verify, verify_many

if TYPE_CHECKING:
    from core.llm.base import LLM
    from core.memory.context import PromptContext, PromptSections
    from core.memory.ring import HealingLog
    from core.pipelines.breaker import Breakers
    from core.pipelines.learn import Learner
    from core.pipelines.publish import Published, Publisher
    from core.pipelines.runs import Mirror, RunLog
    from core.pipelines.workspace import LocalWorkspace

log = logging.getLogger(__name__)

@dataclass
class RunRequest:
    tenant_id: int
    repo: str
    pipeline: str  # autofix | refactor
    trigger: str  # push | command | issue | local
    job_key: str | None = None
    head_sha: str | None = None
    base_branch: str | None = None  # where PRs go; None: don't publish
    guidance: str | None = None
    issue_number: int | None = None
    linked_ids: list[int] = field(default_factory=list)


@dataclass
class FileOutcome:
    path: str
    findings: list[Finding]
    patch: Patch | None = None
    status: str = "UNFIXED"  # PROMOTED | RETRY | REJECTED | HUMAN_REVIEW | UNFIXED
    confidence: float = 0.0
    verification: Verification | None = None
    attempts: int = 0
    note: str = ""
    published: Published | None = None
    why: str = ""  # how the confidence was reached


@dataclass
class RunReport:
    run_id: int
    repo: str
    pipeline: str
    provider: str
    model: str | None
    files_scanned: int = 0
    findings: list[Finding] = field(default_factory=list)
    outcomes: list[FileOutcome] = field(default_factory=list)
    learnings: list = field(default_factory=list)  # SearchHits injected
    learned: int = 0
    prompt_tokens: int = 0
    config_problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    target: str = ""  # the Python the fixes are valid for, and where that was read
    threshold: float = PROMOTE_THRESHOLD
    project: list[str] = field(default_factory=list)  # target, held-back rules, the team's ruff decisions
    used: list[str] = field(default_factory=list)  # what memory changed in this run: holds, order, vetoes
    remembered: list[str] = field(default_factory=list)  # what earlier runs left, and what this run added to it
    rules: Selection | None = None  # the rules proposed, and which configuration chose them
    injected: bool = False  # a model was given the learnings
    held: tuple[str, ...] = ()  # rules the learned policy held back
    records: dict[str, Record] = field(default_factory=dict)  # each rule's record in this repository

    @property
    def promoted(self) -> list[FileOutcome]:
        return [o for o in self.outcomes if o.status == "PROMOTED"]

    @property
    def prs(self) -> list[FileOutcome]:
        return [o for o in self.outcomes if o.published and o.published.pr_number]


Progress = Callable[[str, int, int], None]  # (what, done, total)
MAX_DIFF_CHARS = 100_000  # an attempt's diff as the run page shows it
MAX_FINDINGS_PER_FILE = 1_000  # a file with more is generated or needs a person; its fixes would be one huge diff
MAX_RULES_LEFT_OUT = 4  # leave-one-rule-out tries for a failing ruff patch whose verdict names no rule of its own


class PipelineRunner:
    def __init__(self, *, ruff: Ruff, llm: LLM, context: PromptContext, healing: HealingLog, breakers: Breakers,
                 runs: RunLog, learner: Learner, max_attempts: int = 3, backoff_seconds: float = 1.0,
                 prompt_token_budget: int = 12_000, max_files_for_model: int = 10, max_prs_cap: int = 3,
                 promote_threshold: float = PROMOTE_THRESHOLD, sleep: Callable[[float], None] = time.sleep):
        self.ruff, self.llm, self.context, self.healing = ruff, llm, context, healing
        self.breakers, self.runs, self.learner = breakers, runs, learner
        self.max_attempts, self.backoff_seconds = max_attempts, backoff_seconds
        self.prompt_token_budget, self.max_files_for_model = prompt_token_budget, max_files_for_model
        self.max_prs_cap = max_prs_cap  # the installation's cap; a repository's config may ask for fewer
        self.promote_threshold = promote_threshold
        self.sleep = sleep
        self._background = ThreadPoolExecutor(1, thread_name_prefix="memfix-learn")
        self._view_reader = ThreadPoolExecutor(1, thread_name_prefix="memfix-view")
        self.profile: Profile = read_profile(lambda path: None)  # each run reads its project's (see run)
        self.workspace: LocalWorkspace | None = None
        self.view: RepositoryView | None = None  # the whole repository, read when a check first needs it
        self.reading: Future[RepositoryView] | None = None  # … begun while ruff scans
        self.plan: RepoPolicy = RepoPolicy()  # the learned policy for the run's repository and pipeline
        self.selection = Selection((), "")  # the rules this run proposes, and who chose them

    def run(self, request: RunRequest, workspace: LocalWorkspace, *, publisher: Publisher | None = None,
            mirror: Mirror | None = None, progress: Progress | None = None,
            config: RepoConfig | None = None) -> RunReport:
        problems: list[str] = []
        if config is None:
            config, problems = parse_config(workspace.config_text())
        return self._for(request, workspace, config)._run(request, workspace, publisher, mirror, progress, config,
                                                          problems)

    def close(self) -> None:
        """Finish the learning a run handed to its thread; a repository still being read is not waited for."""
        self._background.shutdown(wait=True)
        self._view_reader.shutdown(wait=False, cancel_futures=True)

    def _for(self, request: RunRequest, workspace: LocalWorkspace, config: RepoConfig) -> PipelineRunner:
        """This runner for one project: its own Python and ruff decisions shape every ruff run, its rules' record
        shapes confidence (a copy: runs share the parts)."""
        profile = read_profile(workspace.read, config.python).known_to(self.ruff.knows)
        plan = self.learner.policy.for_run(request.tenant_id, request.repo, request.pipeline, config.always_propose)
        worker = copy.copy(self)
        ours = config.rules(request.pipeline)
        worker.selection = profile.selection(request.pipeline, ours, within(ours, config.extend_rules))
        worker.ruff = self.ruff.with_args(profile.ruff_args(worker.selection.rules, plan.held))
        worker.profile, worker.plan = profile, plan
        worker.workspace, worker.view, worker.reading = workspace, None, None
        return worker

    def refine(self, request: RunRequest, workspace: LocalWorkspace, revision: Revision,
               config: RepoConfig) -> tuple[FileOutcome, int]:
        """`/refine`: the model revises its own patch through the same propose → verify → record path as a run —
        the breaker, memory, the prompt budget, the project's checks and the healing ring. (outcome, run id)"""
        return self._for(request, workspace, config)._refine(request, workspace, revision, config)

    def _refine(self, request: RunRequest, workspace: LocalWorkspace, revision: Revision,
                config: RepoConfig) -> tuple[FileOutcome, int]:
        run = self.runs.start(request.tenant_id, request.repo, request.pipeline, job_key=request.job_key,
                              trigger=request.trigger, head_sha=request.head_sha, provider=self.llm.provider,
                              model=self.llm.model)
        try:
            outcome = FileOutcome(revision.path, [])
            current = workspace.read(revision.path)
            if current is None:
                raise PermanentError(f"`{revision.path}` is not on the pull request's branch any more")
            if not self.breakers.current(request.tenant_id, request.repo, request.pipeline).allows_calls:
                outcome.note = "circuit breaker open: model calls paused"
            else:
                self.runs.phase(run, "fixing", f"revising {revision.path}")
                sections = self.context.sections(request.tenant_id, request.repo, request.pipeline,
                                                 revision.feedback[:2000], request.linked_ids)
                prompt = refine_prompt(request.repo, revision, current, sections, self.prompt_token_budget)
                if prompt is None:
                    raise PermanentError(f"{revision.path} is too large for the prompt budget "
                                         f"({self.prompt_token_budget} tokens)")
                patch, _ = self._edit(request, revision.path, revision.original, current, prompt, ())
                outcome = self._attempt(request, run, outcome, patch, self.selection.rules, 1, last=True,
                                        sections=sections)
                self.breakers.record(request.tenant_id, request.repo, request.pipeline,
                                     "success" if outcome.verification.ok else
                                     "syntax" if not outcome.verification.parses else "logic")
            self.runs.phase(run, "done", f"{outcome.status} {revision.path}", patches=int(outcome.status == "PROMOTED"))
            return outcome, run.id
        except BaseException as exc:
            self.runs.fail(run, f"{exc.__class__.__name__}: {exc}" if isinstance(exc, Exception) else "interrupted")
            raise

    def _run(self, request: RunRequest, workspace: LocalWorkspace, publisher: Publisher | None,
             mirror: Mirror | None, progress: Progress | None, config: RepoConfig, problems: list[str]) -> RunReport:
        run = self.runs.start(request.tenant_id, request.repo, request.pipeline, job_key=request.job_key,
                              trigger=request.trigger, head_sha=request.head_sha, provider=self.llm.provider,
                              model=self.llm.model, mirror=mirror)
        report = RunReport(run.id, request.repo, request.pipeline, self.llm.provider, self.llm.model,
                           config_problems=problems, target=self.profile.target.describe(),
                           threshold=self.promote_threshold, rules=self.selection,
                           project=[f"rules: {', '.join(self.selection.rules) or 'none'} — chosen by "
                                    f"{self.selection.chosen_by}" + (f"; beyond it, from .github/memfix.yml "
                                    f"`rules: extend`: {', '.join(self.selection.extended)}"
                                    if self.selection.extended else ""), *self.profile.describe()],
                           used=self.plan.used(), records=self.plan.records, held=self.plan.held)
        try:
            self.runs.chose(run, list(self.selection.rules), self.selection.chosen_by, list(self.selection.extended))
            self.runs.phase(run, "scanning", "looking for findings")
            select = self.selection.rules
            files = [p for p in workspace.files() if p.endswith(".py") and not config.ignored(p)]
            report.notes += getattr(workspace, "notes", [])
            report.notes += self._foreign_links(request)
            report.files_scanned = len(files)
            if files and self.view is None:  # read while ruff scans (it waits on a subprocess): the checks need it
                self.reading = self._view_reader.submit(workspace.repository_view)
            report.findings = self.ruff.check(workspace.root, files, select, listed=True) if files else []
            found = {f.code for f in report.findings}
            report.notes += [s for s in self.plan.suggestions if any(f" {c} " in s for c in found)]
            if progress:
                progress("scanned", len(files), len(files))
            by_file: dict[str, list[Finding]] = defaultdict(list)
            for f in report.findings:
                by_file[f.path].append(f)
            for path in [p for p, found_here in by_file.items() if len(found_here) > MAX_FINDINGS_PER_FILE]:
                report.notes.append(f"`{path}` has {len(by_file[path]):,} findings, over the {MAX_FINDINGS_PER_FILE:,} "
                                    "memfix fixes in one file: left to a person (or narrow the rules)")
                del by_file[path]
            report.findings = [f for f in report.findings if f.path in by_file]
            self.runs.phase(run, "fixing", f"{len(report.findings)} findings in {len(by_file)} files",
                            findings=len(report.findings))
            query = "\n".join(sorted({f"{f.code} {f.message}" for f in report.findings}))[:2000]
            if report.findings:  # shown in every run's output, model or not
                _, report.learnings = self.context.historical_learnings(
                    request.tenant_id, request.repo, request.pipeline, query)
            learn = (request.tenant_id, request.repo, request.pipeline, run.id)
            # Offline, this run's pain points are stored while it fixes (no prompt can see them half-saved).
            detected = self._background.submit(self.learner.detected, *learn, report.findings) \
                if self.llm.model is None else None
            self._fix_files(request, run, workspace, sorted(by_file.items()), select, query, report, progress)
            if self.view is not None and not self.view.complete:
                report.notes.append(f"the whole repository could not be read ({self.view.reason}); fixes that are "
                                    "safe only when nothing else uses what they remove were held back")
            self.runs.phase(run, "verifying", f"{len(report.promoted)} verified patches",
                            patches=len(report.promoted), prompt_tokens=report.prompt_tokens)
            if publisher is not None and request.base_branch:
                self.runs.phase(run, "publishing", "opening pull requests")
                self._publish(request, run.id, report, publisher, min(config.max_prs, self.max_prs_cap))
            learned = detected.result() if detected else self.learner.detected(*learn, report.findings)
            learned += self.learner.fixed(*learn, [o.patch for o in report.promoted])
            report.learned = len(learned)
            report.remembered = _remembered(self.runs.previous(run), learned, report)
            used = "".join(f"\n- {u}" for u in report.used)
            self.runs.phase(run, "done", summary(report) + (f"\n\nLearnings used:{used}" if used else ""),
                            prs_opened=len(report.prs), learnings=len(report.learnings))
            return report
        except BaseException as exc:  # the phase must never be left "scanning"
            self.runs.fail(run, f"{exc.__class__.__name__}: {exc}" if isinstance(exc, Exception) else "interrupted")
            raise

    def _score(self, verification: Verification, patch: Patch) -> tuple[float, str]:
        result = score(verification, confidence(verification, patch.confidence), patch, self.plan.records)
        return result.value, result.why

    def _compatible(self, verification: Verification, patch: Patch) -> Verification:
        """The project depth of verification: valid for the project's oldest supported Python, and the public
        surface and dynamic uses of the repository survive (the whole repository is read once per run)."""
        if not verification.parses:
            return verification
        target = self.profile.target
        if error := compatibility(patch, target.oldest, target.feature_version):
            verification = replace(verification, compatible=False, error=verification.error or error)
        if self.view is None:
            self.view = self.reading.result() if self.reading else self.workspace.repository_view()
        chosen = self.profile.team.select is not None and bool(within(("F401",), self.profile.team.select))
        if error := surface_problem(patch, self.view, imports_chosen=chosen):
            verification = replace(verification, surface=False, error=verification.error or error)
        if error := comment_problem(patch):
            verification = replace(verification, comments=False, error=verification.error or error)
        return verification

    def _foreign_links(self, request: RunRequest) -> list[str]:
        """Linked ids that are not this repository's insights: reported, never injected (see PromptContext)."""
        if not request.linked_ids:
            return []
        mine = {i.id for i in self.context.insights.by_ids(request.tenant_id, request.linked_ids,
                                                            repository=request.repo)}
        foreign = [str(i) for i in request.linked_ids if i not in mine]
        return [f"memory: insight {', '.join(foreign)} is not in this repository's memory; not linked"] if foreign \
            else []

    # ---- fixing ----

    def _fix_files(self, request: RunRequest, run, workspace: LocalWorkspace, files: list[tuple[str, list[Finding]]],
                   select: tuple[str, ...], query: str, report: RunReport, progress: Progress | None) -> None:
        """Every file's outcome, in order of path.

        ruff's safe fixes are made for all files at once (a few ruff runs, not one per file). A file the model
        does not work on waits, with the others like it, for one batched verification and one bulk write of their
        envelopes; what waits is settled before the model's next file, so that file's prompt sees every attempt
        before it, as if each file had been done on its own.
        """
        texts = {path: workspace.read(path) for path, _ in files}
        bases = ruff_patches(self.ruff, workspace.root, {p: f for p, f in files if texts[p] is not None}, select)
        waiting: list[FileOutcome] = []
        model_files = 0
        for path, findings in files:
            outcome = FileOutcome(path, findings)
            original, base = texts[path], bases.get(path)
            fixed = {f.key for f in base.findings} if base else set()
            remaining = [f for f in findings if f.key not in fixed]
            modelled = original is not None and bool(remaining) and self.llm.model is not None \
                and model_files < self.max_files_for_model
            if modelled:
                self._settle(request, run, waiting, select, report, progress, len(files))
                outcome = self._model_fix(request, run, outcome, original, base, remaining, select, query, report)
            elif original is None:
                outcome.note = "file is not UTF-8 text"
            elif base is None:
                outcome.note = "no safe fix" + ("" if self.llm.model else " (offline: no model configured)")
            else:
                outcome.note, outcome.patch = "ruff only", base  # verified with the others waiting, attempts 0
            model_files += outcome.note != "ruff only"
            waiting.append(outcome)
            if modelled:  # reported at once
                self._settle(request, run, waiting, select, report, progress, len(files))
        self._settle(request, run, waiting, select, report, progress, len(files))

    def _settle(self, request: RunRequest, run, waiting: list[FileOutcome], select: tuple[str, ...],
                report: RunReport, progress: Progress | None, total: int) -> None:
        """Verify the waiting ruff patches in one go, record one envelope each in one write, then report every
        waiting outcome in order. A ruff patch waits with no attempts yet; any other outcome is final."""
        patches = [o.patch for o in waiting if o.patch is not None and not o.attempts]
        if patches:
            self.runs.phase(run, "verifying", f"verifying {len(patches)} ruff fix{'es' if len(patches) > 1 else ''}")
            # The scan already knows each original's findings (same rules, same relative path): reuse them.
            known = {o.path: o.findings for o in waiting if o.patch is not None and not o.attempts}
            verdicts = {p.path: self._compatible(v, p)
                        for p, v in zip(patches, verify_many(self.ruff, patches, select, before=known).values(),
                                        strict=True)}
            repaired = self._repair([p for p in patches if not verdicts[p.path].ok], verdicts, select, known)
            breaker = self.breakers.current(request.tenant_id, request.repo, request.pipeline).state
            envelopes, verified = [], 0
            for i, outcome in enumerate(waiting):
                if (patch := outcome.patch) is None or outcome.attempts:
                    continue
                verification = verdicts[patch.path]
                if patch.path in repaired:
                    patch, verification, note = repaired[patch.path]
                    outcome = replace(outcome, patch=patch, note=note)
                score, why = self._score(verification, patch)
                status = status_for(verification, score, 1, 1, self.promote_threshold)  # ruff: one way, one try
                envelopes.append(self._envelope(request, run, patch, verification, status, score, 1,
                                                list(patch.findings), breaker))
                waiting[i] = replace(outcome, status=status, confidence=score, verification=verification, attempts=1,
                                     why=why)
                verified += status == "PROMOTED"
            self.healing.record_many(request.tenant_id, envelopes)
            self.runs.phase(run, "fixing", f"{verified} of {len(patches)} ruff fixes verified")
        for outcome in waiting:
            report.outcomes.append(outcome)
            if progress:
                progress("fixing", len(report.outcomes), total)
        waiting.clear()

    def _repair(self, failing: list[Patch], verdicts: dict[str, Verification], select: tuple[str, ...],
                known: dict[str, list[Finding]]) -> dict[str, tuple[Patch, Verification, str]]:
        """Failing ruff patches made good where ruff can: first fixed to a fixpoint (a cascade is fixed whole, as
        `ruff --fix` loops), else without the rules whose fixes failed (named by the verdict, or found by leaving
        one rule out at a time), keeping the file's other verified fixes. {path: (patch, verdict, note)}."""
        repaired: dict[str, tuple[Patch, Verification, str]] = {}
        failing = [p for p in failing if p.origin == "ruff"]

        def keep(patch: Patch, verdict: Verification, round_: int) -> set[str] | None:  # the rules to keep
            codes = {f.code for f in patch.findings}
            if round_ == 0:  # another pass of the same rules helps only when one of them is left over
                return codes if _failed_codes(patch, verdict) & codes else None
            if round_ == 1:
                kept = codes - _failed_codes(patch, verdict)
                return kept if kept and kept != codes else None
            order = sorted(codes)
            return codes - {order[round_ - 2]} if len(codes) > 1 and round_ - 2 < len(order) else None

        for round_ in range(2 + MAX_RULES_LEFT_OUT):
            candidates: dict[str, Patch] = {}
            for patch in (p for p in failing if p.path not in repaired):
                codes = keep(patch, verdicts[patch.path], round_)
                if not codes:
                    continue
                fixed = self.ruff.fix_texts({patch.path: patch.original}, tuple(sorted(codes))).get(patch.path)
                if fixed is not None and fixed != patch.updated:
                    candidates[patch.path] = replace(patch, updated=fixed,
                                                     findings=tuple(f for f in patch.findings if f.code in codes))
            if not candidates:
                continue
            checked = verify_many(self.ruff, list(candidates.values()), select,
                                  before={p: known[p] for p in candidates if p in known})
            for path, candidate in candidates.items():
                verdict = self._compatible(checked[path], candidate)
                if not verdict.ok:
                    continue
                original = next(p for p in failing if p.path == path)
                dropped = sorted({f.code for f in original.findings} - {f.code for f in candidate.findings})
                repaired[path] = (candidate, verdict, "fixed to a fixpoint" if not dropped else
                                  f"without {', '.join(dropped)}: its fixes failed verification; the rest kept")
        return repaired

    def _model_fix(self, request: RunRequest, run, outcome: FileOutcome, original: str, base: Patch | None,
                   remaining: list[Finding], select: tuple[str, ...], query: str, report: RunReport) -> FileOutcome:
        path, findings = outcome.path, outcome.findings
        state = self.breakers.current(request.tenant_id, request.repo, request.pipeline)
        if not state.allows_calls:
            outcome.note = "circuit breaker open: model calls paused"
            if outcome.note not in report.notes:
                report.notes.append(outcome.note)
            return self._attempt(request, run, outcome, base, select, attempt=1, last=True) if base else outcome
        start = base.updated if base else original
        error: str | None = None
        for attempt in range(1, self.max_attempts + 1):
            if attempt > 1:
                self.sleep(self.backoff_seconds * 2 ** (attempt - 2))
            sections = self.context.sections(request.tenant_id, request.repo, request.pipeline, query,
                                             request.linked_ids)
            try:
                patch = self._model_patch(request, path, original, start, remaining, base, sections, error, report)
            except PermanentError as exc:  # unusable output (even after the re-ask) or edits that don't apply
                patch, error = None, str(exc)
            if patch is None:
                verification = Verification(parses=False, targeted_gone=False, error=error or "no patch")
                outcome = self._record(request, run, outcome, None, verification, 0.0, attempt, path, findings,
                                       sections=sections)
                self.breakers.record(request.tenant_id, request.repo, request.pipeline, "logic")
            else:
                outcome = self._attempt(request, run, outcome, patch, select, attempt,
                                        last=attempt == self.max_attempts, sections=sections)
                error = outcome.verification.error if outcome.verification else None
                kind = "success" if outcome.verification and outcome.verification.ok else \
                    "syntax" if outcome.verification and not outcome.verification.parses else "logic"
                if not self.breakers.record(request.tenant_id, request.repo, request.pipeline, kind).allows_calls:
                    outcome.note = "circuit breaker opened: model calls paused"
                    report.notes.append(outcome.note)
                    break
            if outcome.status != "RETRY":
                break
        if outcome.status == "RETRY":  # attempts ran out while still retrying
            outcome.status = "HUMAN_REVIEW" if outcome.patch else "REJECTED"
        return outcome

    def _model_patch(self, request: RunRequest, path: str, original: str, start: str, remaining: list[Finding],
                     base: Patch | None, sections: PromptSections, error: str | None,
                     report: RunReport) -> Patch | None:
        prompt = build_prompt(request, path, start, remaining, sections, error, self.prompt_token_budget)
        if prompt is None:
            raise PermanentError(f"{path} is too large for the prompt budget ({self.prompt_token_budget} tokens)")
        patch, tokens = self._edit(request, path, original, start, prompt,
                                   tuple((base.findings if base else ()) + tuple(remaining)))
        report.prompt_tokens += tokens
        report.injected = report.injected or bool(report.learnings)
        return patch

    def _edit(self, request: RunRequest, path: str, original: str, start: str, prompt: str,
              targeted: tuple[Finding, ...]) -> tuple[Patch, int]:
        """One model call: its search/replace edits applied to `start` (the prompt escaped `{{`: undone here)."""
        completion = self.llm.complete(SYSTEM.format(pipeline=request.pipeline), prompt, EDIT_SCHEMA,
                                       name="propose_edits", description="Search/replace edits to the file")
        edits = [{k: unescape_braces(v) if "{{" in start else v for k, v in e.items()}
                 for e in completion.data["edits"]]
        updated = apply_edits(start, edits)
        return Patch(path, original, updated, targeted, "model", float(completion.data["confidence"]),
                     completion.data["rationale"]), completion.input_tokens

    def _attempt(self, request: RunRequest, run, outcome: FileOutcome, patch: Patch, select: tuple[str, ...],
                 attempt: int, last: bool, sections: PromptSections | None = None) -> FileOutcome:
        self.runs.phase(run, "verifying", f"verifying {patch.path}")
        verification = self._compatible(verify(self.ruff, patch, select), patch)
        score, why = self._score(verification, patch)
        outcome = replace(self._record(request, run, outcome, patch, verification, score, attempt, patch.path,
                                       list(patch.findings), last=last, sections=sections), why=why)
        self.runs.phase(run, "fixing", f"{outcome.status} {patch.path}")
        return outcome

    def _record(self, request: RunRequest, run, outcome: FileOutcome, patch: Patch | None,
                verification: Verification, score: float, attempt: int, path: str, findings: list[Finding],
                last: bool = False, sections: PromptSections | None = None) -> FileOutcome:
        status = status_for(verification, score, attempt, 1 if last else self.max_attempts, self.promote_threshold)
        breaker = self.breakers.current(request.tenant_id, request.repo, request.pipeline).state
        self.healing.record(request.tenant_id, self._envelope(request, run, patch, verification, status, score,
                                                              attempt, findings, breaker, path, sections))
        return replace(outcome, patch=patch, status=status, confidence=score, verification=verification,
                       attempts=attempt)

    @staticmethod
    def _envelope(request: RunRequest, run, patch: Patch | None, verification: Verification, status: str,
                  score: float, attempt: int, findings: list[Finding], breaker: str,
                  path: str | None = None, sections: PromptSections | None = None) -> Envelope:
        first = findings[0] if findings else None
        path = path if path is not None else patch.path
        return Envelope(
            repository=request.repo, status=status, attempt=attempt, confidence=round(score, 4),
            breaker_state=breaker, run_id=str(run.id), pipeline=request.pipeline,
            patch_id=patch.fingerprint(request.pipeline) if patch else None,
            error_message=verification.error,
            error_hash=Envelope.hash_error(path, first.line if first else None, verification.error or "")
            if verification.error else None,
            path=path, checks=verification.checks(), sections=sections.shown() if sections is not None else None,
            diff="\n".join(patch.unified_diff(context=3))[:MAX_DIFF_CHARS] if patch else None,
        )

    # ---- publish ----

    def _credited(self, report: RunReport, outcome: FileOutcome) -> list[int]:
        """The insights a merge or close is a verdict on: those a model was given for this patch, and the policy's
        decisions that shaped the run; never ones that were only looked up."""
        given = [h.insight.id for h in report.learnings] if report.injected and outcome.patch.origin == "model" else []
        return given + [h.insight_id for h in self.plan.holds.values()]

    def _publish(self, request: RunRequest, run_id: int, report: RunReport, publisher: Publisher,
                 max_prs: int) -> None:
        plain = sorted(report.promoted, key=lambda o: (-len(o.patch.findings), o.path))
        ranked = sorted(plain, key=lambda o: -self.plan.rank({f.code for f in o.patch.findings}))  # stable
        if len(plain) > max_prs and ranked[:max_prs] != plain[:max_prs]:
            report.used.append("proposed first: " + ", ".join(f"`{o.path}`" for o in ranked[:max_prs])
                               + " (their rules' record in this repository is better)")
        opened = 0
        for outcome in ranked:
            if opened >= max_prs:
                outcome.note = f"not published: at most {max_prs} PRs per run"
                continue
            title = pr_title(request.pipeline, outcome)
            outcome.published = publisher.publish(
                request.tenant_id, request.repo, request.pipeline, outcome.patch, base_branch=request.base_branch,
                title=title, body=pr_body(request, report, outcome, publisher.ci), run_id=run_id,
                insight_ids=self._credited(report, outcome), provider=report.provider, model=report.model)
            opened += outcome.published.action in ("created", "updated", "unchanged")
            if outcome.published.action == "skipped":
                report.used.append(f"`{outcome.path}`: not proposed again: {outcome.published.reason}")


def _failed_codes(patch: Patch, verdict: Verification | None) -> set[str]:
    """The rules a failed verdict names: targeted findings still present, or findings the patch created."""
    if verdict is None:
        return set()
    named = set(re.findall(r"\b([A-Z]{1,8}[0-9]{1,4}) still present", verdict.error or ""))
    return named | {f.code for f in verdict.new_findings} | ({f.code for f in patch.findings} & set(
        re.findall(r"\b([A-Z]{1,8}[0-9]{1,4})\b", verdict.error or "")))


def _remembered(earlier: dict | None, learned: list, report: RunReport) -> list[str]:
    """What memory held before this run and what the run changed in it, said plainly (a second run must show it)."""
    known = sum(1 for r in learned if r.merged)
    if earlier is None:
        return [f"First run of {report.repo} in memory: {len(learned)} insight(s) stored."]
    lines = [f"Remembered from run {earlier['id']} ({earlier['started_at']:%Y-%m-%d %H:%M}) of {report.repo}: "
             f"{earlier['findings']} finding(s), {earlier['patches']} verified patch(es), "
             f"{earlier['prs_opened']} PR(s).",
             f"This run: {known} of {len(learned)} insight(s) were already known and reinforced, "
             f"{len(learned) - known} new."]
    if report.used:
        lines.append("What memory changed: " + "; ".join(report.used))
    elif not report.injected:
        lines.append("What memory changed: nothing in which fixes were made; it learns which rules this "
                     "repository wants from its PRs' outcomes on GitHub, and with a model configured its learnings "
                     "go into the prompts.")
    return lines
