"""Delivery dedupe on the job key: a redelivered or replayed webhook is acknowledged, not enqueued again.

The key is made from signed content only (core/wire.py `Job.key`); `X-GitHub-Delivery` is not signed, so
deduping on it alone let a captured body be replayed under a new id. Column and argument names keep
"delivery" for the stored tables' sake.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from typing import TYPE_CHECKING, Protocol

from core import aws
from core.errors import TransientError

if TYPE_CHECKING:
    from core.db import Database


class DeliveryLog(Protocol):
    def claim(self, delivery_id: str, event: str, tenant_id: int | None) -> bool:
        """True the first time a delivery id is seen, False for a redelivery."""

    def release(self, delivery_id: str, tenant_id: int | None) -> None:
        """Forget a claim whose job could not be enqueued, so a redelivery can succeed."""


class MemoryDeliveries:
    """Bounded, in-process: enough for one local process and for tests."""

    def __init__(self, capacity: int = 100_000):
        self._seen: OrderedDict[str, None] = OrderedDict()
        self._capacity = capacity
        self._lock = threading.Lock()

    def claim(self, delivery_id: str, event: str, tenant_id: int | None) -> bool:
        with self._lock:
            if delivery_id in self._seen:
                return False
            self._seen[delivery_id] = None
            if len(self._seen) > self._capacity:
                self._seen.popitem(last=False)
            return True

    def release(self, delivery_id: str, tenant_id: int | None) -> None:
        with self._lock:
            self._seen.pop(delivery_id, None)


class DynamoDeliveries:
    """Conditional put: exactly one caller wins a delivery id; TTL expires it after GitHub's window."""

    def __init__(self, table: str, ttl_days: int):
        self.table = table
        self.ttl_seconds = ttl_days * 86_400

    def claim(self, delivery_id: str, event: str, tenant_id: int | None) -> bool:
        ddb = aws.client("dynamodb")
        try:
            ddb.put_item(
                TableName=self.table,
                Item={
                    "delivery_id": {"S": delivery_id},
                    "event": {"S": event},
                    "tenant_id": {"N": str(tenant_id or 0)},
                    "expires_at": {"N": str(int(time.time()) + self.ttl_seconds)},
                },
                ConditionExpression="attribute_not_exists(delivery_id)",
            )
            return True
        except ddb.exceptions.ConditionalCheckFailedException:
            return False
        except Exception as exc:  # botocore errors: throttling, network
            raise TransientError(f"delivery log unavailable: {exc.__class__.__name__}") from exc

    def release(self, delivery_id: str, tenant_id: int | None) -> None:
        aws.client("dynamodb").delete_item(TableName=self.table, Key={"delivery_id": {"S": delivery_id}})


class DatabaseDeliveries:
    """Local mode: survives restarts of `memfix serve`. The application may claim and release, never read the table,
    and only inside the job's own tenant (core/migrations/010: a claim names its tenant first)."""

    def __init__(self, db: Database):
        self.db = db

    def claim(self, delivery_id: str, event: str, tenant_id: int | None) -> bool:
        with self.db.tenant(_installation(tenant_id)) as conn:
            row = conn.execute("SELECT memfix_claim_delivery(%s, %s) AS claimed", (delivery_id, event)).fetchone()
        assert row is not None  # a SELECT of a function returns its one row
        return bool(row["claimed"])

    def release(self, delivery_id: str, tenant_id: int | None) -> None:
        with self.db.tenant(_installation(tenant_id)) as conn:
            conn.execute("SELECT memfix_release_delivery(%s)", (delivery_id,))


def _installation(tenant_id: int | None) -> int:
    if tenant_id is None:  # every job has one: a claim without it is a bug to see, not a delivery to drop
        raise ValueError("a delivery is claimed inside its installation")
    return tenant_id
