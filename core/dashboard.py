"""What the dashboard shows, read under row-level security for one installation at a time, and the curation it
offers, done through the same services as the comment commands and recorded in `curations`."""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from core.models import CATEGORIES, INSIGHT_TYPES, SEVERITIES, CommandJob, JobResult

if TYPE_CHECKING:
    from core.db import Database
    from core.memory.insights import Insights
    from core.pipelines.policy import Policy

PAGE = 50  # rows per list: a page renders the same with 10 insights or 10,000


@dataclass(frozen=True)
class Week:
    week: str
    runs: int = 0
    opened: int = 0
    merged: int = 0
    closed: int = 0
    ci_failed: int = 0

    @property
    def acceptance(self) -> float | None:
        return self.merged / self.opened if self.opened else None


@dataclass
class InstallationView:
    id: int
    repositories: list[str]
    weeks: list[Week]
    breakers: list[dict]
    action_points: list[dict]
    totals: Week
    runs: list[dict] = field(default_factory=list)  # the latest, newest first
    learned: list[dict] = field(default_factory=list)  # the insights most recently saved or reinforced


@dataclass
class RepositoryView:
    installation: int
    repo: str
    runs: list[dict]
    rules: list[dict]  # code, record, hold
    insights: list[dict]
    searched: bool
    letters: list[dict]
    envelopes: list[dict]
    filters: dict[str, str] = field(default_factory=dict)
    in_force: dict[str, dict] = field(default_factory=dict)  # pipeline → rules, chosen_by, extended (latest run)


@dataclass
class RunView:
    installation: int
    run: dict
    files: dict[str, list[dict]]  # path → attempts in order


@dataclass
class HealthView:
    installation: int
    ring: list[dict]  # repository, hits, misses, rate
    search_ms: dict[str, float]
    unembedded: int
    embedder: str | None


