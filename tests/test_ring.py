"""The healing ring (LocalRing, DynamoRing on moto), HealingLog on real Postgres, and the prompt text blocks."""

from __future__ import annotations

import functools
import random
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest
from moto import mock_aws

from core import aws
from core.memory.ring import (
    DynamoRing,
    HealingLog,
    LocalRing,
    create_table,
    envelope_from_json,
    envelope_to_json,
    healing_context,
    pattern_analysis,
)
from core.memory.sanitize import escape_braces
from core.memory.types import Envelope

TABLE = "memfix-ring"
REPO = "octo/widgets"
T0 = datetime(2025, 1, 1, tzinfo=UTC)


def env(i: int, status: str = "RETRY", repository: str = REPO, **kw) -> Envelope:
    """Envelope number i; a larger i is newer."""
    return Envelope(repository=repository, status=status, attempt=i, created_at=T0 + timedelta(seconds=i), **kw)


def newest_first(*statuses: str, **kw) -> list[Envelope]:
    n = len(statuses)
    return [env(n - k, s, **kw) for k, s in enumerate(statuses)]


@pytest.fixture
def ddb(aws_env):
    with mock_aws():
        aws.client.cache_clear()
        create_table(TABLE)
        yield aws.client("dynamodb")
        aws.client.cache_clear()


@pytest.fixture
def atomic_requests(monkeypatch):
    """DynamoDB applies each request atomically per item: its condition, its write and the values it returns.
    moto does not under threads: UpdateItem's answer is read off the live item after the write, so two writers
    can both be told the same seq (and one seq is never written). Each moto DynamoDB request gets a lock."""
    from moto.dynamodb.responses import DynamoHandler

    lock, call_action = threading.Lock(), DynamoHandler.call_action

    @functools.wraps(call_action)
    def locked(self):
        with lock:
            return call_action(self)

    monkeypatch.setattr(DynamoHandler, "call_action", locked)


class Writers:
    """Envelopes pushed each on a thread of its own, all starting at once; `hold(seq)` runs on a writer's thread as
    soon as UpdateItem has handed it its seq, before its PutItem, so a test sets the interleaving with events and
    barriers, not with sleeps and luck."""

    def __init__(self, ring: DynamoRing, envelopes: list[Envelope], hold: Callable[[int], object]):
        self.ring, self.hold = ring, hold
        self.handed: list[int] = []  # seqs, in the order UpdateItem answered
        self.envelope_of: dict[int, Envelope] = {}
        self.thread_of: dict[int, threading.Thread] = {}
        self.errors: list[Exception] = []
        self._lock, self._mine, self._start = threading.Lock(), threading.local(), threading.Barrier(len(envelopes))
        self._threads = [threading.Thread(target=self._push, args=(e,)) for e in envelopes]

    def _push(self, envelope: Envelope) -> None:
        self._mine.envelope = envelope
        try:
            self._start.wait(10)
            self.ring.push(7, envelope)
        except Exception as exc:  # the test asserts there were none
            self.errors.append(exc)

    def _handed(self, parsed, **_) -> None:
        seq = int(parsed["Attributes"]["seq"]["N"])
        with self._lock:
            self.handed.append(seq)
            self.envelope_of[seq], self.thread_of[seq] = self._mine.envelope, threading.current_thread()
        self.hold(seq)

    def __enter__(self) -> Writers:
        aws.client("dynamodb").meta.events.register("after-call.dynamodb.UpdateItem", self._handed)
        for thread in self._threads:
            thread.start()
        return self

    def __exit__(self, *_) -> None:
        for thread in self._threads:
            thread.join(10)
        aws.client("dynamodb").meta.events.unregister("after-call.dynamodb.UpdateItem", self._handed)
        assert not any(thread.is_alive() for thread in self._threads)


@pytest.fixture
def calls(ddb):
    """Operation names of every DynamoDB request the client sends from now on."""
    seen: list[str] = []
    handler = lambda model, **_: seen.append(model.name)
    ddb.meta.events.register("before-call.dynamodb", handler)
    yield seen
    ddb.meta.events.unregister("before-call.dynamodb", handler)


