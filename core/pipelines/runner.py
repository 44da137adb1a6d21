"""One runner, two pipelines: detect → propose → verify → record → publish → learn.

AutoFix (correctness and security) and Refactor (improvements) differ only in their rule sets.
Every attempt is an envelope; a model is only called while the repository's breaker allows it,
and it is told what memory knows before each attempt (re-injected after every failure).
"""

from __future__ import annotations

import logging
import time
from collections import defaultdict
from collections.abc import Callable, Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from core import deadline
from core.change import Finding, Patch, Verification
from core.errors import PermanentError
from core.languages.adapter import Language, Project, Selection, covering
from core.languages.registry import within
from core.learning.places import Places, covers, kind_scope, words
from core.learning.policy import HeldBack, RepoPolicy
from core.memory.types import AttemptStatus, Circuit, Envelope
from core.pipelines import fixing
from core.pipelines.breaker import Trial
from core.pipelines.brought import Previous, brought
from core.pipelines.confidence import score
from core.pipelines.config import RepoConfig, parse_config
from core.pipelines.present import could_do, pr_body, pr_title, summary, why_left
from core.pipelines.prompt import EDIT_SCHEMA, SYSTEM, Revision, build_prompt, refine_prompt, unescape_braces
from core.pipelines.propose import apply_edits
from core.pipelines.publish import Draft, PublishAction
from core.pipelines.runs import Phase, Run
from core.pipelines.values import FileOutcome, Limits, Progress, Reading, RunContext, RunReport, RunRequest, Try
from core.pipelines.verify import confidence, status_for, verify_checked

if TYPE_CHECKING:
    from core.learning.learning import Learning
    from core.llm.base import LLM
    from core.memory.context import PromptContext, PromptSections
    from core.memory.ring import HealingLog
    from core.pipelines.breaker import Breakers
    from core.pipelines.publish import Publisher
    from core.pipelines.runs import Mirror, RunLog, RunRecord
    from core.pipelines.workspace import LocalWorkspace

log = logging.getLogger(__name__)
MAX_DIFF_CHARS = 100_000  # an attempt's diff as the run page shows it
MAX_FINDINGS_PER_FILE = 1_000  # a file with more is generated or needs a person; its fixes would be one huge diff

