"""What the team's own tools select, read from every place a team writes it (never by running them)."""

from __future__ import annotations

import ast
import io
import json
import re
import shlex
import tokenize
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace

from core.bounded import MAX_CONFIG_CHARS, Table, shown, strings, table, table_at
from core.change import Finding, Patch, edit_spans
from core.languages.adapter import covering
from core.languages.python.configs import (
    codes_in,
    ini_section,
    is_rule,
    listed,
    read_as,
    ruff_table,
    toml_file,
)
from core.languages.python.syntax import assigned_to, strings_in
from core.paths import WORKFLOW_FILES, argument_problem
from core.tools.pins import TOOL_FILES  # where a team installs its tools: read at the repository root
from core.tools.workflows import commands, run_tool, steps

Read = Callable[[str], "str | None"]


# What each tool checks when the team names nothing, and the plugins that widen flake8's defaults (each the ruff
# family that reimplements it). A plugin counts where the team installs it: requirements, tox deps, pre-commit's
# additional_dependencies, the project's development extras.
RUFF_DEFAULT_SELECT = ("E4", "E7", "E9", "F")  # ruff's own: what the ecosystem's linters share
FLAKE8_DEFAULT_SELECT = ("E", "F", "W", "C90")
FLAKE8_DEFAULT_IGNORE = ("E121", "E123", "E126", "E226", "E24", "E704", "W503", "W504")
FLAKE8_PLUGINS = {
    "flake8-bugbear": "B", "flake8-comprehensions": "C4", "flake8-bandit": "S", "flake8-simplify": "SIM",
    "pep8-naming": "N", "flake8-docstrings": "D", "flake8-quotes": "Q", "flake8-commas": "COM", "flake8-print": "T20",
    "flake8-return": "RET", "flake8-pie": "PIE", "flake8-builtins": "A", "flake8-annotations": "ANN",
    "flake8-pytest-style": "PT", "flake8-use-pathlib": "PTH", "flake8-debugger": "T10",
    "flake8-implicit-str-concat": "ISC", "flake8-2020": "YTT", "flake8-tidy-imports": "TID",
    "flake8-logging-format": "G", "flake8-type-checking": "TC", "flake8-import-conventions": "ICN",
    "flake8-errmsg": "EM", "flake8-executable": "EXE", "flake8-no-pep420": "INP", "flake8-blind-except": "BLE",
    "flake8-boolean-trap": "FBT", "flake8-datetimez": "DTZ", "flake8-django": "DJ", "flake8-pyi": "PYI",
    "flake8-raise": "RSE", "flake8-self": "SLF", "flake8-slots": "SLOT", "flake8-unused-arguments": "ARG",
    "flake8-eradicate": "ERA", "pandas-vet": "PD", "flake8-future-annotations": "FA", "flake8-async": "ASYNC",
    "flake8-gettext": "INT", "flake8-logging": "LOG", "flake8-todos": "TD", "flake8-fixme": "FIX",
    "tryceratops": "TRY", "flynt": "FLY", "flake8-isort": "I", "flake8-bugbear-opinionated": "B9",
}
RUN_TOOLS = ("ruff", "flake8", "pylint", "pyupgrade", "isort", "autoflake")  # what a command line may run
# ruff's UP rules pyupgrade has no counterpart for: a team that upgrades with pyupgrade never chose them.
NOT_PYUPGRADE = ("UP038", "UP040", "UP042", "UP043", "UP044", "UP046", "UP047", "UP049", "UP050")
MAX_EXTENDS = 5  # `extend` chains of ruff configurations followed at most this deep
# ruff settings that shape what its rules report and how they fix (the rest memfix sets itself, or needs not):
# carried to memfix's own ruff runs, which read no configuration file.
RUFF_OPTIONS = ("src", "line-length", "indent-width", "namespace-packages")
RUFF_LINT_OPTIONS = ("dummy-variable-rgx", "allowed-confusables", "typing-modules", "task-tags")
RUFF_OPTION_TABLES = (
    "isort", "pydocstyle", "pycodestyle", "pyflakes", "pylint", "pyupgrade", "mccabe", "pep8-naming",
    "flake8-quotes", "flake8-tidy-imports", "flake8-bugbear", "flake8-builtins", "flake8-comprehensions",
    "flake8-pytest-style", "flake8-annotations", "flake8-import-conventions", "flake8-type-checking",
    "flake8-unused-arguments", "flake8-errmsg", "flake8-implicit-str-concat", "flake8-self",
)
MAX_OPTIONS = 64


