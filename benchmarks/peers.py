"""Peer benchmark: memfix on real projects from PyPI, judged by their own test suites, their own CI's other checks
and their oldest Pythons.

Run: `python -m benchmarks.peers [--project NAME] [--keep]`. It downloads source distributions and the projects'
test requirements (so it is not part of `make test`), prints numbers, and asserts nothing. Downloads, trees and
the projects' own virtual environment live under `.memfix/bench/peers/`.

The projects (pinned sdists that ship their tests; pure Python) are chosen for the kinds of code that broke on
real projects: ruff configurations of their own (attrs selects ALL and ignores much, zipp extends the defaults,
humanize, packaging, pluggy, typing_extensions, platformdirs), doctests their CI runs (toolz, tabulate, zipp,
humanize, more-itertools through unittest), demo and example scripts that import a sibling helper (colorama's
`fixpath`, pyparsing's examples), compat modules (six, toolz.compatibility, attrs' _compat, zipp.compat), mypy
in CI (humanize, attrs, pyparsing, zipp), and projects that still support Python 2.7.

For each project:
1. its tests run (pytest, JUnit XML, in the projects' own venv on this Python) on a fresh copy: the tests that
   pass are the baseline; so are the other commands its CI runs (unittest runs, doctest runs, mypy), the example
   scripts that run to the end on their own, every module compiled and the package imported on its **oldest
   supported Python** (as memfix reads it from the project's metadata; the oldest pyenv interpreter at or above
   it), and its coverage pragmas;
2. `memfix autofix --apply` then `memfix refactor --apply`, offline, through the CLI as a user runs it
   (subprocess, its own embedded database under the tree's scratch folder);
3. every judge again;
4. both pipelines a second time: files they change again are non-idempotent.

Counted:
- patches applied: PROMOTED outcomes written by the two `--apply` runs;
- vetoed: outcomes that had a patch but were not promoted (their reasons are printed);
- breakages: tests that passed before and fail or vanish after, in both of two runs of the suite after (a test
  that fails in one and passes in the other is the project's own flakiness: printed as such, not counted; so is a
  test that fails when memfix changed no file of the project, as zipp's big-O timing test does on a busy machine); a CI
  command that succeeded and now fails, runs fewer tests, or reports an error it did not report before; an example
  script that ran and now fails; a changed file that no longer compiles on the oldest Python, a package that
  imported there and does not; a coverage pragma lost or left on a line of its own;
- non-idempotent: files the second pair of runs changed;
- taste, per pipeline: changed lines in hunks where the project's own tools (its ruff, flake8 with its plugins, its
  pre-commit fixers; ruff's defaults where it configures none), run by the benchmark on the file as the pipeline
  found it, flag or would change a line (benchmarks/taste.py) — an independent judge of memfix's reading of the
  configuration; patches and vetoes are also printed per pipeline (breakages are judged once, after both);
- time: memfix's two runs against `ruff check` alone with the same rules, on the same tree.
Not judged: code a project generates with its own tools (none of these projects ships a generator it runs in CI).
The last two lines read `peers: N projects, P patches applied, V vetoed, B breakages, I non-idempotent` and
`taste: X of Y changed lines fix a rule the repository selected`.
"""

from __future__ import annotations

import argparse
import glob
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import time
import xml.etree.ElementTree as ET
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks.taste import flagged, judge_python, on_taste, team_tools

ROOT = Path(__file__).resolve().parents[1]
CACHE = ROOT / ".memfix" / "bench" / "peers"
PYENV = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv")) / "versions"
RUFF_CONFIGS = ("pyproject.toml", "ruff.toml", ".ruff.toml")
PRAGMA = "pragma: no cover"


@dataclass(frozen=True)
class Check:
    """A command the project's own CI runs besides its pytest suite (from its tox.ini or CI file); `python` is
    the projects' venv."""

    label: str
    argv: tuple[str, ...]
    cwd: str = "."


@dataclass(frozen=True)
class Project:
    requirement: str  # name==version
    package: str  # what `import` must still find on the oldest Python
    needs: tuple[str, ...] = ()  # its test requirements
    checks: tuple[Check, ...] = ()
    examples: str = ""  # a glob of scripts that run on their own


