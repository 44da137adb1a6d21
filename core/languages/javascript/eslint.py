"""The team's own ESLint — at the version its lockfile pins, with the presets and plugins its configuration loads and
the configuration itself — finding, fixing and judging, in the sandbox. Its findings are ESLint's JSON output, named
`eslint:<rule>`; its fixes are each message's own `fix` (the range and text `eslint --fix` would apply), kept to the
findings a run targets; a fix stands when ESLint, run on the result, reports that finding gone and nothing new.

The configuration is the repository's code (`eslint.config.js`, `.eslintrc.js`, a plugin), so ESLint only ever runs
inside the sandbox, on a scratch copy of the checkout's sources and configuration (the context), with the copies to
judge laid over it at their paths and the installed presets and plugins beside them as `node_modules`.
"""

from __future__ import annotations

import bisect
import fnmatch
import hashlib
import json
import os
import re
import shlex
import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path, PurePosixPath
from typing import Any

from core.change import Finding, apply_finding_edits
from core.languages.adapter import Crashed, DetectError, halving, inside, readable, texts_of
from core.languages.javascript import rules
from core.tools.process import ToolFailed
from core.tools.sandbox import WORK, Sandbox

Read = Callable[[str], "str | None"]

PREFIX = "eslint:"  # what names an ESLint rule among every tool's (`eslint:indent`)
SYNTAX = "eslint:parsing"  # ESLint's fatal message on a file it cannot parse (it has no rule id)
UNREADABLE = "eslint:unreadable"
FLAT_FILES = ("eslint.config.js", "eslint.config.mjs", "eslint.config.cjs", "eslint.config.ts", "eslint.config.mts",
              "eslint.config.cts")
LEGACY_FILES = (".eslintrc.js", ".eslintrc.cjs", ".eslintrc.yaml", ".eslintrc.yml", ".eslintrc.json", ".eslintrc")
TSCONFIGS = tuple(f"{kind}{part}.json" for kind in ("tsconfig", "jsconfig") for part in (
    "", ".base", ".build", ".eslint", ".js", ".ts", ".test", ".app", ".node", ".lib", ".spec"))
PRETTIER_FILES = (".prettierrc", ".prettierrc.json", ".prettierrc.json5", ".prettierrc.js", ".prettierrc.cjs",
                  ".prettierrc.mjs", ".prettierrc.yaml", ".prettierrc.yml", ".prettierrc.toml", "prettier.config.js",
                  "prettier.config.cjs", "prettier.config.mjs", ".prettierignore")  # eslint-plugin-prettier reads them
CONTEXT_NAMES = ("package.json", *TSCONFIGS, ".eslintignore", ".gitignore", *PRETTIER_FILES, ".editorconfig",
                 ".browserslistrc", *FLAT_FILES, *LEGACY_FILES)  # what a configuration reads, beside the sources
MAX_CONTEXT_FILES = 20_000
MAX_CONTEXT_BYTES = 64 << 20  # the copy's size: past it, only the files linted and the configuration are copied
MAX_PASSES = 10  # as `eslint --fix`: a fix can make another finding, fixed in the next pass
_BATCH = 400  # files a run: the command line stays short, and a crash is looked for among fewer
_ESLINT_8_EXTENSIONS = (".js",)  # what ESLint 8 lints in a folder it is given, but for `--ext` and overrides
_OVERRIDDEN = re.compile(r"\*\.(tsx?|mts|cts|jsx|mjs|cjs)\b")
_OPTIONS_WITH_VALUE = frozenset({"-c", "--config", "--ext", "--ignore-path", "-f", "--format", "-o", "--output-file",
                                 "--rulesdir", "--resolve-plugins-relative-to", "--max-warnings", "--cache-location",
                                 "--parser", "--plugin", "--env", "--global", "--ignore-pattern", "--rule",
                                 "--parser-options", "--report-unused-disable-directives-severity",
                                 "--cache-strategy", "--stdin-filename"})


@dataclass(frozen=True)
class Script:
    """What the team's lint script hands ESLint: the paths it lints (none: the whole checkout) and, for ESLint 8,
    the extensions `--ext` adds; `said` names the script."""

    targets: tuple[str, ...] = ()
    extensions: tuple[str, ...] = ()
    said: str = ""

    def lints(self, path: str) -> bool:
        """Whether the script's run reaches `path` (a target names a folder, a file or a simple glob)."""
        return not self.targets or any(_reaches(target, path) for target in self.targets)


