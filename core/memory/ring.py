"""The healing ring: the most recent envelopes per repository, in front of `healing_envelopes`.

DynamoDB table (`create_table` makes one; on-demand billing, TTL on `expires_at`):

    ring        S   partition key: f"{tenant_id}#{repository}"
    slot        N   sort key: seq % capacity for envelopes, -1 for the ring's counter item
    seq         N   the envelope's sequence number (on the counter: the last number handed out)
    envelope    S   the envelope as JSON
    expires_at  N   epoch seconds; TTL deletion is lazy, so reads filter expired items too

A push is at most 2 requests: UpdateItem `ADD seq :one` on the counter hands out the next sequence
number atomically, then a PutItem writes slot `seq % capacity` on condition that the slot is empty,
older, or expired — a slow writer never overwrites a newer envelope (it is dropped silently).
A read is one Query on the partition (slot >= 0 leaves the counter out).

Under contention every seq goes to one writer (the ADD and its answer are one atomic request) and each slot
ends up with the highest seq written to it, whatever order the PutItems land in: once the writers are done,
the ring holds the `capacity` newest. Forgetting a ring deletes its envelopes and keeps its counter.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import asdict, dataclass, fields, replace
from datetime import UTC, datetime
from itertools import islice
from statistics import fmean
from typing import TYPE_CHECKING, Any, Protocol

from core import aws
from core.errors import TransientError
from core.memory.sanitize import escape_braces
from core.memory.types import AttemptStatus, Circuit, Envelope

if TYPE_CHECKING:
    from core.db import Connection, Database
    from core.settings import Settings

log = logging.getLogger(__name__)

CAPACITY = 20
TTL_SECONDS = 14 * 86_400
ERROR_CHARS = 80
TREND_MARGIN = 0.10  # success-rate difference between halves below which the trend is "stable"
LOW_SUCCESS = 0.30
REPEATS = 3
_COUNTER_SLOT = "-1"
_ENVELOPE_FIELDS = {f.name for f in fields(Envelope)}


class RingUnavailable(TransientError):
    """The ring's store did not answer; `healing_envelopes` still has every envelope."""


class Ring(Protocol):
    def push(self, tenant_id: int, envelope: Envelope) -> None:
        """Remember an envelope; beyond the ring's capacity the oldest one is forgotten."""

    def recent(self, tenant_id: int, repository: str, limit: int = CAPACITY) -> list[Envelope]:
        """Up to `limit` envelopes of one repository, newest first."""

    def forget(self, tenant_id: int, repository: str) -> None:
        """Drop a repository's ring: the name now means another repository (or none)."""


def envelope_to_json(envelope: Envelope) -> str:
    """The ring's copy: without the model's sections and the diff (the database keeps those; the ring stays small)."""
    data = {**asdict(envelope), "created_at": envelope.created_at.isoformat()}
    data.pop("sections", None)
    data.pop("diff", None)
    return json.dumps(data, separators=(",", ":"))


def envelope_from_json(text: str) -> Envelope:
    data = {k: v for k, v in json.loads(text).items() if k in _ENVELOPE_FIELDS}  # tolerate newer writers
    return Envelope(**{**data, "status": AttemptStatus(data["status"]),
                       "breaker_state": Circuit(data.get("breaker_state", Circuit.CLOSED)),
                       "created_at": datetime.fromisoformat(data["created_at"])})


class LocalRing:
    """In-process: a bounded deque per (tenant, repository)."""

    def __init__(self, capacity: int = CAPACITY):
        self.capacity = capacity
        self._rings: dict[tuple[int, str], deque[Envelope]] = {}
        self._lock = threading.Lock()

    def push(self, tenant_id: int, envelope: Envelope) -> None:
        key = (int(tenant_id), envelope.repository)
        with self._lock:
            ring = self._rings.get(key)
            if ring is None:
                ring = self._rings[key] = deque(maxlen=self.capacity)
            ring.append(envelope)

    def recent(self, tenant_id: int, repository: str, limit: int = CAPACITY) -> list[Envelope]:
        with self._lock:
            ring = self._rings.get((int(tenant_id), repository))
            return list(islice(reversed(ring), limit)) if ring else []

    def forget(self, tenant_id: int, repository: str) -> None:
        with self._lock:
            self._rings.pop((int(tenant_id), repository), None)


