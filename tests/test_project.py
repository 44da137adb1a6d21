"""The project's Python and its team's ruff decisions, read from its files (never run), and the fixes they allow."""

from __future__ import annotations

import json

import pytest

from core.change import Patch
from core.languages.python.compat import compatibility
from core.languages.python.project import SYNTAX_RULES, find_target, read_profile
from core.languages.python.team import find_team_rules


@pytest.mark.parametrize("files, oldest, where", [
    ({"pyproject.toml": '[project]\nrequires-python = ">=3.8"\n'}, (3, 8), "requires-python '>=3.8'"),
    ({"setup.py": "from setuptools import setup\nsetup(name='x', python_requires='>=2.7, !=3.0.*, !=3.1.*')\n"},
     (2, 7), "setup.py"),
    ({"setup.cfg": "[options]\npython_requires = >=3.6\n"}, (3, 6), "setup.cfg"),
    ({"pyproject.toml": '[tool.poetry.dependencies]\npython = "^3.9"\n'}, (3, 9), "Poetry"),
    ({"setup.py": "setup(classifiers=['Programming Language :: Python :: 3.11',\n"
                  " 'Programming Language :: Python :: 3.7', 'Programming Language :: Python :: 3 :: Only'])\n"},
     (3, 7), "classifiers"),
    ({"ruff.toml": 'target-version = "py310"\n'}, (3, 10), "ruff target-version"),
    ({".python-version": "3.12.1\n"}, (3, 12), ".python-version"),
    ({}, (3, 7), "nothing in the repository says"),
])
def test_the_oldest_supported_python_is_read_from_the_repository(files, oldest, where):
    target = find_target(dict(files))
    assert target.oldest == oldest and where in target.source
    assert target.assumed == (not files)


def test_setup_py_is_read_never_run_and_the_config_overrides_everything(tmp_path):
    marker = tmp_path / "ran"
    setup = f"open({str(marker)!r}, 'w').write('x')\nsetup(python_requires='>=3.6')\n"
    assert find_target({"setup.py": setup}).oldest == (3, 6) and not marker.exists()
    target = find_target({"setup.py": setup}, override="3.9")
    assert target.oldest == (3, 9) and "memfix.yml" in target.source


def test_below_what_ruff_can_target_syntax_changing_rules_are_held_back():
    profile = read_profile({"setup.py": "setup(python_requires='>=2.7')"}.get)
    args = profile.ruff_args(("UP", "SIM"))
    assert args[:2] == ["--target-version", "py37"]
    assert next(a for a in args if a.startswith("--ignore=")).removeprefix("--ignore=").split(",") == \
        list(SYNTAX_RULES)
    assert any("not proposed for Python 2.7" in line for line in profile.describe())
    assert not any(a.startswith("--ignore") for a in read_profile(
        {"pyproject.toml": '[project]\nrequires-python=">=3.8"'}.get).ruff_args(("UP",)))


def test_the_teams_ruff_decisions_become_flags_and_asserts_in_tests_are_not_findings():
    ruff = ('[tool.ruff]\nextend-exclude = ["legacy"]\n[tool.ruff.lint]\nignore = ["E501", "B008"]\n'
            '[tool.ruff.lint.per-file-ignores]\n"__init__.py" = ["F401"]\n')
    team = find_team_rules({"pyproject.toml": ruff})
    assert team.ignore == ("E501", "B008") and team.per_file_ignores == {"__init__.py": ("F401",)}
    args = read_profile({"pyproject.toml": ruff}.get).ruff_args(("F", "S"))
    assert "--ignore=E501,B008" in args
    [table] = [a for a in args if a.startswith("--config=lint.per-file-ignores")]
    assert '"__init__.py" = ["F401"]' in table and '"tests/**" = ["S101"]' in table
    assert args[-2:] == ["--force-exclude", "--extend-exclude=legacy"]
    asked = read_profile({}.get).ruff_args(("S101",))  # the repository selected asserts itself
    assert not any(a.startswith("--config") for a in asked)


def _patch(before: str, after: str) -> Patch:
    return Patch("pkg/mod.py", before, after, (), "ruff")