def lint_script(package: Mapping[str, Any]) -> Script:
    """The first `eslint` command of package.json's scripts (`lint`, then any other), read as words: never run."""
    found = package.get("scripts")
    scripts: dict[str, object] = found if isinstance(found, dict) else {}
    ordered = sorted(scripts.items(), key=lambda item: (item[0] != "lint", not str(item[0]).startswith("lint")))
    for name, command in ordered:
        if (words := _eslint_words(command, scripts, 3)) is not None:
            return _script(words, str(name))
    return Script()


_RUNNERS = ("npm", "pnpm", "yarn")
# Tools that run ESLint with the team's configuration on their own default files (`gts lint`: its globs).
WRAPPERS = {"gts": ("**/*.ts", "**/*.js", "**/*.tsx", "**/*.jsx")}


def _eslint_words(command: object, scripts: Mapping[str, object], depth: int) -> list[str] | None:
    """The words after `eslint` in a script's command (`eslint …`, `npx eslint …`, `node_modules/.bin/eslint …`),
    following `npm run NAME` to that script, a few levels deep; None where it runs no ESLint."""
    if not isinstance(command, str) or depth == 0:
        return None
    for part in re.split(r"&&|\|\||;|\|", command):
        try:
            words = shlex.split(part)
        except ValueError:
            continue
        if words and words[0] in _RUNNERS:  # `npm run lint:js`, `yarn lint:js`: that script's own command
            named = _script_named(words)
            if named in scripts and (found := _eslint_words(scripts[named], scripts, depth - 1)) is not None:
                return found
            continue
        if (found := _after_eslint(words)) is not None:
            return found
    return None


def _script_named(words: list[str]) -> str:
    """The script a runner's command runs: `npm run NAME`, `yarn NAME`."""
    if words[1:2] == ["run"] and len(words) > 2:
        return words[2]
    return words[1] if len(words) > 1 else ""


def _after_eslint(words: list[str]) -> list[str] | None:
    """The words after `eslint` in one command, or a wrapper's (`gts lint src`: its targets, else its defaults)."""
    at = next((i for i, word in enumerate(words) if PurePosixPath(word).name == "eslint"), None)
    if at is not None:
        return words[at + 1:]
    return _wrapper_targets(words)


def _wrapper_targets(words: list[str]) -> list[str] | None:
    """What a wrapper's lint command (`gts lint src`) lints: its targets, else the wrapper's defaults."""
    at = next((i for i, word in enumerate(words) if PurePosixPath(word).name in WRAPPERS), None)
    if at is None or words[at + 1:at + 2] not in (["lint"], ["check"], ["fix"]):
        return None
    given = [w for w in words[at + 2:] if not w.startswith("-")]
    return given or list(WRAPPERS[PurePosixPath(words[at]).name])


def _script(words: list[str], name: str) -> Script:
    targets: list[str] = []
    extensions: list[str] = []
    flag = ""  # an option whose value is the next word
    for word in words:
        if flag:
            extensions += _extensions(word) if flag == "--ext" else []
            flag = ""
        elif word.startswith("-"):
            option, _, value = word.partition("=")
            extensions += _extensions(value) if option == "--ext" else []
            flag = option if option in _OPTIONS_WITH_VALUE and not value else ""
        else:
            targets.append(word.strip("'\"").removeprefix("./").rstrip("/") or ".")
    if "." in targets:
        targets = []
    return Script(tuple(targets), tuple(extensions), f"package.json's `{name}` script")


def _extensions(value: str) -> list[str]:
    """`--ext js,.mjs` as extensions with their dots."""
    return [e if e.startswith(".") else f".{e}" for e in value.split(",") if e]


def _reaches(target: str, path: str) -> bool:
    if any(c in target for c in "*?["):  # `*` crosses folders here: a glob reaches at least what it names
        return fnmatch.fnmatchcase(path, target) or target.startswith("**/") and fnmatch.fnmatchcase(path, target[3:])
    return path == target or path.startswith(target + "/")


