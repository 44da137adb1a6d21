"""The installed package, as the container image has it: exactly what the Dockerfile copies is built into a wheel,
installed into a fresh virtual environment outside the checkout, and run from a folder of its own — `memfix
migrate`, `memfix serve` with its pages, the image's health check. No Docker engine is needed; no network is used
(the wheel is built offline and the dependencies come from this test run's own environment)."""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import re
import shutil
import signal
import site
import subprocess
import sys
import urllib.request
from importlib.metadata import version
from pathlib import Path

import pytest

from tests.conftest import login_url
from tests.test_serve_stop import _free_port

ROOT = Path(__file__).resolve().parents[1]
DOCKERFILE = (ROOT / "Dockerfile").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def installed() -> Path:
    """A fresh venv with memfix installed from the Dockerfile's build context; its bin folder. Built once for each
    content of that context (and this Python): a run that changed none of it reuses the last build."""
    files = sorted(_context_files())
    key = hashlib.sha256()
    for name in (sys.version, sys.prefix, version("setuptools"), version("wheel")):
        key.update(name.encode() + b"\0")
    for name in files:
        key.update(name.encode() + b"\0" + (ROOT / name).read_bytes() + b"\0")
    cache = ROOT / "build" / "package-cache"
    cache.mkdir(parents=True, exist_ok=True)
    work = cache / key.hexdigest()[:20]
    with open(cache / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # xdist workers and other runs in this checkout: one builds, the rest wait
        if not (work / "built").exists():
            for old in cache.iterdir():  # earlier contents' builds, and one cut short
                if old.is_dir():
                    shutil.rmtree(old)
            _build(files, work)
            (work / "built").touch()
    return work / "venv" / "bin"


def _context_files() -> list[str]:
    """What the image gets, and nothing else: every file the Dockerfile's COPY lines name, as paths in the checkout."""
    found = []
    for line in re.findall(r"^COPY (.+)$", DOCKERFILE, re.MULTILINE):
        for name in line.split()[:-1]:
            if (ROOT / name).is_dir():
                found += [str(p.relative_to(ROOT)) for p in (ROOT / name).rglob("*")
                          if p.is_file() and "__pycache__" not in p.parts]
            else:
                found.append(name)
    return found


def _build(files: list[str], work: Path) -> None:
    context = work / "context"
    for name in files:
        (context / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, context / name)
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "-w",
                    str(work / "wheels"), str(context)], check=True, capture_output=True, timeout=300)
    venv = work / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    [packages] = list(venv.glob("lib/python*/site-packages"))
    (packages / "memfix-test-deps.pth").write_text(site.getsitepackages()[0] + "\n")  # dependencies, not memfix
    [wheel] = list((work / "wheels").glob("memfix-*.whl"))
    subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "-q", "--no-deps", "--no-index",
                    str(wheel)], check=True, capture_output=True, timeout=300)


def env(pg_url: str, home: Path, **extra: str) -> dict[str, str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("MEMFIX_", "GITHUB_", "DATABASE_"))}
    clean.pop("PYTHONPATH", None)
    return {**clean, "DATABASE_URL": pg_url, "DATABASE_APP_URL": login_url(pg_url), "MEMFIX_DATA_DIR": str(home),
            "MEMFIX_ENV_FILE": str(home / ".env"), **extra}


