"""Peer benchmark for JavaScript and TypeScript: memfix on real npm projects, judged by their own test suites.

Run: `python -m benchmarks.peers_js [--project NAME] [--keep]`. The projects are GitHub snapshots, copied from
the bare git directories under `/work/.mirror/<owner>+<name>/repo` (`MEMFIX_MIRROR` names another folder; a
project whose snapshot is missing is skipped with a message saying what to fetch). Their devDependencies come
from the npm registry (`npm install --ignore-scripts`, once per package.json) and, with Biome and the trees, live
under `.memfix/bench/peers_js/`. It needs Node and npm, so it is not part of `make test`; it prints numbers and
asserts nothing.

The projects (small libraries whose suites run offline once installed) are chosen for what a JS/TS adapter must
live with: TypeScript (mitt, ms, yargs-parser); ESLint configurations, legacy (picomatch's .eslintrc.json,
mitt's .eslintrc, semver's .eslintrc.js, yargs-parser's .eslintrc.json) and flat (qs's eslint.config.mjs,
commander's eslint.config.js); XO (debug's 0.23 in package.json, camelcase's 1.x defaults); Prettier (mitt's
package.json key, yargs-parser's .prettierrc.cjs, commander's .prettierrc.js); a biome.json (ms); old Node in
`engines` (qs >=0.6, debug >=6, semver >=10); CommonJS and ES modules; tests that import what the project builds
(mitt's microbundle, yargs-parser's tsc); and six test runners (mocha, jest, tap, tape, ava, node:test), each
read from a machine-readable report (mocha's JSON reporter, `jest --json`, TAP) so single tests compare before
and after.

For each project:
1. a fresh copy of its snapshot at the pinned commit, its node_modules linked in from the cache; its build and
   tests run: the tests that pass are the baseline;
2. `memfix autofix --apply` then `memfix refactor --apply`, offline, through the CLI as a user runs it
   (subprocess, its own embedded database under the project's scratch folder);
3. the build and the tests again, twice;
4. both pipelines a second time: files they change again are non-idempotent.

Counted:
- patches applied: PROMOTED outcomes written by the two `--apply` runs;
- vetoed: outcomes that had a patch but were not promoted (their reasons are printed);
- breakages: tests that passed before and fail or vanish in both runs after (a test that fails in one and
  passes in the other is the project's own flakiness: printed as such, not counted); a run that failed;
- non-idempotent: files the second pair of runs changed;
- taste, per pipeline (projects with a Biome, ESLint or XO configuration): changed lines in hunks where the
  project's own linter — its ESLint, XO or Biome from its devDependencies, run by this benchmark on the file as the
  pipeline found it — reports a finding (benchmarks/taste.py `on_taste`); the `rules` column counts the Biome rules
  its configuration enables for its entry file (`enabled_rules`: Biome's `rage --linter`, or ESLint's / XO's
  `--print-config` named in Biome's terms by `biome migrate eslint`);
- time: memfix's two runs against Biome alone (its recommended rules) on the project's sources, and one run of
  the project's build and tests.
The `rules` column is how many Biome rules the project's configuration enables for its entry file: the taste
judge at work even where memfix changes nothing.
The last two lines read `peers: N projects, P patches applied, V vetoed, B breakages, I non-idempotent` and
`taste: X of Y changed lines fix a rule the repository selected`.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import os
import re
import shutil
import subprocess
import tarfile
import tempfile
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from benchmarks.peers import Stage, apply_both, memfix, print_kept, print_totals, run_each
from benchmarks.taste import on_taste

ROOT = Path(__file__).resolve().parents[1]
CACHE = ROOT / ".memfix" / "bench" / "peers_js"
MIRROR = Path(os.environ.get("MEMFIX_MIRROR", "/work/.mirror"))
BIOME = "2.3.11"  # the Biome the taste judge maps ESLint rules with and the timing runs (from npm)
INSTALL = ("npm", "install", "--ignore-scripts", "--no-audit", "--no-fund")
MANIFESTS = ("package.json", "package-lock.json", "npm-shrinkwrap.json", ".npmrc")
SOURCES = (".js", ".mjs", ".cjs", ".jsx", ".ts", ".mts", ".cts", ".tsx")
BIOME_CONFIGS = ("biome.json", "biome.jsonc")
ESLINT_CONFIGS = ("eslint.config.js", "eslint.config.mjs", "eslint.config.cjs", "eslint.config.ts", ".eslintrc",
                  ".eslintrc.js", ".eslintrc.cjs", ".eslintrc.json", ".eslintrc.yml", ".eslintrc.yaml")
# ms's jest.config.ts needs ts-node, which is not among its devDependencies: the same settings, inline
JEST_TS = json.dumps({"preset": "ts-jest", "moduleFileExtensions": ["ts", "js"], "testMatch": ["**/src/**/*.test.ts"]})


@dataclass(frozen=True)
class Project:
    repo: str  # owner/name on GitHub
    commit: str  # the snapshot's commit (HEAD when fetched); a later snapshot still has it in its history
    test: tuple[str, ...]  # run in the tree, node_modules/.bin first on PATH; `{report}`: a file for its report
    report: str  # how its report reads: "mocha" (JSON reporter, stdout), "jest" (--json file), "tap" (stdout)
    entry: str  # the file whose enabled rules the `rules` column counts
    build: tuple[tuple[str, ...], ...] = ()  # run before each test run: the tests import what it builds

    @property
    def name(self) -> str:
        return self.repo.split("/")[1]


# Tests passing here (Node 20, npm 11) at these commits, as the harness counts them: TAP counts assertions.
PROJECTS = (
    Project("ljharb/qs", "3a890d4ecd3deb72a45d90be36f4f8c5970467c7",  # 1043 tape assertions (two more are SKIP)
            test=("tape", "test/**/*.js"), report="tap", entry="lib/parse.js"),
    Project("micromatch/picomatch", "4f41a8edade7a5ab19832f7b40ecce46b288767f",  # 1977 mocha tests
            test=("mocha", "--reporter", "json"), report="mocha", entry="lib/picomatch.js"),
    Project("debug-js/debug", "f405ade8a4b7a0dc353e0f7390c1be90060f3621",  # 16 mocha tests (node; karma not run)
            test=("mocha", "--reporter", "json", "test.js", "test.node.js"), report="mocha", entry="src/common.js"),
    Project("developit/mitt", "6b41670516ed8e8b738612f60491995470aa63b3",  # 19 mocha tests through ts-node
            build=(("microbundle", "-f", "es,cjs,umd"),),
            test=("mocha", "--reporter", "json", "test"), report="mocha", entry="src/index.ts"),
    Project("vercel/ms", "4b85938394832e62e6e25cca5c151bbc97fe26e2",  # 167 jest tests (node env; edge not run)
            test=("jest", "--env", "node", "--config", JEST_TS, "--json", "--outputFile", "{report}"),
            report="jest", entry="src/index.ts"),
    Project("npm/node-semver", "6e05b7637396ac66522cff8731f07cfe0ef49a29",  # 10471 tap assertions
            test=("tap", "--no-coverage", "--reporter=tap"), report="tap", entry="classes/range.js"),
    Project("yargs/yargs-parser", "60f2db5dacde1e94f960ce0941a717f3f422f865",  # 362 mocha tests of the tsc build
            build=(("rimraf", "build"), ("tsc", "-p", "tsconfig.test.json")),
            test=("mocha", "--reporter", "json", "test/*.mjs"), report="mocha", entry="lib/yargs-parser.ts"),
    Project("tj/commander.js", "ba6d13ddb4243e5913367734f8c159089ffe7834",  # 1582 node:test tests and suites (one SKIP)
            test=("node", "--test", "--test-reporter=tap"), report="tap", entry="lib/command.js"),
    Project("sindresorhus/camelcase", "8596a65fcbfedd474cdedf16f48b7d9381eb7953",  # 20 ava tests
            test=("ava", "--tap"), report="tap", entry="index.js"),
)


@dataclass
class Result:
    name: str
    commit: str = ""
    engines: str = ""  # package.json engines.node
    lint: str = ""  # what configures its linting: biome, eslint, xo, or nothing
    rules: int | None = None  # Biome rules its configuration enables for the entry file
    tests_before: int = 0
    applied: int = 0
    vetoed: list[str] = field(default_factory=list)
    new_failures: list[str] = field(default_factory=list)
    flaky: list[str] = field(default_factory=list)  # failed in one run after memfix and passed in the other
    checks: list[str] = field(default_factory=list)  # runs that failed
    non_idempotent: list[str] = field(default_factory=list)
    codes: dict[str, list[str]] = field(default_factory=dict)  # changed file → rule names of its patches
    taste: tuple[int, int] | None = None  # (lines fixing an enabled rule, changed lines), with a configuration
    off_taste: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # what a reader should know: a moved pin, a judge that failed
    memfix_seconds: float = 0.0
    biome_seconds: float = 0.0
    test_seconds: float = 0.0
    skipped: str = ""
    stages: dict[str, Stage] = field(default_factory=dict)  # pipeline → its patches and vetoes

    @property
    def breakages(self) -> int:
        return len(self.new_failures) + len(self.checks)


def tail(text: str, size: int = 300) -> str:
    return " ".join(text.split())[-size:]


def first_error(text: str) -> str:
    """The line that names a Node error (`SyntaxError: …`), else the output's end."""
    found = re.search(r"^\s*(\w*Error\b.*)$", text, re.MULTILINE)
    return found[1].strip()[:200] if found else tail(text, 200)


