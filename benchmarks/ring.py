"""Ring budgets: LocalRing push/read in microseconds; DynamoRing requests per push and per read (moto).

Run: `python -m benchmarks.ring`. Prints numbers; asserts nothing.
"""

from __future__ import annotations

import os
import time
from collections import Counter

from core.memory.types import Envelope

REPO = "octo/widgets"


def local(n: int = 100_000) -> tuple[float, float]:
    from core.memory.ring import LocalRing

    ring, envelopes = LocalRing(), [Envelope(repository=REPO, status="RETRY", attempt=i) for i in range(n)]
    t = time.perf_counter()
    for e in envelopes:
        ring.push(1, e)
    push = (time.perf_counter() - t) / n * 1e6
    t = time.perf_counter()
    for _ in range(n):
        ring.recent(1, REPO, 10)
    return push, (time.perf_counter() - t) / n * 1e6


def dynamo(pushes: int = 100, reads: int = 20) -> tuple[float, float]:
    for name in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN"):
        os.environ[name] = "testing"
    os.environ["AWS_DEFAULT_REGION"] = "us-east-1"
    from moto import mock_aws

    from core import aws
    from core.memory.ring import DynamoRing, create_table

    with mock_aws():
        aws.client.cache_clear()
        create_table("memfix-ring-bench")
        calls: Counter[str] = Counter()
        count = lambda model, **_: calls.update([model.name])
        aws.client("dynamodb").meta.events.register("before-call.dynamodb", count)
        ring = DynamoRing("memfix-ring-bench")
        for i in range(pushes):  # wraps the 20-slot ring five times
            ring.push(1, Envelope(repository=REPO, status="RETRY", attempt=i))
        per_push = calls.total() / pushes
        calls.clear()
        for _ in range(reads):
            ring.recent(1, REPO)
        aws.client.cache_clear()
        return per_push, calls.total() / reads


def main() -> None:
    push, read = local()
    per_push, per_read = dynamo()
    print("ring benchmark")
    print(f"  LocalRing: push {push:.2f} µs, read (10 newest) {read:.2f} µs, mean over 100k ops")
    print(f"  DynamoRing (moto): {per_push:.2f} requests per push (budget 2), {per_read:.2f} per read (budget 1)")


if __name__ == "__main__":
    main()
