"""The files a run works on, in a directory: a local checkout as it is, or GitHub files materialised."""

from __future__ import annotations

import io
import logging
import lzma
import os
import shutil
import stat
import tarfile
import tempfile
import zlib
from collections.abc import Callable
from pathlib import Path

from core.paths import PathError, inside, repo_path
from core.pipelines.config import CONFIG_PATH
from core.pipelines.port import GitHubPort
from core.pipelines.project import METADATA_FILES
from core.pipelines.surface import RepositoryView, read_with_sources

MAX_VIEW_BYTES = 64 << 20  # Python sources read for the whole-repository checks (a Lambda has 512 MB of /tmp)
MAX_ARCHIVE_BYTES = 256 << 20
_SKIP_DIRS = {".git", ".venv", "venv", "node_modules", "__pycache__", ".tox", ".mypy_cache", ".ruff_cache", "build"}
MAX_FILES = 20_000
MAX_FILE_BYTES = 1 << 20  # a larger source file is generated or data: not scanned, on a checkout or from GitHub
log = logging.getLogger(__name__)


class LocalWorkspace:
    """A checkout on disk; `paths` narrows the scope (files or directories, relative to root)."""

    def __init__(self, root: Path, paths: list[str] | None = None):
        self.root = root.resolve()
        self._paths = paths
        self.notes: list[str] = []  # what the scan left out and why, for the run's output

    def files(self) -> list[str]:
        """The `.py` files in scope. A symlink is never followed: it could point out of the checkout (a `.env`),
        and one pointing inside names a file that is scanned under its real name, so it is skipped with a note."""
        found: list[str] = []
        for target in [self.root / p for p in self._paths] if self._paths else [self.root]:
            if not inside(str(self.root), str(target)):
                self._skip(target, "outside the checkout")
            elif target.is_symlink():
                self._skip(target, "a symlink; memfix does not follow links")
            elif target.is_dir():
                found += self._walk(target)
            elif target.exists() and (problem := unscannable(str(target))) is not None:
                self._skip(target, problem)
            elif target.exists():
                found.append(target.relative_to(self.root).as_posix())
        files = sorted(set(found))
        if len(files) > MAX_FILES:
            log.warning("scope has %d Python files; scanning the first %d", len(files), MAX_FILES)
        return files[:MAX_FILES]

    def _walk(self, target: Path, wanted: Callable[[str], bool] = lambda name: name.endswith(".py")) -> list[str]:
        found: list[str] = []
        skip = len(str(self.root)) + 1  # strings, not Path objects: a large tree has thousands of files
        for folder, dirs, names in os.walk(target):  # never descends into a symlinked directory
            dirs[:] = [d for d in dirs if d not in _SKIP_DIRS and not d.startswith(".")]
            for d in [d for d in dirs if os.path.islink(os.path.join(folder, d))]:
                dirs.remove(d)
                self._skip(Path(folder, d), "a symlinked folder; memfix does not follow links")
            here = folder[skip:].replace(os.sep, "/")
            for name in names:
                if not wanted(name):
                    continue
                if (problem := unscannable(os.path.join(folder, name))) is not None:
                    self._skip(Path(folder, name), problem)
                else:
                    found.append(f"{here}/{name}" if here else name)
        return found

    def _skip(self, target: Path, why: str) -> None:
        shown = os.path.relpath(target, self.root).replace(os.sep, "/")
        self.notes.append(f"skipped `{shown}`: {why}")

    def read(self, path: str) -> str | None:
        target = self.root / path
        if target.is_symlink() or not inside(str(self.root), str(target)):
            return None
        try:
            return target.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return None

    def config_text(self) -> str | None:
        return self.read(CONFIG_PATH)

    def repository_view(self) -> RepositoryView:
        """Every Python source of the checkout, for the checks that need the whole repository (read, never run);
        past MAX_VIEW_BYTES the view is incomplete and says so."""
        if not self.root.is_dir():
            return RepositoryView({})
        noted = len(self.notes)
        found = self._walk(self.root, lambda name: name.endswith(".py") or read_with_sources(name))
        del self.notes[noted:]  # what a scan skips is said by the scan of its own scope
        return _view_of(self.root, [p for p in found if p.endswith(".py")], [p for p in found if not p.endswith(".py")])

    def write(self, path: str, content: str) -> None:
        target = self.root / repo_path(path)
        if not inside(str(self.root), str(target)):
            raise PathError(f"{path} is outside {self.root}")
        target.write_text(content, encoding="utf-8")

    def close(self) -> None:
        pass


