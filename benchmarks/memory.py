"""Memory budgets: filtered hybrid search at 100k insights (p95, k rows), HNSW recall@10 vs exact, ring µs.

Run: `python -m benchmarks.memory` (MEMFIX_BENCH_N=10000 for a quick run). Prints numbers; asserts nothing.

A fresh embedded PostgreSQL in a temporary directory (or DATABASE_URL: it must be empty of tenants
9100001..9100050, which it deletes again at the end, and it drops and rebuilds the HNSW index) gets
N insights over 50 tenants × 10 repositories, 1536 dimensions, embedding_model 'bench'.

Vectors have structure at three scales so that nearest neighbours mean something: 100 topics (random
unit vectors), 2,000 clusters around them (cosine ≈ 0.5 between clusters of one topic), insights
around clusters (cosine ≈ 0.6 within a cluster, ≈ 0.3 within a topic, ≈ 0 otherwise). Each tenant
writes about 200 of the 2,000 clusters, as a real tenant repeats its own problems. Titles and
details come from the cluster's theme words plus filler, so the text side has something to match.
Queries are drawn near a cluster centre: half near one of the tenant's own clusters ("familiar"),
half near any cluster ("novel": the tenant's true neighbours are then only topic-near, and the
HNSW graph must walk through other tenants' rows to find them).

The search goes through the real code path (`Insights.search`, the application role, row-level
security, psycopg's automatic prepared statements); recall compares the HYBRID_SQL `vec` candidate
query (the code's own text, LIMIT 10) and CROSS_PROJECT_SQL's `near` (LIMIT 50) with the same
queries planned with index scans off, which makes PostgreSQL filter with the btree and sort exactly.
"""

from __future__ import annotations

import math
import os
import random
import re
import statistics
import sys
import tempfile
import time
from array import array
from contextlib import contextmanager
from pathlib import Path

DIMS = 1536
TENANTS = 50
REPOS_PER_TENANT = 10
TOPICS = 100
CLUSTERS = 2000
CLUSTERS_PER_TENANT = 200
CLUSTER_SPREAD = 1.0  # |noise| around a topic: cosine(cluster, topic) ≈ 1/sqrt(1 + 1²)
INSIGHT_SPREAD = 0.82  # |noise| around a cluster: cosine between two insights of a cluster ≈ 1/(1 + 0.82²)
TENANT_BASE = 9_100_000
MODEL = "bench"
K = 10
SEARCH_QUERIES, WARMUP, RECALL_QUERIES = 300, 20, 200
BUDGET_P95_MS, BUDGET_RECALL = 20.0, 0.95

INSIGHT_TYPES = [("pain_point", 40), ("solution", 25), ("strength", 15), ("pattern", 15), ("decision", 5)]
WORKFLOW_TYPES = [("autofix", 50), ("review", 35), ("refactor", 15)]
SEVERITIES = [("high", 25), ("medium", 40), ("low", 25), ("blocker", 10)]
CATEGORIES = ("security", "correctness", "performance", "reliability", "maintainability", "style",
              "testing", "documentation", "dependencies", "architecture", "process")
WORDS = """
sql injection user input query parameter escape sanitize validate token session cookie header
secret password credential hash encrypt certificate timeout retry backoff deadlock race lock mutex
thread async await coroutine event loop queue worker cache eviction memory leak allocation buffer
overflow index scan join migration schema column constraint transaction rollback commit isolation
null pointer exception handler logging metric trace span latency throughput pagination cursor batch
import cycle module package dependency version upgrade deprecated warning lint format docstring type
annotation generic interface abstract factory singleton adapter decorator closure lambda iterator
generator stream file path permission upload download parser serializer json yaml schema regex
unicode encoding locale timezone datetime clock flaky test fixture mock assertion coverage snapshot
build pipeline deploy container image config environment variable feature flag rollout canary
webhook signature payload delivery idempotent duplicate ordering consistency replica shard partition
""".split()
FILLER = """the a of in on for with when after before during while because so that this which
handler service function method request response client server call value result error""".split()


def weighted(rng: random.Random, choices: list[tuple[str, int]]) -> str:
    return rng.choices([c for c, _ in choices], [w for _, w in choices])[0]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


