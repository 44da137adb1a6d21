"""What the test suite leaves in the checkout: nothing. A snapshot of every file outside the suite's own scratch
folders before the session, compared with one after it (tests/conftest.py)."""

from __future__ import annotations

import os
from pathlib import Path

# The suite's own places (build/: pytest's basetemp, the compiled bytecode, the package cache), the environment and
# the caches of tools run beside it: written by design, never by a test's mistake.
SCRATCH = frozenset({".git", ".venv", "build", "__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache"})

Snapshot = dict[str, tuple[int, int]]


def snapshot(root: Path) -> Snapshot:
    """Each file's (modification time, size) by its path under root, scratch folders left out; links not followed."""
    files: Snapshot = {}
    for folder, dirs, names in os.walk(root):
        dirs[:] = [d for d in dirs if d not in SCRATCH]
        for name in names:
            path = os.path.join(folder, name)
            try:
                stat = os.lstat(path)
            except FileNotFoundError:  # removed while we walked
                continue
            files[os.path.relpath(path, root)] = (stat.st_mtime_ns, stat.st_size)
    return files


def changes(before: Snapshot, after: Snapshot) -> list[str]:
    """What appeared, disappeared or changed between two snapshots, as `+ path`, `- path`, `~ path` lines."""
    return sorted([f"+ {p}" for p in after.keys() - before.keys()]
                  + [f"- {p}" for p in before.keys() - after.keys()]
                  + [f"~ {p}" for p in before.keys() & after.keys() if before[p] != after[p]])
