"""The languages memfix works on, one line each: what the rest of memfix asks of a rule, a file or a language goes
through here and never tests a suffix, a code's shape or a language's name itself.

A third language is a package under core/languages/ (its `rules` module and its adapter) and a line in RULES and in
`adapters`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Protocol

from core.languages.javascript import rules as javascript_rules
from core.languages.python import rules as python_rules

if TYPE_CHECKING:
    from core.languages.adapter import Language
    from core.tools.toolbox import Toolbox

class RuleBook(Protocol):
    """What a language's `rules` module is to the rest of memfix: how a person names its rules, which selectors cover
    which, how risky a rule's fix is, which files are its. Each module in RULES is checked against it by mypy."""

    @property
    def NAME(self) -> str: ...
    @property
    def ALIASES(self) -> tuple[str, ...]: ...
    @property
    def LINTER(self) -> str: ...  # what its runs need installed, in words
    @property
    def FIXER(self) -> str: ...  # whose fixes its deterministic patches are
    @property
    def FIXERS(self) -> Mapping[str, str]: ...  # a tool whose findings carry their own fixes, by the findings' source
    @property
    def SAID(self) -> Mapping[str, str]: ...  # what each project check kept, in its words
    @property
    def READS_REPOSITORY(self) -> bool: ...
    @property
    def PLACES(self) -> Mapping[str, tuple[str, ...]]: ...
    @property
    def TOOLS(self) -> tuple[str, ...]: ...  # the tools whose names may prefix one of its rules
    @property
    def FORMS(self) -> str: ...  # the forms of its rules' names, for a refusal to show

    def kind(self, message: str) -> str: ...
    def owns(self, path: str) -> bool: ...
    def fence(self, path: str) -> str: ...
    def imports(self, importer: str, text: str, target: str) -> bool: ...
    def code(self, text: str) -> str | None: ...
    def selector(self, text: str, any_case: bool = True) -> str | None: ...
    def unnamed(self, text: str) -> str | None: ...
    def shown(self, rule: str) -> str: ...
    def covers(self, wide: str, narrow: str) -> bool: ...
    def risk(self, rule: str) -> str: ...
    def category(self, rule: str) -> str: ...


RULES: tuple[RuleBook, ...] = (python_rules, javascript_rules)
NAMES = tuple(r.NAME for r in RULES)


def rules_of(code: str) -> RuleBook | None:
    """The rules module of the language a rule code belongs to."""
    return next((r for r in RULES if r.code(code) == code), None)


def rule_code(text: str) -> str | None:
    """One linter's rule as a person or a decision names it, in its linter's own spelling (`F401`,
    `lint/suspicious/noDoubleEquals`, `eslint:indent`; `ruff:f401` is `F401`); None for anything else (a model's
    MODEL, a selector of many rules)."""
    return _read(text, lambda r: r.code(text))


def rule_selector(text: str, any_case: bool = True) -> str | None:
    """A rule or a selector of rules as a person names it (`UP`, `F401`, `lint/style`, `eslint:import`,
    `eslint:indent`), in its tool's own spelling; None for anything else. `any_case`: a bare Python name in any case
    (`up`), where no path can be meant; a command's words take ruff's codes in upper case only."""
    return _read(text, lambda r: r.selector(text, any_case))


def _read(text: str, read: Callable[[RuleBook], str | None]) -> str | None:
    """The first language's reading of a name, unless another's spells it exactly as written: `eslint` and `lint`
    are JavaScript's selectors, not the ruff prefixes `ESLINT` and `LINT` Python's case-blind reading would make."""
    found = [name for r in RULES if (name := read(r)) is not None]
    return next((name for name in found if name == text.strip()), found[0] if found else None)


def language_of_rule(selector: str) -> str | None:
    """The language a rule or selector, as its tool spells it, belongs to."""
    return next((r.NAME for r in RULES if r.selector(selector) == selector), None)


def rules_for(language: str, selectors: Iterable[str]) -> tuple[str, ...]:
    """The rules and selectors among `selectors` that are `language`'s: what its linter is given of a mixed list."""
    return tuple(s for s in selectors if language_of_rule(s) == language)


RULE_FORMS = "; ".join(r.FORMS for r in RULES)  # how every rule may be named, for the messages that refuse one
_TOOL_PREFIX = re.compile(r"([A-Za-z][\w.-]+):")  # a tool's name: two letters or more (`C:` is a drive)


def rule_like(text: str) -> bool:
    """Whether a word can only be meant as a rule (`eslint:idnent`, `black:E501`): a tool's name and a colon. A word
    without one may be a path (`lint/rules.js` is a file as well as Biome's prefix)."""
    return _TOOL_PREFIX.match(text.strip()) is not None


def rule_problem(texts: Iterable[str]) -> str:
    """Why the names in `texts` name no rule, and how rules are named, in words for the person who wrote them."""
    named = list(dict.fromkeys(t.strip() for t in texts))
    whys = list(dict.fromkeys(why for t in named if (why := _why(t)) is not None))
    listed = ", ".join(f"`{_quoted(t)}`" for t in named)
    return (f"{listed} {'is not a rule' if len(named) == 1 else 'are not rules'}"
            + (f" ({'; '.join(whys)})" if whys else "") + f"; a rule is named as its tool names it: {RULE_FORMS}")


