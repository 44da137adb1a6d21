"""Jobs whose steps span two services: a push (the team's letters, then AutoFix on what it changed) and a closed
memfix PR (its outcome learned, then the closing words offered back as decisions). The composition root only wires
them."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from core.pipelines.present import summary
from core.wire import JobResult, PullRequestClosedJob, PushJob

if TYPE_CHECKING:
    from core.learning.learning import Learning
    from core.learning.offers import DecisionOffers
    from core.memory.letters import LetterSync
    from core.pipelines.service import PipelineService

log = logging.getLogger(__name__)


@dataclass
class Flows:
    github: Callable[[int], Any]
    letters: LetterSync
    pipelines: PipelineService
    learning: Learning
    offers: DecisionOffers

    def on_push(self, job: PushJob) -> JobResult:
        """Letters first (a bad one is reported on the commit, the rest import), then AutoFix."""
        gh = self.github(job.tenant_id)

        def fetch(path: str) -> bytes | None:
            text = gh.get_file(job.repo, path, job.after)
            return None if text is None else text.encode()

        letters = self.letters.sync_push(job.tenant_id, job, fetch)
        if letters.skipped:
            gh.create_commit_comment(job.repo, job.after, letters.markdown())
        reports = self.pipelines.on_push(job)
        if stopped := [r for r in reports if r.failed]:  # the other languages' runs went on: this one is said here
            gh.create_commit_comment(job.repo, job.after, "\n".join(
                f"❌ AutoFix on the {r.language} files of this push did not finish: {r.failed}." for r in stopped))
        ran = "; ".join(f"{r.language}: {summary(r)}" for r in reports) or "no source file it works on changed"
        return JobResult(f"{'No letters changed' if letters.empty else letters.markdown()}; AutoFix: {ran}.")

    def on_pr_closed(self, job: PullRequestClosedJob) -> JobResult:
        """The outcome is learned; closed unmerged, the words people gave are offered back as decisions."""
        blamed = () if job.merged else self._blamed(job)
        result = self.learning.closed(job, blamed)
        if not job.merged:
            try:
                self.offers.after_closing(job)
            except Exception:  # noqa: BLE001 — an offer is a courtesy: the outcome is learned already
                log.warning("job %s: could not offer the closing comment's decision", job.key, exc_info=True)
        return result

    def _blamed(self, job: PullRequestClosedJob) -> tuple[str, ...]:
        try:
            return self.offers.blamed(job)
        except Exception:  # noqa: BLE001 — words only narrow the blame: the outcome is learned without them
            log.warning("job %s: could not read whom the closing words blame", job.key, exc_info=True)
            return ()