@pytest.mark.parametrize("before, after, oldest, problem", [
    ("from typing import Optional\ndef f(x: Optional[int]): ...\n", "def f(x: int | None): ...\n", (3, 9), "X | Y"),
    ("from typing import List\nX: List[int] = []\n", "X: list[int] = []\n", (3, 8), "generics"),
    ("def f():\n    pass\n", "def f():\n    if (n := 1):\n        pass\n", (3, 7), "not valid Python 3.7"),
    ("from __future__ import annotations\ndef f(x: 'int'): ...\n",
     "from __future__ import annotations\ndef f(x: int | None): ...\n", (3, 8), None),
    ("def f():\n    y: 'int' = 1\n", "def f():\n    y: int | None = 1\n", (3, 8), None),  # never evaluated
    ("x = '{}'.format(1)\n", "x = f'{1}'\n", (3, 7), None),
    ("def f(x: Optional[int]): ...\n", "def f(x: int | None): ...\n", (3, 10), None),
])
def test_a_patch_must_work_on_the_oldest_supported_python(before, after, oldest, problem):
    error = compatibility(_patch(before, after), oldest, max(oldest, (3, 7)))
    assert (error is None) if problem is None else (problem in error)


# ---- on real files, through the CLI ----

PY27 = {"setup.py": "from setuptools import setup\nsetup(name='old', python_requires='>=2.7, !=3.0.*')\n",
        "old/core.py": "class A(object):\n    def __init__(self):\n        super(A, self).__init__()\n"
                       "        self.name = '{}'.format(1)\n"}
PY37 = {"setup.cfg": "[options]\npython_requires = >=3.7\n",
        "new/clock.py": "from datetime import datetime, timezone\nimport socket\n\n\ndef now():\n"
                        "    return datetime.now(timezone.utc)\n\n\ndef slow(e):\n"
                        "    return isinstance(e, socket.timeout)\n",
        "tests/test_clock.py": "from new.clock import now\n\n\ndef test_now():\n    assert now()\n"}


def _run(cli, tmp_path, files: dict[str, str], pipeline: str) -> dict:
    root = tmp_path / pipeline
    for path, text in files.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text)
    code, out, _ = cli(pipeline, str(root), "--json")
    assert code == 0
    return json.loads(out)


def test_a_python_27_project_gets_no_rewrite_its_python_lacks(cli, tmp_path):
    report = _run(cli, tmp_path, PY27, "refactor")
    assert "Python 2.7+" in report["target"]
    assert not [f for f in report["findings"] if f["code"].startswith("UP")]
    assert [o for o in report["outcomes"] if o["status"] == "PROMOTED"] == []


def test_a_python_37_project_keeps_its_apis_and_its_test_asserts(cli, tmp_path):
    refactor = _run(cli, tmp_path, PY37, "refactor")
    assert "Python 3.7+" in refactor["target"] and "setup.cfg" in refactor["target"]
    assert {f["code"] for f in refactor["findings"]} & {"UP017", "UP041"} == set()  # no datetime.UTC, TimeoutError
    autofix = _run(cli, tmp_path, PY37, "autofix")
    assert "S101" not in {f["code"] for f in autofix["findings"]}


# ---- the team's rules first ----

def _profile(files: dict[str, str]):
    from core.languages.python.project import read_profile

    return read_profile(lambda name: files.get(name))


def test_autofix_proposes_every_rule_the_team_selected_and_refactor_only_its_kinds_among_them():
    from core.pipelines.config import REFACTOR_RULES

    profile = _profile({"pyproject.toml": '[tool.ruff.lint]\nselect = ["B", "E", "F", "I", "UP", "W", "ICN"]\n'})
    refactor = profile.selection(None, REFACTOR_RULES)
    assert refactor.rules == ("UP",)  # no SIM, RET, PIE, C4, FURB: the team never chose them
    assert refactor.chosen_by.startswith("the rules [tool.ruff] in pyproject.toml selects (B, E, F, I, UP, W, ICN)")
    autofix = profile.selection(None)
    assert autofix.rules == ("B", "E", "F", "I", "UP", "W", "ICN")  # style included, none of memfix's own (S)
    assert autofix.origin("I001") == "[tool.ruff] in pyproject.toml"