class Dashboard:
    def __init__(self, db: Database, insights: Insights, policy: Policy, commands: Callable[[CommandJob], JobResult]):
        self.db, self.insights, self.policy = db, insights, policy
        self.commands = commands  # the comment commands' own path: curation is a command by another door

    # ---- pages ----

    def installation(self, tenant: int, visible: Callable[[str], bool]) -> InstallationView:
        with self.db.tenant(tenant) as conn:
            names = [r["name"] for r in conn.execute(
                "SELECT full_name AS name FROM repositories UNION SELECT DISTINCT repository FROM runs"
                " UNION SELECT DISTINCT repository FROM proposals ORDER BY 1").fetchall()]
            repos = [n for n in names if visible(n)]
            runs = conn.execute(
                "SELECT to_char(date_trunc('week', started_at), 'YYYY-MM-DD') AS week, count(*) AS runs FROM runs"
                " WHERE repository = ANY(%s) GROUP BY 1", (repos,)).fetchall()
            prs = conn.execute(
                "SELECT to_char(date_trunc('week', created_at), 'YYYY-MM-DD') AS week, count(*) AS opened,"
                " count(*) FILTER (WHERE state = 'merged') AS merged,"
                " count(*) FILTER (WHERE state = 'closed') AS closed,"
                " count(*) FILTER (WHERE ci_failures > 0) AS ci_failed"
                " FROM proposals WHERE repository = ANY(%s) GROUP BY 1", (repos,)).fetchall()
            breakers = conn.execute("SELECT * FROM breakers WHERE state <> 'closed' AND repository = ANY(%s)"
                                    " ORDER BY repository, pipeline", (repos,)).fetchall()
            points = conn.execute(
                "SELECT a.*, wi.title FROM action_points a JOIN workflow_insights wi"
                " ON wi.tenant_id = a.tenant_id AND wi.id = a.source_insight_id"
                " WHERE a.status = 'open' AND a.target_repository = ANY(%(r)s)"
                " AND a.source_repository = ANY(%(r)s)"  # where it came from is as private as that repository
                " ORDER BY a.id DESC LIMIT %(n)s", {"r": repos, "n": PAGE}).fetchall()
            recent = conn.execute("SELECT id, repository, pipeline, phase, findings, patches, prs_opened, started_at"
                                  " FROM runs WHERE repository = ANY(%s) ORDER BY id DESC LIMIT 10",
                                  (repos,)).fetchall()
            learned = conn.execute(f"SELECT repository, {_INSIGHT_COLUMNS} FROM workflow_insights"
                                   " WHERE repository = ANY(%s) ORDER BY updated_at DESC, id DESC LIMIT 10",
                                   (repos,)).fetchall()
        by_week: dict[str, dict[str, int]] = {}
        for row in [*runs, *prs]:
            by_week.setdefault(row["week"], {}).update({k: v for k, v in row.items() if k != "week"})
        weeks = [Week(w, **values) for w, values in sorted(by_week.items())]
        totals = Week("all", *(sum(getattr(w, f) for w in weeks) for f in ("runs", "opened", "merged", "closed",
                                                                            "ci_failed")))
        return InstallationView(tenant, repos, weeks, breakers, points, totals, recent, learned)

    def repository(self, tenant: int, repo: str, filters: dict[str, str], query: str = "") -> RepositoryView:
        filters = {k: v for k, v in filters.items() if v in {"type": INSIGHT_TYPES, "severity": SEVERITIES,
                                                              "category": CATEGORIES}.get(k, ())}
        records, holds = self.policy.records(tenant, repo), self.policy.holds(tenant, repo)
        rules = [{"code": c, "record": records.get(c), "hold": holds.get(c)} for c in sorted({*records, *holds})]
        searched = bool(query.strip())
        with self.db.tenant(tenant) as conn:
            runs = conn.execute("SELECT * FROM runs WHERE repository = %s ORDER BY id DESC LIMIT %s",
                                (repo, PAGE)).fetchall()
            in_force = {r["pipeline"]: r["rules"] for r in conn.execute(
                "SELECT DISTINCT ON (pipeline) pipeline, rules FROM runs WHERE repository = %s AND rules IS NOT NULL"
                " ORDER BY pipeline, id DESC", (repo,)).fetchall()}
            if searched:
                ids = [h.insight.id for h in self.insights.search(tenant, query, repository=repo,
                                                                  insight_type=filters.get("type"), k=PAGE)]
                rows = conn.execute(f"SELECT {_INSIGHT_COLUMNS} FROM workflow_insights WHERE id = ANY(%s)",
                                    (ids,)).fetchall()
                order = {i: n for n, i in enumerate(ids)}
                insights = sorted(rows, key=lambda r: order[r["id"]])
            else:
                insights = conn.execute(
                    f"SELECT {_INSIGHT_COLUMNS} FROM workflow_insights WHERE repository = %(r)s"
                    " AND (%(t)s::text IS NULL OR insight_type = %(t)s) AND (%(s)s::text IS NULL OR severity = %(s)s)"
                    " AND (%(c)s::text IS NULL OR category = %(c)s) ORDER BY updated_at DESC, id DESC LIMIT %(n)s",
                    {"r": repo, "t": filters.get("type"), "s": filters.get("severity"), "c": filters.get("category"),
                     "n": PAGE}).fetchall()
            letters = conn.execute("SELECT id, title, source_ref, letter_date, tags FROM memory_entries"
                                   " WHERE repository = %s ORDER BY letter_date DESC NULLS LAST, id DESC LIMIT %s",
                                   (repo, PAGE)).fetchall()
            envelopes = conn.execute(
                "SELECT id, run_id, path, attempt, status, confidence, breaker_state, error_message, error_hash,"
                " created_at FROM healing_envelopes WHERE repository = %s ORDER BY created_at DESC LIMIT %s",
                (repo, PAGE)).fetchall()
        return RepositoryView(tenant, repo, runs, rules, insights, searched, letters, envelopes, filters, in_force)

    def run(self, tenant: int, run_id: int) -> RunView | None:
        with self.db.tenant(tenant) as conn:
            run = conn.execute("SELECT * FROM runs WHERE id = %s", (run_id,)).fetchone()
            if run is None:
                return None
            attempts = conn.execute(
                "SELECT path, attempt, status, confidence, error_message, error_hash, checks, sections, diff,"
                " created_at FROM healing_envelopes WHERE run_id = %s ORDER BY path, created_at, attempt",
                (str(run_id),)).fetchall()
        files: dict[str, list[dict]] = {}
        for attempt in attempts:
            files.setdefault(attempt["path"] or "(no file)", []).append(attempt)
        return RunView(tenant, run, files)

    def health(self, tenant: int, repos: list[str]) -> HealthView:
        with self.db.tenant(tenant) as conn:
            ring = conn.execute(
                "SELECT repository, sum(hits) AS hits, sum(misses) AS misses FROM ring_reads"
                " WHERE day > current_date - 30 AND repository = ANY(%s) GROUP BY 1 ORDER BY 1", (repos,)).fetchall()
            unembedded = conn.execute(
                "SELECT count(*) AS n FROM workflow_insights WHERE repository = ANY(%s)"
                " AND (embedding IS NULL OR embedding_model IS DISTINCT FROM %s)",
                (repos, self.insights.embedder.model)).fetchone()["n"]
            titles = [r["title"] for r in conn.execute(
                "SELECT title FROM workflow_insights WHERE repository = ANY(%s) ORDER BY id DESC LIMIT 5",
                (repos,)).fetchall()] or ["error handling"]
        timings = []
        for title in titles:  # measured now, through the same search the pipelines use
            start = time.perf_counter()
            self.insights.search(tenant, title, k=10)
            timings.append((time.perf_counter() - start) * 1000)
        for row in ring:
            total = row["hits"] + row["misses"]
            row["rate"] = row["hits"] / total if total else None
        return HealthView(tenant, ring, {"p50": statistics.median(timings), "max": max(timings),
                                         "samples": len(timings)}, unembedded, self.insights.embedder.model)

    # ---- curation: a command by another door, and recorded ----

    def curate(self, tenant: int, repo: str, actor: str, command: str, args: str) -> JobResult:
        job = CommandJob(tenant_id=tenant, delivery_id="dashboard", repo=repo, command=command, args=args,
                         author=actor, issue_number=0, comment_id=0)
        result = self.commands(job)
        self.record(tenant, repo, actor, command, args)
        return result

    def reembed(self, tenant: int, actor: str) -> int:
        done = self.insights.reembed(tenant)
        self.record(tenant, None, actor, "reembed", f"{done} insight(s)")
        return done

    def record(self, tenant: int, repo: str | None, actor: str, action: str, target: str) -> None:
        with self.db.tenant(tenant, register=True) as conn:
            conn.execute("INSERT INTO curations (tenant_id, repository, actor, action, target) VALUES (%s, %s, %s, %s,"
                         " %s)", (tenant, repo, actor, action, target[:500]))

    def curations(self, tenant: int, repo: str) -> list[dict[str, Any]]:
        with self.db.tenant(tenant) as conn:
            return conn.execute("SELECT * FROM curations WHERE repository = %s ORDER BY id DESC LIMIT %s",
                                (repo, PAGE)).fetchall()

    def run_installation(self, run_id: int, tenants: list[int]) -> int | None:
        """Which of these installations a run belongs to (each asked under its own row-level security)."""
        for tenant in tenants:
            with self.db.tenant(tenant) as conn:
                if conn.execute("SELECT 1 FROM runs WHERE id = %s", (run_id,)).fetchone():
                    return tenant
        return None