@dataclass(frozen=True)
class TeamRules:
    """What the team's tools decided: the rules they select, each with the file that chose it, and what they ignore
    or leave out."""

    ignore: tuple[str, ...] = ()
    per_file_ignores: dict[str, tuple[str, ...]] = field(default_factory=dict)
    exclude: tuple[str, ...] = ()
    source: str = ""  # every place that chose rules, in words
    select: tuple[str, ...] = RUFF_DEFAULT_SELECT
    origins: dict[str, str] = field(default_factory=dict)  # selector → the place that chose it
    configured: bool = False  # False: no linter is configured anywhere, and ruff's defaults stand in
    options: tuple[str, ...] = ()  # ruff settings the rules read (`lint.isort.known-first-party = ["pkg"]`), TOML
    refused: tuple[str, ...] = ()  # the team's paths memfix does not pass to a tool, and why
    upgrade_to: tuple[int, int] | None = None  # pyupgrade's `--pyXY-plus`: how far the team's upgrades go
    linters: tuple[str, ...] = ()  # the linters the team configures or runs (`flake8`), by their names
    # selector → the tool whose configuration chose it: "ruff" for a ruff configuration file (or ruff's defaults,
    # where nothing is configured), else the other tool's name ("flake8", "pylint", "pyupgrade", "ruff-hook", …)
    tools: dict[str, str] = field(default_factory=dict)
    unfixable: tuple[str, ...] = ()  # what the team's ruff configuration never lets ruff fix

    def origin(self, code: str) -> str:
        """The place that chose a rule (its longest selector wins: `UP006` over `UP`)."""
        selector = covering(code, tuple(self.origins))
        return self.origins[selector] if selector else self.source

    def tool_of(self, code: str) -> str | None:
        """The tool whose configuration chose a rule or selector (its longest selector's), or None: a person's
        choice, or `.github/memfix.yml`'s."""
        selector = covering(code, tuple(self.tools))
        return self.tools[selector] if selector else None


@dataclass
class _Choices:
    """Rules chosen so far, and where; what is ignored."""

    select: dict[str, str] = field(default_factory=dict)
    ignore: list[str] = field(default_factory=list)
    sources: list[str] = field(default_factory=list)
    upgrade_to: tuple[int, int] | None = None
    linters: list[str] = field(default_factory=list)
    tools: dict[str, str] = field(default_factory=dict)
    unfixable: list[str] = field(default_factory=list)

    def add(self, codes: list[str] | tuple[str, ...], where: str, tool: str) -> None:
        kept = [c for c in codes if is_rule(c)]
        for code in kept:
            self.select.setdefault(code, where)
            self.tools.setdefault(code, tool)
        if kept and where not in self.sources:
            self.sources.append(where)


def find_team_rules(texts: dict[str, str | None], read: Read | None = None) -> TeamRules:
    rules = _linter_rules(texts, read)
    exclude = list(dict.fromkeys([*rules.exclude, *set_aside(texts, read)]))
    refused = [f"the exclude pattern {shown(p)} {why}: not passed to ruff" for p in exclude
               if (why := argument_problem(p))]
    return replace(rules, exclude=tuple(p for p in exclude if not argument_problem(p)),
                   refused=(*rules.refused, *refused))


