"""`.github/memfix.yml`: what a repository asks of memfix.

Every key is optional. A bad value never fails a run: it is reported as a problem in words and the default is
kept, so a typo costs one setting, not the whole file.

```yaml
autofix: true                 # AutoFix pipeline on/off
refactor: true                # Refactor pipeline on/off
autofix_rules: [F, E9, B, S]  # rules as their tools name them (replace the defaults below, in every language:
refactor_rules: [UP, SIM, lint/complexity]  # F401, ruff:F401, flake8:E501, eslint:indent, lint/style/useConst)
ignore: [tests/**, "migrations/*.py", conftest.py]
max_prs: 3                    # PRs per run, 1 to 20
provider: offline             # offline | openai | anthropic | local
model: gpt-4o-mini
memory: [12, 40]              # insight ids linked into every prompt
python: "3.8"                 # the oldest Python the project supports (otherwise read from its metadata)
always_propose: [F401]        # rules proposed whatever memfix learned (see core/learning/policy.py)
languages: [python, javascript]  # which files memfix works on (typescript is javascript's: Biome does both)
ci_rerun: learn               # a failed check on memfix's PR: learn (run again once, a few times a week, only when
                              # nothing ties it to the change), always (every one, once), never (it counts at once)
```

`ignore` patterns are `.gitignore` patterns, matched as git matches them (core/paths.py `ignored_by`): `*` within
one path segment, `**` spans any number of directories, a pattern without an inner `/` matches a name at any depth,
a trailing `/` names a directory, a pattern that matches a directory covers everything under it, and a later `!`
pattern re-includes what an earlier one ignored.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

from core.bounded import ConfigRefused, read_config, shown
from core.languages.registry import NAMES, language_name, rule_code, rule_problem, rule_selector
from core.paths import ignored_by, is_path_pattern
from core.wire import PIPELINES

CONFIG_PATH = ".github/memfix.yml"
PROVIDERS = ("offline", "openai", "anthropic", "local")
MAX_PRS_LIMIT = 20
MAX_CONFIG_CHARS = 64 * 1024
MAX_IGNORES = 100

# AutoFix: code that is wrong or unsafe.
AUTOFIX_RULES = (
    "F",  # pyflakes: undefined names, unused imports and variables, broken f-strings and format calls
    "E711", "E712", "E713", "E714", "E721", "E722",  # comparisons to None/True, `not in`, type(), bare except
    "E9",  # the file cannot be read
    "B",  # flake8-bugbear: mutable defaults, late-binding closures, swallowed exceptions
    "S",  # flake8-bandit: shell=True, SQL built from strings, hard-coded secrets, assert in production code
    "PLE",  # pylint errors
    "RUF006", "RUF008", "RUF009", "RUF013", "RUF026",  # dangling tasks, dataclass defaults, implicit Optional
)
# Refactor: the code works; these make it simpler, newer or faster.
REFACTOR_RULES = ("UP", "SIM", "C4", "PERF", "RET", "PIE", "FURB", "RUF005", "RUF015")

@dataclass(frozen=True)
class RepoConfig:
    autofix: bool = True
    refactor: bool = True
    autofix_rules: tuple[str, ...] = AUTOFIX_RULES
    refactor_rules: tuple[str, ...] = REFACTOR_RULES
    ignore: tuple[str, ...] = ()
    max_prs: int = 3
    provider: str | None = None  # None: the installation's settings decide
    model: str | None = None
    memory: tuple[int, ...] = ()  # linked insight ids
    python: str | None = None  # the oldest supported Python, overriding what the metadata says
    always_propose: tuple[str, ...] = ()  # rules the learned policy never holds back here
    ci_rerun: str = "learn"  # learn | always | never: a person's word on re-running failed checks over memfix's own
    extend_rules: tuple[str, ...] = ()  # `rules: extend:` proposed beyond what the team's linters select
    languages: tuple[str, ...] = NAMES  # every language memfix works on (core/languages/registry.py)
    chosen: tuple[str, ...] = ()  # the pipelines whose rules a person named (memfix.yml, or the command's words)

    def enabled(self, pipeline: str) -> bool:
        return bool(getattr(self, _pipeline(pipeline)))

    def rules(self, pipeline: str) -> tuple[str, ...]:
        rules: tuple[str, ...] = getattr(self, f"{_pipeline(pipeline)}_rules")
        return rules

    def named(self, pipeline: str) -> tuple[str, ...] | None:
        """The rules a person named for `pipeline`, which replace what the team's tools select; None: the tools'."""
        return self.rules(pipeline) if pipeline in self.chosen else None

    def naming(self, pipeline: str, rules: tuple[str, ...]) -> RepoConfig:
        """This configuration with `rules` named for `pipeline` (`/refactor UP SIM`, `memfix refactor --rules`)."""
        chosen = (*self.chosen, pipeline)
        if _pipeline(pipeline) == "autofix":
            return replace(self, autofix_rules=rules, chosen=chosen)
        return replace(self, refactor_rules=rules, chosen=chosen)

    def ignored(self, path: str) -> bool:
        return ignored_by(self.ignore, path)


def _pipeline(name: str) -> str:
    if name not in PIPELINES:
        raise ValueError(f"unknown pipeline {name!r}; expected one of {', '.join(PIPELINES)}")
    return name


# ---- parsing: each check returns the value to use, or None to keep the default ----

def _bool(key: str, value: object, problems: list[str]) -> bool | None:
    if isinstance(value, bool):
        return value
    problems.append(f"`{key}` must be true or false, not {shown(value)}; kept the default")
    return None


def _strings(key: str, value: object, problems: list[str]) -> list[str] | None:
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, list) or not all(isinstance(v, str) for v in items):
        problems.append(f"`{key}` must be a list of strings, not {shown(value)}; kept the default")
        return None
    return [v.strip() for v in items if v.strip()]


def _rules(key: str, value: object, problems: list[str]) -> tuple[str, ...] | None:
    if isinstance(value, str):
        value = [v for v in re.split(r"[,\s]+", value) if v]  # `F, E9, B` reads as a list too
    items = _strings(key, value, problems)
    if items is None:
        return None
    good = [name for item in items if (name := rule_selector(item)) is not None]
    problems += [f"`{key}`: {rule_problem([item])}; ignored" for item in items if rule_selector(item) is None]
    if not good:
        problems.append(f"`{key}` selects no rules; kept the default (turn the pipeline off with `{key[:-6]}: false`)")
        return None
    return tuple(dict.fromkeys(good))


def _ignore(key: str, value: object, problems: list[str]) -> tuple[str, ...] | None:
    items = _strings(key, value, problems)
    if items is None:
        return None
    good = []
    for item in items[:MAX_IGNORES]:
        if not is_path_pattern(item):
            problems.append(f"`{key}`: {shown(item)} is not a repository path pattern; ignored")
        else:
            good.append(item)
    if len(items) > MAX_IGNORES:
        problems.append(f"`{key}` lists {len(items)} patterns; only the first {MAX_IGNORES} are used")
    return tuple(good)


def _max_prs(key: str, value: object, problems: list[str]) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= MAX_PRS_LIMIT:
        return value
    problems.append(f"`{key}` must be a whole number from 1 to {MAX_PRS_LIMIT}, not {shown(value)}; kept the default")
    return None


def _provider(key: str, value: object, problems: list[str]) -> str | None:
    if isinstance(value, str) and value.strip().lower() in PROVIDERS:
        return value.strip().lower()
    problems.append(f"`{key}` must be one of {', '.join(PROVIDERS)}, not {shown(value)}; kept the default")
    return None


def _model(key: str, value: object, problems: list[str]) -> str | None:
    if isinstance(value, str) and value.strip():
        return value.strip()
    problems.append(f"`{key}` must be a model name, not {shown(value)}; kept the default")
    return None


def _memory(key: str, value: object, problems: list[str]) -> tuple[int, ...] | None:
    items = [value] if isinstance(value, int) else value
    if isinstance(items, list) and all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in items):
        return tuple(dict.fromkeys(items))
    problems.append(f"`{key}` must be a list of insight ids (positive whole numbers), not {shown(value)}; "
                    "kept the default")
    return None


def _python(key: str, value: object, problems: list[str]) -> str | None:
    text = str(value).strip() if isinstance(value, (str, float, int)) and not isinstance(value, bool) else ""
    if re.fullmatch(r"[23]\.\d{1,2}", text):
        return text
    problems.append(f"`{key}` must be a Python version like \"3.8\" (quoted), not {shown(value)}; "
                    "kept what the project's metadata says")
    return None


def _codes(key: str, value: object, problems: list[str]) -> tuple[str, ...] | None:
    """Whole rule codes (F401, RET505): a policy names rules, not families."""
    if isinstance(value, str):
        value = [v for v in re.split(r"[,\s]+", value) if v]
    items = _strings(key, value, problems)
    if items is None:
        return None
    good = tuple(dict.fromkeys(code for i in items if (code := rule_code(i))))
    problems += [f"`{key}`: {rule_problem([i])}; ignored" for i in items if rule_code(i) is None]
    return good


def _extend_rules(key: str, value: object, problems: list[str]) -> tuple[str, ...] | None:
    """`rules: {extend: [SIM, RET505]}`: rules proposed beyond the team's own linter selection."""
    if not isinstance(value, dict) or set(value) - {"extend"}:
        problems.append(f"`{key}` must be a mapping with `extend:` (a list of rules), not "
                        f"{shown(value)}; ignored")
        return None
    return _rules("rules.extend", value.get("extend"), problems) if value.get("extend") is not None else None


