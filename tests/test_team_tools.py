"""The team's own flake8 finds and judges, as the team runs it: at the version its pre-commit hook pins, with the
plugins it installs and the settings its configuration holds (`max-line-length`, `extend-ignore`), installed from a
registry (a fake PyPI here, serving the real wheels `make setup` fetched) and run in the sandbox. memfix reports what
that flake8 reports — the same findings, not a near count — and ruff's fix of a finding stands only where flake8,
run on the result, sees it gone and nothing new."""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

import pytest

from tests.fakes import payloads as P
from tests.served import serving

SETUP_CFG = "[flake8]\nmax-line-length = 120\nmax-complexity = 30\nextend-ignore = E203\n"
PRE_COMMIT = ("repos:\n- repo: https://github.com/PyCQA/flake8\n  rev: 7.1.1\n  hooks:\n  - id: flake8\n"
              "    additional_dependencies: [flake8-bugbear==24.2.6]\n")
LONG = "x" * 80  # a line of 110 characters: over ruff's 88, under the team's 120
UTIL = f'import os\n\n\ndef greet(name, seen=[]):\n    return "hello " + name + "{LONG}"\n'


@pytest.fixture(scope="module")
def index(wheelhouse_index):
    return wheelhouse_index


@pytest.fixture(scope="module")
def cache():
    """A tool cache the sandbox's users can read, shared by the module's tests (flake8 is installed once)."""
    folder = Path(tempfile.mkdtemp(prefix="memfix-team-tools-"))
    folder.chmod(0o755)
    yield folder / "tools"
    shutil.rmtree(folder, ignore_errors=True)


def _tree(folder: Path) -> Path:
    (folder / "app").mkdir(parents=True)
    (folder / "setup.cfg").write_text(SETUP_CFG)
    (folder / ".pre-commit-config.yaml").write_text(PRE_COMMIT)
    (folder / "app" / "util.py").write_text(UTIL)
    return folder


def test_memfix_reports_what_the_teams_flake8_reports_and_ruff_fixes_only_what_flake8_then_judges(
        cli, monkeypatch, index, cache, tmp_path):
    monkeypatch.setenv("MEMFIX_TEAM_TOOLS", "true")
    monkeypatch.setenv("MEMFIX_PYPI_INDEX", index.index)
    monkeypatch.setenv("MEMFIX_TOOL_CACHE", str(cache))
    tree = _tree(tmp_path / "repo")
    code, out, err = cli("autofix", str(tree), "--json")
    assert code == 0, err
    report = json.loads(out)

    found = sorted((f["path"], f["line"], f["code"]) for f in report["findings"])
    assert found == [("app/util.py", 1, "F401"), ("app/util.py", 4, "B006")]  # no E501 under the team's 120
    assert any("the team's flake8 7.1.1 with flake8-bugbear 24.2.6" in line for line in report["project"])
    [outcome] = report["outcomes"]
    assert outcome["status"] == "PROMOTED" and outcome["fixed"] == ["F401"]  # B006's fix is ruff's unsafe one
    assert "-import os" in outcome["diff"] and not any("seen=" in line for line in outcome["diff"])

    # the same tree read by memfix's own ruff alone, as before: findings the team's flake8 never reports
    monkeypatch.setenv("MEMFIX_TEAM_TOOLS", "false")
    code, out, _ = cli("autofix", str(tree), "--json")
    own = {f["code"] for f in json.loads(out)["findings"]}
    assert "E501" in own and "B006" in own


def test_where_the_teams_flake8_cannot_be_installed_memfixs_ruff_stands_in_and_says_so(cli, monkeypatch, cache,
                                                                                       tmp_path):
    monkeypatch.setenv("MEMFIX_TEAM_TOOLS", "true")
    monkeypatch.setenv("MEMFIX_PYPI_INDEX", "http://127.0.0.1:9/simple")  # nothing listens there
    monkeypatch.setenv("MEMFIX_TOOL_CACHE", str(cache.parent / "unreachable"))
    code, out, err = cli("autofix", str(_tree(tmp_path / "repo")), "--json")
    assert code == 0, err
    report = json.loads(out)
    said = " ".join(report["notes"])  # a note: the reply on GitHub carries it too
    assert "the team's flake8 does not run here" in said and "memfix's ruff stands in for it" in said
    assert not any("the team's flake8" in line for line in report["project"])
    assert "F401" in {f["code"] for f in report["findings"]}


def test_where_the_teams_flake8_installs_but_cannot_run_memfixs_ruff_stands_in_and_says_why(cli, monkeypatch, index,
                                                                                            cache, tmp_path):
    """A setting flake8 refuses (or a plugin it cannot load) fails every flake8 run: found on a one-line file
    before the run, not as the run's failure."""
    monkeypatch.setenv("MEMFIX_TEAM_TOOLS", "true")
    monkeypatch.setenv("MEMFIX_PYPI_INDEX", index.index)
    monkeypatch.setenv("MEMFIX_TOOL_CACHE", str(cache))
    tree = _tree(tmp_path / "repo")
    (tree / "setup.cfg").write_text("[flake8]\nmax-line-length = one hundred\n")
    code, out, err = cli("autofix", str(tree), "--json")
    assert code == 0, err
    report = json.loads(out)
    said = " ".join(report["notes"])
    assert "the team's flake8 does not run here (the team's flake8 7.1.1 with flake8-bugbear 24.2.6 failed" in said
    assert "memfix's ruff stands in for it" in said
    assert "F401" in {f["code"] for f in report["findings"]}


