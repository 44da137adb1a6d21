"""The team's lint scope: the paths its lint commands name where it runs them (CI steps, tox, the Makefile targets
those run, pre-commit's regexes), read and never run; a file outside it is neither scanned nor fixed."""

from __future__ import annotations

import json

import pytest

from core.languages.python.project import read_profile
from core.languages.python.scope import MAX_REGEX_CHARS, find_lint_scope


def scope_of(files: dict[str, str]):
    return find_lint_scope(files.get)


def workflow(*runs: str, name: str = "lint") -> dict[str, str]:
    steps = "".join(f"    - run: {json.dumps(run)}\n" for run in runs)
    return {f".github/workflows/{name}.yml": f"jobs:\n  lint:\n    steps:\n    - uses: actions/checkout@v4\n{steps}"}


def test_a_workflow_steps_flake8_lints_the_folders_it_names():
    scope = scope_of(workflow("pip install flake8", "flake8 src tests"))
    assert scope.lints("src/pkg/a.py") and scope.lints("tests/test_a.py")
    assert not scope.lints("scripts/release.py") and not scope.lints("setup.py")
    assert scope.describe() == "linted by the team: src/, tests/ (the `flake8` step in .github/workflows/lint.yml)"


def test_a_quoted_argument_stays_whole_and_is_an_options_value_not_a_path():
    scope = scope_of(workflow('ruff check --select "E,F" src/'))
    assert [r.paths for r in scope.reaches] == [("src/",)]
    assert scope.lints("src/a.py") and not scope.lints("E,F") and not scope.lints("tools/a.py")


def test_tox_posargs_default_names_the_paths():
    scope = scope_of({"tox.ini": "[testenv:lint]\ndeps = flake8\ncommands = flake8 {posargs:pkg tests}\n"})
    assert scope.lints("pkg/core.py") and scope.lints("tests/test_core.py") and not scope.lints("docs/conf.py")
    assert "tox's `flake8` command in [testenv:lint] of tox.ini" in scope.describe()


def test_a_makefile_target_a_workflow_runs_is_read_and_its_shell_glob_means_root_files_only():
    makefile = ("VENV_BIN = venv/bin\n\n.PHONY: lint\nlint:\n\t@echo Running flake8\n"
                "\t@[ -f $(VENV_BIN)/flake8 ] || pip install flake8\n\t$(VENV_BIN)/flake8 pkg/ *.py\n\n"
                "format:\n\tblack .\n")
    scope = scope_of({**workflow("make venv", "make lint", name="code-style"), "Makefile": makefile})
    assert scope.lints("pkg/sub/a.py") and scope.lints("setup.py")
    assert not scope.lints("extras/scripts/tool.py")  # `*.py` is the shell's glob: the root's files only
    assert not scope.lints("extras/setup.py")
    assert scope.describe() == ("linted by the team: pkg/, *.py (the `flake8` command of the `lint` target of "
                                "Makefile, run by .github/workflows/code-style.yml)")


def test_a_makefile_target_no_step_runs_says_nothing():
    scope = scope_of({**workflow("make test"), "Makefile": "lint:\n\tflake8 pkg\n\ntest:\n\tpytest\n"})
    assert not scope.narrows and scope.lints("anywhere/a.py")


def test_pre_commit_hook_files_and_exclude_are_searched_as_pre_commit_does():
    config = ("repos:\n- repo: https://github.com/PyCQA/flake8\n  rev: 7.1.1\n  hooks:\n  - id: flake8\n"
              "    files: ^src/\n    exclude: ^src/generated/\n"
              "- repo: https://github.com/pre-commit/pre-commit-hooks\n  rev: v4.6.0\n  hooks:\n"
              "  - id: trailing-whitespace\n")  # no linter: its reach is no lint scope
    scope = scope_of({".pre-commit-config.yaml": config})
    assert scope.lints("src/a.py") and not scope.lints("src/generated/b.py") and not scope.lints("docs/conf.py")
    assert "files matching '^src/', not '^src/generated/' (the flake8 hook in .pre-commit-config.yaml)" \
        in scope.describe()


def test_pre_commits_top_level_exclude_applies_to_every_hook():
    config = ("exclude: ^(docs|examples)/\nrepos:\n- repo: https://github.com/astral-sh/ruff-pre-commit\n"
              "  rev: v0.6.9\n  hooks:\n  - id: ruff\n")
    scope = scope_of({".pre-commit-config.yaml": config})
    assert scope.lints("pkg/a.py") and scope.lints("tests/x/docs/a.py")  # searched from the start: `^` anchors
    assert not scope.lints("docs/conf.py") and not scope.lints("examples/demo.py")


