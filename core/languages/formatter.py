"""A team's formatter — Prettier, black — as the team runs it: at the version the repository pins, with its
configuration, in the sandbox. A formatter has no rules, only a layout: each stretch of a file it would rewrite is one
finding (`prettier:format`, `black:format`) whose edit is the formatter's own rewrite of that stretch, so a push's
run fixes the stretches the push brought and leaves the rest; it judges by formatting the result again (a stretch
fixed is a finding gone). `Formatted` puts it beside the team's linter: the linter's findings and fixes first, the
formatter's last, as a team's `eslint --fix && prettier --write` does.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from core.change import Finding
from core.languages.adapter import DetectError, Linter, inside, texts_of
from core.linediff import opcodes
from core.tools.pins import Pin
from core.tools.process import ToolFailed
from core.tools.sandbox import Sandbox

log = logging.getLogger(__name__)
BATCH = 400  # files a formatter run: each run has the tool's own time

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
    code: str = ""  # its one rule: `<tool>:format` for a formatter, `<tool>:rewrite` for a hook that rewrites

    def __post_init__(self) -> None:
        if not self.code:
            object.__setattr__(self, "code", f"{self.tool}:format")

    def check(self, root: Path, paths: list[str], select: tuple[str, ...]) -> list[Finding]:
        """A finding for each stretch of each of `paths` the formatter would rewrite, where `select` names it."""
        if not self.selected(select):
            return []
        texts = texts_of(root, [p for p in paths if self.owns(p)])
        formatted: dict[str, str] = {}
        paths = sorted(texts)
        for start in range(0, len(paths), BATCH):  # a run a batch: each within the tool's own time
            formatted |= self.format({p: texts[p] for p in paths[start:start + BATCH]})
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
        if done.returncode not in (0, 1, 2, 123):  # 1: rewrote (pyupgrade); 2, 123: a file did not parse, the rest ran
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
            found.append(Finding(path, i1 + 1, 1, self.code, f"the team's {self.name.split()[0]} would "
                                 f"{'rewrite' if self.code.endswith(':rewrite') else 'format'} this", fixable=True,
                                 source=self.tool, edits=(edit,)))
        return found


@dataclass(frozen=True)
class Formatted:
    """The team's linter with the team's formatters and rewriting hooks beside it, in the order the team runs them:
    one linter to the runner. Each formatter's findings are its own, on the file as it is; a fix is the linter's,
    then each formatter's in turn, as a team's `eslint --fix && prettier --write` (or its pre-commit hooks) leaves
    the file."""

    linter: Linter
    formatters: tuple[Formatter, ...]
    held: tuple[str, ...] = ()
    syntax_code: str = field(init=False)  # the linter's: it parses every file, a formatter only formats
    unreadable_code: str = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "syntax_code", self.linter.syntax_code)
        object.__setattr__(self, "unreadable_code", self.linter.unreadable_code)

    def owns(self, path: str) -> bool:
        return self.linter.owns(path)

    def knows(self, selector: str) -> bool:
        return self._formatter(selector) is not None or self.linter.knows(selector)

    def has_rule(self, code: str) -> bool:
        return self._formatter(code) is not None or self.linter.has_rule(code)

    def rule_words(self, code: str) -> frozenset[str]:
        return frozenset() if self._formatter(code) is not None else self.linter.rule_words(code)

    def _formatter(self, selector: str) -> Formatter | None:
        return next((f for f in self.formatters if selector in (f.code, f.tool)), None)

    def _running(self, select: tuple[str, ...]) -> list[Formatter]:
        return [f for f in self.formatters if f.selected(select) and f.code not in self.held]

    def check(self, root: Path, paths: list[str], select: tuple[str, ...], *, listed: bool = False) -> list[Finding]:
        found = self.linter.check(root, paths, self._linters(select), listed=listed)
        broken = {f.path for f in found if f.code == self.linter.syntax_code}
        for formatter in self._running(select):
            try:
                found += formatter.check(root, [p for p in paths if p not in broken], select)
            except DetectError as exc:  # a formatter that cannot finish costs its own findings, not the linter's
                log.warning("the team's %s found nothing this time: %s", formatter.name, exc)
        return sorted(found, key=lambda f: (f.path, f.line, f.column, f.code))

    def fix(self, root: Path, path: str, select: tuple[str, ...]) -> str | None:
        return self.fix_many(root, [path], select).get(path)

    def fix_many(self, root: Path, paths: list[str], select: tuple[str, ...]) -> dict[str, str]:
        return self.fix_texts(texts_of(root, paths), select, Path(root))

    def fix_texts(self, texts: dict[str, str], select: tuple[str, ...],
                  checkout: Path | None = None, unsafe: bool = False) -> dict[str, str]:
        """The linter's fixes for its rules, then each selected formatter's rewrite in turn."""
        rules = self._linters(select)
        fixed = {**texts, **(self.linter.fix_texts(texts, rules, checkout, unsafe) if rules else {})}
        for formatter in self._running(select):
            fixed.update(formatter.format({p: t for p, t in fixed.items() if formatter.owns(p)}))
        return {p: t for p, t in fixed.items() if t != texts[p]}

    def _linters(self, select: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(s for s in select if self._formatter(s) is None)


@dataclass(frozen=True)
class Kind:
    """A formatter or rewriting hook memfix runs as the team does: its package's tool name, its name in a person's
    words, how it rewrites the files it is given (from its install folder and pin), the configuration files it
    reads at the root, its rule's code, and whether it runs only as the team's pre-commit hook (with its `args`)."""

    tool: str
    word: str
    command: Callable[[Path, Pin], tuple[str, ...]]
    config_names: tuple[str, ...]
    code: str = ""
    hook: bool = False


def _running(named: str, pin: Pin, hook: bool) -> str:
    """What the team's formatter does in the run, and where it comes from."""
    how = f"rewrites as its hook does ({' '.join(pin.args) or 'no args'})" if hook else "formats"
    return f"{how}: the team's {named} ({pin.source}), in the sandbox, on the lines a fix targets"


