"""Letters: `.memory/letter_YYYYMMDD_XXXX.md` files on the default branch, kept in sync as memory entries.

Naming: the `.memory` folder at the repository root; `letter_` and `.md` in lower case; YYYYMMDD a real date;
XXXX four ASCII letters or digits in any case. Anything under `.memory/` whose name looks like `letter_*.md`
(in any case) is a letter path, so a misnamed or misplaced letter is reported instead of silently ignored.

A letter: optional YAML front matter between `---` lines at the top, then a Markdown body.
Title: the first `# ` heading of the body (outside code fences), else YAML `title:`, else the file name.
Tags: YAML `tags:` (a list or a comma-separated string), else ("memory", "imported") when it gives none.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import date
from pathlib import Path, PurePosixPath
from typing import Any

from core.bounded import ConfigRefused, read_config
from core.errors import PermanentError, TransientError
from core.memory.entries import Entries
from core.memory.types import MemoryEntry
from core.paths import PathError, repo_path
from core.wire import PushJob

log = logging.getLogger(__name__)

MAX_LETTER_BYTES = 256 * 1024
LETTERS_DIR = ".memory"
DEFAULT_TAGS = ("memory", "imported")
NAME_PATTERN = "letter_YYYYMMDD_XXXX.md"

_NAME = re.compile(r"letter_(?P<date>\d{8})_[A-Za-z0-9]{4}\.md")
_HEADING = re.compile(r" {0,3}# +")  # CommonMark ATX level 1; its closing #s are dropped by `_heading`
_FENCE = re.compile(r" {0,3}(?P<fence>`{3,}|~{3,})")
_FRONT_MATTER_END = ("---", "...")


class LetterError(PermanentError):
    """One letter that cannot be imported; `reason` says why in words its author can act on."""

    def __init__(self, path: str, reason: str):
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason


def source_ref(repo: str, path: str) -> str:
    return f"github://{repo}/{path}"


def is_letter_path(path: str) -> bool:
    try:
        path = repo_path(path)  # a name that could leave the repository is no letter
    except PathError:
        return False
    parts = PurePosixPath(path).parts
    name = parts[-1].lower() if parts else ""
    return len(parts) >= 2 and parts[0] == LETTERS_DIR and name.startswith("letter_") and name.endswith(".md")


def parse_letter(repo: str, path: str, raw: bytes) -> MemoryEntry:
    """The memory entry a letter file becomes, or LetterError saying what is wrong with it."""
    letter_date = _letter_date(path)
    if len(raw) > MAX_LETTER_BYTES:
        raise LetterError(path, f"file is larger than {MAX_LETTER_BYTES // 1024} KiB, the limit for a letter")
    try:
        text = raw.decode("utf-8-sig").replace("\r\n", "\n")  # -sig: editors on Windows add a BOM
    except UnicodeDecodeError as exc:
        raise LetterError(path, f"file is not UTF-8 text (invalid byte at offset {exc.start})") from None
    if not text.strip():
        raise LetterError(path, "file is empty")
    meta, body = _split_front_matter(path, text)
    body = body.strip()
    if not body:
        raise LetterError(path, "letter has front matter but no text after it")
    return MemoryEntry(
        title=_first_heading(body) or _meta_title(path, meta) or PurePosixPath(path).stem,
        content=body,
        source="github",
        tags=_meta_tags(path, meta) or DEFAULT_TAGS,
        repository=repo,
        source_ref=source_ref(repo, path),
        letter_date=letter_date,
    )


def _letter_date(path: str) -> date:
    pure = PurePosixPath(path)
    if pure.parent != PurePosixPath(LETTERS_DIR):
        raise LetterError(path, f"letters must sit directly in the {LETTERS_DIR}/ folder at the repository root")
    match = _NAME.fullmatch(pure.name)
    if not match:
        raise LetterError(
            path, f"file name {pure.name!r} does not match {NAME_PATTERN} (XXXX: 4 letters or digits)"
        )
    digits = match["date"]
    try:
        return date(int(digits[:4]), int(digits[4:6]), int(digits[6:]))
    except ValueError:
        raise LetterError(path, f"{digits} in the file name is not a real date (YYYYMMDD)") from None


def _split_front_matter(path: str, text: str) -> tuple[dict[str, Any], str]:
    if text.split("\n", 1)[0].rstrip() != "---":
        return {}, text
    lines = text.split("\n")
    end = next((i for i, line in enumerate(lines[1:], 1) if line.rstrip() in _FRONT_MATTER_END), None)
    if end is None:
        raise LetterError(path, "front matter starts with '---' on line 1 but has no closing '---' line")
    try:
        meta = read_config("\n".join(lines[1:end]), "yaml", "front matter")
    except ConfigRefused as exc:
        raise LetterError(path, _front_matter_problem(exc)) from None
    if meta is None:
        meta = {}
    if not isinstance(meta, dict):
        raise LetterError(path, f"front matter must be 'key: value' lines, not {_kind(meta)}")
    return meta, "\n".join(lines[end + 1:])


def _front_matter_problem(exc: ConfigRefused) -> str:
    if not exc.reason.startswith("not valid"):
        return str(exc)
    where = f" (line {exc.line + 1} of the file)" if exc.line else ""  # +1: the text starts after '---'
    return f"front matter is not valid YAML: {exc.problem or 'unreadable'}{where}"


def _kind(value: Any) -> str:
    kinds = {list: "a list", dict: "a mapping", str: "plain text", bool: "true/false", int: "a number"}
    return kinds.get(type(value), "a number" if isinstance(value, float) else f"a {type(value).__name__}")


def _first_heading(body: str) -> str | None:
    fence = None
    for line in body.split("\n"):
        opening = _FENCE.match(line)
        if fence:
            if opening and opening["fence"][0] == fence[0] and len(opening["fence"]) >= len(fence):
                fence = None
        elif opening:
            fence = opening["fence"]  # a `# comment` in a code block is not a title
        elif text := _heading(line):
            return text
    return None


def _heading(line: str) -> str:
    """A level-1 heading's text, its closing #s dropped, or ''. Read by hand: a lazy `(.*?)( +#+)? *` tries the rest
    of a run of spaces from each of its places (quadratic in the run)."""
    opening = _HEADING.match(line)
    if opening is None:
        return ""
    text = line[opening.end():].rstrip(" ")
    bare = text.rstrip("#")
    closed = bare != text and bare.endswith(" ")  # closing #s stand apart from the text
    return (bare if closed else text).strip()


def _meta_title(path: str, meta: dict[str, Any]) -> str | None:
    value = meta.get("title")
    if value is None:
        return None
    if isinstance(value, str | int | float):
        return str(value).strip()
    raise LetterError(path, f"YAML title must be text, not {_kind(value)}")


def _meta_tags(path: str, meta: dict[str, Any]) -> tuple[str, ...]:
    value = meta.get("tags")
    if value is None:
        return ()
    if isinstance(value, str):
        items = value.split(",")
    elif isinstance(value, list) and all(isinstance(v, str | int | float) for v in value):
        items = [str(v) for v in value]
    else:
        raise LetterError(path, f"YAML tags must be a list or a comma-separated string, not {_kind(value)}")
    return tuple(dict.fromkeys(t.strip() for t in items if t.strip()))


@dataclass
class SyncReport:
    """What one sync did, by letter path; `skipped` holds (path, reason) for each letter left out."""

    created: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not (self.created or self.updated or self.deleted or self.skipped)

    def markdown(self) -> str:
        lines = [
            f"**Memory letters:** {len(self.created)} created, {len(self.updated)} updated, "
            f"{len(self.deleted)} deleted, {len(self.skipped)} skipped"
        ]
        for verb, paths in (("created", self.created), ("updated", self.updated), ("deleted", self.deleted)):
            lines += [f"- {verb} `{path}`" for path in paths]
        lines += [f"- skipped `{path}`: {reason}" for path, reason in self.skipped]
        return "\n".join(lines)


class LetterSync:
    """Keeps a repository's letters and its `github://` memory entries in step; one bad letter blocks nothing."""

    def __init__(self, entries: Entries):
        self.entries = entries

    def sync(
        self,
        tenant_id: int,
        repo: str,
        *,
        added_or_modified: dict[str, bytes | Exception],
        removed: list[str],
        source: str = "github",
    ) -> SyncReport:
        """Upsert each readable, valid letter, delete removed ones. Database errors propagate: a retry is safe."""
        report = SyncReport()
        for path, raw in added_or_modified.items():
            try:
                if isinstance(raw, Exception):
                    raise LetterError(path, f"could not be read: {raw}")
                entry = parse_letter(repo, path, raw)
            except LetterError as exc:
                log.info("letter skipped: %s", exc)
                report.skipped.append((path, exc.reason))
                continue
            _, created = self.entries.upsert_by_source_ref(tenant_id, replace(entry, source=source))
            (report.created if created else report.updated).append(path)
        for path in removed:
            if self.entries.delete_by_source_ref(tenant_id, source_ref(repo, path)):
                report.deleted.append(path)
        return report

    def sync_push(self, tenant_id: int, job: PushJob, fetch: Callable[[str], bytes | None]) -> SyncReport:
        """Sync the letters a default-branch push touched; `fetch(path)` reads a file at `job.after`."""
        contents: dict[str, bytes | Exception] = {}
        for path in dict.fromkeys(job.added + job.modified):
            if not is_letter_path(path):
                continue
            try:
                raw = fetch(path)
            except TransientError:
                raise  # the whole job is retried, and upserts make a retry harmless
            except Exception as exc:  # one unreadable file is reported, never blocks the rest
                contents[path] = exc
                continue
            contents[path] = raw if raw is not None else FileNotFoundError(f"not found at commit {job.after[:7]}")
        removed = [p for p in job.removed if is_letter_path(p)]
        return self.sync(tenant_id, job.repo or "", added_or_modified=contents, removed=removed)

    def import_directory(self, tenant_id: int, repo: str, directory: Path) -> SyncReport:
        """Import the letters of a checkout (or of its .memory folder itself); nothing is deleted."""
        if repo.count("/") != 1 or not all(repo.split("/")):
            raise PermanentError(f"repository {repo!r} is not owner/name")
        directory = directory.resolve()
        folder = directory if directory.name == LETTERS_DIR else directory / LETTERS_DIR
        if not folder.is_dir():
            raise PermanentError(f"{folder} is not a folder; pass a checkout with a {LETTERS_DIR} folder or the folder")
        contents: dict[str, bytes | Exception] = {}
        for file in sorted(folder.rglob("*")):
            path = f"{LETTERS_DIR}/{file.relative_to(folder).as_posix()}"
            if not (file.is_file() and is_letter_path(path)):
                continue
            try:
                with file.open("rb") as handle:
                    contents[path] = handle.read(MAX_LETTER_BYTES + 1)  # enough to tell it is too large
            except OSError as exc:
                contents[path] = exc
        return self.sync(tenant_id, repo, added_or_modified=contents, removed=[], source="import")
