"""Replay dead-lettered jobs: move messages from the dead-letter queue back to the job queue.

Each message is sent to the job queue first and deleted from the dead-letter queue only after the
send succeeded, so a failure part-way loses nothing (at worst a message is moved twice, and the worker
is idempotent per job key). A replayed message starts with a fresh receive count, so the worker gives
it the full `MEMFIX_JOB_MAX_ATTEMPTS` again.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from core import aws

log = logging.getLogger(__name__)

_BATCH = 10  # SQS's maximum per ReceiveMessage
_HOLD_SECONDS = 120  # a received message stays invisible this long while it is being moved


@dataclass
class Replay:
    moved: int = 0
    error: str | None = None  # why the replay stopped early, if it did


def replay(dlq_url: str, queue_url: str, max_messages: int | None = None, *, sqs: Any = None) -> Replay:
    """Move up to `max_messages` (all, if None) from `dlq_url` to `queue_url`."""
    sqs = sqs or aws.client("sqs")
    result = Replay()
    while max_messages is None or result.moved < max_messages:
        want = _BATCH if max_messages is None else min(_BATCH, max_messages - result.moved)
        batch = sqs.receive_message(QueueUrl=dlq_url, MaxNumberOfMessages=want, MessageAttributeNames=["All"],
                                    VisibilityTimeout=_HOLD_SECONDS, WaitTimeSeconds=1).get("Messages", [])
        if not batch:
            break
        for message in batch:
            send = {"QueueUrl": queue_url, "MessageBody": message["Body"]}
            if message.get("MessageAttributes"):
                send["MessageAttributes"] = message["MessageAttributes"]
            try:
                sqs.send_message(**send)
            except Exception as exc:  # noqa: BLE001 — stop: the message stays in the DLQ and reappears
                result.error = f"could not send {message['MessageId']} to the job queue: {exc}"
                log.error("%s", result.error)
                return result
            sqs.delete_message(QueueUrl=dlq_url, ReceiptHandle=message["ReceiptHandle"])
            result.moved += 1
    return result