@dataclass(frozen=True)
class Context:
    """The checkout's files a configuration may read (its sources, package.json, tsconfig, the configurations of
    each folder), read once through the run's bounded reader and written into each scratch copy."""

    read: Read
    paths: tuple[str, ...]
    _texts: dict[str, str | None] = field(default_factory=dict, compare=False, repr=False)

    def text(self, path: str) -> str | None:
        if path not in self._texts:
            self._texts[path] = self.read(path)
        return self._texts[path]

    def lay(self, work: Path, keep: Iterable[str]) -> None:
        """The context written under `work` (the configuration first, then sources while within the size cap), each
        of `keep` (to be laid over by the caller) left out."""
        skipped, size = set(keep), 0
        for path in self.paths:
            if path in skipped:
                continue
            text = self.text(path)
            if text is None:
                continue
            size += len(text)
            if size > MAX_CONTEXT_BYTES and rules.owns(path):
                continue
            _write(work, path, text.encode("utf-8", "surrogateescape"))

    def overridden(self) -> tuple[str, ...]:
        """The extensions a legacy configuration's `overrides` name (`"*.ts"`): ESLint 8 lints those in a folder too."""
        texts = [self.text(p) or "" for p in self.paths if PurePosixPath(p).name in LEGACY_FILES]
        return tuple(sorted({f".{m}" for text in texts for m in _OVERRIDDEN.findall(text)}))

    def digest(self) -> str:
        """What makes one configuration distinct from another: the configuration files' texts."""
        parts = [f"{p}\0{self.text(p) or ''}" for p in self.paths if PurePosixPath(p).name in CONTEXT_NAMES]
        return hashlib.sha256("\0".join(parts).encode("utf-8", "surrogateescape")).hexdigest()


def context(read: Read, sources: Iterable[str]) -> Context:
    """The context of a checkout whose source files are `sources`: each source, and the configuration files of the
    root and of every folder a source lies in."""
    listed = [p for p in sources if not _vendored(p)][:MAX_CONTEXT_FILES]
    folders = sorted({str(PurePosixPath(p).parent) for p in listed} | {"."}, key=lambda f: (f.count("/"), f))
    named = [n for name in CONTEXT_NAMES for folder in folders
             if read(n := name if folder == "." else f"{folder}/{name}") is not None]
    return Context(read, tuple(dict.fromkeys([*named, *_referenced(read, named), *listed])))


_JSON_NAMED = re.compile(r"""["'`]((?:\.{1,2}/)?[\w@][\w@./-]{0,200}\.json)["'`]""")


def _referenced(read: Read, named: list[str]) -> list[str]:
    """The JSON files the configuration files name (`parserOptions.project`, a tsconfig's `extends` and
    `references`), relative to the file that names them, to a few levels: a typed rule reads them."""
    found: list[str] = []
    pending = list(named)
    for _ in range(3):
        more = []
        for path in pending:
            folder = PurePosixPath(path).parent
            for name in _JSON_NAMED.findall(read(path) or ""):
                target = os.path.normpath(folder / name).replace(os.sep, "/")
                if not target.startswith("..") and target not in found and target not in named \
                        and not _vendored(target) and read(target) is not None:
                    found.append(target)
                    more.append(target)
        pending = more
    return found


def configured(read: Read) -> str | None:
    """The root's ESLint configuration file (flat first, as ESLint looks), or `package.json`'s `eslintConfig`;
    None where the team has none."""
    for name in (*FLAT_FILES, *LEGACY_FILES):
        if read(name) is not None:
            return name
    text = read("package.json")
    try:
        package = json.loads(text) if text else {}
    except ValueError:
        return None
    return "package.json" if isinstance(package, dict) and "eslintConfig" in package else None


def _vendored(path: str) -> bool:
    return any(part in ("node_modules", ".git") for part in path.split("/"))


_PROBED: dict[tuple[str, str], str | None] = {}  # (install, configuration) → why it does not run, or None
_ENUMERATED: dict[tuple[str, str, tuple[str, ...], tuple[str, ...]], frozenset[str] | None] = {}
# ESLint's own legacy file enumerator (ESLint 6 to 8), asked which files its run over the targets lints: argv is the
# enumerator's file, the `--ext` extensions (comma-separated, may be empty), then the targets.
_ENUMERATE = """
const [file, extensions, ...targets] = process.argv.slice(1);
const { FileEnumerator } = require(file);
const enumerator = new FileEnumerator({ cwd: process.cwd(), extensions: extensions ? extensions.split(",") : null,
                                        errorOnUnmatchedPattern: false });
for (const { filePath, ignored } of enumerator.iterateFiles(targets)) if (!ignored) console.log(filePath);
"""
_PROBED_LOCK = threading.Lock()


