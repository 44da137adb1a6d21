"""The team's own pylint — at the version its repository pins, with its configuration — finding and judging its rules
(ruff's `PL` codes: pylint's `C0414` is `PLC0414`), in the sandbox, beside the team's other linters. pylint fixes
nothing: the linter beside it (a ruff) fixes what pylint finds where ruff has that rule's fix, and pylint, run on the
result, judges it.

Its configuration is the repository's (`.pylintrc`, `pylintrc`, `[tool.pylint]`, `setup.cfg`, `tox.ini`), and a
pylint plugin is code: pylint only ever runs inside the sandbox, on copies, with those files beside them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from core.change import Finding
from core.languages.adapter import DetectError, Linter, readable
from core.languages.python.ruff import selected
from core.tools.process import ToolFailed
from core.tools.sandbox import Sandbox

CONFIG_FILES = (".pylintrc", "pylintrc", "pyproject.toml", "setup.cfg", "tox.ini")
PYLINT = "PL"  # the selector of every pylint rule, as ruff names them


@dataclass(frozen=True)
class Pylint:
    """pylint installed in `folder`, run in `sandbox` with the team's configuration files `config`, its rules
    (`PL…`) found and judged by it; `linter`: the team's other linters (and fixer) for every other rule."""

    folder: Path
    sandbox: Sandbox
    config: dict[str, str]
    version: str
    linter: Linter
    held: tuple[str, ...] = ()
    syntax_code: str = field(init=False)  # the linter's: it parses every file
    unreadable_code: str = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "syntax_code", self.linter.syntax_code)
        object.__setattr__(self, "unreadable_code", self.linter.unreadable_code)

    def with_held(self, held: tuple[str, ...], linter: Linter) -> Pylint:
        return replace(self, held=held, linter=linter)

    def owns(self, path: str) -> bool:
        return self.linter.owns(path)

    def knows(self, selector: str) -> bool:
        return selector.startswith(PYLINT) or self.linter.knows(selector)

    def has_rule(self, code: str) -> bool:
        return self.linter.has_rule(code)

    def rule_words(self, code: str) -> frozenset[str]:
        return self.linter.rule_words(code)

    def check(self, root: Path, paths: list[str], select: tuple[str, ...], *, listed: bool = False) -> list[Finding]:
        """The other linters' findings of their rules, with pylint's of its own, sorted."""
        found = self.linter.check(root, paths, _others(select), listed=listed)
        if mine := tuple(s for s in select if s.startswith(PYLINT) or s == "ALL"):
            found += self._with_fixes(root, self._own(root, paths, mine, found))
        return sorted(found, key=lambda f: (f.path, f.line, f.column, f.code))

    def _own(self, root: Path, paths: list[str], mine: tuple[str, ...], found: list[Finding]) -> list[Finding]:
        """pylint's findings of the rules `mine` covers, in the files the other linters could parse."""
        broken = {f.path for f in found if f.code == self.syntax_code}
        files = [p for p in dict.fromkeys(paths) if p.endswith((".py", ".pyi")) and p not in broken]
        return [f for f in self._report(root, files) if selected(f.code, mine) and f.code not in self.held]

    def _with_fixes(self, root: Path, found: list[Finding]) -> list[Finding]:
        """Each finding with the fix the linter beside it has for the same rule on the same line (ruff's for many of
        pylint's rules), as that linter gives it; one it cannot fix is left to a model or a person."""
        codes = tuple(sorted({f.code for f in found if self.linter.has_rule(f.code)}))  # one it lacks fails its run
        if not codes:
            return found
        theirs: dict[tuple[str, str], list[Finding]] = {}
        for f in self.linter.check(root, sorted({f.path for f in found}), codes, listed=True):
            if f.edits or f.unsafe_edits:
                theirs.setdefault((f.path, f.code), []).append(f)
        fixed = []
        for f in found:  # the same rule in the same file, nearest: pylint may say a function's line, ruff its `return`
            near = sorted(theirs.get((f.path, f.code), []), key=lambda t: abs(t.line - f.line))
            if near:
                theirs[f.path, f.code].remove(fix := near[0])
                f = replace(f, fixable=fix.fixable, edits=fix.edits, unsafe_edits=fix.unsafe_edits)
            fixed.append(f)
        return fixed

    def _report(self, root: Path, paths: list[str]) -> list[Finding]:
        texts = readable(root, paths)
        if not texts:
            return []
        files = {**{name: text.encode() for name, text in self.config.items() if name not in texts}, **texts}
        command = [str(self.folder / "bin" / "pylint"), "--output-format=json", "--exit-zero", "--persistent=n",
                   "--", *sorted(texts)]
        try:
            with self.sandbox.copies(files) as work:
                done = self.sandbox.run(command, work=work, tools=[self.folder],
                                        what=f"the team's pylint {self.version}")
        except (ToolFailed, ValueError) as exc:
            raise DetectError(str(exc)) from exc
        try:
            messages = json.loads(done.stdout or "[]")
        except ValueError as exc:
            raise DetectError(f"the team's pylint {self.version} failed (exit {done.returncode})") from exc
        return [_finding(m) for m in messages if isinstance(m, dict) and m.get("message-id")]

    # pylint has no fixes: the linter beside it fixes (ruff has fixes for some of pylint's rules), pylint judges.
    def fix(self, root: Path, path: str, select: tuple[str, ...]) -> str | None:
        return self.linter.fix(root, path, select)

    def fix_many(self, root: Path, paths: list[str], select: tuple[str, ...]) -> dict[str, str]:
        return self.linter.fix_many(root, paths, select)

    def fix_texts(self, texts: dict[str, str], select: tuple[str, ...],
                  checkout: Path | None = None, unsafe: bool = False) -> dict[str, str]:
        return self.linter.fix_texts(texts, select, checkout, unsafe)


def _finding(message: dict[str, Any]) -> Finding:
    """One of pylint's JSON messages as a finding (its columns count from 0)."""
    return Finding(str(message.get("path", "")).replace("\\", "/"), int(message.get("line") or 1),
                   int(message.get("column") or 0) + 1, f"{PYLINT}{message['message-id']}",
                   str(message.get("message", "")), source="pylint")


def _others(select: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(s for s in select if not s.startswith(PYLINT))
