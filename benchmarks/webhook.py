"""Webhook budgets: warm in-process latency over 1,000 signed deliveries, and cold import time.

Run: `make bench` (or `python -m benchmarks.webhook`). Prints numbers; asserts nothing.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time

HEAVY = ("anthropic", "openai", "githubkit", "psycopg", "pgvector")


def cold_import() -> tuple[float, list[str]]:
    """Median over 5 fresh processes of `-X importtime`'s cumulative time for handlers.webhook (ms),
    and the heavy SDKs that import pulled in (there must be none)."""
    code = f"import sys, handlers.webhook; print(','.join(m for m in {HEAVY!r} if m in sys.modules))"
    runs, heavy = [], ""
    for _ in range(5):
        argv = [sys.executable, "-X", "importtime", "-c", code]
        proc = subprocess.run(argv, capture_output=True, text=True, check=True)
        line = next(x for x in proc.stderr.splitlines() if x.rstrip().endswith("| handlers.webhook"))
        runs.append(int(line.split("|")[1]) / 1000)
        heavy = proc.stdout.strip()
    return statistics.median(runs), [m for m in heavy.split(",") if m]


def warm_latency(n: int = 1000) -> tuple[float, float, float]:
    from core.deliveries import MemoryDeliveries
    from core.intake import Intake
    from handlers.webhook import _request, _response
    from tests.fakes import payloads as P

    class Collect:
        def __init__(self):
            self.jobs = []

        def send(self, job):
            self.jobs.append(job)

    intake = Intake(secret=P.SECRET, deliveries=MemoryDeliveries(), queue=Collect(),
                    bot_login="memfix[bot]", max_body_bytes=25 * 1024 * 1024)
    events = []
    for i in range(n):
        body = P.encode(P.issue_comment(f"/autofix src/m{i}.py", installation=1, repo="o/r", comment_id=i))
        events.append({"headers": P.headers("issue_comment", body), "body": body.decode(), "isBase64Encoded": False})
    times = []
    for event in events:
        t = time.perf_counter()
        _response(intake.receive(*_request(event)))
        times.append((time.perf_counter() - t) * 1000)
    times.sort()
    return times[n // 2], times[int(n * 0.99) - 1], len(events[0]["body"]) / 1024


def main() -> None:
    own, heavy = cold_import()
    p50, p99, kib = warm_latency()
    print("webhook benchmark")
    print(f"  cold import handlers.webhook (-X importtime, cumulative): {own:.1f} ms, median of 5 (budget 300 ms)")
    print(f"  heavy SDKs loaded by the import: {', '.join(heavy) or 'none'}")
    print(f"  warm latency over 1000 signed deliveries ({kib:.1f} KiB each): "
          f"p50 {p50:.2f} ms, p99 {p99:.2f} ms (budget 50 ms)")


if __name__ == "__main__":
    main()