# ---- the trees ----

def snapshot(project: Project) -> tuple[Path, str] | str:
    """The bare git directory and the commit to copy: the pinned one, else HEAD; or why there is none."""
    git_dir = MIRROR / project.repo.replace("/", "+") / "repo"
    if not git_dir.is_dir():
        return f"no snapshot at {git_dir}: fetch github:{project.repo} first (or set MEMFIX_MIRROR)"
    if subprocess.run(["git", "--git-dir", str(git_dir), "cat-file", "-e", f"{project.commit}^{{commit}}"],
                      capture_output=True).returncode == 0:
        return git_dir, project.commit
    head = subprocess.run(["git", "--git-dir", str(git_dir), "rev-parse", "HEAD"], capture_output=True, text=True)
    return (git_dir, head.stdout.strip()) if head.returncode == 0 else f"{git_dir} is not a readable git directory"


def fresh_tree(git_dir: Path, commit: str, into: Path) -> Path:
    shutil.rmtree(into, ignore_errors=True)
    into.mkdir(parents=True)
    archive = subprocess.run(["git", "--git-dir", str(git_dir), "archive", "--format=tar", commit],
                             capture_output=True, check=True).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into


def project_files(tree: Path) -> dict[str, bytes]:
    """Every file of the tree but its node_modules (memfix may write any of them)."""
    files = {}
    for folder, dirs, names in os.walk(tree):
        dirs[:] = [d for d in dirs if d not in ("node_modules", ".git")]
        for name in names:
            path = Path(folder) / name
            if path.is_file() and not path.is_symlink():
                files[path.relative_to(tree).as_posix()] = path.read_bytes()
    return files


