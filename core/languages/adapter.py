"""What every language adapter is to the rest of memfix: a linter that finds and fixes on copies, a reading of the
project, the checks a patch must pass there, and the rules a run proposes. The run machinery, memory and learning see
only these; each language's package (core/languages/<name>/) says what they are for its files.
"""

from __future__ import annotations

import tempfile
import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, TypeVar

from core.change import Finding, Patch, Verification
from core.errors import PermanentError

if TYPE_CHECKING:
    from core.languages.python.surface import RepositoryView

Read = Callable[[str], str | None]
View = Callable[[], "RepositoryView"]


class Asked(Protocol):
    """What a repository asks of memfix that a language reads (core/pipelines/config.py `RepoConfig` keeps it)."""

    @property
    def python(self) -> str | None: ...  # the oldest supported Python, overriding the metadata
    @property
    def extend_rules(self) -> tuple[str, ...]: ...  # proposed beyond what the team's linters select
    def rules(self, pipeline: str) -> tuple[str, ...]: ...
    def named(self, pipeline: str) -> tuple[str, ...] | None: ...  # the rules a person named for it, if any


@dataclass(frozen=True)
class Selection:
    """The rules a run proposes fixes for, and which configuration chose them, in words."""

    rules: tuple[str, ...]
    chosen_by: str
    extended: tuple[str, ...] = ()  # beyond the team's choice, asked for in .github/memfix.yml
    origins: Mapping[str, str] = field(default_factory=dict)  # selector → the file (or person) that chose it
    could: tuple[str, ...] = ()  # nothing chosen: the rules the pipeline could propose, surveyed and never proposed

    def origin(self, code: str) -> str:
        """Where the rule `code` was chosen: its longest selector's place, else the selection's own words."""
        selector = covering(code, tuple(self.origins))
        return self.origins[selector] if selector else self.chosen_by


class Linter(Protocol):
    """What the runner asks of a linter: findings, safe fixes on copies, and which files and rules are its."""

    @property
    def syntax_code(self) -> str: ...  # the code of a finding that says the file does not parse
    @property
    def unreadable_code(self) -> str: ...  # the code of a finding that says the file cannot be read (not UTF-8)

    def owns(self, path: str) -> bool: ...
    def knows(self, selector: str) -> bool: ...
    def has_rule(self, code: str) -> bool: ...  # a rule it has, by its exact code (what a decision names)
    def rule_words(self, code: str) -> frozenset[str]: ...
    def check(self, root: Path, paths: list[str], select: tuple[str, ...], *,
              listed: bool = False) -> list[Finding]: ...
    def fix(self, root: Path, path: str, select: tuple[str, ...]) -> str | None: ...
    def fix_many(self, root: Path, paths: list[str], select: tuple[str, ...]) -> dict[str, str]: ...
    def fix_texts(self, texts: dict[str, str], select: tuple[str, ...],
                  checkout: Path | None = None, unsafe: bool = False) -> dict[str, str]: ...


class DetectError(PermanentError):
    """A linter could not check or fix the files; the message says why in memfix's words."""


class Crashed(DetectError):
    """A tool stopped on a signal or panicked: something in one of the files it was given, usually."""

    def __init__(self, tool: str, code: int, said: str):
        self.how = f"killed by signal {-code}" if code < 0 else f"it panicked (exit {code})"
        super().__init__(f"{tool} crashed ({self.how}): {said}")


PANIC = 101  # a Rust program's exit code when it panics (ruff's and Biome's)


def crashed(code: int) -> bool:
    """Whether an exit code says the tool crashed rather than reported (a signal, a panic)."""
    return code < 0 or code == PANIC


T = TypeVar("T")


def halving(run: Callable[[list[str]], T], paths: list[str]) -> tuple[list[T], dict[str, str]]:
    """`run` over `paths`, and where it crashes, over each half in turn until the files it crashes on are alone: the
    results of the runs that finished, and {file: how the tool stopped on it}. A crash costs its file only."""
    try:
        return [run(paths)], {}
    except Crashed as exc:
        if len(paths) <= 1:
            return [], dict.fromkeys(paths, exc.how)
    half = len(paths) // 2
    first, second = halving(run, paths[:half]), halving(run, paths[half:])
    return first[0] + second[0], first[1] | second[1]



class Project(Protocol):
    """One language's reading of the repository for one run."""

    @property
    def selection(self) -> Selection: ...  # the rules this run proposes, and who chose them
    @property
    def target(self) -> str: ...  # what the fixes are valid for, in words
    @property
    def lines(self) -> tuple[str, ...]: ...  # what the run's output says of the project
    @property
    def problems(self) -> tuple[str, ...]: ...  # what in the project's configuration could not be used, and why
    @property
    def named(self) -> tuple[str, ...]: ...  # the rules the team's lint configuration names, one by one

    def linter(self, held: tuple[str, ...] = ()) -> Linter: ...
    def ignored(self, path: str) -> bool: ...
    def checks(self, verification: Verification, patch: Patch, view: View) -> Verification: ...


class Language(Protocol):
    @property
    def name(self) -> str: ...

    def owns(self, path: str) -> bool: ...
    def has_rule(self, code: str) -> bool: ...
    def rule_words(self, code: str) -> frozenset[str]: ...  # the words a rule's own messages name
    def project(self, read: Read, config: Asked, pipeline: str, sources: tuple[str, ...] = ()) -> Project: ...


