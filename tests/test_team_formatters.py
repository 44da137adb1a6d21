"""The team's formatters — Prettier, black — at the versions the repository pins, with its configuration, in the
sandbox (installed from the fake registries serving the real packages): each stretch a formatter would rewrite is a
finding of its own (`prettier:format`, `black:format`) whose fix is the formatter's own rewrite, made after the
linter's fixes and judged by formatting again; a push gets the stretches it brought, not the file's others."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.languages.formatter import Formatted
from core.languages.python.language import Python
from core.languages.python.ruff import Ruff
from core.pipelines.config import RepoConfig
from core.tools.install import ToolCache
from core.tools.toolbox import Toolbox

BLACK_HOOK = "repos:\n- repo: https://github.com/psf/black\n  rev: 24.10.0\n  hooks:\n  - id: black\n"
ESLINT9 = {"eslint": "9.17.0", "@eslint/js": "9.17.0", "globals": "15.14.0"}
FLAT = ("const js = require('@eslint/js')\nmodule.exports = [js.configs.recommended, { languageOptions: "
        "{ sourceType: 'commonjs' }, rules: { 'no-var': 'error' } }]\n")


@pytest.fixture
def team_tools(monkeypatch, wheelhouse_index, npmhouse_registry, npm_tools):
    monkeypatch.setenv("MEMFIX_TEAM_TOOLS", "true")
    monkeypatch.setenv("MEMFIX_PYPI_INDEX", wheelhouse_index.index)
    monkeypatch.setenv("MEMFIX_NPM_REGISTRY", npmhouse_registry.url)
    monkeypatch.setenv("MEMFIX_TOOL_CACHE", str(npm_tools.root))


def _tree(folder: Path, files: dict[str, str]) -> Path:
    for path, text in files.items():
        (folder / path).parent.mkdir(parents=True, exist_ok=True)
        (folder / path).write_text(text)
    return folder


def test_the_teams_eslint_fixes_then_the_teams_prettier_formats_and_each_judges_its_own(cli, team_tools, tmp_path):
    tree = _tree(tmp_path / "repo", {
        "package.json": json.dumps({"name": "web", "engines": {"node": ">=18"},
                                    "devDependencies": {**ESLINT9, "prettier": "3.3.3"}}),
        "eslint.config.js": FLAT, ".prettierrc": json.dumps({"singleQuote": True, "semi": False}),
        ".prettierignore": "eslint.config.js\n",  # the team's ignores are Prettier's to read
        "src/a.js": "var total = {a:1}\nmodule.exports = total\n"})
    code, out, err = cli("autofix", str(tree), "--json", "--apply")
    assert code == 0, err
    report = json.loads(out)
    assert sorted((f["path"], f["line"], f["code"]) for f in report["findings"]) == [
        ("src/a.js", 1, "eslint:no-var"), ("src/a.js", 1, "prettier:format")]
    assert any("formats: the team's Prettier 3.3.3" in line for line in report["project"]), report["project"]
    [outcome] = report["outcomes"]
    assert outcome["status"] == "PROMOTED", outcome
    # ESLint's `var` → `let` (the team's config has no prefer-const), then Prettier's layout, as `eslint --fix &&
    # prettier --write` leaves the file
    assert (tree / "src/a.js").read_text() == "let total = { a: 1 }\nmodule.exports = total\n"


def test_the_teams_black_formats_the_stretches_a_fix_targets_and_judges_them(cli, team_tools, tmp_path):
    tree = _tree(tmp_path / "repo", {".pre-commit-config.yaml": BLACK_HOOK, "pyproject.toml": "[tool.black]\n",
                                     "app/a.py": "x = {'a':1}\n\n\n\ndef f():\n    return x\n"})
    code, out, err = cli("autofix", str(tree), "--json", "--apply")
    assert code == 0, err
    report = json.loads(out)
    formats = sorted(f["line"] for f in report["findings"] if f["code"] == "black:format")
    assert formats and formats[0] == 1  # the dict's layout (and one blank line too many, with it or apart)
    assert (tree / "app/a.py").read_text() == 'x = {"a": 1}\n\n\ndef f():\n    return x\n'


def test_a_black_hook_left_beside_the_teams_ruff_format_is_not_the_teams_formatter(cli, team_tools, tmp_path):
    """The team moved to `ruff format` in its CI and left the old black hook in pre-commit: black's layout is not
    the team's, so memfix proposes none of it and says why."""
    workflow = "jobs:\n  lint:\n    steps:\n    - run: ruff format --check .\n"
    tree = _tree(tmp_path / "repo", {".pre-commit-config.yaml": BLACK_HOOK, "pyproject.toml": "[tool.ruff]\n",
                                     ".github/workflows/ci.yml": workflow,
                                     "app/a.py": "x = {'a':1}\n\n\n\ndef f():\n    return x\n"})
    code, out, err = cli("autofix", str(tree), "--json")
    assert code == 0, err
    report = json.loads(out)
    assert not [f for f in report["findings"] if f["code"] == "black:format"]
    assert any("the team formats with `ruff format` (.github/workflows/ci.yml)" in line
               for line in report["config_problems"] + report["notes"] + report.get("project", [])), report


