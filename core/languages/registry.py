"""The languages memfix works on, one line each: what the rest of memfix asks of a rule, a file or a language goes
through here and never tests a suffix, a code's shape or a language's name itself.

A third language is a package under core/languages/ (its `rules` module and its adapter) and a line in RULES and in
`adapters`.
"""

from __future__ import annotations

from collections.abc import Iterable
from types import ModuleType
from typing import TYPE_CHECKING

from core.languages.javascript import rules as javascript_rules
from core.languages.python import rules as python_rules

if TYPE_CHECKING:
    from core.languages.adapter import Language
    from core.tools.toolbox import Toolbox

RULES: tuple[ModuleType, ...] = (python_rules, javascript_rules)
NAMES = tuple(r.NAME for r in RULES)


def rules_of(code: str) -> ModuleType | None:
    """The rules module of the language a rule code belongs to."""
    return next((r for r in RULES if r.code(code) == code), None)


def rule_code(text: str) -> str | None:
    """A linter's rule as a decision names it, in its linter's own spelling (`F401`,
    `lint/suspicious/noDoubleEquals`); None for anything else (a model's MODEL)."""
    return next((found for r in RULES if (found := r.code(text)) is not None), None)


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
