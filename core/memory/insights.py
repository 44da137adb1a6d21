"""Layer 2: workflow insights — save (validate, dedupe, pair, cross-project), hybrid search, outcomes.

Any query term may match (OR), as in BM25-style retrieval: a run's findings make a long query.
Hybrid score = w_v · (1 − cosine distance) + w_t · ts_rank(search_vector, q, 32); rank normalisation
32 maps ts_rank into [0, 1) so the weights mean what they say. Vectors are compared only within one
embedding model. Reciprocal Rank Fusion is the alternative ranker.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from dataclasses import dataclass, field, fields, replace
from datetime import datetime
from typing import TYPE_CHECKING, Any

from pgvector import Vector

from core.db import one
from core.errors import PermanentError, TransientError
from core.memory.types import Insight, PointStatus

if TYPE_CHECKING:
    from core.db import Connection, Database
    from core.memory.embeddings import Embedder
    from core.settings import Settings

log = logging.getLogger(__name__)

DUPLICATE_COSINE = 0.92
CROSS_PROJECT_SIMILARITY = 0.65
_FIELDS = {f.name for f in fields(Insight)}

# Everything an Insight holds, and nothing heavy: results never carry the 1536-float embedding back.
_INSIGHT = ", ".join(f.name for f in fields(Insight))
_COLUMNS = ", ".join(f"wi.{f.name}" for f in fields(Insight))

_FILTERS = """
      tenant_id = %(tenant)s
  AND (%(repository)s::text IS NULL OR repository = %(repository)s)
  AND (%(workflow_type)s::text IS NULL OR workflow_type = %(workflow_type)s)
  AND (%(insight_type)s::text IS NULL OR insight_type = %(insight_type)s)
"""

# Candidates from each side, then exact scores for the union of both. The query vector goes over in binary (%b).
# `hits` scores each candidate once and keeps no vector: the ranks sort the scores, not 6 KB rows.
HYBRID_SQL = f"""
WITH q AS (SELECT replace(websearch_to_tsquery('english', %(query)s)::text, ' & ', ' | ')::tsquery AS tsq),
vec AS MATERIALIZED (
  SELECT id FROM workflow_insights
  WHERE %(vector)b::vector IS NOT NULL AND embedding_model = %(model)s AND {_FILTERS}
  ORDER BY embedding <=> %(vector)b::vector
  LIMIT %(candidates)s
),
txt AS MATERIALIZED (
  SELECT id FROM workflow_insights, q
  WHERE search_vector @@ q.tsq AND {_FILTERS}
  ORDER BY ts_rank(search_vector, q.tsq, 32) DESC
  LIMIT %(candidates)s
),
hits AS MATERIALIZED (
  SELECT {_COLUMNS}, wi.embedding_model = %(model)s AS same_model, wi.embedding <=> %(vector)b::vector AS distance,
         wi.search_vector @@ q.tsq AS matched, ts_rank(wi.search_vector, q.tsq, 32) AS relevance,
         (wi.id IN (SELECT id FROM vec)) AS in_vec, (wi.id IN (SELECT id FROM txt)) AS in_txt
  FROM workflow_insights wi, q
  WHERE wi.id IN (SELECT id FROM vec UNION SELECT id FROM txt)
),
scored AS (
  SELECT {_INSIGHT},
         CASE WHEN same_model THEN 1 - distance END AS vector_score,
         CASE WHEN matched THEN relevance::float8 ELSE 0 END AS text_score,
         rank() OVER (ORDER BY distance) AS vector_rank, rank() OVER (ORDER BY relevance DESC) AS text_rank,
         in_vec, in_txt
  FROM hits
)
SELECT *,
  CASE WHEN %(ranker)s = 'rrf'
       THEN (CASE WHEN in_vec THEN 1.0 / (%(rrf_k)s + vector_rank) ELSE 0 END)
          + (CASE WHEN in_txt AND text_score > 0 THEN 1.0 / (%(rrf_k)s + text_rank) ELSE 0 END)
       ELSE %(w_vector)s * coalesce(vector_score, 0) + %(w_text)s * coalesce(text_score, 0)
  END AS score