PROJECTS = (
    Project("six==1.16.0", "six"),
    Project("idna==2.10", "idna"),
    Project("tabulate==0.8.10", "tabulate",
            checks=(Check("doctest", ("python", "-m", "pytest", "-q", "-p", "no:cacheprovider", "--doctest-modules",
                                      "tabulate.py")),)),
    Project("wcwidth==0.2.6", "wcwidth"),
    Project("more-itertools==8.14.0", "more_itertools",
            checks=(Check("unittest", ("python", "-m", "unittest")),)),  # its tests load more.py's doctests
    Project("toolz==0.12.0", "toolz",
            checks=(Check("doctest", ("python", "-m", "pytest", "-q", "-p", "no:cacheprovider", "--doctest-modules",
                                      "toolz")),)),
    Project("colorama==0.4.6", "colorama", needs=("mock",), examples="demos/*.py"),
    Project("pyparsing==3.1.1", "pyparsing", needs=("railroad-diagrams", "jinja2"), examples="examples/*.py",
            checks=(Check("mypy", ("python", "-m", "mypy", "--show-error-codes", "--warn-unused-ignores",
                                   "mypy-ignore-cases/"), cwd="tests"),)),
    Project("attrs==24.2.0", "attr", needs=("hypothesis", "cloudpickle", "pympler", "zope.interface"),
            checks=(Check("mypy", ("python", "-m", "mypy", "tests/typing_example.py")),)),
    Project("zipp==3.20.2", "zipp", needs=("jaraco.itertools", "jaraco.functools", "more_itertools", "big-O",
                                           "pytest-ignore-flaky", "jaraco.test"),
            checks=(Check("mypy", ("python", "-m", "mypy", "zipp")),)),
    Project("humanize==4.11.0", "humanize", needs=("freezegun", "coverage"),  # its warning filters name coverage
            checks=(Check("mypy", ("python", "-m", "mypy", "--strict", "--show-error-codes", "src")),)),
    Project("packaging==24.1", "packaging", needs=("pretend",)),
    Project("pluggy==1.5.0", "pluggy"),
    # older releases whose own flake8 selection (bugbear and its opinions, implicit concatenation) has findings today
    Project("click==7.1.2", "click"),
    Project("itsdangerous==1.1.0", "itsdangerous", needs=("freezegun",)),
    Project("typing_extensions==4.12.2", "typing_extensions",
            checks=(Check("unittest", ("python", "-m", "unittest", "discover"), cwd="src"),)),
)


@dataclass
class Stage:
    """One pipeline's share of a project's run: its patches, its vetoes, its changed lines' taste."""

    applied: int = 0
    vetoed: int = 0
    taste: tuple[int, int] = (0, 0)


@dataclass
class Result:
    name: str
    oldest: str = ""
    interpreter: str = ""
    tests_before: int = 0
    applied: int = 0
    vetoed: list[str] = field(default_factory=list)
    new_failures: list[str] = field(default_factory=list)
    flaky: list[str] = field(default_factory=list)  # failed in one run after memfix and passed in the other
    unchanged: list[str] = field(default_factory=list)  # failed after memfix, which changed no file of the project
    old_python: list[str] = field(default_factory=list)
    checks: list[str] = field(default_factory=list)  # CI commands, example scripts and pragmas that broke
    memfix_seconds: float = 0.0
    ruff_seconds: float = 0.0
    skipped: str = ""
    codes: dict[str, list[str]] = field(default_factory=dict)  # changed file → rule codes of its patches
    taste: tuple[int, int] | None = None  # (changed lines the team's tools flag, changed lines)
    off_taste: list[str] = field(default_factory=list)
    non_idempotent: list[str] = field(default_factory=list)
    stages: dict[str, Stage] = field(default_factory=dict)  # pipeline → its share

    @property
    def breakages(self) -> int:
        return len(self.new_failures) + len(self.old_python) + len(self.checks)


# ---- the trees ----

def sdist(requirement: str) -> Path:
    downloads = CACHE / "dl"
    downloads.mkdir(parents=True, exist_ok=True)
    name, version = requirement.split("==")
    stem = f"{name}-{version}".lower().replace("_", "-")  # sdists spell the name either way

    def found() -> list[Path]:
        return [p for p in downloads.glob("*.tar.gz") if p.name.lower().replace("_", "-").startswith(stem)]

    if not found():
        subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--no-binary", ":all:",
                        requirement, "-d", str(downloads)], check=True, capture_output=True, text=True)
    return found()[0]


