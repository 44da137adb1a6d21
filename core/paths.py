"""Repository paths are data, checked once at the edge before they reach a URL or the filesystem.

A path from a comment, an issue, a configuration file or a payload must name a file inside the event's own
repository: relative, no `.` or `..` segment, no backslash, NUL or control character, no empty segment, and
none of that hidden behind percent-encoding. Pure and cheap to import (the webhook path may use it).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING
from urllib.parse import quote, unquote

from core.errors import PermanentError

if TYPE_CHECKING:
    from pathspec import GitIgnoreSpec

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
    if not isinstance(text, str) or not text or len(text) > 255 or _forbidden_in_ref(text):
        raise PathError(f"{str(text)[:80]!r} is not a branch name or commit")
    return text


def _forbidden_in_ref(text: str) -> bool:
    """What git forbids in a ref name (and `%`, which a URL would decode)."""
    return bool(_CONTROL.search(text)) or any(s in text for s in ("\\", "..", "//", "@{")) \
        or text.startswith(("/", "-")) or text.endswith(("/", ".lock", ".")) or any(c in text for c in " ~^:?*[%")


def inside(root: str, candidate: str) -> bool:
    """Whether the resolved `candidate` lies in the resolved `root` (symlinks followed, as the OS would)."""
    import os

    top = os.path.realpath(root)
    target = os.path.realpath(candidate)
    return target == top or target.startswith(top.rstrip(os.sep) + os.sep)


def path_matches(pattern: str, path: str) -> bool:
    """A `.gitignore` pattern against a repository path, as git matches it (pathspec's GitWildMatchPattern): a
    pattern without an inner `/` matches at any depth, a leading `/` anchors it at the root (`/*.py`: the root's own
    files), a trailing `/` names a directory, `**` spans directories, and a pattern that matches a directory covers
    everything under it. `dir/**` also covers the folder `dir` itself (a scope over a folder, core/learning/places.py).
    A `!` pattern matches nothing on its own: `ignored_by` weighs it against the patterns before it."""
    spec = _spec((pattern,))
    file = _repository_relative(path)
    return spec.match_file(file) or pattern.rstrip().endswith("/**") and spec.match_file(file + "/")


def ignored_by(patterns: tuple[str, ...] | list[str], path: str) -> bool:
    """Whether a list of `.gitignore` patterns ignores `path`: the last pattern that matches decides, so a `!`
    pattern re-includes what an earlier one ignored, as in git."""
    return _spec(tuple(patterns)).match_file(_repository_relative(path))


def _repository_relative(path: str) -> str:
    return path.replace("\\", "/").removeprefix("./")


@lru_cache(maxsize=1024)
def _spec(patterns: tuple[str, ...]) -> GitIgnoreSpec:
    """The patterns compiled once (git's own rules for trailing spaces, comments and escapes; `./` read as the root),
    matched by RE2, in time linear in the path whatever the pattern: a backtracking engine takes hours over
    `**/a/**/a/…` (the patterns are the repository's). A pattern git cannot read (a lone trailing `\\`) matches
    nothing, as in git. pathspec is imported on first use: this module stays cheap for the webhook."""
    from pathspec import GitIgnoreSpec

    lines = [p.lstrip().removeprefix("./") for p in patterns]
    try:
        return GitIgnoreSpec.from_lines(lines, backend="re2")
    except ValueError:  # pathspec's GitIgnorePatternError: the one line dropped, the others kept in order
        return GitIgnoreSpec.from_lines([line for line in lines if _readable(line)], backend="re2")


def _readable(line: str) -> bool:
    from pathspec import GitIgnoreSpec

    try:
        GitIgnoreSpec.from_lines([line], backend="re2")
    except ValueError:
        return False
    return True


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