def test_where_a_team_formats_with_ruff_is_read_from_its_steps_hooks_and_table():
    from core.languages.python.language import formats_with_ruff

    def where(files):
        return formats_with_ruff(files.get)

    assert where({".github/workflows/lint.yml": "steps:\n- run: uv run ruff format --check src\n"}) == \
        ".github/workflows/lint.yml"
    assert where({".pre-commit-config.yaml": "repos:\n- hooks:\n  - id: ruff-format\n"}) == ".pre-commit-config.yaml"
    assert where({"pyproject.toml": "[tool.ruff.format]\nquote-style = 'single'\n"}) == "pyproject.toml"
    assert where({"tox.ini": "[testenv:lint]\ncommands = ruff check --output-format github .\n"}) is None
    assert where({".pre-commit-config.yaml": BLACK_HOOK}) is None


def test_a_push_gets_only_the_stretches_it_brought(team_tools, wheelhouse_index, npm_tools, tmp_path):
    """The formatter's finding on a stretch a push did not touch is not the push's: the brought findings are."""
    from core.pipelines.brought import brought

    before = "x = {'a':1}\n\n\ndef f():\n    return x\n"
    after = before + "\n\ny = [1,2]\n"
    tree = _tree(tmp_path / "repo", {".pre-commit-config.yaml": BLACK_HOOK, "app/a.py": after})
    toolbox = Toolbox(ToolCache(npm_tools.root, pypi_index=wheelhouse_index.index))  # where the sandbox reaches
    files = {".pre-commit-config.yaml": BLACK_HOOK}
    project = Python(Ruff(), toolbox).project(files.get, RepoConfig(), "autofix", ("app/a.py",))
    linter = project.linter()
    assert isinstance(linter, Formatted)
    found = [f for f in linter.check(tree, ["app/a.py"], project.selection.rules) if f.code == "black:format"]
    new, _ = brought(linter, found, lambda p: before, project.selection.rules)
    assert [f.line for f in found] == [1, 8] and [f.line for f in new] == [8]


HOOKS = """repos:
- repo: https://github.com/asottile/pyupgrade
  rev: v3.17.0
  hooks:
  - id: pyupgrade
    args: [--py38-plus]
- repo: https://github.com/pycqa/isort
  rev: 5.13.2
  hooks:
  - id: isort
"""


def test_the_teams_pre_commit_hooks_rewrite_as_their_hooks_do_in_place_of_memfixs_reading_of_them(cli, team_tools,
                                                                                                   tmp_path):
    """pyupgrade and isort run as the team's hooks run them (their `args`), each finding its own; the ruff rules
    memfix reads them as (UP, I) are not proposed beside them."""
    source = 'import sys\nimport os\n\ny = 1\nx = "{}".format(y)\nprint(sys, os, x)\n'
    tree = _tree(tmp_path / "repo", {".pre-commit-config.yaml": HOOKS, "app/a.py": source})
    code, out, err = cli("autofix", str(tree), "--json", "--apply")
    assert code == 0, err
    report = json.loads(out)
    codes = sorted({f["code"] for f in report["findings"]})
    assert codes == ["isort:rewrite", "pyupgrade:rewrite"], codes
    assert any("rewrites as its hook does (--py38-plus): the team's pyupgrade 3.17.0" in line
               for line in report["project"]), report["project"]
    fixed = (tree / "app/a.py").read_text()
    assert fixed.startswith("import os\nimport sys\n") and 'x = f"{y}"' in fixed, fixed


PYLINTED = 'def F():\n    print("x")\n    return None\n'  # C0103 pylint's alone; R1711 ruff fixes too


def test_the_teams_pylint_finds_and_judges_its_rules_and_a_ruff_fixes_what_it_can(cli, team_tools, monkeypatch,
                                                                                 tmp_path):
    tree = _tree(tmp_path / "repo", {
        "requirements-dev.txt": "pylint==3.3.1\n",
        "pyproject.toml": '[tool.pylint."messages control"]\ndisable = ["C0114", "C0116"]\n', "app/a.py": PYLINTED})
    code, out, err = cli("autofix", str(tree), "--json", "--apply")
    assert code == 0, err
    report = json.loads(out)
    pylints = sorted(f["code"] for f in report["findings"] if f["code"].startswith("PL"))
    assert pylints == ["PLC0103", "PLR1711"], report["findings"]  # its disables kept; invalid-name only pylint has
    assert any("the team's pylint 3.3.1" in line for line in report["project"]), report["project"]
    assert (tree / "app/a.py").read_text() == 'def F():\n    print("x")\n'  # ruff's fix, judged by pylint

    monkeypatch.setenv("MEMFIX_TEAM_TOOLS", "false")  # memfix's reading: ruff's PL rules, which lack invalid-name
    (tree / "app/a.py").write_text(PYLINTED)
    code, out, err = cli("autofix", str(tree), "--json")
    assert "PLC0103" not in {f["code"] for f in json.loads(out)["findings"]}