def fresh_tree(archive: Path, into: Path) -> Path:
    shutil.rmtree(into, ignore_errors=True)
    into.mkdir(parents=True)
    # pytest looks upwards for its settings: a project without its own stops here, not at memfix's (its xdist options)
    (into / "pytest.ini").write_text("[pytest]\n")
    with tarfile.open(archive) as tar:
        tar.extractall(into, filter="data")
    [tree] = [p for p in into.iterdir() if p.is_dir()]
    return tree


def python_files(tree: Path) -> dict[str, bytes]:
    # parts inside the tree only: the tree itself lives under memfix's own .memfix/bench
    return {p.relative_to(tree).as_posix(): p.read_bytes() for p in tree.rglob("*.py")
            if ".memfix" not in p.relative_to(tree).parts and "__pycache__" not in p.relative_to(tree).parts}


# ---- the project's own judges ----

def projects_python(project: Project) -> str:
    """The project's own venv (its test requirements, pytest and mypy), made once per set of requirements: one
    project's test plugins never load into another's run (typeguard, needing a newer typing_extensions, made the
    old one's suite fail to start)."""
    needs = sorted({"pytest", "mypy", *project.needs})
    venv = CACHE / "venv" / project.requirement.split("==")[0]
    stamp = venv / f"needs-{hashlib.sha256(' '.join(needs).encode()).hexdigest()[:12]}"
    python = venv / "bin" / "python"
    if not stamp.exists():
        shutil.rmtree(venv, ignore_errors=True)
        venv.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run([str(python), "-m", "pip", "install", "--quiet", *needs], check=True)
        stamp.touch()
    return str(python)


def project_env(tree: Path) -> dict[str, str]:
    """The tree's own package first on the path (its src/ folder where it has one), as its CI would install it."""
    source = tree / "src" if (tree / "src").is_dir() else tree
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "DATABASE_URL")}
    return {**env, "PYTHONPATH": str(source), "PYTHONDONTWRITEBYTECODE": "1"}


def passing_tests(python: str, tree: Path, report: Path) -> set[str]:
    report.unlink(missing_ok=True)
    subprocess.run([python, "-m", "pytest", "-q", "-p", "no:cacheprovider", f"--junitxml={report}"],
                   cwd=tree, env=project_env(tree), capture_output=True, text=True, timeout=1800)
    if not report.exists():
        return set()
    passed = set()
    for case in ET.parse(report).getroot().iter("testcase"):
        if not any(child.tag in ("failure", "error", "skipped") for child in case):
            passed.add(f"{case.get('classname')}::{case.get('name')}")
    return passed


@dataclass(frozen=True)
class Verdict:
    ok: bool
    tests: int  # how many tests the command says it ran (0 where it does not say)
    errors: frozenset[str]  # its error lines without line numbers


def judge(python: str, tree: Path, check: Check) -> Verdict:
    argv = [python if part == "python" else part for part in check.argv]
    try:
        proc = subprocess.run(argv, cwd=tree / check.cwd, env=project_env(tree), capture_output=True, text=True,
                              timeout=1800)
    except subprocess.TimeoutExpired:
        return Verdict(False, 0, frozenset({"timed out"}))
    out = proc.stdout + proc.stderr
    ran = re.findall(r"Ran (\d+) tests?|(\d+) passed", out)
    tests = sum(int(a or b) for a, b in ran)
    errors = frozenset(re.sub(r":\d+(:\d+)?:", ":", line).strip() for line in out.splitlines() if ": error:" in line)
    return Verdict(proc.returncode == 0, tests, errors)


def broken(label: str, before: Verdict, after: Verdict) -> list[str]:
    found = []
    if before.ok and not after.ok:
        found.append(f"{label}: succeeded before, fails after")
    if after.tests < before.tests:
        found.append(f"{label}: ran {before.tests} tests before, {after.tests} after")
    found += [f"{label}: new error: {e[:160]}" for e in sorted(after.errors - before.errors)[:5]]
    return found