def inside(root: Path, path: str) -> Path:
    """`root / path`, refusing a path that leaves `root` (paths can come from comments)."""
    target = (root / path).resolve()
    if not target.is_relative_to(root.resolve()):
        raise PermanentError(f"{path} is outside the repository")
    return target


_FIRST_RUNS: dict[tuple[object, ...], str | None] = {}  # (tool, its folder, the configuration) → why it cannot run
_FIRST_RUNS_LOCK = threading.Lock()


def first_run(linter: Linter, folder: Path, config: Mapping[str, str], sample: str = "memfix_first_run.py",
              ) -> str | None:
    """Why the team's tool, installed in `folder` and ready in its sandbox, cannot run at all with the team's
    `config` (a plugin it cannot load, a setting it refuses), found by running it once a process on a one-line
    file; None when it runs. Its reading then stands in for that tool alone, and says so."""
    key = (type(linter).__name__, str(folder), tuple(sorted(config.items())))
    with _FIRST_RUNS_LOCK:
        if key in _FIRST_RUNS:
            return _FIRST_RUNS[key]
    why = None
    with tempfile.TemporaryDirectory(prefix="memfix-first-run-") as root:
        Path(root, sample).write_text("x = 1\n")
        try:
            linter.check(Path(root), [sample], ("ALL",), listed=True)
        except Crashed:
            why = None  # a crash on a file is that file's, and this one has nothing in it
        except DetectError as exc:
            why = str(exc)
    with _FIRST_RUNS_LOCK:
        _FIRST_RUNS[key] = why
    return why


def readable(root: Path, paths: Iterable[str]) -> dict[str, bytes]:
    """Each of `paths` under `root` that can be read, each once, by its path: one that cannot is left out (a tool is
    never handed it)."""
    found = {}
    for path in dict.fromkeys(paths):
        try:
            found[path] = inside(Path(root), path).read_bytes()
        except OSError:
            continue
    return found


def texts_of(root: Path, paths: Iterable[str]) -> dict[str, str]:
    """`readable`, only the files that are UTF-8 text, as text."""
    found = {}
    for path, data in readable(root, paths).items():
        try:
            found[path] = data.decode("utf-8")
        except UnicodeDecodeError:
            continue
    return found


def originals(root: Path, paths: Iterable[str]) -> dict[str, bytes]:
    """Each of `paths` under `root`, each once; a DetectError naming one that is not a file (a fix was asked of it)."""
    found = {}
    for path in dict.fromkeys(paths):
        source = inside(Path(root), path)
        if not source.is_file():
            raise DetectError(f"{path} does not exist")
        found[path] = source.read_bytes()
    return found


def covering(code: str, selectors: tuple[str, ...]) -> str | None:
    """The longest of `selectors` that covers the rule `code` (`UP006` over `UP`; `ALL` covers every rule)."""
    return max((s for s in selectors if s == "ALL" or code.startswith(s)), key=lambda s: (s != "ALL", len(s)),
               default=None)


def failed(verification: Verification, check: str, error: str | None) -> Verification:
    """The verdict with one project check failed for `error` (the first error found is the one said), or as it was."""
    if error is None:
        return verification
    return replace(verification, **{check: False}, error=verification.error or error)  # type: ignore[arg-type]


MAX_SKELETON = 500  # top-level entries a skeleton mirrors


def mirror_layout(root: Path, paths: list[str], checkout: Path | None) -> None:
    """Beside copies of `paths` written under `root`, empty stand-ins for what a linter's layout-reading rules look
    at in `checkout`: the project's root, the `__init__.py` files of the copies' folders, and the checkout's
    top-level packages and modules (at its root and under `src/`), so that a file is judged in its copy as it was
    in the checkout (implicit namespace packages, first-party imports). A copy is never replaced."""
    if checkout is None:
        return
    root.mkdir(parents=True, exist_ok=True)
    (root / "pyproject.toml").touch()  # the project's root is here, as the checkout's is at its own: not further up
    wanted = {f"{folder}/__init__.py" for path in paths for folder in _folders(path)}
    for base in (checkout, checkout / "src"):
        wanted |= _top_level(base, checkout)
    for path in sorted(wanted):
        if (checkout / path).is_file() and not (checkout / path).is_symlink() and not (root / path).exists():
            (root / path).parent.mkdir(parents=True, exist_ok=True)
            (root / path).touch()


def _top_level(base: Path, checkout: Path) -> set[str]:
    """The checkout's packages (by their `__init__.py`) and modules directly in `base`, links left out."""
    try:
        entries = sorted(base.iterdir())[:MAX_SKELETON] if base.is_dir() and not base.is_symlink() else []
    except OSError:
        return set()
    found = set()
    for entry in entries:
        name = entry.relative_to(checkout).as_posix()
        if entry.is_symlink():
            continue
        if entry.is_dir():
            found.add(f"{name}/__init__.py")
        elif entry.suffix == ".py":
            found.add(name)
    return found


def _folders(path: str) -> list[str]:
    parts = path.split("/")[:-1]
    return ["/".join(parts[:i]) for i in range(1, len(parts) + 1)]
