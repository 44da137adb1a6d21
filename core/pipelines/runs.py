"""`runs` rows: one per pipeline run, whose phase is always the truth, also after a crash."""

from __future__ import annotations

import json
import os
import socket
from collections.abc import Callable
from dataclasses import dataclass, fields
from datetime import datetime
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from core.languages.registry import NAMES

if TYPE_CHECKING:
    from core.db import Database
    from core.pipelines.values import RunRequest


class Phase(StrEnum):
    """Where a run is (`runs.phase`), in the order a run goes through them; DONE and FAILED are final."""

    QUEUED = "queued"
    SCANNING = "scanning"
    FIXING = "fixing"
    VERIFYING = "verifying"
    PUBLISHING = "publishing"
    DONE = "done"
    FAILED = "failed"


FINAL = (Phase.DONE, Phase.FAILED)
STALE_AFTER = "20 minutes"  # longer than a worker Lambda may live (15 min)

Mirror = Callable[[Phase, str], None]  # (phase, summary) → e.g. a GitHub check run


@dataclass
class Run:
    id: int
    tenant_id: int
    repository: str
    pipeline: str
    mirror: Mirror | None = None
    phase: Phase = Phase.QUEUED
    language: str = NAMES[0]


@dataclass(frozen=True)
class RuleChoice:
    """The rules a run proposes fixes for, and which configuration chose them."""

    rules: tuple[str, ...] = ()
    chosen_by: str = ""
    extended: tuple[str, ...] = ()  # beyond the team's configuration, from `.github/memfix.yml` `rules: extend`


@dataclass(frozen=True)
class RunRecord:
    """A `runs` row: what one run did, as the dashboard and the next run read it back."""

    id: int
    tenant_id: int
    repository: str
    pipeline: str
    phase: Phase
    started_at: datetime
    updated_at: datetime
    finished_at: datetime | None = None
    job_key: str | None = None
    trigger: str | None = None
    head_sha: str | None = None
    provider: str | None = None
    model: str | None = None
    findings: int = 0
    patches: int = 0
    prs_opened: int = 0
    learnings: int = 0
    prompt_tokens: int = 0
    error: str | None = None
    check_run_id: int | None = None
    owner: str | None = None  # host:pid of the process running it
    rules: RuleChoice | None = None
    language: str = NAMES[0]  # a name of core/languages/registry.py
    left: list[dict[str, Any]] | None = None  # what the run left unfixed: {path, codes, lines, reason} per file


_COLUMNS = ", ".join(f'"{f.name}"' if f.name == "left" else f.name for f in fields(RunRecord))  # LEFT is a keyword


def _choice(rules: dict[str, Any]) -> RuleChoice:
    return RuleChoice(tuple(rules.get("rules", ())), rules.get("chosen_by", ""), tuple(rules.get("extended", ())))


def _record(row: dict[str, Any]) -> RunRecord:
    return RunRecord(**{**row, "phase": Phase(row["phase"]),
                        "rules": _choice(row["rules"]) if row["rules"] is not None else None})


MAX_LEFT = 500  # files a run's record lists as left unfixed (the JSON output has them all)


