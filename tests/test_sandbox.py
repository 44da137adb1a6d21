"""The sandbox the team's tools run in, tried as a hostile configuration would: code of the repository's, run as a
team's tool runs it, reads a worker's file and memfix's environment, opens a socket to a listener on this machine,
writes outside its copy, forks without end, loops for ever and prints a gigabyte. Nothing leaves; each run ends, said
in memfix's words; nothing it started is left running."""

from __future__ import annotations

import os
import socket
import textwrap
import threading
from pathlib import Path

import pytest

from core.tools import sandbox as sandboxes
from core.tools.process import ToolFailed
from core.tools.sandbox import Caps

PYTHON = "/usr/bin/python3"  # the system's: a tool's interpreter is never memfix's own


@pytest.fixture(scope="module")
def box():
    found, why = sandboxes.find()
    if found is None:
        pytest.skip(f"NO SANDBOX: {why} (.ci/run installs bubblewrap)")
    return found


@pytest.fixture
def scratch(box):
    with box.scratch() as folder:
        yield folder


def _hostile(work: Path, code: str) -> list[str]:
    """The repository's own code, as a configuration file a tool loads is: written into the copy, run inside with
    the copy's name as its argument, which every process it starts carries too (`_leftovers` looks for it)."""
    (work / "config.py").write_text(textwrap.dedent(code))
    return [PYTHON, "config.py", work.name]


def _leftovers(work: Path) -> list[str]:
    """Processes of that copy's tool still running (a zombie waiting for its parent has stopped); other tests'
    sandboxes, running meanwhile, are theirs."""
    left = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
            if work.name in command and "\nState:\tZ" not in Path(f"/proc/{pid}/status").read_text():
                left.append(command)
        except OSError:
            continue
    return left


def test_a_configuration_reads_no_worker_file_and_no_memfix_secret(box, scratch, tmp_path, monkeypatch):
    secret = tmp_path / "worker-secret.json"
    secret.write_text('{"token": "ghs_worker"}')
    monkeypatch.setenv("GITHUB_APP_PRIVATE_KEY", "-----BEGIN secret")
    work = scratch
    done = box.run(_hostile(work, f"""
        import os
        for path in ({str(secret)!r}, "/sandbox/work/../worker-secret.json", {str(Path(__file__).resolve())!r},
                     "/etc/passwd",
                     "/proc/1/environ", "/root/.ssh/id_rsa"):
            try:
                print("READ", path, open(path).read()[:20])
            except OSError as exc:
                print("NO", path, type(exc).__name__)
        print("ENV", sorted(os.environ))
    """), work=work, what="the hostile configuration")
    assert done.returncode == 0, done.stderr
    read = [line for line in done.stdout.splitlines() if line.startswith("READ")]
    assert [line.split()[1] for line in read] == ["/proc/1/environ"]  # the sandbox's own first process, nothing else
    assert "ghs_worker" not in done.stdout and "BEGIN secret" not in done.stdout
    assert "ENV ['HOME', 'LANG', 'PATH', 'PWD']" in done.stdout or "ENV ['HOME', 'LANG', 'PATH']" in done.stdout


def test_a_configuration_reaches_no_listener_on_the_worker(box, scratch, tmp_path):
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    accepted: list[object] = []
    listener.settimeout(0.2)

    def accept() -> None:
        try:
            accepted.append(listener.accept())
        except OSError:
            pass

    work = scratch
    done = box.run(_hostile(work, f"""
        import socket
        for host in ("127.0.0.1", "localhost", "10.0.0.1"):
            try:
                socket.create_connection((host, {port}), timeout=1)
                print("CONNECTED", host)
            except OSError as exc:
                print("NO", host, type(exc).__name__)
    """), work=work, what="the hostile configuration")
    waiter = threading.Thread(target=accept)
    waiter.start()
    waiter.join()
    listener.close()
    assert "CONNECTED" not in done.stdout and done.stdout.count("NO ") == 3 and accepted == []