class DynamoRing:
    """A bounded ring per (tenant, repository) in one DynamoDB table; see the module docstring."""

    def __init__(self, table: str, capacity: int = CAPACITY, ttl_seconds: int = TTL_SECONDS):
        self.table = table
        self.capacity = capacity
        self.ttl_seconds = ttl_seconds

    @staticmethod
    def ring_key(tenant_id: int, repository: str) -> str:
        return f"{int(tenant_id)}#{repository}"

    def push(self, tenant_id: int, envelope: Envelope) -> None:
        ddb = aws.client("dynamodb")
        ring = {"S": self.ring_key(tenant_id, envelope.repository)}
        now = int(time.time())
        expires = {"N": str(now + self.ttl_seconds)}
        try:
            counter = ddb.update_item(
                TableName=self.table,
                Key={"ring": ring, "slot": {"N": _COUNTER_SLOT}},
                UpdateExpression="ADD seq :one SET expires_at = :expires",  # the counter lives as long as its ring
                ExpressionAttributeValues={":one": {"N": "1"}, ":expires": expires},
                ReturnValues="UPDATED_NEW",
            )
            seq = int(counter["Attributes"]["seq"]["N"])
            ddb.put_item(
                TableName=self.table,
                Item={"ring": ring, "slot": {"N": str(seq % self.capacity)}, "seq": {"N": str(seq)},
                      "envelope": {"S": envelope_to_json(envelope)}, "expires_at": expires},
                # expired-but-undeleted items must not block a ring whose counter expired and restarted
                ConditionExpression="attribute_not_exists(seq) OR seq < :seq OR expires_at < :now",
                ExpressionAttributeValues={":seq": {"N": str(seq)}, ":now": {"N": str(now)}},
            )
        except ddb.exceptions.ConditionalCheckFailedException:
            return  # a newer envelope already holds this slot
        except Exception as exc:  # botocore errors: missing table, throttling, network
            raise RingUnavailable(f"healing ring unavailable: {exc.__class__.__name__}") from exc

    def recent(self, tenant_id: int, repository: str, limit: int = CAPACITY) -> list[Envelope]:
        ddb = aws.client("dynamodb")
        query = {
            "TableName": self.table,
            "KeyConditionExpression": "ring = :ring AND slot >= :first",
            "ExpressionAttributeValues": {":ring": {"S": self.ring_key(tenant_id, repository)}, ":first": {"N": "0"}},
            "ConsistentRead": True,  # the next attempt must see the one just recorded
        }
        items: list[dict[str, Any]] = []
        try:
            while True:  # one page unless envelopes grow past 1 MB in total
                page = ddb.query(**query)
                items += page["Items"]
                if "LastEvaluatedKey" not in page:
                    break
                query["ExclusiveStartKey"] = page["LastEvaluatedKey"]
        except Exception as exc:  # botocore errors: missing table, throttling, network
            raise RingUnavailable(f"healing ring unavailable: {exc.__class__.__name__}") from exc
        now = time.time()
        live = sorted((i for i in items if int(i["expires_at"]["N"]) > now), key=lambda i: -int(i["seq"]["N"]))
        return [envelope_from_json(i["envelope"]["S"]) for i in live[:limit]]


    def forget(self, tenant_id: int, repository: str) -> None:
        ddb = aws.client("dynamodb")
        ring = {"S": self.ring_key(tenant_id, repository)}
        try:
            # the counter stays: a push in flight may still land its seq, and numbers that started over would rank
            # it above (and its slot would refuse) the next envelopes
            for slot in range(self.capacity):
                ddb.delete_item(TableName=self.table, Key={"ring": ring, "slot": {"N": str(slot)}})
        except Exception as exc:  # botocore errors: missing table, throttling, network
            raise RingUnavailable(f"healing ring unavailable: {exc.__class__.__name__}") from exc


def create_table(name: str) -> None:
    """The ring's table, for tests and the CLI: on-demand billing, TTL on `expires_at`."""
    ddb = aws.client("dynamodb")
    ddb.create_table(
        TableName=name,
        KeySchema=[{"AttributeName": "ring", "KeyType": "HASH"}, {"AttributeName": "slot", "KeyType": "RANGE"}],
        AttributeDefinitions=[{"AttributeName": "ring", "AttributeType": "S"},
                              {"AttributeName": "slot", "AttributeType": "N"}],
        BillingMode="PAY_PER_REQUEST",
    )
    ddb.get_waiter("table_exists").wait(TableName=name)
    ddb.update_time_to_live(TableName=name,
                            TimeToLiveSpecification={"Enabled": True, "AttributeName": "expires_at"})