def test_a_ruff_configuration_that_selects_nothing_means_ruffs_own_defaults():
    from core.pipelines.config import REFACTOR_RULES

    profile = _profile({"ruff.toml": "line-length = 100\n"})
    refactor = profile.selection(None, REFACTOR_RULES)
    assert refactor.rules == () and refactor.could == REFACTOR_RULES  # surveyed, never proposed
    assert profile.selection(None).rules == ("E4", "E7", "E9", "F")


def test_with_no_linter_anywhere_autofix_proposes_nothing_and_surveys_the_defaults_every_linter_shares():
    profile = _profile({"setup.py": "from setuptools import setup\nsetup(name='x')\n"})
    autofix = profile.selection(None)
    assert autofix.rules == () and autofix.could == ("E4", "E7", "E9", "F") and not profile.team.configured
    assert "no linter is configured" in autofix.chosen_by
    extended = profile.selection(None, extend=("F401",))  # .github/memfix.yml asked for one: that one, nothing surveyed
    assert extended.rules == ("F401",) and extended.could == ()
    configured = _profile({"ruff.toml": "line-length = 100\n"}).selection(None)  # ruff configured: its defaults
    assert configured.rules == ("E4", "E7", "E9", "F") and configured.could == ()


def test_rules_a_person_names_replace_the_tools_choice():
    from core.pipelines.config import REFACTOR_RULES

    profile = _profile({"pyproject.toml": '[tool.ruff.lint]\nselect = ["E", "F"]\n'})
    named = profile.selection(("UP", "SIM"), REFACTOR_RULES)
    assert named.rules == ("UP", "SIM") and named.origin("UP006") == "a person" and named.could == ()


def test_extend_chains_and_memfix_yml_extend():
    from core.languages.registry import within
    from core.pipelines.config import REFACTOR_RULES, parse_config

    files = {"pyproject.toml": '[tool.ruff]\nextend = "config/ruff-base.toml"\n'
                               '[tool.ruff.lint]\nextend-select = ["UP"]\n',
             "config/ruff-base.toml": '[lint]\nselect = ["F", "B"]\nignore = ["B008"]\n'}
    profile = _profile(files)
    assert profile.team.select == ("F", "B", "UP") and profile.team.ignore == ("B008",)
    config, problems = parse_config("rules:\n  extend: [SIM, RET505]\n")
    assert problems == [] and config.extend_rules == ("SIM", "RET505")
    chosen = profile.selection(None, REFACTOR_RULES, within(REFACTOR_RULES, config.extend_rules))
    assert chosen.rules == ("UP", "SIM", "RET505") and chosen.extended == ("SIM", "RET505")
    assert chosen.origin("SIM102") == "`rules: extend` in .github/memfix.yml"


def test_flake8_configured_and_pylint_select_and_ignore():
    profile = _profile({"setup.cfg": "[flake8]\nselect = E,F,W,C90\nextend-ignore = E203, F811\n",
                        ".pylintrc": "[MESSAGES CONTROL]\ndisable = C0414,\n    missing-docstring\n"})
    assert profile.team.select == ("E", "F", "W", "C90", "PL")
    # flake8 keeps its own default ignores where the team only extends them
    assert profile.team.ignore == ("E121", "E123", "E126", "E226", "E24", "E704", "W503", "W504", "E203", "F811",
                                   "PLC0414")
    assert profile.team.origin("E501") == "[flake8] in setup.cfg" and profile.team.origin("PLR0913") == ".pylintrc"
    assert "B" not in profile.selection(None).rules


def test_flake8_without_select_means_its_defaults_its_default_ignores_and_every_plugin_the_team_installs():
    only_ignores = _profile({"tox.ini": "[flake8]\nmax-line-length = 100\n\n[testenv:lint]\ndeps =\n"
                                        "    flake8\n    flake8-bugbear>=23\n    pep8-naming\ncommands = flake8 src\n"})
    assert only_ignores.team.select == ("E", "F", "W", "C90", "B", "N")
    assert "W503" in only_ignores.team.ignore and "E226" in only_ignores.team.ignore
    ignoring = _profile({".flake8": "[flake8]\nignore = E501\n", "requirements-dev.txt": "flake8-comprehensions\n"})
    assert ignoring.team.select == ("E", "F", "W", "C90", "C4") and ignoring.team.ignore == ("E501",)
    not_installed = _profile({".flake8": "[flake8]\n", "README.md": "flake8-bugbear is nice"})
    assert "B" not in not_installed.team.select  # a plugin counts where it is installed, not where it is named


