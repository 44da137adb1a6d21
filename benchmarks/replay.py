"""Pushes replayed: what memfix's AutoFix would have proposed on each push of a real project's history, judged by
what the team did next.

Run: `python -m benchmarks.replay [GIT_DIR ...] [--pushes N] [--window K]`. Prints numbers; asserts nothing.

Each project is a public repository's git history (default: the snapshots `fetch` brings under `/work/.mirror`,
`pallets/itsdangerous` and `pallets/markupsafe`; a missing one is said and skipped). Its first-parent commits are
replayed oldest first, the last N of them (default 150), each as a push of its changes, through memfix's own command:
the commit is checked out in a working tree whose history holds its parent (a `--shared` clone of the snapshot,
moved from commit to commit: `Checkout`), and `memfix autofix TREE --since PARENT --language python` runs on it in
this process (handlers/cli.py `pipeline_runs`, the function the command calls; `Command`), on services started once
for the whole replay — an embedded PostgreSQL in a scratch folder, no model, the team's tools from the usual cache:
1. the push's files and each one's text at the parent are `--since`'s own listing (core/pipelines/since.py: git's
   diff from the parent, renames followed), as a push's payload gives them to the App;
2. the judge is the team's own linter at that commit, as a push's run has it: the team's flake8 (its settings and
   plugins) and ruff at the versions the commit pins (one it pins to no exact version at the release current at
   the commit's time, as the push's CI installed it: `released_by`), installed and run in the sandbox; where one
   cannot run (or with `--memfix-own`: MEMFIX_TEAM_TOOLS off), memfix's reading of the configuration the commit
   holds;
3. the push's new findings, memfix's patches and their verification are the command's run (core/pipelines/runner.py:
   the changed files' findings not there at the parent, the linter's own edits for them, verified with the
   project's checks and promoted by confidence); a proposal is a promoted patch, a vetoed file a patch that was not;
   where the commit configures no linter, nothing is proposed (ruff's defaults are memfix's preference): as a push's
   run does, at most once a week one kind in one file is suggested, counted apart (the command run with `--rules`
   on the defaults to find the kinds, then on the first file of the kind with the most findings, `--rules KIND`);
4. the answer key is the team's later commits (the next K, default 40): a finding the team fixed is one whose
   kind's count in that file went down; memfix's fix matches the team's when every line it wrote is in the file
   the team's fix left.

Printed per project and in total: pushes, pushes with new findings, new findings, findings the team fixed later,
memfix's proposals (findings and files), proposals matching the team's own later fix, proposals the team never made
within the window (PRs it would not have made), findings the team fixed with a fix its tool has that memfix did not
propose (missed), and findings the team fixed that no tool fixes (by hand).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field, fields, replace
from datetime import UTC, datetime
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from core.pipelines.since import Since
    from core.pipelines.values import RunReport

ROOT = Path(__file__).resolve().parents[1]
MIRRORS = Path("/work/.mirror")
PROJECTS = ("pallets/itsdangerous", "pallets/markupsafe", "psf/requests", "pallets/flask")


class Summed:
    """A tally that adds up field by field: counters, Counters and lists alike."""

    def add(self, other: Summed) -> None:
        for f in fields(self):  # type: ignore[arg-type]
            setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))


@dataclass
class Tally(Summed):
    pushes: int = 0
    with_new: int = 0
    new: int = 0
    team_fixed: int = 0
    proposed: int = 0
    proposed_files: int = 0
    vetoed_files: int = 0
    matched: int = 0
    fixed_proposed: int = 0  # proposed, and the team fixed it later (the same change or its own)
    not_made: int = 0  # proposed, and the team never fixed it in the window
    missed: int = 0  # the team fixed it with a fix its tool has, memfix proposed nothing for it
    by_hand: int = 0  # the team fixed it, and its tool has no fix for it
    unconfigured: int = 0  # pushes at commits that configure no linter: memfix's own rules only surveyed
    suggested: int = 0  # memfix's own suggestions there (one kind in one file, at most one a week), in findings
    suggested_made: int = 0  # of them, what the team fixed later too
    seconds: float = 0.0
    codes: Counter[str] = field(default_factory=Counter)
    examples: list[str] = field(default_factory=list)  # what was proposed and not made, or missed (--show)

    def line(self, label: str) -> str:
        return (f"{label:28s} {self.pushes:6d} {self.with_new:6d} {self.new:6d} {self.team_fixed:6d} "
                f"{self.proposed:6d} {self.proposed_files:6d} {self.vetoed_files:6d} {self.matched:6d} "
                f"{self.not_made:6d} {self.missed:6d} {self.by_hand:6d} {self.seconds:7.1f}")


class History:
    """One git directory, read with `git` (the repository's code is never run)."""

    def __init__(self, git_dir: Path):
        self.git_dir = git_dir

    def git(self, *args: str) -> str:
        return subprocess.run(["git", "--git-dir", str(self.git_dir), *args], capture_output=True, text=True,
                              errors="surrogateescape", check=False).stdout

    def when(self, commit: str) -> int:
        return int(self.git("show", "-s", "--format=%ct", commit).strip() or 0)

    def commits(self, n: int) -> list[str]:
        return list(reversed(self.git("rev-list", "--first-parent", f"-n{n + 1}", "HEAD").split()))

    @lru_cache(maxsize=20_000)  # noqa: B019 — one History per project, kept for the run
    def text(self, commit: str, path: str) -> str | None:
        out = subprocess.run(["git", "--git-dir", str(self.git_dir), "show", f"{commit}:{path}"],
                             capture_output=True, check=False)
        if out.returncode != 0 or len(out.stdout) > 1_000_000:
            return None
        try:
            return out.stdout.decode("utf-8")
        except UnicodeDecodeError:
            return None

    def renamed(self, before: str, after: str, path: str) -> str | None:
        """Where `path` went between two commits, when git sees a rename."""
        for line in self.git("diff", "--name-status", "-M", before, after).splitlines():
            parts = line.split("\t")
            if parts[0].startswith("R") and len(parts) == 3 and parts[1] == path:
                return parts[2]
        return None


class Checkout:
    """The project as a git working tree whose history holds every replayed commit: a `--shared` clone of the snapshot
    (its objects borrowed, nothing written to it), moved from commit to commit, as a push's run has its checkout (a
    tool reads the layout: which packages are first-party, the configuration of each folder)."""

    def __init__(self, git_dir: Path, into: Path, excluded: tuple[str, ...] = ()):
        subprocess.run(["git", "clone", "--quiet", "--shared", "--no-checkout", str(git_dir), str(into)],
                       capture_output=True, check=True)
        self.root, self.excluded = into, excluded
        if excluded:  # what the benchmark puts in the tree (node_modules linked in) is no change of the push's
            (into / ".git" / "info").mkdir(exist_ok=True)
            (into / ".git" / "info" / "exclude").write_text("".join(f"/{name}\n" for name in excluded))

    def git(self, *args: str) -> str:
        return subprocess.run(["git", "-C", str(self.root), *args], capture_output=True, text=True, check=True,
                              errors="surrogateescape").stdout

    def push(self, parent: str, commit: str) -> Since:
        """The tree at `commit`, and what a push of it from `parent` brings: `memfix autofix --since PARENT`'s own
        listing (a file a build or test run left behind, or a patch written in, is gone first: no change of the
        push's)."""
        from core.pipelines.since import since

        for left in self.git("ls-files", "-z", "--others").split("\0"):  # ignored or not: the tree as the commit's
            if left and left.split("/")[0] not in self.excluded:
                (self.root / left).unlink(missing_ok=True)
        self.git("checkout", "--quiet", "--force", "--detach", commit)
        return since(self.root, parent)


class Command:
    """`memfix autofix TREE --since PARENT --language L [--rules R]`, run in this process through the function the
    command calls (handlers/cli.py `pipeline_runs`), on services started once for the whole replay: an embedded
    PostgreSQL in a scratch folder (no memory of a person's own memfix is read or written), no model, the team's tools
    from the usual cache (`own`: memfix's own reading instead)."""

    def __init__(self, own: bool):
        from core.settings import get_settings
        from core.wiring import Services

        settings = get_settings()
        self._scratch = tempfile.TemporaryDirectory(prefix="memfix-replay-db-")
        self.services = Services(replace(settings, data_dir=Path(self._scratch.name), database_url=None,
                                         database_app_url=None, tool_cache_setting=settings.tool_cache,
                                         team_tools=settings.team_tools and not own, llm_provider="offline",
                                         llm_model=None, embeddings="none"), local=True)
        self.failed: list[str] = []

    def has(self, language: str) -> bool:
        """Whether the command works on this language here (JavaScript: Biome is installed)."""
        return any(known.name == language for known in self.services.languages)

    def language(self, name: str) -> Any:
        return next(language for language in self.services.languages if language.name == name)

    def autofix(self, path: Path, parent: str, language: str, rules: tuple[str, ...] = ()) -> RunReport | None:
        """The command's run (None: it did not finish, and why is kept in `failed`)."""
        from core.errors import MemfixError
        from handlers.cli import build_parser, pipeline_runs

        argv = ["autofix", str(path), "--since", parent, "--language", language, "--json"]
        args = build_parser().parse_args([*argv, *(["--rules", ",".join(rules)] if rules else [])])
        try:
            report = pipeline_runs(args, self.services)[0]
        except MemfixError as exc:
            report = None
            self.failed.append(f"{path} since {parent[:9]}: {exc}")
        if report is not None and report.failed:
            self.failed.append(f"{path} since {parent[:9]}: {report.failed}")
            return None
        return report

    def close(self) -> None:
        self.services.close(grace_seconds=5)
        self._scratch.cleanup()


def replay(history: History, pushes: int, window: int, command: Command) -> Tally:
    from core.languages.registry import language_of
    from core.tools.releases import released_by

    tally = Tally()
    language = command.language("python")
    commits = history.commits(pushes)
    began, suggested_at = time.perf_counter(), -WEEK
    with tempfile.TemporaryDirectory(prefix="memfix-replay-") as scratch:
        checkout = Checkout(history.git_dir, Path(scratch) / "tree")
        for i in range(1, len(commits)):
            parent, commit = commits[i - 1], commits[i]
            tally.pushes += 1
            if not [p for p in checkout.push(parent, commit).changed().paths if language_of(p) == "python"]:
                continue
            with released_by(datetime.fromtimestamp(history.when(commit), UTC)):  # as the push's CI installed them
                suggested_at = _push(history, checkout, language, command, commits[i - 1:i + 1 + window], tally,
                                     suggested_at)
    tally.seconds = time.perf_counter() - began
    return tally


def _push(history: History, checkout: Checkout, language: Any, command: Command, commits: list[str], tally: Tally,
          suggested_at: int) -> int:
    """One push (`commits`: its parent, its commit, then the window after it) replayed and tallied; returns when
    memfix last suggested a kind of its own (at most one a week)."""
    from core.pipelines.config import RepoConfig

    parent, commit, later = commits[0], commits[1], commits[2:]
    project = language.project(lambda p, c=commit: history.text(c, p), RepoConfig(), "autofix")
    push = Push(history, project.linter(), project.selection.rules or project.selection.could, commit, later)
    if project.selection.rules:
        one_push(push, command.autofix(checkout.root, parent, "python"), tally)
        return suggested_at
    tally.unconfigured += 1  # nobody chose a rule: as a run does, at most one suggestion of memfix's a week
    if history.when(commit) - suggested_at >= WEEK:
        own = Tally()
        one_push(push, _suggestion(command, checkout.root, parent, push.rules), own)
        tally.suggested, tally.suggested_made = tally.suggested + own.proposed, \
            tally.suggested_made + own.proposed - own.not_made
        tally.examples += [f"memfix's suggestion, {e}" for e in own.examples]
        suggested_at = history.when(commit) if own.proposed else suggested_at
    return suggested_at


WEEK = 7 * 24 * 3600


def _suggestion(command: Command, root: Path, parent: str, could: tuple[str, ...]) -> RunReport | None:
    """memfix's own suggestion on a push: of what the push brought under the rules it could propose, the kind with the
    most findings, in its first file only — the command run again on that file with that kind named."""
    from core.languages.adapter import covering

    survey = command.autofix(root, parent, "python", could)
    kinds = Counter(kind for f in survey.findings if (kind := covering(f.code, could))) if survey else Counter()
    if not kinds:  # nothing brought, or only what no kind covers (a file that does not parse)
        return None
    kind = kinds.most_common(1)[0][0]
    first = next(f.path for f in survey.findings if covering(f.code, could) == kind)
    return command.autofix(root / first, parent, "python", (kind,))


@dataclass(frozen=True)
class Push:
    """One replayed push: the history, the team's linter and rules at the commit, and the commits after it."""

    history: History
    linter: Any
    rules: tuple[str, ...]
    commit: str
    later: list[str]


def one_push(push: Push, report: RunReport | None, tally: Tally) -> None:
    """The command's run on one push, tallied: what the push brought, the files memfix proposed (promoted) and the
    ones whose patch was not, and each new finding judged against the team's later commits."""
    if report is None or not report.findings:
        return
    tally.with_new += 1
    tally.new += len(report.findings)
    tally.codes.update(f.code for f in report.findings)
    kept = {o.path: o.patch for o in report.promoted if o.patch is not None}
    tally.proposed_files += len(kept)
    tally.vetoed_files += sum(o.patch is not None and o.path not in kept for o in report.outcomes)
    by_file: dict[str, list] = {}
    for f in report.findings:
        by_file.setdefault(f.path, []).append(f)
    for path, findings in by_file.items():
        _judge(push, path, findings, kept.get(path), tally)


def _judge(push: Push, path: str, findings: list, patch, tally: Tally) -> None:
    """Each new finding of one file against the team's later commits: fixed or not, and by memfix's fix or not."""
    history, commit = push.history, push.commit
    fixed_at = _fixed_later(history, push.linter, push.rules, path, findings, commit, push.later)
    for f in findings:
        proposed = patch is not None and f in patch.findings
        tally.proposed += proposed
        team, where = fixed_at.get(id(f), (None, path))
        tally.team_fixed += team is not None
        tally.fixed_proposed += proposed and team is not None
        if proposed and team is None:
            tally.not_made += 1
            tally.examples.append(f"not made: {commit[:9]} {path}:{f.line} {f.code} {f.message}")
        elif proposed and team is not None and _matches(patch, history.text(team, where)):
            tally.matched += 1
        elif not proposed and team is not None and not (f.edits or f.unsafe_edits):
            tally.by_hand += 1  # the team's tool has no fix for it either: a person's work
        elif not proposed and team is not None:
            tally.missed += 1
            tally.examples.append(f"missed: {commit[:9]} {path}:{f.line} {f.code} {f.message}")


def _fixed_later(history: History, linter, rules: tuple[str, ...], path: str, findings: list, commit: str,
                 later: list[str]) -> dict[int, tuple[str, str]]:
    """For each finding, the later commit whose version of the file has fewer findings of its kind (the team's
    fix) and the file's path there, within the window; a file the team renames is followed."""
    before = _count(linter, rules, path, history.text(commit, path))
    fixed: dict[int, tuple[str, str]] = {}
    waiting = list(findings)
    previous, previous_text, now_at = commit, history.text(commit, path), path
    for sha in later:
        text = history.text(sha, now_at)
        if text is None and (moved := history.renamed(previous, sha, now_at)):
            now_at, text = moved, history.text(sha, moved)
        if text is None:
            break  # removed: the answer key ends there
        previous = sha
        if text == previous_text:
            continue
        previous_text = text
        now = _count(linter, rules, path, text)  # counted under its first name: per-file settings stay the same
        for key in {f.key for f in waiting}:
            drop = before[key] - now[key]
            for f in [f for f in waiting if f.key == key][:max(drop, 0)]:
                fixed[id(f)] = (sha, now_at)
                waiting.remove(f)
        if not waiting:
            break
    return fixed


def _count(linter, rules: tuple[str, ...], path: str, text: str | None) -> Counter:
    if text is None:
        return Counter()
    with tempfile.TemporaryDirectory(prefix="memfix-replay-") as scratch:
        (Path(scratch) / path).parent.mkdir(parents=True, exist_ok=True)
        (Path(scratch) / path).write_text(text)
        return Counter(f.key for f in linter.check(Path(scratch), [path], rules, listed=True))


def _matches(patch, team_text: str | None) -> bool:
    """memfix's fix is the team's when every line it wrote stands in the file the team's fix left."""
    if team_text is None:
        return False
    written = [line[1:].strip() for line in patch.changed_lines() if line.startswith("+") and line[1:].strip()]
    lines = {line.strip() for line in team_text.splitlines()}
    return all(w in lines for w in written)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("git_dirs", nargs="*", type=Path)
    parser.add_argument("--pushes", type=int, default=150)
    parser.add_argument("--window", type=int, default=40)
    parser.add_argument("--show", type=int, default=0, help="list this many proposals not made and findings missed")
    parser.add_argument("--memfix-own", action="store_true",
                        help="memfix's own reading of the configuration, not the team's tools")
    args = parser.parse_args()
    dirs = args.git_dirs or [MIRRORS / name.replace("/", "+") / "repo" for name in PROJECTS]
    print(f"pushes replayed (the last {args.pushes} first-parent commits of each, the team's next {args.window} "
          "commits as the answer key)")
    print(f"{'project':28s} {'pushes':>6s} {'w/new':>6s} {'new':>6s} {'fixed':>6s} {'prop':>6s} {'files':>6s} "
          f"{'vetoed':>6s} {'match':>6s} {'notmd':>6s} {'missed':>6s} {'byhand':>6s} {'sec':>7s}")
    total, command = Tally(), Command(args.memfix_own)
    try:
        for git_dir in dirs:
            label = git_dir.parent.name.replace("+", "/") if git_dir.name == "repo" else git_dir.name
            if not git_dir.exists():
                print(f"{label:28s} skipped: no snapshot at {git_dir} (fetch it first)")
                continue
            tally = replay(History(git_dir), args.pushes, args.window, command)
            print(tally.line(label), flush=True)
            total.add(tally)
    finally:
        command.close()
    print(total.line("total"))
    for failure in command.failed:
        print(f"a run that did not finish: {failure}")
    print(f"new findings by rule: {', '.join(f'{c} {n}' for c, n in total.codes.most_common(12)) or 'none'}")
    for example in total.examples[:args.show]:
        print(f"  {example}")
    print(f"replay: {total.pushes} pushes, {total.new} new findings, the team fixed {total.team_fixed} later; memfix "
          f"proposed {total.proposed} ({total.proposed_files} files, {total.vetoed_files} vetoed by verification), "
          f"{total.matched} matching the team's own fix, {total.not_made} the team never made; of the findings "
          f"the team fixed, {total.missed} its tool had a fix for and memfix missed, {total.by_hand} no tool fixes")
    tooled = total.team_fixed - total.by_hand
    print(f"of the {tooled} findings the team fixed that its tool can fix, memfix proposed {total.fixed_proposed} "
          f"({total.matched} with the team's own change)")
    print(f"pushes at commits that configure no linter: {total.unconfigured} (ruff's defaults only surveyed); "
          f"memfix's own suggestions there, one kind in one file at most once a week: {total.suggested} finding(s), "
          f"{total.suggested_made} of them fixed by the team later too")


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))  # run as a script too: memfix's packages, `benchmarks` among them, from the checkout
    from benchmarks import stoppable

    stoppable()
    main()
