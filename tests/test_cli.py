"""`memfix` CLI on the real database: what a person types and reads."""

from __future__ import annotations

import json
import re

import pytest


def test_remember_recall_forget(cli):
    code, out, _ = cli("remember", "pain_point security high: Tokens logged in debug output\nSeen in auth.py",
                       "--repo", "acme/api")
    assert code == 0 and out.startswith("Saved 1 insight:") and "[pain_point] [security]" in out
    insight_id = int(re.search(r"`insight:(\d+)`", out)[1])
    code, out, _ = cli("recall", "tokens debug output", "--repo", "acme/api", "--json")
    [hit] = json.loads(out)
    assert (hit["layer"], hit["id"], hit["title"]) == ("insight", insight_id, "Tokens logged in debug output")
    assert "nothing in memory matches" in cli("recall", "tokens debug output", "--repo", "acme/web")[1]
    assert "(acme/api)" in cli("recall", "tokens debug output", "--all")[1]  # says where it came from
    code, _, err = cli("forget", str(insight_id), "--repo", "acme/web")
    assert code == 1 and "no insight" in err and "acme/web" in err
    assert cli("forget", f"insight:{insight_id}", "--repo", "acme/api")[1] == f"forgot insight:{insight_id}\n"
    code, _, err = cli("forget", str(insight_id), "--all")
    assert code == 1 and "there is no insight" in err
    assert "nothing in memory matches" in cli("recall", "tokens debug output", "--all")[1]


def test_bad_input_gets_a_clear_error(cli):
    code, _, err = cli("remember", "pain_point security extreme: x", "--repo", "acme/api")
    assert code == 2 and "severity 'extreme'" in err
    code, _, err = cli("forget", "yesterday", "--repo", "acme/api")
    assert code == 2 and "needs an id" in err
    code, _, err = cli("import-letters", "/nonexistent/path", "--repo", "acme/api")
    assert code == 2 and err.startswith("memfix: ")


def test_a_decision_from_the_shell_is_the_comment_commands_and_the_next_run_follows_it(cli, tmp_path):
    checkout = tmp_path / "sample"
    (checkout / "tests").mkdir(parents=True)
    (checkout / "app.py").write_text('print(f"hello")\n')
    (checkout / "ruff.toml").write_text("line-length = 88\n")  # the team runs ruff at its defaults
    (checkout / "tests" / "test_app.py").write_text('print(f"test")\n')
    repo = "local/sample"

    code, out, _ = cli("remember", "decision hold F541 in tests/**", "--repo", repo)
    assert code == 0 and "memfix will not propose F541 fixes in `tests/**` of this repository" in out
    [decision] = re.findall(r"decision `insight:(\d+)`", out)
    code, out, _ = cli("autofix", str(checkout))
    assert code == 0 and "F541 held back in `tests/**` (asked by @local)" in out and f"insight:{decision}" in out
    assert "app.py  confidence" in out and "tests/test_app.py  confidence" not in out  # held there, fixed elsewhere

    code, out, _ = cli("remember", "decision hold F541", "--repo", repo)
    code, out, _ = cli("autofix", str(checkout), "--json")
    report = json.loads(out)
    assert report["findings"] == [] and report["outcomes"] == []  # held everywhere: not even looked for
    assert any("F541 held back (asked by @local)" in line for line in report["learnings_used"])

    code, out, _ = cli("remember", "decision enable F541", "--repo", repo)
    assert code == 0 and "memfix will propose F541 fixes in this repository again" in out
    assert out.count("lifted hold") == 2
    code, out, _ = cli("autofix", str(checkout), "--apply")
    assert code == 0 and "held back" not in out and "Applied 2 verified patch(es)" in out
    assert (checkout / "tests" / "test_app.py").read_text() == 'print("test")\n'
    code, _, err = cli("remember", "decision hold F541", "--repo", str(checkout))  # a folder, not its memory's name
    assert code == 0 and f"runs of the folder {checkout} are filed under {repo}: --repo {repo}" in err