def _linter_rules(texts: dict[str, str | None], read: Read | None) -> TeamRules:
    """Every tool the team configures or runs, together: ruff's configuration, flake8 (its defaults and installed
    plugins where it selects nothing), pylint, and the pre-commit hooks that fix; ruff's defaults where none is."""
    choices = _Choices()
    per_file: dict[str, tuple[str, ...]] = {}
    exclude: list[str] = []
    options: tuple[str, ...] = ()
    refused: tuple[str, ...] = ()
    if ruff := ruff_table(texts):
        ruff = _extended(ruff, read)
        per_file, exclude = _ruff(ruff, choices)
        options, refused = ruff_options(ruff)
    if not any(o.startswith("lint.isort.") for o in options):  # ruff's own isort table, where it has one, decides
        options = (*options, *isort_options(texts))
    hooks = _hooks(texts)
    _flake8(texts, hooks, choices)
    _pylint(texts, hooks, choices)
    _fixers(hooks, choices)
    ignore = tuple(dict.fromkeys(c for c in choices.ignore if is_rule(c)))
    if not choices.select:
        return TeamRules(ignore, per_file, tuple(dict.fromkeys(exclude)), "ruff's defaults (no linter is configured in "
                         "the repository)", RUFF_DEFAULT_SELECT, tools=dict.fromkeys(RUFF_DEFAULT_SELECT, "ruff"))
    return TeamRules(ignore, per_file, tuple(dict.fromkeys(exclude)), " and ".join(choices.sources),
                     tuple(choices.select), dict(choices.select), configured=True, options=options,
                     upgrade_to=choices.upgrade_to, refused=refused, linters=tuple(choices.linters),
                     tools=dict(choices.tools), unfixable=tuple(dict.fromkeys(c for c in choices.unfixable
                                                                               if is_rule(c))))


def _ruff(ruff: Table, choices: _Choices) -> tuple[dict[str, tuple[str, ...]], list[str]]:
    lint = table(ruff.get("lint"))
    where = str(ruff.get("__source__", "the ruff configuration"))
    chosen = [*strings(lint.get("select")), *strings(ruff.get("select"))] or list(RUFF_DEFAULT_SELECT)
    chosen += [*strings(ruff.get("extend-select")), *strings(lint.get("extend-select"))]
    choices.add(chosen, where, "ruff")
    choices.unfixable += [*strings(ruff.get("unfixable")), *strings(lint.get("unfixable"))]
    choices.ignore += [*strings(ruff.get("ignore")), *strings(lint.get("ignore")), *strings(ruff.get("extend-ignore")),
                       *strings(lint.get("extend-ignore"))]
    per_file: dict[str, tuple[str, ...]] = {}
    for ignores in (ruff.get("per-file-ignores"), lint.get("per-file-ignores"), ruff.get("extend-per-file-ignores"),
                    lint.get("extend-per-file-ignores")):
        for pattern, codes in table(ignores).items():
            per_file[pattern] = tuple(dict.fromkeys([*per_file.get(pattern, ()), *strings(codes)]))
    return per_file, [*strings(ruff.get("exclude")), *strings(ruff.get("extend-exclude"))]