def test_a_push_gets_the_fix_the_teams_flake8_judges_through_memfix_serve(index, cache, tmp_path, pg_url, tenant_id,
                                                                           app_key):
    with serving(tmp_path, pg_url, tenant_id, app_key, MEMFIX_TEAM_TOOLS="true", MEMFIX_PYPI_INDEX=index.index,
                 MEMFIX_TOOL_CACHE=str(cache)) as served:
        gh = served.github
        base = gh.add_repo("acme/api", {"README.md": "# api\n", "setup.cfg": SETUP_CFG,
                                        ".pre-commit-config.yaml": PRE_COMMIT})
        util = UTIL.replace(", seen=[]", "")  # B006's fix is unsafe: a repository with no CI gets none
        after = gh.push("acme/api", "main", {"app/util.py": util})
        assert served.post("push", P.push(installation=tenant_id, repo="acme/api", before=base, after=after, commits=[
            {"added": ["app/util.py"], "modified": [], "removed": []}])) == 202
        served.wait_idle(120)
        [pr] = gh.pulls("acme/api")
        assert "F401" in pr["body"] and "E501" not in pr["body"]
        assert gh.file("acme/api", pr["head"]["ref"], "app/util.py") == util.removeprefix("import os\n")


# The team's ruff, pinned at 0.4.10 by its pre-commit hook: before ruff 0.6 `src` meant the project's root alone, so
# `shop` under src/ is a third-party import to it, and first-party to memfix's own, newer ruff (whose `src` holds
# "src" too, and whose copies stand beside the checkout's skeleton): where memfix's ruff wants a blank line between
# `pytest` and `shop`, the team's `ruff check` wants none.
RUFF_HOOK = ("repos:\n- repo: https://github.com/astral-sh/ruff-pre-commit\n  rev: v0.4.10\n  hooks:\n"
             "  - id: ruff\n")
RUFF_CONFIG = '[tool.ruff.lint]\nselect = ["E4", "E7", "E9", "F", "I"]\n'
SORTED_FOR_THE_TEAM = "import os\n\nimport pytest\nfrom shop import cart\n\nprint(os, pytest, cart)\n"
UNSORTED = "from shop import cart\nimport os\nimport pytest\n\nprint(os, pytest, cart)\n"


def _ruff_tree(folder: Path) -> Path:
    (folder / "src" / "shop").mkdir(parents=True)
    (folder / "tests").mkdir()
    (folder / "pyproject.toml").write_text(RUFF_CONFIG)
    (folder / ".pre-commit-config.yaml").write_text(RUFF_HOOK)
    (folder / "src" / "shop" / "__init__.py").write_text("")
    (folder / "src" / "shop" / "cart.py").write_text("TOTAL = 0\n")
    (folder / "tests" / "test_cart.py").write_text(SORTED_FOR_THE_TEAM)
    (folder / "tests" / "test_prices.py").write_text(UNSORTED)
    return folder


def test_the_teams_pinned_ruff_finds_fixes_and_judges_imports_as_the_teams_check_does(cli, monkeypatch, index, cache,
                                                                                       tmp_path):
    monkeypatch.setenv("MEMFIX_TEAM_TOOLS", "true")
    monkeypatch.setenv("MEMFIX_PYPI_INDEX", index.index)
    monkeypatch.setenv("MEMFIX_TOOL_CACHE", str(cache))
    tree = _ruff_tree(tmp_path / "repo")
    code, out, err = cli("autofix", str(tree), "--json")
    assert code == 0, err
    report = json.loads(out)

    assert sorted((f["path"], f["code"]) for f in report["findings"]) == [("tests/test_prices.py", "I001")]
    assert any("the team's ruff 0.4.10 (the ruff hook's rev in .pre-commit-config.yaml)" in line
               for line in report["project"])
    [outcome] = report["outcomes"]
    assert outcome["status"] == "PROMOTED" and outcome["fixed"] == ["I001"]
    # `import os`, a blank line and `import pytest` go above `from shop import cart`, which stays: no blank line
    # between `pytest` and `shop`, as the team's check wants (memfix's own ruff would put one there)
    assert outcome["diff"] == ["+import os", "+", "+import pytest", "-import os", "-import pytest"]

    # memfix's own ruff, as before: an I001 the team's check never reports, and a fix it would then report
    monkeypatch.setenv("MEMFIX_TEAM_TOOLS", "false")
    code, out, _ = cli("autofix", str(tree), "--json")
    own = json.loads(out)
    assert ("tests/test_cart.py", "I001") in {(f["path"], f["code"]) for f in own["findings"]}


def test_where_the_teams_ruff_cannot_be_installed_memfixs_ruff_stands_in_and_says_so(cli, monkeypatch, cache,
                                                                                     tmp_path):
    monkeypatch.setenv("MEMFIX_TEAM_TOOLS", "true")
    monkeypatch.setenv("MEMFIX_PYPI_INDEX", "http://127.0.0.1:9/simple")  # nothing listens there
    monkeypatch.setenv("MEMFIX_TOOL_CACHE", str(cache.parent / "unreachable-ruff"))
    code, out, err = cli("autofix", str(_ruff_tree(tmp_path / "repo")), "--json")
    assert code == 0, err
    report = json.loads(out)
    said = " ".join(report["notes"])
    assert "the team's ruff does not run here (ruff 0.4.10 could not be installed" in said
    assert "memfix's ruff stands in for it" in said
    assert not any("the team's ruff" in line for line in report["project"])
    assert ("tests/test_cart.py", "I001") in {(f["path"], f["code"]) for f in report["findings"]}
