"""Learning-curve benchmark: does what memfix remembers change what it proposes? Memory on against memory off.

Run: `python -m benchmarks.learning [--pushes N] [--per-push K]`. Prints numbers; asserts nothing. No network: the
fake GitHub of the tests, memfix serve's real webhook → queue → worker path, an embedded PostgreSQL in a temporary
directory (stopped at the end), offline (ruff's safe fixes, no model).

The seed is a vendored slice of NLTK 3.4.5 (Apache-2.0; its LICENSE.txt and SOURCE.md travel with it), kept as one
archive, `benchmarks/learning_repo.tar.xz`, unpacked on first use into `.memfix/bench/`: 40 real files on which
memfix's AutoFix promotes fixes, pushed K at a time (2 by default: 20 pushes) in a fixed shuffled order to two
identical repositories with a CI workflow, one per arm:
- memory on: one installation for all pushes, so every run starts from what earlier runs learned;
- memory off: a new installation for every push, so nothing is remembered (what a bot without memory does).
A simulated maintainer with hidden, fixed preferences reviews every PR memfix opens, through signed webhooks:
- a CI that fails fixes of F841 (an unused variable's removal the tests notice) — the check suite reports red;
- a reviewer who closes any PR that removes imports (F401: "they are this package's API") and merges the rest
  once CI is green; a PR whose CI failed is closed too.
Per push and arm it prints PRs opened, merged, closed, CI-failed, and the cumulative acceptance rate (merged /
opened). bad = closed unmerged or CI failed. The last line reads
`learning: bad PRs memory-on A, memory-off B; merged memory-on C, memory-off D` (totals over all pushes).
To change the seed, edit the unpacked folder and run `python -m benchmarks.learning --pack FOLDER` (same bytes for the
same files).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import re
import shutil
import tarfile
import tempfile
import threading
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

ARCHIVE = Path(__file__).resolve().parent / "learning_repo.tar.xz"
CI_WORKFLOW = {".github/workflows/tests.yml": "on: [push, pull_request]\njobs:\n  tests:\n    runs-on: ubuntu-latest\n"
               "    steps: [{uses: actions/checkout@v4}, {run: python -m pytest}]\n"}
CLOSES = {"F401"}  # the reviewer's hidden preference
CI_FAILS = {"F841"}  # the CI's hidden verdict
TENANT_ON, TENANT_OFF = 9_300_001, 9_310_000
_CODES = re.compile(r"\b([A-Z]{1,8}[0-9]{1,4})\b")


@dataclass
class Tally:
    opened: int = 0
    merged: int = 0
    closed: int = 0
    ci_failed: int = 0

    @property
    def bad(self) -> int:
        return self.closed + self.ci_failed


@dataclass
class Arm:
    name: str
    repo: str
    remembers: bool
    per_push: list[Tally] = field(default_factory=list)
    seen: set[int] = field(default_factory=set)

    def tenant(self, push: int) -> int:
        return TENANT_ON if self.remembers else TENANT_OFF + push

    def total(self, upto: int | None = None) -> Tally:
        t = Tally()
        for p in self.per_push[:upto]:
            t.opened, t.merged, t.closed, t.ci_failed = (t.opened + p.opened, t.merged + p.merged,
                                                         t.closed + p.closed, t.ci_failed + p.ci_failed)
        return t


class Harness:
    """memfix serve on an ephemeral port, the fake GitHub, and signed deliveries between them."""

    def __init__(self, tmp: str):
        from werkzeug.serving import make_server

        from core.settings import Settings
        from core.wiring import Services
        from handlers.devserver import create_app
        from tests.fakes import payloads
        from tests.fakes.github import FakeGitHub, fake_github_settings
        from tests.fakes.http import _QuietHandler

        self.P = payloads
        self.gh = FakeGitHub().start()
        settings = fake_github_settings(self.gh, Settings.from_env({"MEMFIX_DATA_DIR": tmp}),
                                        github_webhook_secret=payloads.SECRET, job_retry_base_seconds=0.01)
        self.services = Services(settings, local=True)
        self.server = make_server("127.0.0.1", 0, create_app(self.services), threaded=True,
                                  request_handler=_QuietHandler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self._suites = iter(range(1, 10**6))

    def post(self, event: str, payload: dict) -> None:
        body = self.P.encode(payload)
        request = urllib.request.Request(f"http://127.0.0.1:{self.server.server_port}/webhook", data=body,
                                         headers=self.P.headers(event, body), method="POST")
        with urllib.request.urlopen(request, timeout=30) as response:
            if response.status != 202:
                raise RuntimeError(f"{event} delivery answered {response.status}")

    def drain(self) -> None:
        if not self.services.queue.drain(timeout=600):
            raise RuntimeError("the worker did not finish in time")

    def close(self) -> None:
        self.server.shutdown()
        self.services.close()
        self.gh.stop()

    # ---- one push, reviewed ----

    def push(self, arm: Arm, number: int, files: dict[str, str]) -> Tally:
        tenant, tally = arm.tenant(number), Tally()
        sha = self.gh.push(arm.repo, "main", files)
        self.post("push", self.P.push(installation=tenant, repo=arm.repo, after=sha,
                                      commits=[{"added": sorted(files), "modified": [], "removed": []}]))
        self.drain()
        fresh = [p for p in self.gh.pulls(arm.repo) if p["head"]["ref"].startswith("memfix/")
                 and p["state"] == "open" and p["number"] not in arm.seen]
        verdicts = {}
        for pr in fresh:  # the repository's CI reports on each new PR's commit
            arm.seen.add(pr["number"])
            tally.opened += 1
            codes = set(_CODES.findall(pr["title"]))
            red = bool(codes & CI_FAILS)
            verdicts[pr["number"]] = (codes, red)
            self.gh.add_check_run(arm.repo, pr["head"]["sha"], "tests", conclusion="failure" if red else "success",
                                  title="1 test failed" if red else "all tests passed",
                                  summary="test_side_effects: the removed assignment's call no longer runs"
                                  if red else "")
            self.post("check_suite", self.P.check_suite_completed(
                installation=tenant, repo=arm.repo, head_sha=pr["head"]["sha"], head_branch=pr["head"]["ref"],
                conclusion="failure" if red else "success", suite_id=next(self._suites)))
        self.drain()
        for pr in fresh:  # the reviewer decides
            codes, red = verdicts[pr["number"]]
            merge = not red and not (codes & CLOSES)
            current = self.gh.pull(arm.repo, pr["number"])
            if merge and current["draft"]:
                raise RuntimeError(f"PR #{pr['number']} is green but still a draft")
            self.gh.close_pull(arm.repo, pr["number"], merged=merge)
            self.post("pull_request", self.P.pull_request_closed(
                installation=tenant, repo=arm.repo, number=pr["number"], branch=pr["head"]["ref"], merged=merge,
                sha=current["head"]["sha"], closer="maintainer"))
            tally.merged += merge
            tally.ci_failed += red
            tally.closed += not merge and not red
        self.drain()
        return tally


def unpacked() -> Path:
    """The archive's tree, unpacked once per archive content into the checkout's (git-ignored) .memfix/bench/."""
    digest = hashlib.sha256(ARCHIVE.read_bytes()).hexdigest()[:12]
    target = ARCHIVE.parents[1] / ".memfix" / "bench" / f"learning_repo-{digest}"
    if target.is_dir():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".unpacking-", dir=target.parent))  # beside it: the rename stays atomic
    try:
        with tarfile.open(ARCHIVE) as archive:
            archive.extractall(staging, filter="data")  # member paths are never trusted
        try:
            (staging / "learning_repo").rename(target)
        except OSError:  # another run renamed its own complete copy first
            if not target.is_dir():
                raise
    finally:
        shutil.rmtree(staging)
    return target


def pack(folder: Path) -> None:
    """Rewrites the archive from folder's files: sorted, with fixed times and owners, so the same files give the
    same bytes."""
    with tarfile.open(ARCHIVE, "w:xz") as archive:
        for path in sorted(p for p in folder.rglob("*") if p.is_file()):
            info = archive.gettarinfo(path, f"learning_repo/{path.relative_to(folder).as_posix()}")
            info.mtime, info.mode, info.uid, info.gid, info.uname, info.gname = 0, 0o644, 0, 0, "", ""
            with path.open("rb") as content:
                archive.addfile(info, content)


def seed_files(seed: Path) -> list[str]:
    files = sorted(json.loads((seed / "findings.json").read_text()))
    random.Random(3_4_5).shuffle(files)  # a fixed order: the same run to run
    return files


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-push", type=int, default=2, help="seed files added per push (default 2)")
    parser.add_argument("--pushes", type=int, default=0, help="stop after this many pushes (default: all files)")
    parser.add_argument("--pack", type=Path, metavar="FOLDER", help="rewrite the seed archive from FOLDER and stop")
    args = parser.parse_args()
    if args.pack:
        pack(args.pack)
        return
    seed = unpacked()
    files = seed_files(seed)
    batches = [files[i:i + args.per_push] for i in range(0, len(files), args.per_push)]
    batches = batches[:args.pushes] if args.pushes else batches
    arms = [Arm("memory-on", "bench/learning-on", True), Arm("memory-off", "bench/learning-off", False)]
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="memfix-learning-") as tmp:
        os.chmod(tmp, 0o755)  # the embedded server may run as another system user when we are root
        harness = Harness(tmp)
        try:
            for arm in arms:
                harness.gh.add_repo(arm.repo, {**CI_WORKFLOW, "LICENSE.txt": (seed / "LICENSE.txt").read_text()})
            print(f"{len(batches)} pushes of {args.per_push} NLTK 3.4.5 files; reviewer closes {sorted(CLOSES)}, "
                  f"CI fails {sorted(CI_FAILS)}")
            print(f"{'push':>4}  {'memory-on: opened merged closed ci-red accept':<46}"
                  f"{'memory-off: opened merged closed ci-red accept'}")
            for number, batch in enumerate(batches, 1):
                contents = {path: (seed / path).read_text(encoding="utf-8") for path in batch}
                row = [f"{number:>4}"]
                for arm in arms:
                    arm.per_push.append(harness.push(arm, number, contents))
                    p, t = arm.per_push[-1], arm.total()
                    rate = f"{t.merged / t.opened:.2f}" if t.opened else "  - "
                    row.append(f"{p.opened:>18} {p.merged:>6} {p.closed:>6} {p.ci_failed:>6} {rate:>6}    ")
                print("  ".join(row), flush=True)
        finally:
            harness.close()
    on, off = (a.total() for a in arms)
    on10, off10 = (a.total(10) for a in arms)
    print(f"after 10 pushes: bad PRs memory-on {on10.bad}, memory-off {off10.bad} "
          f"(target ≤ 1/3: {'met' if on10.bad * 3 <= off10.bad else 'not met'}); "
          f"merged memory-on {on10.merged}, memory-off {off10.merged}")
    print(f"opened memory-on {on.opened}, memory-off {off.opened}; {time.perf_counter() - started:.0f} s")
    print(f"learning: bad PRs memory-on {on.bad}, memory-off {off.bad}; merged memory-on {on.merged}, "
          f"memory-off {off.merged}")


if __name__ == "__main__":
    main()