def ruff_options(ruff: Table) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The settings of a ruff configuration that shape what its rules report, as `key = value` TOML lines for
    `--config`: only plain values (text, numbers, booleans, lists and tables of them). A `src` that names a path
    outside the checkout (`/usr/**` would have ruff walk the worker's disk) is not passed: (lines, what was refused)."""
    lines, refused = [], []
    where = ruff.get("__source__", "the ruff configuration")
    for key, value in _ruff_settings(ruff):
        literal = _toml_value(value)
        if bad := _outside_src(key, value):
            refused += [f"`src` in {where}: {shown(p)} {why}: not passed to ruff" for p, why in bad]
        elif literal is not None and re.fullmatch(r"[a-z0-9.-]+", key):
            lines.append(f"{key} = {literal}")
    return tuple(lines[:MAX_OPTIONS]), tuple(refused)


def _ruff_settings(ruff: Table) -> list[tuple[str, object]]:
    """The settings ruff's rules read, by their dotted names under `lint.` (`lint` over the top level)."""
    lint = table(ruff.get("lint"))
    found = [(key, ruff.get(key)) for key in RUFF_OPTIONS]
    found += [(f"lint.{key}", lint.get(key, ruff.get(key))) for key in RUFF_LINT_OPTIONS]
    for name in RUFF_OPTION_TABLES:
        settings = lint.get(name, ruff.get(name))
        if isinstance(settings, dict):
            found += [(f"lint.{name}.{key}", value) for key, value in settings.items() if isinstance(key, str)]
    return found


def _outside_src(key: str, value: object) -> list[tuple[str, str]]:
    """The paths of a `src` setting that leave the checkout, each with why; nothing for any other setting."""
    if key != "src":
        return []
    paths = [value] if isinstance(value, str) else strings(value)
    return [(p, why) for p in paths if (why := argument_problem(p))]


# isort's settings that ruff's isort reads under another name; a list-valued one may be written comma-separated.
ISORT_SETTINGS = {
    "known_first_party": "known-first-party", "known_third_party": "known-third-party",
    "known_local_folder": "known-local-folder", "extra_standard_library": "extra-standard-library",
    "known_standard_library": "extra-standard-library", "force_single_line": "force-single-line",
    "combine_as_imports": "combine-as-imports", "force_sort_within_sections": "force-sort-within-sections",
    "lines_after_imports": "lines-after-imports", "order_by_type": "order-by-type", "case_sensitive": "case-sensitive",
    "default_section": "default-section", "no_lines_before": "no-lines-before", "force_to_top": "force-to-top",
}
_ISORT_LISTS = {"known-first-party", "known-third-party", "known-local-folder", "extra-standard-library",
                "no-lines-before", "force-to-top"}
_ISORT_SECTIONS = {"FUTURE": "future", "STDLIB": "standard-library", "THIRDPARTY": "third-party",
                   "FIRSTPARTY": "first-party", "LOCALFOLDER": "local-folder"}  # isort's section names, ruff's
_ISORT_BOOLS = {"force-single-line", "combine-as-imports", "force-sort-within-sections", "order-by-type",
                "case-sensitive"}


def isort_options(texts: dict[str, str | None]) -> tuple[str, ...]:
    """isort's own configuration (`[tool.isort]`, `.isort.cfg`, `[isort]` in setup.cfg or tox.ini) as ruff's isort
    settings, so ruff's I001 judges imports as the team's isort does."""
    lines = []
    for key, value in _isorttable(texts).items():
        name = ISORT_SETTINGS.get(str(key).lower())
        if name is not None and (literal := _toml_value(_as_ruff_isort(name, value))) is not None:
            lines.append(f"lint.isort.{name} = {literal}")
    return tuple(lines)


def _isorttable(texts: dict[str, str | None]) -> Mapping[str, object]:
    """isort's settings where isort looks for them: `[tool.isort]` first, then its ini sections."""
    isort = table_at(toml_file(texts.get("pyproject.toml")), "tool").get("isort")
    if isinstance(isort, dict):
        return isort
    return next((found for name, header in ((".isort.cfg", "settings"), ("setup.cfg", "isort"),
                                            ("setup.cfg", "tool:isort"), ("tox.ini", "isort"))
                 if (found := ini_section(texts.get(name), header)) is not None), {})


def _as_ruff_isort(name: str, value: object) -> object:
    """An isort setting written as ini text, as the value ruff's isort reads under `name`."""
    if not isinstance(value, str):
        return value
    if name in _ISORT_LISTS:
        return [v for v in re.split(r"[,\s]+", value) if v]
    if name in _ISORT_BOOLS:
        return value.strip().lower() in ("true", "1", "yes")
    if name == "lines-after-imports":  # a count ruff reads, or nothing
        return int(value) if re.fullmatch(r"-?\d{1,4}", value.strip()) else None
    if name == "default-section":
        return _ISORT_SECTIONS.get(value.strip().upper(), value)
    return value


def _toml_value(value: object, depth: int = 0) -> str | None:
    if isinstance(value, list):
        return _toml_array(value, depth) if depth < 2 else None
    if isinstance(value, dict):
        return _toml_inlinetable(value, depth) if depth < 2 else None
    return _toml_scalar(value)


def _toml_scalar(value: object) -> str | None:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)  # a TOML basic string is JSON's string
    return None


def _toml_array(value: list[object], depth: int) -> str | None:
    items = [_toml_value(v, depth + 1) for v in value]
    return None if None in items else f"[{', '.join(i for i in items if i is not None)}]"


def _toml_inlinetable(value: dict[object, object], depth: int) -> str | None:
    pairs = [(k, _toml_value(v, depth + 1)) for k, v in value.items()]
    if any(v is None or not isinstance(k, str) for k, v in pairs):
        return None
    return "{" + ", ".join(f"{json.dumps(k)} = {v}" for k, v in pairs) + "}"