def ring_from_settings(settings: Settings) -> Ring:
    return DynamoRing(settings.ring_table) if settings.ring_table else LocalRing()


# ---- the service the pipelines use ----

_INSERT = """
INSERT INTO healing_envelopes (id, tenant_id, repository, pipeline, run_id, attempt, patch_id, status,
                               confidence, breaker_state, error_message, error_hash, created_at, path, checks, sections,
                               diff)
VALUES (%(id)s, %(tenant_id)s, %(repository)s, %(pipeline)s, %(run_id)s, %(attempt)s, %(patch_id)s, %(status)s,
        %(confidence)s, %(breaker_state)s, %(error_message)s, %(error_hash)s, %(created_at)s, %(path)s,
        %(checks)s::jsonb, %(sections)s::jsonb, %(diff)s)
ON CONFLICT (id) DO NOTHING
"""
_READS = """
INSERT INTO ring_reads (tenant_id, repository, hits, misses) VALUES (%s, %s, %s, %s)
ON CONFLICT (tenant_id, repository, day) DO UPDATE
SET hits = ring_reads.hits + EXCLUDED.hits, misses = ring_reads.misses + EXCLUDED.misses
"""
_SELECT = """
SELECT id, repository, pipeline, run_id, attempt, patch_id, status, confidence, breaker_state,
       error_message, error_hash, created_at, path, checks
FROM healing_envelopes WHERE repository = %s ORDER BY created_at DESC, id LIMIT %s
"""
# A run's attempts with everything the dashboard shows of them: the model's sections and the diff included.
_OF_RUN = """
SELECT id, repository, pipeline, run_id, attempt, patch_id, status, confidence, breaker_state,
       error_message, error_hash, created_at, path, checks, sections, diff
FROM healing_envelopes WHERE run_id = %s ORDER BY path, created_at, attempt
"""
_RING_READS = """
SELECT repository, sum(hits) AS hits, sum(misses) AS misses FROM ring_reads
WHERE day > current_date - %s::integer AND repository = ANY(%s) GROUP BY 1 ORDER BY 1
"""


@dataclass(frozen=True)
class RingRate:
    """How often one repository's recent-attempt context came from the ring alone (hits) or needed the database."""

    repository: str
    hits: int
    misses: int

    @property
    def rate(self) -> float | None:
        total = self.hits + self.misses
        return self.hits / total if total else None


def _stored(row: dict[str, Any]) -> Envelope:
    """An envelope as the database keeps it, its time in the session's zone (like every other row a page shows)."""
    # `real` keeps ~7 significant digits: round away the float32 noise (0.85 → 0.8500000238)
    return Envelope(**{**row, "status": AttemptStatus(row["status"]), "breaker_state": Circuit(row["breaker_state"]),
                       "confidence": round(row["confidence"], 6)})


def _from_row(row: dict[str, Any]) -> Envelope:
    envelope = _stored(row)
    return replace(envelope, created_at=envelope.created_at.astimezone(UTC))  # as the ring's copies say it