class Corpus:
    """The synthetic data set: unit vectors with topic/cluster structure, tenants, repositories, text."""

    def __init__(self, n: int, seed: int = 42):
        self.n = n
        self.rng = rng = random.Random(seed)
        self.tenants = [TENANT_BASE + t for t in range(1, TENANTS + 1)]
        self.repos = {t: [f"org{t}/repo{r:02d}" for r in range(REPOS_PER_TENANT)] for t in self.tenants}
        # one long pool of N(0, 1) numbers; a noise vector is a window at a random offset (windows at
        # different offsets are uncorrelated coordinate by coordinate, and 1M gaussians cost ~1 s)
        self.pool = [rng.gauss(0.0, 1.0) for _ in range(1_000_003)]
        self.pool += self.pool[:DIMS]
        topics = [self._unit([rng.gauss(0.0, 1.0) for _ in range(DIMS)]) for _ in range(TOPICS)]
        self.cluster_topic = [rng.randrange(TOPICS) for _ in range(CLUSTERS)]
        self.centres = [self._near(topics[self.cluster_topic[c]], CLUSTER_SPREAD) for c in range(CLUSTERS)]
        self.themes = [rng.sample(WORDS, 3) for _ in range(CLUSTERS)]
        self.categories = [rng.choice(CATEGORIES) for _ in range(CLUSTERS)]
        self.tenant_clusters = {t: rng.sample(range(CLUSTERS), CLUSTERS_PER_TENANT) for t in self.tenants}

    @staticmethod
    def _unit(v: list[float]) -> list[float]:
        norm = math.hypot(*v)
        return [x / norm for x in v]

    def _near(self, centre: list[float], spread: float) -> list[float]:
        off = self.rng.randrange(len(self.pool) - DIMS)
        s = spread / math.sqrt(DIMS)
        return self._unit([c + s * g for c, g in zip(centre, self.pool[off:off + DIMS], strict=True)])

    def query_vector(self, cluster: int) -> list[float]:
        return self._near(self.centres[cluster], INSIGHT_SPREAD)

    def query_text(self, cluster: int) -> str:
        return " ".join(self.themes[cluster][:2])

    def rows(self):
        """N rows in arrival order (tenants interleaved, as over time), columns as in COPY_COLUMNS."""
        rng = self.rng
        for i in range(self.n):
            tenant = self.tenants[i % TENANTS]
            cluster = rng.choice(self.tenant_clusters[tenant])
            theme = self.themes[cluster]
            itype = weighted(rng, INSIGHT_TYPES)
            words = theme + rng.sample(WORDS, 4)
            title = " ".join(w.capitalize() for w in rng.sample(words, 4))
            detail = " ".join(rng.choice(FILLER) if j % 2 else rng.choice(words) for j in range(24))
            suggestion = " ".join(rng.sample(words, 5)) if itype != "strength" else ""
            yield (
                tenant, rng.choice(self.repos[tenant]), weighted(rng, WORKFLOW_TYPES), f"run-{i}", itype,
                self.categories[cluster], weighted(rng, SEVERITIES) if itype == "pain_point" else None,
                title, detail, suggestion, [self.categories[cluster], theme[0]],
                self._near(self.centres[cluster], INSIGHT_SPREAD), MODEL,
            )


COPY_COLUMNS = ("tenant_id", "repository", "workflow_type", "workflow_id", "insight_type", "category", "severity",
                "title", "detail", "suggestion", "tags", "embedding", "embedding_model")
COPY_TYPES = ["int8", "text", "text", "text", "text", "text", "text", "text", "text", "text", "text[]", "vector",
              "text"]


@contextmanager
def database():
    """(owner url, cleanup) on DATABASE_URL or a fresh embedded server in a temporary directory."""
    from core.db import embedded_url, migrate

    url = os.environ.get("DATABASE_URL")
    if url:
        migrate(url)
        yield url, True
        return
    with tempfile.TemporaryDirectory(prefix="memfix-bench-") as tmp:
        os.chmod(tmp, 0o755)  # the embedded server may run as another system user when we are root
        url = embedded_url(Path(tmp))
        migrate(url)
        yield url, False
        from core import db as core_db

        for server in list(core_db._embedded.values()):
            server.cleanup()
        core_db._embedded.clear()


def load(url: str, corpus: Corpus) -> dict[str, float]:
    """Drop the HNSW index, COPY the rows in binary (row-level security is lifted for the load only),
    rebuild the index; seconds per phase."""
    import psycopg
    from pgvector import Vector
    from pgvector.psycopg import register_vector

    timings = {}
    with psycopg.connect(url, autocommit=True) as conn:
        register_vector(conn)
        indexdef = conn.execute(
            "SELECT indexdef FROM pg_indexes WHERE indexname = 'workflow_insights_embedding'").fetchone()[0]
        t = time.perf_counter()
        with conn.transaction():
            conn.execute("DROP INDEX workflow_insights_embedding")
            conn.execute("INSERT INTO installations (tenant_id, account_login) SELECT t, 'org' || t"
                         " FROM unnest(%s::bigint[]) AS t", (corpus.tenants,))
            conn.execute("ALTER TABLE workflow_insights NO FORCE ROW LEVEL SECURITY")
            columns = ", ".join(COPY_COLUMNS)
            with conn.cursor().copy(f"COPY workflow_insights ({columns}) FROM STDIN (FORMAT BINARY)") as copy:
                copy.set_types(COPY_TYPES)
                for row in corpus.rows():
                    copy.write_row((*row[:11], Vector(row[11]), row[12]))
            conn.execute("ALTER TABLE workflow_insights FORCE ROW LEVEL SECURITY")
        timings["generate + copy"] = time.perf_counter() - t
        t = time.perf_counter()
        conn.execute("VACUUM ANALYZE workflow_insights")
        timings["vacuum analyze"] = time.perf_counter() - t
        conn.execute("SET maintenance_work_mem = '2GB'")
        conn.execute("SET max_parallel_maintenance_workers = 2")
        t = time.perf_counter()
        conn.execute(indexdef)
        timings["hnsw build"] = time.perf_counter() - t
        conn.execute("ANALYZE workflow_insights")
    return timings