def _languages(key: str, value: object, problems: list[str]) -> tuple[str, ...] | None:
    items = _strings(key, [value] if isinstance(value, str) else value, problems)
    if items is None:
        return None
    problems += [f"`{key}`: {shown(i)} is not a language memfix works on ({', '.join(NAMES)}); ignored"
                 for i in items if language_name(i) is None]
    return tuple(dict.fromkeys(name for i in items if (name := language_name(i)) is not None))


CI_RERUN = ("learn", "always", "never")


def _ci_rerun(key: str, value: object, problems: list[str]) -> str | None:
    if value in CI_RERUN:
        return str(value)
    problems.append(f"`{key}` must be one of {', '.join(CI_RERUN)}, not {shown(value)}; kept `learn`")
    return None


_CHECKS = {
    "autofix": _bool, "refactor": _bool, "autofix_rules": _rules, "refactor_rules": _rules, "ignore": _ignore,
    "max_prs": _max_prs, "provider": _provider, "model": _model, "memory": _memory, "python": _python,
    "always_propose": _codes, "rules": _extend_rules, "languages": _languages, "ci_rerun": _ci_rerun,
}


def parse_config(text: str | None) -> tuple[RepoConfig, list[str]]:
    """The repository's settings and the problems found in them, in words its maintainers can act on."""
    problems: list[str] = []
    data = _settings(text, problems)
    values: dict[str, Any] = {}  # RepoConfig's fields by name, each of its own type
    for key, value in data.items():
        if not isinstance(key, str) or key not in _CHECKS:
            problems.append(f"unknown setting `{shown(key)[1:-1] if isinstance(key, str) else shown(key)}` ignored "
                            f"(known: {', '.join(_CHECKS)})")
        elif value is not None and (checked := _CHECKS[key](key, value, problems)) is not None:  # `key:` alone: default
            values["extend_rules" if key == "rules" else key] = checked
    chosen = tuple(p for p in PIPELINES if f"{p}_rules" in values)
    return RepoConfig(**values, chosen=chosen), problems


def _settings(text: str | None, problems: list[str]) -> dict[object, object]:
    """The configuration's mapping of settings; none (and why, in `problems`) where the file cannot be read as one,
    and the defaults apply."""
    if text is None or not text.strip():
        return {}
    try:
        data = read_config(text, "yaml", CONFIG_PATH, limit=MAX_CONFIG_CHARS)
    except ConfigRefused as exc:
        problems.append(f"{exc}; using the defaults")
        return {}
    if data is not None and not isinstance(data, dict):
        problems.append(f"{CONFIG_PATH} must be a mapping of settings, not {type(data).__name__}; using the defaults")
        return {}
    return data or {}
