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
from dataclasses import dataclass, field, replace
from typing import Any

from packaging.specifiers import InvalidSpecifier, SpecifierSet

from core.bounded import MAX_CONFIG_CHARS, ConfigFormat, ConfigRefused, read_config
from core.languages.adapter import Selection
from core.languages.registry import within

RUFF_OLDEST = (3, 7)  # ruff cannot target anything older
RUFF_NEWEST = (3, 14)
DEFAULT = (3, 7)  # unknown: the oldest ruff can target, and the output says it was assumed
# Rules whose fixes need newer syntax or APIs than Python < 3.7 has: f-strings, super(), `[*a, *b]`, `{**a}`,
# keyword attribute access (getattr(x, "exec") → x.exec breaks 2.7), and pyupgrade/refurb rewrites in general.
SYNTAX_RULES = ("UP", "FURB", "B009", "B010", "RUF005", "PIE800")
# `assert` in tests is how tests work, not a finding, unless the repository selects S101 itself.
TEST_FILES = ("tests/**", "test/**", "**/tests/**", "**/test_*.py", "**/*_test.py", "**/conftest.py")
METADATA_FILES = ("pyproject.toml", "setup.cfg", "setup.py", "ruff.toml", ".ruff.toml", ".python-version", "tox.ini",
                  ".flake8", ".pylintrc", "pylintrc", "mypy.ini", ".mypy.ini", "pytest.ini", "conftest.py")
RUFF_DEFAULT_SELECT = ("E4", "E7", "E9", "F")  # what ruff checks when a configuration selects nothing
MAX_EXTENDS = 5  # `extend` chains of ruff configurations followed at most this deep
_CANDIDATES = [(2, 7), *((3, minor) for minor in range(0, RUFF_NEWEST[1] + 1))]


@dataclass(frozen=True)
class PythonTarget:
    oldest: tuple[int, int]
    source: str  # where it was read, in words: "requires-python '>=3.8' in pyproject.toml"
    assumed: bool = False

    @property
    def ruff_target(self) -> str:
        major, minor = min(max(self.oldest, RUFF_OLDEST), RUFF_NEWEST)
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
class TeamRules:
    """What the repository's own linter configuration decided: ruff's, else flake8's and pylint's."""

    ignore: tuple[str, ...] = ()
    per_file_ignores: dict[str, tuple[str, ...]] = field(default_factory=dict)
    exclude: tuple[str, ...] = ()
    source: str = ""
    select: tuple[str, ...] | None = None  # the rules the team chose (None: its configuration chooses none)


