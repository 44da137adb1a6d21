"""Detect: ruff on a checkout's Python files, read back as findings.

`--isolated` because memfix's verdict must not depend on the repository's own ruff configuration (which may
silence the very rules a pipeline exists for); the repository chooses rules through `.github/memfix.yml`.
"""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from core.errors import PermanentError
from core.models import Finding

TARGET_VERSION = "py311"
_COMMON = ("--isolated", "--no-cache", "--exit-zero", "--target-version", TARGET_VERSION)
_BATCH_CHARS = 16_000  # far below any platform's command-line limit
_SKIP_DIRS = {"__pycache__", "node_modules", "site-packages", "venv"}  # plus every hidden directory


class DetectError(PermanentError):
    """ruff could not check or fix the files; the message carries what ruff said."""


def selected(code: str, select: Iterable[str]) -> bool:
    """Whether a rule code falls under ruff selectors (`F` covers `F401`; `ALL` covers everything)."""
    return any(s == "ALL" or code.startswith(s) for s in select)


def inside(root: Path, path: str) -> Path:
    """`root / path`, refusing a path that leaves `root` (paths can come from comments)."""
    target = (root / path).resolve()
    if not target.is_relative_to(root.resolve()):
        raise PermanentError(f"{path} is outside the repository")
    return target


def python_files(root: Path, candidates: Iterable[str]) -> list[str]:
    """Existing `.py` files among `candidates`, relative to `root` with `/`, in order, each once.

    A directory stands for the `.py` files under it (hidden directories, `venv`, `__pycache__` and the like
    skipped); anything missing, not Python, or outside `root` is left out.
    """
    root = Path(root).resolve()
    found: dict[str, None] = {}
    for candidate in candidates:
        try:
            target = inside(root, candidate)
        except PermanentError:
            continue
        files = _walk(target) if target.is_dir() else [target] if target.suffix == ".py" and target.is_file() else []
        found.update((f.relative_to(root).as_posix(), None) for f in files)
    return list(found)


def _walk(directory: Path) -> Iterator[Path]:
    for dirpath, dirnames, filenames in os.walk(directory):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and d not in _SKIP_DIRS)
        yield from (Path(dirpath, name) for name in sorted(filenames) if name.endswith(".py"))


def _batches(paths: list[str]) -> Iterator[list[str]]:
    batch: list[str] = []
    size = 0
    for path in paths:
        if batch and size + len(path) > _BATCH_CHARS:
            yield batch
            batch, size = [], 0
        batch.append(path)
        size += len(path) + 1
    if batch:
        yield batch


def _trimmed(text: str, limit: int = 600) -> str:
    text = text.strip()
    return text if len(text) <= limit else "…" + text[-limit:]


class Ruff:
    """The ruff binary, run as a subprocess (never through a shell)."""

    def __init__(self, binary: str | None = None, timeout: float = 300.0):
        self.binary = binary or _find_ruff()
        self.timeout = timeout

    def check(self, root: Path, paths: list[str], select: tuple[str, ...]) -> list[Finding]:
        """Findings for the `.py` files among `paths` (relative to `root`), sorted by place."""
        root = Path(root).resolve()
        files = python_files(root, paths)
        if not files or not select:
            return []
        findings: list[Finding] = []
        for batch in _batches(files):
            out = self._run(["--output-format", "json", "--select", ",".join(select), "--", *batch], cwd=root)
            try:
                findings.extend(_finding(root, item) for item in json.loads(out))
            except (ValueError, TypeError, KeyError, AttributeError) as exc:
                raise DetectError(f"ruff's output could not be read ({exc}): {_trimmed(out, 200)}") from exc
        return sorted(findings, key=lambda f: (f.path, f.line, f.column, f.code))

    def fix(self, root: Path, path: str, select: tuple[str, ...]) -> str | None:
        """The file with ruff's safe fixes for `select` applied, or None if nothing changed.

        ruff works on a copy in a scratch directory at the same relative path (so rules that look at the name,
        like F401 in `__init__.py`, behave alike); the checkout itself is never written.
        """
        source = inside(Path(root), path)
        if not source.is_file():
            raise DetectError(f"{path} does not exist")
        original = source.read_bytes()
        with tempfile.TemporaryDirectory(prefix="memfix-fix-") as scratch:
            copy = inside(Path(scratch), path)
            copy.parent.mkdir(parents=True, exist_ok=True)
            copy.write_bytes(original)
            self._run(["--fix", "--quiet", "--select", ",".join(select), "--", path], cwd=Path(scratch))
            updated = copy.read_bytes()
        return None if updated == original else updated.decode("utf-8")

    def _run(self, args: list[str], cwd: Path) -> str:
        command = [self.binary, "check", *_COMMON, *args]
        try:
            proc = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=self.timeout)
        except subprocess.TimeoutExpired as exc:
            raise DetectError(f"ruff did not finish within {self.timeout:g} s") from exc
        except OSError as exc:
            raise DetectError(f"ruff could not be started: {exc}") from exc
        if proc.returncode not in (0, 1):
            raise DetectError(f"ruff failed (exit {proc.returncode}): {_trimmed(proc.stderr) or 'no message'}")
        return proc.stdout


def _finding(root: Path, item: dict[str, Any]) -> Finding:
    filename = Path(item["filename"])
    path = filename.relative_to(root).as_posix() if filename.is_relative_to(root) else filename.as_posix()
    fix = item.get("fix") or {}
    return Finding(
        path=path, line=item["location"]["row"], column=item["location"]["column"],
        code=item.get("code") or item.get("name") or "invalid-syntax",  # older ruff reports syntax errors as null
        message=item["message"], fixable=fix.get("applicability") == "safe",
    )


def _find_ruff() -> str:
    try:
        from ruff.__main__ import find_ruff_bin

        return str(find_ruff_bin())
    except (ImportError, FileNotFoundError) as exc:
        raise DetectError("the ruff binary is not installed next to this Python") from exc