def node_env(tree: Path) -> dict[str, str]:
    """CI's environment: node_modules/.bin first, no colour settings (commander tests how they steer it)."""
    dropped = ("NODE_OPTIONS", "NO_COLOR", "FORCE_COLOR", "CLICOLOR_FORCE")
    env = {k: v for k, v in os.environ.items() if not k.lower().startswith("npm_") and k not in dropped}
    return {**env, "PATH": f"{tree / 'node_modules' / '.bin'}{os.pathsep}{env.get('PATH', '')}", "CI": "1",
            "TZ": "UTC"}


def run(argv: Iterable[str], tree: Path, timeout: float = 1800) -> subprocess.CompletedProcess[str]:
    argv = list(argv)
    env = node_env(tree)
    argv[0] = shutil.which(argv[0], path=env["PATH"]) or argv[0]
    try:
        return subprocess.run(argv, cwd=tree, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                              timeout=timeout)
    except subprocess.TimeoutExpired as exc:
        out = exc.stdout.decode(errors="replace") if isinstance(exc.stdout, bytes) else exc.stdout or ""
        return subprocess.CompletedProcess(argv, -9, out, f"timed out after {timeout:.0f} s")


def link_node_modules(project: Project, tree: Path) -> None:
    """The project's dependencies, installed once per manifest (package.json, lock file, .npmrc) and Node, in the
    cache; the tree gets a link to them, so memfix's runs and the tests see an ordinary checkout."""
    manifests = [name for name in MANIFESTS if (tree / name).is_file()]
    node = subprocess.run(["node", "--version"], capture_output=True, text=True, check=True).stdout.strip()
    digest = hashlib.sha256(" ".join([*INSTALL, node]).encode())
    for name in manifests:
        digest.update(name.encode() + b"\0" + (tree / name).read_bytes())
    home = CACHE / "modules" / f"{project.name}-{digest.hexdigest()[:12]}"
    if not (home / ".installed").exists():
        shutil.rmtree(home, ignore_errors=True)
        home.mkdir(parents=True)
        for name in manifests:
            shutil.copy2(tree / name, home / name)
        subprocess.run(INSTALL, cwd=home, check=True, capture_output=True, text=True, timeout=1800)
        (home / ".installed").touch()
    (tree / "node_modules").symlink_to(home / "node_modules", target_is_directory=True)


