"""The taste judge of the benchmarks: the team's own tools, run by the benchmark (never by memfix) on a file as it
was before memfix touched it, say which lines they flag or would change; a line memfix changed is on taste when
one of them does.

Which tools a project runs is read here on its own terms, independently of memfix's reading (core/languages/python
/team.py), so the judge can catch that reading out:
- ruff where the project configures it (a ruff.toml, `[tool.ruff]`) or runs its pre-commit hook: `ruff check` in the
  tree, reading the team's configuration as ruff does, the hook's `--select`/`--extend-select` on top;
- flake8 where a `[flake8]` section, a hook, a tox command or a CI step runs it, with the plugins the project
  installs (hooks' additional_dependencies, tox deps, requirements files) in the judge's own venv;
- the fixers of its pre-commit hooks: pyupgrade (with its `--pyXY-plus`), isort, autoflake (with its arguments),
  each run on a copy: the lines their fix changes; black, where a hook, a tox command or a CI step runs it (its
  newest release where nothing pins it, as the team's unpinned `pip install -U black` would have it);
- where none of these is configured, what the ecosystem's linters share (E4, E7, E9, F: pyflakes and
  pycodestyle's errors, ruff's own defaults before 0.15).
"""

from __future__ import annotations

import ast
import configparser
import difflib
import hashlib
import json
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from core.languages.python.ruff import Ruff

FIXERS = ("pyupgrade", "isort", "autoflake", "black")
SHARED_DEFAULTS = ("E4", "E7", "E9", "F")  # what the ecosystem's linters share (ruff's defaults before 0.15)
# A flake8 `select` naming a plugin's codes says the team's CI installs it (its pre-commit file may not ship).
SELECTED_PLUGINS = {"B": "flake8-bugbear", "ISC": "flake8-implicit-str-concat", "C4": "flake8-comprehensions",
                    "SIM": "flake8-simplify", "N": "pep8-naming", "D": "flake8-docstrings", "Q": "flake8-quotes"}
REQUIREMENTS = ("requirements.txt", "requirements-dev.txt", "dev-requirements.txt", "requirements-test.txt",
                "test-requirements.txt", "requirements/dev.txt", "requirements/lint.txt", "tox.ini")


@dataclass
class Tools:
    """The linters and fixers a project runs, as the judge reads them."""

    ruff: bool = False
    ruff_args: list[str] = field(default_factory=list)
    flake8: bool = False
    plugins: list[str] = field(default_factory=list)
    fixers: dict[str, list[str]] = field(default_factory=dict)  # hook id → its arguments

    @property
    def none(self) -> bool:
        return not (self.ruff or self.flake8 or self.fixers)

    def describe(self) -> str:
        named = [*(["ruff"] if self.ruff else []), *(["flake8" + "".join(f" +{p}" for p in self.plugins)]
                                                   if self.flake8 else []), *self.fixers]
        return ", ".join(named) or "the shared defaults E4, E7, E9, F (no linter configured)"


def team_tools(tree: Path) -> Tools:
    tools = Tools()
    hooks = _hooks(tree / ".pre-commit-config.yaml")
    text = {name: _text(tree / name) for name in ("pyproject.toml", "ruff.toml", ".ruff.toml", "setup.cfg",
                                                   "tox.ini", ".flake8")}
    tools.ruff = bool(text["ruff.toml"] or text[".ruff.toml"] or "[tool.ruff" in text["pyproject.toml"]
                      or "ruff" in hooks)
    tools.ruff_args = [a for a in hooks.get("ruff", ([], ""))[0] if a.startswith(("--select", "--extend-select"))]
    runs = " ".join(_text(p) for p in (tree / ".github" / "workflows").glob("*.y*ml")) + text["tox.ini"]
    tools.flake8 = any(_has_section(text[name], "flake8") for name in ("setup.cfg", "tox.ini", ".flake8")) \
        or "flake8" in hooks or bool(re.search(r"(?:^|[\s-])flake8(?:\s|$)", runs, re.MULTILINE))
    if tools.flake8:
        installed = " ".join([hooks.get("flake8", ([], ""))[1], *(_text(tree / n) for n in REQUIREMENTS)])
        selected = " ".join(_option(text[name], "flake8", "select") for name in ("setup.cfg", "tox.ini", ".flake8"))
        implied = {plugin for code, plugin in SELECTED_PLUGINS.items()
                   if re.search(rf"(?<![A-Z]){code}(?![A-Z])", selected.upper())}
        tools.plugins = sorted(implied | set(re.findall(r"(?<![\w-])((?:flake8|pep8)-[a-z0-9-]+)", installed.lower())))
    tools.fixers = {hook: args for hook, (args, _) in hooks.items() if hook in FIXERS}
    if "black" not in tools.fixers and re.search(r"(?:^|[\s-])black(?:\s|$)", runs, re.MULTILINE):
        tools.fixers["black"] = []  # a CI step or tox command runs it with the project's own [tool.black]
    return tools


def judge_python(tools: Tools, cache: Path) -> str:
    """The judge's venv: flake8 with the project's plugins, and the fixers; made once per set of packages."""
    needs = sorted({"flake8", *FIXERS, *tools.plugins})
    venv = cache / hashlib.sha256(" ".join(needs).encode()).hexdigest()[:12]
    python = venv / "bin" / "python"
    if not (venv / "ready").exists():
        shutil.rmtree(venv, ignore_errors=True)
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run([str(python), "-m", "pip", "install", "--quiet", *needs], check=True, capture_output=True)
        (venv / "ready").touch()
    return str(python)