FROM scored
ORDER BY score DESC, id DESC
LIMIT %(k)s
"""

FIND_DUPLICATE_SQL = """
SELECT id FROM workflow_insights
WHERE tenant_id = %(tenant)s AND repository = %(repository)s AND insight_type = %(insight_type)s
  AND (title_key = btrim(lower(regexp_replace(%(title)s, '[^[:alnum:]]+', ' ', 'g')))
       OR (%(vector)s::vector IS NOT NULL AND embedding_model = %(model)s
           AND 1 - (embedding <=> %(vector)s::vector) >= %(threshold)s))
ORDER BY (title_key = btrim(lower(regexp_replace(%(title)s, '[^[:alnum:]]+', ' ', 'g')))) DESC,
         embedding <=> %(vector)s::vector NULLS LAST
LIMIT 1
"""

MERGE_SQL = f"""
UPDATE workflow_insights
SET seen_count = seen_count + 1, detail = %(detail)s, suggestion = %(suggestion)s,
    severity = coalesce(%(severity)s, severity), tags = ARRAY(SELECT DISTINCT unnest(tags || %(tags)s)),
    embedding = coalesce(%(vector)s::vector, embedding), embedding_model = coalesce(%(model)s, embedding_model),
    updated_at = now()
WHERE id = %(id)s
RETURNING {_INSIGHT}
"""

INSERT_SQL = f"""
INSERT INTO workflow_insights (tenant_id, repository, workflow_type, workflow_id, insight_type, category,
  severity, title, detail, suggestion, tags, source_ref, embedding, embedding_model)
VALUES (%(tenant)s, %(repository)s, %(workflow_type)s, %(workflow_id)s, %(insight_type)s, %(category)s,
  %(severity)s, %(title)s, %(detail)s, %(suggestion)s, %(tags)s, %(source_ref)s, %(vector)s::vector, %(model)s)
RETURNING {_INSIGHT}
"""

# Both directions: a pain point finds a solution/strength, and a solution/strength finds a pain point — of the same
# finding when either names a rule (a tag like f401): a problem is never paired with the fix of another one.
FIND_PAIR_SQL = """
SELECT id FROM workflow_insights
WHERE tenant_id = %(tenant)s AND repository = %(repository)s AND category = %(category)s
  AND insight_type = ANY(%(partner_types)s) AND id <> %(id)s
  AND CASE WHEN cardinality(%(rules)s::text[]) > 0 THEN tags && %(rules)s::text[]
           ELSE NOT EXISTS (SELECT 1 FROM unnest(tags) AS t WHERE t ~ '^[a-z]{1,8}[0-9]{1,4}$') END
ORDER BY (paired_insight_id IS NULL) DESC,
         CASE WHEN %(vector)s::vector IS NOT NULL AND embedding_model = %(model)s
              THEN embedding <=> %(vector)s::vector END NULLS LAST,
         created_at DESC
LIMIT 1
"""

RULE_TAG = re.compile(r"^[a-z]{1,8}[0-9]{1,4}$")  # a linter rule's code, as tags are stored (lower case)

PAIR_SQL = "UPDATE workflow_insights SET paired_insight_id = %(other)s, updated_at = now() WHERE id = %(id)s"

# The tenant-wide nearest neighbours come from the HNSW index (iterative scan), then the best per repository.
CROSS_PROJECT_SQL = """
WITH near AS MATERIALIZED (
  SELECT id, repository, embedding <=> %(vector)s::vector AS distance
  FROM workflow_insights
  WHERE tenant_id = %(tenant)s AND repository <> %(repository)s AND embedding_model = %(model)s
  ORDER BY embedding <=> %(vector)s::vector
  LIMIT 50
)
SELECT DISTINCT ON (repository) id, repository, 1 - distance AS similarity
FROM near WHERE 1 - distance >= %(threshold)s
ORDER BY repository, distance
"""

ACTION_POINT_SQL = """
INSERT INTO action_points (tenant_id, source_insight_id, source_repository, target_repository,
  target_insight_id, similarity)