# ---- the project's own judge: its tests ----

def numbered(keys: Iterable[str]) -> list[str]:
    """Test names made unique the same way in every run: the second `x` is `x #2`."""
    seen: Counter[str] = Counter()
    out = []
    for key in keys:
        seen[key] += 1
        out.append(key if seen[key] == 1 else f"{key} #{seen[key]}")
    return out


TAP_TEST = re.compile(r"(not ok|ok)\b(?:\s+\d+)?(?:\s+-)?\s*(.*)$")
TAP_SUMMARY = re.compile(r"#\s*(time=|tests\b|pass\b|fail\b|skip|todo|suites\b|cancelled\b|duration_ms\b|ok$)")


def tap_passed(text: str) -> set[str]:
    """Passing tests of a TAP stream: tap's and node:test's indented subtests (`# Subtest: name`, four spaces a
    level) name their parents; tape's `# name` comments name the assertions after them; SKIP and TODO don't pass."""
    stack: list[str] = []
    note = ""
    yaml = False
    results: list[tuple[str, bool]] = []
    for raw in text.splitlines():
        line = raw.strip()
        if yaml:
            yaml = line != "..."
            continue
        if line == "---":
            yaml = True
            continue
        depth = (len(raw) - len(raw.lstrip(" "))) // 4
        if line.startswith("# Subtest: "):
            stack = [*stack[:depth], *[""] * (depth - len(stack)), line.removeprefix("# Subtest: ")]
            continue
        if line.startswith("#"):
            if not TAP_SUMMARY.match(line):
                note = line.lstrip("# ")
            continue
        match = TAP_TEST.match(line)
        if not match:
            continue
        title, _, directive = match[2].partition(" # ")
        passed = match[1] == "ok" and not re.match(r"(skip|todo)\b", directive.strip(), re.IGNORECASE)
        results.append((" > ".join(p for p in [*stack[:depth], note, title.strip()] if p), passed))
    keys = numbered(key for key, _ in results)
    return {key for key, (_, passed) in zip(keys, results, strict=True) if passed}