def test_tools_run_without_configuration_count_where_they_run():
    hooks = ("repos:\n- repo: https://github.com/PyCQA/flake8\n  rev: 7.0.0\n  hooks:\n  - id: flake8\n"
             "    additional_dependencies: [flake8-bugbear==24.1.17, flake8-simplify]\n"
             "- repo: https://github.com/asottile/pyupgrade\n  rev: v3.15.0\n  hooks:\n"
             "  - id: pyupgrade\n    args: [--py38-plus]\n"
             "- repo: https://github.com/PyCQA/isort\n  rev: 5.13.2\n  hooks:\n  - id: isort\n"
             "- repo: https://github.com/PyCQA/autoflake\n  rev: v2.2.1\n  hooks:\n  - id: autoflake\n"
             "    args: [--in-place, --remove-unused-variables]\n")
    team = _profile({".pre-commit-config.yaml": hooks}).team
    assert team.select == ("E", "F", "W", "C90", "B", "SIM", "UP", "I", "F401", "F841")
    assert team.origin("UP006") == "the pyupgrade hook in .pre-commit-config.yaml"
    assert team.origin("B009") == "flake8 by default (the flake8 hook in .pre-commit-config.yaml selects nothing)"
    ruff_hook = ("repos:\n- repo: https://github.com/astral-sh/ruff-pre-commit\n  rev: v0.4.0\n  hooks:\n"
                 "  - id: ruff\n    args: [--fix, '--extend-select=I,UP']\n")
    assert _profile({".pre-commit-config.yaml": ruff_hook}).team.select == ("I", "UP")
    pylint = _profile({"tox.ini": "[testenv:lint]\ncommands = pylint mypkg\n"}).team
    assert pylint.select == ("PL",) and pylint.origin("PLW0120") == "tox's `pylint` command in tox.ini"


def test_linters_a_ci_workflow_runs_count_with_their_command_line():
    workflow = ("name: CI\non: [push]\njobs:\n  lint:\n    runs-on: ubuntu-latest\n    steps:\n"
                "    - uses: actions/checkout@v4\n    - name: Lint\n      run: |\n"
                "        pip install flake8 flake8-bugbear\n"
                "        python -m flake8 --extend-select=B950 --extend-ignore E203 src && isort --check src\n"
                "  style:\n    runs-on: ubuntu-latest\n    steps:\n    - uses: astral-sh/ruff-action@v3\n"
                "      with:\n        args: check --select UP,SIM --ignore UP035\n")
    team = _profile({".github/workflows/ci.yml": workflow, "setup.cfg": "[flake8]\nmax-line-length = 100\n"}).team
    assert team.select == ("E", "F", "W", "C90", "B950", "I", "UP", "SIM")
    assert "E203" in team.ignore and "UP035" in team.ignore and "W503" in team.ignore
    assert team.origin("I001") == "the `isort` step in .github/workflows/ci.yml"
    assert team.origin("UP006") == "the `ruff` step in .github/workflows/ci.yml"
    assert team.origin("E501") == "flake8 by default ([flake8] in setup.cfg selects nothing)"
    # a flake8 named in a step's words, not run, chooses nothing; nor does a workflow that is not YAML
    said = _profile({".github/workflows/lint.yml": "jobs:\n  a:\n    steps:\n    - run: echo we use flake8\n",
                     ".github/workflows/test.yml": "jobs: [:\n"}).team
    assert not said.configured


def test_pyupgrade_upgrades_no_further_than_the_team_asks():
    hook = ("repos:\n- repo: https://github.com/asottile/pyupgrade\n  rev: v3.15.0\n  hooks:\n"
            "  - id: pyupgrade\n    args: [--py38-plus]\n")
    project = '[project]\nrequires-python = ">=3.10"\n'
    profile = _profile({".pre-commit-config.yaml": hook, "pyproject.toml": project})
    assert profile.target.oldest == (3, 10) and profile.target.ruff_target == "py38"
    older = _profile({".pre-commit-config.yaml": hook.replace("--py38-plus", "--py36-plus"), "pyproject.toml": project})
    assert older.target.ruff_target == "py37"  # ruff's oldest, the nearest to the team's
    newer = _profile({".pre-commit-config.yaml": hook.replace("--py38-plus", "--py312-plus"),
                      "pyproject.toml": project})
    assert newer.target.ruff_target == "py310"  # never past the project's oldest Python
    three = _profile({".pre-commit-config.yaml": hook.replace("--py38-plus", "--py3-plus"), "pyproject.toml": project})
    assert three.team.upgrade_to == (3, 0) and three.target.ruff_target == "py37"  # `--py3-plus`: Python 3 itself


