"""Slash commands by name → the service that answers them."""

from __future__ import annotations

from collections.abc import Callable

from core.errors import PermanentError
from core.models import CommandJob, JobResult

CommandService = Callable[[CommandJob], JobResult]


class Commands:
    def __init__(self, services: dict[str, CommandService]):
        self.services = dict(services)

    def handle(self, job: CommandJob) -> JobResult:
        service = self.services.get(job.command)
        if service is None:
            raise PermanentError(f"memfix has no `/{job.command}` command")
        return service(job)