def mocha_passed(text: str, tree: Path) -> set[str]:
    """Passing tests of mocha's JSON reporter (printed after whatever the tests printed)."""
    start = text.find('{\n  "stats"')
    if start < 0:
        return set()
    report, _ = json.JSONDecoder().raw_decode(text[start:])
    pending = {(t.get("file"), t["fullTitle"]) for t in report.get("pending", [])}
    tests = report.get("tests", [])
    keys = numbered(f"{relative(t.get('file'), tree)}::{t['fullTitle']}" for t in tests)
    return {key for key, t in zip(keys, tests, strict=True)
            if not t.get("err") and (t.get("file"), t["fullTitle"]) not in pending}


def jest_passed(text: str, tree: Path) -> set[str]:
    results = [(f"{relative(suite['name'], tree)}::{case['fullName']}", case["status"] == "passed")
               for suite in json.loads(text).get("testResults", []) for case in suite.get("assertionResults", [])]
    keys = numbered(key for key, _ in results)
    return {key for key, (_, passed) in zip(keys, results, strict=True) if passed}


def relative(path: str | None, tree: Path) -> str:
    if not path:
        return ""
    for base in (str(tree.resolve()), str(tree)):
        if path.startswith(base + os.sep):
            return path[len(base) + 1:]
    return path


def passing_tests(project: Project, tree: Path, report: Path) -> tuple[set[str], str]:
    """The tests that pass after the project's build, and what went wrong where none pass."""
    for step in project.build:
        proc = run(step, tree)
        if proc.returncode:
            return set(), f"`{' '.join(step)}` exited {proc.returncode}: {tail(proc.stderr or proc.stdout)}"
    report.unlink(missing_ok=True)
    proc = run((part.replace("{report}", str(report)) for part in project.test), tree)
    try:
        if project.report == "jest":
            passed = jest_passed(report.read_text(), tree) if report.exists() else set()
        elif project.report == "mocha":
            passed = mocha_passed(proc.stdout, tree)
        else:
            passed = tap_passed(proc.stdout)
    except (ValueError, KeyError) as exc:
        return set(), f"its report did not read: {exc!r}"
    return passed, "" if passed else f"`{project.test[0]}` exited {proc.returncode}: {tail(proc.stderr or proc.stdout)}"


# ---- taste: the project's own lint configuration, as its own tools resolve it ----

class TasteUnavailable(Exception):
    """The project's own tool could not say which rules it enables (it did not load, here)."""


def lint_config(tree: Path) -> str:
    """What configures the project's linting: biome (biome.json), eslint (a config file or package.json
    `eslintConfig`), xo (package.json `xo` or XO among its devDependencies), or nothing."""
    package = json.loads((tree / "package.json").read_text())
    if any((tree / name).is_file() for name in BIOME_CONFIGS):
        return "biome"
    if any((tree / name).is_file() for name in ESLINT_CONFIGS) or "eslintConfig" in package:
        return "eslint"
    if "xo" in package or "xo" in package.get("devDependencies", {}):
        return "xo"
    return ""


def biome_rule(code: str) -> str:
    """A Biome rule's name however memfix reports it (lint/suspicious/noDoubleEquals, suspicious/noDoubleEquals or
    noDoubleEquals): its last part, which is unique across Biome's groups."""
    return code.rsplit("/", 1)[-1]