def flagged(tree: Path, path: str, text: str, tools: Tools, python: str) -> set[int]:
    """The lines (1-based, of `text`, the file before memfix) the team's tools flag or would change."""
    lines: set[int] = set()
    if tools.ruff or tools.none:
        lines |= _ruff(tree, path, text, ["--isolated", "--select", ",".join(SHARED_DEFAULTS)] if tools.none
                       else tools.ruff_args)
    if tools.flake8:
        out = subprocess.run([python, "-m", "flake8", "--format", "%(row)d", "--stdin-display-name", path, "-"],
                             cwd=tree, input=text, capture_output=True, text=True).stdout
        lines |= _statements(text, {int(n) for n in out.split() if n.isdigit()})
    for fixer, args in tools.fixers.items():
        lines |= changed(text, _fix(fixer, args, tree, path, text, python))
    return lines


def on_taste(before: str, after: str, lines: set[int]) -> tuple[int, int]:
    """(changed lines in hunks touching a flagged line, changed lines): a hunk that only inserts is judged by the
    lines on either side of it."""
    chosen = total = 0
    matcher = difflib.SequenceMatcher(None, before.splitlines(), after.splitlines(), autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        size = (i2 - i1) + (j2 - j1)
        touched = set(range(i1 + 1, i2 + 1)) if i2 > i1 else {i1, i1 + 1}
        total += size
        chosen += size if touched & lines else 0
    return chosen, total


def changed(before: str, after: str) -> set[int]:
    """The lines of `before` a fixer's output changes (an insertion: the lines either side)."""
    from core.pipelines.propose import alike

    found: set[int] = set()
    old, new = before.splitlines(), after.splitlines()
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if tag != "equal":
            found |= set(range(i1 + 1, i2 + 1)) if i2 > i1 else {i1, i1 + 1}
        if tag in ("delete", "insert"):  # one of identical lines (a blank line of a run): the diff chose which
            found |= alike(old, i1, i2, new[j1:j2] if tag == "insert" else old[i1:i2])
    return found


def _statements(text: str, rows: set[int]) -> set[int]:
    """flake8 says where a finding starts: each row widened to the simple statement it is in (a call's string over
    three lines), or to the header of a compound one (a `def`'s signature, not its body)."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return rows
    found = set(rows)
    for node in ast.walk(tree):
        if not isinstance(node, ast.stmt) or node.end_lineno is None:
            continue
        body = getattr(node, "body", None)
        last = body[0].lineno - 1 if isinstance(body, list) and body and isinstance(body[0], ast.stmt) \
            else node.end_lineno
        span = set(range(node.lineno, max(last, node.lineno) + 1))
        if span & rows:
            found |= span
    return found


def _ruff(tree: Path, path: str, text: str, args: list[str]) -> set[int]:
    # --no-fix: a team's `fix = true` would make ruff print the fixed file instead of its findings
    out = subprocess.run([Ruff().binary, "check", "--no-cache", "--no-fix", "--exit-zero", "--output-format", "json",
                          *args, "--stdin-filename", path, "-"], cwd=tree, input=text, capture_output=True,
                         text=True).stdout
    lines: set[int] = set()
    for finding in json.loads(out or "[]"):
        lines |= set(range(finding["location"]["row"], finding["end_location"]["row"] + 1))
        for edit in (finding.get("fix") or {}).get("edits", []):
            lines |= set(range(edit["location"]["row"], edit["end_location"]["row"] + 1))
    return lines


def _fix(fixer: str, args: list[str], tree: Path, path: str, text: str, python: str) -> str:
    """What a fixer makes of the file, run on standard input (the tree is never written)."""
    if fixer == "isort":
        argv = ["-m", "isort", "--settings-path", str(tree), "--filename", path, "-"]
    elif fixer == "black":
        argv = ["-m", "black", "-q", *[a for a in args if a not in ("--check", "--diff")], "--stdin-filename", path,
                "-"]
    elif fixer == "autoflake":
        argv = ["-m", "autoflake", *[a for a in args if a not in ("--in-place", "-i")], "-"]
    else:  # pyupgrade reads no standard input, nor any settings: a copy elsewhere
        with tempfile.TemporaryDirectory() as scratch:
            copy = Path(scratch) / Path(path).name
            copy.write_text(text)
            subprocess.run([python, "-m", "pyupgrade", *args, str(copy)], capture_output=True)
            return copy.read_text()
    proc = subprocess.run([python, *argv], cwd=tree, input=text, capture_output=True, text=True)
    return proc.stdout if proc.returncode in (0, 1) and proc.stdout else text


def _hooks(config: Path) -> dict[str, tuple[list[str], str]]:
    """pre-commit hook id → (its args, its additional_dependencies as text)."""
    try:
        data = yaml.safe_load(_text(config)) or {}
    except yaml.YAMLError:
        return {}
    found = {}
    for repo in data.get("repos", []) if isinstance(data, dict) else []:
        for hook in repo.get("hooks", []) if isinstance(repo, dict) else []:
            found[hook.get("id", "")] = ([str(a) for a in hook.get("args", [])],
                                        " ".join(map(str, hook.get("additional_dependencies", []))))
    return found


def _has_section(text: str, name: str) -> bool:
    return _parsed(text).has_section(name)


def _option(text: str, section: str, option: str) -> str:
    parser = _parsed(text)
    return parser.get(section, option, fallback="") if parser.has_section(section) else ""


def _parsed(text: str) -> configparser.RawConfigParser:
    parser = configparser.RawConfigParser(strict=False)
    try:
        parser.read_string(text)
    except configparser.Error:
        return configparser.RawConfigParser()
    return parser


def _text(path: Path) -> str:
    return path.read_text(errors="replace") if path.is_file() else ""
