"""The project as its maintainers declared it: the oldest Python it supports, and its own ruff decisions.

Read from the repository's files (never by running them): `.github/memfix.yml` `python:` first, then
`requires-python` (pyproject.toml), `python_requires` (setup.cfg, or setup.py read with `ast`), Poetry's
`python` dependency, the trove classifiers, ruff's `target-version`, `.python-version`. The oldest supported
version drives ruff's target and every rewrite; below what ruff can target (3.7), rules whose fixes change syntax
or APIs are not proposed. The repository's ruff configuration contributes what the team decided: ignores,
per-file ignores, excludes; `# noqa` is honoured by ruff itself.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from dataclasses import dataclass, replace

from packaging.specifiers import InvalidSpecifier, SpecifierSet

from core.bounded import ConfigFormat, ConfigRefused, read_config, table, table_at
from core.languages.adapter import Selection
from core.languages.python.configs import read_as, ruff_table, toml_file
from core.languages.python.scope import LintScope, find_lint_scope
from core.languages.python.team import TeamRules, find_team_rules
from core.languages.registry import within
from core.paths import WORKFLOW_FILES
from core.tools.pins import TOOL_FILES

RUFF_OLDEST = (3, 7)  # ruff cannot target anything older
RUFF_NEWEST = (3, 14)
DEFAULT = (3, 7)  # unknown: the oldest ruff can target, and the output says it was assumed
# Rules whose fixes need newer syntax or APIs than Python < 3.7 has: f-strings, super(), `[*a, *b]`, `{**a}`,
# keyword attribute access (getattr(x, "exec") → x.exec breaks 2.7), and pyupgrade/refurb rewrites in general.
SYNTAX_RULES = ("UP", "FURB", "B009", "B010", "RUF005", "PIE800")
# `assert` in tests is how tests work, not a finding, unless the repository selects S101 itself.
TEST_FILES = ("tests/**", "test/**", "**/tests/**", "**/test_*.py", "**/*_test.py", "**/conftest.py")
METADATA_FILES = ("pyproject.toml", "setup.cfg", "setup.py", "ruff.toml", ".ruff.toml", ".python-version", "tox.ini",
                  ".isort.cfg", ".flake8", ".pylintrc", "pylintrc", "mypy.ini", ".mypy.ini", "pytest.ini",
                  "conftest.py", *TOOL_FILES)
_CANDIDATES = [(2, 7), *((3, minor) for minor in range(0, RUFF_NEWEST[1] + 1))]


@dataclass(frozen=True)
class PythonTarget:
    oldest: tuple[int, int]
    source: str  # where it was read, in words: "requires-python '>=3.8' in pyproject.toml"
    assumed: bool = False
    upgrade_to: tuple[int, int] | None = None  # the team's pyupgrade goes no further than this

    @property
    def ruff_target(self) -> str:
        major, minor = min(max(self.upgrade_to or self.oldest, RUFF_OLDEST), RUFF_NEWEST)
        return f"py{major}{minor}"

    @property
    def below_ruff(self) -> bool:
        return self.oldest < RUFF_OLDEST

    @property
    def feature_version(self) -> tuple[int, int]:
        """What `ast.parse(feature_version=…)` checks a patch against (it knows no Python 2)."""
        return max(self.oldest, RUFF_OLDEST)

    def describe(self) -> str:
        version = ".".join(map(str, self.oldest))
        return f"Python {version}+ ({self.source})" + (" — assumed; set `python:` in .github/memfix.yml"
                                                       if self.assumed else "")


@dataclass(frozen=True)
class Profile:
    target: PythonTarget
    team: TeamRules
    problems: tuple[str, ...] = ()  # the project files memfix refused to read, and why
    scope: LintScope = LintScope()  # what the team's lint commands lint: files outside it are left alone

    def known_to(self, knows: Callable[[str], bool]) -> Profile:
        """The profile with only the rule selectors this ruff knows (a flake8 or pylint code it lacks is no rule of
        its, so nothing to select or ignore)."""
        team = self.team
        per_file = {p: tuple(c for c in codes if knows(c)) for p, codes in team.per_file_ignores.items()}
        return replace(self, team=replace(
            team, ignore=tuple(c for c in team.ignore if knows(c)), per_file_ignores={p: c for p, c in per_file.items()
                                                                                    if c},
            select=tuple(c for c in team.select if knows(c))))

    def ignore(self, rules: tuple[str, ...], held: tuple[str, ...] = ()) -> tuple[str, ...]:
        """Ignored on top of the selection: the team's ignores, syntax-changing rules for old Pythons, and the rules
        the learned policy holds back in this repository."""
        extra = SYNTAX_RULES if self.target.below_ruff else ()
        return tuple(dict.fromkeys([*self.team.ignore, *extra, *held]))

    def ruff_args(self, rules: tuple[str, ...], held: tuple[str, ...] = ()) -> list[str]:
        """ruff flags for this project (its configuration files are not read: `--isolated` keeps it that way)."""
        args = ["--target-version", self.target.ruff_target]
        if ignore := self.ignore(rules, held):
            args += ["--ignore=" + ",".join(ignore)]
        if per_file := self._per_file_ignores(rules):
            table = ", ".join(f"{_toml(p)} = [{', '.join(_toml(c) for c in codes)}]" for p, codes in per_file.items())
            args += [f"--config=lint.per-file-ignores = {{{table}}}"]
        if self.team.exclude:  # `=`: no value is ever read as a flag
            args += ["--force-exclude", "--extend-exclude=" + ",".join(self.team.exclude)]
        for option in self.team.options:  # the settings its rules read: the team's isort sections, its src, …
            args += ["--config=" + option]
        return args

    def _per_file_ignores(self, rules: tuple[str, ...]) -> dict[str, list[str]]:
        """The team's per-file ignores, and asserts allowed in tests unless the repository asked for S101."""
        per_file = {pattern: list(codes) for pattern, codes in self.team.per_file_ignores.items()}
        if not any(r == "S101" for r in rules):  # the repository did not ask for asserts in tests
            for pattern in TEST_FILES:
                per_file[pattern] = sorted({*per_file.get(pattern, []), "S101"})
        return per_file

    def selection(self, named: tuple[str, ...] | None, families: tuple[str, ...] | None = None,
                  extend: tuple[str, ...] = ()) -> Selection:
        """What the team's tools select decides: every rule they select, or of them only `families` (Refactor's
        kinds of change); rules a person `named` replace both. What .github/memfix.yml `rules: extend:` adds is
        said apart. Each rule keeps the place that chose it. Where no linter is configured, ruff's defaults are
        memfix's own preference: surveyed, and suggested at most one kind at a time."""
        extra = {code: "`rules: extend` in .github/memfix.yml" for code in extend}
        if named is not None:
            return Selection(tuple(dict.fromkeys([*named, *extend])), "the rules a person named "
                             f"({', '.join(named)})", tuple(extend), {**dict.fromkeys(named, "a person"), **extra})
        team = self.team
        if not team.configured and families is None:  # ruff's defaults are memfix's preference: surveyed, suggested
            return Selection(tuple(extend), f"nobody: {team.source}", tuple(extend), extra,
                             () if extend else team.select)
        return self._team_selection(families, extend, extra)

    def _team_selection(self, families: tuple[str, ...] | None, extend: tuple[str, ...],
                        extra: dict[str, str]) -> Selection:
        """Every rule the team's tools select, or of them only `families`, each with the place that chose it."""
        team = self.team
        chosen = team.select if families is None else within(families, team.select)
        origins = {code: team.origin(code) for code in chosen}
        why = f"the rules {team.source} selects ({', '.join(team.select)})"
        if families is not None:
            why += f", of the kinds Refactor proposes ({', '.join(families)})"
        could = families if families is not None and not chosen and not extend else ()
        return Selection(tuple(dict.fromkeys([*chosen, *extend])), why, tuple(extend), {**origins, **extra}, could)

    def describe(self) -> list[str]:
        lines = [f"target: {self.target.describe()}"]
        if self.target.below_ruff:
            lines.append(f"not proposed for Python {'.'.join(map(str, self.target.oldest))}: "
                         f"{', '.join(SYNTAX_RULES)} (their fixes need newer syntax or APIs)")
        lines.append(f"the team's linters: {self.team.source}")
        if said := self.scope.describe():
            lines.append(said)
        return lines