@dataclass(frozen=True)
class Profile:
    target: PythonTarget
    team: TeamRules
    problems: tuple[str, ...] = ()  # the project files memfix refused to read, and why

    def known_to(self, knows: Callable[[str], bool]) -> Profile:
        """The profile with only the rule selectors this ruff knows (a flake8 or pylint code it lacks is no rule of
        its, so nothing to select or ignore)."""
        team = self.team
        if team.select is None and not team.ignore and not team.per_file_ignores:
            return self
        per_file = {p: tuple(c for c in codes if knows(c)) for p, codes in team.per_file_ignores.items()}
        return replace(self, team=replace(
            team, ignore=tuple(c for c in team.ignore if knows(c)), per_file_ignores={p: c for p, c in per_file.items()
                                                                                    if c},
            select=None if team.select is None else tuple(c for c in team.select if knows(c))))

    def ignore(self, rules: tuple[str, ...], held: tuple[str, ...] = ()) -> tuple[str, ...]:
        """Ignored on top of the selection: the team's ignores, syntax-changing rules for old Pythons, and the rules
        the learned policy holds back in this repository."""
        extra = SYNTAX_RULES if self.target.below_ruff else ()
        return tuple(dict.fromkeys([*self.team.ignore, *extra, *held]))

    def ruff_args(self, rules: tuple[str, ...], held: tuple[str, ...] = ()) -> list[str]:
        """ruff flags for this project (its configuration files are not read: `--isolated` keeps it that way)."""
        args = ["--target-version", self.target.ruff_target]
        if ignore := self.ignore(rules, held):
            args += ["--ignore", ",".join(ignore)]
        per_file = {pattern: list(codes) for pattern, codes in self.team.per_file_ignores.items()}
        if not any(r == "S101" for r in rules):  # the repository did not ask for asserts in tests
            for pattern in TEST_FILES:
                per_file[pattern] = sorted({*per_file.get(pattern, []), "S101"})
        if per_file:
            table = ", ".join(f"{_toml(p)} = [{', '.join(_toml(c) for c in codes)}]" for p, codes in per_file.items())
            args += ["--config", f"lint.per-file-ignores = {{{table}}}"]
        if self.team.exclude:
            args += ["--force-exclude", "--extend-exclude", ",".join(self.team.exclude)]
        return args

    def selection(self, pipeline: str, ours: tuple[str, ...], extend: tuple[str, ...] = ()) -> Selection:
        """The team's rules first: where its configuration selects rules, only those of memfix's `pipeline` rules
        it selects (and what .github/memfix.yml `rules: extend:` adds, said so); else memfix's own."""
        if self.team.select is None:
            return Selection(tuple(dict.fromkeys([*ours, *extend])), f"memfix's {pipeline} rules (no linter "
                             "configuration in the repository selects rules)", tuple(extend))
        chosen = within(ours, self.team.select)
        return Selection(tuple(dict.fromkeys([*chosen, *extend])),
                         f"the rules {self.team.source} selects ({', '.join(self.team.select)}), of memfix's "
                         f"{pipeline} rules", tuple(extend))

    def describe(self) -> list[str]:
        lines = [f"target: {self.target.describe()}"]
        if self.target.below_ruff:
            lines.append(f"not proposed for Python {'.'.join(map(str, self.target.oldest))}: "
                         f"{', '.join(SYNTAX_RULES)} (their fixes need newer syntax or APIs)")
        if self.team.source:
            lines.append(f"the team's ruff decisions from {self.team.source}")
        return lines


