"""The team's own ruff — at the version its repository pins, with its configuration files — finding, fixing and
judging, in the sandbox. memfix's own ruff runs `--isolated` with memfix's reading of the configuration, and another
version's defaults, import sorting and fixes: what it finds is not what the team's `ruff check` finds, and an I001 fix
it verified can fail the team's check once applied. So where the team pins ruff, that ruff decides, always (even at
memfix's own version: its reading of the team's files — `extend`, nested configurations, `src`, settings memfix does
not carry — is the tool's, not memfix's).

Its configuration is the repository's (`pyproject.toml`'s [tool.ruff], `ruff.toml`, `.ruff.toml`, at the root and
in the folders of the files it checks, and what they `extend`), so it runs only in the sandbox, on copies laid out as
in the checkout. It is told no rules of its own configuration's: those it selects as the team's check does, at its
version. What the run asks beyond them — rules another of the team's tools chose (pyupgrade's, isort's, flake8's
where flake8 does not run), a person's, `.github/memfix.yml`'s — it is told with `--extend-select`; the rules the
learned policy holds back, with `--ignore`.
"""

from __future__ import annotations

import json
import logging
import posixpath
import re
import threading
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from core.bounded import table_at
from core.change import Finding
from core.languages.adapter import DetectError, Read, covering, inside, mirror_layout, originals, readable
from core.languages.python.configs import toml_file
from core.languages.python.ruff import Ruff, python_files, read_finding, selected
from core.paths import argument_problem
from core.tools.process import Finished, ToolFailed
from core.tools.sandbox import WORK, Sandbox

log = logging.getLogger(__name__)

CONFIG_FILES = ("pyproject.toml", "ruff.toml", ".ruff.toml")  # where ruff finds its settings, in any folder
OLDEST = (0, 1, 0)  # safe and unsafe fixes, `--unsafe-fixes`, and the JSON memfix reads: ruff 0.1.0 on
MAX_EXTENDS = 5  # `extend` chains followed at most this deep
OWN = "ruff"  # TeamRules.tools' name for a rule ruff's own configuration chose
_SAID = 300  # characters of the tool's last words kept in a message


def too_old(version: str | None) -> str | None:
    """Why memfix does not run this ruff (before 0.1.0: no safe/unsafe fixes, another JSON output and other
    flags), or None."""
    parts = re.match(r"(\d+)\.(\d+)\.(\d+)", version or "")
    if parts is None or tuple(map(int, parts.groups())) >= OLDEST:
        return None
    return (f"ruff {version} is older than the oldest memfix runs ({'.'.join(map(str, OLDEST))}: before it ruff "
            "has no safe and unsafe fixes, and its output and flags differ)")


REMOVED = {(0, 8, 0): frozenset({"E999"})}  # rules a ruff from that version refuses to select, though 0.8 and 0.9 list
# them as they list every rule (their `rule --all` says nothing of it; later ones mark them "Removed")


def _removed_in(version: str) -> frozenset[str]:
    parts = re.match(r"(\d+)\.(\d+)\.(\d+)", version or "")
    if parts is None:
        return frozenset()
    found = tuple(map(int, parts.groups()))
    return frozenset(code for since, codes in REMOVED.items() if found >= since for code in codes)


def installed_version(folder: Path) -> str | None:
    """The ruff version installed in a tool cache's environment, from its package metadata (a range or "the newest"
    installs a version memfix learns only here)."""
    found = sorted(folder.glob("lib/python*/site-packages/ruff-*.dist-info"))
    return found[-1].name.removeprefix("ruff-").removesuffix(".dist-info") if found else None


@dataclass(frozen=True)
class TeamConfigs:
    """The team's ruff configuration files, read from the repository for the folders of the files a run copies (each
    folder looked at once a run) and the files they `extend`: {path: text}."""

    read: Read
    _seen: dict[str, str | None] = field(default_factory=dict, compare=False, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, compare=False, repr=False)

    def around(self, paths: Iterable[str]) -> dict[str, str]:
        folders = {""} | {posixpath.dirname(p) for p in paths}
        for folder in list(folders):
            while folder:
                folder = posixpath.dirname(folder)
                folders.add(folder)
        wanted = [posixpath.join(folder, name) for folder in sorted(folders) for name in CONFIG_FILES]
        found: dict[str, str] = {}
        for path in wanted:
            self._gather(path, found, 0)
        return found

    def _gather(self, path: str, found: dict[str, str], depth: int) -> None:
        if path in found:
            return
        text = self._text(path)
        if text is None:
            return
        found[path] = text
        data = toml_file(text)
        ruff = table_at(data, "tool", "ruff") if posixpath.basename(path) == "pyproject.toml" else data
        target = ruff.get("extend")
        if isinstance(target, str) and depth < MAX_EXTENDS and not target.startswith(("/", "~")):
            extended = posixpath.normpath(posixpath.join(posixpath.dirname(path), target))
            if not extended.startswith("..") and not argument_problem(extended):
                self._gather(extended, found, depth + 1)

    def _text(self, path: str) -> str | None:
        with self._lock:
            if path in self._seen:
                return self._seen[path]
        text = self.read(path)
        with self._lock:
            self._seen[path] = text
        return text


