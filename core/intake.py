"""The webhook's whole job: verify, parse, route, dedupe, enqueue, answer — in milliseconds."""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from core.deliveries import DeliveryLog
from core.errors import TransientError
from core.events import route
from core.queue import JobQueue
from core.wire import Job

log = logging.getLogger(__name__)


class Received(StrEnum):
    """What became of a signed delivery: the `status` of a 202's body."""

    QUEUED = "queued"
    DUPLICATE = "duplicate"  # its job was queued before
    IGNORED = "ignored"  # no job: an event or action memfix does not act on


@dataclass(frozen=True)
class Answer:
    status: int
    body: dict[str, Any] = field(default_factory=dict)

    def json(self) -> str:
        return json.dumps(self.body, separators=(",", ":"))


def signature_valid(secret: str, body: bytes, header: str | None) -> bool:
    """`X-Hub-Signature-256: sha256=<hex>` compared in constant time."""
    if not header or not header.startswith("sha256="):
        return False
    expected = "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected.encode(), header.strip().encode())


def claim_key(job: Job) -> str:
    """What the delivery log remembers of a job: its tenant and key, both from signed content."""
    return f"{job.tenant_id}:{job.key}"


class Intake:
    def __init__(
        self,
        *,
        secret: str | None,
        deliveries: DeliveryLog,
        queue: JobQueue,
        bot_login: str,
        max_body_bytes: int,
    ):
        self.secret = secret
        self.deliveries = deliveries
        self.queue = queue
        self.bot_login = bot_login
        self.max_body_bytes = max_body_bytes

    def receive(self, headers: Mapping[str, str], body: bytes) -> Answer:
        """A delivery's answer: refused unless it is signed and well formed, else ignored, a duplicate, or queued."""
        h = {k.lower(): v for k, v in headers.items()}
        if (untrusted := self._untrusted(h, body)) is not None:
            return untrusted
        event, delivery = h.get("x-github-event"), h.get("x-github-delivery")
        if not event or not delivery:
            return Answer(400, {"error": "missing X-GitHub-Event or X-GitHub-Delivery header"})
        payload = _json_object(body)
        if isinstance(payload, Answer):
            return payload
        try:
            routed = route(event, payload, delivery, self.bot_login)
        except (AttributeError, TypeError, ValueError, KeyError) as exc:  # a field of an unexpected type
            log.warning("delivery %s (%s) malformed: %s", delivery, event, exc.__class__.__name__)
            return Answer(400, {"error": "payload fields have unexpected types"})
        if routed.job is None:
            log.debug("delivery %s (%s) ignored: %s", delivery, event, routed.reason)
            return Answer(202, {"status": Received.IGNORED, "reason": routed.reason})
        return self._enqueue(routed.job, event, delivery)

    def _untrusted(self, headers: Mapping[str, str], body: bytes) -> Answer | None:
        """A delivery that cannot be trusted: no secret to check it with, too large to check, or wrongly signed."""
        if not self.secret:
            log.error("GITHUB_WEBHOOK_SECRET is not configured: refusing every delivery")
            return Answer(503, {"error": "webhook secret not configured"})
        if len(body) > self.max_body_bytes:
            return Answer(413, {"error": f"payload larger than {self.max_body_bytes} bytes"})
        if not signature_valid(self.secret, body, headers.get("x-hub-signature-256")):
            return Answer(401, {"error": "missing or invalid X-Hub-Signature-256"})
        return None

    def _enqueue(self, job: Job, event: str, delivery: str) -> Answer:
        """The job queued once per job key: a duplicate is answered as one, a queue that fails as a 503."""
        try:
            # Claimed by job key, which only signed content makes: a redelivery and a replayed body with a
            # new X-GitHub-Delivery id are both duplicates.
            claim = claim_key(job)
            if not self.deliveries.claim(claim, event, job.tenant_id):
                return Answer(202, {"status": Received.DUPLICATE, "delivery": delivery, "job": job.key})
            try:
                self.queue.send(job)
            except Exception:
                self.deliveries.release(claim, job.tenant_id)  # a redelivery must be able to try again
                raise
        except TransientError as exc:
            log.error("delivery %s not enqueued: %s", delivery, exc)
            return Answer(503, {"error": "temporarily unable to accept the delivery; redeliver it"})
        log.info("delivery %s (%s) queued as %s", delivery, event, job.key)
        return Answer(202, {"status": Received.QUEUED, "job": job.key, "kind": job.kind})


def _json_object(body: bytes) -> dict[str, Any] | Answer:
    """The body as a JSON object, or the 400 that says why it is not one."""
    try:
        payload = json.loads(body)
    except (UnicodeDecodeError, json.JSONDecodeError):
        return Answer(400, {"error": "body is not JSON"})
    except RecursionError:
        return Answer(400, {"error": "body is nested too deeply"})
    if not isinstance(payload, dict):
        return Answer(400, {"error": "body is not a JSON object"})
    return payload