def enabled_rules(tree: Path, path: str, kind: str) -> set[str]:
    """The Biome rules (bare names) the project's own lint configuration enables for one file.

    - biome: the rules its own Biome (node_modules/.bin/biome, else ours) lists under `biome rage --linter` —
      the root configuration (recommended ones included); `overrides` for the file are not applied;
    - eslint, xo: the ESLint rules not "off" for the file as the project's ESLint or XO resolves them
      (`--print-config`: extends, plugins and overrides applied), named in Biome's terms by `biome migrate eslint`
      (the Biome rules ported from them; rules only inspired by one are not counted).
    Raises TasteUnavailable where the project's tool does not load here."""
    if kind == "biome":
        own = tree / "node_modules" / ".bin" / "biome"
        proc = run([str(own) if own.exists() else biome(), "rage", "--linter"], tree, timeout=300)
        if "Loaded successfully" not in proc.stdout:
            raise TasteUnavailable(f"biome rage: its configuration did not load: {tail(proc.stdout + proc.stderr)}")
        listed = proc.stdout.split("Enabled rules:", 1)[-1].split("\n\n", 1)[0]
        return set(re.findall(r"^\s+\w+/(\w+)\s*$", listed, re.MULTILINE))
    return biome_names(frozenset(eslint_rules(tree, path, kind)))


OLD_XO = """  // XO before --print-config: its options → ESLint's CLIEngine → the file's configuration
const path = require('path');
const options = require('xo/lib/options-manager');
const eslint = require(require.resolve('eslint', {paths: [path.dirname(require.resolve('xo'))]}));
const config = options.buildConfig(options.preprocess({cwd: process.cwd(), filename: process.argv[1]}));
console.log(JSON.stringify(new eslint.CLIEngine(config).getConfigForFile(process.argv[1])));
"""


def linted(argv: list[str], tree: Path, what: str) -> Any:
    """The JSON a project's own linter prints, or TasteUnavailable saying what failed."""
    proc = run(argv, tree, timeout=300)
    try:
        return json.loads(proc.stdout)
    except ValueError:
        raise TasteUnavailable(f"{Path(argv[0]).name} {what} failed: "
                               f"{first_error(proc.stderr or proc.stdout)}") from None


def eslint_rules(tree: Path, path: str, kind: str) -> set[str]:
    """ESLint rules not "off" for one file, as the project's ESLint (or XO) resolves its configuration."""
    bin_dir = tree / "node_modules" / ".bin"
    if kind == "eslint":
        argv = [str(bin_dir / "eslint"), "--print-config", path]
    elif any("print-config" in p.read_text(errors="replace") for p in (tree / "node_modules" / "xo").glob("**/cli*.js")
             if "node_modules" not in p.relative_to(tree / "node_modules" / "xo").parts):
        argv = [str(bin_dir / "xo"), f"--print-config={path}"]
    else:
        argv = ["node", "-e", OLD_XO, path]
    config = linted(argv, tree, f"--print-config {path}")

    def on(value: object) -> bool:
        level = value[0] if isinstance(value, list) and value else value
        return level not in (0, "0", "off")

    return {name for name, value in config.get("rules", {}).items() if on(value)}


@cache
def biome_names(rules: frozenset[str]) -> set[str]:
    """The Biome rules `biome migrate eslint` ports from these ESLint rules (plugins' rules too: it maps names)."""
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        (folder / "package.json").write_text(json.dumps(
            {"name": "taste", "eslintConfig": {"rules": {name: "error" for name in sorted(rules)}}}))
        (folder / "biome.json").write_text("{}")
        subprocess.run([biome(), "migrate", "eslint", "--write"], cwd=folder, capture_output=True, text=True,
                       timeout=300)
        config = json.loads((folder / "biome.json").read_text())
    groups = config.get("linter", {}).get("rules", {})
    return {name for group in groups.values() if isinstance(group, dict) for name, value in group.items()
            if (value if isinstance(value, str) else value.get("level")) != "off"}


# ---- Biome ----

@cache
def biome() -> str:
    """Biome from npm, installed once under the cache (MEMFIX_BIOME names another binary)."""
    if os.environ.get("MEMFIX_BIOME"):
        return os.environ["MEMFIX_BIOME"]
    home = CACHE / f"biome-{BIOME}"
    binary = home / "node_modules" / ".bin" / "biome"
    if not binary.exists():
        home.mkdir(parents=True, exist_ok=True)
        (home / "package.json").write_text('{"private": true}')
        subprocess.run([*INSTALL, f"@biomejs/biome@{BIOME}"], cwd=home, check=True, capture_output=True, text=True)
    return str(binary)