@dataclass(frozen=True)
class ESLint:
    """ESLint installed in `folder` (an npm prefix of the tool cache, its presets and plugins beside it), run by
    `node` in `sandbox` over the checkout's `context`; `flat`: the configuration is ESLint's flat one; `script`: what
    the team's lint script lints; `held`: rules the learned policy holds back here."""

    folder: Path
    sandbox: Sandbox
    node: Path
    version: str
    context: Context
    flat: bool
    script: Script = Script()
    runtime: tuple[Path, ...] = ()  # Node's own folder, mounted beside the tool where the system's is not the one
    held: tuple[str, ...] = ()

    syntax_code = SYNTAX
    unreadable_code = UNREADABLE

    def with_held(self, held: tuple[str, ...]) -> ESLint:
        return replace(self, held=held)

    def owns(self, path: str) -> bool:
        return rules.owns(path)

    def lints(self, path: str) -> bool:
        """Whether the team's run of ESLint lints `path`: within its script's targets, and for a legacy
        configuration among the files ESLint's own enumeration of those targets yields (its extensions, `--ext`,
        every `overrides` pattern of the configuration and what it extends, its ignore patterns)."""
        if not self.owns(path) or not self.script.lints(path):
            return False
        if self.flat:
            return True  # the flat configuration's own `files` say the rest: ESLint warns of a file none matches
        listed = self._enumerated()
        return path in listed if listed is not None else \
            path.endswith((*_ESLINT_8_EXTENSIONS, *self.script.extensions, *self.context.overridden()))

    def _enumerated(self) -> frozenset[str] | None:
        """The checkout's files ESLint's legacy file enumerator yields for the script's targets, asked once a
        configuration, install and script (None where this ESLint has no such enumerator to ask)."""
        key = (str(self.folder), self.context.digest(), self.script.targets, self.script.extensions)
        with _PROBED_LOCK:
            if key in _ENUMERATED:
                return _ENUMERATED[key]
        found: frozenset[str] | None = None
        enumerator = self.folder / "node_modules" / "eslint" / "lib" / "cli-engine" / "file-enumerator.js"
        if enumerator.is_file():
            with self.sandbox.scratch() as work:
                self._prepare(work, {})
                try:
                    done = self.sandbox.run([str(self.node), "-e", _ENUMERATE, str(enumerator),
                                             ",".join(self.script.extensions), *(self.script.targets or (".",))],
                                            work=work, tools=self._tools(), what=f"the team's ESLint {self.version}",
                                            env={"ESLINT_USE_FLAT_CONFIG": "false"})
                except ToolFailed:
                    done = None
            if done is not None and done.returncode == 0:
                found = frozenset(line.removeprefix(WORK + "/") for line in done.stdout.splitlines()
                                  if line.startswith(WORK + "/"))
        with _PROBED_LOCK:
            _ENUMERATED[key] = found
        return found

    def knows(self, selector: str) -> bool:
        return selector == "eslint" or selector.startswith(PREFIX)

    def has_rule(self, code: str) -> bool:
        return code.startswith(PREFIX) and len(code) > len(PREFIX)

    def rule_words(self, code: str) -> frozenset[str]:
        return frozenset()  # ESLint's messages quote the code's names: one insight a rule, not one a variable

    def check(self, root: Path, paths: list[str], select: tuple[str, ...], *, listed: bool = False) -> list[Finding]:
        """What the team's ESLint reports in the files among `paths` its lint run reaches, of the rules `select`
        covers, sorted; `root` holds the copies to judge (the checkout, or a verification's copies of it)."""
        texts = readable(Path(root).resolve(), [p for p in paths if self.lints(p)])
        found = [f for f in self._report(texts) if f.code in (SYNTAX, UNREADABLE) or self._wanted(f.code, select)]
        return sorted(found, key=lambda f: (f.path, f.line, f.column, f.code))

    def problem(self) -> str | None:
        """Why the team's configuration does not run here (a preset or plugin memfix did not install, a configuration
        that throws), from one file linted; None when it runs. Asked once a configuration and install."""
        key = (str(self.folder), self.context.digest())
        with _PROBED_LOCK:
            if key in _PROBED:
                return _PROBED[key]
        sample = next((p for p in self.context.paths if self.lints(p) and self.context.text(p) is not None), None)
        problem = None
        if sample is not None:
            try:
                self._run({sample: (self.context.text(sample) or "").encode("utf-8", "surrogateescape")})
            except Crashed:
                pass  # a rule that crashes on one file costs that file: the configuration runs
            except DetectError as exc:
                problem = str(exc)
        with _PROBED_LOCK:
            _PROBED[key] = problem
        return problem

    def fix(self, root: Path, path: str, select: tuple[str, ...]) -> str | None:
        return self.fix_many(root, [path], select).get(path)

    def fix_many(self, root: Path, paths: list[str], select: tuple[str, ...]) -> dict[str, str]:
        return self.fix_texts(texts_of(root, paths), select)

    def fix_texts(self, texts: dict[str, str], select: tuple[str, ...],
                  checkout: Path | None = None, unsafe: bool = False) -> dict[str, str]:
        """`texts` as `eslint --fix` leaves them for the rules `select` covers alone: each pass applies the fixes
        ESLint reports for them, until a pass has none (ESLint's suggestions are a person's to choose: never)."""
        current = {path: text for path, text in texts.items() if self.lints(path)}
        for _ in range(MAX_PASSES):
            if not _applied(current, self._fixes(current, select)):
                break
        return {path: text for path, text in current.items() if text != texts[path]}

    def _fixes(self, current: dict[str, str], select: tuple[str, ...]) -> dict[str, list[Finding]]:
        """The fixes ESLint reports in the texts for the rules `select` covers, by file."""
        found: dict[str, list[Finding]] = {}
        for f in self._report({p: t.encode("utf-8", "surrogateescape") for p, t in current.items()}):
            if f.edits and self._wanted(f.code, select):
                found.setdefault(f.path, []).append(f)
        return found

    def _wanted(self, code: str, select: tuple[str, ...]) -> bool:
        return code not in self.held and any(s == "eslint" or code == s or code.startswith(s + "/") or s == "ALL"
                                             for s in select)

    def _report(self, texts: Mapping[str, bytes]) -> list[Finding]:
        """ESLint's findings in `texts`, a batch of files a run, a batch it crashes on halved until the file is
        alone (that file is said unreadable by it, the rest reported)."""
        paths = sorted(texts)
        found: list[Finding] = []
        for start in range(0, len(paths), _BATCH):
            results, crashed = halving(lambda batch: self._run({p: texts[p] for p in batch}),
                                       paths[start:start + _BATCH])
            found += [f for result in results for f in result]
            found += [Finding(path, 1, 1, UNREADABLE, f"the team's ESLint {self.version} {how} on this file",
                              source="eslint") for path, how in crashed.items()]
        return found

    def _run(self, texts: Mapping[str, bytes]) -> list[Finding]:
        if not texts:
            return []
        with self.sandbox.scratch() as work:
            self._prepare(work, texts)
            command = [str(self.node), str(self.folder / "node_modules" / "eslint" / "bin" / "eslint.js"),
                       "--format", "json", "--", *sorted(texts)]
            try:
                done = self.sandbox.run(command, work=work, tools=self._tools(), what=f"the team's ESLint "
                                        f"{self.version}", env={"ESLINT_USE_FLAT_CONFIG": str(self.flat).lower()})
            except ToolFailed as exc:
                raise DetectError(str(exc)) from exc
        if done.returncode not in (0, 1):
            raise self._failure(done.returncode, done.stdout, done.stderr)
        try:
            results = json.loads(done.stdout)
        except ValueError as exc:
            raise DetectError(f"the team's ESLint {self.version} wrote no report memfix can read") from exc
        decoded = {path: data.decode("utf-8", "surrogateescape") for path, data in texts.items()}
        return [f for result in results if isinstance(result, dict)
                for f in _findings(result, decoded)]

    def _failure(self, code: int, stdout: str, stderr: str) -> Exception:
        """How ESLint stopped: a crash on a file (halved down to it by the caller), or a failure of the run."""
        said = _said(stderr or stdout)
        if "Occurred while linting" in stderr or code < 0:
            return Crashed(f"the team's ESLint {self.version}", code if code < 0 else 2, said)
        return DetectError(f"the team's ESLint {self.version} failed (exit {code}): {said}")

    def _prepare(self, work: Path, texts: Mapping[str, bytes]) -> None:
        """The scratch copy: the checkout's context, `texts` laid over it, the installed presets and plugins beside
        them as `node_modules` (where the configuration's imports resolve)."""
        self.context.lay(work, texts)
        for path, data in texts.items():
            _write(work, path, data)
        modules = work / "node_modules"
        if not modules.exists() and not modules.is_symlink():
            modules.symlink_to(self.folder / "node_modules")

    def _tools(self) -> list[Path]:
        return [self.folder, *self.runtime]