@pytest.mark.parametrize("text, problem", [
    ("decision hold F999", "F999 is not a rule of the linters memfix runs"),
    ("decision hold banana", "`banana` is not a rule; a rule is named as its tool names it: `F401`"),
    ("decision hold pylint:unused-import", "pylint's rules are named by their message id (`pylint:C0414`"),
    ("decision hold eslint:import", "eslint:import is not a rule of the linters memfix runs"),
    ("decision hold F541 in ../elsewhere/**", "is not a repository path pattern"),
    ("decision hold F541 in kind:views", "kind:views is not a kind of place"),
    ("decision hold F541 in tests/ **", "a decision reads `decision hold|enable CODES [in PLACE]`"),
    ("decision enable", "a decision reads"),
])
def test_a_decision_that_cannot_be_says_why_and_saves_nothing(cli, text, problem):
    code, out, err = cli("remember", text, "--repo", "local/sample")
    assert (code, out) == (2, "") and problem in err
    assert "nothing in memory" in cli("recall", "F541 F999 banana decision", "--repo", "local/sample")[1]


def test_import_letters_and_recall_the_entry(cli, tmp_path):
    memory = tmp_path / ".memory"
    memory.mkdir()
    (memory / "letter_20240301_q1x9.md").write_text("---\ntags: [oncall]\n---\n# Pager rotation\nWeekly.\n")
    (memory / "letter_broken.md").write_text("# misnamed\n")
    code, out, _ = cli("import-letters", str(tmp_path), "--repo", "acme/api")
    assert code == 0 and "1 created" in out and "1 skipped" in out and "letter_broken.md" in out
    [line] = cli("recall", "pager rotation", "--repo", "acme/api")[1].splitlines()
    assert line.startswith("entry:") and line.endswith("Pager rotation")


def test_ring_and_reembed(cli, monkeypatch, model_server):
    assert "no history yet" in cli("ring", "acme/api")[1]
    code, _, err = cli("reembed")
    assert code == 2 and "MEMFIX_EMBEDDINGS" in err
    cli("remember", "decision testing: Use a fake GitHub server", "--repo", "acme/api")  # stored without a vector
    monkeypatch.setenv("MEMFIX_EMBEDDINGS", "local")
    monkeypatch.setenv("MEMFIX_EMBEDDING_BASE_URL", model_server.openai_url)
    code, out, _ = cli("reembed")
    assert code == 0 and "1 insight(s) embedded with local:" in out


def test_symlinks_are_never_followed_and_never_abort_the_run(cli, tmp_path):
    outside = tmp_path / "secrets"
    outside.mkdir()
    (outside / ".env").write_text("AWS_SECRET_ACCESS_KEY = 'hunter2-not-a-finding'\nimport os\n")
    checkout = tmp_path / "checkout"
    (checkout / "pkg").mkdir(parents=True)
    (checkout / ".git").mkdir()
    (checkout / "pkg" / "real.py").write_text("import os\nimport sys\n\nprint(sys.argv)\n")
    (checkout / "ruff.toml").write_text("line-length = 88\n")  # the team runs ruff at its defaults
    (checkout / "pkg" / "leak.py").symlink_to(outside / ".env")
    (checkout / "pkg" / "alias.py").symlink_to(checkout / "pkg" / "real.py")
    (checkout / "linked").symlink_to(outside, target_is_directory=True)

    code, out, _ = cli("autofix", str(checkout), "--json", "--apply")
    report = json.loads(out)
    assert code == 0 and "hunter2" not in out
    assert {o["path"] for o in report["outcomes"]} == {"pkg/real.py"}
    assert [o["status"] for o in report["outcomes"]] == ["PROMOTED"]
    assert sum("skipped `pkg/leak.py`" in n for n in report["notes"]) == 1
    assert sum("skipped `pkg/alias.py`" in n for n in report["notes"]) == 1
    assert "import os" not in (checkout / "pkg" / "real.py").read_text()  # the rest of the run went on
    assert (outside / ".env").read_text().startswith("AWS_SECRET")  # nothing written through a link

    code, out, _ = cli("autofix", str(checkout / "pkg" / "leak.py"))  # one file: its repository's checkout
    assert code == 0 and "hunter2" not in out and "note: skipped `pkg/leak.py`" in out


