"""What the team's linters lint: the paths its lint commands name, read from where the team runs them (never run).

A team's CI runs `make codestyle`, whose recipe runs `flake8 httpie/ tests/ *.py`: a file elsewhere (`extras/x.py`)
is one the team never holds to its linter, so memfix neither scans nor fixes it. Read from the workflows' `run:`
steps (and the ruff and flake8 actions' inputs), tox.ini's `commands`, the Makefile targets those run, and the
pre-commit hooks' `files`/`exclude` regexes (with pre-commit's top-level ones). The scope is the union over every
lint command found: a file is in it when any command lints it. A command naming no path, `.`, or a path memfix
cannot read (`$SRC`, `{envsitepackagesdir}`) lints everything, and so does a team with no lint command at all.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from core.bounded import MAX_CONFIG_CHARS, shown
from core.languages.python.configs import read_as
from core.paths import path_matches
from core.tools.workflows import LINT_WORKFLOWS, commands, run_tool, steps

Read = Callable[[str], "str | None"]

LINT_TOOLS = ("flake8", "ruff", "pylint", "black", "isort", "pyupgrade", "autoflake")
MAKEFILES = ("GNUmakefile", "makefile", "Makefile")  # make's own order
MAX_REGEX_CHARS = 500  # a pre-commit `files`/`exclude` longer than this is not applied (the hook lints everything)
MAX_TARGETS = 16  # Makefile targets followed from one `make` command (its prerequisites and `$(MAKE) x` calls)
MAX_TARGET_DEPTH = 2
MAX_SHOWN = 8  # paths named in the run's note

# Options that take the next word as their value, per tool (a path after one is not a path linted).
_VALUED = {
    "flake8": {"--select", "--ignore", "--extend-select", "--extend-ignore", "--exclude", "--extend-exclude",
               "--filename", "--format", "--max-line-length", "--max-doc-length", "--max-complexity", "--config",
               "--append-config", "--output-file", "--per-file-ignores", "--jobs", "-j", "--indent-size",
               "--stdin-display-name", "--enable-extensions", "--require-plugins", "--builtins", "--color",
               "--application-import-names", "--import-order-style", "--docstring-convention", "--inline-quotes"},
    "ruff": {"--select", "--ignore", "--extend-select", "--extend-ignore", "--fixable", "--unfixable",
             "--extend-fixable", "--per-file-ignores", "--extend-per-file-ignores", "--exclude", "--extend-exclude",
             "--config", "--target-version", "--line-length", "--output-format", "--format", "--output-file", "-o",
             "--cache-dir", "--stdin-filename", "--dummy-variable-rgx", "--extension"},
    "pylint": {"--rcfile", "--disable", "--enable", "-d", "-e", "--load-plugins", "--output-format", "-f", "--jobs",
               "-j", "--ignore", "--ignore-patterns", "--ignore-paths", "--max-line-length", "--fail-under",
               "--output", "--msg-template", "--py-version", "--init-hook", "--extension-pkg-allow-list",
               "--generated-members", "--good-names", "--fail-on", "--reports", "-r", "--score", "-s"},
    "black": {"-l", "--line-length", "-t", "--target-version", "--include", "--exclude", "--extend-exclude",
              "--force-exclude", "--config", "--required-version", "--workers", "-W", "--stdin-filename",
              "--python-cell-magics", "-c", "--code"},
    "isort": {"--settings-path", "--sp", "--settings-file", "--settings", "--profile", "--line-length", "-l", "-w",
              "--skip", "-s", "--skip-glob", "--sg", "-p", "--project", "--known-local-folder", "-o", "--thirdparty",
              "-m", "--multi-line", "--src", "-j", "--jobs", "--line-ending"},
    "pyupgrade": set(),
    "autoflake": {"--imports", "--exclude"},
}
# `E,F`, `E501`, `120`: an option's value (after an option memfix does not know takes one), never a path
_CODES = re.compile(r"[A-Z]+\d+(?:,[A-Z]+\d*)*,?|[A-Z]+\d*(?:,[A-Z]+\d*)+,?|\d+")
_UNREAD = re.compile(r"[$`{}~]")  # a variable, a substitution, a home folder: what the path is, memfix cannot say
_MAKE_VARIABLE = re.compile(r"^(?:export\s+|override\s+)?([A-Za-z_][\w.-]*)\s*(::|[:?+!])?=\s*(.*)$")
_MAKE_TARGET = re.compile(r"^([^\s:=#][^:=#]*?)\s*::?(?!=)(.*)$")


@dataclass(frozen=True)
class Reach:
    """What one of the team's lint commands lints: path patterns relative to the root (none: everything), and for a
    pre-commit hook the regexes every file must match (`files`) and may not match (`exclude`)."""

    tool: str
    where: str
    paths: tuple[str, ...] = ()
    files: tuple[re.Pattern[str], ...] = ()
    exclude: tuple[re.Pattern[str], ...] = ()

    @property
    def narrows(self) -> bool:
        return bool(self.paths or self.files or self.exclude)

    def lints(self, path: str) -> bool:
        return (not self.paths or any(path_matches("/" + p, path) for p in self.paths)) \
            and all(r.search(path) for r in self.files) and not any(r.search(path) for r in self.exclude)

    def described(self) -> str:
        if self.paths:
            named = [p + ("/" if not p.endswith((".py", ".pyi", "/")) and "*" not in p else "") for p in self.paths]
            return ", ".join(named[:MAX_SHOWN]) + (", …" if len(named) > MAX_SHOWN else "")
        parts = [f"files matching {shown(r.pattern)}" for r in self.files]
        parts += [f"not {shown(r.pattern)}" for r in self.exclude]
        return ", ".join(parts) or "every file"


@dataclass(frozen=True)
class LintScope:
    """The union of what the team's lint commands lint; everything where none narrows (or none is found)."""

    reaches: tuple[Reach, ...] = ()
    problems: tuple[str, ...] = field(default=())

    @property
    def narrows(self) -> bool:
        return bool(self.reaches) and all(r.narrows for r in self.reaches)

    def lints(self, path: str) -> bool:
        return not self.narrows or any(r.lints(path) for r in self.reaches)

    def describe(self) -> str | None:
        """`linted by the team: httpie/, tests/ (the `codestyle` target of Makefile, run by …)`, where it narrows."""
        if not self.narrows:
            return None
        by_where: dict[str, list[str]] = {}
        for reach in self.reaches:
            said = by_where.setdefault(reach.where, [])
            if (text := reach.described()) not in said:
                said.append(text)
        return "linted by the team: " + "; ".join(f"{', '.join(texts)} ({where})" for where, texts in by_where.items())


