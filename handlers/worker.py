"""Worker Lambda: SQS batches with partial-batch failure reporting; one failed record is retried alone."""

from __future__ import annotations

import logging
from functools import lru_cache
from typing import Any

from aws_lambda_powertools.utilities.batch import BatchProcessor, EventType, process_partial_response
from aws_lambda_powertools.utilities.batch.types import PartialItemFailureResponse
from aws_lambda_powertools.utilities.data_classes.sqs_event import SQSRecord
from aws_lambda_powertools.utilities.typing import LambdaContext

from core.queue import SqsQueue
from core.secrets import resolve
from core.settings import get_settings
from core.wire import Job, JobFormatError
from core.wiring import Services
from handlers.observability import count, logger, metrics

log = logging.getLogger(__name__)
processor = BatchProcessor(event_type=EventType.SQS, raise_on_entire_batch_failure=False)


@lru_cache(maxsize=1)
def services() -> Services:
    svc = Services(resolve(get_settings()))  # secrets from Secrets Manager, once per container
    svc.metric = count
    return svc


def record_handler(record: SQSRecord) -> None:
    try:
        job = Job.from_json(record.body)
    except JobFormatError as exc:
        # Retrying cannot fix a malformed message: log it clearly and let the batch go on.
        log.error("skipping SQS message %s: %s", record.message_id, exc)
        count("JobsMalformed")
        return
    attempt = int(record.attributes.approximate_receive_count or 1)
    try:
        services().runner.run(job, attempt)
    except Exception:
        count("JobsFailed")
        queue = services().queue
        if isinstance(queue, SqsQueue):  # back off instead of waiting out the whole visibility timeout
            queue.retry_later(record.receipt_handle, attempt, services().settings.job_retry_base_seconds)
        raise
    count("JobsDone")


@metrics.log_metrics
@logger.inject_lambda_context(clear_state=True)
def handler(event: dict[str, Any], context: LambdaContext) -> PartialItemFailureResponse:
    return process_partial_response(event=event, record_handler=record_handler, processor=processor, context=context)