def stored(ddb, tenant_id: int, repository: str = REPO) -> list[dict]:
    return ddb.query(TableName=TABLE, KeyConditionExpression="ring = :r",
                     ExpressionAttributeValues={":r": {"S": f"{tenant_id}#{repository}"}})["Items"]


def install(db, tenant_id: int) -> None:
    with db.tenant(tenant_id, register=True):
        pass


# ---- DynamoRing ----


def test_dynamo_ring_keeps_the_newest_capacity_newest_first(ddb):
    # Given a ring of 20 / When 25 envelopes are pushed
    ring = DynamoRing(TABLE)
    for i in range(1, 26):
        ring.push(7, env(i))
    # Then the 20 newest remain, newest first, and a smaller limit takes the newest
    assert [e.attempt for e in ring.recent(7, REPO)] == list(range(25, 5, -1))
    assert [e.attempt for e in ring.recent(7, REPO, limit=3)] == [25, 24, 23]
    assert len(stored(ddb, 7)) == 21  # 20 slots + the counter


def test_dynamo_ring_round_trips_envelopes_and_isolates_tenants_and_repositories(ddb):
    ring = DynamoRing(TABLE)
    original = env(1, "HUMAN_REVIEW", confidence=0.85, breaker_state="half_open", run_id="r1", patch_id="p1",
                   pipeline="autofix", error_message="boom", error_hash=Envelope.hash_error("a.py", 3, "boom"))
    ring.push(7, original)
    ring.push(8, env(2))
    ring.push(7, env(3, repository="octo/other"))
    assert ring.recent(7, REPO) == [original]
    assert [e.attempt for e in ring.recent(8, REPO)] == [2]
    assert ring.recent(9, REPO) == []


def test_dynamo_ring_filters_expired_items(ddb):
    # Given live envelopes and an expired one TTL has not deleted yet
    ring = DynamoRing(TABLE)
    for i in range(1, 4):
        ring.push(7, env(i))
    past = str(int(time.time()) - 60)
    ddb.put_item(TableName=TABLE, Item={"ring": {"S": f"7#{REPO}"}, "slot": {"N": "10"}, "seq": {"N": "10"},
                                        "envelope": {"S": envelope_to_json(env(10))}, "expires_at": {"N": past}})
    # Then reads skip it
    assert [e.attempt for e in ring.recent(7, REPO)] == [3, 2, 1]


def test_dynamo_ring_overwrites_an_expired_slot_even_with_a_higher_seq(ddb):
    # Given an expired, undeleted item with seq 100 in slot 0 (its ring's counter expired and restarted)
    past = str(int(time.time()) - 60)
    ddb.put_item(TableName=TABLE, Item={"ring": {"S": f"7#{REPO}"}, "slot": {"N": "0"}, "seq": {"N": "100"},
                                        "envelope": {"S": envelope_to_json(env(100))}, "expires_at": {"N": past}})
    # When seqs 1..4 are pushed into a ring of 4 (seq 4 → slot 0)
    ring = DynamoRing(TABLE, capacity=4)
    for i in range(1, 5):
        ring.push(7, env(i))
    # Then the new envelope took the slot
    assert [e.attempt for e in ring.recent(7, REPO)] == [4, 3, 2, 1]


def slots(ddb, tenant_id: int = 7) -> dict[int, int]:
    """Slot → seq of the envelopes stored (the counter left out)."""
    return {int(i["slot"]["N"]): int(i["seq"]["N"]) for i in stored(ddb, tenant_id) if i["slot"]["N"] != "-1"}


def test_dynamo_ring_50_concurrent_writers_leave_the_20_newest(ddb, atomic_requests):
    # Given 50 writers that ask for a seq at once, each holding it until all 50 have one,
    # so that every slot's two or three PutItems race each other
    ring, all_handed = DynamoRing(TABLE), threading.Barrier(50)
    # When they all push
    with Writers(ring, [env(i) for i in range(1, 51)], hold=lambda seq: all_handed.wait(10)) as writers:
        pass
    # Then each got a seq of its own, and the ring holds the 20 newest, each the envelope its writer sent
    assert writers.errors == []
    assert sorted(writers.handed) == list(range(1, 51))
    assert slots(ddb) == {seq % 20: seq for seq in range(31, 51)}
    assert ring.recent(7, REPO) == [writers.envelope_of[seq] for seq in range(50, 30, -1)]