def _toml(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


Read = Callable[[str], "str | None"]


def read_profile(read: Read, override: str | None = None) -> Profile:
    """The project's profile from its files at the repository root (`read(path)` → text or None)."""
    texts = {name: read(name) for name in METADATA_FILES}
    return Profile(find_target(texts, override), find_team_rules(texts, read), _refused(texts))


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
    pyproject = _toml_file(texts.get("pyproject.toml"))
    project = pyproject.get("project", {}) if isinstance(pyproject.get("project"), dict) else {}
    setup_py = _setup_py(texts.get("setup.py"))
    setup_cfg = _setup_cfg(texts.get("setup.cfg"))
    poetry = ((pyproject.get("tool") or {}).get("poetry") or {}).get("dependencies") or {}
    specifiers = [(project.get("requires-python"), "requires-python {!r} in pyproject.toml"),
                  (setup_cfg.get("python_requires"), "python_requires {!r} in setup.cfg"),
                  (setup_py.get("python_requires"), "python_requires {!r} in setup.py"),
                  (_poetry(poetry.get("python") if isinstance(poetry, dict) else None),
                   "Poetry's python {!r} in pyproject.toml")]
    for spec, where in specifiers:
        if isinstance(spec, str) and (oldest := _oldest(spec)):
            return PythonTarget(oldest, where.format(spec))
    for classifiers, where in ((project.get("classifiers"), "pyproject.toml"),
                               (setup_cfg.get("classifiers"), "setup.cfg"), (setup_py.get("classifiers"), "setup.py")):
        if oldest := _from_classifiers(classifiers):
            return PythonTarget(oldest, f"the Python classifiers in {where}")
    ruff = _ruff_table(texts)
    if isinstance(ruff.get("target-version"), str) and (version := _version(ruff["target-version"])):
        return PythonTarget(version, f"ruff target-version {ruff['target-version']!r}")
    if (pinned := texts.get(".python-version")) and (version := _version(pinned.strip().split("\n")[0])):
        return PythonTarget(version, ".python-version")
    return PythonTarget(DEFAULT, "nothing in the repository says", assumed=True)


def find_team_rules(texts: dict[str, str | None], read: Read | None = None) -> TeamRules:
    rules = _linter_rules(texts, read)
    if elsewhere := [p for p in set_aside(texts, read) if p not in rules.exclude]:
        rules = replace(rules, exclude=(*rules.exclude, *elsewhere))
    return rules


def _linter_rules(texts: dict[str, str | None], read: Read | None) -> TeamRules:
    ruff = _ruff_table(texts)
    if not ruff:
        return _flake8_and_pylint(texts)
    ruff = _extended(ruff, read)
    lint: dict[str, Any] = ruff["lint"] if isinstance(ruff.get("lint"), dict) else {}
    chosen = [*_strings(lint.get("select")), *_strings(ruff.get("select"))] or list(RUFF_DEFAULT_SELECT)
    chosen += [*_strings(ruff.get("extend-select")), *_strings(lint.get("extend-select"))]
    ignore = [*_strings(ruff.get("ignore")), *_strings(lint.get("ignore")), *_strings(ruff.get("extend-ignore")),
              *_strings(lint.get("extend-ignore"))]
    per_file: dict[str, tuple[str, ...]] = {}
    for table in (ruff.get("per-file-ignores"), lint.get("per-file-ignores"), ruff.get("extend-per-file-ignores"),
                  lint.get("extend-per-file-ignores")):
        for pattern, codes in (table or {}).items() if isinstance(table, dict) else ():
            per_file[pattern] = tuple(dict.fromkeys([*per_file.get(pattern, ()), *_strings(codes)]))
    exclude = [*_strings(ruff.get("exclude")), *_strings(ruff.get("extend-exclude"))]
    return TeamRules(tuple(dict.fromkeys(c for c in ignore if _rule(c))), per_file, tuple(dict.fromkeys(exclude)),
                     source=ruff.get("__source__", "the ruff configuration"),
                     select=tuple(dict.fromkeys(c for c in chosen if _rule(c))))


def _extended(config: dict[str, Any], read: Read | None, depth: int = 0) -> dict[str, Any]:
    """ruff's `extend = "path"`: the named configuration first, this one's settings over it (followed a few deep,
    inside the repository only)."""
    target = config.get("extend")
    if not isinstance(target, str) or read is None or depth >= MAX_EXTENDS:
        return config
    path = target.removeprefix("./")
    if path.startswith(("/", "~")) or ".." in path.split("/"):
        return config
    base = _toml_file(read(path))
    base = (base.get("tool") or {}).get("ruff") or {} if path.endswith("pyproject.toml") else base
    if not isinstance(base, dict) or not base:
        return config
    base = _extended(base, None if depth + 1 >= MAX_EXTENDS else read, depth + 1)
    merged = {**base, **{k: v for k, v in config.items() if k not in ("extend", "lint")}}
    merged["lint"] = {**(base.get("lint") or {}), **(config.get("lint") or {})}
    return merged


def set_aside(texts: dict[str, str | None], read: Read | None = None) -> list[str]:
    """Paths the project keeps out of its other tools (flake8's and mypy's excludes, pytest's `norecursedirs`,
    `--ignore` and a root conftest's `collect_ignore`): files it does not hold to its own standards, such as
    fixtures of deliberately bad code. Never the package itself: a pattern naming an importable folder is left."""
    found: list[str] = []
    for name in (".flake8", "setup.cfg", "tox.ini"):
        section = _ini_section(texts.get(name), "flake8") or {}
        found += _listed(section.get("exclude")) + _listed(section.get("extend-exclude"))
    tools = _toml_file(texts.get("pyproject.toml")).get("tool") or {}
    mypy = [(tools.get("mypy") or {}).get("exclude")]
    for name, header in (("mypy.ini", "mypy"), (".mypy.ini", "mypy"), ("setup.cfg", "mypy")):
        mypy.append((_ini_section(texts.get(name), header) or {}).get("exclude"))
    for value in mypy:
        for pattern in (value if isinstance(value, list) else re.split(r"\s*\|\s*|\n", value or "")):
            found += [_plain(p) for p in [str(pattern)] if _plain(p)]
    pytest = (tools.get("pytest") or {}).get("ini_options") or {}
    for options in (pytest, _ini_section(texts.get("pytest.ini"), "pytest") or {},
                    _ini_section(texts.get("tox.ini"), "pytest") or {},
                    _ini_section(texts.get("setup.cfg"), "tool:pytest") or {}):
        recurse, addopts = options.get("norecursedirs"), options.get("addopts")
        found += recurse if isinstance(recurse, list) else _listed(recurse)
        words = addopts if isinstance(addopts, list) else (addopts or "").split() if isinstance(addopts, str) else []
        found += [w.split("=", 1)[1] for w in words if isinstance(w, str) and w.startswith(("--ignore=",
                                                                                            "--ignore-glob="))]
    found += _collect_ignore(texts.get("conftest.py"))
    kept = []
    for pattern in dict.fromkeys(p.strip().strip("/").removeprefix("./") for p in found):
        folder = pattern.rstrip("*").rstrip("/")
        if not pattern or pattern in (".", "*") or folder in ("src", "lib") or (
                read is not None and folder and read(f"{folder}/__init__.py") is not None):
            continue
        kept.append(pattern)
    return kept


def _listed(value: str | None) -> list[str]:
    return [v for v in re.split(r"[,\s]+", value or "") if v]


def _plain(regex: str) -> str:
    """A mypy exclude regex that names a path (`^tests/fixtures/`, `build`) as a glob, else ''."""
    text = regex.strip().removeprefix("^").removesuffix("$").replace("\\.", ".").rstrip("/")
    return text if re.fullmatch(r"[\w./-]+", text) else ""


def _collect_ignore(conftest: str | None) -> list[str]:
    """The strings a root conftest.py assigns to `collect_ignore`/`collect_ignore_glob` (read, never run)."""
    if not conftest or len(conftest) > MAX_CONFIG_CHARS:
        return []
    try:
        tree = ast.parse(conftest)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []
    found = []
    for node in ast.walk(tree):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] \
            if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else []
        if any(getattr(t, "id", "") in ("collect_ignore", "collect_ignore_glob") for t in targets) \
                and isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)) and node.value:
            found += [c.value for c in ast.walk(node.value) if isinstance(c, ast.Constant) and isinstance(c.value, str)]
    return found