def test_a_rule_chosen_through_pyupgrade_fixes_only_what_pyupgrade_would(cli, tmp_path):
    import json

    (tmp_path / ".pre-commit-config.yaml").write_text(
        "repos:\n- repo: https://github.com/asottile/pyupgrade\n  rev: v3.15.0\n  hooks:\n"
        "  - id: pyupgrade\n    args: [--py38-plus]\n")
    (tmp_path / "setup.cfg").write_text("[options]\npython_requires = >=3.8\n")
    (tmp_path / "app.py").write_text(
        "def greet(name):\n    return 'hello {}'.format(name)\n\n\n"
        "def explain(name):\n    raise ValueError(\n        'argument {} which is declared '\n"
        "        'cannot be found'.format(name),\n    )\n")
    code, out, _ = cli("autofix", str(tmp_path), "--json", "--apply")
    assert code == 0, out
    text = (tmp_path / "app.py").read_text()
    assert "f'hello {name}'" in text  # what pyupgrade itself makes of it
    assert "'cannot be found'.format(name)" in text  # pyupgrade leaves implicit concatenation alone: so does memfix
    team = _profile({".pre-commit-config.yaml": (tmp_path / ".pre-commit-config.yaml").read_text()}).team
    assert "UP040" in team.ignore and "UP032" not in team.ignore  # ruff's own UP rules, no pyupgrade's
    assert json.loads(out)["outcomes"][0]["status"] == "PROMOTED"


def test_a_team_whose_isort_chooses_i_gets_reorderings_only_and_its_isort_settings(cli, tmp_path):
    import json

    (tmp_path / "tox.ini").write_text("[testenv:isort]\ncommands = isort --check-only src\n")
    (tmp_path / "pyproject.toml").write_text('[tool.isort]\nprofile = "black"\nknown_first_party = "shop"\n')
    (tmp_path / "sorted_only.py").write_text("import sys\nimport os\n\nprint(os, sys)\n")
    (tmp_path / "merged.py").write_text("from os import path\nfrom os import sep  # noqa: F401\n\nprint(path)\n")
    code, out, _ = cli("autofix", str(tmp_path), "--json", "--apply")
    outcomes = {o["path"]: o for o in json.loads(out)["outcomes"]}
    assert (tmp_path / "sorted_only.py").read_text().startswith("import os\nimport sys\n")  # isort would too
    assert outcomes["merged.py"]["status"] != "PROMOTED"  # merging is isort's profile and comments to judge
    assert "only a reordering is ruff's and isort's alike" in outcomes["merged.py"]["verification"]
    team = _profile({name: (tmp_path / name).read_text() for name in ("pyproject.toml", "tox.ini")}).team
    assert 'lint.isort.known-first-party = ["shop"]' in team.options  # isort's own settings, in ruff's words


def test_a_hook_file_that_is_not_yaml_chooses_nothing():
    team = _profile({".pre-commit-config.yaml": "repos: [\n  - id: : :"}).team
    assert team.select == ("E4", "E7", "E9", "F") and not team.configured


def test_a_cli_run_proposes_only_what_the_team_selected_and_says_who_chose(cli, tmp_path):
    import json

    (tmp_path / "pyproject.toml").write_text('[tool.ruff.lint]\nselect = ["E", "F", "W"]\n')
    (tmp_path / "app.py").write_text("import os\n\n\ndef f(x):\n    if x:\n        return 1\n    else:\n"
                                     "        return 2\n")
    code, out, _ = cli("refactor", str(tmp_path), "--json")
    report = json.loads(out)
    assert code == 0 and report["rules"]["selected"] == [] and report["findings"] == []  # RET505 not chosen
    assert "[tool.ruff] in pyproject.toml selects (E, F, W)" in report["rules"]["chosen_by"]
    code, out, _ = cli("autofix", str(tmp_path), "--json")
    assert [f["code"] for f in json.loads(out)["findings"]] == ["F401"]