@pytest.mark.parametrize("order", ["newest first", "oldest first", "shuffled"])
def test_dynamo_ring_keeps_the_20_newest_whatever_order_the_puts_land_in(ddb, atomic_requests, order):
    # Given 50 writers that hold seqs 1..50, none of whose PutItems has gone yet
    ring, arrived = DynamoRing(TABLE), threading.Semaphore(0)
    go = {seq: threading.Event() for seq in range(1, 51)}

    def hold(seq: int) -> None:
        arrived.release()
        go[seq].wait(10)

    puts = {"newest first": range(50, 0, -1), "oldest first": range(1, 51),
            "shuffled": random.Random(26).sample(range(1, 51), 50)}[order]
    with Writers(ring, [env(i) for i in range(1, 51)], hold) as writers:
        assert all(arrived.acquire(timeout=10) for _ in range(50))
        # When their PutItems land one at a time in the given order
        for seq in puts:
            go[seq].set()
            writers.thread_of[seq].join(10)
    # Then the ring holds the 20 newest: no older writer overwrote a newer envelope, none was dropped wrongly
    assert writers.errors == []
    assert slots(ddb) == {seq % 20: seq for seq in range(31, 51)}
    assert ring.recent(7, REPO) == [writers.envelope_of[seq] for seq in range(50, 30, -1)]


def test_dynamo_ring_slow_writer_does_not_overwrite_a_newer_envelope(ddb):
    # Given a writer that got seq 1 and stalls before its PutItem
    ring = DynamoRing(TABLE, capacity=3)
    slow = env(1, error_message="slow")
    got_seq, release = threading.Event(), threading.Event()

    def stall(params, **_):
        if "slow" in params["Item"]["envelope"]["S"]:
            got_seq.set()
            release.wait(5)

    ddb.meta.events.register("before-parameter-build.dynamodb.PutItem", stall)
    writer = threading.Thread(target=ring.push, args=(7, slow))
    writer.start()
    assert got_seq.wait(5)
    # When three more envelopes arrive meanwhile (seq 4 lands in seq 1's slot) and the slow one resumes
    for i in (2, 3, 4):
        ring.push(7, env(i))
    release.set()
    writer.join(5)
    ddb.meta.events.unregister("before-parameter-build.dynamodb.PutItem", stall)
    # Then it was dropped silently and the newer envelope kept its slot
    assert not writer.is_alive()
    assert [e.attempt for e in ring.recent(7, REPO)] == [4, 3, 2]
    slot1 = next(i for i in stored(ddb, 7) if i["slot"]["N"] == "1")
    assert slot1["seq"]["N"] == "4"


def test_dynamo_ring_forget_racing_a_push_does_not_let_it_outrank_newer_envelopes(ddb):
    # Given a ring of 4 holding seqs 1..4, and a writer that got seq 5 (slot 1) and stalls before its PutItem
    ring = DynamoRing(TABLE, capacity=4)
    for i in range(1, 5):
        ring.push(7, env(i))
    got_seq, release = threading.Event(), threading.Event()
    with Writers(ring, [env(5, error_message="in flight")], hold=lambda seq: got_seq.set() or release.wait(10)) as w:
        assert got_seq.wait(10)
        # When the ring is forgotten meanwhile, the writer lands, and four envelopes follow
        ring.forget(7, REPO)
        assert ring.recent(7, REPO) == []
        release.set()
    for i in range(6, 10):
        ring.push(7, env(i))
    # Then the ring holds those four: numbering went on, so the one in flight is older than they are
    assert w.errors == []
    assert [e.attempt for e in ring.recent(7, REPO)] == [9, 8, 7, 6]