def biome_alone(tree: Path, sources: list[str]) -> float:
    """Biome's recommended rules on the project's sources, its own configuration left out (like ruff --isolated)."""
    config = CACHE / "biome-alone" / "biome.json"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text("{}")
    start = time.perf_counter()
    run([biome(), "lint", f"--config-path={config}", "--reporter=summary", "--max-diagnostics=0",
         "--no-errors-on-unmatched", *sources], tree, timeout=900)
    return time.perf_counter() - start


# ---- one project ----

def run_project(project: Project, keep: bool) -> Result:
    result = Result(project.repo)
    source = snapshot(project)
    if isinstance(source, str):
        result.skipped = source
        return result
    git_dir, commit = source
    result.commit = commit[:12]
    if commit != project.commit:
        result.notes.append(f"pinned commit {project.commit[:12]} not in {git_dir}: ran on its HEAD {commit[:12]}")
    work = CACHE / "work" / project.name
    tree = fresh_tree(git_dir, commit, work / "tree")
    package = json.loads((tree / "package.json").read_text())
    result.engines = (package.get("engines") or {}).get("node", "")
    result.lint = lint_config(tree)
    sources = sorted(p for p in project_files(tree) if p.endswith(SOURCES))
    try:
        link_node_modules(project, tree)
    except subprocess.CalledProcessError as exc:
        result.skipped = f"`{' '.join(INSTALL)}` failed: {tail(exc.stderr)}"
        return result

    start = time.perf_counter()
    before, problem = passing_tests(project, tree, work / "report.json")
    result.test_seconds = time.perf_counter() - start
    result.tests_before = len(before)
    if not before:
        result.skipped = f"its tests do not pass here before memfix touches it: {problem}"
        return result
    if result.lint:
        try:
            result.rules = len(enabled_rules(tree, project.entry, result.lint))
        except TasteUnavailable as exc:
            result.notes.append(f"taste unavailable: {exc}")
    result.biome_seconds = biome_alone(tree, sources)

    data = work / "memfix-data"
    pristine = project_files(tree)  # after the baseline: what its build and tests wrote is not memfix's
    seen = {"": pristine}
    apply_both(tree, data, result, "javascript", lambda pipeline: seen.setdefault(pipeline, project_files(tree)))
    now = project_files(tree)
    changed = sorted(p for p, text in now.items() if pristine.get(p) != text)

    runs = [passing_tests(project, tree, work / "report.json") for _ in range(2)]
    lost = [before - passed for passed, _ in runs]
    result.new_failures = sorted(lost[0] & lost[1])
    result.flaky = sorted(lost[0] ^ lost[1])
    result.notes += [f"after memfix: {problem}" for passed, problem in runs if problem]
    if result.lint and changed:
        result.taste = taste(tree, result, seen)

    settled = project_files(tree)
    for pipeline in ("autofix", "refactor"):
        memfix(tree, pipeline, data, "javascript")
    result.non_idempotent = sorted(p for p, text in project_files(tree).items() if settled.get(p) != text)
    if not keep:
        shutil.rmtree(work, ignore_errors=True)
    return result