@pytest.mark.parametrize("files", [
    workflow("flake8"),  # no path: what flake8 finds from the root
    workflow("ruff check ."),
    workflow("flake8 $SRC_DIRS"),  # a path memfix cannot say
    {},  # no lint command at all
    workflow("pytest tests"),  # no linter
])
def test_a_command_naming_no_path_or_one_memfix_cannot_read_lints_everything(files):
    scope = scope_of(files)
    assert not scope.narrows and scope.lints("scripts/anything.py") and scope.describe() is None


def test_the_scope_is_the_union_of_every_lint_command():
    hook = "repos:\n- repo: https://github.com/PyCQA/isort\n  rev: 5.13.2\n  hooks:\n  - id: isort\n"
    narrow = {**workflow("flake8 src", "pylint pkg --disable=C0114"),
              "tox.ini": "[testenv:style]\ncommands = black --check --line-length 100 tools\n"}
    scope = scope_of(narrow)
    assert all(scope.lints(p) for p in ("src/a.py", "pkg/b.py", "tools/c.py")) and not scope.lints("other/d.py")
    assert not scope.lints("100")  # a known option's value is no path
    assert not scope_of({**narrow, ".pre-commit-config.yaml": hook}).narrows  # the isort hook lints every file


def test_a_step_run_in_a_folder_lints_there_and_cd_is_followed():
    text = ("jobs:\n  lint:\n    steps:\n    - run: flake8 .\n      working-directory: backend\n"
            "    - run: cd tools && ruff check scripts\n")
    scope = scope_of({".github/workflows/ci.yml": text})
    assert scope.lints("backend/app/a.py") and scope.lints("tools/scripts/b.py")
    assert not scope.lints("frontend/c.py") and not scope.lints("scripts/d.py")


def test_a_pre_commit_regex_too_long_or_broken_is_not_applied_and_said():
    config = ("repos:\n- repo: local\n  hooks:\n  - id: lint\n    entry: flake8\n    language: python\n"
              f"    files: '{'a' * (MAX_REGEX_CHARS + 1)}'\n    exclude: '(unclosed'\n")
    scope = scope_of({".pre-commit-config.yaml": config})
    assert not scope.narrows  # the hook lints every file, as if neither were written
    assert len(scope.problems) == 2 and "not applied" in scope.problems[0]


def test_the_profile_carries_the_scope_and_says_it():
    profile = read_profile({**workflow("flake8 src tests"), "setup.cfg": "[flake8]\nmax-line-length = 100\n"}.get)
    assert not profile.scope.lints("scripts/x.py")
    assert "linted by the team: src/, tests/ (the `flake8` step in .github/workflows/lint.yml)" in profile.describe()


def test_a_file_outside_the_teams_lint_scope_is_left_alone_and_the_run_says_why(cli, tmp_path):
    (tmp_path / ".github" / "workflows").mkdir(parents=True)
    (tmp_path / ".github" / "workflows" / "lint.yml").write_text(
        "jobs:\n  lint:\n    steps:\n    - run: pip install ruff\n    - run: ruff check app/\n")
    (tmp_path / "ruff.toml").write_text("line-length = 100\n")
    for folder in ("app", "extras/scripts"):
        (tmp_path / folder).mkdir(parents=True)
        (tmp_path / folder / "tool.py").write_text("import os\n\n\ndef f():\n    return 1\n")
    code, out, err = cli("autofix", str(tmp_path), "--json", "--apply")
    assert code == 0, err
    report = json.loads(out)
    assert {f["path"] for f in report["findings"]} == {"app/tool.py"}
    assert "import os" not in (tmp_path / "app" / "tool.py").read_text()
    assert (tmp_path / "extras" / "scripts" / "tool.py").read_text().startswith("import os\n")  # untouched
    said = [line for line in report["project"] if "lint" in line]
    assert "linted by the team: app/ (the `ruff` step in .github/workflows/lint.yml)" in said
    assert "left alone, as the team's linters never lint them: 1 file(s) (extras/scripts/tool.py)" in said


def test_a_push_touching_a_file_the_teams_make_target_never_lints_gets_no_pr_for_it(serve, fake_github, tenant_id):
    from tests.test_pipelines import REPO, memfix_pulls, push, runs

    unused = "import os\n\n\ndef f():\n    return 1\n"
    fake_github.push(REPO, "main", {**workflow("make codestyle", name="code-style"), "ruff.toml": "line-length = 100\n",
                                    "Makefile": "codestyle:\n\truff check app/ *.py\n"})
    push(serve, fake_github, tenant_id, {"app/util.py": unused, "extras/scripts/release.py": unused})
    assert [p["head"]["ref"].split("/")[2].rsplit("-", 1)[0] for p in memfix_pulls(fake_github)] == ["app-util-py"]
    [run] = runs(serve, tenant_id)
    assert run["findings"] == 1  # extras/scripts/release.py was never scanned
    asked = {path for method, path, _ in fake_github.requests if method == "GET" and "/contents/" in path}
    assert {f"/repos/{REPO}/contents/Makefile", f"/repos/{REPO}/contents/.github/workflows/code-style.yml"} <= asked
