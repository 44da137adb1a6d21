"""The CLI owns its embedded PostgreSQL: whatever ends a command — it finishing, Ctrl-C, SIGTERM (a timeout), a
kill -9 of the one before — nothing is left running afterwards, no traceback and no pool warning is printed, and a
run whose process was killed is marked failed by the next command that starts a run, not 20 minutes on."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psycopg
import pytest

from tests.test_serve_stop import _processes_using

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def checkout(tmp_path) -> Path:
    """A checkout big enough that a run is still going a second after it started (about 1,500 files to fix)."""
    root = tmp_path / "big"
    (root / "pkg").mkdir(parents=True)
    for i in range(1500):
        (root / "pkg" / f"m{i}.py").write_text(f'import os\nimport sys\n\n\ndef f{i}(x):\n    return f"hi" + x\n')
    return root


def memfix(data: Path, *args: str, **settings: str) -> subprocess.Popen:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "DATABASE_APP_URL")}
    env.update(PYTHONPATH=str(ROOT), MEMFIX_DATA_DIR=str(data), MEMFIX_LOCAL_INSTALLATION="0", **settings)
    return subprocess.Popen([sys.executable, "-m", "handlers.cli", *args], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def started_a_run(data: Path, server: subprocess.Popen) -> None:
    """Until the run is under way: its progress line (on stderr) says it has scanned (the run is recorded by then)."""
    import select

    seen = b""
    deadline = time.monotonic() + 120
    while b"[scanned" not in seen and time.monotonic() < deadline:
        ready, _, _ = select.select([server.stderr], [], [], 0.5)
        if ready:
            chunk = os.read(server.stderr.fileno(), 4096)
            if not chunk:
                break
            seen += chunk
    assert b"[scanned" in seen and server.poll() is None, seen[-500:]


@pytest.mark.parametrize("signum, code, said", [(signal.SIGINT, 130, "interrupted"),
                                                (signal.SIGTERM, 143, "stopped (SIGTERM)")])
def test_an_interrupted_command_leaves_nothing_running(data_dir, checkout, signum, code, said):
    data = data_dir
    run = memfix(data, "autofix", str(checkout))
    started_a_run(data, run)
    run.send_signal(signum)
    _, err = run.communicate(timeout=120)
    assert run.returncode == code and said in err, (run.returncode, err[-3000:])
    assert "Traceback" not in err and "psycopg" not in err  # no traceback, no pool warning
    assert _processes_using(data) == []


def test_after_a_killed_command_the_next_one_cleans_up_and_marks_the_run(tmp_path, data_dir, checkout):
    data = data_dir
    killed = memfix(data, "autofix", str(checkout))
    started_a_run(data, killed)
    killed.send_signal(signal.SIGKILL)
    killed.wait(30)
    assert _processes_using(data)  # its PostgreSQL lives on, holding a dead holder's name
    small = tmp_path / "small"
    (small / "pkg").mkdir(parents=True)
    (small / "pkg" / "a.py").write_text("import os\n")
    nxt = memfix(data, "autofix", str(small))
    out, err = nxt.communicate(timeout=120)
    assert nxt.returncode == 0 and "Traceback" not in err and "psycopg" not in err, err
    assert _processes_using(data) == []  # the next command owned what it found, and stopped it
    from core.db import embedded_url, stop_embedded

    try:
        with psycopg.connect(embedded_url(data)) as conn:
            phases = conn.execute("SELECT repository, phase, error FROM runs ORDER BY id").fetchall()
    finally:
        stop_embedded(data)  # this one only: the suite's own database runs in this process too
    assert phases[0][:2] == ("local/big", "failed") and f":{killed.pid}) stopped" in phases[0][2]
    assert phases[1][:2] == ("local/small", "done")


def test_local_input_is_bounded_and_every_skipped_file_says_why(tmp_path, data_dir):
    root = tmp_path / "repo"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "ok.py").write_text("import os\n")
    (root / "ruff.toml").write_text("line-length = 88\n")  # the team runs ruff at its defaults
    (root / "pkg" / "huge.py").write_text("x = 1\n" * 200_000)  # 1.2 MB: generated, say
    os.mkfifo(root / "pkg" / "pipe.py")  # opening it would block for ever
    locked = root / "pkg" / "locked.py"
    locked.write_text("import sys\n")
    locked.chmod(0)
    (root / "pkg" / "noisy.py").write_text("import os\n" + "".join(f"x{i} = f'a'\n" for i in range(1_200)))
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "secret.py").write_text("import os\n")
    (root / "linked").symlink_to(outside, target_is_directory=True)
    run = memfix(data_dir, "autofix", str(root), "--json")
    out, err = run.communicate(timeout=120)
    assert run.returncode == 0, err
    import json

    report = json.loads(out)
    notes = "\n".join(report["notes"])
    assert "skipped `pkg/huge.py`: 1,200,000 bytes, over the 1 MiB" in notes
    assert "skipped `pkg/pipe.py`: not a regular file" in notes
    assert "skipped `linked`: a symlinked folder" in notes
    if os.geteuid() != 0:  # root reads whatever the mode says
        assert "skipped `pkg/locked.py`: cannot be read (permission denied)" in notes
    assert "`pkg/noisy.py` has 1,201 findings, over the 1,000" in notes  # 1,200 F541, 1 F401
    readable = {"pkg/ok.py"} | ({"pkg/locked.py"} if os.geteuid() == 0 else set())
    assert {f["path"] for f in report["findings"]} == readable
    assert "not UTF-8" not in notes


def test_a_busy_port_is_said_plainly(data_dir):
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        run = memfix(data_dir, "serve", "--port", str(port))
        _, err = run.communicate(timeout=120)
    assert run.returncode == 2 and f"cannot listen on 127.0.0.1:{port}" in err and "Traceback" not in err
    assert _processes_using(data_dir) == []



def test_the_next_command_finds_the_database_up_and_it_stops_once_commands_stop(tmp_path, data_dir):
    import psutil

    from core.db import KEEPER

    small = tmp_path / "small"
    (small / "pkg").mkdir(parents=True)
    (small / "ruff.toml").write_text("line-length = 88\n")
    (small / "pkg" / "a.py").write_text("import os\n")
    idle = "15"  # the keeper's idle time: longer than a loaded machine takes between one command's end and the next
    first = memfix(data_dir, "autofix", str(small), MEMFIX_DB_IDLE_SECONDS=idle)
    _, err = first.communicate(timeout=120)
    assert first.returncode == 0, err
    keeper = psutil.Process(int((data_dir / KEEPER).read_text()))
    postmaster = _processes_using(data_dir)
    assert keeper.is_running() and postmaster  # kept up for the next command
    second = memfix(data_dir, "recall", "unused imports", "--repo", "local/small", MEMFIX_DB_IDLE_SECONDS=idle)
    _, err = second.communicate(timeout=120)
    assert second.returncode == 0 and _processes_using(data_dir) == postmaster, err  # the same server, not a new one
    assert int((data_dir / KEEPER).read_text()) == keeper.pid  # one keeper however many commands
    keeper.wait(timeout=120)  # commands stopped coming: it stops, and the server with it
    assert _processes_using(data_dir) == [] and not (data_dir / KEEPER).exists()