def taste(tree: Path, result: Result, seen: dict[str, dict[str, bytes]]) -> tuple[int, int] | None:
    """Each pipeline's changed lines in hunks where the project's own linter (its ESLint, XO or Biome, run by this
    benchmark on the file as the pipeline found it) reports a finding: (on taste, changed) over both; None where its
    tool does not load. The tree is put back as memfix left it."""
    final = seen["refactor"]
    chosen = total = 0
    try:
        for before, pipeline in (("", "autofix"), ("autofix", "refactor")):
            ok_here = all_here = 0
            for path in sorted(p for p, text in seen[pipeline].items() if seen[before].get(p) != text):
                old = seen[before].get(path, b"")
                (tree / path).write_bytes(old)
                lines = flagged_lines(tree, path, result.lint)
                ok, size = on_taste(old.decode("utf-8", "replace"), seen[pipeline][path].decode("utf-8", "replace"),
                                    lines)
                ok_here, all_here = ok_here + ok, all_here + size
                if ok < size:
                    fixed = ", ".join(sorted({biome_rule(c) for c in result.codes.get(path, [])}))
                    result.off_taste.append(f"{pipeline} {path}: {size - ok} of {size} changed lines where its "
                                            f"{result.lint} reports nothing (memfix fixed {fixed})")
            result.stages[pipeline].taste = (ok_here, all_here)
            chosen, total = chosen + ok_here, total + all_here
    except TasteUnavailable as exc:
        result.notes.append(f"taste unavailable: {exc}")
        return None
    finally:
        for path, text in final.items():
            (tree / path).write_bytes(text)
    return chosen, total


def flagged_lines(tree: Path, path: str, kind: str) -> set[int]:
    """The lines of `path` the project's own linter reports a finding on (each finding's first to last line)."""
    bin_dir = tree / "node_modules" / ".bin"
    if kind == "biome":
        own = bin_dir / "biome"
        proc = run([str(own) if own.exists() else biome(), "lint", "--reporter=github", "--max-diagnostics=none",
                    path], tree, timeout=300)
        return {int(n) for n in re.findall(r"::\w+ [^:]*?line=(\d+)", proc.stdout)}
    argv = [str(bin_dir / "eslint"), "--format", "json", "--no-ignore", path] if kind == "eslint" else \
        [str(bin_dir / "xo"), "--reporter=json", path]
    reports = linted(argv, tree, f"on {path}")
    return {n for report in reports for m in report.get("messages", []) if m.get("line")
            for n in range(m["line"], (m.get("endLine") or m["line"]) + 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--project", help="one project by name, e.g. qs")
    parser.add_argument("--keep", action="store_true", help="leave the trees under .memfix/bench/peers_js/work")
    args = parser.parse_args()
    chosen = [p for p in PROJECTS if not args.project or args.project in (p.name, p.repo)]
    results = run_each(chosen, lambda p: p.repo, lambda p: run_project(p, args.keep), Result)
    print(f"{'project':24} {'commit':12} {'engines.node':24} {'lint':6} {'rules':>5} {'tests':>6} {'applied':>7} "
          f"{'vetoed':>6} {'broke':>5} {'again':>5} {'taste':>7} {'memfix s':>8} {'biome s':>7} {'tests s':>7}")
    for r in results:
        if r.skipped:
            print(f"{r.name:24} skipped: {r.skipped}")
            continue
        taste_cell = f"{r.taste[0]}/{r.taste[1]}" if r.taste else "-"
        rules = "-" if not r.lint else "?" if r.rules is None else str(r.rules)
        engines = r.engines.replace(" ", "") or "-"
        print(f"{r.name:24} {r.commit:12} {engines:24} {r.lint or '-':6} {rules:>5} {r.tests_before:>6} {r.applied:>7}"
              f" {len(r.vetoed):>6} {r.breakages:>5} {len(r.non_idempotent):>5} {taste_cell:>7} "
              f"{r.memfix_seconds:>8.1f} {r.biome_seconds:>7.2f} {r.test_seconds:>7.1f}")
        for test in r.new_failures:
            print(f"    new test failure: {test}")
        for test in r.flaky:
            print(f"    flaky, not counted: {test} failed in one of two runs after memfix")
        for problem in r.checks:
            print(f"    broke: {problem}")
        print_kept(r)
        for note in r.notes:
            print(f"    note: {note}")
    print_totals([r for r in results if not r.skipped], "projects with a lint configuration and changes")


if __name__ == "__main__":
    from benchmarks import stoppable

    stoppable()
    main()