def _toml(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


Read = Callable[[str], "str | None"]


def read_profile(read: Read, override: str | None = None) -> Profile:
    """The project's profile from its files at the repository root (`read(path)` → text or None)."""
    texts = {name: read(name) for name in (*METADATA_FILES, *WORKFLOW_FILES)}
    team = find_team_rules(texts, read)
    scope = find_lint_scope(lambda name: texts[name] if name in texts else read(name))
    return Profile(_upgraded_to(find_target(texts, override), team), team,
                   (*_refused(texts), *team.refused, *scope.problems), scope)


def _upgraded_to(target: PythonTarget, team: TeamRules) -> PythonTarget:
    """ruff's upgrades go no further than the team's pyupgrade (`--py36-plus` on a 3.9 project: 3.7, ruff's
    oldest); the project's oldest Python still bounds every other change."""
    if team.upgrade_to is None or max(team.upgrade_to, RUFF_OLDEST) >= target.oldest or target.below_ruff:
        return target
    return replace(target, upgrade_to=max(team.upgrade_to, RUFF_OLDEST))


def _refused(texts: dict[str, str | None]) -> tuple[str, ...]:
    """What the bounded reader refused among the project's TOML and INI files: each is then read as empty."""
    problems = []
    for name, text in texts.items():
        if text is not None and (fmt := _FORMATS.get(name)):
            try:
                read_config(text, fmt, name)
            except ConfigRefused as exc:
                problems.append(f"{exc}; not read")
    return tuple(problems)


def find_target(texts: dict[str, str | None], override: str | None = None) -> PythonTarget:
    if override and (version := _version(override)):
        return PythonTarget(version, f"python: {override} in .github/memfix.yml")
    if (declared := _declared_target(texts)) is not None:
        return declared
    target = ruff_table(texts).get("target-version")
    if isinstance(target, str) and (version := _version(target)):
        return PythonTarget(version, f"ruff target-version {target!r}")
    if (pinned := texts.get(".python-version")) and (version := _version(pinned.strip().split("\n")[0])):
        return PythonTarget(version, ".python-version")
    return PythonTarget(DEFAULT, "nothing in the repository says", assumed=True)


def _declared_target(texts: dict[str, str | None]) -> PythonTarget | None:
    """The oldest Python the project's metadata declares: its `requires-python` (or setup's, or Poetry's), else its
    classifiers."""
    pyproject = toml_file(texts.get("pyproject.toml"))
    project = table(pyproject.get("project"))
    setup_py = _setup_py(texts.get("setup.py"))
    setup_cfg = _setup_cfg(texts.get("setup.cfg"))
    poetry = table_at(pyproject, "tool", "poetry", "dependencies")
    specifiers = [(project.get("requires-python"), "requires-python {!r} in pyproject.toml"),
                  (setup_cfg.get("python_requires"), "python_requires {!r} in setup.cfg"),
                  (setup_py.get("python_requires"), "python_requires {!r} in setup.py"),
                  (_poetry(poetry.get("python")), "Poetry's python {!r} in pyproject.toml")]
    for spec, where in specifiers:
        if isinstance(spec, str) and (oldest := _oldest(spec)):
            return PythonTarget(oldest, where.format(spec))
    for classifiers, where in ((project.get("classifiers"), "pyproject.toml"),
                               (setup_cfg.get("classifiers"), "setup.cfg"), (setup_py.get("classifiers"), "setup.py")):
        if oldest := _from_classifiers(classifiers):
            return PythonTarget(oldest, f"the Python classifiers in {where}")
    return None


# ---- reading ----

_FORMATS: dict[str, ConfigFormat] = {name: "toml" if name.endswith(".toml") else "ini" for name in METADATA_FILES
                                     if name.endswith((".toml", ".cfg", ".ini", ".flake8", "pylintrc"))}


def _setup_cfg(text: str | None) -> dict[str, object]:
    sections = read_as(text, "ini")
    found: dict[str, object] = {}
    if "python_requires" in (options := table(sections.get("options"))):
        found["python_requires"] = options["python_requires"]
    if isinstance(classifiers := table(sections.get("metadata")).get("classifiers"), str):
        found["classifiers"] = [c.strip() for c in classifiers.splitlines() if c.strip()]
    return found


def _setup_py(text: str | None) -> dict[str, object]:
    """`setup(python_requires=…, classifiers=[…])` literals, read with ast: setup.py is never executed."""
    try:
        tree = ast.parse(text or "")
    except (SyntaxError, ValueError, RecursionError, MemoryError):  # the parser's stack ends in the last two
        return {}
    found: dict[str, object] = {}
    for node in ast.walk(tree):
        for name, value in _setup_arguments(node):
            if name in ("python_requires", "classifiers") and name not in found:
                try:
                    found[name] = ast.literal_eval(value)
                except (ValueError, RecursionError):
                    continue
    return found


def _setup_arguments(node: ast.AST) -> list[tuple[object, ast.expr]]:
    """(name, value) of what a node may hand `setup`: its call's keywords, or a dict's items (`arguments = {…};
    setup(**arguments)`)."""
    if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) == "setup":
        return [(k.arg, k.value) for k in node.keywords]
    if isinstance(node, ast.Dict):
        return [(getattr(k, "value", None), v) for k, v in zip(node.keys, node.values, strict=True)]
    return []


