"""The one composition place: adapters are wired into services here, lazily, once per process."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from core.commands import Commands
from core.deliveries import DatabaseDeliveries, DeliveryLog, DynamoDeliveries, MemoryDeliveries
from core.intake import Intake
from core.queue import JobQueue, PgQueue, Schedule, SqsQueue
from core.settings import Settings
from core.wire import Job, PullRequestClosedJob, PushJob

if TYPE_CHECKING:
    from core.curations import Curations
    from core.dashboard import Dashboard
    from core.db import Database
    from core.flows import Flows
    from core.github.client import GitHubApp, InstallationClient
    from core.jobs import JobRunner
    from core.languages.adapter import Language
    from core.learning.learning import Learning
    from core.learning.offers import DecisionOffers
    from core.learning.policy import Policy
    from core.llm.base import LLM
    from core.memory.context import PromptContext
    from core.memory.embeddings import Embedder
    from core.memory.entries import Entries
    from core.memory.insights import Insights
    from core.memory.letters import LetterSync
    from core.memory.proposals import Proposals
    from core.memory.review import ReviewSteps
    from core.memory.ring import HealingLog
    from core.permissions import Permissions
    from core.pipelines.breaker import Breakers
    from core.pipelines.feedback import CiFeedback
    from core.pipelines.runner import PipelineRunner
    from core.pipelines.runs import RunLog
    from core.pipelines.service import PipelineService
    from core.sessions import Sessions
    from core.tenants import Tenants

log = logging.getLogger(__name__)


class Services:
    """`local=True` is `memfix serve`: deliveries and jobs in the database, a worker in this process."""

    def __init__(self, settings: Settings, *, local: bool = False):
        self.settings = settings
        self.local = local
        self._lock = threading.RLock()
        self.metric: Callable[[str, int], None] = lambda name, value: None  # entry points may count

    @cached_property
    def db(self) -> Database:
        from core.db import Database, login_database, resolve_url

        if self.local:  # migrated with the owner's URL, run as the application's own login
            return login_database(self.settings)
        return Database(resolve_url(self.settings), self.settings.db_app_role, timeout=self.settings.db_pool_timeout)

    @cached_property
    def github_app(self) -> GitHubApp:
        from core.github.client import GitHubApp

        return GitHubApp(self.settings)

    def github(self, tenant_id: int) -> InstallationClient:
        return self.github_app.for_installation(tenant_id)

    @cached_property
    def deliveries(self) -> DeliveryLog:
        if self.settings.deliveries_table:
            return DynamoDeliveries(self.settings.deliveries_table, self.settings.deliveries_ttl_days)
        if self.local:
            return DatabaseDeliveries(self.db)
        return MemoryDeliveries()

    @cached_property
    def queue(self) -> JobQueue:
        if self.settings.queue_url:
            return SqsQueue(self.settings.queue_url)
        s = self.settings
        return PgQueue(self.db, lambda job, attempt: self.runner.run(job, attempt), queue=s.queue_name,
                       schedule=Schedule(max_attempts=s.job_max_attempts, backoff_seconds=s.job_retry_base_seconds,
                                         lease_seconds=s.job_lease_seconds), heartbeat=heartbeat_path(s),
                       workers=s.workers)

    @cached_property
    def intake(self) -> Intake:
        return Intake(
            secret=self.settings.github_webhook_secret,
            deliveries=self.deliveries,
            queue=self.queue,
            bot_login=self.settings.bot_login,
            max_body_bytes=self.settings.max_body_bytes,
        )

    @cached_property
    def tenants(self) -> Tenants:
        from core.tenants import Tenants

        return Tenants(self.db, lambda tenant, repo: self.healing.forget(tenant, repo))

    # ---- memory ----

    @cached_property
    def embedder(self) -> Embedder:
        from core.memory.embeddings import embedder_from_settings

        return embedder_from_settings(self.settings)

    @cached_property
    def insights(self) -> Insights:
        from core.memory.insights import Insights, SearchSettings

        return Insights(self.db, self.embedder, SearchSettings.from_settings(self.settings))

    @cached_property
    def entries(self) -> Entries:
        from core.memory.entries import Entries

        return Entries(self.db)

    @cached_property
    def letters(self) -> LetterSync:
        from core.memory.letters import LetterSync

        return LetterSync(self.entries)

    @cached_property
    def healing(self) -> HealingLog:
        from core.memory.ring import HealingLog, ring_from_settings

        return HealingLog(ring_from_settings(self.settings), self.db)

    @cached_property
    def prompt_context(self) -> PromptContext:
        from core.memory.context import PromptContext

        return PromptContext(self.insights, self.healing, wisdom_tokens=self.settings.wisdom_token_budget)

    @cached_property
    def review_steps(self) -> ReviewSteps:
        from core.memory.review import ReviewSteps, github_review_texts

        return ReviewSteps(self.insights, self.entries, github_review_texts(self.github, self.settings.bot_login),
                           self.llm, self.settings.github_web_url, self.learning)

    @cached_property
    def dashboard(self) -> Dashboard:
        from core.dashboard import Dashboard, Owners

        owners = Owners(self.tenants, self.runs, self.proposals, self.breakers, self.healing, self.insights,
                        self.entries, self.curations)
        return Dashboard(owners, self.learning, self.commands.handle, self.review_steps)

    @cached_property
    def curations(self) -> Curations:
        from core.curations import Curations

        return Curations(self.db)

    @cached_property
    def sessions(self) -> Sessions:
        from core.sessions import Sessions

        return Sessions(self.db)

    @cached_property
    def learning(self) -> Learning:
        from core.languages.registry import known_rule, rule_words
        from core.learning.learning import Learning

        return Learning(self.insights, self.proposals, self.policy, self.settings.github_web_url,
                        lambda code: rule_words(code, self.languages), lambda code: known_rule(code, self.languages))

    @cached_property
    def policy(self) -> Policy:
        from core.learning.policy import Policy

        return Policy(self.db, self.insights, self.proposals, threshold=self.settings.promote_threshold)

    # ---- pipelines ----

    @cached_property
    def runs(self) -> RunLog:
        from core.pipelines.runs import RunLog

        return RunLog(self.db)

    @cached_property
    def proposals(self) -> Proposals:
        from core.memory.proposals import Proposals

        return Proposals(self.db)

    @cached_property
    def breakers(self) -> Breakers:
        from core.pipelines.breaker import Breakers

        return Breakers(self.db)

    @cached_property
    def llm(self) -> LLM:
        from core.llm import llm_from_settings

        return llm_from_settings(self.settings)

    @cached_property
    def languages(self) -> tuple[Language, ...]:
        """Every language whose linter is installed here (without Biome, JavaScript runs say it is missing)."""
        from core.languages.registry import adapters
        from core.tools.install import ToolCache
        from core.tools.toolbox import Toolbox

        s = self.settings
        toolbox = Toolbox(ToolCache(s.tool_cache, s.pypi_index, s.npm_registry), s.tool_seconds, s.fixer_function) \
            if s.team_tools else None
        return tuple(adapters(toolbox).values())

    @cached_property
    def pipeline_runner(self) -> PipelineRunner:
        from core.pipelines.runner import PipelineRunner
        from core.pipelines.values import Limits

        s = self.settings
        return PipelineRunner(
            languages=self.languages, llm=self.llm, context=self.prompt_context, healing=self.healing,
            breakers=self.breakers,
            runs=self.runs, learning=self.learning,
            limits=Limits(max_attempts=s.pipeline_max_attempts, backoff_seconds=s.pipeline_backoff_seconds,
                          prompt_token_budget=s.prompt_token_budget, max_prs_cap=s.max_prs_per_run,
                          promote_threshold=s.promote_threshold),
        )

    @cached_property
    def pipelines(self) -> PipelineService:
        from core.llm import llm_from_settings
        from core.pipelines.service import PipelineService

        return PipelineService(self.pipeline_runner, self.learning, self.proposals, self.github, self.llm,
                               lambda provider, model: llm_from_settings(self.settings, provider=provider, model=model),
                               self.settings.github_web_url, lambda name, value: self.metric(name, value),
                               self.settings.repository_choices,
                               lambda gh, tenant, repo: self.ci_feedback.sweep(gh, tenant, repo))

    @cached_property
    def ci_feedback(self) -> CiFeedback:
        from core.memory.reruns import CiReruns
        from core.pipelines.feedback import CiFeedback

        return CiFeedback(self.github, self.proposals, self.learning, self.healing, self.llm,
                          lambda *args: self.pipelines.revise(*args), CiReruns(self.db), self.settings.app_slug,
                          self.settings.ci_wait_hours,
                          lambda gh, repo: self.pipelines.repo_settings(gh, repo).config.ci_rerun)

    @cached_property
    def commands(self) -> Commands:
        steps, pipelines = self.review_steps, self.pipelines
        return Commands({"remember": steps.remember, "recall": steps.recall, "forget": steps.forget,
                         "autofix": pipelines.on_command, "refactor": pipelines.on_command,
                         "refine": pipelines.refine})

    def close(self, grace_seconds: float = 30.0) -> None:
        """Stop what this process started: the worker (an unfinished job stays queued in the database for the next
        worker), the database pool, GitHub's connections, and the embedded PostgreSQL; a second call does nothing."""
        if self.__dict__.get("_closed"):
            return
        self._closed = True
        queue = self.__dict__.get("queue")
        if isinstance(queue, PgQueue):
            queue.stop(grace_seconds)  # a job that did not finish stays queued: the next worker takes it
        if "pipeline_runner" in self.__dict__:
            self.__dict__["pipeline_runner"].close()
        for name in ("db", "github_app"):
            if name in self.__dict__:
                self.__dict__[name].close()
        if self.local and self.settings.embedded_database:
            from core.db import stop_embedded

            stop_embedded(self.settings.data_dir)  # its own: a process may hold others (a test suite's)

    @cached_property
    def flows(self) -> Flows:
        from core.flows import Flows

        return Flows(self.github, self.letters, self.pipelines, self.learning, self.decision_offers)

    @cached_property
    def decision_offers(self) -> DecisionOffers:
        from core.learning.offers import DecisionOffers

        return DecisionOffers(self.proposals, self.github, self.permissions.can_write, self.settings.bot_login,
                              self.llm)

    @cached_property
    def runner(self) -> JobRunner:
        from core.jobs import Handler, JobLedger, JobRunner
        from core.wire import ChecksJob, CommandJob, InstallationJob, IssueJob, LineCommentJob, RepositoryJob, ReviewJob

        with self._lock:  # the local worker thread and a request may race to build it
            handlers: dict[type[Job], Handler] = {
                CommandJob: self.commands.handle,
                InstallationJob: self.tenants.handle,
                PushJob: self.flows.on_push,
                ReviewJob: self.review_steps.review,
                PullRequestClosedJob: self.flows.on_pr_closed,
                LineCommentJob: self.decision_offers.on_line_comment,
                IssueJob: self.pipelines.on_issue,
                ChecksJob: self.ci_feedback.on_checks,
                RepositoryJob: self.tenants.on_repository,
            }
            return JobRunner(handlers, JobLedger(self.db), self.github, self.settings.bot_login,
                             max_attempts=self.settings.job_max_attempts, job_seconds=self.settings.job_seconds,
                             refusal=self.permissions.refusal,
                             observe=self._observe)

    def _observe(self, job: Job) -> None:
        """A job's repository, by its id and its current name (renames and transfers are followed)."""
        if job.repo and job.repo_id:
            self.tenants.observe(job.tenant_id, job.repo_id, job.repo)

    @cached_property
    def permissions(self) -> Permissions:
        from core.permissions import Permissions

        return Permissions(self.github)


def heartbeat_path(settings: Settings) -> Path:
    """Where this host's worker says it is alive (one file per host: containers may share the data directory)."""
    import socket

    settings.data_dir.mkdir(parents=True, exist_ok=True)
    return settings.data_dir / f"worker-{socket.gethostname()}.beat"