def _extended(config: Table, read: Read | None, depth: int = 0) -> Table:
    """ruff's `extend = "path"`: the named configuration first, this one's settings over it (followed a few deep,
    inside the repository only)."""
    path = _extend_path(config.get("extend"))
    if path is None or read is None or depth >= MAX_EXTENDS:
        return config
    base = _ruff_file(read(path), path)
    if not base:
        return config
    base = _extended(base, None if depth + 1 >= MAX_EXTENDS else read, depth + 1)
    return _over(base, config)


def _ruff_file(text: str | None, path: str) -> Table:
    """A ruff configuration file's settings: a pyproject's `[tool.ruff]`, or the whole of a ruff.toml."""
    data = toml_file(text)
    return table_at(data, "tool", "ruff") if path.endswith("pyproject.toml") else data


def _over(base: Table, config: Table) -> Table:
    """`config`'s settings over `base`'s, its `lint` table merged key by key."""
    merged = {**base, **{k: v for k, v in config.items() if k not in ("extend", "lint")}}
    merged["lint"] = {**table(base.get("lint")), **table(config.get("lint"))}
    return merged


def _extend_path(target: object) -> str | None:
    """The path an `extend` names, where it stays inside the repository."""
    if not isinstance(target, str):
        return None
    path = target.removeprefix("./")
    return None if path.startswith(("/", "~")) or ".." in path.split("/") else path


@dataclass(frozen=True)
class _Hook:
    """A tool the team runs: a pre-commit hook, a tox command or a CI step; its arguments, what it installs beside
    the tool, and where it is run, in words."""

    id: str
    args: tuple[str, ...] = ()
    installs: str = ""  # additional_dependencies, as text to find plugins in
    where: str = ""


def _hooks(texts: dict[str, str | None]) -> list[_Hook]:
    """Every tool the team runs: its pre-commit hooks, then its tox commands and CI steps."""
    found = _pre_commit_hooks(texts.get(".pre-commit-config.yaml"))
    tox = [str(v.get("commands", "")) for v in read_as(texts.get("tox.ini"), "ini").values() if isinstance(v, dict)]
    found += _commands(tox, "tox's `{}` command in tox.ini")
    for name in WORKFLOW_FILES:
        found += _commands([step.script for step in steps(texts.get(name), name)], f"the `{{}}` step in {name}")
    return found


def _pre_commit_hooks(text: str | None) -> list[_Hook]:
    data = read_as(text, "yaml")
    found = []
    repos = data.get("repos")
    for repo in repos if isinstance(repos, list) else []:
        for hook in (repo.get("hooks") or []) if isinstance(repo, dict) and isinstance(repo.get("hooks"), list) else []:
            if isinstance(hook, dict) and isinstance(hook.get("id"), str):
                found.append(_Hook(hook["id"], tuple(strings(hook.get("args"))),
                                   " ".join(strings(hook.get("additional_dependencies"))),
                                   f"the {hook['id']} hook in .pre-commit-config.yaml"))
    return found


def _commands(scripts: list[str], where: str) -> list[_Hook]:
    """The linters and fixers a script runs (`flake8 --select=E,F src`, `python -m pylint pkg`), each with its
    arguments up to the end of its command."""
    found = []
    for script in scripts:
        for words in commands(script):
            if (ran := run_tool(words, RUN_TOOLS)) is not None:
                tool, args = ran
                found.append(_Hook(tool, tuple(args[1:] if args[:1] == ["check"] else args), "", where.format(tool)))
    return found


def command_words(command: str) -> list[str]:
    """A command line's words as the shell reads them (`--select "E,F"` gives `E,F`; a `#` comment is no word);
    an unclosed quote, which the shell would refuse, is read as its words as written."""
    try:
        return shlex.split(command, comments=True)
    except ValueError:
        return command.split()


