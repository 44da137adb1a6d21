"""Migration Lambda: applies `core/migrations/` on every deploy (a CloudFormation custom resource) or by hand.

As a custom resource: Create and Update run `core.db.migrate` (idempotent, under an advisory lock);
Delete does nothing (the data outlives the stack's resource). CloudFormation is always answered through
the pre-signed ResponseURL — on success, on failure with the reason, and shortly before this function
would time out — so a stack never waits an hour for an answer that will not come.

By hand: `aws lambda invoke --function-name <MigrateFunction> out.json` with any event that is not a
CloudFormation request (e.g. `{}`) applies pending migrations and returns what it applied.
"""

from __future__ import annotations

import json
import logging
import threading
import time
import urllib.request
from typing import Any

from core.secrets import resolve
from core.settings import Settings, get_settings
from handlers.observability import logger

log = logging.getLogger(__name__)

PHYSICAL_ID = "memfix-migrations"  # stable: an Update never looks like a replacement to CloudFormation
_REASON_CHARS = 2000  # the whole response must stay under CloudFormation's 4 KiB
_SAFETY_MS = 10_000  # answer FAILED this long before the function would be killed
_RETRY_SECONDS = 15  # between attempts to reach a database that is not ready yet
_RETRY_MARGIN_MS = 60_000  # stop retrying this long before the function would be killed


class Responder:
    """Sends at most one answer to CloudFormation; the first one wins (the watchdog or the handler)."""

    def __init__(self, event: dict[str, Any], context: object):
        self.event, self.context = event, context
        self._lock = threading.Lock()
        self.sent: str | None = None

    def send(self, status: str, reason: str = "", data: dict[str, Any] | None = None) -> bool:
        with self._lock:
            if self.sent:
                return False
            self.sent = status
        stream = getattr(self.context, "log_stream_name", "")
        reason = (reason or status)[:_REASON_CHARS] + (f" (log stream {stream})" if stream else "")
        body = json.dumps({
            "Status": status,
            "Reason": reason,
            "PhysicalResourceId": self.event.get("PhysicalResourceId") or PHYSICAL_ID,
            "StackId": self.event["StackId"],
            "RequestId": self.event["RequestId"],
            "LogicalResourceId": self.event["LogicalResourceId"],
            "NoEcho": False,
            "Data": data or {},
        }).encode()
        request = urllib.request.Request(self.event["ResponseURL"], data=body, method="PUT",
                                         headers={"Content-Type": "", "Content-Length": str(len(body))})
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                log.info("answered CloudFormation %s (HTTP %s)", status, response.status)
        except Exception:  # noqa: BLE001 — nothing else can be done; the log says why
            log.exception("could not answer CloudFormation (%s)", status)
        return True


def apply_migrations(deadline: float | None = None) -> list[str]:
    """Pending migrations, applied. Until `deadline` (time.monotonic()), a database that does not answer yet
    is waited for: on the first deploy RDS Proxy may still be registering the new cluster as its target."""
    from core import db  # noqa: PLC0415 — psycopg only when there is work

    settings = resolve(get_settings())
    if not settings.database_url:
        raise RuntimeError("no database: set DATABASE_SECRET_ARN and DATABASE_HOST (or DATABASE_URL)")
    while True:
        try:
            applied = db.migrate(settings.database_url)
            if settings.database_app_secret_arn:  # the functions' own login, a member of memfix_app
                login = app_login(settings)
                db.ensure_login_role(settings.database_url, login["username"], login["password"])
            return applied
        except db.OperationalError as exc:
            if deadline is None or time.monotonic() + _RETRY_SECONDS > deadline:
                raise
            log.warning("database not reachable yet (%s); retrying in %d s", exc, _RETRY_SECONDS)
            time.sleep(_RETRY_SECONDS)


def app_login(settings: Settings) -> dict[str, Any]:
    from core.secrets import SecretsError, fetch_secret  # noqa: PLC0415

    arn = settings.database_app_secret_arn
    if not arn:  # apply_migrations asks only when it is set; a secret of no name is never fetched
        raise SecretsError("DATABASE_APP_SECRET_ARN is not set")
    try:
        login = json.loads(fetch_secret(arn))
    except ValueError:
        raise SecretsError("DATABASE_APP_SECRET_ARN must name a JSON secret with username and password") from None
    if not isinstance(login, dict) or not login.get("username") or not login.get("password"):
        raise SecretsError("the application's database secret has no username or password")
    return login


def _watchdog(responder: Responder, context: object) -> threading.Timer | None:
    remaining = getattr(context, "get_remaining_time_in_millis", None)
    if remaining is None:
        return None
    seconds = max(1.0, (remaining() - _SAFETY_MS) / 1000)
    timer = threading.Timer(seconds, responder.send, ("FAILED", "the migration function ran out of time"))
    timer.daemon = True
    timer.start()
    return timer


@logger.inject_lambda_context(clear_state=True)
def handler(event: dict[str, Any], context: object) -> dict[str, Any]:
    if "RequestType" not in event:  # invoked by hand
        applied = apply_migrations()
        log.info("applied %d migration(s): %s", len(applied), ", ".join(applied))
        return {"applied": applied}

    responder = Responder(event, context)
    timer = _watchdog(responder, context)
    try:
        if event["RequestType"] == "Delete":
            responder.send("SUCCESS", "nothing to do: the database keeps its schema")
            return {"status": "SUCCESS"}
        remaining = getattr(context, "get_remaining_time_in_millis", None)
        deadline = time.monotonic() + (remaining() - _RETRY_MARGIN_MS) / 1000 if remaining else None
        applied = apply_migrations(deadline)
        reason = f"applied {len(applied)} migration(s)" + (f": {', '.join(applied)}" if applied else "")
        responder.send("SUCCESS", reason, {"Applied": ",".join(applied)})
        return {"status": "SUCCESS", "applied": applied}
    except Exception as exc:  # noqa: BLE001 — any failure becomes a FAILED answer, never a hung stack
        log.exception("migration failed")
        responder.send("FAILED", f"migration failed: {exc.__class__.__name__}: {exc}")
        return {"status": "FAILED"}
    finally:
        if timer is not None:
            timer.cancel()
