"""Pushes replayed, JavaScript and TypeScript: what memfix's AutoFix would have proposed on each push of a real
project's history, judged by the team's own ESLint and by what the team did next.

Run: `python -m benchmarks.replay_js [--project NAME] [--pushes N] [--window K] [--show N]`. Needs Node and npm
(the projects' devDependencies, as `benchmarks.peers_js` installs them); prints numbers, asserts nothing.

Each project is one of `benchmarks.peers_js`' snapshots whose team lints with ESLint. Its last N first-parent
commits (default 120) are replayed oldest first, each as a push of its changes, through memfix's own command as
`benchmarks.replay` runs it: the commit checked out in a working tree whose history holds its parent (the
snapshot's node_modules linked in), and `memfix autofix TREE --since PARENT --language javascript` run in this
process on services started once for the whole replay (`benchmarks.replay` `Checkout` and `Command`):
1. the push's files and each one's text at the parent are `--since`'s own listing (core/pipelines/since.py: git's
   diff from the parent, renames followed), the JavaScript and TypeScript sources among them the ones judged;
2. the judge is the team's own ESLint — the version its package.json pins at the snapshot (one install for the
   whole history: the benchmark does not install each commit's), reading the configuration the commit holds — run
   by this benchmark on each changed file as the commit and as its parent have it; a commit whose configuration
   that ESLint cannot load is counted as not judged;
3. the push's new findings: the ESLint findings (rule and message) a changed file has more of than at the parent;
4. memfix proposes what the command's run promotes (the project read at the commit, the findings the push brought,
   their fixes — the team's ESLint's own, installed from the commit's pins and run in the sandbox, or with
   `--memfix-own` (MEMFIX_TEAM_TOOLS off) Biome's kept to the hunks at their lines — verified;
   core/pipelines/runner.py);
5. the answer key is the team's next K commits (default 40): a new finding the team fixed is one whose kind's count
   in that file went down; memfix's fix matches the team's when every line it wrote stands in the file the team's
   fix left; a proposal the team never made is one that touches no new finding the team later fixed;
6. breakages: for each push memfix proposed something on, the project's tests at that commit with and without
   memfix's patches (a test that passes without and fails with).

Printed per project and in total: pushes replayed, judged, with new findings; new findings; fixed later by the
team; of those, how many `eslint --fix` fixes; memfix's proposals (files); matching the team's own fix; the team
never made; findings the team fixed with `eslint --fix` that memfix proposed nothing for (missed); breakages.
"""

from __future__ import annotations

import argparse
import io
import json
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from benchmarks.peers_js import PROJECTS, SOURCES, Project, link_node_modules, passing_tests, snapshot
from benchmarks.replay import Checkout, Command, History, Summed

if TYPE_CHECKING:
    from core.pipelines.brought import Previous

ROOT = Path(__file__).resolve().parents[1]
CACHE = ROOT / ".memfix" / "bench" / "replay_js"
ESLINT_PROJECTS = ("picomatch", "yargs-parser", "node-semver", "commander.js", "qs", "mitt")


@dataclass
class Tally(Summed):
    pushes: int = 0
    judged: int = 0
    unloadable: int = 0  # pushes of JavaScript whose configuration the snapshot's ESLint cannot load
    with_new: int = 0
    new: int = 0
    team_fixed: int = 0
    tool_fixable: int = 0  # of those the team fixed, how many `eslint --fix` fixes
    proposed_files: int = 0
    matched: int = 0
    not_made: int = 0
    missed: int = 0
    breakages: int = 0
    seconds: float = 0.0
    rules: Counter[str] = field(default_factory=Counter)
    examples: list[str] = field(default_factory=list)

    def line(self, label: str) -> str:
        return (f"{label:22s} {self.pushes:6d} {self.judged:6d} {self.with_new:6d} {self.new:6d} {self.team_fixed:6d} "
                f"{self.tool_fixable:6d} {self.proposed_files:6d} {self.matched:6d} {self.not_made:6d} "
                f"{self.missed:6d} {self.breakages:6d} {self.seconds:7.1f}")


@dataclass(frozen=True)
class EslintFinding:
    rule: str
    message: str
    line: int
    end: int
    fixable: bool

    @property
    def key(self) -> tuple[str, str]:
        return self.rule, self.message


class Judge:
    """The team's ESLint from the snapshot's devDependencies, run on one file's text in a commit's tree."""

    def __init__(self, modules: Path):
        self.modules = modules

    def findings(self, tree: Path, path: str, text: str | None) -> list[EslintFinding] | None:
        """The file's ESLint findings (None: ESLint could not load this commit's configuration)."""
        if text is None:
            return []
        proc = subprocess.run([str(tree / "node_modules" / ".bin" / "eslint"), "--format", "json", "--stdin",
                               "--stdin-filename", path], cwd=tree, input=text, capture_output=True, text=True,
                              timeout=300)
        try:
            reports = json.loads(proc.stdout)
        except ValueError:
            return None
        return [EslintFinding(m.get("ruleId") or "parse", m.get("message", ""), m.get("line", 1),
                              m.get("endLine") or m.get("line", 1), "fix" in m)
                for report in reports for m in report.get("messages", [])]