def test_the_installed_package_runs_outside_the_checkout(installed, pg_url, tmp_path):
    where = subprocess.run([str(installed / "python"), "-c", "import core, handlers; print(core.__file__)"],
                           cwd=tmp_path, capture_output=True, text=True, check=True).stdout
    code = Path(where.strip())
    assert code.is_relative_to(installed.parent) and "site-packages" in where  # the wheel's code, not this checkout's
    assert not code.is_relative_to(ROOT / "core")
    migrated = subprocess.run([str(installed / "memfix"), "migrate"], cwd=tmp_path, env=env(pg_url, tmp_path),
                              capture_output=True, text=True, timeout=120)
    assert migrated.returncode == 0, migrated.stderr
    port = _free_port()
    server = subprocess.Popen([str(installed / "memfix"), "serve", "--port", str(port)], cwd=tmp_path,
                              env=env(pg_url, tmp_path), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline()
        assert "memfix listening" in line
        browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())  # signed in by the printed link
        for url, expected in ((f"http://127.0.0.1:{port}/healthz", '"ok":true'),
                              (re.search(r"dashboard at (\S+)", line)[1], "Register memfix as a GitHub App"),
                              (f"http://127.0.0.1:{port}/setup", "hook_attributes")):
            with browser.open(url, timeout=20) as page:
                assert page.status == 200 and expected in page.read().decode(), url
        health = re.search(r'HEALTHCHECK .*CMD (\[.*\])', DOCKERFILE)[1]
        checked = subprocess.run(json.loads(health), cwd=tmp_path, env={**env(pg_url, tmp_path),
                                 "PATH": f"{installed}:{os.environ['PATH']}"}, capture_output=True, text=True,
                                 timeout=120)
        assert checked.returncode == 0 and json.loads(checked.stdout)["healthy"], checked.stdout + checked.stderr
    finally:
        server.send_signal(signal.SIGTERM)
        server.communicate(timeout=60)


def test_an_installation_without_its_migrations_refuses_to_start(installed, pg_url, tmp_path):
    [packages] = list(installed.parent.glob("lib/python*/site-packages"))
    broken = tmp_path / "broken"
    shutil.copytree(packages / "core", broken / "core")
    shutil.copytree(packages / "handlers", broken / "handlers")
    shutil.rmtree(broken / "core" / "migrations")
    run = subprocess.run([str(installed / "python"), "-m", "handlers.cli", "serve", "--port", str(_free_port())],
                         cwd=broken, env=env(pg_url, tmp_path), capture_output=True, text=True, timeout=120)
    assert run.returncode != 0 and "no database migrations" in run.stderr and "incomplete" in run.stderr
    assert "Traceback" not in run.stderr


def test_a_worker_without_a_heartbeat_is_unhealthy(installed, pg_url, tmp_path):
    checked = subprocess.run([str(installed / "memfix"), "health"], cwd=tmp_path, env=env(pg_url, tmp_path),
                             capture_output=True, text=True, timeout=120)
    answer = json.loads(checked.stdout)
    assert checked.returncode == 1 and not answer["healthy"] and "no worker heartbeat" in answer["problems"][0]


def test_the_readme_examples_run_as_written_with_the_installed_package(installed, tmp_path):
    """`make run` twice (`memfix autofix samples/shop`), then the README's memory example, on the embedded database
    of a fresh data folder: the second run says what it remembered, the example finds what the first one stored."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    make_run = re.search(r"`make run` is `memfix (autofix [^`]+)`", readme)[1].split()
    recall = re.search(r"`(?:\.venv/bin/)?memfix (recall [^`]+)`", readme)[1].split()
    shutil.copytree(ROOT / "samples", tmp_path / "samples")
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("MEMFIX_", "GITHUB_", "DATABASE_", "XDG_"))}
    clean.pop("PYTHONPATH", None)
    # a fresh user: the README's default data folder is theirs; each command stops its database (no keeper outlives it)
    clean.update(HOME=str(tmp_path / "home"), MEMFIX_DB_IDLE_SECONDS="0")
    runs = [subprocess.run([str(installed / "memfix"), *args], cwd=tmp_path, env=clean, capture_output=True,
                           text=True, timeout=300) for args in (make_run, make_run, recall)]
    assert all(r.returncode == 0 for r in runs), [r.stderr[-2000:] for r in runs]
    first, second, found = (r.stdout for r in runs)
    assert "First run of local/shop in memory" in first and "Verified patches:" in first
    assert "Remembered from run 1" in second and "already known and reinforced" in second
    assert "F401" in found and "nothing in memory" not in found
    assert "Traceback" not in "".join(r.stderr for r in runs)