def test_paths_the_project_keeps_out_of_its_other_tools_are_set_aside():
    files = {
        "setup.cfg": "[flake8]\nexclude = .git,legacy_samples\n[tool:pytest]\nnorecursedirs = .* src pkg\n"
                     "addopts = --doctest-modules --ignore=tests/broken_inputs\n",
        "mypy.ini": "[mypy]\nexclude = ^generated/parsers/$ | (?x)( weird | regex )\n",
        "conftest.py": "collect_ignore = ['docs/conf.py']\ncollect_ignore_glob = ['scratch/*']\n",
        "pkg/__init__.py": "",
    }
    exclude = read_profile(files.get).team.exclude
    assert {"legacy_samples", "tests/broken_inputs", "generated/parsers", "docs/conf.py", "scratch/*"} <= set(exclude)
    assert "src" not in exclude and "pkg" not in exclude  # the package itself is never set aside
    assert not any("weird" in p for p in exclude)  # a regex that names no path is not guessed at
    pyproject = '[tool.pytest.ini_options]\nnorecursedirs = ["tests/data_bad"]\naddopts = ["--ignore-glob=x/*.py"]\n'
    assert {"tests/data_bad", "x/*.py"} <= set(read_profile({"pyproject.toml": pyproject}.get).team.exclude)


def test_project_files_written_to_be_slow_or_to_crash_are_read_as_any_other():
    """Long runs of spaces (read again from each of their places before) and numbers too long for Python to read."""
    spaced = read_profile({"mypy.ini": "[mypy]\nexclude = build" + " " * 20000 + "| dist\n"}.get).team.exclude
    assert {"build", "dist"} <= set(spaced)
    digits = "1" * 5000  # Python reads no integer of 4,300 digits or more
    classifiers = {"setup.cfg": f"[metadata]\nclassifiers =\n  Programming Language :: Python :: 3.{digits}\n"
                                "  Programming Language :: Python :: 3.9\n"}
    assert find_target(classifiers).oldest == (3, 9)
    from core.languages.python.team import isort_options

    isort = {".isort.cfg": f"[settings]\nlines_after_imports = {digits}\nforce_single_line = true\n"}
    assert isort_options(isort) == ("lint.isort.force-single-line = true",)


def test_a_run_leaves_set_aside_paths_alone_and_still_sees_the_rest(cli, tmp_path):
    import json

    (tmp_path / "setup.cfg").write_text("[flake8]\nexclude = legacy_samples\n[tool:pytest]\nnorecursedirs = .* build\n")
    (tmp_path / "legacy_samples").mkdir()
    (tmp_path / "legacy_samples" / "bad.py").write_text("import os\n")
    (tmp_path / "app.py").write_text("import os\n")
    code, out, _ = cli("autofix", str(tmp_path), "--json")
    assert code == 0
    assert [(f["path"], f["code"]) for f in json.loads(out)["findings"]] == [("app.py", "F401")]


def test_codes_of_other_linters_that_ruff_lacks_do_not_stop_the_run(cli, tmp_path):
    import json

    (tmp_path / "setup.cfg").write_text("[flake8]\nselect = E, F, W, F999\nignore = E203, E731, F999, W503\n"
                                        "per-file-ignores =\n    tests/*: W504\n")
    (tmp_path / "app.py").write_text("import os\nf = lambda: 1\n")
    code, out, err = cli("autofix", str(tmp_path), "--json")
    assert code == 0, err
    report = json.loads(out)
    assert [f["code"] for f in report["findings"]] == ["F401"]
    assert "F999" not in report["rules"]["selected"]


def test_the_settings_the_teams_rules_read_go_with_them():
    """ruff runs on the team's isort sections, src folders and docstring convention, not on its defaults."""
    profile = _profile({"pyproject.toml": '[tool.ruff]\nsrc = ["src", "tests"]\nline-length = 100\n'
                                          '[tool.ruff.lint]\nselect = ["I", "D"]\n'
                                          '[tool.ruff.lint.isort]\nknown-first-party = ["mylib"]\n'
                                          'force-sort-within-sections = true\n'
                                          '[tool.ruff.lint.pydocstyle]\nconvention = "google"\n'
                                          '[tool.ruff.lint.flake8-quotes]\nweird = {a = [1, {b = 2}]}\n'})
    assert profile.team.options == ('src = ["src", "tests"]', "line-length = 100",
                                    'lint.isort.known-first-party = ["mylib"]',
                                    "lint.isort.force-sort-within-sections = true",
                                    'lint.pydocstyle.convention = "google"')  # too deep a value is left out
    assert '--config=lint.isort.known-first-party = ["mylib"]' in profile.ruff_args(("I",))