def scripts_that_run(python: str, tree: Path, pattern: str) -> set[str]:
    """The example scripts that run to the end on their own (no input, 30 s), each from its own folder."""
    if not pattern:
        return set()

    def runs(path: str) -> bool:
        script = tree / path
        try:
            return subprocess.run([python, script.name], cwd=script.parent, env=project_env(tree),
                                  stdin=subprocess.DEVNULL, capture_output=True, timeout=30).returncode == 0
        except subprocess.TimeoutExpired:
            return False

    paths = sorted(Path(p).relative_to(tree).as_posix() for p in glob.glob(str(tree / pattern)))
    with ThreadPoolExecutor(8) as pool:
        return {p for p, ok in zip(paths, pool.map(runs, paths), strict=True) if ok}


def pragma_problems(before: str, after: str) -> list[str]:
    """A coverage pragma a change lost, or left on a line of its own (it no longer marks the code it marked)."""
    def pragmas(text: str) -> tuple[int, int]:
        lines = [line.strip() for line in text.splitlines() if PRAGMA in line]
        return len(lines), sum(line.startswith("#") for line in lines)

    (count, alone), (count_after, alone_after) = pragmas(before), pragmas(after)
    problems = []
    if count_after < count:
        problems.append(f"{count - count_after} coverage pragma(s) lost")
    if alone_after > alone:
        problems.append(f"{alone_after - alone} coverage pragma(s) left on a line of their own")
    return problems


def interpreter_for(oldest: tuple[int, int]) -> tuple[str, str]:
    """The oldest pyenv Python at or above `oldest`: (path, version)."""
    versions = sorted((tuple(int(x) for x in p.name.split(".")[:2]), p) for p in PYENV.iterdir()
                      if (p / "bin" / "python").exists() and p.name[0].isdigit())
    for version, path in versions:
        if version >= oldest:
            return str(path / "bin" / "python"), ".".join(map(str, version))
    return sys.executable, "this Python"


def old_python_problems(python: str, tree: Path, files: list[str], package: str) -> dict[str, str]:
    """{file or `import package`: first line of the error} on the oldest Python."""
    problems = {}
    for path in files:
        proc = subprocess.run([python, "-c", "import sys, py_compile; py_compile.compile(sys.argv[1], "
                               "cfile='/dev/null', doraise=True)", path], cwd=tree, capture_output=True, text=True)
        if proc.returncode:
            problems[path] = (proc.stderr.strip().splitlines() or ["?"])[-1][:160]
    proc = subprocess.run([python, "-c", f"import {package}"], cwd=tree, env=project_env(tree), capture_output=True,
                          text=True)
    if proc.returncode:
        problems[f"import {package}"] = (proc.stderr.strip().splitlines() or ["?"])[-1][:160]
    return problems


# ---- taste (benchmarks/taste.py) ----

# ---- memfix and ruff ----