@lru_cache(maxsize=16)
def _catalogue(sandbox: Sandbox, folder: Path) -> frozenset[str]:
    """The rule codes this ruff has (`ruff rule --all`, asked in the sandbox once a process): a selector it lacks
    fails its whole run, and before 0.5 it reports a syntax error only where E999 is selected. Empty when it cannot
    say (then every selector is passed as it is)."""
    binary = str(folder / "bin" / "ruff")
    script = (f'"{binary}" rule --all --output-format json 2>/dev/null || "{binary}" rule --all --format json')
    try:
        with sandbox.scratch() as work:
            done = sandbox.run(["/bin/sh", "-c", script], work=work, tools=[folder], what="the team's ruff", cap=60)
        rules = json.loads(done.stdout)
    except (ToolFailed, ValueError):
        log.warning("the team's ruff in %s could not list its rules", folder)
        return frozenset()
    return frozenset(str(r.get("code")) for r in rules if isinstance(r, dict) and not _removed(r)) \
        if isinstance(rules, list) else frozenset()


def _removed(rule: dict[str, object]) -> bool:
    """A rule this ruff lists but refuses to select (`"status": {"Removed": …}`, E999 since 0.8)."""
    status = rule.get("status")
    return isinstance(status, dict) and "Removed" in status


@dataclass(frozen=True)
class TeamRuff:
    """ruff installed in `folder` (a virtual environment of the tool cache), at `version`, run in `sandbox` with the
    team's configuration files from `configs`. `chosen`: which tool chose each selector of the team's (TeamRules
    .tools); `catalogue`: memfix's own ruff, for what the runner asks of rules by name (their words, whether they
    have a fix) and which files are Python; `excluded`: what memfix's reading of the team's other tools sets aside;
    `unfixable`: what the team's configuration never lets ruff fix; `held`: rules the learned policy holds back."""

    folder: Path
    sandbox: Sandbox
    configs: TeamConfigs
    version: str
    chosen: Mapping[str, str]
    catalogue: Ruff
    excluded: tuple[str, ...] = ()
    unfixable: tuple[str, ...] = ()
    held: tuple[str, ...] = ()

    syntax_code = Ruff.syntax_code
    unreadable_code = Ruff.unreadable_code

    def with_held(self, held: tuple[str, ...]) -> TeamRuff:
        return replace(self, held=held)

    def owns(self, path: str) -> bool:
        return self.catalogue.owns(path)

    def knows(self, selector: str) -> bool:
        codes = _catalogue(self.sandbox, self.folder)
        return not codes or selector == "ALL" or any(code.startswith(selector) for code in codes)

    def has_rule(self, code: str) -> bool:
        return self.catalogue.has_rule(code)

    def fixes(self, code: str) -> bool:
        return self.catalogue.fixes(code)

    def rule_words(self, code: str) -> frozenset[str]:
        return self.catalogue.rule_words(code)

    def check(self, root: Path, paths: list[str], select: tuple[str, ...], *, listed: bool = False) -> list[Finding]:
        """What the team's ruff reports in the `.py` files among `paths`, of the rules `select` covers, sorted; each
        finding with its edits at this version."""
        root = Path(root).resolve()
        files = list(paths) if listed else python_files(root, paths)
        if not files or not select:
            return []
        texts = readable(root, files)
        if not texts:
            return []
        done, _ = self._run(["--no-fix", "--output-format", "json"], texts, select, root)
        kept = [f for f in self._report(done.stdout) if f.path in texts and self._kept(f.code, select)]
        return sorted(kept, key=lambda f: (f.path, f.line, f.column, f.code))

    def _report(self, stdout: str) -> list[Finding]:
        """ruff's JSON report as findings; DetectError where it cannot be read."""
        try:
            return [self._finding(item) for item in json.loads(stdout)]
        except (ValueError, TypeError, KeyError, AttributeError) as exc:
            raise DetectError(f"the team's ruff {self.version}'s output could not be read ({exc})") from exc

    def _kept(self, code: str, select: tuple[str, ...]) -> bool:
        """A finding the run reports: a file it cannot read or parse, or a selected rule that is not held."""
        return code in (self.syntax_code, self.unreadable_code) or selected(code, select) and code not in self.held

    def _finding(self, item: dict[str, Any]) -> Finding:
        found = read_finding(Path(WORK), item)
        return replace(found, code=self.syntax_code) if found.code == "E999" else found

    def fix(self, root: Path, path: str, select: tuple[str, ...]) -> str | None:
        return self.fix_many(root, [path], select).get(path)

    def fix_many(self, root: Path, paths: list[str], select: tuple[str, ...]) -> dict[str, str]:
        """The team's ruff's safe fixes for `select` in copies of `paths`: {path: fixed text} for each it changed."""
        return self._fixed(originals(root, paths), select, Path(root), unsafe=False)

    def fix_texts(self, texts: dict[str, str], select: tuple[str, ...],
                  checkout: Path | None = None, unsafe: bool = False) -> dict[str, str]:
        """`fix_many` for texts not on disk: the team's `ruff check --fix`, its fixes (unsafe ones too, where asked)
        looped to its fixpoint, only for the rules `select` covers."""
        return self._fixed({path: text.encode("utf-8") for path, text in texts.items()}, select, checkout, unsafe)

    def _fixed(self, originals: dict[str, bytes], select: tuple[str, ...], checkout: Path | None,
               unsafe: bool) -> dict[str, str]:
        if not originals or not select:
            return {}
        fixable = [s for s in select if self.knows(s)]
        if not fixable:
            return {}
        _, updated = self._run(self._fix_args(fixable, unsafe), originals, select, checkout)
        return {path: text.decode("utf-8") for path, text in updated.items() if text != originals[path]}

    def _fix_args(self, fixable: list[str], unsafe: bool) -> list[str]:
        # `--fixable` on the command line replaces the configuration's: its `unfixable` is said again beside it
        return ["--fix", "--unsafe-fixes" if unsafe else "--no-unsafe-fixes", "--fixable=" + ",".join(fixable),
                *_listed("unfixable", [c for c in self.unfixable if self.knows(c)])]

    def _run(self, args: list[str], texts: dict[str, bytes], select: tuple[str, ...],
             checkout: Path | None) -> tuple[Finished, dict[str, bytes]]:
        """ruff on copies of `texts` at their paths, beside the team's configuration files for their folders and the
        checkout's package skeleton (so first-party imports are the checkout's): what it said, and the copies as it
        left them."""
        configs = self.configs.around(texts)
        files = {**{p: t.encode("utf-8") for p, t in configs.items() if p not in texts}, **texts}
        command = [str(self.folder / "bin" / "ruff"), "check", "--no-cache", "--exit-zero", "--force-exclude",
                   *self._selection(select), *args, "."]  # the copies and stand-ins are all there is
        try:
            with self.sandbox.copies(files) as work:
                mirror_layout(work, list(texts), checkout)
                done = self.sandbox.run(command, work=work, tools=[self.folder],
                                        what=f"the team's ruff {self.version}")
                after = {path: inside(work, path).read_bytes() for path in texts}
        except (ToolFailed, OSError, ValueError) as exc:
            raise DetectError(str(exc)) from exc
        if done.returncode != 0:  # its words may quote the copies: the worker's log has them, the reply says this
            log.warning("the team's ruff %s failed (exit %s): %s", self.version, done.returncode, done.stderr[-2000:])
            raise DetectError(f"the team's ruff {self.version} failed (exit {done.returncode}): {_said(done.stderr)}")
        return done, after

    def _selection(self, select: tuple[str, ...]) -> list[str]:
        """What the run asks of it beyond its own configuration: the rules of `select` another tool, a person or
        `.github/memfix.yml` chose (those its configuration chose it selects itself, as the team's check does),
        E902 and (before ruff 0.5) E999 so a file it cannot read or parse is said; the held rules ignored; what
        memfix sets aside excluded. Only selectors this version has: one it lacks fails the whole run."""
        beyond = [s for s in select if self._chooser(s) != OWN]
        always = [self.unreadable_code, *(["E999"] if "E999" in _catalogue(self.sandbox, self.folder) else [])]
        gone = _removed_in(self.version)
        extend = [s for s in dict.fromkeys([*beyond, *always]) if self.knows(s) and s not in gone]
        return [*_listed("extend-select", extend), *_listed("ignore", [c for c in self.held if self.knows(c)]),
                *_listed("extend-exclude", self.excluded)]

    def _chooser(self, selector: str) -> str | None:
        chosen = covering(selector, tuple(self.chosen))
        return self.chosen[chosen] if chosen else None


def _listed(option: str, values: Iterable[str]) -> list[str]:
    """`--option=a,b` for ruff's command line, or nothing where there are no values."""
    joined = ",".join(values)
    return [f"--{option}={joined}"] if joined else []


def _said(stderr: str) -> str:
    """The last line ruff wrote (its error, usually), short."""
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    return lines[-1][:_SAID] if lines else "no message"