@pytest.mark.parametrize(("setting", "said"), [
    ('src = ["/usr/**"]', "`src` in [tool.ruff] in pyproject.toml: '/usr/**' is not a path inside the repository"),
    ('src = ["../../.."]', "`src` in [tool.ruff] in pyproject.toml: '../../..' leaves the repository (`..`)"),
    ('src = ["~/"]', "`src` in [tool.ruff] in pyproject.toml: '~/' is not a path inside the repository"),
    ('src = "$HOME"', "`src` in [tool.ruff] in pyproject.toml: '$HOME' names an environment variable or holds a "
                      "control character"),
    ('exclude = ["--select=ALL"]', "the exclude pattern '--select=ALL' would be read as a flag"),
    ('extend-exclude = ["/etc/**", "C:/x"]', "the exclude pattern '/etc/**' is not a path inside the repository"),
])
def test_the_teams_paths_that_could_leave_the_checkout_or_read_as_flags_are_refused_by_name(setting, said):
    profile = _profile({"pyproject.toml": f'[tool.ruff]\n{setting}\nline-length = 100\n[tool.ruff.lint]\n'
                                          'select = ["F"]\n'})
    assert any(p.startswith(said) and p.endswith(": not passed to ruff") for p in profile.problems), profile.problems
    args = profile.ruff_args(("F",))
    assert "--config=line-length = 100" in args  # the rest of the team's settings still go
    assert not any(word in " ".join(args) for word in ("/usr", "..", "~", "$HOME", "--select=ALL", "/etc", "C:/"))


def test_a_path_setting_inside_the_checkout_goes_to_ruff_as_one_argument_each():
    profile = _profile({"pyproject.toml": '[tool.ruff]\nsrc = ["src", "lib/**"]\nexclude = ["-weird-but-named"]\n'
                                          'extend-exclude = ["build", "docs/*.py"]\n'})
    args = profile.ruff_args(("F",))
    assert '--config=src = ["src", "lib/**"]' in args and "--extend-exclude=build,docs/*.py" in args


def test_a_setting_this_ruff_refuses_is_dropped_and_said(cli, tmp_path):
    import json

    (tmp_path / "pyproject.toml").write_text('[tool.ruff.lint]\nselect = ["F"]\n'
                                             '[tool.ruff.lint.isort]\nno-such-setting = true\n')
    (tmp_path / "app.py").write_text("import os\n")
    code, out, _ = cli("autofix", str(tmp_path), "--json")
    report = json.loads(out)
    assert code == 0 and [f["code"] for f in report["findings"]] == ["F401"]
    assert any("refuses some of the team's ruff settings" in n for n in report["notes"])


def test_first_party_imports_are_sorted_as_the_teams_isort_settings_say(cli, tmp_path):
    import json

    (tmp_path / "pyproject.toml").write_text('[tool.ruff.lint]\nselect = ["I"]\n'
                                             '[tool.ruff.lint.isort]\nknown-first-party = ["mylib"]\n')
    (tmp_path / "app.py").write_text("import mylib\nimport os\n\nprint(os, mylib)\n")
    code, out, _ = cli("autofix", str(tmp_path), "--json", "--apply")
    assert code == 0 and json.loads(out)["outcomes"][0]["status"] == "PROMOTED"
    assert (tmp_path / "app.py").read_text() == "import os\n\nimport mylib\n\nprint(os, mylib)\n"


@pytest.mark.parametrize("pyproject", ['[tool.mypy]\nexclude = 5\n', 'tool = {mypy = 3, pytest = "x"}\n',
                                       '[tool]\nmypy = [1, 2]\n[tool.pytest]\nini_options = 7\n'])
def test_a_tools_table_of_the_wrong_shape_tells_nothing_and_the_run_goes_on(pyproject):
    from core.languages.python.team import set_aside

    assert set_aside({"pyproject.toml": pyproject}) == []