def test_a_configuration_writes_only_into_its_copy(box, scratch, tmp_path):
    outside = tmp_path / "outside.txt"
    outside.write_text("as it was")
    tool = scratch.parent / f"{scratch.name}-tool"  # a tool's folder the sandbox's user may read
    (tool / "bin").mkdir(parents=True)
    tool.chmod(0o755)
    work = scratch
    done = box.run(_hostile(work, f"""
        for path in ({str(outside)!r}, {str(tool / "bin" / "planted")!r}, "/usr/bin/planted",
                     "/sandbox/work/../escaped", "/sandbox/work/fixed.js", "/tmp/scratch"):
            try:
                open(path, "w").write("written")
                print("WROTE", path)
            except OSError as exc:
                print("NO", path, type(exc).__name__)
    """), work=work, tools=[tool], what="the hostile configuration")
    assert done.stdout.count("WROTE") == 2 and "WROTE /sandbox/work/fixed.js" in done.stdout  # its copy, its own /tmp
    assert outside.read_text() == "as it was" and list((tool / "bin").iterdir()) == []
    assert (work / "fixed.js").read_text() == "written" and not (tmp_path / "escaped").exists()


def test_a_configuration_that_forks_without_end_is_capped_and_killed_whole(box, scratch, tmp_path):
    work = scratch
    with pytest.raises(ToolFailed, match="did not finish within 3 s"):
        box.run(_hostile(work, """
            import os, time
            while True:
                try:
                    os.fork()
                except OSError:
                    time.sleep(0.01)
        """), work=work, what="the fork bomb", cap=3)
    assert _leftovers(scratch) == []


def test_a_configuration_that_loops_for_ever_is_killed_at_its_deadline(box, scratch, tmp_path):
    work = scratch
    with pytest.raises(ToolFailed, match="^ESLint did not finish within 1 s$"):
        box.run(_hostile(work, "while True:\n    pass\n"), work=work, what="ESLint", cap=1)
    assert _leftovers(scratch) == []


def test_a_configuration_whose_threads_spin_on_every_core_is_stopped_by_its_deadline_which_says_so(box, scratch):
    """A tool's threads share its process's CPU count (Node's do): its time on two cores must not end it, unsaid,
    before its deadline."""
    work = scratch
    with pytest.raises(ToolFailed, match="^ESLint did not finish within 2 s$"):
        box.limited(2).run(_hostile(work, """
            import hashlib, threading
            data = bytes(1 << 20)
            def spin():
                while True:
                    hashlib.sha256(data).digest()  # lets the GIL go: each thread spins a core of its own
            for _ in range(4):
                threading.Thread(target=spin, daemon=True).start()
            threading.Event().wait()
        """), work=work, what="ESLint")
    assert _leftovers(scratch) == []


def test_a_configuration_that_prints_a_gigabyte_is_stopped_at_the_output_cap(box, scratch, tmp_path):
    work = scratch
    small = sandboxes.Bubblewrap(box.binary, box.prlimit, Caps(output_bytes=1 << 20))
    with pytest.raises(ToolFailed, match="printed more than 1 MiB and was stopped"):
        small.run(_hostile(work, "import sys\nfor _ in range(1 << 14):\n    sys.stdout.write('x' * (1 << 16))\n"),
                  work=work, what="the printer")
    assert _leftovers(scratch) == []


def test_a_tool_that_cannot_start_inside_is_said(box, scratch, tmp_path):
    work = scratch
    done = box.run(["/no/such/eslint"], work=work, what="ESLint")
    assert done.returncode != 0 and "/no/such/eslint" in done.stderr


def test_another_tenants_tool_runs_while_one_forks_without_end(box):
    """Each run is a user of its own: the bomb exhausts its own process count, not the next sandbox's."""
    folders: list[Path] = []
    results: list[str] = []
    ready = threading.Event()

    def bomb() -> None:
        with box.scratch() as work:
            folders.append(work)
            ready.set()
            try:
                box.run(_hostile(work, "import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n"
                                       "        open('exhausted', 'w').close()\n"), work=work, what="the fork bomb",
                        cap=6)
            except ToolFailed as exc:
                results.append(str(exc))

    thread = threading.Thread(target=bomb)
    thread.start()
    assert ready.wait(10)
    exhausted = folders[0] / "exhausted"
    for _ in range(1000):  # until the bomb has used up its own count of processes
        if exhausted.exists():
            break
        threading.Event().wait(0.01)
    at_its_cap = exhausted.exists()
    with box.scratch() as work:
        done = box.run(_hostile(work, "print('linted')"), work=work, what="another tenant's ESLint", cap=30)
    still_bombing = thread.is_alive()
    thread.join()
    assert at_its_cap and still_bombing  # the other tenant's tool ran while the bomb was at its cap
    assert (done.returncode, done.stdout.strip()) == (0, "linted") and results == [
        "the fork bomb did not finish within 6 s"]
