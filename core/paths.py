"""Repository paths are data, checked once at the edge before they reach a URL or the filesystem.

A path from a comment, an issue, a configuration file or a payload must name a file inside the event's own
repository: relative, no `.` or `..` segment, no backslash, NUL or control character, no empty segment, and
none of that hidden behind percent-encoding. Pure and cheap to import (the webhook path may use it).
"""

from __future__ import annotations

import re
from fnmatch import fnmatchcase
from pathlib import PurePosixPath
from urllib.parse import quote, unquote

from core.errors import PermanentError

MAX_PATH_CHARS = 1024
MAX_PATTERN_CHARS = 200  # a path pattern (memfix.yml `ignore`, a hold's place)
# Where a team's CI lives, by the names teams give it (a checkout fetched file by file cannot list a folder; the
# GitHub workspace lists the commit's CI folder once and asks only for what is there).
WORKFLOW_FILES = tuple(f".github/workflows/{name}.{ext}" for name in (
    "ci", "lint", "linters", "linting", "tests", "test", "main", "build", "checks", "python", "python-package",
    "python-app", "node", "nodejs", "node.js", "pr", "push", "quality", "style", "static-analysis", "code-quality",
    "pre-commit") for ext in ("yml", "yaml"))
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


class PathError(PermanentError):
    """A path that could leave the repository or is not a path at all; the message says which rule it broke."""


def repo_path(text: object) -> str:
    """The normalised repository-relative path, or PathError. A leading `./` is dropped; nothing else is fixed."""
    if not isinstance(text, str) or not text.strip():
        raise PathError("a path must be non-empty text")
    path = text.strip()
    shown = repr(path[:80])
    if len(path) > MAX_PATH_CHARS:
        raise PathError(f"path {shown}… is longer than {MAX_PATH_CHARS} characters")
    while path.startswith("./"):
        path = path[2:]
    decoded = _fully_unquoted(path)
    for form in {path, decoded}:
        _check_characters(form, shown)
    for form in {path, decoded}:
        _check_segments(form, shown)
    if decoded != path:
        raise PathError(f"path {shown} is percent-encoded; give it as the file's plain name")
    return path


def _check_characters(form: str, shown: str) -> None:
    """PathError for a control character, a backslash, or an absolute start (`/`, `C:`)."""
    if _CONTROL.search(form):
        raise PathError(f"path {shown} contains a control character or NUL byte")
    if "\\" in form:
        raise PathError(f"path {shown} contains a backslash")
    if form.startswith("/") or re.match(r"^[A-Za-z]:", form):
        raise PathError(f"path {shown} is absolute; give it relative to the repository root")


def _check_segments(form: str, shown: str) -> None:
    """PathError for a `.` or `..` segment, which could leave the repository, or an empty one."""
    segments = form.split("/")
    if any(s in (".", "..") for s in segments):
        raise PathError(f"path {shown} has a `.` or `..` segment; paths stay inside the repository")
    if any(s == "" for s in segments):
        raise PathError(f"path {shown} has an empty segment")


def _fully_unquoted(text: str) -> str:
    """Decode repeatedly (`%252e` → `%2e` → `.`), as a chain of careless decoders might."""
    for _ in range(4):
        decoded = unquote(text)
        if decoded == text:
            break
        text = decoded
    return text


def url_path(path: str) -> str:
    """A checked path as URL segments, each percent-encoded: it can only ever address a file."""
    return "/".join(quote(segment, safe="") for segment in repo_path(path).split("/"))


def git_ref(text: object) -> str:
    """A branch name or commit sha fit for a URL: git's own rules for names, which forbid `..` and the rest."""
    if not isinstance(text, str) or not text or len(text) > 255 or _CONTROL.search(text) or "\\" in text \
            or ".." in text or text.startswith(("/", "-")) or text.endswith(("/", ".lock", ".")) or "//" in text \
            or "@{" in text or any(c in text for c in " ~^:?*[%"):
        raise PathError(f"{str(text)[:80]!r} is not a branch name or commit")
    return text


def inside(root: str, candidate: str) -> bool:
    """Whether the resolved `candidate` lies in the resolved `root` (symlinks followed, as the OS would)."""
    import os

    top = os.path.realpath(root)
    target = os.path.realpath(candidate)
    return target == top or target.startswith(top.rstrip(os.sep) + os.sep)


def path_matches(pattern: str, path: str) -> bool:
    """A `.gitignore`-style glob against a repository path (see the module's notes on `ignore`)."""
    return _matches(_pattern_parts(pattern), PurePosixPath(path.replace("\\", "/").removeprefix("./")).parts)


def argument_problem(text: str) -> str | None:
    """Why a path or pattern from a repository's configuration may not become a tool's argument — it could reach
    outside the checkout or be read as a flag — or None."""
    if not text.strip() or len(text) > MAX_PATTERN_CHARS:
        return f"is empty or longer than {MAX_PATTERN_CHARS} characters"
    if text.startswith("-"):
        return "would be read as a flag"
    if text.startswith(("/", "\\", "~")) or re.match(r"[A-Za-z]:", text):
        return "is not a path inside the repository"
    if ".." in re.split(r"[/\\]", text):
        return "leaves the repository (`..`)"
    if "$" in text or _CONTROL.search(text):
        return "names an environment variable or holds a control character"
    return None


def is_path_pattern(text: str) -> bool:
    """Whether `text` can be a repository path pattern: short, inside the repository, `/`-separated."""
    return 0 < len(text) <= MAX_PATTERN_CHARS and ".." not in text.split("/") and not {"\\", "\x00"} & set(text)


def _pattern_parts(pattern: str) -> tuple[str, ...]:
    text = pattern.strip().removeprefix("./")
    parts = PurePosixPath(text.lstrip("/")).parts
    parts = tuple(p for i, p in enumerate(parts) if not (p == "**" and i and parts[i - 1] == "**"))  # `**/**` = `**`
    return parts if "/" in text else ("**", *parts)


def _matches(pattern: tuple[str, ...], parts: tuple[str, ...]) -> bool:
    """The pattern's runs between `**`s found in the path in order, each at the first place it fits: the first run
    where the path starts (unless the pattern starts with `**`), each other anywhere after the one before (a later
    place never leaves more room for the rest), and whatever follows the last (the pattern named a directory the path
    lies under). Pattern × path segment matches at most, never an exponential search."""
    runs = _runs(pattern)
    at = 0
    for n, run in enumerate(runs):
        if n == 0 and pattern[:1] != ("**",):
            if not _fits(run, parts, 0):
                return False
            at = len(run)
            continue
        found = next((k for k in range(at, len(parts) - len(run) + 1) if _fits(run, parts, k)), None)
        if found is None:
            return False
        at = found + len(run)
    return True


def _runs(pattern: tuple[str, ...]) -> list[tuple[str, ...]]:
    """The pattern's segments between its `**`s (`a/**/b/c` → `a`, `b/c`; a leading or trailing `**` → an empty
    run)."""
    runs: list[tuple[str, ...]] = [()]
    for part in pattern:
        if part == "**":
            runs.append(())
        else:
            runs[-1] += (part,)
    return runs


def _fits(run: tuple[str, ...], parts: tuple[str, ...], at: int) -> bool:
    return len(parts) - at >= len(run) and all(fnmatchcase(parts[at + k], glob) for k, glob in enumerate(run))