def _flake8(texts: dict[str, str | None], hooks: list[_Hook], choices: _Choices) -> None:
    """flake8's `select` (its defaults and every installed plugin's codes where it names none) and `ignore` (its
    default ignores where it names none), from its configuration or from where it runs unconfigured."""
    where, section = _flake8_section(texts)
    runs = [h for h in hooks if h.id == "flake8"]
    where = where or next((h.where for h in runs), None)
    if where is None:
        return
    section = {**section, **_flake8_arguments(runs)}
    if not (chosen := codes_in(section.get("select"))):
        where = f"flake8 by default ({where} selects nothing)"
        chosen = _flake8_defaults(texts, runs)
    choices.add([*chosen, *codes_in(section.get("extend-select"))], where, "flake8")
    choices.linters.append("flake8")
    choices.ignore += codes_in(section.get("ignore")) if "ignore" in section else list(FLAKE8_DEFAULT_IGNORE)
    choices.ignore += codes_in(section.get("extend-ignore"))


def _flake8_section(texts: dict[str, str | None]) -> tuple[str | None, dict[str, str]]:
    """flake8's `[flake8]` section where flake8 looks for it first, and where that is in words."""
    for name in (".flake8", "setup.cfg", "tox.ini"):
        if (found := ini_section(texts.get(name), "flake8")) is not None:
            return f"[flake8] in {name}", found
    return None, {}


def _flake8_defaults(texts: dict[str, str | None], runs: list[_Hook]) -> list[str]:
    """flake8's default selection, widened by every plugin the team installs beside it."""
    installed = " ".join([*(t or "" for n, t in texts.items() if n in (*TOOL_FILES, "tox.ini", "setup.cfg",
                                                                        "pyproject.toml", "setup.py")),
                          *(h.installs for h in runs)]).lower()
    return [*FLAKE8_DEFAULT_SELECT, *(code for plugin, code in FLAKE8_PLUGINS.items()
                                      if re.search(rf"(?<![\w-]){re.escape(plugin)}(?![\w-])", installed))]


def _flake8_arguments(runs: list[_Hook]) -> dict[str, str]:
    """What the command lines that run flake8 say over its configuration (`--select`, `--extend-ignore`, …)."""
    said: dict[str, str] = {}
    for run in runs:
        for option in ("select", "extend-select", "ignore", "extend-ignore"):
            if codes := _argument(run.args, f"--{option}"):
                said[option] = ",".join(codes)
    return said


def _pylint(texts: dict[str, str | None], hooks: list[_Hook], choices: _Choices) -> None:
    """pylint's checks (ruff's PL rules) less the messages the team disables, where it configures or runs pylint."""
    found = _pylintrc_disabled(texts) or _pyproject_pylint_disabled(texts) or _pylint_run_disabled(hooks)
    if found is None:
        return
    disabled, where = found
    choices.add(["PL"], where, "pylint")
    choices.ignore += [f"PL{c}" for c in disabled if re.fullmatch(r"[CRWE]\d{4}", c)]


def _pylintrc_disabled(texts: dict[str, str | None]) -> tuple[list[str], str] | None:
    """The messages a pylintrc (or setup.cfg's pylint section) disables, and its name; None where there is none."""
    for name, header in ((".pylintrc", "messages control"), ("pylintrc", "messages control"),
                         ("setup.cfg", "pylint.messages control")):
        section = ini_section(texts.get(name), header)
        if section is not None or (name != "setup.cfg" and texts.get(name) is not None):
            return codes_in((section or {}).get("disable")), name
    return None


def _pyproject_pylint_disabled(texts: dict[str, str | None]) -> tuple[list[str], str] | None:
    pyproject = table_at(toml_file(texts.get("pyproject.toml")), "tool").get("pylint")
    if not isinstance(pyproject, dict):
        return None
    control = pyproject.get("messages control") or pyproject.get("messages_control")
    disabled = [c.upper() for c in strings(control.get("disable"))] if isinstance(control, dict) else []
    return disabled, "[tool.pylint] in pyproject.toml"


def _pylint_run_disabled(hooks: list[_Hook]) -> tuple[list[str], str] | None:
    """What a command line that runs pylint unconfigured disables with `--disable`."""
    run = next((h for h in hooks if h.id == "pylint"), None)
    return None if run is None else (_argument(run.args, "--disable"), run.where)


def _fixers(hooks: list[_Hook], choices: _Choices) -> None:
    """pre-commit hooks that fix, as the ruff rules that make the same fixes: pyupgrade (UP), isort (I), autoflake
    (unused imports, and unused variables where asked), and ruff's own hook with its `--select`."""
    for hook in hooks:
        if fixer := _FIXERS.get(hook.id):
            fixer(hook, choices)