class PipelineRunner:
    def __init__(self, *, languages: tuple[Language, ...], llm: LLM, context: PromptContext, healing: HealingLog,
                 breakers: Breakers, runs: RunLog, learning: Learning, limits: Limits | None = None):
        self.llm, self.context, self.healing = llm, context, healing
        self.languages = {language.name: language for language in languages}
        self.breakers, self.runs, self.learning = breakers, runs, learning
        self.limits = limits or Limits()
        self._background = ThreadPoolExecutor(1, thread_name_prefix="memfix-learn")
        self._view_reader = ThreadPoolExecutor(1, thread_name_prefix="memfix-view")
        self._scanner = ThreadPoolExecutor(2, thread_name_prefix="memfix-scan")

    def run(self, request: RunRequest, workspace: LocalWorkspace, *, publisher: Publisher | None = None,
            mirror: Mirror | None = None, progress: Progress | None = None,
            config: RepoConfig | None = None, llm: LLM | None = None, previous: Previous | None = None) -> RunReport:
        """One run. What needs no database comes first (the project, its files, ruff's scan and the repository's
        read, both begun in threads), so a database still starting is waited for only once they are under way."""
        began = time.perf_counter()
        problems: list[str] = []
        if config is None:
            config, problems = parse_config(workspace.config_text())
        if request.rules:  # a person named them: they replace what the team's tools select, for this run
            config = config.naming(request.pipeline, request.rules)
        language = self.language(request)
        project = language.project(workspace.read, config, request.pipeline, tuple(workspace.files()))
        files = [p for p in workspace.files() if language.owns(p) and not config.ignored(p) and not project.ignored(p)]
        # Held rules are not known before the database answers: the scan leaves them in, and they are dropped after.
        rules = project.selection.rules or project.selection.could  # nothing chosen: what it could do, surveyed
        scan = self._scanner.submit(deadline.carried(project.linter().check), workspace.root, files, rules,
                                    listed=True) if files else None
        ctx = self._context(request, workspace, config, project, llm or self.llm, mirror,
                            Reading(self._view_reader, workspace, now=bool(files)))
        ctx.report.config_problems = problems
        return self._run(replace(ctx, previous=previous), files, scan, publisher, progress, began)

    def close(self) -> None:
        """Finish the learning a run handed to its thread; a repository still being read is not waited for."""
        self._background.shutdown(wait=True)
        self._scanner.shutdown(wait=True)
        self._view_reader.shutdown(wait=False, cancel_futures=True)

    def language(self, request: RunRequest) -> Language:
        language = self.languages.get(request.language)
        if language is None:
            raise PermanentError(f"memfix cannot work on {request.language} here: its linter is not installed")
        return language

    def _project(self, request: RunRequest, workspace: LocalWorkspace, config: RepoConfig) -> Project:
        """The project's own decisions for the run's language, and the rules its configuration chooses."""
        return self.language(request).project(workspace.read, config, request.pipeline, tuple(workspace.files()))

    def _context(self, request: RunRequest, workspace: LocalWorkspace, config: RepoConfig,
                 project: Project, llm: LLM, mirror: Mirror | None, reading: Reading) -> RunContext:
        """The run started in the run log, with everything it knows (the learned policy read first)."""
        plan = self.learning.plan(request.tenant_id, request.repo, request.pipeline, config.always_propose,
                                           project.named)
        selection = _enabled(project.selection, plan)
        run = self.runs.start(request, provider=llm.provider, model=llm.model, mirror=mirror)
        report = RunReport(run.id, request.repo, request.pipeline, llm.provider, llm.model,
                           target=project.target,
                           threshold=self.limits.promote_threshold, rules=selection,
                           project=[f"rules: {', '.join(selection.rules) or 'none'} — chosen by "
                                    f"{selection.chosen_by}" + (f"; beyond it, from .github/memfix.yml "
                                    f"`rules: extend`: {', '.join(selection.extended)}"
                                    if selection.extended else ""), *project.lines],
                           used=plan.used(), records=plan.records, contexts=plan.contexts, held=plan.named(),
                           language=request.language)
        return RunContext(request, workspace, config, project, selection, plan, llm, project.linter(plan.held),
                          reading, run, report, Places(workspace.read))

    def refine(self, request: RunRequest, workspace: LocalWorkspace, revision: Revision,
               config: RepoConfig, llm: LLM | None = None) -> tuple[FileOutcome, int]:
        """`/refine`: the model revises its own patch through the same propose → verify → record path as a run —
        the breaker, memory, the prompt budget, the project's checks and the healing ring. (outcome, run id)"""
        ctx = self._context(request, workspace, config, self._project(request, workspace, config), llm or self.llm,
                            None, Reading(self._view_reader, workspace, now=True))
        try:
            outcome = FileOutcome(revision.path, [])
            current = workspace.read(revision.path)
            if current is None:
                raise PermanentError(f"`{revision.path}` is not on the pull request's branch any more")
            if not self.breakers.current(*ctx.memory_key).allows_calls:
                outcome.note = "circuit breaker open: model calls paused"
            else:
                self.runs.phase(ctx.run, Phase.FIXING, f"revising {revision.path}")
                sections = self.context.sections(*ctx.memory_key, revision.feedback[:2000], request.linked_ids)
                prompt = refine_prompt(request.repo, revision, current, sections, self.limits.prompt_token_budget)
                if prompt is None:
                    raise PermanentError(f"{revision.path} is too large for the prompt budget "
                                         f"({self.limits.prompt_token_budget} tokens)")
                patch, _ = self._edit(ctx, revision.path, revision.original, current, prompt, ())
                outcome = self._attempt(ctx, outcome, patch, Try(1, last=True, sections=sections))
                self.breakers.record(*ctx.memory_key, Trial.of(outcome.verification))
            self.runs.phase(ctx.run, Phase.DONE, f"{outcome.status} {revision.path}",
                            patches=int(outcome.status == AttemptStatus.PROMOTED))
            return outcome, ctx.run.id
        except BaseException as exc:
            self._failed(ctx.run, exc)
            raise

    def _run(self, ctx: RunContext, files: list[str], scan: Future[list[Finding]] | None,
             publisher: Publisher | None, progress: Progress | None, began: float) -> RunReport:
        """Scan, recall, fix and verify, publish and learn: each step timed, the run's phase kept current."""
        report, run = ctx.report, ctx.run
        steps = _Steps(report.seconds, began)
        try:
            self.runs.chose(run, list(ctx.select), ctx.selection.chosen_by, list(ctx.selection.extended))
            self.runs.phase(run, Phase.SCANNING, "looking for findings")
            ctx = self._scan(ctx, files, scan)
            steps.done("scan")
            found = {f.code for f in report.findings}
            report.notes += [s for s in ctx.plan.suggestions if any(f" {c} " in s for c in found)]
            if progress:
                progress("scanned", len(files), len(files))
            by_file = self._files_to_fix(ctx)
            self.runs.phase(run, Phase.FIXING, f"{len(report.findings)} findings in {len(by_file)} files",
                            findings=len(report.findings))
            query, detected = self._recall(ctx)
            steps.done("recall")
            self._fix_files(ctx, sorted(by_file.items()), query, progress)
            steps.done("fix and verify")
            self._publish_and_learn(ctx, publisher, detected)
            steps.done("publish and learn")
            return report
        except BaseException as exc:  # the phase must never be left "scanning"
            self._failed(run, exc)
            raise

    def _failed(self, run: Run, exc: BaseException) -> None:
        """The run marked failed, with why. Marking it may fail too (an interruption cuts a query short; the check
        mirror's GitHub is down): that is logged, never raised over `exc`, which is what the job or command says;
        a run left open is closed by the next command, or by the job's retry."""
        try:
            self.runs.fail(run, f"{exc.__class__.__name__}: {exc}" if isinstance(exc, Exception) else "interrupted")
        except Exception:  # noqa: BLE001 — `exc` is the failure to say
            log.warning("run %s could not be marked failed", run.id, exc_info=True)

    def _scan(self, ctx: RunContext, files: list[str], scan: Future[list[Finding]] | None) -> RunContext:
        """The run's findings: the scan's in files the linter could read, less the rules held back there (one hold
        explored); what the holds left is kept for the push after they lift. Where nobody chose any of the
        pipeline's rules, what it could do is said, and at most one kind of change is suggested (the context then
        proposes that one)."""
        request, report = ctx.request, ctx.report
        report.notes += getattr(ctx.workspace, "notes", [])
        report.notes += ctx.project.problems
        report.notes += self._foreign_links(request)
        report.files_scanned = len(files)
        scanned = _readable(scan.result() if scan else [], ctx.linter.unreadable_code, report.notes)
        for f in scanned:
            ctx.scanned.setdefault(f.path, []).append(f)
        if ctx.selection.could:  # the survey's scan saw every kind the pipeline could propose
            if not ctx.select:  # nothing chosen: say what it could do, and suggest at most one kind
                report.notes += could_do(request.pipeline, ctx.selection, scanned)
                return self._suggested(ctx, scanned)
            scanned = [f for f in scanned if within((f.code,), ctx.select)]
        report.findings = [f for f in scanned if not within((f.code,), ctx.held_for(f.path))]
        if ctx.plan.exploring is not None:
            self._explore(ctx)
        if ctx.previous is not None and report.findings:  # a push: what it brought, not what its files had
            report.findings, older = brought(ctx.linter, report.findings, ctx.previous, ctx.select)
            if older:
                report.notes.append(f"{older} finding(s) in the changed files are older than this push: left as "
                                    "they are (`/autofix` takes them)")
        if request.base_branch and request.pipeline == "autofix":  # what holds left, for the push after they lift
            kept = {id(f) for f in report.findings}
            self.learning.left_behind(request.tenant_id, request.repo, request.pipeline, [
                HeldBack(f.code, f.path, ctx.places.of(f.path)) for f in scanned if id(f) not in kept])
        return ctx

    def _suggested(self, ctx: RunContext, scanned: list[Finding]) -> RunContext:
        """memfix's own suggestion where nobody chose any of the pipeline's rules: one kind of change, in one file,
        as one exploratory PR that says so (the kind with the best record across the installation; at most one a
        week per repository). Merged, that kind is proposed here from then on."""
        request, report = ctx.request, ctx.report
        kinds = _kinds(ctx.selection.could, scanned)
        pick = self.learning.suggest(request.tenant_id, request.repo, request.pipeline, kinds) \
            if kinds and request.base_branch else None
        if pick is None:
            return ctx
        first = next(f.path for f in scanned if f.code.startswith(pick))
        report.findings = [f for f in scanned if f.path == first and f.code.startswith(pick)]
        report.exploring, report.explored, report.suggested = pick, first, True
        report.rules = Selection((pick,), f"memfix's own suggestion ({pick}): nobody chose any kind of change "
                                 f"{request.pipeline} proposes here", origins={pick: "memfix's own suggestion"})
        return replace(ctx, selection=report.rules)

    @staticmethod
    def _explore(ctx: RunContext) -> None:
        """One exploratory PR: the explored hold's rule tried again in the first file it held, and in no other."""
        report, hold = ctx.report, ctx.plan.exploring
        assert hold is not None  # asked only when the plan explores a hold

        def held(f: Finding) -> bool:
            return bool(within((f.code,), (hold.code,))) and covers(hold.scope, f.path, ctx.places.of(f.path))

        first = next((f.path for f in report.findings if held(f)), None)
        report.findings = [f for f in report.findings if not held(f) or f.path == first]
        report.exploring, report.explored = (hold.code, first) if first else (None, None)

    @staticmethod
    def _files_to_fix(ctx: RunContext) -> dict[str, list[Finding]]:
        """The findings by file, less the files with more than memfix fixes in one (left to a person, said so)."""
        report = ctx.report
        by_file: dict[str, list[Finding]] = defaultdict(list)
        for f in report.findings:
            by_file[f.path].append(f)
        for path in [p for p, found_here in by_file.items() if len(found_here) > MAX_FINDINGS_PER_FILE]:
            report.notes.append(f"`{path}` has {len(by_file[path]):,} findings, over the {MAX_FINDINGS_PER_FILE:,} "
                                "memfix fixes in one file: left to a person (or narrow the rules)")
            del by_file[path]
        report.findings = [f for f in report.findings if f.path in by_file]
        return by_file

    def _recall(self, ctx: RunContext) -> tuple[str, Future[list[Any]] | None]:
        """The memory query the findings make, the historical learnings it finds, and (offline) the run's pain
        points stored in the background: (query, what storing them learned)."""
        report = ctx.report
        query = "\n".join(sorted({f"{f.code} {f.message}" for f in report.findings}))[:2000]
        if report.findings:  # shown in every run's output, model or not
            _, report.learnings = self.context.historical_learnings(*ctx.memory_key, query)
        # Offline, this run's pain points are stored while it fixes (no prompt can see them half-saved).
        detected = self._background.submit(self.learning.detected, *ctx.memory_key, ctx.run.id, report.findings) \
            if ctx.llm.model is None else None
        return query, detected

    def _publish_and_learn(self, ctx: RunContext, publisher: Publisher | None,
                           detected: Future[list[Any]] | None) -> None:
        """The verified patches published where the run has a branch, what the run found and fixed learned, and
        the run done with its summary."""
        request, report, run = ctx.request, ctx.report, ctx.run
        if reason := ctx.repository.incomplete():
            report.notes.append(f"the whole repository could not be read ({reason}); fixes that are "
                                "safe only when nothing else uses what they remove were held back")
        self.runs.phase(run, Phase.VERIFYING, f"{len(report.promoted)} verified patches",
                        patches=len(report.promoted), prompt_tokens=report.prompt_tokens)
        if publisher is not None and request.base_branch:
            self.runs.phase(run, Phase.PUBLISHING, "opening pull requests")
            self._publish(ctx, publisher, min(ctx.config.max_prs, self.limits.max_prs_cap))
        learn = (*ctx.memory_key, run.id)
        learned = detected.result() if detected else self.learning.detected(*learn, report.findings)
        learned += self.learning.fixed(*learn, [o.patch for o in report.promoted if o.patch])
        report.learned = len(learned)
        report.remembered = _remembered(self.runs.previous(run), learned, report)
        self.runs.left(run, _left(report))
        used = "".join(f"\n- {u}" for u in report.used)
        notes = "".join(f"\n- {n}" for n in report.notes)  # a push's run is read on its check run
        self.runs.phase(run, Phase.DONE, summary(report) + (f"\n\nLearnings used:{used}" if used else "") +
                        (f"\n\nNotes:{notes}" if notes else ""),
                        prs_opened=len(report.prs), learnings=len(report.learnings))

    def _score(self, ctx: RunContext, verification: Verification, patch: Patch) -> tuple[float, str]:
        kind = ctx.places.of(patch.path)  # a fix is judged by its rules' record in this kind of place
        result = score(verification, confidence(verification, patch.confidence), patch,
                       ctx.plan.records_for(patch.path, kind), words(kind_scope(kind)))
        return result.value, result.why

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

    def _fix_files(self, ctx: RunContext, files: list[tuple[str, list[Finding]]], query: str,
                   progress: Progress | None) -> None:
        """Every file's outcome, in order of path (the steps in core/pipelines/fixing.py).

        The linter's safe fixes are made for all files at once. A file the model does not work on waits, with the
        others like it, for one batched verification and one bulk write of their envelopes; what waits is settled
        before the model's next file, so that file's prompt sees every attempt before it, as if each file had been
        done on its own.
        """
        files = fixing.set_aside_unparseable(ctx, files)
        texts = fixing.read_texts(ctx, files)
        bases = fixing.linter_patches(ctx, texts, files)
        waiting: list[FileOutcome] = []
        model_files = 0
        for path, findings in files:
            outcome, original, base = FileOutcome(path, findings), texts.of[path], bases.get(path)
            remaining = fixing.unfixed(findings, base)
            modelled = original is not None and bool(remaining) and ctx.llm.model is not None \
                and model_files < self.limits.max_files_for_model
            if modelled and original is not None:
                self._settle(ctx, waiting, progress, len(files))
                outcome = self._model_fix(ctx, outcome, original, base, remaining, query)
            else:
                outcome = fixing.without_model(ctx, outcome, texts, base)
            model_files += outcome.note != "linter only"
            waiting.append(outcome)
            if modelled:  # reported at once
                self._settle(ctx, waiting, progress, len(files))
        self._settle(ctx, waiting, progress, len(files))

    def _settle(self, ctx: RunContext, waiting: list[FileOutcome], progress: Progress | None, total: int) -> None:
        """Verify the waiting ruff patches in one go, record one envelope each in one write, then report every
        waiting outcome in order. A ruff patch waits with no attempts yet; any other outcome is final."""
        patches = [o.patch for o in waiting if o.patch is not None and not o.attempts]
        if patches:
            self.runs.phase(ctx.run, Phase.VERIFYING,
                            f"verifying {len(patches)} ruff fix{'es' if len(patches) > 1 else ''}")
            # The scan already knows each original's findings (same rules, same relative path): reuse them, with those
            # of rules held back in that file only, which the verifying linter still sees.
            known = {o.path: ctx.scanned.get(o.path, o.findings) for o in waiting if o.patch is not None
                     and not o.attempts}
            verdicts = verify_checked(ctx.linter, patches, ctx.select, fixing.project_checks(ctx), before=known,
                                      checkout=ctx.workspace.root)
            repaired = {} if ctx.scoped else fixing.repair(ctx, [p for p in patches if not verdicts[p.path].ok],
                                                          verdicts, known)  # repairs refix whole files
            breaker = self.breakers.current(*ctx.memory_key).state
            envelopes, verified = [], 0
            for i, outcome in enumerate(waiting):
                if (patch := outcome.patch) is None or outcome.attempts:
                    continue
                verification = verdicts[patch.path]
                if patch.path in repaired:
                    patch, verification, note = repaired[patch.path]
                    outcome = replace(outcome, patch=patch, note=note)
                score, why = self._score(ctx, verification, patch)
                status = status_for(verification, score, 1, 1, self.limits.promote_threshold)  # ruff: one try
                waiting[i] = replace(outcome, status=status, confidence=score, verification=verification, attempts=1,
                                     why=why)
                envelopes.append(self._envelope(ctx, waiting[i], list(patch.findings), breaker))
                verified += status == AttemptStatus.PROMOTED
            self.healing.record_many(ctx.request.tenant_id, envelopes)
            self.runs.phase(ctx.run, Phase.FIXING, f"{verified} of {len(patches)} ruff fixes verified")
        for outcome in waiting:
            ctx.report.outcomes.append(outcome)
            if progress:
                progress("fixing", len(ctx.report.outcomes), total)
        waiting.clear()

    def _model_fix(self, ctx: RunContext, outcome: FileOutcome, original: str, base: Patch | None,
                   remaining: list[Finding], query: str) -> FileOutcome:
        report = ctx.report
        state = self.breakers.current(*ctx.memory_key)
        if not state.allows_calls:
            outcome.note = "circuit breaker open: model calls paused"
            if outcome.note not in report.notes:
                report.notes.append(outcome.note)
            return self._attempt(ctx, outcome, base, Try(1, last=True)) if base else outcome
        error: str | None = None
        attempts = self.limits.max_attempts
        for attempt in range(1, attempts + 1):
            if attempt > 1:
                time.sleep(self.limits.backoff_seconds * 2 ** (attempt - 2))
            sections = self.context.sections(*ctx.memory_key, query, ctx.request.linked_ids)
            try:
                patch = self._model_patch(ctx, outcome.path, original, remaining, base, sections, error)
            except PermanentError as exc:  # unusable output (even after the re-ask) or edits that don't apply
                patch, error = None, str(exc)
            if patch is None:
                verification = Verification(parses=False, targeted_gone=False, error=error or "no patch")
                outcome = self._record(ctx, outcome, None, verification, 0.0, Try(attempt, sections=sections))
                self.breakers.record(*ctx.memory_key, Trial.LOGIC)
            else:
                outcome = self._attempt(ctx, outcome, patch, Try(attempt, attempt == attempts, sections))
                error = outcome.verification.error if outcome.verification else None
                if not self.breakers.record(*ctx.memory_key, Trial.of(outcome.verification)).allows_calls:
                    outcome.note = "circuit breaker opened: model calls paused"
                    report.notes.append(outcome.note)
                    break
            if outcome.status != AttemptStatus.RETRY:
                break
        if outcome.status == AttemptStatus.RETRY:  # attempts ran out while still retrying
            outcome.status = AttemptStatus.HUMAN_REVIEW if outcome.patch else AttemptStatus.REJECTED
        return outcome

    def _model_patch(self, ctx: RunContext, path: str, original: str, remaining: list[Finding], base: Patch | None,
                     sections: PromptSections, error: str | None) -> Patch | None:
        start = base.updated if base else original
        budget = self.limits.prompt_token_budget
        prompt = build_prompt(ctx.request, path, start, remaining, sections, error, budget)
        if prompt is None:
            raise PermanentError(f"{path} is too large for the prompt budget ({budget} tokens)")
        patch, tokens = self._edit(ctx, path, original, start, prompt,
                                   tuple((base.findings if base else ()) + tuple(remaining)))
        ctx.report.prompt_tokens += tokens
        ctx.report.injected = ctx.report.injected or bool(ctx.report.learnings)
        return patch

    @staticmethod
    def _edit(ctx: RunContext, path: str, original: str, start: str, prompt: str,
              targeted: tuple[Finding, ...]) -> tuple[Patch, int]:
        """One model call: its search/replace edits applied to `start` (the prompt escaped `{{`: undone here)."""
        completion = ctx.llm.complete(SYSTEM.format(pipeline=ctx.request.pipeline), prompt, EDIT_SCHEMA,
                                      name="propose_edits", description="Search/replace edits to the file")
        edits = [{k: unescape_braces(v) if "{{" in start else v for k, v in e.items()}
                 for e in completion.data["edits"]]
        updated = apply_edits(start, edits)
        return Patch(path, original, updated, targeted, "model", float(completion.data["confidence"]),
                     completion.data["rationale"]), completion.input_tokens

    def _attempt(self, ctx: RunContext, outcome: FileOutcome, patch: Patch, attempt: Try) -> FileOutcome:
        self.runs.phase(ctx.run, Phase.VERIFYING, f"verifying {patch.path}")
        verification = verify_checked(ctx.linter, [patch], ctx.select, fixing.project_checks(ctx),
                                      checkout=ctx.workspace.root)[patch.path]
        score, why = self._score(ctx, verification, patch)
        outcome = replace(self._record(ctx, outcome, patch, verification, score, attempt), why=why)
        self.runs.phase(ctx.run, Phase.FIXING, f"{outcome.status} {patch.path}")
        return outcome

    def _record(self, ctx: RunContext, outcome: FileOutcome, patch: Patch | None, verification: Verification,
                score: float, attempt: Try) -> FileOutcome:
        status = status_for(verification, score, attempt.number, 1 if attempt.last else self.limits.max_attempts,
                            self.limits.promote_threshold)
        breaker = self.breakers.current(*ctx.memory_key).state
        outcome = replace(outcome, patch=patch, status=status, confidence=score, verification=verification,
                          attempts=attempt.number)
        findings = list(patch.findings) if patch else outcome.findings
        self.healing.record(ctx.request.tenant_id, self._envelope(ctx, outcome, findings, breaker, attempt.sections))
        return outcome

    @staticmethod
    def _envelope(ctx: RunContext, outcome: FileOutcome, findings: list[Finding], breaker: Circuit,
                  sections: PromptSections | None = None) -> Envelope:
        """The attempt an outcome records, as the healing ring keeps it."""
        first, patch, verification = findings[0] if findings else None, outcome.patch, outcome.verification
        assert verification is not None  # an attempt is recorded once it has a verdict
        request = ctx.request
        return Envelope(
            repository=request.repo, status=outcome.status, attempt=outcome.attempts,
            confidence=round(outcome.confidence, 4), breaker_state=breaker, run_id=str(ctx.run.id),
            pipeline=request.pipeline, patch_id=patch.fingerprint(request.pipeline) if patch else None,
            error_message=verification.error,
            error_hash=Envelope.hash_error(outcome.path, first.line if first else None, verification.error or "")
            if verification.error else None,
            path=outcome.path, checks=verification.checks(),
            sections=sections.shown() if sections is not None else None,
            diff="\n".join(patch.unified_diff(context=3))[:MAX_DIFF_CHARS] if patch else None,
        )

    # ---- publish ----

    @staticmethod
    def _credited(ctx: RunContext, outcome: FileOutcome) -> list[int]:
        """The insights a merge or close is a verdict on: those a model was given for this patch, and the policy's
        decisions that shaped the run; never ones that were only looked up."""
        report = ctx.report
        model = outcome.patch is not None and outcome.patch.origin == "model"
        given = [h.insight.id for h in report.learnings] if report.injected and model else []
        return given + [h.insight_id for h in ctx.plan.holds]

    def _publish(self, ctx: RunContext, publisher: Publisher, max_prs: int) -> None:
        trial, opened = _Trial(ctx), 0
        for outcome in self._ranked(ctx, max_prs):
            if opened >= max_prs:
                outcome.note = f"not published: at most {max_prs} PRs per run"
            elif outcome.patch is not None and ctx.request.base_branch is not None and not trial.waits(outcome) \
                    and self._open(ctx, publisher, outcome):
                opened += 1
                trial.opened(outcome)
        if trial.later:  # remembered as a hold's files are: a later run takes them
            request = ctx.request
            self.learning.left_behind(request.tenant_id, request.repo, request.pipeline, trial.later)
            ctx.report.later = trial.said()

    @staticmethod
    def _ranked(ctx: RunContext, max_prs: int) -> list[FileOutcome]:
        """The promoted files in the order they are proposed: a push's own files first (a file back from a lifted
        hold over the cap is remembered for the next run), then the rules with the better record here."""
        request, report = ctx.request, ctx.report
        plain = sorted(report.promoted, key=lambda o: (-len(o.patch.findings) if o.patch else 0, o.path))
        ranked = sorted(plain, key=lambda o: (o.path in request.waiting, -ctx.plan.rank(set(o.codes))))  # stable
        if len(plain) > max_prs and ranked[:max_prs] != plain[:max_prs]:
            why = "the push's own files, then the rules with the better record in this repository" \
                if request.waiting else "their rules' record in this repository is better"
            report.used.append(f"proposed first: {', '.join(f'`{o.path}`' for o in ranked[:max_prs])} ({why})")
        return ranked

    def _open(self, ctx: RunContext, publisher: Publisher, outcome: FileOutcome) -> bool:
        """One file's PR, opened or updated: whether it counts against the run's cap (a skipped one does not)."""
        request, report = ctx.request, ctx.report
        assert outcome.patch is not None and request.base_branch is not None  # promoted, with a branch to go to
        kind = ctx.places.of(outcome.path)
        draft = Draft(pr_title(request.pipeline, outcome), pr_body(request, report, outcome, publisher.ci, kind),
                      request.base_branch, report.run_id, self._credited(ctx, outcome), report.provider, report.model,
                      exploratory=report.explored == outcome.path, place=kind)
        outcome.published = publisher.publish(request.tenant_id, request.repo, request.pipeline, outcome.patch, draft)
        if outcome.published.action == PublishAction.SKIPPED:
            report.used.append(f"`{outcome.path}`: not proposed again: {outcome.published.reason}")
            return False
        return True


