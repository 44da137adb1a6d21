"""No replay runs: a job is keyed by what the signature covers, so a captured body sent again under a new
X-GitHub-Delivery id is a duplicate, while a genuinely new event (signed content differs) still runs."""

from __future__ import annotations

import pytest

from core.deliveries import MemoryDeliveries
from core.intake import Intake
from tests.fakes import payloads as P

SECRET = "test-webhook-secret"


class Queue:
    def __init__(self):
        self.sent = []

    def send(self, job):
        self.sent.append(job)


@pytest.fixture
def intake():
    return Intake(secret=SECRET, deliveries=MemoryDeliveries(), queue=Queue(), bot_login="memfix[bot]",
                  max_body_bytes=1 << 20)


def _post(intake, event: str, payload: dict, delivery: str) -> str:
    body = P.encode(payload)
    answer = intake.receive(P.headers(event, body, delivery=delivery, secret=SECRET), body)
    assert answer.status == 202, answer
    return answer.body["status"]


def test_a_replayed_issue_label_queues_nothing_but_a_later_label_runs(intake):
    labelled = P.issue_labelled(installation=7, repo="o/r", number=3, title="t", body="b")
    labelled["issue"]["updated_at"] = "2026-11-24T10:00:00Z"
    assert _post(intake, "issues", labelled, "d1") == "queued"
    assert _post(intake, "issues", labelled, "d2-new-id") == "duplicate"  # same signed bytes, new delivery id
    labelled["issue"]["updated_at"] = "2026-11-25T09:00:00Z"  # labelled again the next day
    assert _post(intake, "issues", labelled, "d3") == "queued"
    assert len(intake.queue.sent) == 2


def test_replayed_installation_comment_and_close_events_are_duplicates(intake):
    installed = P.installation("created", installation=7, repos=[(1, "o/r")])
    comment = P.issue_comment("/recall x", installation=7, repo="o/r", comment_id=55)
    closed = P.pull_request_closed(installation=7, repo="o/r", number=9, branch="memfix/autofix/x-1", merged=False)
    closed["pull_request"]["closed_at"] = "2026-11-24T10:00:00Z"
    for event, payload in (("installation", installed), ("issue_comment", comment), ("pull_request", closed)):
        assert _post(intake, event, payload, f"{event}-1") == "queued"
        assert _post(intake, event, payload, f"{event}-2") == "duplicate"
    closed["pull_request"]["closed_at"] = "2026-11-24T11:00:00Z"  # reopened, then closed again
    assert _post(intake, "pull_request", closed, "pull_request-3") == "queued"
    assert len(intake.queue.sent) == 4