def test_dynamo_ring_requests_per_push_and_read(ddb, calls):
    ring = DynamoRing(TABLE, capacity=5)
    for i in range(1, 13):  # wraps the ring twice: conditional overwrites included
        ring.push(7, env(i))
    assert Counter(calls) == {"UpdateItem": 12, "PutItem": 12}
    calls.clear()
    ring.recent(7, REPO)
    ring.recent(8, REPO)
    assert calls == ["Query", "Query"]


def test_dynamo_ring_outage_raises_ring_unavailable(ddb):
    from core.memory.ring import RingUnavailable

    ring = DynamoRing("no-such-table")
    with pytest.raises(RingUnavailable, match="healing ring unavailable"):
        ring.push(7, env(1))
    with pytest.raises(RingUnavailable):
        ring.recent(7, REPO)


# ---- LocalRing ----


def test_local_ring_keeps_the_newest_and_isolates_tenants():
    ring = LocalRing()
    for i in range(1, 26):
        ring.push(7, env(i))
    assert [e.attempt for e in ring.recent(7, REPO)] == list(range(25, 5, -1))
    assert [e.attempt for e in ring.recent(7, REPO, limit=2)] == [25, 24]
    assert ring.recent(8, REPO) == [] and ring.recent(7, "octo/other") == []


