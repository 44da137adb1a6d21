"""Slash commands by name → the service that answers them."""

from __future__ import annotations

from collections.abc import Callable

from core.bounded import user_text
from core.errors import PermanentError
from core.wire import CommandJob, JobResult

CommandService = Callable[[CommandJob], JobResult]
MAX_COMMAND_CHARS = 10_000  # `/remember` text included: memory is for key points, not documents


class Commands:
    def __init__(self, services: dict[str, CommandService]):
        self.services = dict(services)

    def handle(self, job: CommandJob) -> JobResult:
        service = self.services.get(job.command)
        if service is None:
            raise PermanentError(f"memfix has no `/{job.command}` command")
        user_text(job.args, limit=MAX_COMMAND_CHARS, what=f"the text of `/{job.command}`")  # before any storage
        return service(job)

