"""Circuit breakers per repository and pipeline, persisted so every worker instance sees the same state.

closed → open when consecutive syntax failures reach their budget (or logic failures theirs);
open → half_open once the cool-down has passed (one trial attempt is allowed);
half_open → closed on a success, → open again on a failure. An open breaker stops model calls.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from core.change import Verification
from core.memory.types import Circuit

if TYPE_CHECKING:
    from core.db import Database

SYNTAX_BUDGET = 3
LOGIC_BUDGET = 5
COOL_DOWN = timedelta(minutes=15)

_READ = """
SELECT state, syntax_failures, logic_failures, opened_at FROM breakers
WHERE tenant_id = %(t)s AND repository = %(r)s AND pipeline = %(p)s FOR UPDATE
"""
_WRITE = """
INSERT INTO breakers (tenant_id, repository, pipeline, state, syntax_failures, logic_failures, opened_at)
VALUES (%(t)s, %(r)s, %(p)s, %(state)s, %(syntax)s, %(logic)s, %(opened_at)s)
ON CONFLICT (tenant_id, repository, pipeline) DO UPDATE SET state = EXCLUDED.state,
  syntax_failures = EXCLUDED.syntax_failures, logic_failures = EXCLUDED.logic_failures,
  opened_at = EXCLUDED.opened_at, updated_at = now()
"""


class Trial(StrEnum):
    """What an attempt tells the breaker."""

    SUCCESS = "success"
    SYNTAX = "syntax"  # the patch did not parse
    LOGIC = "logic"  # any other failure, or no patch at all

    @staticmethod
    def of(verification: Verification | None) -> Trial:
        """An attempt's verdict as the breaker counts it (None: the model gave no usable patch)."""
        if verification is None:
            return Trial.LOGIC
        return Trial.SUCCESS if verification.ok else Trial.LOGIC if verification.parses else Trial.SYNTAX


@dataclass(frozen=True)
class BreakerState:
    state: Circuit = Circuit.CLOSED
    syntax_failures: int = 0
    logic_failures: int = 0
    opened_at: datetime | None = None

    @property
    def allows_calls(self) -> bool:
        return self.state != Circuit.OPEN


@dataclass(frozen=True)
class PipelineBreaker:
    """One repository and pipeline's breaker, as stored (an open one past its cool-down still says open)."""

    repository: str
    pipeline: str
    breaker: BreakerState


def _state(row: dict[str, Any]) -> BreakerState:
    return BreakerState(Circuit(row["state"]), row["syntax_failures"], row["logic_failures"], row["opened_at"])


class Breakers:
    def __init__(self, db: Database, *, syntax_budget: int = SYNTAX_BUDGET, logic_budget: int = LOGIC_BUDGET,
                 cool_down: timedelta = COOL_DOWN):
        self.db = db
        self.syntax_budget = syntax_budget
        self.logic_budget = logic_budget
        self.cool_down = cool_down

    def current(self, tenant_id: int, repository: str, pipeline: str) -> BreakerState:
        """The state now; an open breaker past its cool-down turns half-open here."""
        return self._change(tenant_id, repository, pipeline, None)

    def record(self, tenant_id: int, repository: str, pipeline: str, outcome: Trial) -> BreakerState:
        return self._change(tenant_id, repository, pipeline, outcome)

    def tripped(self, tenant_id: int, repos: list[str]) -> list[PipelineBreaker]:
        """The breakers of these repositories that are not closed, by repository and pipeline."""
        with self.db.tenant(tenant_id) as conn:
            rows = conn.execute(
                "SELECT repository, pipeline, state, syntax_failures, logic_failures, opened_at FROM breakers"
                " WHERE state <> %s AND repository = ANY(%s) ORDER BY repository, pipeline",
                (Circuit.CLOSED, repos)).fetchall()
        return [PipelineBreaker(r["repository"], r["pipeline"], _state(r)) for r in rows]

    def _change(self, tenant_id: int, repository: str, pipeline: str, outcome: Trial | None) -> BreakerState:
        key = {"t": tenant_id, "r": repository, "p": pipeline}
        with self.db.tenant(tenant_id, register=True) as conn:
            row = conn.execute(_READ, key).fetchone()
            clock = conn.execute("SELECT now() AS now").fetchone()  # the database's clock, for every worker
            assert clock is not None
            now = clock["now"]
            state = _state(row) if row else BreakerState()
            new = self._next(state, outcome, now)
            if new != state:
                opened = new.opened_at if new.state == Circuit.OPEN else None
                conn.execute(_WRITE, {**key, "state": new.state, "syntax": new.syntax_failures,
                                      "logic": new.logic_failures, "opened_at": opened})
        return new

    def _next(self, s: BreakerState, outcome: Trial | None, now: datetime) -> BreakerState:
        if s.state == Circuit.OPEN and s.opened_at and now - s.opened_at >= self.cool_down:
            s = BreakerState(Circuit.HALF_OPEN, s.syntax_failures, s.logic_failures, s.opened_at)
        if outcome is None:
            return s
        if outcome == Trial.SUCCESS:
            return BreakerState()
        syntax = s.syntax_failures + (outcome == Trial.SYNTAX)
        logic = s.logic_failures + (outcome == Trial.LOGIC)
        if s.state == Circuit.HALF_OPEN or syntax >= self.syntax_budget or logic >= self.logic_budget:
            return BreakerState(Circuit.OPEN, syntax, logic, now)
        return BreakerState(s.state, syntax, logic, s.opened_at)
