"""Each status, verdict and phase the code writes is one StrEnum, and each is exactly what its column's CHECK allows."""

from __future__ import annotations

import json
import re

import psycopg
import pytest

from core.jobs import JobStatus
from core.memory.proposals import CiState, ProposalState
from core.memory.types import AttemptStatus, Circuit, PointStatus, Stance
from core.pipelines.runs import Phase
from core.queue import QueueStatus


@pytest.mark.parametrize("table, column, values", [
    ("runs", "phase", set(Phase)),
    ("proposals", "state", set(ProposalState)),
    ("proposals", "ci_state", set(CiState)),
    ("healing_envelopes", "status", set(AttemptStatus) - {AttemptStatus.UNFIXED}),  # no attempt, no envelope
    ("jobs", "status", set(JobStatus)),
    ("queued_jobs", "status", set(QueueStatus)),
    ("breakers", "state", set(Circuit)),
    ("action_points", "status", set(PointStatus)),
    ("rule_decisions", "stance", set(Stance)),
])
def test_an_enum_is_what_its_column_allows(pg_url, table, column, values):
    with psycopg.connect(pg_url) as conn:
        checks = [d for (d,) in conn.execute(
            "SELECT pg_get_constraintdef(c.oid) FROM pg_constraint AS c JOIN pg_class AS t ON t.oid = c.conrelid"
            " WHERE t.relname = %s AND c.contype = 'c'", (table,))
            if re.search(rf"\({column} = ANY", d)]
    [check] = checks
    assert set(re.findall(r"'([^']*)'::text", check)) == values


def test_a_status_reads_and_writes_as_its_value():
    assert json.dumps({"status": AttemptStatus.PROMOTED, Phase.DONE: [CiState.WAITING]}) == \
        '{"status": "PROMOTED", "done": ["waiting"]}'
    assert f"{Circuit.HALF_OPEN} {ProposalState.MERGED}" == "half_open merged"
    assert {"done": 1}.get(QueueStatus.DONE) == 1 and Phase("failed") is Phase.FAILED