_INSIGHT_COLUMNS = ("id, insight_type, category, severity, title, detail, suggestion, source_ref, paired_insight_id,"
                    " accepted_count, rejected_count, seen_count, embedding IS NOT NULL AS embedded, updated_at")


ACCESS_SECONDS = 3600  # what GitHub said a person may see is asked again after this: access can be taken away


class Sessions:
    """Dashboard sessions: who signed in and what GitHub said they may see, by an unguessable id (the cookie holds
    only that id); reached through security-definer functions, like delivery claims, before any tenant is known."""

    def __init__(self, db: Database):
        self.db = db

    def save(self, sid: str, login: str, access: dict[int, dict[str, str]], ttl_seconds: int = ACCESS_SECONDS) -> None:
        with self.db.system() as conn:
            conn.execute("SELECT memfix_session_save(%s, %s, %s::jsonb, %s)",
                         (sid, login, json.dumps({str(k): v for k, v in access.items()}), ttl_seconds))

    def load(self, sid: str) -> tuple[str, dict[int, dict[str, str]]] | None:
        with self.db.system() as conn:
            row = conn.execute("SELECT * FROM memfix_session_load(%s)", (sid,)).fetchone()
        return (row["login"], {int(k): v for k, v in row["access"].items()}) if row else None

    def end(self, sid: str) -> None:
        with self.db.system() as conn:
            conn.execute("SELECT memfix_session_end(%s)", (sid,))