def test_a_binary_or_undecodable_file_is_said_once_as_what_it_is_and_the_run_goes_on(cli, tmp_path):
    (tmp_path / "good.py").write_text("import os\nx = 1\n")
    (tmp_path / "ruff.toml").write_text("line-length = 88\n")  # the team runs ruff at its defaults
    (tmp_path / "nul_in_string.py").write_bytes(b'import sys\nx = "\x00"\n')  # fixable F401 beside the NUL
    (tmp_path / "nul_in_code.py").write_bytes(b"x = 1 \x00 2\n")  # the linter's message quotes the NUL
    (tmp_path / "latin.py").write_bytes(b"import re\nname = '\xe9t\xe9'\n")  # Latin-1, not UTF-8
    code, out, err = cli("autofix", str(tmp_path), "--json")
    report = json.loads(out)
    assert code == 0 and "\\u0000" not in out  # no NUL reached the output: the tool's words are escaped
    outcomes = {o["path"]: o for o in report["outcomes"]}
    assert outcomes["good.py"]["status"] == "PROMOTED"  # the other files' fixes go ahead
    assert outcomes["nul_in_string.py"]["note"] == "binary (it contains a NUL byte): left as it is"
    assert "\\x00" in outcomes["nul_in_code.py"]["note"]
    assert "latin.py" not in outcomes and not [f for f in report["findings"] if f["path"] == "latin.py"]
    assert [n for n in report["notes"] if "latin.py" in n] == [
        "skipped `latin.py`: its linter could not read it (stream did not contain valid UTF-8)"]
    code, out, _ = cli("recall", "stream did not contain valid UTF-8", "--repo", report["repository"])
    assert "E902" not in out  # nothing a model could fix, nothing to remember


def test_a_file_the_linter_crashes_on_is_said_once_and_the_other_files_are_fixed(cli, tmp_path):
    (tmp_path / "deep.py").write_text("x = " + "+".join(["1"] * 200_000) + "\n")  # ruff's parser overflows its stack
    (tmp_path / "ruff.toml").write_text("line-length = 88\n")  # the team runs ruff at its defaults
    for name in ("a.py", "b.py", "c.py"):
        (tmp_path / name).write_text("import os\n")
    code, out, _ = cli("autofix", str(tmp_path), "--json")
    report = json.loads(out)
    assert code == 0 and sorted(o["path"] for o in report["outcomes"] if o["status"] == "PROMOTED") == [
        "a.py", "b.py", "c.py"]
    [said] = [n for n in report["notes"] if "deep.py" in n]
    assert said.startswith("skipped `deep.py`: its linter could not read it (ruff stopped on it: ")


def test_text_output_shows_numbered_diffs_folded_never_cut_and_why_a_file_is_unfixed(cli, tmp_path):
    (tmp_path / "many.py").write_text("import os\nimport sys\nimport json\nimport re\n\nprint(f'x')\n")
    (tmp_path / "ruff.toml").write_text("line-length = 88\n")  # the team runs ruff at its defaults
    (tmp_path / "bare.py").write_text("try:\n    x = 1\nexcept:\n    x = 2\n")
    code, out, _ = cli("autofix", str(tmp_path), "--diff-lines", "4")
    assert code == 0
    assert "target: Python 3.7+ (nothing in the repository says) — assumed" in out
    assert "--- a/many.py" in out and "@@ -1," in out  # line numbers in the hunk header
    assert "more lines (--diff-lines N, or --json for all)" in out
    assert "confidence: 1.00 checks × 0.85 (F401: medium risk)" in out
    assert "bare.py  [E722]  no safe fix (offline: no model configured)" in out
    _, out, _ = cli("autofix", str(tmp_path), "--json")
    [many] = [o for o in json.loads(out)["outcomes"] if o["path"] == "many.py"]
    assert many["unified_diff"][0] == "--- a/many.py" and many["checks"]["public_surface"] is True
    assert many["why"].endswith("= 0.85")


def test_the_readme_memory_example_runs_as_written_and_a_second_run_says_what_it_remembered(cli, monkeypatch):
    import re
    import shlex
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    monkeypatch.chdir(root)
    readme = root.joinpath("README.md").read_text(encoding="utf-8")
    recall = shlex.split(re.search(r"`(?:\.venv/bin/)?memfix (recall [^`]+)`", readme)[1])
    code, first, _ = cli("autofix", "samples/shop")  # `make run`
    assert code == 0 and "First run of local/shop in memory" in first
    assert "`memfix recall QUERY --repo local/shop`" in first
    code, second, _ = cli("autofix", "samples/shop")
    assert code == 0 and re.search(r"Remembered from run \d+ \(.*\) of local/shop: 13 finding\(s\), \d verified",
                                   second)
    assert re.search(r"This run: (\d+) of \1 insight\(s\) were already known", second)
    code, out, _ = cli(*recall)
    assert code == 0 and "F401" in out and "nothing in memory" not in out
    code, out, _ = cli("recall", "F401", "--repo", "samples/shop")  # the folder, not the name: says which name
    assert "filed under local/shop: --repo local/shop" in out


