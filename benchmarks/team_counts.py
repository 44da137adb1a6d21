"""What memfix reports on configured projects against what the team's own tool reports on the same tree, and how
long each takes.

Run: `python -m benchmarks.team_counts [--project NAME]`. Needs the network the first time (the peers' snapshots
and devDependencies, as `benchmarks.peers_js` and `benchmarks.peers` get them; the team's tools into memfix's tool
cache, `MEMFIX_TOOL_CACHE`) and a sandbox; prints numbers and asserts nothing.

- JavaScript: `benchmarks.peers_js`' snapshots whose team lints with ESLint. The team's count is the ESLint command
  of its lint script (package.json), run by this benchmark as the team runs it, in the tree with the snapshot's
  devDependencies, `--format json` added; every message with a rule, and every parse failure.
- Python: `benchmarks.peers`' source distributions whose flake8 has settings. The team's count is `flake8` run in
  the unpacked tree at the version memfix reads from the project's pins (installed by this benchmark in a
  virtual environment of its own), every finding of its configured selection; and where the project pins ruff,
  `ruff check .` at that version too.
- memfix's count is what an AutoFix run's linter reports on the same tree: the language built as a run builds it
  (the team's tools on, in the sandbox), its `check` on every source file with the run's own selection.

Printed per project: the tool, the team's count and memfix's, equal or not, the two times (memfix's with the tool
cache warm; a first install is printed apart) and their ratio; then the rules whose counts differ. The last line
reads `team_counts: E of N projects equal, team T findings, memfix M; memfix Xx the team's tool's time`.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FLAKE8_PROJECTS = ("click", "itsdangerous", "more-itertools", "pluggy", "six")


@dataclass
class Count:
    project: str
    tool: str = ""
    team: Counter[str] = field(default_factory=Counter)
    memfix: Counter[str] = field(default_factory=Counter)
    team_seconds: float = 0.0
    memfix_seconds: float = 0.0
    install_seconds: float = 0.0
    push: list[str] = field(default_factory=list)  # a push-sized set of files: the project's three largest sources
    push_team: float = 0.0  # the team's tool on them alone, and memfix's check of them, median of three, warm
    push_memfix: float = 0.0
    said: str = ""

    def line(self) -> str:
        if self.said:
            return f"{self.project:16s} {self.said}"
        team, ours = sum(self.team.values()), sum(self.memfix.values())
        ratio = self.memfix_seconds / self.team_seconds if self.team_seconds else 0.0
        first = f"  (first install {self.install_seconds:.1f} s)" if self.install_seconds else ""
        push = (f"\n{'':16s} a push of {len(self.push)} files: the team's tool {self.push_team:.2f} s, memfix "
                f"{self.push_memfix:.2f} s" if self.push else "")
        return (f"{self.project:16s} {self.tool:34s} {team:6d} {ours:6d} {'yes' if team == ours else 'NO':>5s} "
                f"{self.team_seconds:7.2f} {self.memfix_seconds:7.2f} {ratio:6.2f}x{first}{push}")


def toolbox():  # noqa: ANN201 — the benchmark builds it as the composition root does
    from core.settings import Settings
    from core.tools.install import ToolCache
    from core.tools.toolbox import Toolbox

    settings = Settings.from_env()
    return Toolbox(ToolCache(settings.tool_cache, settings.pypi_index, settings.npm_registry))


def memfix_count(language, tree: Path, count: Count) -> None:  # noqa: ANN001
    """memfix's findings on every source file of `tree`, as a run's linter reports them, timed with the cache warm
    (a first run's install is timed apart)."""
    from core.languages.registry import is_source
    from core.pipelines.config import RepoConfig

    def read(path: str) -> str | None:
        target = tree / path
        return target.read_text(errors="replace") if target.is_file() and not target.is_symlink() else None

    sources = sorted(path for f in tree.rglob("*") if f.is_file() and not {"node_modules", ".git"} & set(f.parts)
                     and is_source(path := f.relative_to(tree).as_posix()) and language.owns(path))
    started = time.monotonic()
    language.project(read, RepoConfig(), "autofix", tuple(sources))
    count.install_seconds = time.monotonic() - started  # the tool's install (and its configuration's probe)
    started = time.monotonic()
    project = language.project(read, RepoConfig(), "autofix", tuple(sources))
    linter = project.linter()
    found = linter.check(tree, sources, project.selection.rules, listed=True)
    count.memfix_seconds = time.monotonic() - started
    count.install_seconds = max(0.0, count.install_seconds - count.memfix_seconds) if \
        count.install_seconds > 2 * count.memfix_seconds else 0.0
    count.memfix = Counter(f.code.removeprefix("eslint:") for f in found)
    count.push = sorted(sources, key=lambda p: -(tree / p).stat().st_size)[:3]
    count.push_memfix = _median(lambda: linter.check(tree, count.push, project.selection.rules, listed=True))
    count.tool = next((line.split(": ", 1)[-1] for line in project.lines if "judges" in line), "memfix's own reading")
    if project.problems:
        print(f"  {count.project}: {'; '.join(project.problems)}"[:400], file=sys.stderr)


def _median(run, times: int = 3) -> float:  # noqa: ANN001
    took = []
    for _ in range(times):
        started = time.monotonic()
        run()
        took.append(time.monotonic() - started)
    return sorted(took)[len(took) // 2]


def javascript(name: str, box) -> Count:  # noqa: ANN001
    from benchmarks.peers_js import PROJECTS, fresh_tree, link_node_modules, snapshot
    from core.languages.javascript.biome import Biome
    from core.languages.javascript.eslint import _eslint_words
    from core.languages.javascript.language import JavaScript

    project = next(p for p in PROJECTS if p.name == name)
    count = Count(name)
    found = snapshot(project)
    if isinstance(found, str):
        count.said = found
        return count
    git_dir, commit = found
    with tempfile.TemporaryDirectory(prefix="memfix-counts-") as scratch:
        tree = fresh_tree(git_dir, commit, Path(scratch) / name)
        link_node_modules(project, tree)
        package = json.loads((tree / "package.json").read_text())
        scripts = package.get("scripts", {})
        words = next((w for value in scripts.values() if (w := _eslint_words(value, scripts, 3)) is not None), ["."])
        # the team's command, reporting only (a wrapper's globs, gts's, may match nothing of one kind)
        command = ["eslint", "--no-error-on-unmatched-pattern", *(w for w in words if w != "--fix")]
        started = time.monotonic()
        done = subprocess.run([*command, "--format", "json"], cwd=tree, capture_output=True, text=True,
                              timeout=600, env={**os.environ, "PATH": f"{tree}/node_modules/.bin:{os.environ['PATH']}"})
        count.team_seconds = time.monotonic() - started
        try:
            reports = json.loads(done.stdout)
        except ValueError:
            count.said = f"the team's ESLint did not run ({done.stderr.strip()[:200]})"
            return count
        count.team = Counter((m.get("ruleId") or "parsing") for r in reports for m in r.get("messages", [])
                             if m.get("ruleId") or m.get("fatal"))
        (tree / "node_modules").unlink()  # memfix reads the checkout as a push has it: no installed packages
        memfix_count(JavaScript(Biome(), box), tree, count)
        link_node_modules(project, tree)
        env = {**os.environ, "PATH": f"{tree}/node_modules/.bin:{os.environ['PATH']}"}
        count.push_team = _median(lambda: subprocess.run(["eslint", "--format", "json", *count.push], cwd=tree,
                                                         capture_output=True, env=env, timeout=600))
    return count


def python(name: str, box) -> Count:  # noqa: ANN001
    from benchmarks.peers import PROJECTS, fresh_tree, sdist
    from core.languages.python.language import Python
    from core.languages.python.ruff import Ruff
    from core.tools.pins import Pin, find_pins

    project = next(p for p in PROJECTS if p.requirement.split("==")[0] == name)
    count = Count(name)
    with tempfile.TemporaryDirectory(prefix="memfix-counts-") as scratch:
        tree = fresh_tree(sdist(project.requirement), Path(scratch) / "tree")

        def read(path: str) -> str | None:
            target = tree / path
            return target.read_text(errors="replace") if target.is_file() else None

        pin = find_pins(read).get("flake8") or Pin("flake8", "pypi", "flake8", None)
        installed = box.cache.ensure(pin)
        started = time.monotonic()
        done = subprocess.run([str(installed.folder / "bin" / "flake8"), "--exit-zero", "--format=%(code)s"],
                              cwd=tree, capture_output=True, text=True, timeout=600)
        count.team_seconds = time.monotonic() - started
        count.team = Counter(line.strip() for line in done.stdout.splitlines() if line.strip())
        if ruff := find_pins(read).get("ruff"):  # the team's ruff too, where it pins one: `ruff check` in the tree
            started = time.monotonic()
            ruffs = subprocess.run([str(box.cache.ensure(ruff).folder / "bin" / "ruff"), "check", "--exit-zero",
                                    "--no-cache", "--output-format", "json", "."], cwd=tree, capture_output=True,
                                   text=True, timeout=600)
            count.team_seconds += time.monotonic() - started
            count.team.update(item["code"] or "E999" for item in json.loads(ruffs.stdout or "[]"))
        hooks = _hooks(read, box)  # the team's hooks that rewrite: the team's time includes theirs, as memfix's does
        count.team_seconds += _rewrite(tree, hooks, None)
        memfix_count(Python(Ruff(), box), tree, count)

        def team_push() -> None:
            subprocess.run([str(installed.folder / "bin" / "flake8"), *count.push], cwd=tree, capture_output=True,
                           timeout=600)
            _rewrite(tree, hooks, count.push)

        count.push_team = _median(team_push)
    return count


def _hooks(read, box) -> list[list[str]]:  # noqa: ANN001
    """The commands of the team's pre-commit hooks that rewrite and of its black, as memfix runs them."""
    from core.languages.python.language import _command
    from core.languages.python.rules import REWRITES
    from core.tools.pins import PRE_COMMIT, find_pins

    pins = find_pins(read)
    commands = []
    for tool in (*REWRITES, "black"):
        pin = pins.get(tool)
        if pin is not None and (tool == "black" or PRE_COMMIT in pin.source):
            commands.append(list(_command(tool)(box.cache.ensure(pin).folder, pin)))
    return commands


def _rewrite(tree: Path, commands: list[list[str]], files: list[str] | None) -> float:
    """Each command on a copy of `files` (every `.py` file where None): its seconds."""
    if not commands:
        return 0.0
    with tempfile.TemporaryDirectory(prefix="memfix-counts-hooks-") as scratch:
        copy = Path(scratch) / "tree"
        shutil.copytree(tree, copy, symlinks=True)
        paths = files or sorted(p.relative_to(copy).as_posix() for p in copy.rglob("*.py"))
        started = time.monotonic()
        for command in commands:
            subprocess.run([*command, *paths], cwd=copy, capture_output=True, timeout=600)
        return time.monotonic() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--project", help="one project by name, e.g. picomatch or six")
    args = parser.parse_args()
    from benchmarks.replay_js import ESLINT_PROJECTS

    box = toolbox()
    chosen = [("javascript", n) for n in ESLINT_PROJECTS] + [("python", n) for n in FLAKE8_PROJECTS]
    chosen = [(k, n) for k, n in chosen if not args.project or args.project == n]
    print(f"{'project':16s} {'memfix runs':34s} {'team':>6s} {'memfix':>6s} {'equal':>5s} {'team s':>7s} "
          f"{'memfix s':>7s} {'ratio':>7s}")
    counts = []
    for kind, name in chosen:
        print(f"… {name}", file=sys.stderr, flush=True)
        try:
            count = javascript(name, box) if kind == "javascript" else python(name, box)
        except Exception as exc:  # noqa: BLE001 — one project's failure is said, the others go on
            count = Count(name, said=f"failed: {exc!r}"[:300])
        print(count.line(), flush=True)
        for rule in sorted(set(count.team) | set(count.memfix)):
            if count.team[rule] != count.memfix[rule]:
                print(f"    {rule}: team {count.team[rule]}, memfix {count.memfix[rule]}")
        counts.append(count)
    ran = [c for c in counts if not c.said]
    equal = sum(sum(c.team.values()) == sum(c.memfix.values()) for c in ran)
    team_s, ours_s = sum(c.team_seconds for c in ran), sum(c.memfix_seconds for c in ran)
    pushed = [c for c in ran if c.push]
    print(f"pushes of three files: the team's tool {sum(c.push_team for c in pushed):.1f} s in all, memfix "
          f"{sum(c.push_memfix for c in pushed):.1f} s")
    print(f"team_counts: {equal} of {len(ran)} projects equal, team {sum(sum(c.team.values()) for c in ran)} "
          f"findings, memfix {sum(sum(c.memfix.values()) for c in ran)}; memfix "
          f"{ours_s / team_s if team_s else 0:.2f}x the team's tool's time ({ours_s:.1f} s against {team_s:.1f} s)")
    shutil.rmtree(Path(tempfile.gettempdir()) / "memfix-counts", ignore_errors=True)


if __name__ == "__main__":
    main()