def memfix(tree: Path, pipeline: str, data: Path, language: str = "python") -> dict:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "MEMFIX_DATA_DIR": str(data)}
    env.pop("DATABASE_URL", None)
    proc = subprocess.run([sys.executable, "-m", "handlers.cli", pipeline, str(tree), "--apply", "--json",
                           "--language", language],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
    if proc.returncode:
        raise RuntimeError(f"memfix {pipeline} failed: {proc.stderr.strip()[-300:]}")
    return json.loads(proc.stdout)


def apply_both(tree: Path, data: Path, result: Any, language: str,
               after: Callable[[str], None] = lambda pipeline: None) -> None:
    """`memfix autofix --apply` then `memfix refactor --apply`, timed, their outcomes counted into `result`
    (applied, vetoed with their reasons, each changed file's rule codes) and into each pipeline's stage; `after`
    sees the tree once each pipeline is done (outside the timing)."""
    for pipeline in ("autofix", "refactor"):
        start = time.perf_counter()
        report = memfix(tree, pipeline, data, language)
        result.memfix_seconds += time.perf_counter() - start
        stage = result.stages.setdefault(pipeline, Stage())
        for outcome in report["outcomes"]:
            if outcome["status"] == "PROMOTED":
                result.applied += 1
                stage.applied += 1
                result.codes.setdefault(outcome["path"], []).extend(outcome.get("fixed", outcome["findings"]))
            elif outcome["diff"]:
                stage.vetoed += 1
                result.vetoed.append(f"{pipeline} {outcome['path']} {outcome['status']}: {outcome['verification']}")
        after(pipeline)


def ruff_alone(tree: Path, rules: tuple[str, ...]) -> float:
    from core.languages.python.ruff import Ruff

    start = time.perf_counter()
    subprocess.run([Ruff().binary, "check", "--isolated", "--no-cache", "--exit-zero", "--select", ",".join(rules),
                    "--output-format", "json", "."], cwd=tree, capture_output=True, text=True)
    return time.perf_counter() - start


# ---- one project ----

def run_project(project: Project, python: str, keep: bool) -> Result:
    from core.languages.python.project import read_profile
    from core.pipelines.config import AUTOFIX_RULES, REFACTOR_RULES

    name = project.requirement.split("==")[0]
    result = Result(project.requirement)
    try:
        archive = sdist(project.requirement)
    except subprocess.CalledProcessError as exc:
        result.skipped = f"download failed: {exc.stderr.strip()[-200:]}"
        return result
    work = CACHE / "work" / name
    tree = fresh_tree(archive, work / "tree")
    pristine = python_files(tree)
    before = passing_tests(python, tree, work / "before.xml")
    result.tests_before = len(before)
    if not before:
        result.skipped = "its tests do not pass here before memfix touches it"
        return result
    checks_before = {c.label: judge(python, tree, c) for c in project.checks}
    examples_before = scripts_that_run(python, tree, project.examples)
    target = read_profile(lambda p: (tree / p).read_text() if (tree / p).is_file() else None).target
    oldest, result.interpreter = interpreter_for(target.oldest)
    result.oldest = ".".join(map(str, target.oldest))
    old_before = old_python_problems(oldest, tree, sorted(pristine), project.package)

    data = work / "memfix-data"
    seen = {"": pristine}
    apply_both(tree, data, result, "python", lambda pipeline: seen.setdefault(pipeline, python_files(tree)))
    result.ruff_seconds = ruff_alone(tree, AUTOFIX_RULES) + ruff_alone(tree, REFACTOR_RULES)
    now = python_files(tree)
    changed = sorted(p for p, text in now.items() if pristine.get(p) != text)
    _taste(tree, seen, result)

    _test_breakages(python, tree, work, before, bool(changed), result)
    for check in project.checks:
        result.checks += broken(check.label, checks_before[check.label], judge(python, tree, check))
    examples_after = scripts_that_run(python, tree, project.examples)
    result.checks += [f"example {p}: ran before, fails after" for p in sorted(examples_before - examples_after)]
    for path in changed:
        result.checks += [f"{path}: {problem}" for problem in pragma_problems(
            pristine[path].decode("utf-8", "replace"), now[path].decode("utf-8", "replace"))]
    old_after = old_python_problems(oldest, tree, changed, project.package)
    result.old_python = [f"{what}: {error}" for what, error in old_after.items() if what not in old_before]

    for pipeline in ("autofix", "refactor"):
        memfix(tree, pipeline, data)
    result.non_idempotent = sorted(p for p, text in python_files(tree).items() if now.get(p) != text)
    if not keep:
        shutil.rmtree(work, ignore_errors=True)
    return result


def _test_breakages(python: str, tree: Path, work: Path, before: set[str], changed: bool, result: Result) -> None:
    """The tests that passed before and fail after, twice: memfix's breakages where it changed a file, else the
    machine's; a test that fails once only is the project's own flakiness."""
    after = passing_tests(python, tree, work / "after.xml")
    if before - after:  # timing tests and the like fail now and then: a failure counts when it happens again
        again = passing_tests(python, tree, work / "again.xml")
        result.flaky = sorted((before - after) & again)
        after |= again
    if changed:
        result.new_failures = sorted(before - after)
    else:  # memfix changed no file: a test that fails now fails for reasons of the machine's or its own
        result.unchanged = sorted(before - after)


def _taste(tree: Path, seen: dict[str, dict[str, bytes]], result: Result) -> None:
    """Each pipeline's changed lines in hunks where the team's own tools, run by this benchmark on the file as the
    pipeline found it, flag or would change a line (benchmarks/taste.py)."""
    tools = team_tools(tree)
    python = judge_python(tools, CACHE / "judge")
    for before, pipeline in (("", "autofix"), ("autofix", "refactor")):
        chosen = total = 0
        for path in sorted(p for p, text in seen[pipeline].items() if seen[before].get(p) != text):
            old, new = (seen[when][path].decode("utf-8", "replace") for when in (before, pipeline))
            ok, lines = on_taste(old, new, flagged(tree, path, old, tools, python))
            chosen, total = chosen + ok, total + lines
            if ok < lines:
                result.off_taste.append(f"{pipeline} {path}: {lines - ok} of {lines} changed lines where "
                                        f"{tools.describe()} flag nothing")
        result.stages[pipeline].taste = (chosen, total)
    result.taste = tuple(map(sum, zip(*(s.taste for s in result.stages.values()), strict=True)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--project", help="one project by name, e.g. six")
    parser.add_argument("--keep", action="store_true", help="leave the trees under .memfix/bench/peers/work")
    args = parser.parse_args()
    chosen = [p for p in PROJECTS if not args.project or p.requirement.split("==")[0] == args.project]
    results = run_each(chosen, lambda p: p.requirement, lambda p: run_project(p, projects_python(p), args.keep),
                       Result)
    print(f"{'project':26} {'oldest (ran on)':16} {'tests':>6} {'applied':>7} {'vetoed':>6} {'broke':>5} "
          f"{'again':>5} {'taste':>9} {'memfix s':>8} {'ruff s':>6}")
    for r in results:
        if r.skipped:
            print(f"{r.name:26} skipped: {r.skipped}")
            continue
        taste = f"{r.taste[0]}/{r.taste[1]}" if r.taste else "-"
        print(f"{r.name:26} {r.oldest + ' (' + r.interpreter + ')':16} {r.tests_before:>6} {r.applied:>7} "
              f"{len(r.vetoed):>6} {r.breakages:>5} {len(r.non_idempotent):>5} {taste:>9} "
              f"{r.memfix_seconds:>8.1f} {r.ruff_seconds:>6.2f}")
        for test in r.new_failures:
            print(f"    new test failure: {test}")
        for test in r.flaky:
            print(f"    flaky, not counted: {test} failed once after memfix and passed when run again")
        for test in r.unchanged:
            print(f"    not counted: {test} failed after memfix, which changed no file of the project (the "
                  "machine's load, or the test's own flakiness)")
        for problem in r.checks:
            print(f"    broke: {problem}")
        for problem in r.old_python:
            where = problem.split(":")[0]
            rules = ", ".join(sorted(set(r.codes.get(where, []))))
            print(f"    on Python {r.interpreter}: {problem}  [rules: {rules}]")
        print_kept(r)
    print_totals([r for r in results if not r.skipped], "projects with changes, judged by their own tools")


def run_each(projects: list[Any], name: Callable[[Any], str], run: Callable[[Any], Any],
             failed: Callable[..., Any]) -> list[Any]:
    """Each project's result; one project's failure is reported as a breakage and the others still run."""
    results = []
    for project in projects:
        print(f"… {name(project)}", file=sys.stderr, flush=True)
        try:
            results.append(run(project))
        except Exception as exc:  # noqa: BLE001
            results.append(failed(name(project), checks=[f"the run failed: {exc!r}"[:300]]))
    return results


def print_kept(r: Any) -> None:
    """What every peer benchmark says under a project's row: files changed twice, changes off taste, vetoes."""
    for path in r.non_idempotent:
        print(f"    changed again by a second run: {path}")
    for off in r.off_taste:
        print(f"    off taste: {off}")
    for veto in r.vetoed:
        print(f"    vetoed: {veto}")


def print_totals(ran: list, configured: str) -> None:
    """The last two lines every peer benchmark prints, for projects that ran (Python's or JavaScript's)."""
    tasted = [r.taste for r in ran if r.taste]
    print(f"peers: {len(ran)} projects, {sum(r.applied for r in ran)} patches applied, "
          f"{sum(len(r.vetoed) for r in ran)} vetoed, {sum(r.breakages for r in ran)} breakages, "
          f"{sum(len(r.non_idempotent) for r in ran)} non-idempotent")
    for pipeline in ("autofix", "refactor"):
        stages = [r.stages[pipeline] for r in ran if pipeline in getattr(r, "stages", {})]
        if stages:
            print(f"  {pipeline}: {sum(s.applied for s in stages)} patches applied, {sum(s.vetoed for s in stages)} "
                  f"vetoed, taste {sum(s.taste[0] for s in stages)} of {sum(s.taste[1] for s in stages)}")
    print(f"taste: {sum(t[0] for t in tasted)} of {sum(t[1] for t in tasted)} changed lines fix a rule the "
          f"repository selected ({len(tasted)} {configured})")


if __name__ == "__main__":
    from benchmarks import stoppable

    stoppable()
    main()