def _findings(result: dict[str, Any], texts: Mapping[str, str]) -> list[Finding]:
    """One file's result in ESLint's JSON as findings: each message with a rule, a parse failure as SYNTAX; the
    rest (a file its ignore patterns leave, an unused directive) is not a rule's finding."""
    path = str(result.get("filePath", ""))
    relative = path.removeprefix(WORK + "/") if path.startswith(WORK + "/") else None
    if relative is None or relative not in texts:
        return []
    positions = _Positions(texts[relative])
    return [f for message in result.get("messages") or () if isinstance(message, dict)
            and (f := _finding(message, relative, positions)) is not None]


def _finding(message: dict[str, Any], path: str, positions: _Positions) -> Finding | None:
    """One ESLint message as a finding: a rule's, with its fix; a parse failure as SYNTAX; None for the rest."""
    rule = message.get("ruleId")
    line, column = int(message.get("line") or 1), int(message.get("column") or 1)
    words = str(message.get("message", ""))
    if rule is None:
        return Finding(path, line, column, SYNTAX, words, source="eslint") if message.get("fatal") else None
    fix = message.get("fix")
    edits = positions.edit(fix) if isinstance(fix, dict) else None
    return Finding(path, line, column, PREFIX + str(rule), words, fixable=edits is not None, source="eslint",
                   edits=(edits,) if edits else ())


