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
import threading
import zlib
from collections.abc import Callable
from pathlib import Path

from core.languages.python.project import METADATA_FILES
from core.languages.python.surface import RepositoryView, read_with_sources
from core.languages.registry import is_source, read_with_repository
from core.paths import PathError, inside, repo_path
from core.pipelines.config import CONFIG_PATH
from core.pipelines.port import GitHubPort

MAX_VIEW_BYTES = 64 << 20  # Python sources read for the whole-repository checks (a Lambda has 512 MB of /tmp)
MAX_TEXT_BYTES = 16 << 20  # and the text files beside them that a doctest run may name
MAX_ARCHIVE_BYTES = 256 << 20
_SKIP_DIRS = {".git", ".venv", "venv", "node_modules", "__pycache__", ".tox", ".mypy_cache", ".ruff_cache", "build"}
MAX_FILES = 20_000
MAX_FILE_BYTES = 1 << 20  # a larger source file is generated or data: not scanned, on a checkout or from GitHub
log = logging.getLogger(__name__)


def _entered(name: str) -> bool:
    """A folder the walk goes into: not hidden, nor a tool's or an environment's (`.git`, `node_modules`, `build`)."""
    return name not in _SKIP_DIRS and not name.startswith(".")


class LocalWorkspace:
    """A checkout on disk; `paths` narrows the scope (files or directories, relative to root; none: no file)."""

    def __init__(self, root: Path, paths: list[str] | None = None):
        self.root = root.resolve()
        self._paths = paths
        self.notes: list[str] = []  # what the scan left out and why, for the run's output
        self._walked: tuple[list[str], list[str]] | None = None
        self._walking = threading.Lock()
        self._folders: dict[str, bool] = {}  # folder → resolves inside the checkout (see _stays)
        self._listed: list[str] | None = None

    def files(self) -> list[str]:
        """The source files in scope (Python, JavaScript, TypeScript), listed once however many runs ask. A symlink
        is never followed: it could point out of the checkout (a `.env`), and one pointing inside names a file that
        is scanned under its real name, so it is skipped with a note."""
        if self._listed is None:
            self._listed = self._list()
        return list(self._listed)

    def _list(self) -> list[str]:
        found: list[str] = []
        for target in [self.root / p for p in self._paths] if self._paths is not None else [self.root]:
            found += self._sources_at(target)
        files = sorted(set(found))
        if len(files) > MAX_FILES:
            log.warning("scope has %d Python files; scanning the first %d", len(files), MAX_FILES)
        return files[:MAX_FILES]

    def _sources_at(self, target: Path) -> list[str]:
        """The sources a path of the run's scope names: itself, or those under it; one memfix does not read is said
        in the notes."""
        if not inside(str(self.root), str(target)):
            self.notes.append(self._skip(target, "outside the checkout"))
        elif target.is_symlink():
            self.notes.append(self._skip(target, "a symlink; memfix does not follow links"))
        elif target == self.root:
            paths, notes = self._tree()
            self.notes += notes
            return [p for p in paths if is_source(p)]
        elif target.is_dir():
            return self._walk(target, is_source, self.notes)
        elif target.exists() and (problem := unscannable(str(target))) is not None:
            self.notes.append(self._skip(target, problem))
        elif target.exists():
            return [target.relative_to(self.root).as_posix()]
        return []

    def _tree(self) -> tuple[list[str], list[str]]:
        """The checkout's Python sources and the text files read beside them, walked once however often a run lists
        and reads them: (paths, notes on the Python files and folders a scan skips)."""
        with self._walking:
            if self._walked is None:
                notes: list[str] = []
                found = self._walk(self.root, lambda name: is_source(name) or read_with_sources(name), notes)
                self._walked = (found, notes)
            return self._walked

    def _walk(self, target: Path, wanted: Callable[[str], bool], notes: list[str]) -> list[str]:
        """The wanted files under `target`, relative to the root; a folder's entries say what they are (no call per
        entry but for wanted files), and a symlinked folder is never entered."""
        found: list[str] = []
        skip = len(str(self.root)) + 1  # strings, not Path objects: a large tree has thousands of files
        folders = [str(target)]
        while folders:
            folder = folders.pop()
            try:
                with os.scandir(folder) as listing:
                    entries = list(listing)
            except OSError as exc:
                notes.append(self._skip(Path(folder), f"cannot be listed ({exc.strerror or exc.__class__.__name__})"))
                continue
            here = folder[skip:].replace(os.sep, "/")
            for entry in entries:
                if entry.is_dir(follow_symlinks=False):
                    if _entered(entry.name):
                        folders.append(entry.path)
                elif self._taken(entry, wanted, notes):
                    found.append(f"{here}/{entry.name}" if here else entry.name)
        return found

    def _taken(self, entry: os.DirEntry[str], wanted: Callable[[str], bool], notes: list[str]) -> bool:
        """Whether a folder's entry that is no folder is a wanted file memfix reads; a symlinked folder, or a source
        it cannot scan, is said in `notes`."""
        name = entry.name
        if entry.is_symlink() and _entered(name) and entry.is_dir():
            notes.append(self._skip(Path(entry.path), "a symlinked folder; memfix does not follow links"))
            return False
        if not wanted(name):
            return False
        if (problem := unscannable(entry.path)) is not None:
            if is_source(name):  # a text file left out is simply not read
                notes.append(self._skip(Path(entry.path), problem))
            return False
        return True

    def _skip(self, target: Path, why: str) -> str:
        shown = os.path.relpath(target, self.root).replace(os.sep, "/")
        return f"skipped `{shown}`: {why}"

    def read(self, path: str) -> str | None:
        """A file of the checkout as text, or None: only a regular file (never a link, FIFO or device: one that
        never ends would hold the run) in a folder that stays inside the checkout, within MAX_FILE_BYTES."""
        target = self.root / path
        if not self._stays(str(target.parent)) or unscannable(str(target)) is not None:
            return None
        try:  # O_NOFOLLOW and O_NONBLOCK: a file swapped for a link or a FIFO since the check still cannot block
            with os.fdopen(os.open(target, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK), "rb") as file:
                data = file.read(MAX_FILE_BYTES + 1)
        except OSError:
            return None
        if len(data) > MAX_FILE_BYTES:
            return None
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            return None
        return text.replace("\r\n", "\n").replace("\r", "\n")  # universal newlines, as text mode reads it

    def _stays(self, folder: str) -> bool:
        """Whether a folder resolves inside the checkout, resolved once per folder: a run reads hundreds of files
        from a few folders."""
        if folder not in self._folders:
            self._folders[folder] = inside(str(self.root), folder)
        return self._folders[folder]

    def config_text(self) -> str | None:
        return self.read(CONFIG_PATH)

    def repository_view(self) -> RepositoryView:
        """Every Python source of the checkout, for the checks that need the whole repository (read, never run);
        past MAX_VIEW_BYTES the view is incomplete and says so."""
        if not self.root.is_dir():
            return RepositoryView({})
        return _view_of(self.root, self._tree()[0])

    def write(self, path: str, content: str) -> None:
        target = self.root / repo_path(path)
        if not inside(str(self.root), str(target)):
            raise PathError(f"{path} is outside {self.root}")
        target.write_text(content, encoding="utf-8")
        self._walked = self._listed = None

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