def _poetry(spec: object) -> str | None:
    """Poetry's `^3.8` / `~3.8` / `>=3.8,<4` as a PEP 440 lower bound."""
    if not isinstance(spec, str):
        return None
    return re.sub(r"[\^~](?=\d)", ">=", spec.replace(" ", ""))


def _oldest(spec: str) -> tuple[int, int] | None:
    try:
        allowed = SpecifierSet(spec.replace(" ", ""))
    except InvalidSpecifier:
        return None
    return next((c for c in _CANDIDATES
                 if any(allowed.contains(f"{c[0]}.{c[1]}.{patch}", prereleases=True) for patch in (0, 99))), None)


def _from_classifiers(classifiers: object) -> tuple[int, int] | None:
    if not isinstance(classifiers, list):
        return None
    versions = [(int(m[1]), int(m[2])) for c in classifiers if isinstance(c, str)
                and (m := re.fullmatch(r"Programming Language :: Python :: (\d)\.(\d{1,3})", c.strip()))]
    return min(versions) if versions else None


def _version(text: str) -> tuple[int, int] | None:
    match = re.fullmatch(r"\s*(?:py|python|cpython-?)?(\d)\.?(\d{1,2})(?:\.\d+)?\s*", text.strip().lower())
    return (int(match[1]), int(match[2])) if match else None


