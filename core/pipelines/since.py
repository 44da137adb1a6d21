"""A local branch as its push would be: the files changed between REF and the working tree, each read at REF.

`memfix autofix DIR --since REF` runs on these as a push's run does (core/pipelines/brought.py `changed`). git is
run by memfix's own process, bounded (core/tools/process.py), and never runs the repository's code: none of these
commands has hooks, fsmonitor and external diffs are off, textconv is off, every filter driver the configuration
names is switched off, and the texts at REF are read as blobs, as GitHub serves them. Nothing in the repository is
written: untracked files join the comparison in a copy of the index.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from core.errors import PermanentError
from core.languages.registry import language_of
from core.paths import PathError, repo_path
from core.pipelines.brought import Change, Changed, Status, changed
from core.tools.process import ToolFailed, run

GIT_SECONDS = 60.0  # one git command, at most: each reads the repository once, far below it
_SAFE = ("-c", "core.fsmonitor=false", "-c", "core.splitIndex=false", "--no-pager", "--no-optional-locks",
         "--literal-pathspecs")
FILTER_OFF = ("clean=", "smudge=", "process=", "required=false")  # an empty command: no filter runs
_STATUS = {"A": Status.ADDED, "D": Status.REMOVED, "R": Status.RENAMED}  # M, T (type) and U (unmerged): modified


class SinceRefused(PermanentError):
    """A `--since` that names no base a push could have: said in one sentence, and nothing else is done."""


@dataclass(frozen=True)
class Since:
    """The repository's working tree and REF's commit, and what changed between them."""

    root: Path  # the repository's top folder
    ref: str  # as the person named it
    base: str  # its commit
    changes: list[Change]
    git: _Git = field(repr=False)

    def text(self, path: str) -> str | None:
        """A path's text at the base, as its blob holds it; None where it has none."""
        shown = self.git("cat-file", "blob", f"{self.base}:{path}")
        return shown.stdout if shown.returncode == 0 else None

    def changed(self, scope: str = ".") -> Changed:
        """The changed source files under `scope` (a folder or file of the repository), each read at the base."""
        kept = [c for c in self.changes if c.new is None or _within(c.new, scope) and _source(c.new)]
        return changed(kept, self.text)

    def said(self, run: Changed) -> str:
        """What the run covers, for its notes."""
        return (f"since {self.ref} ({self.base[:12]}): {len(run.paths)} changed file(s) memfix works on, working tree "
                "included; only what they brought is fixed, as a push of them would have it")


def since(folder: Path, ref: str) -> Since:
    """What changed in `folder`'s repository since `ref`: refused, in one sentence, where no push could start there."""
    top = _Git.at(folder)("rev-parse", "--show-toplevel")
    if top.returncode != 0 or not top.stdout.strip():
        raise SinceRefused(f"--since compares with a commit of a git repository, and {folder} is not in one")
    git = _Git.at(Path(top.stdout.strip()))
    known = git("rev-parse", "--verify", "--quiet", "--end-of-options", f"{ref}^{{commit}}")
    if known.returncode != 0 or not known.stdout.strip():
        raise SinceRefused(f"git knows no commit {ref!r} in {git.root}")
    base = known.stdout.strip()
    if git("merge-base", "--is-ancestor", base, "HEAD").returncode != 0:
        raise SinceRefused(f"{ref} ({base[:12]}) is not an ancestor of HEAD, so no push from it brings this branch: "
                           "name a commit the branch grew from (`git merge-base origin/main HEAD` finds one)")
    return Since(git.root, ref, base, _changes(git, base), git)


def _changes(git: _Git, base: str) -> list[Change]:
    """`git diff -M` from the base to the working tree, untracked files (not ignored) included as added: they join a
    copy of the index as intended additions, so a file moved without `git mv` is followed too."""
    untracked = git("ls-files", "-z", "--others", "--exclude-standard", check=True).stdout
    with tempfile.TemporaryDirectory(prefix="memfix-since-") as scratch:
        index = Path(scratch) / "index"
        real = git.root / git("rev-parse", "--git-path", "index", check=True).stdout.strip()
        if real.is_file():
            shutil.copy2(real, index)  # its time too: git trusts what changed in the same second only by it
        copy = {**os.environ, "GIT_INDEX_FILE": str(index)}  # the repository's own index is never written
        if untracked:
            git("add", "--intent-to-add", "--pathspec-from-file=-", "--pathspec-file-nul", env=copy, input=untracked,
                check=True)
        diff = git("diff", "--name-status", "-z", "-M", "--no-ext-diff", "--no-textconv", "--no-relative",
                   "--no-color", base, "--", env=copy, check=True)
    return _parsed(diff.stdout.split("\0"))


def _parsed(fields: list[str]) -> list[Change]:
    """`--name-status -z` output: a status, then one path (two for a rename), each ended by NUL."""
    changes, at = [], 0
    while at < len(fields) and fields[at]:
        status = _STATUS.get(fields[at][0], Status.MODIFIED)
        if status == Status.RENAMED:
            changes.append(Change(status, fields[at + 1], fields[at + 2]))
            at += 3
            continue
        path = fields[at + 1]
        changes.append(Change(status, None if status == Status.ADDED else path,
                              None if status == Status.REMOVED else path))
        at += 2
    return changes


@dataclass(frozen=True)
class _Answer:
    returncode: int
    stdout: str


@dataclass(frozen=True)
class _Git:
    """git in one folder, bounded, with every filter driver the configuration names switched off (a clean filter is
    a program git would run on the working tree's files)."""

    root: Path
    settings: tuple[str, ...]

    @staticmethod
    def at(folder: Path) -> _Git:
        bare = _Git(folder, _SAFE)
        names = bare("config", "--name-only", "-z", "--get-regexp", r"^filter\.").stdout
        drivers = sorted({key[len("filter."):].rpartition(".")[0] for key in names.split("\0")
                          if key.startswith("filter.")})
        return _Git(folder, (*_SAFE, *(arg for name in drivers for setting in FILTER_OFF
                                       for arg in ("-c", f"filter.{name}.{setting}"))))

    def __call__(self, *args: str, env: dict[str, str] | None = None, input: str | None = None,
                 check: bool = False) -> _Answer:
        try:
            done = run(["git", "-C", str(self.root), *self.settings, *args], what=f"git {args[0]}", env=env,
                       input=input, cap=GIT_SECONDS)
        except ToolFailed as exc:
            raise SinceRefused(f"--since reads the repository with git, and {exc}") from exc
        if check and done.returncode != 0:
            raise SinceRefused(f"git {args[0]} failed in {self.root}: {done.stderr.strip()[:200]}")
        return _Answer(done.returncode, done.stdout)


def _within(path: str, scope: str) -> bool:
    return scope == "." or path == scope or path.startswith(scope.rstrip("/") + "/")


def _source(path: str) -> bool:
    """A file memfix works on, under a path that is safe to read."""
    try:
        return language_of(repo_path(path)) is not None
    except PathError:
        return False