class _Gathering:
    """A repository view read within its budgets: Python sources, and the text files a doctest run may name (pages
    with `>>>` examples, and the CI and configuration files that run doctests). Past a budget the view is incomplete
    and says which."""

    def __init__(self) -> None:
        self.sources: dict[str, str] = {}
        self.texts: dict[str, str] = {}
        self.used = {True: 0, False: 0}
        self.over = ""

    def room(self, python: bool, size: int) -> bool:
        self.used[python] += size
        if self.used[python] > (MAX_VIEW_BYTES if python else MAX_TEXT_BYTES):
            limit = (MAX_VIEW_BYTES if python else MAX_TEXT_BYTES) >> 20
            self.over = f"its {'Python sources' if python else 'text files with doctest examples'} are over {limit} MB"
        return not self.over

    def keep(self, path: str, text: str) -> bool:
        """Keep a file; False once a budget is spent (the caller stops reading)."""
        python = read_with_repository(path)
        if not python and ">>>" not in text and "doctest" not in text:
            return True  # neither examples nor a doctest run: nothing a check reads
        if not self.room(python, len(text)):
            return False
        (self.sources if python else self.texts)[path] = text
        return True

    def view(self) -> RepositoryView:
        return RepositoryView(self.sources, complete=not self.over, reason=self.over, texts=self.texts)


def _view_of(root: Path, paths: list[str]) -> RepositoryView:
    gathering = _Gathering()
    for path in paths:
        if is_source(path) and not read_with_repository(path):
            continue  # only the languages whose checks read the whole repository
        try:
            text = (root / path).read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        if not gathering.keep(path, text):
            break
    return gathering.view()