def _why(text: str) -> str | None:
    """What more than the forms can be said of one name: its tool's own word, or that memfix knows no such tool."""
    said: str | None = next((why for r in RULES if (why := r.unnamed(text)) is not None), None)
    if said is not None:
        return said
    tool = match[1] if (match := _TOOL_PREFIX.match(text)) else None
    if tool is not None and tool.lower() not in {t for r in RULES for t in r.TOOLS}:
        return f"memfix names no rules of `{_quoted(tool)}`"
    return None


def _quoted(text: str) -> str:
    """A name as a message quotes it: short, and with no backtick to end the quote early."""
    return (text[:80] + "…" if len(text) > 80 else text).replace("`", "'")


def rule_shown(code: str) -> str:
    """A rule as a person reads it, with its tool where its code alone does not say it (`biome:lint/style/useConst`);
    what is shown is also a name every entry point takes back."""
    found = rules_of(code)
    return found.shown(code) if found else code


EVERY_RULE = "*"  # a place's hold on every rule of every language


def covers(wide: str, narrow: str) -> bool:
    """Whether a selector covers a rule or a narrower selector of the same language (`*`: every rule)."""
    return wide == EVERY_RULE or any(r.covers(wide, narrow) for r in RULES)


def within(ours: tuple[str, ...], theirs: tuple[str, ...]) -> tuple[str, ...]:
    """The rules both selections cover: `E711` within `E`, `F401` within `F`, nothing of `SIM` within `B, E, F`,
    `lint/style/useConst` within `lint/style`."""
    both = []
    for mine in ours:
        for team in theirs:
            if covers(team, mine):
                both.append(mine)
            elif covers(mine, team):
                both.append(team)
    return tuple(dict.fromkeys(both))


def risk_of(code: str) -> str:
    """How likely a rule's fix is to change what the program does: low, medium or high."""
    found = rules_of(code)
    return found.risk(code) if found else "medium"


def kind_of(code: str, message: str) -> str:
    """What a finding's message says of the kind of problem, in its language's reading (empty: the rule says it)."""
    found = rules_of(code)
    return found.kind(message) if found else message


def category_for(code: str) -> str:
    found = rules_of(code)
    return found.category(code) if found else "maintainability"


def language_of(path: str) -> str | None:
    """The language whose source this file is, by name; None for a file no language of memfix's works on."""
    return next((r.NAME for r in RULES if r.owns(path)), None)


def is_source(path: str) -> bool:
    return language_of(path) is not None


def read_with_repository(path: str) -> bool:
    """A source whose language's checks read the whole repository's sources (kept in the run's repository view)."""
    return any(r.READS_REPOSITORY and r.owns(path) for r in RULES)


def fence(path: str) -> str:
    """The code fence a prompt shows the file in, so the model reads it as what it is."""
    return next((r.fence(path) for r in RULES if r.owns(path)), "")


def imports(importer: str, text: str, target: str) -> bool:
    """Whether the file `importer`, whose text is given, imports the file `target`, as its language's import lines
    say (read, never run); False where no language of memfix's owns both."""
    return any(r.owns(importer) and r.owns(target) and r.imports(importer, text, target) for r in RULES)


def language_name(text: str) -> str | None:
    """A language as a person writes it in `.github/memfix.yml` (`typescript` is JavaScript's), by its name."""
    lowered = text.strip().lower()
    return next((r.NAME for r in RULES if lowered == r.NAME or lowered in r.ALIASES), None)


def places(kind: str) -> tuple[str, ...]:
    """Every language's file names and globs for one kind of place (`test`, `init`, `script`, `generated`)."""
    return tuple(name for r in RULES for name in r.PLACES.get(kind, ()))


def linter_of(name: str) -> str:
    """What a language's runs need installed, in words."""
    return next((r.LINTER for r in RULES if r.NAME == name), "its linter")


def fixer_of(name: str, source: str = "") -> str:
    """Whose fixes a language's deterministic patches are, in a PR's words: the tool that reported the findings
    where it made the fix too (`source`, the team's ESLint), else the language's fixer."""
    return next((r.FIXERS.get(source, r.FIXER) for r in RULES if r.NAME == name), "its linter")


def said_of(name: str, check: str) -> str:
    """What one project check kept, in the language's words (`runtime`, `surface`, `comments`)."""
    return next((r.SAID[check] for r in RULES if r.NAME == name), check)


def adapters(toolbox: Toolbox | None = None) -> dict[str, Language]:
    """Every language whose linter is installed here, by name (built once, by the composition root); `toolbox`: where
    the team's own tools are installed and run from."""
    from core.languages.javascript.biome import Biome, find_biome
    from core.languages.javascript.language import JavaScript
    from core.languages.python.language import Python
    from core.languages.python.ruff import Ruff

    found: list[Language] = [Python(Ruff(), toolbox)]
    if (biome := find_biome()) is not None:
        found.append(JavaScript(Biome(biome), toolbox))
    return {language.name: language for language in found}


def languages_for(paths: Iterable[str], languages: Iterable[Language]) -> list[Language]:
    """The languages that own any of `paths`, in the order given."""
    listed = list(paths)
    return [language for language in languages if any(language.owns(p) for p in listed)]


def known_rule(code: str, languages: Iterable[Language]) -> bool:
    """Whether one of `languages` has this rule: a decision on any other would hold nothing, and say nothing of it."""
    return any(language.has_rule(code) for language in languages)


def rule_words(code: str, languages: Iterable[Language]) -> frozenset[str]:
    """The words a rule's own messages name, from the language that has the rule."""
    return next((language.rule_words(code) for language in languages if language.has_rule(code)), frozenset())