def tree_at(history: History, commit: str, into: Path, modules: Path) -> Path:
    """The commit's files in a scratch folder, the snapshot's node_modules linked in."""
    shutil.rmtree(into, ignore_errors=True)
    into.mkdir(parents=True)
    archive = subprocess.run(["git", "--git-dir", str(history.git_dir), "archive", commit], capture_output=True,
                             check=True).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    (into / "node_modules").symlink_to(modules, target_is_directory=True)
    return into


def js_changed(paths: list[str]) -> list[str]:
    """Of a push's changed files, the JavaScript and TypeScript sources the judge reads."""
    return [p for p in paths if p.endswith(SOURCES) and not p.endswith(".d.ts")
            and not any(part in ("node_modules", "dist", "build") for part in p.split("/"))]


def replay(project: Project, pushes: int, window: int, command: Command) -> Tally:
    tally = Tally()
    source = snapshot(project)
    if isinstance(source, str):
        tally.examples.append(f"skipped: {source}")
        return tally
    git_dir, head = source
    history = History(git_dir)
    work = CACHE / project.name
    head_tree = tree_at(history, head, work / "head", Path("/nonexistent"))
    (head_tree / "node_modules").unlink()
    link_node_modules(project, head_tree)
    modules = (head_tree / "node_modules").resolve()
    judge = Judge(modules)
    commits = history.commits(pushes)
    began = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="memfix-replay-js-") as scratch:
        checkout = Checkout(git_dir, Path(scratch) / "tree", excluded=("node_modules",))
        (checkout.root / "node_modules").symlink_to(modules, target_is_directory=True)
        for i in range(1, len(commits)):
            parent, commit = commits[i - 1], commits[i]
            tally.pushes += 1
            branch = checkout.push(parent, commit).changed()
            changed = js_changed(branch.paths)
            if not changed:
                continue
            one_push(Push(history, judge, project, checkout.root, parent, commit, changed, branch.previous,
                          commits[i + 1:i + 1 + window]), tally, command)
    tally.seconds = time.perf_counter() - began
    return tally


@dataclass(frozen=True)
class Push:
    history: History
    judge: Judge
    project: Project
    tree: Path
    parent: str
    commit: str
    changed: list[str]
    previous: Previous  # a changed file's text at the parent, as `--since` reads it (a renamed file's old one)
    later: list[str]

    def text(self, path: str) -> str | None:
        """A changed file's text at the commit, as the tree holds it."""
        target = self.tree / path
        return target.read_text(errors="replace") if target.is_file() and not target.is_symlink() else None


def one_push(push: Push, tally: Tally, command: Command) -> None:
    new: dict[str, list[EslintFinding]] = {}
    for path in push.changed:
        now = push.judge.findings(push.tree, path, push.text(path))
        before = push.judge.findings(push.tree, path, push.previous(path))
        if now is None or before is None:
            tally.unloadable += 1
            return  # this commit's configuration does not load in the snapshot's ESLint: not judged
        new[path] = _brought(now, before)
    tally.judged += 1
    if not any(new.values()):
        return
    tally.with_new += 1
    patches = memfix_patches(push, command)
    for path, found in new.items():
        _judge_file(push, path, found, patches.get(path), tally)
    if patches:
        tally.breakages += _breakages(push, patches)


def _judge_file(push: Push, path: str, found: list[EslintFinding], patch, tally: Tally) -> None:
    """One file's new findings against the team's later commits, and memfix's patch for it against both."""
    tally.new += len(found)
    tally.rules.update(f.rule for f in found)
    fixed_at = _fixed_later(push, path, found)
    tally.team_fixed += len(fixed_at)
    tally.tool_fixable += sum(1 for f in found if id(f) in fixed_at and f.fixable)
    touched = _touched(patch) if patch else set()
    hit = [f for f in found if set(range(f.line, f.end + 1)) & touched]
    for f in found:
        if id(f) in fixed_at and f.fixable and f not in hit:
            tally.missed += 1
            tally.examples.append(f"missed: {push.commit[:9]} {path}:{f.line} {f.rule} {f.message[:60]}")
    if patch is None:
        return
    tally.proposed_files += 1
    team = [fixed_at[id(f)] for f in hit if id(f) in fixed_at]
    if not team:
        tally.not_made += 1
        rules = ", ".join(sorted({f.code for f in patch.findings}))
        tally.examples.append(f"not made: {push.commit[:9]} {path} ({rules})")
    elif any(_matches(patch, push.history.text(sha, path)) for sha in team):
        tally.matched += 1


def memfix_patches(push: Push, command: Command) -> dict:
    """What the command's run on the push promotes: {path: patch}."""
    report = command.autofix(push.tree, push.parent, "javascript")
    return {o.path: o.patch for o in report.promoted if o.patch is not None} if report is not None else {}