class _Trial:
    """The rules the CI's reds put in doubt (`in_doubt`): one PR of each a run, so a fix the CI keeps failing is not
    opened in every file of a push before the evidence is in; the rest wait, remembered."""

    def __init__(self, ctx: RunContext):
        self.places = ctx.places
        # only AutoFix remembers the files it leaves (held_back): elsewhere a file that waited would be lost
        self.on_trial = ctx.plan.doubted if ctx.request.pipeline == "autofix" else frozenset()
        self.tried: set[str] = set()
        self.later: list[HeldBack] = []

    def waits(self, outcome: FileOutcome) -> bool:
        """Whether the file waits for a later run: a PR of one of its rules on trial went out in this one."""
        waits = sorted(set(outcome.codes) & self.tried)
        if waits:
            outcome.note = (f"not published: the CI's reds on {', '.join(waits)} fixes since its last merge here are "
                            "more than its noise explains, so one PR of it a run until the evidence decides; this "
                            "file comes in a later run")
            self.later += [HeldBack(code, outcome.path, self.places.of(outcome.path)) for code in waits]
        return bool(waits)

    def opened(self, outcome: FileOutcome) -> None:
        self.tried |= set(outcome.codes) & self.on_trial

    def said(self) -> str:
        return (f"{len({h.path for h in self.later})} file(s) wait for a later run: the CI's reds on "
                f"{', '.join(sorted({h.rule for h in self.later}))} fixes are more than its noise explains (one PR of "
                "it a run)")


