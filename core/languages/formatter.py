"""A team's formatter — Prettier, black — as the team runs it: at the version the repository pins, with its
configuration, in the sandbox. A formatter has no rules, only a layout: each stretch of a file it would rewrite is one
finding (`prettier:format`, `black:format`) whose edit is the formatter's own rewrite of that stretch, so a push's
run fixes the stretches the push brought and leaves the rest; it judges by formatting the result again (a stretch
fixed is a finding gone). `Formatted` puts it beside the team's linter: the linter's findings and fixes first, the
formatter's last, as a team's `eslint --fix && prettier --write` does.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from core.change import Finding
from core.languages.adapter import DetectError, Linter, inside
from core.linediff import opcodes
from core.tools.process import ToolFailed
from core.tools.sandbox import Sandbox

if TYPE_CHECKING:
    from core.tools.toolbox import Toolbox

Read = Callable[[str], "str | None"]


@dataclass(frozen=True)
class Formatter:
    """`tool` installed in `folder`, run in `sandbox` as `command` + the files (it rewrites them in place: `prettier
    --write`, `black -q`); `config` is the team's configuration ({path: text}) laid beside the copies; `owns` says
    which files it formats; `runtime`: folders its command needs mounted beside it (Node's)."""

    tool: str
    name: str  # in a person's words: "Prettier 3.3.3"
    folder: Path
    sandbox: Sandbox
    command: tuple[str, ...]
    config: Mapping[str, str]
    owns: Callable[[str], bool]
    runtime: tuple[Path, ...] = ()

    @property
    def code(self) -> str:
        return f"{self.tool}:format"

    def check(self, root: Path, paths: list[str], select: tuple[str, ...]) -> list[Finding]:
        """A finding for each stretch of each of `paths` the formatter would rewrite, where `select` names it."""
        if not self.selected(select):
            return []
        texts: dict[str, str] = {}
        for path in dict.fromkeys(paths):
            if not self.owns(path):
                continue
            try:
                texts[path] = inside(Path(root), path).read_bytes().decode("utf-8")
            except (OSError, UnicodeDecodeError):
                continue
        formatted = self.format(texts)
        return [f for path, text in texts.items() if path in formatted
                for f in self._stretches(path, text, formatted[path])]

    def selected(self, select: tuple[str, ...]) -> bool:
        return any(s in (self.code, self.tool, "ALL") for s in select)

    def format(self, texts: Mapping[str, str]) -> dict[str, str]:
        """Each of `texts` as the formatter leaves it, where it rewrites it (a file it cannot parse is left out)."""
        if not texts:
            return {}
        files = {**{p: t.encode() for p, t in self.config.items() if p not in texts},
                 **{p: t.encode("utf-8", "surrogateescape") for p, t in texts.items()}}
        try:
            with self.sandbox.copies(files) as work:
                done = self.sandbox.run([*self.command, *sorted(texts)], work=work, tools=[self.folder, *self.runtime],
                                        what=f"the team's {self.name}")
                after = {p: inside(work, p).read_bytes().decode("utf-8", "surrogateescape") for p in texts}
        except (ToolFailed, OSError, ValueError) as exc:
            raise DetectError(str(exc)) from exc
        if done.returncode not in (0, 1, 2, 123):  # 2 (Prettier), 123 (black): some file did not parse; the rest ran
            raise DetectError(f"the team's {self.name} failed (exit {done.returncode})")
        return {p: text for p, text in after.items() if text != texts[p]}

    def _stretches(self, path: str, text: str, formatted: str) -> list[Finding]:
        """One finding a rewritten stretch, its edit that stretch's rewrite (rows 1-based, whole lines)."""
        before, after = text.splitlines(keepends=True), formatted.splitlines(keepends=True)
        found = []
        for tag, i1, i2, j1, j2 in opcodes(before, after):
            if tag == "equal":
                continue
            edit = (i1 + 1, 1, i2 + 1, 1, "".join(after[j1:j2]))
            found.append(Finding(path, i1 + 1, 1, self.code, f"the team's {self.name.split()[0]} would format this",
                                 fixable=True, source=self.tool, edits=(edit,)))
        return found


@dataclass(frozen=True)
class Formatted:
    """The team's linter with the team's formatter beside it: one linter to the runner."""

    linter: Linter
    formatter: Formatter
    held: tuple[str, ...] = ()
    syntax_code: str = field(init=False)  # the linter's: it parses every file, the formatter only formats
    unreadable_code: str = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "syntax_code", self.linter.syntax_code)
        object.__setattr__(self, "unreadable_code", self.linter.unreadable_code)

    def with_held(self, held: tuple[str, ...], linter: Linter) -> Formatted:
        """The same, `linter` (held as the project holds it) beside the formatter, which is held if its code is."""
        return replace(self, linter=linter, held=held)

    def owns(self, path: str) -> bool:
        return self.linter.owns(path)

    def knows(self, selector: str) -> bool:
        return selector in (self.formatter.code, self.formatter.tool) or self.linter.knows(selector)

    def has_rule(self, code: str) -> bool:
        return code == self.formatter.code or self.linter.has_rule(code)

    def rule_words(self, code: str) -> frozenset[str]:
        return frozenset() if code == self.formatter.code else self.linter.rule_words(code)

    def _formats(self, select: tuple[str, ...]) -> bool:
        return self.formatter.selected(select) and self.formatter.code not in self.held

    def check(self, root: Path, paths: list[str], select: tuple[str, ...], *, listed: bool = False) -> list[Finding]:
        found = self.linter.check(root, paths, self._linters(select), listed=listed)
        if self._formats(select):
            broken = {f.path for f in found if f.code == self.linter.syntax_code}
            found += self.formatter.check(root, [p for p in paths if p not in broken], select)
        return sorted(found, key=lambda f: (f.path, f.line, f.column, f.code))

    def fix(self, root: Path, path: str, select: tuple[str, ...]) -> str | None:
        return self.fix_many(root, [path], select).get(path)

    def fix_many(self, root: Path, paths: list[str], select: tuple[str, ...]) -> dict[str, str]:
        texts = {}
        for path in paths:
            try:
                texts[path] = inside(Path(root), path).read_bytes().decode("utf-8")
            except (OSError, UnicodeDecodeError):
                continue
        return self.fix_texts(texts, select, Path(root))

    def fix_texts(self, texts: dict[str, str], select: tuple[str, ...],
                  checkout: Path | None = None, unsafe: bool = False) -> dict[str, str]:
        """The linter's fixes for its rules, then the formatter's rewrite where it is selected."""
        rules = self._linters(select)
        fixed = {**texts, **(self.linter.fix_texts(texts, rules, checkout, unsafe) if rules else {})}
        if self._formats(select):
            fixed.update(self.formatter.format({p: t for p, t in fixed.items() if self.formatter.owns(p)}))
        return {p: t for p, t in fixed.items() if t != texts[p]}

    def _linters(self, select: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(s for s in select if s not in (self.formatter.code, self.formatter.tool))


def team_formatter(read: Read, toolbox: Toolbox, tool: str, word: str, owns: Callable[[str], bool],
                   command: Callable[[Path], tuple[str, ...]], config_names: tuple[str, ...],
                   ) -> tuple[Formatter | None, tuple[str, ...], tuple[str, ...]]:
    """The team's formatter `tool` (`word` in a person's words), installed at the version the repository pins and
    ready in the sandbox: it, what the run says of it, and why it does not run here (memfix formats nothing of its
    own: where the team's formatter cannot run, layout is left alone)."""
    from core.tools.pins import find_pins
    from core.tools.toolbox import Unavailable

    pin = find_pins(read).get(tool)
    if pin is None:
        return None, (), ()
    try:
        sandbox, installed = toolbox.ready(pin)
    except Unavailable as exc:
        return None, (), (f"the team's {word} does not run here ({exc}): memfix leaves the layout it would make "
                          "alone",)
    version = pin.version or pin.specifier or "(its newest release)"
    config = {name: text for name in config_names if (text := read(name)) is not None}
    runtime = toolbox.cache.runtime_folders(pin)
    found = Formatter(tool, f"{word} {version}", installed.folder, sandbox, command(installed.folder), config, owns,
                      runtime)
    return found, (f"formats: the team's {word} {version} ({pin.source}), in the sandbox, on the lines a fix "
                   "targets",), ()
