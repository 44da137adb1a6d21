"""Which ruff finds, fixes and judges, and what it is told: the team's own wherever the team pins one (at memfix's own
version too), with the team's flake8 beside it each judging the rules its configuration chose; memfix's ruff where
the team's cannot run, said. No sandbox starts here: the toolbox is a fake that hands back an installed folder, and
what the team's ruff would be told is read from its command line."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from core.languages.python import team_ruff
from core.languages.python.flake8 import Flake8
from core.languages.python.language import Python
from core.languages.python.ruff import Ruff
from core.languages.python.team import find_team_rules
from core.languages.python.team_linters import TeamLinters
from core.languages.python.team_ruff import TeamConfigs, TeamRuff, too_old
from core.pipelines.config import RepoConfig
from core.tools.install import Installed
from core.tools.pins import Pin
from core.tools.sandbox import Bubblewrap
from core.tools.toolbox import Unavailable

HOOK = ("repos:\n- repo: https://github.com/astral-sh/ruff-pre-commit\n  rev: {rev}\n  hooks:\n  - id: ruff\n"
        "- repo: https://github.com/asottile/pyupgrade\n  rev: v3.15.0\n  hooks:\n  - id: pyupgrade\n")
PYPROJECT = '[tool.ruff.lint]\nselect = ["E4", "F"]\nunfixable = ["F401"]\n'
SETUP_CFG = "[flake8]\nmax-line-length = 120\n"


@pytest.fixture(autouse=True)
def _nothing_to_run_first(monkeypatch):
    """The fake toolbox installs nothing a first run could start: each tool is taken as running (the first run's own
    test, with a real flake8, is in tests/test_team_tools.py)."""
    monkeypatch.setattr("core.languages.python.language.first_run", lambda *args, **kwargs: None)


class FakeToolbox:
    """Hands back a folder where ruff `installed` is, or says why it cannot (`why`); counts what it was asked."""

    def __init__(self, folder: Path, installed: str = "0.4.10", why: str | None = None):
        self.folder, self.why, self.asked = folder, why, []
        (folder / "lib" / "python3.11" / "site-packages" / f"ruff-{installed}.dist-info").mkdir(parents=True)

    def ready(self, pin: Pin) -> tuple[Bubblewrap, Installed]:
        if pin.tool == "pyupgrade":  # its hook cannot run here: memfix reads it as ruff's UP rules, as before
            raise Unavailable("not in this test")
        self.asked.append(pin)
        if self.why:
            raise Unavailable(self.why)
        return Bubblewrap("/usr/bin/bwrap", "/usr/bin/prlimit"), Installed(self.folder, 0.0, False)


def _project(files: dict[str, str], toolbox: FakeToolbox):
    return Python(Ruff(), toolbox).project(files.get, RepoConfig(), "autofix")  # type: ignore[arg-type]


def test_where_the_team_pins_ruff_its_ruff_finds_fixes_and_judges_and_the_reply_says_so(tmp_path):
    toolbox = FakeToolbox(tmp_path)
    project = _project({".pre-commit-config.yaml": HOOK.format(rev="v0.17.6"), "pyproject.toml": PYPROJECT}, toolbox)
    linter = project.linter(held=("F841",))
    assert isinstance(linter, TeamRuff) and linter.held == ("F841",) and linter.unfixable == ("F401",)
    assert [p.requirement for p in toolbox.asked] == ["ruff==0.17.6"]  # memfix's own version too: the tool decides
    assert linter.version == "0.4.10"  # what the cache installed, as its metadata says
    assert any("the team's ruff 0.4.10 (the ruff hook's rev in .pre-commit-config.yaml), in the sandbox" in line
               for line in project.lines)
    assert [line for line in project.unrun if "ruff" in line.split(":")[0]] == []  # the hook's own note aside


def test_with_the_teams_flake8_each_rule_goes_to_the_tool_that_chose_it_and_the_teams_ruff_fixes(tmp_path):
    files = {".pre-commit-config.yaml": HOOK.format(rev="v0.4.10"), "pyproject.toml": PYPROJECT,
             "setup.cfg": SETUP_CFG}
    project = _project(files, FakeToolbox(tmp_path))
    linter = project.linter()
    assert isinstance(linter, TeamLinters) and isinstance(linter.flake8, Flake8)
    assert linter.flake8.fixer is linter.ruff  # flake8's findings get the team's ruff's fixes
    assert linter._flake8s("E501") and linter._flake8s("W291")  # flake8's `E` and `W`
    assert not linter._flake8s("E401") and not linter._flake8s("F401")  # ruff's `E4` is longer; `F` ruff's first
    assert not linter._flake8s("UP006")  # pyupgrade's: the team's ruff stands in for it
    assert any("fixes: the team's ruff 0.4.10" in line for line in project.lines)


@pytest.mark.parametrize("rev, installed, why, said", [
    ("v0.0.292", "0.0.292", None, "ruff 0.0.292 is older than the oldest memfix runs (0.1.0"),
    ("v0.4.10", "0.4.10", "ruff 0.4.10 could not be installed: the package index could not be reached",
     "ruff 0.4.10 could not be installed: the package index could not be reached"),
])
def test_where_the_teams_ruff_cannot_run_memfixs_ruff_stands_in_and_says_why(tmp_path, rev, installed, why, said):
    toolbox = FakeToolbox(tmp_path, installed, why)
    project = _project({".pre-commit-config.yaml": HOOK.format(rev=rev), "pyproject.toml": PYPROJECT}, toolbox)
    assert isinstance(project.linter(), Ruff)
    [line] = [note for note in project.unrun if "pyupgrade hook" not in note]
    assert said in line and "memfix's ruff stands in for it" in line
    assert line in project.problems  # a note of the run: the reply on GitHub says it
    assert len(toolbox.asked) == (0 if why is None else 1)  # too old: never installed


def test_a_team_that_pins_no_ruff_keeps_memfixs(tmp_path):
    toolbox = FakeToolbox(tmp_path)
    project = _project({"pyproject.toml": PYPROJECT}, toolbox)
    assert isinstance(project.linter(), Ruff) and not toolbox.asked and not project.unrun


def test_too_old_names_the_versions_memfix_does_not_run():
    assert too_old("0.0.292") and too_old("0.0.1")
    assert too_old("0.1.0") is None and too_old("0.4.10") is None and too_old(None) is None


def test_the_teams_ruff_is_told_only_what_the_run_asks_beyond_its_own_configuration(tmp_path, monkeypatch):
    """Its configuration's rules it selects itself (its defaults at its version: no `--select` to override them);
    another tool's, a person's, E902 and where it has it E999 are extended; held rules ignored, where it knows
    them (an unknown selector fails its whole run)."""
    monkeypatch.setattr(team_ruff, "_catalogue", lambda sandbox, folder: frozenset({"E401", "E902", "E999", "F401",
                                                                                    "UP006", "F841"}))
    ruff = TeamRuff(tmp_path, Bubblewrap("bwrap", "prlimit"), TeamConfigs(lambda path: None), "0.4.10",
                    {"E4": "ruff", "F": "ruff", "UP": "pyupgrade"}, Ruff(), excluded=("fixtures",),
                    held=("F841", "PLR0913"))
    assert ruff._selection(("E4", "F", "UP", "FURB")) == [
        "--extend-select=UP,E902,E999", "--ignore=F841", "--extend-exclude=fixtures"]

    # a team that selects nothing: its ruff's defaults at its version are not overridden by memfix's idea of them
    # (E4, E7, E9, F): the E731s memfix's own ruff reported there, the team's need not
    unconfigured = replace(ruff, chosen=find_team_rules({}).tools, held=(), excluded=())
    assert unconfigured._selection(("E4", "E7", "E9", "F")) == ["--extend-select=E902,E999"]


def test_the_teams_configuration_files_are_those_of_every_folder_on_the_way_and_what_they_extend():
    files = {"pyproject.toml": "[tool.ruff]\nline-length = 100\n", "ruff.toml": 'extend = "configs/base.toml"\n',
             "configs/base.toml": "line-length = 90\n", "app/sub/.ruff.toml": 'extend = "../../../outside.toml"\n',
             "elsewhere/ruff.toml": "line-length = 1\n"}
    asked: list[str] = []

    def read(path: str) -> str | None:
        asked.append(path)
        return files.get(path)

    configs = TeamConfigs(read)
    assert configs.around(["app/sub/x.py", "app/y.py"]) == {
        name: files[name] for name in ("pyproject.toml", "ruff.toml", "configs/base.toml", "app/sub/.ruff.toml")}
    before = len(asked)
    configs.around(["app/sub/x.py"])
    assert len(asked) == before  # each folder looked at once a run


def test_a_rule_the_teams_ruff_lists_as_removed_is_never_asked_of_it(tmp_path):
    """ruff 0.8 removed E999 but still lists it: selecting it fails the whole run (`Rule E999 was removed`)."""
    import shutil
    import tempfile

    from core.languages.python.ruff import _find_ruff
    from core.languages.python.team_ruff import _catalogue
    from core.tools import sandbox as sandboxes

    sandbox = sandboxes.find()[0]
    if sandbox is None:
        pytest.skip(f"NO SANDBOX: {sandboxes.find()[1]} (.ci/run installs bubblewrap)")
    folder = Path(tempfile.mkdtemp(prefix="memfix-ruff-"))  # where the sandbox's user can reach it
    try:
        folder.chmod(0o755)
        (folder / "bin").mkdir(mode=0o755)
        shutil.copy(_find_ruff(), folder / "bin" / "ruff")  # memfix's own ruff (0.8 or later) as the team's
        codes = _catalogue(sandbox, folder)
        assert "F401" in codes and "E999" not in codes
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def test_a_ruff_that_removed_e999_but_still_lists_it_is_not_asked_for_it():
    from core.languages.python.team_ruff import _removed_in

    assert _removed_in("0.9.3") == _removed_in("0.8.0") == {"E999"}
    assert _removed_in("0.7.4") == _removed_in("0.4.10") == frozenset()