def _pyupgrade(hook: _Hook, choices: _Choices) -> None:
    if "UP" not in choices.select:  # ruff's own configuration, where it selects UP, decides instead
        choices.ignore += NOT_PYUPGRADE
    choices.add(["UP"], hook.where, "pyupgrade")
    versions = [(int(m[1]), int(m[2] or 0)) for a in hook.args
                if (m := re.fullmatch(r"--py(\d)(\d{0,2})-plus", a))]  # `--py3-plus`: Python 3.0
    choices.upgrade_to = min(versions, default=(3, 0))  # pyupgrade 3 upgrades to Python 3 when told nothing


def _isort(hook: _Hook, choices: _Choices) -> None:
    choices.add(["I"], hook.where, "isort")


def _autoflake(hook: _Hook, choices: _Choices) -> None:
    choices.add(["F401", *(["F841"] if "--remove-unused-variables" in hook.args else [])], hook.where, "autoflake")


def _ruff_hook(hook: _Hook, choices: _Choices) -> None:
    # the hook's own command line, not a configuration file: the team's ruff is told them as its hook is
    choices.add(_argument(hook.args, "--select") + _argument(hook.args, "--extend-select"), hook.where, "ruff-hook")
    choices.ignore += _argument(hook.args, "--ignore") + _argument(hook.args, "--extend-ignore")


_FIXERS: dict[str, Callable[[_Hook, _Choices], None]] = {
    "pyupgrade": _pyupgrade, "isort": _isort, "autoflake": _autoflake, "ruff": _ruff_hook, "ruff-check": _ruff_hook,
}


@dataclass(frozen=True)
class Beyond:
    """A fix ruff makes that the team's own tool for the rule would not: what it is, and the rules it blames."""

    text: str
    rules: frozenset[str]


def beyond_its_tool(patch: Patch, team: TeamRules) -> Beyond | None:
    """The first fix of `patch` the tool that chose its rule would not make: ruff reimplements pyupgrade, but where
    pyupgrade leaves `.format` alone on implicitly concatenated strings, UP032 rewrites them."""
    lines = patch.original.splitlines(keepends=True)
    return next((beyond for finding in patch.findings if finding.edits
                 and (beyond := _fix_beyond(finding, lines, team.origin(finding.code)))), None)


def _fix_beyond(finding: Finding, lines: list[str], origin: str) -> Beyond | None:
    """Where one finding's fix goes further than the tool that chose its rule (`origin`) would."""
    first = min(e[0] for e in finding.edits)
    last = max(e[2] for e in finding.edits)
    before = "".join(lines[first - 1:last])
    if finding.code == "UP032" and "pyupgrade" in origin and _concatenated(before):
        return Beyond(f"line {finding.line}: UP032 rewrites implicitly concatenated strings, which pyupgrade "
                      f"(the tool that chose it, {origin}) leaves as they are", frozenset({finding.code}))
    if finding.code == "I001" and "isort" in origin and not _only_reordered(lines, finding.edits):
        return Beyond(f"line {finding.line}: I001 merges, splits or rewraps imports, which the team's isort "
                      f"({origin}) judges by its own profile and comments: only a reordering is ruff's and "
                      "isort's alike", frozenset({finding.code}))
    return None


def _only_reordered(lines: list[str], edits: tuple[tuple[int, int, int, int, str], ...]) -> bool:
    """ruff's import fix only moves whole lines (the same lines, in another order)."""
    text = "".join(lines)
    spans = edit_spans(text, edits)
    before = "".join(text[start:end] for start, end, _ in spans)
    replaced = "".join(new for _, _, new in spans)
    return sorted(line.strip() for line in before.splitlines() if line.strip()) == \
        sorted(line.strip() for line in replaced.splitlines() if line.strip())


def _concatenated(source: str) -> bool:
    """Two string literals side by side (`"a" "b"`, across lines too) in a piece of source."""
    previous = None
    try:
        for token in tokenize.generate_tokens(io.StringIO(source.strip()).readline):
            if token.type in (tokenize.NL, tokenize.NEWLINE, tokenize.COMMENT, tokenize.INDENT, tokenize.DEDENT):
                continue
            if token.type == tokenize.STRING and previous == tokenize.STRING:
                return True
            previous = token.type
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return False
    return False


