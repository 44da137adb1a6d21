"""Bounded input: hostile configuration, payloads and command text end in a clear refusal, never a hang,
an exception out of the intake, or a retry. A hard alarm fails a test that hangs (no timed assertions)."""

from __future__ import annotations

import json

import pytest

from core.deliveries import MemoryDeliveries
from core.intake import Intake
from core.pipelines.config import RepoConfig, parse_config
from tests.fakes import payloads as P

REPO = "acme/api"
SECRET = "test-webhook-secret"


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


@pytest.mark.parametrize(("pyproject", "said"), [
    ("[project]\nrequires-python = " + "[" * 5000 + "]" * 5000, "nested more than 32 levels"),
    ("[tool.ruff]\nline-length = " + "9" * 5000, "a number of 5,000 characters"),
    ("[project]\nname = 'x'\n" + "#" * (2 * 1024 * 1024), "larger than 1 MiB")])
def test_a_project_file_that_cannot_be_read_tells_nothing_and_the_run_goes_on(alarm, pyproject, said):
    from core.languages.python.project import read_profile

    profile = read_profile(lambda name: pyproject if name == "pyproject.toml" else None)
    assert "nothing in the repository says" in profile.target.describe()
    [problem] = profile.problems
    assert problem.startswith("pyproject.toml: ") and said in problem and problem.endswith("; not read")


# ---- one reader for every configuration format: the same limits, the same refusal, before any recursion ----

DEEP = 3000
HOSTILE_CONFIG = {  # kind → {format: text}; every one is refused by name, with what to do about it
    "nested 3,000 deep": ("values nested more than 32 levels deep are not accepted", {
        "json": "[" * DEEP + "]" * DEEP, "jsonc": '{"a": ' + "[" * DEEP + "]" * DEEP + "}",
        "json5": "{a: " + "{b: " * DEEP + "1" + "}" * DEEP + "}", "toml": "a = " + "[" * DEEP + "]" * DEEP,
        "yaml": "a: " + "[" * DEEP + "]" * DEEP}),
    "nested by dotted keys": ("values nested more than 32 levels deep are not accepted", {
        "toml": "a" + ".b" * DEEP + " = 1", "yaml": "".join(f"{'  ' * i}k:\n" for i in range(40)) + "  " * 40 + "v"}),
    "an integer of 5,000 digits": ("a number of 5,000 characters is not accepted (at most 64; quote it if it is "
                                   "text)", {"json": "[" + "9" * 5000 + "]", "jsonc": "[" + "9" * 5000 + "]",
                                             "toml": "n = " + "9" * 5000, "yaml": "n: " + "9" * 5000}),
    "25,000 values": ("more than 20,000 values are not accepted", {
        "json": "[" + ",".join(["1"] * 25_000) + "]", "toml": "a = [" + ",".join(["1"] * 25_000) + "]",
        "ini": "[s]\n" + "".join(f"k{i} = v\n" for i in range(25_000)), "yaml": "[" + ",".join(["1"] * 25_000) + "]"}),
    "a lone surrogate in the text": ("text that is not valid Unicode (a lone surrogate) is not accepted", {
        fmt: "a = '\ud800'" for fmt in ("json", "jsonc", "json5", "toml", "yaml", "ini")}),
    "a lone surrogate by escape": ("text that is not valid Unicode (a lone surrogate, like the escape `\\ud800`) is "
                                   "not accepted", {"json": '{"a": "\\ud800"}', "jsonc": '["\\udfff"]',
                                                    "yaml": 'a: "\\ud800"'}),  # TOML refuses it itself
    "over a MiB": ("larger than 1 MiB, more than any configuration file needs", {
        fmt: "#" * (1 << 20) + "\n" for fmt in ("json", "jsonc", "json5", "toml", "yaml", "ini")}),
}


@pytest.mark.parametrize(("kind", "fmt"), [(kind, fmt) for kind, (_, texts) in HOSTILE_CONFIG.items() for fmt in texts])
def test_every_format_refuses_each_kind_of_hostile_text_by_name(alarm, kind, fmt):
    from core.bounded import ConfigRefused, read_config

    said, texts = HOSTILE_CONFIG[kind]
    with pytest.raises(ConfigRefused) as refused:
        read_config(texts[fmt], fmt, "package.json")
    assert str(refused.value) == f"package.json: {said}"


@pytest.mark.parametrize(("text", "said"), [
    ("a:\n  b: !!float abc\n", "not valid YAML at line 2 (a value its tag cannot be read as (ValueError))"),
    ("n: !!int 0x\n", "not valid YAML at line 1 (a value its tag cannot be read as (ValueError))"),
    ("b: !!binary AAAA\n", "not valid YAML at line 1 (the tag binary is not accepted)"),
    ("s: !!set {a: null}\n", "not valid YAML at line 1 (the tag set is not accepted)"),
    ("p: !!omap [a: 1]\n", "not valid YAML at line 1 (the tag omap is not accepted)")])