class GitHubWorkspace(LocalWorkspace):
    """Files in scope fetched at one commit into a scratch directory (never a full clone). The configuration is
    not among them: it is read from the default branch (PipelineService.repo_settings), never from a PR."""

    def __init__(self, gh: GitHubPort, repo: str, ref: str, paths: list[str]):
        super().__init__(Path(tempfile.mkdtemp(prefix="memfix-")))
        self.gh, self.repo, self.ref = gh, repo, ref
        self._fetched: list[str] = []
        self._asked: set[str] = set()  # paths looked for at this commit, found or not
        self._workflows: set[str] | None = None  # the CI files at this commit, listed when first asked for
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

    def read(self, path: str) -> str | None:
        """A file in scope, or another at the same commit fetched when a step first asks for it (a configuration
        another one extends, a language's metadata), within the size a source file may have."""
        text = super().read(path)
        if text is not None or path in self._asked or not self._may_exist(path):
            return text
        self._asked.add(path)
        try:
            target = self.root / repo_path(path)
        except PathError:
            return None
        fetched = self.gh.get_file(self.repo, path, self.ref)
        if fetched is None or len(fetched) > MAX_FILE_BYTES or not inside(str(self.root), str(target)):
            return None
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(fetched, encoding="utf-8")
        return fetched

    def _may_exist(self, path: str) -> bool:
        """A CI file is asked for by the names teams give them: one listing of the commit answers for all."""
        if not path.startswith(".github/workflows/"):
            return True
        if self._workflows is None:
            try:
                self._workflows = {p for p in self.gh.list_files(self.repo, self.ref)
                                   if p.startswith(".github/workflows/")}
            except Exception:  # noqa: BLE001 — without the listing, the team's CI steps are simply not read
                log.warning("could not list %s at %s; its CI steps are not read", self.repo, self.ref)
                self._workflows = set()
        return path in self._workflows

    def repository_view(self) -> RepositoryView:
        """The repository at the run's commit, fetched once as an archive; only Python sources are extracted,
        within MAX_VIEW_BYTES, and nothing in them is ever run."""
        try:
            archive = self.gh.get_archive(self.repo, self.ref)
        except Exception as exc:  # noqa: BLE001 — a missing view blocks promotion of what needs it, nothing more
            return RepositoryView({}, complete=False, reason=f"the repository archive could not be fetched: {exc}")
        if len(archive) > MAX_ARCHIVE_BYTES:
            return RepositoryView({}, complete=False, reason=f"its archive is over {MAX_ARCHIVE_BYTES >> 20} MB")
        gathering = _Gathering()
        try:
            with tarfile.open(fileobj=io.BytesIO(archive), mode="r:*") as tar:
                _extract(tar, gathering)
        except (tarfile.TarError, EOFError, OSError, zlib.error, lzma.LZMAError, ValueError) as exc:
            # GitHub's archive host can answer an error page, a cut-off body or nothing: an incomplete view
            return RepositoryView(gathering.sources, complete=False, reason=f"the repository archive "
                                  f"({len(archive):,} bytes) could not be read: {_archive_problem(exc)}")
        return gathering.view()

    def files(self) -> list[str]:
        return sorted(self._fetched)

    def close(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)


def _extract(tar: tarfile.TarFile, gathering: _Gathering) -> None:
    """The archive's Python sources and the text files read beside them, gathered until the view is full."""
    for member in tar:
        path = member.name.split("/", 1)[1] if "/" in member.name else ""  # GitHub's top folder
        python = read_with_repository(path)
        if not _taken_from_archive(member, path, python):
            continue
        if python and gathering.used[True] + member.size > MAX_VIEW_BYTES:  # known before reading it
            gathering.room(True, member.size)
            return
        data = tar.extractfile(member)
        if data is not None and not gathering.keep(path, data.read().decode("utf-8", errors="replace")):
            return


def _taken_from_archive(member: tarfile.TarInfo, path: str, python: bool) -> bool:
    """A regular file that is a Python source, or a text file read beside them within MAX_FILE_BYTES."""
    return member.isfile() and (python or (read_with_sources(path.rsplit("/", 1)[-1])
                                           and member.size <= MAX_FILE_BYTES))


def _archive_problem(exc: Exception) -> str:
    if isinstance(exc, EOFError):
        return "it ends before its last file (cut off)"
    text = str(exc) or exc.__class__.__name__
    return text[:120]
