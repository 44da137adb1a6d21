"""Peer benchmark: memfix on real projects from PyPI, judged by their own test suites and oldest Pythons.

Run: `python -m benchmarks.peers [--project NAME] [--keep]`. It downloads source distributions (so it is not part
of `make test`), prints numbers, and asserts nothing. Downloads and trees live under `.memfix/bench/peers/`.

For each project (pinned sdists that ship their tests; pure Python; three still support 2.7, two 3.5):
1. its tests run on this Python (pytest, JUnit XML) on a fresh copy: the tests that pass are the baseline;
2. every module of its package is compiled and the package imported on its **oldest supported Python** (as memfix
   reads it from the project's metadata; the oldest pyenv interpreter at or above it) — the baseline again;
3. `memfix autofix --apply` then `memfix refactor --apply`, offline, through the CLI as a user runs it
   (subprocess, its own embedded database under the tree's scratch folder);
4. the tests again, and the compile/import check again on every changed file;
5. both pipelines a second time: files they change again are non-idempotent.

Counted:
- patches applied: PROMOTED outcomes written by the two `--apply` runs;
- vetoed: outcomes that had a patch but were not promoted (their reasons are printed);
- breakages: tests that passed before and fail (or vanish) after, plus changed files that no longer compile
  on the oldest Python, plus a package that imported there before and does not after;
- non-idempotent: files the second pair of runs changed;
- time: memfix's two runs against `ruff check` alone with the same rules, on the same tree.
The last line reads `peers: N projects, P patches applied, V vetoed, B breakages, I non-idempotent`.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tarfile
import time
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CACHE = ROOT / ".memfix" / "bench" / "peers"
PYENV = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv")) / "versions"


@dataclass(frozen=True)
class Project:
    requirement: str  # name==version
    package: str  # what `import` must still find on the oldest Python


PROJECTS = (
    Project("six==1.16.0", "six"),
    Project("idna==2.10", "idna"),
    Project("tabulate==0.8.10", "tabulate"),
    Project("wcwidth==0.2.6", "wcwidth"),
    Project("more-itertools==8.14.0", "more_itertools"),
    Project("toolz==0.12.0", "toolz"),
)


@dataclass
class Result:
    name: str
    oldest: str = ""
    interpreter: str = ""
    tests_before: int = 0
    applied: int = 0
    vetoed: list[str] = field(default_factory=list)
    new_failures: list[str] = field(default_factory=list)
    old_python: list[str] = field(default_factory=list)
    non_idempotent: list[str] = field(default_factory=list)
    codes: dict[str, list[str]] = field(default_factory=dict)  # changed file → rule codes of its patches
    memfix_seconds: float = 0.0
    ruff_seconds: float = 0.0
    skipped: str = ""

    @property
    def breakages(self) -> int:
        return len(self.new_failures) + len(self.old_python)


# ---- the trees ----

def sdist(requirement: str) -> Path:
    downloads = CACHE / "dl"
    downloads.mkdir(parents=True, exist_ok=True)
    name, version = requirement.split("==")
    found = [p for p in downloads.glob("*.tar.gz") if p.name.lower().replace("_", "-").startswith(
        f"{name.lower()}-{version}")]
    if not found:
        subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--no-binary", ":all:",
                        requirement, "-d", str(downloads)], check=True, capture_output=True, text=True)
        found = [p for p in downloads.glob("*.tar.gz") if p.name.lower().replace("_", "-").startswith(
            f"{name.lower()}-{version}")]
    return found[0]


def fresh_tree(archive: Path, into: Path) -> Path:
    shutil.rmtree(into, ignore_errors=True)
    into.mkdir(parents=True)
    with tarfile.open(archive) as tar:
        tar.extractall(into, filter="data")
    [tree] = [p for p in into.iterdir() if p.is_dir()]
    return tree


def python_files(tree: Path) -> dict[str, bytes]:
    return {p.relative_to(tree).as_posix(): p.read_bytes() for p in tree.rglob("*.py")
            if ".memfix" not in p.parts and "__pycache__" not in p.parts}


# ---- the project's own judges ----

def passing_tests(tree: Path, report: Path) -> set[str]:
    subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", f"--junitxml={report}"],
                   cwd=tree, capture_output=True, text=True, timeout=900)
    if not report.exists():
        return set()
    passed = set()
    for case in ET.parse(report).getroot().iter("testcase"):
        if not any(child.tag in ("failure", "error", "skipped") for child in case):
            passed.add(f"{case.get('classname')}::{case.get('name')}")
    return passed


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
    proc = subprocess.run([python, "-c", f"import {package}"], cwd=tree, capture_output=True, text=True)
    if proc.returncode:
        problems[f"import {package}"] = (proc.stderr.strip().splitlines() or ["?"])[-1][:160]
    return problems


# ---- memfix and ruff ----

def memfix(tree: Path, pipeline: str, data: Path) -> dict:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "MEMFIX_DATA_DIR": str(data)}
    env.pop("DATABASE_URL", None)
    proc = subprocess.run([sys.executable, "-m", "handlers.cli", pipeline, str(tree), "--apply", "--json"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
    if proc.returncode:
        raise RuntimeError(f"memfix {pipeline} failed: {proc.stderr.strip()[-300:]}")
    return json.loads(proc.stdout)


def ruff_alone(tree: Path, rules: tuple[str, ...]) -> float:
    from core.pipelines.detect import Ruff

    start = time.perf_counter()
    subprocess.run([Ruff().binary, "check", "--isolated", "--no-cache", "--exit-zero", "--select", ",".join(rules),
                    "--output-format", "json", "."], cwd=tree, capture_output=True, text=True)
    return time.perf_counter() - start


# ---- one project ----

def run_project(project: Project, keep: bool) -> Result:
    from core.pipelines.config import AUTOFIX_RULES, REFACTOR_RULES
    from core.pipelines.project import read_profile

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
    before = passing_tests(tree, work / "before.xml")
    result.tests_before = len(before)
    if not before:
        result.skipped = "its tests do not pass here before memfix touches it"
        return result
    target = read_profile(lambda p: (tree / p).read_text() if (tree / p).is_file() else None).target
    python, result.interpreter = interpreter_for(target.oldest)
    result.oldest = ".".join(map(str, target.oldest))
    old_before = old_python_problems(python, tree, sorted(pristine), project.package)

    data = work / "memfix-data"
    start = time.perf_counter()
    reports = [memfix(tree, pipeline, data) for pipeline in ("autofix", "refactor")]
    result.memfix_seconds = time.perf_counter() - start
    result.ruff_seconds = ruff_alone(tree, AUTOFIX_RULES) + ruff_alone(tree, REFACTOR_RULES)
    for report in reports:
        for outcome in report["outcomes"]:
            if outcome["status"] == "PROMOTED":
                result.applied += 1
                result.codes.setdefault(outcome["path"], []).extend(outcome["findings"])
            elif outcome["diff"]:
                result.vetoed.append(f"{outcome['path']} {outcome['status']}: {outcome['verification']}")
    changed = sorted(p for p, text in python_files(tree).items() if pristine.get(p) != text)

    after = passing_tests(tree, work / "after.xml")
    result.new_failures = sorted(before - after)
    old_after = old_python_problems(python, tree, changed, project.package)
    result.old_python = [f"{what}: {error}" for what, error in old_after.items() if what not in old_before]

    settled = python_files(tree)
    for pipeline in ("autofix", "refactor"):
        memfix(tree, pipeline, data)
    result.non_idempotent = sorted(p for p, text in python_files(tree).items() if settled.get(p) != text)
    if not keep:
        shutil.rmtree(work, ignore_errors=True)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--project", help="one project by name, e.g. six")
    parser.add_argument("--keep", action="store_true", help="leave the trees under .memfix/bench/peers/work")
    args = parser.parse_args()
    chosen = [p for p in PROJECTS if not args.project or p.requirement.split("==")[0] == args.project]
    results = []
    for project in chosen:
        print(f"… {project.requirement}", file=sys.stderr, flush=True)
        results.append(run_project(project, args.keep))
    print(f"{'project':24} {'oldest (ran on)':16} {'tests':>6} {'applied':>7} {'vetoed':>6} {'broke':>5} "
          f"{'again':>5} {'memfix s':>8} {'ruff s':>6}")
    for r in results:
        if r.skipped:
            print(f"{r.name:24} skipped: {r.skipped}")
            continue
        print(f"{r.name:24} {r.oldest + ' (' + r.interpreter + ')':16} {r.tests_before:>6} {r.applied:>7} "
              f"{len(r.vetoed):>6} {r.breakages:>5} {len(r.non_idempotent):>5} {r.memfix_seconds:>8.1f} "
              f"{r.ruff_seconds:>6.2f}")
        for test in r.new_failures:
            print(f"    new test failure: {test}")
        for problem in r.old_python:
            where = problem.split(":")[0]
            rules = ", ".join(sorted(set(r.codes.get(where, []))))
            print(f"    on Python {r.interpreter}: {problem}  [rules: {rules}]")
        for path in r.non_idempotent:
            print(f"    changed again by a second run: {path}")
        for veto in r.vetoed:
            print(f"    vetoed: {veto}")
    ran = [r for r in results if not r.skipped]
    print(f"peers: {len(ran)} projects, {sum(r.applied for r in ran)} patches applied, "
          f"{sum(len(r.vetoed) for r in ran)} vetoed, {sum(r.breakages for r in ran)} breakages, "
          f"{sum(len(r.non_idempotent) for r in ran)} non-idempotent")


if __name__ == "__main__":
    main()