def find_lint_scope(read: Read) -> LintScope:
    """The team's lint scope from its CI workflows, tox.ini, the Makefile targets they run and pre-commit."""
    problems: list[str] = []
    make = _Makefiles(read)
    reaches: list[Reach] = []
    for name in LINT_WORKFLOWS:
        for step in steps(read(name), name):
            reaches += _script_reaches(step.script, f"the `{{tool}}` step in {name}", step.cwd, make, name)
    for section, values in read_as(read("tox.ini"), "ini").items():
        if isinstance(values, dict) and isinstance(values.get("commands"), str):
            script = _tox_substituted(values["commands"])
            reaches += _script_reaches(script, f"tox's `{{tool}}` command in [{section}] of tox.ini", "", make,
                                       "tox.ini")
    reaches += _hook_reaches(read(".pre-commit-config.yaml"), problems)
    return LintScope(tuple(reaches), tuple(problems))


# ---- where commands are written ----


def _tox_substituted(command: str) -> str:
    """tox's substitutions memfix can resolve: `{posargs:pkg tests}` → its default, `{toxinidir}/` → the root."""
    command = re.sub(r"\{posargs(?::([^{}]*))?\}", lambda m: m[1] or "", command)
    return re.sub(r"\{(?:toxinidir|tox_root)\}/?", "", command)


def _hook_reaches(text: str | None, problems: list[str]) -> list[Reach]:
    """Each lint hook of pre-commit with its `files`/`exclude`, and the configuration's top-level ones."""
    data = read_as(text, "yaml")
    top_files = _regex(data.get("files"), "the top-level `files` of .pre-commit-config.yaml", problems)
    top_exclude = _regex(data.get("exclude"), "the top-level `exclude` of .pre-commit-config.yaml", problems)
    found = []
    repos = data.get("repos")
    for repo in repos if isinstance(repos, list) else ():
        hooks = repo.get("hooks") if isinstance(repo, dict) else None
        for hook in hooks if isinstance(hooks, list) else ():
            if not isinstance(hook, dict) or (tool := _hook_tool(hook)) is None:
                continue
            where = f"the {hook.get('id')} hook in .pre-commit-config.yaml"
            files = (*top_files, *_regex(hook.get("files"), f"`files` of {where}", problems))
            exclude = (*top_exclude, *_regex(hook.get("exclude"), f"`exclude` of {where}", problems))
            found.append(Reach(tool, where, files=files, exclude=exclude))
    return found


