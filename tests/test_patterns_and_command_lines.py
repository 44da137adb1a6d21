"""A team's ignore patterns match as git matches them (pathspec), and its command lines split as the shell splits
them (shlex): each case here is one the hand-written matcher or `str.split` read differently."""

from __future__ import annotations

import time

import pytest

from core.languages.javascript.project import JsProfile
from core.languages.python.project import read_profile
from core.languages.python.team import command_words, set_aside
from core.paths import ignored_by, path_matches
from core.pipelines.config import parse_config


@pytest.mark.parametrize(("pattern", "path", "matches"), [
    # where git and the hand-written matcher parted
    ("build/", "web/build/app.js", True),  # a trailing `/` names a directory at any depth: it does not anchor
    ("build/", "build", False),  # ... and only a directory: a file of that name is not it
    ("[^t]*.py", "a.py", True), ("[^t]*.py", "t.py", False),  # git's `[^…]` as well as `[!…]`
    (r"\#notes.md", "#notes.md", True),  # an escaped `#` is a name, not a comment
    ("notes.md\\ ", "notes.md ", True), ("notes.md  ", "notes.md", True),  # git's trailing spaces
    # what places.py's scopes mean, kept
    ("/*.py", "setup.py", True), ("/*.py", "pkg/setup.py", False),  # the root's own files
    ("src/**", "src/a/b.py", True), ("src/**", "src", True), ("src/**", "lib/src/a.py", False),
    ("**/foo", "a/b/foo/c.py", True), ("**/foo", "foo", True),
    ("a/**/b", "a/b", True), ("a/**/b", "a/x/y/b/c.py", True), ("a/**/b", "x/a/b", False),
    ("/docs", "docs/index.md", True), ("/docs", "pkg/docs/index.md", False),
    ("tests", "pkg/tests/t.py", True), ("a/*/c", "a/b/c/d", True), ("a/*/c", "a/c", False),
])
def test_a_pattern_matches_as_git_matches_it(pattern, path, matches):
    assert path_matches(pattern, path) is matches


def test_a_later_negation_re_includes_what_an_earlier_pattern_ignored():
    patterns = ("/*", "!/src", "*.snap", "!keep.snap")
    assert ignored_by(patterns, "README.md")
    assert not ignored_by(patterns, "src/app.js")
    assert ignored_by(patterns, "src/__snapshots__/a.snap")
    assert not ignored_by(patterns, "src/keep.snap")
    assert not path_matches("!keep.snap", "keep.snap")  # a negation alone ignores nothing
    assert ignored_by(("dist\\", "*.log"), "a.log") and not path_matches("dist\\", "dist\\")  # git drops the first


def test_memfix_yml_ignore_and_a_teams_gitignore_match_as_git_does():
    config, problems = parse_config("ignore: ['fixtures/', 'gen/**', '!gen/keep.py']\n")
    assert problems == []
    assert config.ignored("tests/fixtures/bad.py") and config.ignored("gen/x.py")
    assert not config.ignored("gen/keep.py") and not config.ignored("fixtures.py")
    profile = JsProfile({}, "", ignored=("dist/", "*.gen.js", "!src/keep.gen.js"))
    assert profile.ignored_path("packages/web/dist/app.js")
    assert profile.ignored_path("src/a.gen.js") and not profile.ignored_path("src/keep.gen.js")


def test_a_hostile_pattern_matches_in_linear_time():
    """The patterns are the repository's: RE2 matches them without the backtracking a `**/a/**/a/…` costs."""
    began = time.perf_counter()
    assert not path_matches("**/a/" * 40 + "b", "a/" * 500 + "c")
    assert not path_matches("*a" * 99 + "b", "a" * 1000)
    assert time.perf_counter() - began < 5


def test_a_quoted_argument_in_a_ci_step_is_one_word():
    workflow = ("jobs:\n  lint:\n    runs-on: ubuntu-latest\n    steps:\n"
                "    - run: ruff check --select \"E4, E7\" --ignore 'E701' src  # the sources only\n")
    team = read_profile({".github/workflows/ci.yml": workflow}.get).team
    assert team.configured
    assert team.select == ("E4", "E7") and team.ignore == ("E701",)
    assert team.origin("E701") == "the `ruff` step in .github/workflows/ci.yml"


def test_command_words_split_as_the_shell_does():
    assert command_words("ruff check --select \"E,F\" src") == ["ruff", "check", "--select", "E,F", "src"]
    assert command_words("flake8 'my pkg' # lint") == ["flake8", "my pkg"]
    assert command_words("flake8 \"unclosed src") == ["flake8", "\"unclosed", "src"]  # the shell refuses it


def test_pytest_addopts_are_read_as_pytest_reads_them():
    pyproject = "[tool.pytest.ini_options]\naddopts = '--ignore=\"tests/bad fixtures\" -q'\n"
    assert set_aside({"pyproject.toml": pyproject}) == ["tests/bad fixtures"]