def _flake8_and_pylint(texts: dict[str, str | None]) -> TeamRules:
    """No ruff configuration: flake8's `select`/`extend-select` narrow memfix's rules and its `ignore`/`extend-ignore`
    ignore, where the codes are ruff's too; pylint's disabled messages ignore their ruff equivalents (PLC0414 …)."""
    select: list[str] = []
    ignore: list[str] = []
    sources = []
    for name in (".flake8", "setup.cfg", "tox.ini"):
        section = _ini_section(texts.get(name), "flake8")
        if section is None:
            continue
        sources.append(f"[flake8] in {name}")
        if section.get("select") or section.get("extend-select"):  # flake8's own default, E F W C90, otherwise
            select += (_codes(section.get("select")) or ["E", "F", "W", "C90"]) + _codes(section.get("extend-select"))
        ignore += _codes(section.get("ignore")) + _codes(section.get("extend-ignore"))
        break
    for name, header in ((".pylintrc", "messages control"), ("pylintrc", "messages control"),
                         ("setup.cfg", "pylint.messages control")):
        section = _ini_section(texts.get(name), header)
        if section is not None and section.get("disable"):
            sources.append(f"pylint's disable in {name}")
            ignore += [f"PL{c}" for c in _codes(section.get("disable")) if re.fullmatch(r"[CRWE]\d{4}", c)]
            break
    if not sources:
        return TeamRules()
    return TeamRules(tuple(dict.fromkeys(c for c in ignore if _rule(c))),
                     source=" and ".join(sources), select=tuple(dict.fromkeys(select)) or None)