def _hook_tool(hook: dict[str, Any]) -> str | None:
    """The linter a hook runs: its id (`flake8`, `ruff-check`, `black-jupyter`), or a local hook's `entry`."""
    for word in (str(hook.get("id", "")), *str(hook.get("entry", "")).split()[:1]):
        name = word.rsplit("/", 1)[-1]
        tool = next((t for t in LINT_TOOLS if name == t or name.startswith(t + "-")), None)
        if tool is not None:
            return tool
    return None


def _regex(value: object, where: str, problems: list[str]) -> tuple[re.Pattern[str], ...]:
    """pre-commit's regex (searched in each path, as pre-commit does), or none where it cannot be applied."""
    if value is None or value == "" or value == "^$":  # pre-commit's defaults: every file, nothing excluded
        return ()
    if not isinstance(value, str) or len(value) > MAX_REGEX_CHARS:
        problems.append(f"{where} is not a regex of at most {MAX_REGEX_CHARS} characters: not applied")
        return ()
    try:
        return (re.compile(value),)
    except (re.error, RecursionError, OverflowError) as exc:
        problems.append(f"{where} {shown(value)} is no regex ({exc}): not applied")
        return ()


# ---- commands ----


def _script_reaches(script: str, where: str, cwd: str, make: _Makefiles, source: str) -> list[Reach]:
    """The lint commands of a script (a step's `run:`, tox's commands), `make TARGET` followed into its Makefile."""
    reaches: list[Reach] = []
    for words in commands(script):
        if words[:1] == ["cd"] and len(words) == 2:
            cwd = _joined(cwd, words[1]) or ""
            continue
        if (target := _make(words)) is not None:
            file, names = target
            folder = _joined(cwd, file) if file else cwd.rstrip("/") + "/" if cwd else ""
            reaches += make.reaches(folder, names, source) if folder is not None else []
        elif (found := _lint(words)) is not None:
            tool, args = found
            reaches.append(Reach(tool, where.replace("{tool}", tool), _paths(tool, args, cwd)))
    return reaches


def _lint(words: list[str]) -> tuple[str, list[str]] | None:
    """The linter a command runs and its arguments (`python -m flake8 src` → flake8, [src]); `ruff check`'s and
    `ruff format`'s subcommand dropped, ruff's others are no lint."""
    found = run_tool(words, LINT_TOOLS)
    if found is None or found[0] != "ruff":
        return found
    args = found[1]
    if args[:1] in (["check"], ["format"]):
        return "ruff", args[1:]
    if args and re.fullmatch(r"[a-z-]+", args[0]):
        return None  # `ruff rule`, `ruff version`, `ruff server`: no file is linted
    return found


def _paths(tool: str, args: list[str], cwd: str) -> tuple[str, ...]:
    """The paths a lint command names, relative to the root; () where it names none, `.`, or one memfix cannot
    read (each of those lints everything)."""
    valued = _VALUED.get(tool, set())
    words: list[str] = []
    skip = only_paths = False
    for word in args:
        if skip:
            skip = False
        elif word == "--" and not only_paths:
            only_paths = True
        elif word.startswith("-") and not only_paths:
            skip = word in valued
        elif not word.startswith((">", "<", "2>")) and not _CODES.fullmatch(word):
            words.append(word)
    paths = [_joined(cwd, word) for word in words or ["."]]
    if any(not path for path in paths):
        return ()  # the root itself, or a path memfix cannot place: everything
    return tuple(dict.fromkeys(path for path in paths if path))


def _joined(cwd: str, word: str) -> str | None:
    """`word` relative to the root, run from `cwd`: '' for the root itself, None for what memfix cannot place (a
    variable, a path leaving the checkout or outside it)."""
    if _UNREAD.search(word) or _UNREAD.search(cwd) or word.startswith("/") or cwd.startswith("/"):
        return None
    path = posixpath.normpath(posixpath.join(cwd, word)) if cwd else posixpath.normpath(word)
    if path == ".":
        return ""
    if path == ".." or path.startswith("../"):
        return None
    return path + ("/" if word.endswith("/") and not path.endswith("/") else "")