def test_a_checkout_with_python_and_typescript_gets_one_run_per_language(cli, tmp_path):
    (tmp_path / "app.py").write_text('import os\nprint(f"hi")\n')
    (tmp_path / "ruff.toml").write_text("line-length = 88\n")  # the team runs ruff and Biome at their defaults
    (tmp_path / "biome.json").write_text('{"linter": {"rules": {"recommended": true}}}\n')
    (tmp_path / "web").mkdir()
    (tmp_path / "web" / "first.ts").write_text("export function first(xs: number[]): number {\n"
                                               "  outer: for (const x of xs) {\n    return x;\n  }\n  return -1;\n}\n")

    code, out, _ = cli("autofix", str(tmp_path), "--json")
    runs = json.loads(out)
    assert code == 0 and [r["language"] for r in runs] == ["python", "javascript"]
    assert [o["path"] for o in runs[1]["outcomes"]] == ["web/first.ts"]
    assert runs[1]["outcomes"][0]["status"] == "PROMOTED"

    code, out, _ = cli("autofix", str(tmp_path), "--language", "javascript", "--apply")
    assert code == 0 and "lint/correctness/noUnusedLabels" in out and "app.py" not in out
    assert "outer:" not in (tmp_path / "web" / "first.ts").read_text()
    assert "import os" in (tmp_path / "app.py").read_text()  # the Python run was not asked for

    # The JavaScript run remembers the JavaScript run before it, never the Python run between them.
    code, out, _ = cli("autofix", str(tmp_path), "--json")
    again = json.loads(out)
    assert code == 0 and [r["language"] for r in again] == ["python", "javascript"]
    [said] = [line for line in again[1]["remembered"] if line.startswith("Remembered from run")]
    assert said.startswith(f"Remembered from run {runs[1]['run_id'] + 1} ")  # the --language javascript run


def test_one_nested_file_is_run_in_its_repository_with_the_repositorys_configuration(cli, tmp_path):
    """`memfix autofix pkg/sub/mod.py` reads the team's linter settings and the Python it supports from the
    repository root, as a push does, and touches only that file."""
    (tmp_path / ".git").mkdir()
    (tmp_path / "pyproject.toml").write_text('[project]\nrequires-python = ">=3.10"\n'
                                             '[tool.ruff.lint]\nextend-select = ["UP"]\n')
    (tmp_path / "pkg" / "sub").mkdir(parents=True)
    (tmp_path / "pkg" / "sub" / "mod.py").write_text("from typing import Optional\n\n\n"
                                                     "def f(x: Optional[int]) -> None:\n    pass\n")
    (tmp_path / "pkg" / "other.py").write_text("import os\n")
    code, out, _ = cli("autofix", str(tmp_path / "pkg" / "sub" / "mod.py"), "--json")
    report = json.loads(out)
    assert code == 0 and "Python 3.10+" in report["target"]
    assert {f["path"] for f in report["findings"]} == {"pkg/sub/mod.py"}
    assert "UP045" in {f["code"] for f in report["findings"]} or "UP007" in {f["code"] for f in report["findings"]}
    assert report["rules"]["origins"]["UP"] == "[tool.ruff] in pyproject.toml"


def test_rules_named_on_the_command_line_replace_the_teams_selection(cli, tmp_path):
    (tmp_path / "app.py").write_text("import os\n\n\ndef f(x):\n    if x:\n        return 1\n    else:\n"
                                     "        return 2\n")
    code, out, _ = cli("refactor", str(tmp_path), "--json")
    report = json.loads(out)
    assert code == 0 and report["findings"] == [] and any("It could do:" in n for n in report["notes"])
    code, out, _ = cli("refactor", str(tmp_path), "--json", "--rules", "ret")
    report = json.loads(out)
    assert [f["code"] for f in report["findings"]] == ["RET505"] and report["rules"]["origins"] == {"RET": "a person"}


def test_a_partly_fixed_file_shows_what_is_left_in_it_and_why(cli, tmp_path):
    (tmp_path / "app.py").write_text("import os\n\n\ndef f():\n    unused = 1\n    return 2\n")
    (tmp_path / "ruff.toml").write_text("line-length = 88\n")  # the team runs ruff at its defaults
    code, out, _ = cli("autofix", str(tmp_path))
    assert code == 0 and "app.py  confidence" in out
    assert "left: line 5 F841 Local variable `unused` is assigned to but never used" in out