def _not_running(word: str, hook: bool, why: Exception) -> str:
    """Why the team's formatter does not run here, and what stands in for it."""
    instead = "memfix's ruff stands in for it, with the rules memfix reads the hook as" if hook else \
        "memfix leaves the layout it would make alone"
    return f"the team's {word} {'hook ' if hook else ''}does not run here ({why}): {instead}"


def team_formatter(read: Read, toolbox: Toolbox, kind: Kind, owns: Callable[[str], bool],
                   ) -> tuple[Formatter | None, tuple[str, ...], tuple[str, ...]]:
    """The team's formatter of `kind`, installed at the version the repository pins and ready in the sandbox: it,
    what the run says of it, and why it does not run here (memfix formats nothing of its own: where the team's
    formatter cannot run, layout is left alone)."""
    from core.tools.pins import PRE_COMMIT, find_pins
    from core.tools.toolbox import Unavailable

    tool, word, hook = kind.tool, kind.word, kind.hook
    pin = find_pins(read).get(tool)
    if pin is None or hook and PRE_COMMIT not in pin.source:
        return None, (), ()
    try:
        sandbox, installed = toolbox.ready(pin)
    except Unavailable as exc:
        return None, (), (_not_running(word, hook, exc),)
    version = installed.version or pin.specifier or "(its newest release)"
    config = {name: text for name in kind.config_names if (text := read(name)) is not None}
    runtime = toolbox.cache.runtime_folders(pin)
    found = Formatter(tool, f"{word} {version}", installed.folder, sandbox, kind.command(installed.folder, pin),
                      config, owns, runtime, kind.code)
    return found, (_running(f"{word} {version}", pin, hook),), ()