class RunLog:
    """Every read and write of `runs`, each under the tenant's row-level security."""

    def __init__(self, db: Database):
        self.db = db

    def start(self, request: RunRequest, *, provider: str, model: str | None, mirror: Mirror | None = None) -> Run:
        tenant_id, repository, pipeline, job_key = request.tenant_id, request.repo, request.pipeline, request.job_key
        with self.db.tenant(tenant_id, register=True) as conn:
            # A run of the same job that never finished died with its worker: say so.
            if job_key:
                conn.execute(
                    "UPDATE runs SET phase = %s, error = 'the worker stopped during ' || phase,"
                    " finished_at = now(), updated_at = now() WHERE job_key = %s AND phase <> ALL(%s)",
                    (Phase.FAILED, job_key, list(FINAL)),
                )
            conn.execute(
                f"UPDATE runs SET phase = %s, error = 'no progress for {STALE_AFTER} during ' || phase,"
                f" finished_at = now() WHERE phase <> ALL(%s) AND updated_at < now() - interval '{STALE_AFTER}'",
                (Phase.FAILED, list(FINAL)),
            )
            # A run of this host whose process is gone (killed, timed out): said at once, not 20 minutes on.
            orphans = [r for r in conn.execute(
                "SELECT id, owner FROM runs WHERE phase <> ALL(%s) AND owner LIKE %s",
                (list(FINAL), f"{_HOST}:%")).fetchall() if not _alive(int(r["owner"].rpartition(":")[2]))]
            for r in orphans:
                conn.execute("UPDATE runs SET phase = %s, finished_at = now(), error = 'the process running it "
                             "(' || %s || ') stopped during ' || phase WHERE id = %s",
                             (Phase.FAILED, r["owner"], r["id"]))
            row = conn.execute(
                "INSERT INTO runs (tenant_id, repository, job_key, pipeline, trigger, head_sha, provider, model, owner,"
                " language) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s) RETURNING id",
                (tenant_id, repository, job_key, pipeline, request.trigger, request.head_sha, provider, model,
                 f"{_HOST}:{os.getpid()}", request.language),
            ).fetchone()
        assert row is not None  # an INSERT … RETURNING returns its row
        return Run(row["id"], tenant_id, repository, pipeline, mirror, language=request.language)

    def phase(self, run: Run, phase: Phase, summary: str = "", **counts: int) -> None:
        phase = Phase(phase)  # a phase the table does not know fails here, before the database
        sets = ", ".join(f"{name} = %({name})s" for name in counts)
        with self.db.tenant(run.tenant_id) as conn:
            conn.execute(
                "UPDATE runs SET phase = %(phase)s, updated_at = now()"
                + (", finished_at = now()" if phase in FINAL else "") + (f", {sets}" if sets else "")
                + " WHERE id = %(id)s",
                {"phase": phase, "id": run.id, **counts},
            )
        run.phase = phase
        if run.mirror:
            run.mirror(phase, summary)

    def fail(self, run: Run, error: str) -> None:
        with self.db.tenant(run.tenant_id) as conn:
            conn.execute("UPDATE runs SET error = %s WHERE id = %s", (error[:2000], run.id))
        self.phase(run, Phase.FAILED, error)

    def left(self, run: Run, left: list[dict[str, Any]]) -> None:
        """What the run left unfixed in each file, and why (the run page shows it)."""
        with self.db.tenant(run.tenant_id) as conn:
            conn.execute('UPDATE runs SET "left" = %s::jsonb WHERE id = %s', (json.dumps(left[:MAX_LEFT]), run.id))

    def chose(self, run: Run, rules: list[str], chosen_by: str, extended: list[str]) -> None:
        """The rules this run proposes fixes for, and which configuration chose them (the dashboard shows them)."""
        with self.db.tenant(run.tenant_id) as conn:
            conn.execute("UPDATE runs SET rules = %s::jsonb WHERE id = %s",
                         (json.dumps({"rules": rules, "chosen_by": chosen_by, "extended": extended}), run.id))

    def previous(self, run: Run) -> RunRecord | None:
        """The last finished run of the same repository, pipeline and language before this one: what memory already
        holds (a run of the other language found other files)."""
        with self.db.tenant(run.tenant_id) as conn:
            row = conn.execute(
                f"SELECT {_COLUMNS} FROM runs WHERE repository = %s"
                " AND pipeline = %s AND language = %s AND phase = %s AND id < %s ORDER BY id DESC LIMIT 1",
                (run.repository, run.pipeline, run.language, Phase.DONE, run.id)).fetchone()
        return _record(row) if row else None

    def get(self, tenant_id: int, run_id: int) -> RunRecord | None:
        with self.db.tenant(tenant_id) as conn:
            row = conn.execute(f"SELECT {_COLUMNS} FROM runs WHERE id = %s", (run_id,)).fetchone()
        return _record(row) if row else None

    def latest(self, tenant_id: int, repos: list[str], limit: int) -> list[RunRecord]:
        """The newest runs of these repositories, newest first."""
        with self.db.tenant(tenant_id) as conn:
            rows = conn.execute(f"SELECT {_COLUMNS} FROM runs WHERE repository = ANY(%s) ORDER BY id DESC LIMIT %s",
                                (repos, limit)).fetchall()
        return [_record(r) for r in rows]

    def rules_in_force(self, tenant_id: int, repo: str) -> dict[str, RuleChoice]:
        """Per pipeline, the rules its latest run that chose any proposed fixes for."""
        with self.db.tenant(tenant_id) as conn:
            rows = conn.execute(
                "SELECT DISTINCT ON (pipeline, language) pipeline, language, rules FROM runs"
                " WHERE repository = %s AND rules IS NOT NULL ORDER BY pipeline, language, id DESC", (repo,)).fetchall()
        return {r["pipeline"] + ("" if r["language"] == NAMES[0] else f" ({r['language']})"): _choice(r["rules"])
                for r in rows}

    def weekly(self, tenant_id: int, repos: list[str]) -> dict[str, int]:
        """Runs per week they started in (`YYYY-MM-DD` of its Monday)."""
        with self.db.tenant(tenant_id) as conn:
            rows = conn.execute(
                "SELECT to_char(date_trunc('week', started_at), 'YYYY-MM-DD') AS week, count(*) AS runs FROM runs"
                " WHERE repository = ANY(%s) GROUP BY 1", (repos,)).fetchall()
        return {r["week"]: r["runs"] for r in rows}

    def repositories(self, tenant_id: int) -> set[str]:
        """Every repository memfix ran on."""
        with self.db.tenant(tenant_id) as conn:
            return {r["repository"] for r in conn.execute("SELECT DISTINCT repository FROM runs").fetchall()}


_HOST = socket.gethostname()


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, ValueError):
        return True  # someone's process under that number, or not a pid at all: not ours to judge
    return True