def _argument(args: tuple[str, ...], name: str) -> list[str]:
    """The codes a command line gives `name` (`--select=E,F` or `--select E,F`)."""
    values = [a.split("=", 1)[1] for a in args if a.startswith(name + "=")]
    values += [args[i + 1] for i, a in enumerate(args[:-1]) if a == name]
    return [c for v in values for c in codes_in(v)]


def set_aside(texts: dict[str, str | None], read: Read | None = None) -> list[str]:
    """Paths the project keeps out of its other tools (flake8's and mypy's excludes, pytest's `norecursedirs`,
    `--ignore` and a root conftest's `collect_ignore`): files it does not hold to its own standards, such as
    fixtures of deliberately bad code. Never the package itself: a pattern naming an importable folder is left."""
    tools = table(toml_file(texts.get("pyproject.toml")).get("tool"))
    found = _flake8_excludes(texts) + _mypy_excludes(texts, tools) + _pytest_ignores(texts, tools)
    found += _collect_ignore(texts.get("conftest.py"))
    return [pattern for pattern in dict.fromkeys(p.strip().strip("/").removeprefix("./") for p in found)
            if not _names_the_package(pattern, read)]


def _flake8_excludes(texts: dict[str, str | None]) -> list[str]:
    found: list[str] = []
    for name in (".flake8", "setup.cfg", "tox.ini"):
        section = ini_section(texts.get(name), "flake8") or {}
        found += listed(section.get("exclude")) + listed(section.get("extend-exclude"))
    return found


def _mypy_excludes(texts: dict[str, str | None], tools: dict[str, object]) -> list[str]:
    """mypy's exclude regexes that name paths, as globs."""
    mypy = [table(tools.get("mypy")).get("exclude")]
    for name, header in (("mypy.ini", "mypy"), (".mypy.ini", "mypy"), ("setup.cfg", "mypy")):
        mypy.append((ini_section(texts.get(name), header) or {}).get("exclude"))
    found: list[str] = []
    for value in mypy:
        # split at each `|` alone, `_plain` strips: `\s*\|\s*` ran over a run of spaces from each of its places
        patterns = value if isinstance(value, list) else re.split(r"[|\n]", value) if isinstance(value, str) else []
        found += [_plain(str(p)) for p in patterns if _plain(str(p))]
    return found


def _pytest_ignores(texts: dict[str, str | None], tools: dict[str, object]) -> list[str]:
    """pytest's `norecursedirs` and the paths its `addopts` give `--ignore` or `--ignore-glob`."""
    found: list[str] = []
    for options in (table(table(tools.get("pytest")).get("ini_options")),
                    ini_section(texts.get("pytest.ini"), "pytest") or {},
                    ini_section(texts.get("tox.ini"), "pytest") or {},
                    ini_section(texts.get("setup.cfg"), "tool:pytest") or {}):
        recurse = options.get("norecursedirs")
        found += recurse if isinstance(recurse, list) else listed(recurse if isinstance(recurse, str) else None)
        found += [w.split("=", 1)[1] for w in _addopts(options.get("addopts"))
                  if w.startswith(("--ignore=", "--ignore-glob="))]
    return found


def _addopts(addopts: object) -> list[str]:
    """pytest's `addopts` as the words pytest reads: a list as it is, a string split as a shell would (pytest's
    own `shlex.split`), so `--ignore="tests/bad fixtures"` is one word."""
    if isinstance(addopts, list):
        return [w for w in addopts if isinstance(w, str)]
    if not isinstance(addopts, str):
        return []
    return command_words(addopts)


def _names_the_package(pattern: str, read: Read | None) -> bool:
    """A pattern that would set aside the project itself (everything, `src`, an importable folder), not a part."""
    folder = pattern.rstrip("*").rstrip("/")
    if not pattern or pattern in (".", "*") or folder in ("src", "lib"):
        return True
    return read is not None and bool(folder) and read(f"{folder}/__init__.py") is not None


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
        if (value := assigned_to(node, ("collect_ignore", "collect_ignore_glob"))) is not None:
            found += strings_in(value)
    return found