def unscannable(path: str) -> str | None:
    """Why a file is left out of a scan, in words for the run's output; None when it is scanned. Read without
    opening it: a FIFO named `x.py` would block for ever on open."""
    try:
        info = os.lstat(path)
    except OSError as exc:
        return f"cannot be read ({exc.strerror or exc.__class__.__name__})"
    if stat.S_ISLNK(info.st_mode):
        return "a symlink; memfix does not follow links"
    if not stat.S_ISREG(info.st_mode):
        return "not a regular file (a FIFO, a socket or a device)"
    if info.st_size > MAX_FILE_BYTES:
        return (f"{info.st_size:,} bytes, over the {MAX_FILE_BYTES >> 20} MiB a source file may have (generated code "
                "or data)")
    if not os.access(path, os.R_OK):
        return "cannot be read (permission denied)"
    return None


def _view_of(root: Path, paths: list[str], text_paths: list[str]) -> RepositoryView:
    read: dict[str, str] = {}
    total = 0
    for path in [*paths, *text_paths]:
        try:
            text = (root / path).read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        total += len(text)
        if total > MAX_VIEW_BYTES:
            return RepositoryView({p: t for p, t in read.items() if p.endswith(".py")}, complete=False,
                                  reason=f"its Python sources are over {MAX_VIEW_BYTES >> 20} MB")
        read[path] = text
    return RepositoryView({p: read[p] for p in paths if p in read}, texts={p: read[p] for p in text_paths if p in read})


class GitHubWorkspace(LocalWorkspace):
    """Files in scope fetched at one commit into a scratch directory (never a full clone). The configuration is
    not among them: it is read from the default branch (PipelineService.repo_settings), never from a PR."""

    def __init__(self, gh: GitHubPort, repo: str, ref: str, paths: list[str]):
        super().__init__(Path(tempfile.mkdtemp(prefix="memfix-")))
        self.gh, self.repo, self.ref = gh, repo, ref
        self._fetched: list[str] = []
        # The project's metadata comes along (read, never run) so its Python and ruff decisions are known.
        for path in [*paths, *(m for m in METADATA_FILES if m not in paths)]:
            text = gh.get_file(repo, path, ref)
            if text is None:
                continue
            if len(text) > MAX_FILE_BYTES:  # characters: at least as many bytes
                self.notes.append(f"skipped `{path}`: {len(text):,} characters, over the {MAX_FILE_BYTES >> 20} MiB "
                                  "a source file may have (generated code or data)")
                continue
            target = self.root / repo_path(path)
            if not inside(str(self.root), str(target)):  # proven inside the scratch directory before writing
                raise PathError(f"{path} would be written outside the scratch directory")
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
            if path in paths:
                self._fetched.append(path)

    def config_text(self) -> str | None:
        return None

    def repository_view(self) -> RepositoryView:
        """The repository at the run's commit, fetched once as an archive; only Python sources are extracted,
        within MAX_VIEW_BYTES, and nothing in them is ever run."""
        try:
            archive = self.gh.get_archive(self.repo, self.ref)
        except Exception as exc:  # noqa: BLE001 — a missing view blocks promotion of what needs it, nothing more
            return RepositoryView({}, complete=False, reason=f"the repository archive could not be fetched: {exc}")
        if len(archive) > MAX_ARCHIVE_BYTES:
            return RepositoryView({}, complete=False, reason=f"its archive is over {MAX_ARCHIVE_BYTES >> 20} MB")
        sources: dict[str, str] = {}
        texts: dict[str, str] = {}
        total = 0
        try:
            with tarfile.open(fileobj=io.BytesIO(archive), mode="r:*") as tar:
                for member in tar:
                    path = member.name.split("/", 1)[1] if "/" in member.name else ""  # GitHub's top folder
                    python = path.endswith(".py")
                    if not member.isfile() or not (python or (read_with_sources(path.rsplit("/", 1)[-1])
                                                              and member.size <= MAX_FILE_BYTES)):
                        continue
                    total += member.size
                    if total > MAX_VIEW_BYTES:
                        return RepositoryView(sources, complete=False,
                                              reason=f"its Python sources are over {MAX_VIEW_BYTES >> 20} MB")
                    data = tar.extractfile(member)
                    if data is not None:
                        (sources if python else texts)[path] = data.read().decode("utf-8", errors="replace")
        except (tarfile.TarError, EOFError, OSError, zlib.error, lzma.LZMAError, ValueError) as exc:
            # GitHub's archive host can answer an error page, a cut-off body or nothing: an incomplete view
            return RepositoryView(sources, complete=False, reason=f"the repository archive ({len(archive):,} bytes) "
                                  f"could not be read: {_archive_problem(exc)}")
        return RepositoryView(sources, texts=texts)

    def files(self) -> list[str]:
        return sorted(self._fetched)

    def close(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)


def _archive_problem(exc: Exception) -> str:
    if isinstance(exc, EOFError):
        return "it ends before its last file (cut off)"
    text = str(exc) or exc.__class__.__name__
    return text[:120]