class HealingLog:
    """Write-through: ring first, then Postgres; reads: ring first, then Postgres for what it lacks."""

    def __init__(self, ring: Ring, db: Database):
        self.ring = ring
        self.db = db
        # ring hits and misses of recent-attempt reads, written with the next envelope (no write of their own)
        self._reads: Counter[tuple[int, str, str]] = Counter()
        self._reads_lock = threading.Lock()

    def _row(self, tenant_id: int, envelope: Envelope) -> dict[str, Any]:
        row = {**asdict(envelope), "tenant_id": tenant_id}
        return {**row, "checks": json.dumps(row["checks"]) if row["checks"] is not None else None,
                "sections": json.dumps(row["sections"]) if row["sections"] is not None else None}

    def _flush_reads(self, conn: Connection, tenant_id: int) -> None:
        with self._reads_lock:
            mine = {k: v for k, v in self._reads.items() if k[0] == tenant_id}
            for key in mine:
                del self._reads[key]
        by_repo: dict[str, list[int]] = {}
        for (_, repository, kind), count in mine.items():
            by_repo.setdefault(repository, [0, 0])[kind == "miss"] += count
        for repository, (hits, misses) in by_repo.items():
            conn.execute(_READS, (tenant_id, repository, hits, misses))

    def record(self, tenant_id: int, envelope: Envelope) -> None:
        try:
            self.ring.push(tenant_id, envelope)
        except Exception:  # the ring is a cache: nothing that breaks it may cost the durable write
            log.warning("healing ring push failed for %s; recording in Postgres only", envelope.repository,
                        exc_info=True)
        with self.db.tenant(tenant_id, register=True) as conn:
            conn.execute(_INSERT, self._row(tenant_id, envelope))
            self._flush_reads(conn, tenant_id)

    def record_many(self, tenant_id: int, envelopes: list[Envelope]) -> None:
        """`record` for many envelopes (oldest first): one Postgres transaction for all of them, and into the ring
        only the newest that it can hold (the rest would be forgotten at once); a ring that fails is not asked
        again for this batch."""
        if not envelopes:
            return
        capacity = getattr(self.ring, "capacity", None)
        for envelope in envelopes[-capacity:] if capacity else envelopes:
            try:
                self.ring.push(tenant_id, envelope)
            except Exception:  # the ring is a cache: nothing that breaks it may cost the durable write
                log.warning("healing ring push failed for %s; recording %d envelopes in Postgres only",
                            envelope.repository, len(envelopes), exc_info=True)
                break
        with self.db.tenant(tenant_id, register=True) as conn, conn.cursor() as cursor:
            cursor.executemany(_INSERT, [self._row(tenant_id, envelope) for envelope in envelopes])
            self._flush_reads(conn, tenant_id)

    def recent(self, tenant_id: int, repository: str, limit: int = 10) -> list[Envelope]:
        try:
            # by id: a redelivered job may have pushed the same envelope twice
            from_ring = {e.id: e for e in self.ring.recent(tenant_id, repository, limit)}
        except Exception:  # the ring is a cache: Postgres has every envelope
            log.warning("healing ring read failed for %s; reading Postgres", repository, exc_info=True)
            from_ring = {}
        hit = len(from_ring) >= limit
        with self._reads_lock:
            self._reads[(tenant_id, repository, "hit" if hit else "miss")] += 1
        merged = from_ring if hit else {
            **{e.id: e for e in self._select(tenant_id, repository, limit)}, **from_ring}
        return sorted(merged.values(), key=lambda e: e.created_at, reverse=True)[:limit]

    def forget(self, tenant_id: int, repository: str) -> None:
        """The ring's recent attempts under a name that now means another repository (Postgres keeps them, moved)."""
        try:
            self.ring.forget(tenant_id, repository)
        except Exception:  # noqa: BLE001 — the ring is a cache that expires; a failure here loses nothing
            log.warning("healing ring: could not forget %s", repository, exc_info=True)

    def all(self, tenant_id: int, repository: str) -> list[Envelope]:
        """The full history, newest first."""
        return self._select(tenant_id, repository, None)

    def llm_context(self, tenant_id: int, repository: str, limit: int = 10) -> str:
        return healing_context(self.recent(tenant_id, repository, limit))

    def pattern_insights(self, tenant_id: int, repository: str, limit: int = CAPACITY) -> str:
        return pattern_analysis(self.recent(tenant_id, repository, limit))

    def stored(self, tenant_id: int, repository: str, limit: int) -> list[Envelope]:
        """The newest envelopes in Postgres (not the ring), newest first, times in the database session's zone."""
        return self._select(tenant_id, repository, limit, _stored)

    def of_run(self, tenant_id: int, run_id: int) -> list[Envelope]:
        """A run's attempts, by file and in order, with the sections the model was given and the diff tried."""
        with self.db.tenant(tenant_id) as conn:
            return [_stored(r) for r in conn.execute(_OF_RUN, (str(run_id),)).fetchall()]

    def ring_rates(self, tenant_id: int, repos: list[str], days: int = 30) -> list[RingRate]:
        """Per repository over the last `days`: recent-attempt reads the ring served alone, and those it did not."""
        with self.db.tenant(tenant_id) as conn:
            return [RingRate(r["repository"], r["hits"], r["misses"])
                    for r in conn.execute(_RING_READS, (days, repos)).fetchall()]

    def _select(self, tenant_id: int, repository: str, limit: int | None,
                envelope: Callable[[dict[str, Any]], Envelope] = _from_row) -> list[Envelope]:
        with self.db.tenant(tenant_id) as conn:
            return [envelope(r) for r in conn.execute(_SELECT, (repository, limit)).fetchall()]