VALUES (%(tenant)s, %(source)s, %(source_repository)s, %(target_repository)s, %(target)s, %(similarity)s)
ON CONFLICT (source_insight_id, target_repository) DO NOTHING
RETURNING id
"""


@dataclass(frozen=True)
class SearchHit:
    insight: Insight
    score: float
    vector_score: float | None
    text_score: float | None


@dataclass(frozen=True)
class SaveResult:
    insight: Insight
    merged: bool  # a near-duplicate absorbed it (seen_count + 1)
    embedded: bool
    paired_with: int | None = None
    action_points: list[int] = field(default_factory=list)


@dataclass(frozen=True)
class ListedInsight(Insight):
    """An insight as a list of them shows it: whether it has a vector (of any model), and when it last changed."""

    embedded: bool = False
    updated_at: datetime | None = None


@dataclass(frozen=True)
class ActionPoint:
    """Something learned in one repository that concerns another of the installation (cross-project detection or a
    learned hold offered elsewhere)."""

    id: int
    source_insight_id: int
    source_repository: str
    target_repository: str
    target_insight_id: int | None
    similarity: float
    status: str  # open | done | dismissed
    created_at: datetime
    title: str | None = None  # the source insight's, where it was read with it


_LISTED = _INSIGHT + ", embedding IS NOT NULL AS embedded, updated_at"
_POINT = ", ".join(f"a.{f.name}" for f in fields(ActionPoint) if f.name != "title")


@dataclass(frozen=True)
class SearchSettings:
    vector_weight: float = 0.7
    text_weight: float = 0.3
    candidates: int = 50
    ranker: str = "weighted"
    rrf_k: int = 60
    ef_search: int = 100

    @classmethod
    def from_settings(cls, s: Settings) -> SearchSettings:
        return cls(s.search_vector_weight, s.search_text_weight, s.search_candidates, s.search_ranker,
                   ef_search=s.hnsw_ef_search)


def _insight(row: dict[str, Any]) -> Insight:
    values = {k: v for k, v in row.items() if k in _FIELDS}
    values["tags"] = tuple(values.get("tags") or ())
    return Insight(**values)


def _listed(row: dict[str, Any]) -> ListedInsight:
    return ListedInsight(**{**row, "tags": tuple(row["tags"])})


class Insights:
    def __init__(self, db: Database, embedder: Embedder, search: SearchSettings | None = None):
        self.db = db
        self.embedder = embedder
        self.search_settings = search or SearchSettings()

    # ---- embedding ----

    def _embed(self, text: str) -> Vector | None:
        return self._embed_many([text])[0]

    def _embed_many(self, texts: list[str]) -> list[Vector | None]:
        if not self.embedder.model or not texts:
            return [None] * len(texts)
        try:
            return [Vector(v) for v in self.embedder.embed(texts)]
        except TransientError as exc:  # stored without a vector; `memfix reembed` fills it later
            log.warning("embedding unavailable, storing without vector: %s", exc)
            return [None] * len(texts)

    def _scan(self) -> dict[str, str]:
        """Iterative index scans keep filtered HNSW queries returning k rows whenever k exist."""
        return {"hnsw.iterative_scan": "relaxed_order", "hnsw.ef_search": str(int(self.search_settings.ef_search))}

    def _scan_settings(self, conn: Connection) -> None:
        for name, value in self._scan().items():
            conn.execute("SELECT set_config(%s, %s, true)", (name, value))

    # ---- save ----

    def save(self, tenant_id: int, insight: Insight) -> SaveResult:
        return self.save_many(tenant_id, [insight])[0]

    def save_many(self, tenant_id: int, insights: list[Insight], *, dedupe: bool = True,
                  then: Callable[[Connection, list[SaveResult]], None] | None = None) -> list[SaveResult]:
        """Validate all, embed in one request, save in one transaction, each in order (a later one may
        merge into or pair with an earlier one). `dedupe` False: never merged (policy decisions name one rule).
        `then`: the caller's own writes about what was saved, in the same transaction (they stand or fall with it)."""
        insights = [i.validated() for i in insights]
        vectors = self._embed_many([i.embedding_text() for i in insights])
        if not insights:
            return []
        with self.db.tenant(tenant_id, register=True) as conn:
            self._scan_settings(conn)
            saved = [self._save_in(conn, tenant_id, i, v, dedupe) for i, v in zip(insights, vectors, strict=True)]
            if then is not None:
                then(conn, saved)
            return saved

    def _save_in(self, conn: Connection, tenant_id: int, insight: Insight, vector: Vector | None,
                 dedupe: bool = True) -> SaveResult:
        model = self.embedder.model if vector is not None else None
        params = {
            "tenant": tenant_id, "repository": insight.repository, "workflow_type": insight.workflow_type,
            "workflow_id": insight.workflow_id, "insight_type": insight.insight_type,
            "category": insight.category, "severity": insight.severity, "title": insight.title,
            "detail": insight.detail, "suggestion": insight.suggestion, "tags": list(insight.tags),
            "source_ref": insight.source_ref, "vector": vector, "model": model, "threshold": DUPLICATE_COSINE,
        }
        duplicate = conn.execute(FIND_DUPLICATE_SQL, params).fetchone() if dedupe else None
        if duplicate:
            row = one(conn.execute(MERGE_SQL, {**params, "id": duplicate["id"]}).fetchone())
            return SaveResult(_insight(row), merged=True, embedded=vector is not None)
        saved = _insight(one(conn.execute(INSERT_SQL, params).fetchone()))
        paired = self._pair(conn, saved, params)
        points = self._cross_project(conn, saved, params) if vector is not None else []
        if paired:
            saved = replace(saved, paired_insight_id=paired)
        return SaveResult(saved, merged=False, embedded=vector is not None, paired_with=paired, action_points=points)

    def _pair(self, conn: Connection, saved: Insight, params: dict[str, Any]) -> int | None:
        if saved.insight_type == "pain_point":
            partners = ["solution", "strength"]
        elif saved.insight_type in ("solution", "strength"):
            partners = ["pain_point"]
        else:
            return None
        rules = [t for t in saved.tags if RULE_TAG.match(t)]
        row = conn.execute(FIND_PAIR_SQL, {**params, "id": saved.id, "partner_types": partners,
                                           "rules": rules}).fetchone()
        if not row:
            return None
        conn.execute(PAIR_SQL, {"id": saved.id, "other": row["id"]})
        conn.execute(PAIR_SQL, {"id": row["id"], "other": saved.id})
        return int(row["id"])

    def _cross_project(self, conn: Connection, saved: Insight, params: dict[str, Any]) -> list[int]:
        """A blocker/high pain point is checked once against the tenant's other repositories."""
        if saved.insight_type != "pain_point" or saved.severity not in ("blocker", "high"):
            return []
        created = []
        for match in conn.execute(CROSS_PROJECT_SQL, {**params, "threshold": CROSS_PROJECT_SIMILARITY}).fetchall():
            row = conn.execute(ACTION_POINT_SQL, {
                "tenant": params["tenant"], "source": saved.id, "source_repository": saved.repository,
                "target_repository": match["repository"], "target": match["id"],
                "similarity": float(match["similarity"]),
            }).fetchone()
            if row:
                created.append(row["id"])
        return created

    # ---- search ----

    def search(
        self,
        tenant_id: int,
        query: str,
        *,
        repository: str | None = None,
        workflow_type: str | None = None,
        insight_type: str | None = None,
        k: int = 5,
    ) -> list[SearchHit]:
        searchable(query)
        s = self.search_settings
        vector = self._embed(query) if query.strip() else None
        params = {
            "tenant": tenant_id, "query": query, "vector": vector, "model": self.embedder.model,
            "repository": repository, "workflow_type": workflow_type, "insight_type": insight_type,
            "candidates": max(s.candidates, k), "k": k, "ranker": s.ranker, "rrf_k": s.rrf_k,
            "w_vector": s.vector_weight if vector is not None else 0.0,
            "w_text": s.text_weight if vector is not None else 1.0,  # text only: its rank is the whole score
        }
        rows = self.db.read(tenant_id, HYBRID_SQL, params, local=self._scan())  # tenant, settings, search: one trip
        return [
            SearchHit(_insight(r), float(r["score"]),
                      None if r["vector_score"] is None else float(r["vector_score"]), float(r["text_score"]))
            for r in rows
        ]

    # ---- reading, outcomes, deletion ----

    def get(self, tenant_id: int, insight_id: int) -> Insight | None:
        with self.db.tenant(tenant_id) as conn:
            row = conn.execute(f"SELECT {_INSIGHT} FROM workflow_insights WHERE id = %s", (insight_id,)).fetchone()
        return _insight(row) if row else None

    def by_ids(self, tenant_id: int, ids: list[int], *, repository: str) -> list[Insight]:
        """The insights among `ids` that belong to `repository`: a linked id never reaches across repositories."""
        with self.db.tenant(tenant_id) as conn:
            rows = conn.execute(f"SELECT {_INSIGHT} FROM workflow_insights WHERE id = ANY(%s) AND repository = %s"
                                " ORDER BY id", (ids, repository)).fetchall()
        return [_insight(r) for r in rows]

    def for_repository(self, tenant_id: int, repository: str, limit: int = 50) -> list[Insight]:
        """Ranked for project wisdom: proven (accepted) and recurring first, rejected last, then recent."""
        with self.db.tenant(tenant_id) as conn:
            rows = conn.execute(
                f"SELECT {_INSIGHT} FROM workflow_insights WHERE tenant_id = %s AND repository = %s"
                " ORDER BY (accepted_count - rejected_count) DESC, seen_count DESC,"
                " CASE severity WHEN 'blocker' THEN 0 WHEN 'high' THEN 1 WHEN 'medium' THEN 2 ELSE 3 END,"
                " updated_at DESC LIMIT %s",
                (tenant_id, repository, limit),
            ).fetchall()
        return [_insight(r) for r in rows]

    def record_outcome(self, tenant_id: int, ids: list[int], *, accepted: bool) -> int:
        column = "accepted_count" if accepted else "rejected_count"
        with self.db.tenant(tenant_id) as conn:
            return conn.execute(
                f"UPDATE workflow_insights SET {column} = {column} + 1, updated_at = now() WHERE id = ANY(%s)",
                (ids,),
            ).rowcount

    def delete(self, tenant_id: int, insight_id: int, *, repository: str | None) -> bool:
        """`repository` None reaches the whole installation: only an operator's explicit `--all` passes it."""
        with self.db.tenant(tenant_id) as conn:
            return conn.execute("DELETE FROM workflow_insights WHERE id = %(id)s"
                                " AND (%(r)s::text IS NULL OR repository = %(r)s::text)",
                                {"id": insight_id, "r": repository}).rowcount == 1

    def repositories(self, tenant_id: int) -> set[str]:
        """Every repository memory holds an insight of (a letter, a decision, a /remember, a run's learning)."""
        with self.db.tenant(tenant_id) as conn:
            return {r["repository"] for r in conn.execute(
                "SELECT DISTINCT repository FROM workflow_insights WHERE repository IS NOT NULL").fetchall()}

    def listing(self, tenant_id: int, repos: list[str], *, insight_type: str | None = None,
                severity: str | None = None, category: str | None = None, limit: int = 50) -> list[ListedInsight]:
        """These repositories' insights, most recently saved or reinforced first; each filter None means any."""
        with self.db.tenant(tenant_id) as conn:
            rows = conn.execute(
                f"SELECT {_LISTED} FROM workflow_insights WHERE repository = ANY(%(r)s)"
                " AND (%(t)s::text IS NULL OR insight_type = %(t)s) AND (%(s)s::text IS NULL OR severity = %(s)s)"
                " AND (%(c)s::text IS NULL OR category = %(c)s) ORDER BY updated_at DESC, id DESC LIMIT %(n)s",
                {"r": repos, "t": insight_type, "s": severity, "c": category, "n": limit}).fetchall()
        return [_listed(r) for r in rows]

    def found(self, tenant_id: int, query: str, *, repository: str, insight_type: str | None = None,
              k: int = 50) -> list[ListedInsight]:
        """The hybrid search's hits in one repository as a list shows them, best first."""
        ids = [h.insight.id for h in self.search(tenant_id, query, repository=repository, insight_type=insight_type,
                                                 k=k)]
        with self.db.tenant(tenant_id) as conn:
            rows = conn.execute(f"SELECT {_LISTED} FROM workflow_insights WHERE id = ANY(%s)", (ids,)).fetchall()
        rank = {i: n for n, i in enumerate(ids)}
        return [_listed(r) for r in sorted(rows, key=lambda r: rank[r["id"]])]

    def titles(self, tenant_id: int, repos: list[str], limit: int) -> list[str]:
        """The titles of these repositories' newest insights, newest first."""
        with self.db.tenant(tenant_id) as conn:
            return [r["title"] for r in conn.execute(
                "SELECT title FROM workflow_insights WHERE repository = ANY(%s) ORDER BY id DESC LIMIT %s",
                (repos, limit)).fetchall()]

    def unembedded(self, tenant_id: int, repos: list[str]) -> int:
        """How many of these repositories' insights have no vector of the current embedding model."""
        with self.db.tenant(tenant_id) as conn:
            row = conn.execute(
                "SELECT count(*) AS n FROM workflow_insights WHERE repository = ANY(%s)"
                " AND (embedding IS NULL OR embedding_model IS DISTINCT FROM %s)",
                (repos, self.embedder.model)).fetchone()
        return int(row["n"]) if row else 0

    def action_points(self, tenant_id: int, repository: str | None = None) -> list[ActionPoint]:
        """Every action point for `repository` (None: for any), oldest first."""
        with self.db.tenant(tenant_id) as conn:
            rows = conn.execute(
                f"SELECT {_POINT} FROM action_points a WHERE (%(r)s::text IS NULL OR target_repository = %(r)s)"
                " ORDER BY id", {"r": repository}).fetchall()
        return [ActionPoint(**r) for r in rows]

    def open_action_points(self, tenant_id: int, repos: list[str], limit: int) -> list[ActionPoint]:
        """The open action points among these repositories, newest first, with their source insight's title: only
        those whose source is among them too (where it came from is as private as that repository)."""
        with self.db.tenant(tenant_id) as conn:
            rows = conn.execute(
                f"SELECT {_POINT}, wi.title FROM action_points a JOIN workflow_insights wi"
                " ON wi.tenant_id = a.tenant_id AND wi.id = a.source_insight_id"
                " WHERE a.status = %(open)s AND a.target_repository = ANY(%(r)s)"
                " AND a.source_repository = ANY(%(r)s)"
                " ORDER BY a.id DESC LIMIT %(n)s", {"r": repos, "n": limit, "open": PointStatus.OPEN}).fetchall()
        return [ActionPoint(**r) for r in rows]

    def edit(self, tenant_id: int, insight_id: int, *, repository: str, title: str, detail: str,
             suggestion: str) -> Insight | None:
        """A person's correction of an insight of this repository: validated like a new one, embedded again."""
        current = next(iter(self.by_ids(tenant_id, [insight_id], repository=repository)), None)
        if current is None:
            return None
        edited = replace(current, title=title, detail=detail, suggestion=suggestion).validated()
        vector = self._embed(edited.embedding_text())
        with self.db.tenant(tenant_id) as conn:
            row = conn.execute(
                f"UPDATE workflow_insights SET title = %s, detail = %s, suggestion = %s, embedding = %s,"
                f" embedding_model = %s, updated_at = now() WHERE id = %s AND repository = %s RETURNING {_INSIGHT}",
                (edited.title, edited.detail, edited.suggestion, vector, self.embedder.model if vector else None,
                 insight_id, repository)).fetchone()
        return _insight(row) if row else None

    def reembed(self, tenant_id: int, *, batch: int = 100) -> int:
        """Embed insights with no vector or another model's vector; returns how many were embedded."""
        if not self.embedder.model:
            return 0
        done = 0
        while True:
            with self.db.tenant(tenant_id) as conn:
                rows = conn.execute(
                    f"SELECT {_INSIGHT} FROM workflow_insights WHERE embedding_model IS DISTINCT FROM %s"
                    " ORDER BY id LIMIT %s",
                    (self.embedder.model, batch),
                ).fetchall()
            if not rows:
                return done
            vectors = self.embedder.embed([_insight(r).embedding_text() for r in rows])
            with self.db.tenant(tenant_id) as conn:
                for row, vector in zip(rows, vectors, strict=True):
                    conn.execute(
                        "UPDATE workflow_insights SET embedding = %s, embedding_model = %s WHERE id = %s",
                        (Vector(vector), self.embedder.model, row["id"]),
                    )
            done += len(rows)


def searchable(query: str) -> str:
    """PostgreSQL text holds no NUL: a query with one is refused by name, not failed as a database error."""
    if "\x00" in query:
        raise PermanentError("a search cannot contain a NUL character")
    return query