def _make(words: list[str]) -> tuple[str, list[str]] | None:
    """`make [-C dir] [-f file] TARGET…` (or `$(MAKE)`) as (its Makefile's folder or file, its targets)."""
    if not words or words[0].rsplit("/", 1)[-1] not in ("make", "gmake", "$(MAKE)", "${MAKE}"):
        return None
    folder, file, targets = "", "", []
    flag = ""
    for word in words[1:]:
        if flag:
            folder, file = (word, file) if flag == "-C" else (folder, word)
            flag = ""
        elif word in ("-C", "-f", "--directory", "--file", "--makefile"):
            flag = "-C" if word in ("-C", "--directory") else "-f"
        elif word.startswith(("-C", "--directory=")):
            folder = word.removeprefix("--directory=").removeprefix("-C")
        elif not word.startswith("-") and "=" not in word:
            targets.append(word)
    return (posixpath.join(folder, file) if file else folder + ("/" if folder and not folder.endswith("/") else ""),
            targets)


class _Makefiles:
    """The Makefiles a run's commands name, read once each: their variables and each target's recipe."""

    def __init__(self, read: Read):
        self._read = read
        self._parsed: dict[str, tuple[str, dict[str, str], dict[str, tuple[list[str], list[str]]]] | None] = {}

    def reaches(self, where: str, targets: list[str], source: str) -> list[Reach]:
        """The lint commands `make TARGET…` runs from `where` (a folder ending in `/`, '' for the root, or a file),
        following the targets' prerequisites and `$(MAKE) other` in the same file, bounded."""
        parsed = self._file(where)
        if parsed is None:
            return []
        name, variables, rules = parsed
        folder = posixpath.dirname(name)
        first = next((t for t in rules if not t.startswith(".")), None)  # make's default goal
        queue = [(t, 0) for t in (targets or ([first] if first else []))]
        seen: set[str] = set()
        reaches: list[Reach] = []
        while queue and len(seen) < MAX_TARGETS:
            target, depth = queue.pop(0)
            if target in seen or target not in rules:
                continue
            seen.add(target)
            prerequisites, recipe = rules[target]
            follow = depth < MAX_TARGET_DEPTH
            queue += [(p, depth + 1) for p in prerequisites] if follow else []
            said = f"the `{{tool}}` command of the `{target}` target of {name}, run by {source}"
            for line in recipe:
                script = _expanded(line.lstrip("@-+ \t"), variables)
                for words in commands(script):
                    if (called := _make(words)) is not None and not called[0]:
                        queue += [(t, depth + 1) for t in called[1]] if follow else []
                    elif (found := _lint(words)) is not None:
                        tool, args = found
                        reaches.append(Reach(tool, said.replace("{tool}", tool), _paths(tool, args, folder)))
        return reaches

    def _file(self, where: str) -> tuple[str, dict[str, str], dict[str, tuple[list[str], list[str]]]] | None:
        if where not in self._parsed:
            names = [where] if where and not where.endswith("/") else [where + m for m in MAKEFILES]
            self._parsed[where] = next(((n, *_makefile(text)) for n in names
                                        if (text := self._read(n)) is not None), None)
        return self._parsed[where]


def _makefile(text: str) -> tuple[dict[str, str], dict[str, tuple[list[str], list[str]]]]:
    """A Makefile's simple variables (`VENV_BIN = …`) and its targets, each with its prerequisites and recipe lines
    (read, never run; within the size any configuration may have)."""
    variables: dict[str, str] = {}
    rules: dict[str, tuple[list[str], list[str]]] = {}
    current: list[list[str]] = []
    for line in text[:MAX_CONFIG_CHARS].replace("\\\n", " ").splitlines():
        if line.startswith("\t"):
            for recipe in current:
                recipe.append(line[1:])
            continue
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if variable := _MAKE_VARIABLE.match(line):
            name, value = variable[1], variable[3].split("#", 1)[0].strip()
            appended = variable[2] == "+" and name in variables
            variables[name] = f"{variables[name]} {value}" if appended else value
            current = []
        elif target := _MAKE_TARGET.match(line):
            inline = target[2].split(";", 1)
            prerequisites = [p for p in inline[0].split("#", 1)[0].split() if "%" not in p]
            current = []
            for name in target[1].split():
                rules[name] = (prerequisites, [inline[1]] if len(inline) > 1 else [])
                current.append(rules[name][1])
        else:
            current = []
    return variables, rules


def _expanded(line: str, variables: dict[str, str]) -> str:
    """`$(NAME)` and `${NAME}` of the Makefile's simple variables, a few rounds deep; `$$` is the shell's `$`."""
    for _ in range(3):
        expanded = re.sub(r"\$[({]([A-Za-z_][\w.-]*)[)}]",
                          lambda m: variables.get(m[1], m[0]) if m[1] != "MAKE" else m[0], line)
        if expanded == line:
            break
        line = expanded
    return line.replace("$$", "$")
