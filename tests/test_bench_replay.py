"""The replay benchmarks list each push's files as `memfix autofix --since PARENT` does, on a checkout of the commit:
the files the commit changed (a rename followed), each read at the parent, as git's own diff of the two commits has
them; nothing a run left in the tree is taken for a change of the next push."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from benchmarks.replay import Checkout, History
from core.pipelines.since import since

_ENV = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.com", "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True, check=True,
                          env=_ENV).stdout


def _commit(repo: Path, files: dict[str, str | None], message: str) -> None:
    for path, text in files.items():
        if text is None:
            _git(repo, "rm", "-q", path)
            continue
        (repo / path).parent.mkdir(parents=True, exist_ok=True)
        (repo / path).write_text(text)
        _git(repo, "add", path)
    _git(repo, "commit", "-q", "-m", message)


@pytest.fixture
def history(tmp_path: Path) -> History:
    repo = tmp_path / "project"
    repo.mkdir()
    _git(repo, "init", "-q", "-b", "main")
    body = "".join(f"def f{i}():\n    return {i}\n\n\n" for i in range(20))
    _commit(repo, {"a.py": "import os\n", "b.py": body, "pkg/c.py": "x = 1\n", "notes.txt": "one\n"}, "first")
    _commit(repo, {"a.py": "import os\nimport sys\n", "b.py": None, "pkg/b2.py": body + "y = 2\n",
                   "pkg/c.py": None, "d.py": "z = 3\n", "notes.txt": "two\n"}, "a push of every kind")
    _commit(repo, {"d.py": "z = 4\n", "web/app.js": "let a = 1;\n"}, "a small push")
    return History(repo / ".git")


def _pushed(history: History, parent: str, commit: str) -> dict[str, str | None]:
    """What git's diff of the two commits says the push changed: each source file still there, with its text at the
    parent (under its old name when renamed; None when added)."""
    expected: dict[str, str | None] = {}
    for line in history.git("diff", "--name-status", "-M", parent, commit).splitlines():
        status, *paths = line.split("\t")
        if status[0] in "AMR" and paths[-1].endswith((".py", ".js")):
            expected[paths[-1]] = None if status[0] == "A" else history.text(parent, paths[0])
    return expected


def test_each_push_lists_what_git_says_the_commit_changed_read_at_its_parent(history: History, tmp_path: Path):
    # Given a history of three commits and a checkout of it
    commits = history.commits(2)
    checkout = Checkout(history.git_dir, tmp_path / "tree")
    for parent, commit in zip(commits, commits[1:], strict=False):
        # When a push of each commit is listed
        branch = checkout.push(parent, commit)
        listed = branch.changed()
        # Then it is since()'s own listing on the commit's tree, and what git's diff of the two commits says
        assert _git(checkout.root, "rev-parse", "HEAD").strip() == commit
        assert listed.paths == since(checkout.root, parent).changed().paths
        assert {path: listed.previous(path) for path in listed.paths} == _pushed(history, parent, commit)


def test_a_rename_is_followed_and_what_a_run_left_behind_is_no_change_of_the_next_push(history: History,
                                                                                      tmp_path: Path):
    first, second, third = history.commits(2)
    checkout = Checkout(history.git_dir, tmp_path / "tree", excluded=("node_modules",))
    listed = checkout.push(first, second).changed()
    assert sorted(listed.paths) == ["a.py", "d.py", "pkg/b2.py"]  # pkg/c.py removed, notes.txt no source
    assert listed.previous("pkg/b2.py") == history.text(first, "b.py")  # renamed: read under its old name
    # Given a run that wrote a patch in, left a file of its own, and a link the benchmark keeps in the tree
    (checkout.root / "a.py").write_text("patched\n")
    (checkout.root / "left_by_a_test.py").write_text("junk = 1\n")
    (checkout.root / "node_modules").symlink_to(tmp_path, target_is_directory=True)
    # When the next push is listed
    listed = checkout.push(second, third).changed()
    # Then it is the commit's change only, in the commit's tree, and the link stays
    assert sorted(listed.paths) == ["d.py", "web/app.js"]
    assert (checkout.root / "a.py").read_text() == "import os\nimport sys\n"
    assert not (checkout.root / "left_by_a_test.py").exists()
    assert (checkout.root / "node_modules").is_symlink()
