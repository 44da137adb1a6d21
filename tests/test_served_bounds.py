"""What anyone who can put a file in a repository could do to a worker, each kind through a real `memfix serve` and the
fake GitHub in processes of their own: a YAML value no parser can make, a file a tool crashes on, configuration values
shaped as globs outside the checkout or as flags. Each job finishes, says what it left and why, and the other files'
and the other language's PRs go out."""

from __future__ import annotations

import pytest

from tests.fakes import payloads as P

REPO = "acme/api"
PYTHON = "import os\n\n\ndef greet(name):\n    return 'hello ' + name\n"
ZERO = "export function isZero(x) {\n  return x === -0;\n}\n"  # ESLint's no-compare-neg-zero: Biome's safe fix
ESLINT = '{"rules": {"no-compare-neg-zero": "error"}}'
# Every YAML file memfix reads from a repository, each with the same line in it.
YAML_FILES = {".github/memfix.yml": "max_prs: 3\n{line}\n", ".pre-commit-config.yaml": "repos: []\n{line}\n",
              ".github/workflows/ci.yml": "on: push\n{line}\njobs: {{}}\n",
              ".travis.yml": "language: node_js\n{line}\n",
              ".memory/letter_20240301_ab12.md": "---\ntags: [a]\n{line}\n---\n# A letter\nBody\n"}


def _push(served, tenant_id: int, files: dict[str, str]) -> str:
    gh = served.github
    base = gh.add_repo(REPO, {"README.md": "# api\n"})
    after = gh.push(REPO, "main", files)
    assert served.post("push", P.push(installation=tenant_id, repo=REPO, before=base, after=after,
                                      commits=[{"added": sorted(files), "modified": [], "removed": []}])) == 202
    served.wait_idle()
    return after


def _proposed(gh) -> set[str]:
    return {f for pr in gh.pulls(REPO) for f in _files(pr)}


def _files(pr: dict) -> list[str]:
    return [line.split("`")[1] for line in pr["body"].splitlines() if line.startswith("Fixes") and "`" in line] or \
        [pr["title"].rsplit(" in ", 1)[-1].strip("`")]


@pytest.mark.parametrize("line", ["x: 2001-13-45", "x: !!float abc"], ids=["impossible date", "untaggable value"])
def test_a_yaml_value_no_parser_can_make_in_any_yaml_file_leaves_both_languages_prs(served, tenant_id, line):
    files = {name: text.format(line=line) for name, text in YAML_FILES.items()}
    # the team's ESLint configuration in YAML too where it can be read (a refused one is the team's rules unknown)
    eslint = {".eslintrc.yml": f"rules:\n  no-compare-neg-zero: error\n{line}\n"} if "!!" not in line else \
        {".eslintrc.json": ESLINT}
    after = _push(served, tenant_id, {**files, **eslint, "app/util.py": PYTHON, "src/zero.js": ZERO})
    gh = served.github

    heads = {pr["head"]["ref"] for pr in gh.pulls(REPO)}
    assert any(h.startswith("memfix/autofix/app-util-py-") for h in heads), heads
    assert any(h.startswith("memfix/autofix/src-zero-js-") for h in heads), heads
    said = " ".join(c["body"] for c in gh.commit_comments(REPO))
    assert "failed" not in said and "did not finish" not in said
    if "!!" in line:  # refused by name where it is read; the letter is skipped by name, the rest import
        assert ".memory/letter_20240301_ab12.md" in said
    assert "Traceback" not in served.log() and after


def test_a_yaml_value_no_parser_can_make_in_a_prs_head_leaves_autofix_on_that_pr_its_answer(served, tenant_id):
    gh = served.github
    gh.add_repo(REPO, {"README.md": "# api\n"})
    gh.push(REPO, "feature", {".eslintrc.json": ESLINT, ".github/workflows/ci.yml": "on: push\nx: !!int 0x\n",
                              ".pre-commit-config.yaml": "repos: []\nwhen: 2001-13-45\n",
                              "app/util.py": PYTHON, "src/zero.js": ZERO}, base="main")
    pr = gh.open_pull(REPO, "feature", "main", user="alice", title="A feature")
    cid = gh.add_comment(REPO, pr["number"], "/autofix", user="alice")["id"]
    assert served.post("issue_comment", P.issue_comment("/autofix", installation=tenant_id, repo=REPO,
                                                        number=pr["number"], comment_id=cid)) == 202
    served.wait_idle()

    [reply] = [c["body"] for c in gh.comments(REPO, pr["number"]) if c["user"]["login"] == "memfix[bot]"]
    assert "**AutoFix** finished" in reply and "failed" not in reply
    assert "`app/util.py`: PROMOTED" in reply and "`src/zero.js`: PROMOTED" in reply


def test_a_javascript_file_biome_crashes_on_costs_that_file_only(served, tenant_id):
    deep = "export const a = " + "[" * 1000 + "]" * 1000 + ";\n"
    _push(served, tenant_id, {".eslintrc.json": ESLINT, "src/a.js": ZERO, "src/deep.js": deep,
                              "src/b.js": ZERO.replace("isZero", "isNil"),
                              "app/util.py": PYTHON})
    heads = sorted(pr["head"]["ref"].rsplit("-", 1)[0] for pr in served.github.pulls(REPO))
    assert heads == ["memfix/autofix/app-util-py", "memfix/autofix/src-a-js", "memfix/autofix/src-b-js"]
    assert "Traceback" not in served.log()


def test_configuration_values_shaped_as_paths_outside_or_as_flags_are_refused_by_name(served, tenant_id):
    gh = served.github
    gh.add_repo(REPO, {"pyproject.toml": '[tool.ruff]\nsrc = ["/usr/**", "../.."]\nexclude = ["--select=ALL"]\n'
                                         'extend-exclude = ["/etc/**"]\n[tool.ruff.lint]\nselect = ["F"]\n',
                       "app.py": "import os\n"})
    number = gh.open_issue(REPO, "Unused imports")
    cid = gh.add_comment(REPO, number, "/autofix app.py", user="alice")["id"]
    assert served.post("issue_comment", P.issue_comment("/autofix app.py", installation=tenant_id, repo=REPO,
                                                        number=number, comment_id=cid, pull_request=False)) == 202
    served.wait_idle()

    [reply] = [c["body"] for c in gh.comments(REPO, number) if c["user"]["login"] == "memfix[bot]"]
    assert "**AutoFix** finished" in reply and "`app.py`: PROMOTED" in reply
    for said in ("'/usr/**' is not a path inside the repository", "'../..' leaves the repository",
                 "'--select=ALL' would be read as a flag", "'/etc/**' is not a path inside the repository"):
        assert said in reply, reply
