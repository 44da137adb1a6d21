"""`runs` rows: one per pipeline run, whose phase is always the truth, also after a crash."""

from __future__ import annotations

import json
import os
import socket
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from core.db import Database
    from core.pipelines.runner import RunRequest


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


class RunLog:
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
                "INSERT INTO runs (tenant_id, repository, job_key, pipeline, trigger, head_sha, provider, model, owner)"
                " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s) RETURNING id",
                (tenant_id, repository, job_key, pipeline, request.trigger, request.head_sha, provider, model,
                 f"{_HOST}:{os.getpid()}"),
            ).fetchone()
        return Run(row["id"], tenant_id, repository, pipeline, mirror)

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

    def chose(self, run: Run, rules: list[str], chosen_by: str, extended: list[str]) -> None:
        """The rules this run proposes fixes for, and which configuration chose them (the dashboard shows them)."""
        with self.db.tenant(run.tenant_id) as conn:
            conn.execute("UPDATE runs SET rules = %s::jsonb WHERE id = %s",
                         (json.dumps({"rules": rules, "chosen_by": chosen_by, "extended": extended}), run.id))

    def previous(self, run: Run) -> dict | None:
        """The last finished run of the same repository and pipeline before this one: what memory already holds."""
        with self.db.tenant(run.tenant_id) as conn:
            return conn.execute(
                "SELECT id, findings, patches, prs_opened, started_at FROM runs WHERE repository = %s"
                " AND pipeline = %s AND phase = %s AND id < %s ORDER BY id DESC LIMIT 1",
                (run.repository, run.pipeline, Phase.DONE, run.id)).fetchone()

    def get(self, tenant_id: int, run_id: int) -> dict | None:
        with self.db.tenant(tenant_id) as conn:
            return conn.execute("SELECT * FROM runs WHERE id = %s", (run_id,)).fetchone()


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