def test_local_ring_is_thread_safe():
    # Given 20 threads that start together and each push once into each of 100 fresh repositories
    ring, start = LocalRing(capacity=50), threading.Barrier(20)
    repos = [f"octo/r{k}" for k in range(100)]

    def writer(t: int) -> None:
        start.wait()
        for repo in repos:
            ring.push(7, env(t, repository=repo))

    threads = [threading.Thread(target=writer, args=(t,)) for t in range(20)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    # Then no push was lost to a race on a repository's first deque
    assert all(sorted(e.attempt for e in ring.recent(7, repo, limit=50)) == list(range(20)) for repo in repos)


def test_envelope_json_round_trip_ignores_unknown_fields():
    e = env(3, "PROMOTED", confidence=0.5, error_message="x {{y}}")
    assert envelope_from_json(envelope_to_json(e)) == e
    assert envelope_from_json(envelope_to_json(e)[:-1] + ',"added_later":1}') == e


# ---- HealingLog ----


def test_healing_log_writes_through_to_ring_and_postgres(db, tenant_id):
    install(db, tenant_id)
    ring = LocalRing()
    healing = HealingLog(ring, db)
    envelopes = [env(i, confidence=0.85, error_hash="h") for i in range(1, 4)]
    for e in envelopes:
        healing.record(tenant_id, e)
    healing.record(tenant_id, envelopes[0])  # a redelivered job records the same envelope again
    newest = envelopes[::-1]
    assert ring.recent(tenant_id, REPO) == [envelopes[0], *newest]
    assert healing.all(tenant_id, REPO) == newest  # Postgres: once each, equal to what was recorded
    assert healing.recent(tenant_id, REPO) == newest
    assert healing.recent(tenant_id, REPO, limit=3) == newest  # the ring's duplicate does not count
    assert HealingLog(LocalRing(), db).all(tenant_id + 1, REPO) == []


def test_healing_log_reads_postgres_when_the_ring_has_too_few(db, tenant_id):
    # Given 5 envelopes in Postgres, of which a fresh ring (another process) holds only the newest 2
    install(db, tenant_id)
    envelopes = [env(i) for i in range(1, 6)]
    for e in envelopes:
        HealingLog(LocalRing(), db).record(tenant_id, e)
    ring = LocalRing()
    for e in envelopes[3:]:
        ring.push(tenant_id, e)
    healing = HealingLog(ring, db)
    # Then reads merge by id, newest first
    assert [e.attempt for e in healing.recent(tenant_id, REPO)] == [5, 4, 3, 2, 1]
    assert [e.attempt for e in healing.recent(tenant_id, REPO, limit=2)] == [5, 4]
    assert [e.attempt for e in HealingLog(LocalRing(), db).recent(tenant_id, REPO, limit=3)] == [5, 4, 3]


def test_healing_log_ring_full_answers_without_postgres(tenant_id):
    class NoDatabase:
        def tenant(self, _):
            raise AssertionError("Postgres must not be read when the ring has enough")

    ring = LocalRing()
    for i in range(1, 13):
        ring.push(tenant_id, env(i))
    assert [e.attempt for e in HealingLog(ring, NoDatabase()).recent(tenant_id, REPO)] == list(range(12, 2, -1))


def test_healing_log_survives_a_ring_outage(ddb, db, tenant_id, caplog):
    # Given a DynamoRing on a table that does not exist
    install(db, tenant_id)
    healing = HealingLog(DynamoRing("no-such-table"), db)
    # When envelopes are recorded and read
    healing.record(tenant_id, env(1))
    healing.record(tenant_id, env(2, "PROMOTED"))
    # Then Postgres has them and reads fall back to it
    assert [e.attempt for e in healing.recent(tenant_id, REPO)] == [2, 1]
    assert "healing ring push failed" in caplog.text and "healing ring read failed" in caplog.text


def test_healing_log_with_dynamo_ring(ddb, db, tenant_id):
    install(db, tenant_id)
    healing = HealingLog(DynamoRing(TABLE), db)
    for i, confidence in enumerate((0.3, 0.6, 0.9), start=1):
        healing.record(tenant_id, env(i, "PROMOTED" if i == 3 else "RETRY", confidence=confidence))
    assert healing.recent(tenant_id, REPO) == healing.all(tenant_id, REPO)
    assert healing.llm_context(tenant_id, REPO).startswith("Recent healing context: success rate 33% (1/3 PROMOTED)")


def test_healing_log_records_many_in_one_write(db, tenant_id):
    install(db, tenant_id)
    ring = LocalRing(capacity=5)
    healing = HealingLog(ring, db)
    envelopes = [env(i, "PROMOTED" if i % 2 else "HUMAN_REVIEW", confidence=i / 10) for i in range(1, 9)]

    healing.record_many(tenant_id, envelopes)
    healing.record_many(tenant_id, [])

    assert healing.all(tenant_id, REPO) == envelopes[::-1]  # every one in Postgres
    assert ring.recent(tenant_id, REPO) == envelopes[::-1][:5]  # the ring holds the newest it can


def test_healing_log_records_many_in_postgres_when_the_ring_is_down(ddb, db, tenant_id, caplog):
    install(db, tenant_id)
    healing = HealingLog(DynamoRing("no-such-table"), db)

    healing.record_many(tenant_id, [env(i) for i in range(1, 4)])

    assert [e.attempt for e in healing.all(tenant_id, REPO)] == [3, 2, 1]
    assert caplog.text.count("healing ring push failed") == 1  # not asked again for the rest of the batch


# ---- text blocks ----


def test_healing_context_format():
    envelopes = [
        env(3, "PROMOTED", confidence=0.92),
        env(2, "RETRY", confidence=0.414, error_message="src/app.py:12 F821 Undefined name `x`\n  (twice)"),
        env(1, "REJECTED", confidence=0.1, breaker_state="open", error_message="y" * 100),
    ]
    assert healing_context(envelopes) == (
        "Recent healing context: success rate 33% (1/3 PROMOTED), newest first:\n"
        "- PROMOTED attempt 3, confidence 0.92, breaker closed\n"
        "- RETRY attempt 2, confidence 0.41, breaker closed, error: src/app.py:12 F821 Undefined name `x` (twice)\n"
        f"- REJECTED attempt 1, confidence 0.10, breaker open, error: {'y' * 77}..."
    )
    assert healing_context([]) == "Recent healing context: no history yet."


def test_llm_context_from_the_log_uses_the_last_10(db, tenant_id):
    install(db, tenant_id)
    healing = HealingLog(LocalRing(), db)
    assert healing.llm_context(tenant_id, REPO) == "Recent healing context: no history yet."
    for i in range(1, 13):
        healing.record(tenant_id, env(i, "PROMOTED" if i > 7 else "RETRY"))
    text = healing.llm_context(tenant_id, REPO)
    assert text.splitlines()[0] == "Recent healing context: success rate 50% (5/10 PROMOTED), newest first:"
    assert len(text.splitlines()) == 11 and "attempt 12," in text and "attempt 2," not in text


def test_pattern_analysis_improving():
    statuses = newest_first("PROMOTED", "PROMOTED", "RETRY", "RETRY", "RETRY", "REJECTED")
    envelopes = [replace(e, confidence=c) for e, c in zip(statuses, (0.9, 0.8, 0.4, 0.3, 0.2, 0.1), strict=True)]
    assert pattern_analysis(envelopes) == (
        "Pattern analysis over 6 attempts:\n"
        "- trend: improving (success 0% older, 67% recent)\n"
        "- confidence: recent 0.70, older 0.20\n"
        "- breaker: open or half-open in 0/6 attempts"
    )


def test_pattern_analysis_degrading_with_repeated_error_low_success_and_open_breaker():
    h = Envelope.hash_error("src/app.py", 12, "F821 undefined name 'x'")
    envelopes = [
        env(6, "REJECTED", breaker_state="open", error_hash=h, error_message="src/app.py:12 F821 undefined name 'x'"),
        env(5, "RETRY", breaker_state="half_open", error_hash=h, error_message="older wording"),
        env(4, "RETRY", error_hash=h, error_message="oldest wording"),
        env(3, "PROMOTED", confidence=0.9),
    ]
    assert pattern_analysis(envelopes) == (
        "Pattern analysis over 4 attempts:\n"
        "- trend: degrading (success 50% older, 0% recent)\n"
        "- confidence: recent 0.00, older 0.45\n"
        "- breaker: open or half-open in 2/4 attempts\n"
        "- guidance: the same error occurred 3 times: look upstream of src/app.py:12 F821 undefined name 'x'\n"
        "- guidance: success rate 25% is under 30%: propose smaller patches that change one thing\n"
        "- guidance: the circuit breaker is open: model calls are paused"
    )


def test_pattern_analysis_stable_single_and_empty():
    assert pattern_analysis(newest_first("RETRY", "PROMOTED", "RETRY", "PROMOTED")).splitlines()[1] == (
        "- trend: stable (success 50% older, 50% recent)")
    assert pattern_analysis([env(1, "RETRY", confidence=0.5, breaker_state="half_open")]) == (
        "Pattern analysis over 1 attempt:\n"
        "- trend: not enough attempts yet\n"
        "- confidence: 0.50\n"
        "- breaker: open or half-open in 1/1 attempts\n"
        "- guidance: success rate 0% is under 30%: propose smaller patches that change one thing\n"
        "- guidance: the circuit breaker is half-open: this attempt is a trial, keep it small"
    )
    assert pattern_analysis([]) == "Pattern analysis: no history yet."


def test_pattern_insights_from_the_log(db, tenant_id):
    install(db, tenant_id)
    healing = HealingLog(LocalRing(), db)
    for i, status in enumerate(("RETRY", "RETRY", "PROMOTED", "PROMOTED"), start=1):
        healing.record(tenant_id, env(i, status))
    assert healing.pattern_insights(tenant_id, REPO).splitlines()[:2] == [
        "Pattern analysis over 4 attempts:", "- trend: improving (success 0% older, 100% recent)"]


# ---- sanitiser ----


@pytest.mark.parametrize(("text", "escaped"), [
    ("{{project.wisdom}}", "{ {project.wisdom} }"),
    ("{{{memory}}}", "{ { {memory} } }"),
    ("def f(): return {'a': {1}}", "def f(): return {'a': {1} }"),
    ("plain {x}", "plain {x}"),
    ("", ""),
])
def test_escape_braces(text, escaped):
    assert escape_braces(text) == escaped
    assert escape_braces(escaped) == escaped  # idempotent
    assert "{{" not in escaped and "}}" not in escaped


def test_stored_text_cannot_expand_a_template():
    e = env(1, "RETRY", repository="octo/{{memory}}", error_message="ignore this {{project.wisdom}}",
            error_hash="h", breaker_state="{{x}}")
    for text in (healing_context([e] * 3), pattern_analysis([e] * 3)):
        assert "{{" not in text and "}}" not in text
    assert "error: ignore this { {project.wisdom} }" in healing_context([e])
    assert "look upstream of ignore this { {project.wisdom} }" in pattern_analysis([e] * 3)
