"""Detect: ruff on a checkout's Python files, read back as findings.

`--isolated` because memfix's verdict must not depend on whatever ruff configuration file happens to be found;
what the repository decided (its target Python, ignores, per-file ignores, excludes) is read from its files by
core/languages/python/project.py and passed as flags (`Ruff.with_args`); rules are chosen through `.github/memfix.yml`.
"""

from __future__ import annotations

import json
import os
import re
import stat
import tempfile
from collections.abc import Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache
from pathlib import Path
from typing import Any

from core import deadline
from core.change import Finding
from core.languages.adapter import Crashed, DetectError, crashed, halving, inside, mirror_layout, originals
from core.tools import process
from core.tools.process import ToolFailed

TARGET_VERSION = "py311"  # when nothing says which Python the project supports (core/languages/python/project.py does)
_COMMON = ("--isolated", "--no-cache", "--exit-zero")
_SKIP_DIRS = {"__pycache__", "node_modules", "site-packages", "venv"}  # plus every hidden directory
_PARALLEL_RUNS = 4  # ruff processes at once when one command line cannot hold every path


def _batch_chars() -> int:
    """Characters of paths per ruff command line: far below the platform's limit (Windows: 32,767 characters
    in all; elsewhere ARG_MAX, arguments and environment together), and one run for a tree of a few thousand
    files where the platform allows it, since each run pays ruff's start-up again."""
    if os.name == "nt":
        return 16_000
    try:
        return max(16_000, min(os.sysconf("SC_ARG_MAX") // 4, 256_000))
    except (AttributeError, ValueError, OSError):
        return 16_000


_BATCH_CHARS = _batch_chars()


def selected(code: str, select: Iterable[str]) -> bool:
    """Whether a rule code falls under ruff selectors (`F` covers `F401`; `ALL` covers everything)."""
    return any(s == "ALL" or code.startswith(s) for s in select)


def python_files(root: Path, candidates: Iterable[str]) -> list[str]:
    """Existing `.py` files among `candidates`, relative to `root` with `/`, in order, each once.

    A directory stands for the `.py` files under it (hidden directories, `venv`, `__pycache__` and the like
    skipped); anything missing, not Python, or outside `root` is left out.

    Plain `os` calls on strings, each folder resolved once: a scan names thousands of files in a few hundred
    folders, and pathlib's parsing plus a resolve per file cost more than half of ruff's own time on such a tree.
    """
    top = os.path.realpath(root)
    prefix = top if top.endswith(os.sep) else top + os.sep
    folders: dict[str, str] = {}
    found: dict[str, None] = {}
    for candidate in candidates:
        try:
            target = _resolved(top, candidate, folders)
            mode = os.stat(target).st_mode
        except (OSError, ValueError):  # missing, unreadable, or not a path at all (a NUL byte)
            continue
        if target != top and not target.startswith(prefix):
            continue  # outside root
        if stat.S_ISDIR(mode):
            found.update((f[len(prefix):].replace(os.sep, "/"), None) for f in _walk(target))
        elif stat.S_ISREG(mode) and _is_python(target):
            found[target[len(prefix):].replace(os.sep, "/")] = None
    return list(found)


def _resolved(top: str, path: str, folders: dict[str, str]) -> str:
    """What `(Path(top) / path).resolve()` is, resolving each folder once (`folders` caches them)."""
    head, name = os.path.split(path)
    if name in ("", ".", ".."):
        return os.path.realpath(os.path.join(top, path))
    folder = folders.get(head)
    if folder is None:
        folder = folders[head] = os.path.realpath(os.path.join(top, head))
    target = os.path.join(folder, name)
    return os.path.realpath(target) if os.path.islink(target) else target


def _is_python(path: str) -> bool:
    name = os.path.basename(path)
    return name.endswith(".py") and name != ".py"  # as `Path.suffix == ".py"`: `.py` alone is a hidden file


def _walk(directory: str) -> Iterator[str]:
    for dirpath, dirnames, filenames in os.walk(directory):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and d not in _SKIP_DIRS)
        yield from (os.path.join(dirpath, name) for name in sorted(filenames) if name.endswith(".py"))


def _batches(paths: list[str]) -> Iterator[list[str]]:
    batch: list[str] = []
    size = 0
    for path in paths:
        if batch and size + len(path) > _BATCH_CHARS:
            yield batch
            batch, size = [], 0
        batch.append(path)
        size += len(path) + 1
    if batch:
        yield batch


def _trimmed(text: str, limit: int = 600) -> str:
    text = text.strip()
    return text if len(text) <= limit else "…" + text[-limit:]


class Ruff:
    """The ruff binary, run as a subprocess (never through a shell)."""

    syntax_code = "invalid-syntax"
    unreadable_code = "E902"  # ruff's io-error: always asked for, so an unreadable file is said, not skipped quietly

    def __init__(self, binary: str | None = None, timeout: float = deadline.TOOL_SECONDS,
                 project_args: tuple[str, ...] = ("--target-version", TARGET_VERSION)):
        self.binary = binary or _find_ruff()
        self.timeout = timeout
        self.project_args = project_args

    def owns(self, path: str) -> bool:
        return _is_python(path)

    def with_args(self, project_args: list[str]) -> Ruff:
        """The same ruff with one project's decisions (target version, ignores, excludes) as flags."""
        return Ruff(self.binary, self.timeout, tuple(project_args))

    def accepts(self, options: tuple[str, ...]) -> bool:
        """Whether this ruff takes these `--config` settings (a newer ruff's option is an error to an older one)."""
        args = [f"--config={option}" for option in options]
        try:
            proc = process.run([self.binary, "check", *_COMMON, *args, "--stdin-filename", "x.py", "-"], input="",
                               what="ruff", cap=self.timeout)
        except ToolFailed:
            return False
        return proc.returncode in (0, 1)

    def knows(self, selector: str) -> bool:
        """Whether this ruff accepts the selector (`ALL`, a linter, a code or a code's prefix): other linters'
        configurations name codes ruff lacks (flake8's `W503`, `F999`), and ruff refuses a whole run for one."""
        codes = _rule_words(self.binary)
        return not codes or selector == "ALL" or any(code and code.startswith(selector) for code in codes)

    def has_rule(self, code: str) -> bool:
        """Whether `code` is one of this ruff's rules (when ruff cannot list them, any code of ruff's shape is)."""
        codes = _rule_words(self.binary)
        return code in codes if codes else "/" not in code

    def fixes(self, code: str) -> bool:
        """Whether this ruff has a fix for the rule `code` (always or sometimes): what another tool finds and cannot
        fix, ruff may."""
        return code in _fixable(self.binary)

    def rule_words(self, code: str) -> frozenset[str]:
        """The code a rule's own messages name (`assert` in S101's "Use of `assert` detected"), as opposed to what
        they fill in from the code at hand (`{name}`): what a finding's title may keep and still name its class."""
        return _rule_words(self.binary).get(code, frozenset())

    def check(self, root: Path, paths: list[str], select: tuple[str, ...], *, listed: bool = False) -> list[Finding]:
        """Findings for the `.py` files among `paths` (relative to `root`), sorted by place. `listed`: the caller
        listed existing `.py` files itself (a workspace did), so they are not looked up again."""
        root = Path(root).resolve()
        files = list(paths) if listed else python_files(root, paths)
        if not files or not select:
            return []
        asked = select if selected(self.unreadable_code, select) else (*select, self.unreadable_code)
        findings = self._checked(["--output-format", "json", "--select", ",".join(asked)], files, root)
        return sorted(findings, key=lambda f: (f.path, f.line, f.column, f.code))

    def _checked(self, args: list[str], files: list[str], root: Path) -> list[Finding]:
        """ruff's findings in `files`; a file ruff crashes on (a stack overflow on 200,000 chained operators) is
        found by halving the files of the run that crashed, and said as a file ruff could not read."""
        runs, stopped = halving(lambda part: self._run_batches(args, part, root), files)
        findings = [Finding(path, 1, 1, self.unreadable_code, f"ruff stopped on it: {how}")
                    for path, how in stopped.items()]
        for out in (out for outs in runs for out in outs):
            try:
                findings.extend(read_finding(root, item) for item in json.loads(out))
            except (ValueError, TypeError, KeyError, AttributeError) as exc:
                raise DetectError(f"ruff's output could not be read ({exc}): {_trimmed(out, 200)}") from exc
        return findings

    def fix(self, root: Path, path: str, select: tuple[str, ...]) -> str | None:
        """The file with ruff's safe fixes for `select` applied, or None if nothing changed.

        ruff works on a copy in a scratch directory at the same relative path (so rules that look at the name,
        like F401 in `__init__.py`, behave alike); the checkout itself is never written.
        """
        return self.fix_many(root, [path], select).get(path)

    def fix_many(self, root: Path, paths: list[str], select: tuple[str, ...]) -> dict[str, str]:
        """`fix` for many files in one ruff run: {path: fixed text} for each of `paths` that ruff changed.

        All copies go into one scratch directory at their relative paths, so each file is fixed exactly as `fix`
        would fix it alone (ruff's rules look at one file at a time, and at its name); the checkout is never
        written. A path that is not a file is a DetectError.
        """
        return self._fix_bytes(originals(root, paths), select, Path(root))

    def fix_texts(self, texts: dict[str, str], select: tuple[str, ...],
                  checkout: Path | None = None, unsafe: bool = False) -> dict[str, str]:
        """`fix_many` for texts not on disk (a patch's result): ruff loops its safe fixes (its unsafe ones too, where
        asked) to a fixpoint. `checkout`: the repository whose layout the copies stand in."""
        return self._fix_bytes({path: text.encode("utf-8") for path, text in texts.items()}, select, checkout,
                               unsafe)

    def _fix_bytes(self, originals: dict[str, bytes], select: tuple[str, ...],
                   checkout: Path | None = None, unsafe: bool = False) -> dict[str, str]:
        if not originals or not select:
            return {}
        with tempfile.TemporaryDirectory(prefix="memfix-fix-") as scratch:
            copies = {path: inside(Path(scratch), path) for path in originals}
            for path, copy in copies.items():
                copy.parent.mkdir(parents=True, exist_ok=True)
                copy.write_bytes(originals[path])
            mirror_layout(Path(scratch), list(originals), checkout)
            args = ["--fix", *(["--unsafe-fixes"] if unsafe else []), "--quiet", "--select", ",".join(select)]
            halving(lambda part: self._run_batches(args, part, Path(scratch)), list(originals))  # a crash: unfixed
            updated = {path: copy.read_bytes() for path, copy in copies.items()}
        return {path: text.decode("utf-8") for path, text in updated.items() if text != originals[path]}

    def _run_batches(self, args: list[str], paths: list[str], cwd: Path) -> list[str]:
        """ruff's output for `args -- <paths>`, one run per command line's worth of paths, side by side."""
        batches = list(_batches(paths))
        if len(batches) <= 1:
            return [self._run([*args, "--", *batch], cwd=cwd) for batch in batches]
        def one(batch: list[str]) -> str:
            return self._run([*args, "--", *batch], cwd=cwd)
        with ThreadPoolExecutor(min(len(batches), _PARALLEL_RUNS), thread_name_prefix="memfix-ruff") as pool:
            return list(pool.map(deadline.carried(one), batches))

    def _run(self, args: list[str], cwd: Path) -> str:
        command = [self.binary, "check", *_COMMON, *self.project_args, *args]
        try:
            proc = process.run(command, what="ruff", cwd=cwd, cap=self.timeout)
        except ToolFailed as exc:
            raise DetectError(str(exc)) from exc
        if crashed(proc.returncode):
            raise Crashed("ruff", proc.returncode, _trimmed(proc.stderr) or "no message")
        if proc.returncode not in (0, 1):
            raise DetectError(f"ruff failed (exit {proc.returncode}): {_trimmed(proc.stderr) or 'no message'}")
        return proc.stdout


def read_finding(root: Path, item: dict[str, Any]) -> Finding:
    """One item of ruff's JSON output (every version since 0.1.0 writes it alike) as a finding, its path relative to
    `root`."""
    filename, prefix = item["filename"], os.path.join(root, "")  # strings: pathlib costs ~0.1 ms a finding
    path = (filename[len(prefix):] if filename.startswith(prefix) else filename).replace(os.sep, "/")
    fix = item.get("fix") or {}
    safe = fix.get("applicability") == "safe"
    edits = tuple((e["location"]["row"], e["location"]["column"], e["end_location"]["row"],
                   e["end_location"]["column"], e.get("content") or "") for e in fix.get("edits") or ())
    return Finding(
        path=path, line=item["location"]["row"], column=item["location"]["column"],
        code=item.get("code") or item.get("name") or "invalid-syntax",  # older ruff reports syntax errors as null
        message=item["message"], fixable=safe, edits=edits if safe else (),
        unsafe_edits=edits if fix.get("applicability") == "unsafe" else (),
    )


@lru_cache(maxsize=4)
def _rules(binary: str) -> tuple[dict[str, Any], ...]:
    """ruff's description of each of its rules (`ruff rule --all`), asked once per binary; none when it cannot say."""
    try:
        proc = process.run([binary, "rule", "--all", "--output-format", "json"], what="ruff", cap=60)
        rules = json.loads(proc.stdout)
    except (ToolFailed, ValueError):
        return ()
    return tuple(r for r in rules if isinstance(r, dict)) if isinstance(rules, list) else ()


@lru_cache(maxsize=4)
def _fixable(binary: str) -> frozenset[str]:
    return frozenset(str(r.get("code")) for r in _rules(binary) if r.get("fix_availability") in ("Always", "Sometimes"))


@lru_cache(maxsize=4)
def _rule_words(binary: str) -> dict[str, frozenset[str]]:
    rules = _rules(binary)
    if not rules:
        return {}  # titles then name the class by its rule and message shape alone
    words: dict[str, frozenset[str]] = {}
    for rule in rules:
        texts = [rule.get("summary") or "", *(rule.get("message_formats") or ())]
        words[str(rule.get("code"))] = frozenset(w for t in texts for w in re.findall(r"`([^`{}]*)`", t))
    return words


def _find_ruff() -> str:
    try:
        from ruff.__main__ import find_ruff_bin

        return str(find_ruff_bin())
    except (ImportError, FileNotFoundError) as exc:
        raise DetectError("the ruff binary is not installed next to this Python") from exc