def _ini_section(text: str | None, name: str) -> dict[str, str] | None:
    sections = _read(text, "ini")
    found = next((section for section in sections if section.lower() == name), None)  # [MESSAGES CONTROL]
    return sections[found] if found else None


def _codes(value: str | None) -> list[str]:
    """flake8's and pylint's comma- or line-separated codes, upper case; names and `all` left out."""
    return [c.strip().upper() for c in re.split(r"[,\s]+", value or "") if re.fullmatch(r"[A-Za-z]{1,8}\d{0,4}",
                                                                                       c.strip())]


# ---- reading ----

_FORMATS: dict[str, ConfigFormat] = {name: "toml" if name.endswith(".toml") else "ini" for name in METADATA_FILES
                                     if name.endswith((".toml", ".cfg", ".ini", ".flake8", "pylintrc"))}


def _read(text: str | None, fmt: ConfigFormat) -> dict[str, Any]:
    """A project file's data through the bounded reader, or nothing: what it refuses (too large, too deep, a number
    longer than any setting) tells memfix nothing, and the run goes on without it (read_profile says why)."""
    if not text:
        return {}
    try:
        data = read_config(text, fmt, fmt)
    except ConfigRefused:
        return {}
    return data if isinstance(data, dict) else {}


def _toml_file(text: str | None) -> dict[str, Any]:
    return _read(text, "toml")


def _ruff_table(texts: dict[str, str | None]) -> dict[str, Any]:
    """ruff's own precedence: .ruff.toml, then ruff.toml, then [tool.ruff] in pyproject.toml."""
    for name in (".ruff.toml", "ruff.toml"):
        if texts.get(name) is not None:
            return {**_toml_file(texts[name]), "__source__": name}
    table = (_toml_file(texts.get("pyproject.toml")).get("tool") or {}).get("ruff")
    return {**table, "__source__": "[tool.ruff] in pyproject.toml"} if isinstance(table, dict) else {}


def _setup_cfg(text: str | None) -> dict[str, object]:
    sections = _read(text, "ini")
    found: dict[str, object] = {}
    if "python_requires" in (options := sections.get("options") or {}):
        found["python_requires"] = options["python_requires"]
    if "classifiers" in (metadata := sections.get("metadata") or {}):
        found["classifiers"] = [c.strip() for c in metadata["classifiers"].splitlines() if c.strip()]
    return found


def _setup_py(text: str | None) -> dict[str, object]:
    """`setup(python_requires=…, classifiers=[…])` literals, read with ast: setup.py is never executed."""
    try:
        tree = ast.parse(text or "")
    except (SyntaxError, ValueError, RecursionError, MemoryError):  # the parser's stack ends in the last two
        return {}
    found: dict[str, object] = {}
    for node in ast.walk(tree):
        pairs = []
        if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) == "setup":
            pairs = [(k.arg, k.value) for k in node.keywords]
        elif isinstance(node, ast.Dict):  # `arguments = {"python_requires": …}; setup(**arguments)`
            pairs = [(getattr(k, "value", None), v) for k, v in zip(node.keys, node.values, strict=True)]
        for name, value in pairs:
            if name in ("python_requires", "classifiers") and name not in found:
                try:
                    found[name] = ast.literal_eval(value)
                except (ValueError, RecursionError):
                    continue
    return found


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
                and (m := re.fullmatch(r"Programming Language :: Python :: (\d)\.(\d+)", c.strip()))]
    return min(versions) if versions else None


def _version(text: str) -> tuple[int, int] | None:
    match = re.fullmatch(r"\s*(?:py|python|cpython-?)?(\d)\.?(\d{1,2})(?:\.\d+)?\s*", text.strip().lower())
    return (int(match[1]), int(match[2])) if match else None


def _strings(value: object) -> list[str]:
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def _rule(code: str) -> bool:
    return bool(re.fullmatch(r"[A-Z]{1,8}[0-9]{0,4}|ALL", code))