def test_rules_are_named_as_their_tools_name_them(cli, tmp_path):
    """`--rules` takes ruff's codes in any case and with their tool, and JavaScript's names exactly as written: each
    language proposes its own of them, and says when none is its."""
    (tmp_path / "app.py").write_text("def f(x):\n    if x:\n        return 1\n    else:\n        return 2\n")
    (tmp_path / "app.js").write_text("let total = 1;\nconsole.log(total);\n")
    code, out, _ = cli("refactor", str(tmp_path), "--json", "--rules", "ruff:ret, lint/style/useConst")
    reports = {r["language"]: r for r in json.loads(out)}
    assert code == 0 and [f["code"] for f in reports["python"]["findings"]] == ["RET505"]
    assert reports["python"]["rules"]["selected"] == ["RET"]
    assert reports["javascript"]["rules"]["selected"] == ["lint/style/useConst"]
    assert reports["javascript"]["rules"]["origins"] == {"lint/style/useConst": "a person"}
    code, out, _ = cli("refactor", str(tmp_path / "app.py"), "--json", "--rules", "eslint:indent")
    report = json.loads(out)
    assert code == 0 and report["rules"]["selected"] == [] and report["findings"] == []
    assert report["rules"]["chosen_by"] == "the rules a person named (eslint:indent), none of them Python's"


@pytest.mark.parametrize("rules, said", [
    ("UP,banana:x", "`banana:x` is not a rule (memfix names no rules of `banana`)"),
    ("pylint:no-else-return", "pylint's rules are named by their message id"),
    ("lint/Style/useConst", "`lint/Style/useConst` is not a rule; a rule is named as its tool names it"),
])
def test_a_rule_no_tool_names_is_refused_before_anything_runs(cli, tmp_path, capsys, rules, said):
    (tmp_path / "app.py").write_text("import os\n")
    with pytest.raises(SystemExit) as exit_:  # argparse's own refusal of a bad value, with its usage line
        cli("autofix", str(tmp_path), "--rules", rules)
    out, err = capsys.readouterr()
    assert (exit_.value.code, out) == (2, "") and "argument --rules: " in err and said in err
    assert "`eslint:indent`" in err


def test_decisions_name_rules_as_their_tools_do(cli):
    code, out, _ = cli("remember", "decision hold ruff:f541", "--repo", "local/named")
    assert code == 0 and "memfix will not propose F541 fixes in this repository" in out
    code, out, _ = cli("remember", "decision hold lint/style/useConst, eslint:indent in tests/**", "--repo",
                       "local/named")
    assert code == 0 and "will not propose biome:lint/style/useConst, eslint:indent fixes in `tests/**` of" in out
    assert "`/remember decision enable eslint:indent in tests/**`" in out
    code, out, _ = cli("remember", "decision enable biome:lint/style/useConst in tests/**", "--repo", "local/named")
    assert code == 0 and "lifted hold" in out
    code, out, _ = cli("remember", "decision hold * in vendor/**", "--repo", "local/named")  # as the README says
    assert code == 0 and "memfix will not propose * fixes in `vendor/**`" in out


def test_a_file_the_teams_configuration_excludes_is_said_as_excluded_not_as_clean(cli, tmp_path):
    (tmp_path / "ruff.toml").write_text('extend-exclude = ["legacy"]\n')  # the team's ruff never checks legacy/
    (tmp_path / "legacy").mkdir()
    (tmp_path / "legacy" / "gen.py").write_text("import os\n")
    (tmp_path / "app.py").write_text("import sys\n")
    code, out, _ = cli("autofix", str(tmp_path / "legacy" / "gen.py"))
    assert code == 0 and "not checked, as the team's configuration excludes them" in out
    assert "1 file(s): legacy/gen.py (`legacy`)" in out
    code, out, _ = cli("autofix", str(tmp_path))  # the whole tree: the excluded file said, the other fixed
    assert code == 0 and "legacy/gen.py (`legacy`)" in out and "app.py  confidence" in out


def test_an_interrupted_run_says_it_was_interrupted_even_where_marking_the_run_failed_fails_too(cli, tmp_path,
                                                                                               monkeypatch):
    """Ctrl-C cuts a query short, and the query that marks the run failed then fails too: the command still says it
    was interrupted (130), not that query's error with a traceback."""
    import psycopg

    from core.pipelines.runner import PipelineRunner
    from core.pipelines.runs import RunLog

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    def cut_short(*args, **kwargs):
        raise psycopg.OperationalError("the connection is lost")

    (tmp_path / "a.py").write_text("import os\n")
    monkeypatch.setattr(PipelineRunner, "_fix_files", interrupted)
    monkeypatch.setattr(RunLog, "fail", cut_short)
    code, _, err = cli("autofix", str(tmp_path))
    assert code == 130 and "interrupted" in err