def test_a_value_its_yaml_tag_cannot_make_is_refused_at_its_line(text, said):
    from core.bounded import ConfigRefused, read_config

    with pytest.raises(ConfigRefused) as refused:
        read_config(text, "yaml", ".pre-commit-config.yaml")
    assert str(refused.value) == f".pre-commit-config.yaml: {said}"


def test_a_yaml_date_is_the_text_it_is_whether_or_not_such_a_day_exists():
    from core.bounded import read_config

    assert read_config("x: 2001-13-45\ny: 2001-12-14\nz: !!timestamp 2001-99-99 10:00\n", "yaml", "ci.yml") == \
        {"x": "2001-13-45", "y": "2001-12-14", "z": "2001-99-99 10:00"}


@pytest.mark.parametrize("fmt", ["json", "jsonc", "json5", "toml", "yaml", "ini"])
def test_any_failure_of_a_parser_is_the_one_refusal_that_names_the_file(fmt, monkeypatch):
    from core import bounded

    def broken(text, name, most):
        raise ArithmeticError("a parser's own bug")  # a kind no reader names

    monkeypatch.setitem(bounded._READERS, fmt, broken)
    with pytest.raises(bounded.ConfigRefused) as refused:
        bounded.read_config("x", fmt, "tox.ini")
    assert str(refused.value) == f"tox.ini: not valid {fmt.upper()} (its parser failed: ArithmeticError)"


def test_a_dotted_toml_key_of_more_parts_than_values_may_nest_is_refused_before_the_parser():
    from core.bounded import ConfigRefused, read_config

    for key in (".".join(["a"] * 40_000), '"a".' * 40 + "b", "[" + ".".join(["t"] * 40) + "]"):
        with pytest.raises(ConfigRefused, match="nested more than 32 levels"):
            read_config(f"{key} = 1\n" if not key.startswith("[") else f"{key}\nx = 1\n", "toml", "pyproject.toml")
    assert read_config("[tool.ruff.lint]\n\"a.b.c.d\" = 1.5\nv = [1.5, 2.5, 3.5]\n", "toml", "pyproject.toml") == \
        {"tool": {"ruff": {"lint": {"a.b.c.d": 1.5, "v": [1.5, 2.5, 3.5]}}}}


def test_jsonc_drops_comments_and_trailing_commas_outside_strings_only():
    from core.bounded import read_config

    text = '{\n  // a comment with "quotes" and [brackets\n  "a": [1, 2,], /* a block\n comment */ "b": "x, ]",\n}\n'
    assert read_config(text, "jsonc", "tsconfig.json") == {"a": [1, 2], "b": "x, ]"}


def test_a_syntax_error_names_the_files_line_and_never_quotes_it():
    from core.bounded import ConfigRefused, read_config

    with pytest.raises(ConfigRefused, match=r"^biome.json: not valid JSONC at line 4 \(Expecting") as refused:
        read_config('{\n/* one\ntwo */\n"secret_token": }', "jsonc", "biome.json")
    assert "secret_token" not in str(refused.value)
    with pytest.raises(ConfigRefused) as refused:
        read_config("no section\napi_token = hunter2\n", "ini", "setup.cfg")
    assert str(refused.value) == "setup.cfg: not valid INI at line 1"
    with pytest.raises(ConfigRefused, match="^package.json: not valid JSON at line 1"):
        read_config('{"a": 1,}', "json", "package.json")  # strict JSON keeps its trailing comma, and says so


def test_json5_single_quotes_and_unquoted_keys_are_read_and_the_rest_is_refused_clearly():
    from core.bounded import ConfigRefused, read_config

    assert read_config("{a: 'it\\'s \"x\"', $b: [1,], 'c': 2, // note\n}", "json5", ".babelrc") == \
        {"a": "it's \"x\"", "$b": [1], "c": 2}
    with pytest.raises(ConfigRefused, match="not valid JSON5 at line 1 .*not its other forms"):
        read_config("{a: 0x10}", "json5", ".babelrc")


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


@pytest.mark.parametrize("fmt", ["json", "yaml", "toml"])
def test_a_reader_may_allow_more_values_than_a_configuration_has(fmt):
    """A lockfile lists thousands of packages: its reader raises the cap on values, never the one on size or depth."""
    from core.bounded import ConfigRefused, read_config

    many = {f"p{n}": n for n in range(10_500)}  # 21,000 keys and values
    text = {"json": json.dumps(many), "yaml": "\n".join(f"p{n}: {n}" for n in many.values()),
            "toml": "\n".join(f"p{n} = {n}" for n in many.values())}[fmt]
    with pytest.raises(ConfigRefused, match="more than 20,000 values are not accepted"):
        read_config(text, fmt, "lock")
    assert read_config(text, fmt, "lock", values=50_000) == many