def _brought(now: list[EslintFinding], before: list[EslintFinding]) -> list[EslintFinding]:
    had = Counter(f.key for f in before)
    seen: Counter[tuple[str, str]] = Counter()
    new = []
    for f in now:
        seen[f.key] += 1
        if seen[f.key] > had[f.key]:
            new.append(f)
    return new


def _fixed_later(push: Push, path: str, found: list[EslintFinding]) -> dict[int, str]:
    """For each new finding the team fixed within the window, the commit that fixed it."""
    counts = Counter(f.key for f in push.judge.findings(push.tree, path, push.history.text(push.commit, path)) or [])
    fixed: dict[int, str] = {}
    waiting = list(found)
    previous = push.history.text(push.commit, path)
    for sha in push.later:
        text = push.history.text(sha, path)
        if text is None:
            break
        if text == previous:
            continue
        previous = text
        now = push.judge.findings(push.tree, path, text)
        if now is None:
            break
        have = Counter(f.key for f in now)
        for key in {f.key for f in waiting}:
            for f in [f for f in waiting if f.key == key][:max(counts[key] - have[key], 0)]:
                fixed[id(f)] = sha
                waiting.remove(f)
        if not waiting:
            break
    return fixed


def _touched(patch) -> set[int]:
    """The original's lines a patch changes (an insertion: the lines either side)."""
    from benchmarks.taste import changed

    return changed(patch.original, patch.updated)


def _matches(patch, team_text: str | None) -> bool:
    if team_text is None:
        return False
    written = [line[1:].strip() for line in patch.changed_lines() if line.startswith("+") and line[1:].strip()]
    lines = {line.strip() for line in team_text.splitlines()}
    return all(w in lines for w in written)


def _breakages(push: Push, patches: dict) -> int:
    """Tests passing at the commit without memfix's patches and failing with them."""
    with tempfile.TemporaryDirectory(prefix="memfix-replay-js-") as scratch:
        without, _ = passing_tests(push.project, push.tree, Path(scratch) / "without.json")
        for path, patch in patches.items():
            (push.tree / path).write_text(patch.updated)
        with_, _ = passing_tests(push.project, push.tree, Path(scratch) / "with.json")
    return len(without - with_)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--project", help="one project by name, e.g. picomatch")
    parser.add_argument("--pushes", type=int, default=120)
    parser.add_argument("--window", type=int, default=40)
    parser.add_argument("--show", type=int, default=0, help="list this many proposals not made and findings missed")
    parser.add_argument("--memfix-own", action="store_true",
                        help="memfix's own reading (Biome with the translated configuration), not the team's tools")
    args = parser.parse_args()
    chosen = [p for p in PROJECTS if p.name in ESLINT_PROJECTS and (not args.project or args.project == p.name)]
    print(f"pushes replayed (the last {args.pushes} first-parent commits of each, the team's next {args.window} "
          "commits as the answer key, the team's ESLint as the judge)")
    print(f"{'project':22s} {'pushes':>6s} {'judged':>6s} {'w/new':>6s} {'new':>6s} {'fixed':>6s} {'--fix':>6s} "
          f"{'prop':>6s} {'match':>6s} {'notmd':>6s} {'missed':>6s} {'broke':>6s} {'sec':>7s}")
    total, command = Tally(), Command(args.memfix_own)
    if not command.has("javascript"):
        print("replay_js: memfix's JavaScript runs need Biome installed (`biome` on PATH)")
        return
    try:
        for project in chosen:
            print(f"… {project.repo}", file=sys.stderr, flush=True)
            try:
                tally = replay(project, args.pushes, args.window, command)
            except Exception as exc:  # noqa: BLE001 — one project's failure is said, the others go on
                print(f"{project.name:22s} failed: {exc!r}"[:300])
                continue
            print(tally.line(project.name), flush=True)
            total.add(tally)
    finally:
        command.close()
    print(total.line("total"))
    for failure in command.failed:
        print(f"a run that did not finish: {failure}")
    print(f"new findings by rule: {', '.join(f'{r} {n}' for r, n in total.rules.most_common(12)) or 'none'}")
    for example in total.examples[:args.show]:
        print(f"  {example}")
    print(f"replay_js: {total.pushes} pushes ({total.judged} judged; {total.unloadable} that change JavaScript not "
          f"judged: the snapshot's ESLint cannot load their configuration), {total.new} new findings, the team fixed "
          f"{total.team_fixed} later ({total.tool_fixable} of them with `eslint --fix`); memfix proposed "
          f"{total.proposed_files} files, {total.matched} matching the team's own fix, {total.not_made} the team "
          f"never made; {total.missed} the team fixed with `eslint --fix` and memfix missed; {total.breakages} "
          "breakages")


if __name__ == "__main__":
    from benchmarks import stoppable

    stoppable()
    main()
