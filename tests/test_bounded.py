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


# ---- a repository's own text: each kind of hostile YAML or TOML is refused by name, and the rest goes on ----

HOSTILE_YAML = {
    "nested 3,000 deep": ("ignore:\n" + "".join(f"{'  ' * i}- \n" for i in range(1, 40)) + "  " * 40 + "- x\n",
                          "nested more than 32 levels"),
    "flow-nested 3,000 deep": ("ignore: " + "[" * 3000 + "]" * 3000 + "\n", "nested more than 32 levels"),
    "an integer of 5,000 digits": ("max_prs: " + "9" * 5000 + "\n", "a number of 5,000 characters"),
    "a hex integer of 100 digits": ("max_prs: 0x" + "f" * 100 + "\n", "a number of 102 characters"),
    "25,000 values": ("ignore: [" + ",".join(["a"] * 25_000) + "]\n", "more than 20,000 values"),
    "a lone surrogate": ("python: \"3.\ud8008\"\n", "not valid Unicode"),
}


@pytest.mark.parametrize("kind", HOSTILE_YAML)
def test_hostile_yaml_in_the_configuration_is_refused_and_the_defaults_apply(alarm, kind):
    text, said = HOSTILE_YAML[kind]
    config, problems = parse_config(text)
    assert config == RepoConfig()
    [problem] = problems
    assert problem.startswith(".github/memfix.yml") and said in problem and "using the defaults" in problem


@pytest.mark.parametrize("kind", HOSTILE_YAML)
def test_hostile_front_matter_skips_that_letter_by_name(alarm, kind):
    from core.memory.letters import LetterError, parse_letter

    text, said = HOSTILE_YAML[kind]
    path = ".memory/letter_20240301_ab12.md"
    with pytest.raises(LetterError, match="front matter|not UTF-8") as refused:  # bytes: a surrogate is no UTF-8
        parse_letter(REPO, path, f"---\n{text}---\n# Title\nBody\n".encode("utf-8", "surrogatepass"))
    assert path in str(refused.value)
    assert parse_letter(REPO, path, b"---\ntags: [a]\n---\n# Fine\nBody\n").title == "Fine"  # the next one reads


def test_a_quoted_long_number_is_text_and_accepted():
    config, problems = parse_config(f"model: \"{'1' * 100}\"\n")
    assert not any("number" in p for p in problems)


@pytest.mark.parametrize("pyproject", ["[project]\nrequires-python = " + "[" * 5000 + "]" * 5000,
                                       "[tool.ruff]\nline-length = " + "9" * 5000,
                                       "[project]\nname = 'x'\n" + "#" * (2 * 1024 * 1024)])
def test_a_project_file_that_cannot_be_read_tells_nothing_and_the_run_goes_on(alarm, pyproject):
    from core.pipelines.project import read_profile

    profile = read_profile(lambda name: pyproject if name == "pyproject.toml" else None)
    assert "nothing in the repository says" in profile.target.describe()


def test_a_push_with_hostile_configuration_and_letter_finishes_once_and_says_why(serve, fake_github, tenant_id):
    bad, good = ".memory/letter_20240301_bad1.md", ".memory/letter_20240302_ok12.md"
    sha = fake_github.push(REPO, "main", {".github/memfix.yml": "max_prs: " + "9" * 5000 + "\n",
                                          bad: "---\ntags: " + "[" * 3000 + "]" * 3000 + "\n---\n# Deep\n",
                                          good: "# Releases on Tuesdays\nAlways.\n"})
    assert serve("push", P.push(installation=tenant_id, repo=REPO, after=sha,
                                commits=[{"added": [bad, good], "modified": [], "removed": []}])) == 202
    assert serve.drain()
    [note] = fake_github.commit_comments(REPO)
    assert f"- skipped `{bad}`" in note["body"] and "nested more than 32 levels" in note["body"]
    assert serve.services.entries.search(tenant_id, "releases tuesdays")  # the other letter imported
    cid = fake_github.add_comment(REPO, 1, "/autofix app.py", user="alice")["id"]
    assert serve("issue_comment", P.issue_comment("/autofix app.py", installation=tenant_id, repo=REPO,
                                                  comment_id=cid, pull_request=False)) == 202
    assert serve.drain()
    [reply] = [c["body"] for c in fake_github.comments(REPO, 1) if f"command:{REPO}:{cid}" in c["body"]]
    assert "a number of 5,000 characters is not accepted" in reply and "using the defaults" in reply
    with serve.services.db.tenant(tenant_id) as conn:
        assert {r["status"] for r in conn.execute("SELECT status FROM jobs").fetchall()} == {"done"}