def each_language(languages: Iterable[Language], run: Callable[[Language], RunReport], request: RunRequest,
                  llm: LLM) -> list[RunReport]:
    """One run per language, each on its own: a language whose tools cannot run, or whose run is stopped, is a report
    that says why, and the other languages' runs go on. When none finished, the first failure is the job's."""
    reports, failures = [], []
    for language in languages:
        try:
            reports.append(run(language))
        except PermanentError as exc:
            log.warning("%s: the %s run stopped: %s", request.repo, language.name, exc)
            failures.append(exc)
            reports.append(RunReport(0, request.repo, request.pipeline, llm.provider, llm.model,
                                     language=language.name, failed=str(exc)))
    if failures and len(failures) == len(reports):
        raise failures[0]
    return reports


class _Steps:
    """Each step's wall seconds, in the order they end (a run's output and the AutoFix benchmark show them)."""

    def __init__(self, seconds: dict[str, float], began: float):
        self.seconds, self.last = seconds, began

    def done(self, step: str) -> None:
        now = time.perf_counter()
        self.seconds[step] = round(now - self.last, 3)
        self.last = now


def _enabled(selection: Selection, plan: RepoPolicy) -> Selection:
    """Where nobody chose any of the pipeline's rules, the ones enabled in this repository since (a merged
    suggestion, a person's `/remember decision enable UP`) are proposed; the rest are still only surveyed."""
    if selection.rules or not selection.could:
        return selection
    enabled = tuple(dict.fromkeys(e.rule for e in plan.enables if e.scope is None
                                  and within((e.rule,), selection.could)))
    if not enabled:
        return selection
    return replace(selection, rules=enabled, chosen_by=f"the rules enabled in this repository ({', '.join(enabled)}): "
                   "a merged suggestion of memfix's, or a person's decision",
                   origins={**selection.origins, **dict.fromkeys(enabled, "a decision in this repository")})