# ---- text for prompts: deterministic, every stored string through escape_braces ----


def _one_line(text: str | None, width: int = ERROR_CHARS) -> str:
    text = " ".join((text or "").split())
    return text if len(text) <= width else text[: width - 3] + "..."


def _success(envelopes: list[Envelope]) -> float:
    return sum(e.status == AttemptStatus.PROMOTED for e in envelopes) / len(envelopes)


def _percent(rate: float) -> str:
    return f"{rate * 100:.0f}%"


def _trend(before: float, after: float) -> str:
    if abs(after - before) < TREND_MARGIN:
        return "stable"
    return "improving" if after > before else "degrading"


def healing_context(envelopes: list[Envelope]) -> str:
    """The "Recent healing context" block for envelopes given newest first."""
    if not envelopes:
        return "Recent healing context: no history yet."
    promoted = sum(e.status == AttemptStatus.PROMOTED for e in envelopes)
    lines = [f"Recent healing context: success rate {_percent(_success(envelopes))}"
             f" ({promoted}/{len(envelopes)} PROMOTED), newest first:"]
    for e in envelopes:
        line = f"- {e.status} attempt {e.attempt}, confidence {e.confidence:.2f}, breaker {e.breaker_state}"
        lines.append(line + (f", error: {_one_line(e.error_message)}" if e.error_message else ""))
    return escape_braces("\n".join(lines))


def pattern_analysis(envelopes: list[Envelope]) -> str:
    """The "pattern analysis" block: trend, breaker, confidence and guidance, for envelopes newest first."""
    if not envelopes:
        return "Pattern analysis: no history yet."
    n = len(envelopes)
    newer, older = envelopes[: n // 2], envelopes[n // 2:]
    lines = [f"Pattern analysis over {n} attempt{'s' if n > 1 else ''}:"]
    if newer:
        before, after = _success(older), _success(newer)
        lines.append(f"- trend: {_trend(before, after)} (success {_percent(before)} older, {_percent(after)} recent)")
        lines.append(f"- confidence: recent {fmean(e.confidence for e in newer):.2f},"
                     f" older {fmean(e.confidence for e in older):.2f}")
    else:
        lines.append("- trend: not enough attempts yet")
        lines.append(f"- confidence: {envelopes[0].confidence:.2f}")
    tripped = sum(e.breaker_state in (Circuit.OPEN, Circuit.HALF_OPEN) for e in envelopes)
    lines.append(f"- breaker: open or half-open in {tripped}/{n} attempts")
    lines += _repeated_errors(envelopes)
    rate = _success(envelopes)
    if rate < LOW_SUCCESS:
        lines.append(f"- guidance: success rate {_percent(rate)} is under {_percent(LOW_SUCCESS)}:"
                     " propose smaller patches that change one thing")
    if guidance := _BREAKER_GUIDANCE.get(envelopes[0].breaker_state):
        lines.append(guidance)
    return escape_braces("\n".join(lines))


_BREAKER_GUIDANCE = {
    Circuit.OPEN: "- guidance: the circuit breaker is open: model calls are paused",
    Circuit.HALF_OPEN: "- guidance: the circuit breaker is half-open: this attempt is a trial, keep it small",
}


def _repeated_errors(envelopes: list[Envelope]) -> list[str]:
    """Guidance for each error that occurred REPEATS times or more, with its newest message."""
    newest_message: dict[str, str] = {}
    for e in envelopes:
        if e.error_hash:
            newest_message.setdefault(e.error_hash, e.error_message or e.error_hash[:12])
    # most_common keeps first-seen order among equal counts: newest error first, deterministic
    return [f"- guidance: the same error occurred {count} times: look upstream of {_one_line(newest_message[h])}"
            for h, count in Counter(e.error_hash for e in envelopes if e.error_hash).most_common() if count >= REPEATS]
