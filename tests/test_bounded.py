"""Bounded input: hostile configuration, payloads and command text end in a clear refusal, never a hang,
an exception out of the intake, or a retry. A hard alarm fails a test that hangs (no timed assertions)."""

from __future__ import annotations

import json
import signal

import pytest

from core.deliveries import MemoryDeliveries
from core.intake import Intake
from core.pipelines.config import RepoConfig, parse_config
from tests.fakes import payloads as P

REPO = "acme/api"
SECRET = "test-webhook-secret"


@pytest.fixture
def alarm():
    """Fail instead of hanging: the bounds under test hold by construction, this only guards the suite."""
    def expired(*_):
        raise TimeoutError("the refusal did not come")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.alarm(20)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


ALIAS_BOMB = "\n".join(["a: &a [x, x, x, x, x, x, x, x, x]"] +
                       [f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, "
                        f"*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, "
                        f"*{chr(97 + i)}]" for i in range(8)] + ["ignore: *i"])


def test_the_alias_bomb_is_refused_before_it_expands(alarm):
    config, problems = parse_config(ALIAS_BOMB)
    assert config == RepoConfig()
    assert problems == [".github/memfix.yml: anchors and aliases (`&name`, `*name`) are not accepted; "
                        "using the defaults"]


def test_bad_values_are_echoed_short_and_huge_files_refused(alarm):
    _, problems = parse_config("max_prs: " + json.dumps(["x" * 100] * 500) + "\n")  # 50 KB: under the cap
    [problem] = problems
    assert len(problem) < 200 and "…" in problem
    _, problems = parse_config("ignore: [" + ", ".join(["'a'"] * 30_000) + "]\n")
    assert "larger than 64 KiB" in problems[0]


def test_the_glob_bomb_matches_in_polynomial_steps(alarm):
    config, problems = parse_config("ignore: ['" + "/".join(["**"] * 24) + "/x/**/y/**/z.py']\n")
    assert problems == []
    deep = "/".join(["d"] * 60) + "/nope.py"
    assert not config.ignored(deep)  # the 44-seconds-per-file case, now a few thousand steps
    assert config.ignored("a/x/b/y/c/z.py")


def test_ignore_patterns_that_could_leave_the_repository_are_refused():
    config, problems = parse_config("ignore: ['../**', 'ok/**', 'a\\\\b']\n")
    assert config.ignore == ("ok/**",)
    assert len(problems) == 2 and all("not a repository path pattern" in p for p in problems)


def _intake() -> Intake:
    class Queue:
        sent: list = []

        def send(self, job):
            self.sent.append(job)

    return Intake(secret=SECRET, deliveries=MemoryDeliveries(), queue=Queue(), bot_login="memfix[bot]",
                  max_body_bytes=25 * 1024 * 1024)


@pytest.mark.parametrize("body, error", [
    (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
    (b"[1, 2, 3]", "not a JSON object"),
    (b'"just a string"', "not a JSON object"),
])
def test_hostile_bodies_are_answered_400(alarm, body, error):
    answer = _intake().receive(P.headers("issue_comment", body, secret=SECRET), body)
    assert answer.status == 400 and error in answer.body["error"]


def test_fields_of_the_wrong_type_are_answered_400_not_an_exception():
    payload = P.issue_comment("/recall x", installation=7, repo=REPO)
    payload["comment"]["body"] = ["/recall", "x"]
    body = P.encode(payload)
    answer = _intake().receive(P.headers("issue_comment", body, secret=SECRET), body)
    assert answer.status == 400 and "unexpected types" in answer.body["error"]
    payload["comment"] = "a string where an object belongs"
    body = P.encode(payload)
    assert _intake().receive(P.headers("issue_comment", body, secret=SECRET), body).status == 400


def _reply(serve, gh, tenant: int, text: str) -> str:
    cid = gh.add_comment(REPO, 1, text.replace("\x00", ""), user="alice")["id"]
    assert serve("issue_comment", P.issue_comment(text, installation=tenant, repo=REPO, comment_id=cid)) == 202
    assert serve.drain()
    return next(c["body"] for c in gh.comments(REPO, 1) if f"command:{REPO}:{cid}" in c["body"])


def test_nul_bytes_and_oversize_memory_are_permanent_refusals_not_retries(serve, fake_github, tenant_id):
    reply = _reply(serve, fake_github, tenant_id, "/recall pay\x00roll")
    assert "❌ `/recall` failed" in reply and "NUL byte" in reply and "attempts" not in reply
    reply = _reply(serve, fake_github, tenant_id, "/remember " + "very long lesson " * 1000)
    assert "❌ `/remember` failed" in reply and "the limit is 10,000" in reply
    assert serve.services.insights.for_repository(tenant_id, REPO) == []
    assert serve.services.queue.dead == []