def _kinds(could: tuple[str, ...], findings: list[Finding]) -> list[str]:
    """The kinds of change among `could` that have findings, the most first."""
    counts: dict[str, int] = {}
    for f in findings:
        if (kind := covering(f.code, could)) is not None:
            counts[kind] = counts.get(kind, 0) + 1
    return sorted(counts, key=lambda kind: -counts[kind])


def _left(report: RunReport) -> list[dict[str, Any]]:
    """Each file's findings no verified patch fixed, and why: the verification's error, the outcome's note."""
    left = []
    for o in report.outcomes:
        fixed = {f.key for f in o.patch.findings} if o.patch is not None and o.status == AttemptStatus.PROMOTED \
            else set()
        by_reason: dict[str, list[Finding]] = defaultdict(list)
        for f in o.findings:
            if f.key not in fixed:
                by_reason[why_left(o, f, report.provider == "offline")].append(f)
        for reason, rest in by_reason.items():
            left.append({"path": o.path, "codes": sorted({f.code for f in rest}), "lines": [f.line for f in rest][:20],
                         "reason": reason if o.status != AttemptStatus.PROMOTED else f"partly fixed; {reason}"})
    return left


def _readable(scanned: list[Finding], unreadable_code: str, notes: list[str]) -> list[Finding]:
    """The findings in files the linter could read; each file it could not read said once in `notes`, as what it
    is (not a finding to fix, nothing a model could fix, nothing to learn)."""
    unreadable = {f.path: f.message for f in scanned if f.code == unreadable_code}
    notes += [f"skipped `{path}`: its linter could not read it ({why})" for path, why in sorted(unreadable.items())]
    return [f for f in scanned if f.path not in unreadable] if unreadable else scanned


def _remembered(earlier: RunRecord | None, learned: list[Any], report: RunReport) -> list[str]:
    """What memory held before this run and what the run changed in it, said plainly (a second run must show it)."""
    known = sum(1 for r in learned if r.merged)
    if earlier is None:
        return [f"First run of {report.repo} in memory: {len(learned)} insight(s) stored."]
    lines = [f"Remembered from run {earlier.id} ({earlier.started_at:%Y-%m-%d %H:%M}) of {report.repo}: "
             f"{earlier.findings} finding(s), {earlier.patches} verified patch(es), "
             f"{earlier.prs_opened} PR(s).",
             f"This run: {known} of {len(learned)} insight(s) were already known and reinforced, "
             f"{len(learned) - known} new."]
    if report.used:
        lines.append("What memory changed: " + "; ".join(report.used))
    elif not report.injected:
        lines.append("What memory changed: nothing in which fixes were made; it learns which rules this "
                     "repository wants from its PRs' outcomes on GitHub, and with a model configured its learnings "
                     "go into the prompts.")
    return lines
