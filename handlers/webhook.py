"""Webhook Lambda: API Gateway (REST v1 or HTTP API v2) → verify, dedupe, enqueue → 202.

Cold start matters here: nothing on this path imports an LLM SDK, githubkit or psycopg.
"""

from __future__ import annotations

import base64
from functools import lru_cache
from typing import Any

from core.intake import Answer, Received
from core.secrets import resolve
from core.settings import get_settings
from core.wiring import Services
from handlers.observability import count, logger, metrics

_OUTCOME: dict[str, str] = {Received.QUEUED: "DeliveriesQueued", Received.DUPLICATE: "DeliveriesDuplicate",
            Received.IGNORED: "DeliveriesIgnored"}


@lru_cache(maxsize=1)
def services() -> Services:
    return Services(resolve(get_settings()))  # secrets from Secrets Manager, once per container


def _request(event: dict[str, Any]) -> tuple[dict[str, str], bytes]:
    headers = {k.lower(): v for k, v in (event.get("headers") or {}).items() if isinstance(v, str)}
    raw = event.get("body") or ""
    body = base64.b64decode(raw) if event.get("isBase64Encoded") else raw.encode("utf-8")
    return headers, body


def _response(answer: Answer) -> dict[str, Any]:
    return {"statusCode": answer.status, "headers": {"content-type": "application/json"}, "body": answer.json()}


@metrics.log_metrics
@logger.inject_lambda_context(clear_state=True)
def handler(event: dict[str, Any], context: object) -> dict[str, Any]:
    try:
        headers, body = _request(event)
    except (ValueError, TypeError):
        answer = Answer(400, {"error": "body could not be decoded"})
    else:
        answer = services().intake.receive(headers, body)
    count(_OUTCOME.get(str(answer.body.get("status")), "DeliveriesRejected"))
    return _response(answer)
