"""The team's own flake8 — at the version its repository pins, with its plugins and its configuration — finding and
judging, in the sandbox. flake8 fixes nothing: a ruff fixes what it finds — the team's own where it pins one, else
memfix's (flake8's codes are ruff's for pycodestyle, pyflakes, mccabe and the plugins ruff carries) — and a fix
stands only when the team's flake8, run on the result, reports that finding gone and nothing new (the runner verifies
with this linter).

Its configuration is the repository's (`.flake8`, `setup.cfg`, `tox.ini`): a plugin is code, so flake8 only ever
runs inside the sandbox, on copies, with those files beside them as in the repository.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Protocol

from core.change import Finding
from core.languages.adapter import DetectError, Linter, readable
from core.languages.python.configs import is_rule
from core.languages.python.ruff import python_files, selected
from core.tools.process import ToolFailed
from core.tools.sandbox import Sandbox

CONFIG_FILES = (".flake8", "setup.cfg", "tox.ini")  # where flake8 reads its settings, at the project's root
_FORMAT = "%(path)s\t%(row)d\t%(col)d\t%(code)s\t%(text)s"  # one finding a line, tabs apart (no path holds one)
_LINE = re.compile(r"^(?:\./)?(?P<path>[^\t]+)\t(?P<row>\d+)\t(?P<col>\d+)\t(?P<code>[A-Z]+\d*)\t(?P<text>.*)$")


class Fixer(Linter, Protocol):
    """What fixes flake8's findings: a ruff (memfix's own, or the team's at its version), which also says which
    rules it has a fix for."""

    def fixes(self, code: str) -> bool: ...


@dataclass(frozen=True)
class Flake8:
    """flake8 installed in `folder` (a virtual environment of the tool cache), run in `sandbox` with the team's
    configuration files `config` ({name: text}); `fixer` is the ruff that fixes what it finds (memfix's with the
    project's flags, or the team's own); `held`: rules the learned policy holds back here (flake8 is told to ignore
    them, as ruff is)."""

    folder: Path
    sandbox: Sandbox
    config: dict[str, str]
    fixer: Fixer
    version: str
    held: tuple[str, ...] = ()

    syntax_code = "E999"  # flake8's for a file that does not parse
    unreadable_code = "E902"  # and for one it cannot read

    def with_held(self, held: tuple[str, ...], fixer: Fixer) -> Flake8:
        return replace(self, held=held, fixer=fixer)

    def owns(self, path: str) -> bool:
        return self.fixer.owns(path)

    def knows(self, selector: str) -> bool:
        return is_rule(selector)  # a plugin's codes are the team's to name: flake8 knows what it has installed

    def has_rule(self, code: str) -> bool:
        return is_rule(code)

    def rule_words(self, code: str) -> frozenset[str]:
        return self.fixer.rule_words(code)

    def check(self, root: Path, paths: list[str], select: tuple[str, ...], *, listed: bool = False) -> list[Finding]:
        """What the team's flake8 reports in the `.py` files among `paths`, of the rules `select` covers, sorted."""
        root = Path(root).resolve()
        files = list(paths) if listed else python_files(root, paths)
        if not files or not select:
            return []
        texts = readable(root, files)
        if not texts:
            return []  # flake8 given no file lints its folder: nothing to ask it
        found = [f for f in self._report(texts) if f.code in (self.syntax_code, self.unreadable_code)
                 or selected(f.code, select)]
        return sorted(self._with_fixes(root, found), key=lambda f: (f.path, f.line, f.column, f.code))

    def _with_fixes(self, root: Path, found: list[Finding]) -> list[Finding]:
        """Each finding with its fixer's fix for it, where ruff reports the same rule on the same line and has a
        fix: its edits, safe or unsafe, as ruff gives them (a finding ruff cannot fix is left to a model or a
        person)."""
        codes = tuple(sorted({f.code for f in found if self.fixer.fixes(f.code)}))
        if not codes:
            return found
        ruffs = {(f.path, f.line, f.code): f for f in self.fixer.check(root, sorted({f.path for f in found}), codes,
                                                                        listed=True)}
        return [replace(f, fixable=fix.fixable, edits=fix.edits, unsafe_edits=fix.unsafe_edits)
                if (fix := ruffs.get((f.path, f.line, f.code))) else f for f in found]

    def _report(self, texts: dict[str, bytes]) -> list[Finding]:
        """flake8 on copies of `texts` at their paths, the team's configuration at the root beside them."""
        with self.sandbox.copies({**{n: t.encode("utf-8") for n, t in self.config.items()}, **texts}) as work:
            held = [f"--extend-ignore={','.join(self.held)}"] if self.held else []
            try:
                done = self.sandbox.run([str(self.folder / "bin" / "flake8"), f"--format={_FORMAT}", "--exit-zero",
                                         *held, "--", *sorted(texts)], work=work, tools=[self.folder],
                                        what=f"the team's flake8 {self.version}")
            except ToolFailed as exc:
                raise DetectError(str(exc)) from exc
        if done.returncode != 0:  # its words may quote the copies: the worker's log has them, the reply says this
            raise DetectError(f"the team's flake8 {self.version} failed (exit {done.returncode}): "
                              f"{_said(done.stderr)}")
        return [_finding(match) for line in done.stdout.splitlines() if (match := _LINE.match(line))]

    # flake8 has no fixes: memfix's ruff makes them, for the rules flake8 found; flake8 judges the result.
    def fix(self, root: Path, path: str, select: tuple[str, ...]) -> str | None:
        return self.fixer.fix(root, path, select)

    def fix_many(self, root: Path, paths: list[str], select: tuple[str, ...]) -> dict[str, str]:
        return self.fixer.fix_many(root, paths, select)

    def fix_texts(self, texts: dict[str, str], select: tuple[str, ...],
                  checkout: Path | None = None, unsafe: bool = False) -> dict[str, str]:
        return self.fixer.fix_texts(texts, select, checkout, unsafe)


def _finding(match: re.Match[str]) -> Finding:
    path = match["path"].replace(os.sep, "/")
    return Finding(path, int(match["row"]), int(match["col"]), match["code"], match["text"], source="flake8")


def _said(stderr: str) -> str:
    """The last line flake8 wrote (its error, usually), short."""
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    return (lines[-1][:300] if lines else "no message")
