"""The team's flake8 and the team's ruff together, where the team runs both: each rule is found and judged by the
tool whose configuration chose it (flake8's `max-line-length` and plugins for the rules flake8 selects, ruff's
configuration at its version for the rest — a rule both choose goes to the longer selector, `E4` over `E`), and the
team's ruff makes every fix. Neither tool is asked to judge the other's rules, so a fix stands only where the tool
that chose its rule sees the finding gone and nothing new of its own rules."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path

from core.change import Finding
from core.languages.adapter import covering
from core.languages.python.flake8 import Flake8
from core.languages.python.team_ruff import TeamRuff

FLAKE8 = "flake8"  # TeamRules.tools' name for a rule flake8's configuration chose


@dataclass(frozen=True)
class TeamLinters:
    """`flake8` (its fixer the team's ruff) and `ruff`; `chosen`: which tool chose each selector (TeamRules.tools)."""

    flake8: Flake8
    ruff: TeamRuff
    chosen: Mapping[str, str]

    syntax_code = TeamRuff.syntax_code  # ruff parses every file it checks: its word on syntax is the one kept
    unreadable_code = TeamRuff.unreadable_code

    def with_held(self, held: tuple[str, ...]) -> TeamLinters:
        ruff = self.ruff.with_held(held)
        return replace(self, flake8=self.flake8.with_held(held, ruff), ruff=ruff)

    def owns(self, path: str) -> bool:
        return self.ruff.owns(path)

    def knows(self, selector: str) -> bool:
        return self.flake8.knows(selector) if self._flake8s(selector) else self.ruff.knows(selector)

    def has_rule(self, code: str) -> bool:
        return self.flake8.has_rule(code) if self._flake8s(code) else self.ruff.has_rule(code)

    def rule_words(self, code: str) -> frozenset[str]:
        return self.ruff.rule_words(code)

    def check(self, root: Path, paths: list[str], select: tuple[str, ...], *, listed: bool = False) -> list[Finding]:
        """The team's ruff's findings of its rules, with the team's flake8's of flake8's, sorted."""
        ruffs = [f for f in self.ruff.check(root, paths, select, listed=listed)
                 if f.code in (self.syntax_code, self.unreadable_code) or not self._flake8s(f.code)]
        ours = {self.flake8.syntax_code, self.flake8.unreadable_code}  # ruff has said these, in its words
        flake8s = [f for f in self.flake8.check(root, paths, tuple(s for s in select if self._flake8s(s)),
                                                listed=listed) if f.code not in ours and self._flake8s(f.code)]
        return sorted([*ruffs, *flake8s], key=lambda f: (f.path, f.line, f.column, f.code))

    def _flake8s(self, code: str) -> bool:
        chosen = covering(code, tuple(self.chosen))
        return chosen is not None and self.chosen[chosen] == FLAKE8

    def fix(self, root: Path, path: str, select: tuple[str, ...]) -> str | None:
        return self.ruff.fix(root, path, select)

    def fix_many(self, root: Path, paths: list[str], select: tuple[str, ...]) -> dict[str, str]:
        return self.ruff.fix_many(root, paths, select)

    def fix_texts(self, texts: dict[str, str], select: tuple[str, ...],
                  checkout: Path | None = None, unsafe: bool = False) -> dict[str, str]:
        return self.ruff.fix_texts(texts, select, checkout, unsafe)