def _applied(current: dict[str, str], found: dict[str, list[Finding]]) -> bool:
    """Each file's fixes made in `current`: whether any changed a text."""
    changed = False
    for path, items in found.items():
        updated, _ = apply_finding_edits(current[path], tuple(items))
        if updated != current[path]:
            current[path], changed = updated, True
    return changed


class _Positions:
    """ESLint's offsets (UTF-16 code units, after a byte order mark) as rows and columns in characters, split into
    lines as `edit_spans` splits them, so an edit comes back to the same place."""

    def __init__(self, text: str):
        self.bom = text.startswith("\ufeff")
        self.lines = [0]
        for line in text.splitlines(keepends=True):
            self.lines.append(self.lines[-1] + len(line))
        self.wide = None if all(ord(c) < 0x10000 for c in text) else self._units(text)

    @staticmethod
    def _units(text: str) -> list[int]:
        units, at = [], 0
        for c in text:
            units.append(at)
            at += 2 if ord(c) >= 0x10000 else 1
        units.append(at)
        return units

    def _index(self, unit: int) -> int:
        index = unit if self.wide is None else bisect.bisect_left(self.wide, unit)
        return index + self.bom

    def _place(self, index: int) -> tuple[int, int]:
        row = bisect.bisect_right(self.lines, index)
        return row, index - self.lines[row - 1] + 1

    def edit(self, fix: dict[str, Any]) -> tuple[int, int, int, int, str] | None:
        span, new = fix.get("range"), fix.get("text")
        if not (isinstance(span, list) and len(span) == 2 and all(isinstance(n, int) for n in span)
                and isinstance(new, str)):
            return None
        start, end = self._index(span[0]), self._index(span[1])
        return (*self._place(start), *self._place(end), new)


def _write(work: Path, path: str, data: bytes) -> None:
    copy = inside(work, path)
    copy.parent.mkdir(parents=True, exist_ok=True)
    copy.write_bytes(data)


def _said(text: str) -> str:
    """ESLint's own words on why it stopped, short: the first line that says something after its banner."""
    lines = [line.strip() for line in text.splitlines() if line.strip() and not line.startswith(("Oops!", "ESLint:"))]
    return lines[0][:300] if lines else "no message"
