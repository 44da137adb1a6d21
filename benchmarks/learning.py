"""Learning-curve benchmark: does what memfix remembers change what it proposes? Memory on against memory off.

Run: `python -m benchmarks.learning [--pushes N] [--per-push K]`. Prints numbers; asserts nothing. No network: the
fake GitHub of the tests, memfix serve's real webhook → queue → worker path, an embedded PostgreSQL in a temporary
directory (stopped at the end), offline (ruff's safe fixes, no model).

The seed is a vendored slice of NLTK 3.4.5 (Apache-2.0; its LICENSE.txt and SOURCE.md travel with it), kept as one
archive, `benchmarks/learning_repo.tar.xz`, unpacked on first use into `.memfix/bench/`: 40 real files on which
memfix's AutoFix promotes fixes, pushed K at a time (2 by default: 20 pushes) in a fixed shuffled order to two
identical repositories with a CI workflow and the team's `ruff.toml` (every reviewer's have it), one per arm:
- memory on: one installation for all pushes, so every run starts from what earlier runs learned;
- memory off: a new installation for every push, so nothing is remembered (what a bot without memory does).
A simulated maintainer with hidden, fixed preferences reviews every PR memfix opens, through signed webhooks:
- a CI that fails fixes of F841 (an unused variable's removal the tests notice) — the check suite reports red;
- a reviewer who closes any PR that removes imports (F401: "they are this package's API") and merges the rest
  once CI is green; a PR whose CI failed is closed too.
Per push and arm it prints PRs opened, merged, closed, CI-failed, and the cumulative acceptance rate (merged /
opened). bad = closed unmerged or CI failed (after the maintainer's re-run, where they re-run). Pushes are a day
apart: after each, the dates memfix keeps (its decisions, its PRs) move back a day, so exploration's budget of one
exploratory PR per repository a week plays out as it would over 20 days.
The same pushes are then reviewed by other maintainers (`REVIEWERS`), each on two fresh repositories: one who closes
F401 only in tests ("place"), a CI that fails 20 % of runs at random and a maintainer who re-runs a red check once
("flaky-ci", the base commit's CI green; a run's luck is drawn from the PR and the run's number, so both arms get the
same luck on the same PR, and the CI answers the re-runs memfix asks for; five trials of other luck, summed), the same
CI with a team that never re-runs it and closes what is red ("flaky-quiet", five trials, each in another file
order), a team that closes every PR in one folder synced from upstream whatever the rule ("upstream", five file
orders), a maintainer who closes 15 % of PRs at random ("random", five trials in other file orders; no harm is
the target: memory on merges at least 98 % of what memory off merges and sends no more bad PRs, as for the flaky CIs
and the commit-status CI), one who closes every PR that carries F841 whatever else it fixes ("pair": F401 beside it
is not to blame), one who closes every PR in upstream modules vendored at the repository's root ("root": nothing
below the root is held), one whose taste flips after 10 pushes ("flip"), one who merges everything for 10 pushes
and then closes F401 ("turn"), one who writes why when closing ("words"), and a commit-status CI (Jenkins-like: the
Statuses API and the `status` webhook) red 20 % of runs at random on the PR's commit, green on the base commit, whose
team merges every green PR and closes red ones ("status-ci", five trials of luck); and chance alone again with other
luck, rates and orders ("status-30", "status-orders", "quiet-luck", "random-25"), so no policy change is tuned on
one draw of noise. Each prints
`learning[NAME]: bad PRs memory-on A, memory-off B; merged memory-on C, memory-off D` with the target 3·A ≤ B and
C ≥ D (a reviewer or CI of chance alone: C ≥ 98 % of D and A ≤ B: noise no memory can learn away must not cost
merges), and
`learning[NAME]: CI runs memfix triggered per memfix PR …`: the re-runs memfix asked for ÷ the PRs it opened, per
arm. The last line is the default reviewer's:
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
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

ARCHIVE = Path(__file__).resolve().parent / "learning_repo.tar.xz"
CI_WORKFLOW = {".github/workflows/tests.yml": "on: [push, pull_request]\njobs:\n  tests:\n    runs-on: ubuntu-latest\n"
               "    steps: [{uses: actions/checkout@v4}, {run: python -m pytest}]\n"}
TEAM_LINT = {"ruff.toml": "line-length = 88\n"}  # every team runs ruff at its defaults: memfix proposes what it selects
CLOSES = {"F401"}  # the reviewer's hidden preference
CI_FAILS = {"F841"}  # the CI's hidden verdict
TENANT_ON, TENANT_OFF = 9_300_001, 9_310_000
MAX_RERUN_ROUNDS = 3  # re-runs memfix may ask for on one commit, answered one round at a time
_CODES = re.compile(r"\b([A-Z]{1,8}[0-9]{1,4})\b")
_PATH = re.compile(r" in (\S+)$")


@dataclass(frozen=True)
class Review:
    """What the simulated maintainer sees of one memfix PR."""

    codes: frozenset[str]
    path: str
    push: int  # which push opened it, from 1


@dataclass(frozen=True)
class Reviewer:
    """A maintainer with hidden preferences, and the repository's CI: `breaks`, the changes its tests catch;
    `noise`, how often a run fails for reasons of its own (a seeded draw); `rerun`, whether the maintainer runs a red
    check again once; `merges`, which green PRs the maintainer merges; `why`, what they write when closing one."""

    name: str
    describe: str
    merges: Callable[[Review], bool]
    breaks: Callable[[Review], bool] = lambda review: False
    noise: float = 0.0
    rerun: bool = False
    why: Callable[[Review], str | None] = lambda review: None
    trials: int = 1  # a CI's luck decides: the pushes are played again with other luck, and the totals summed
    orders: bool = False  # each trial pushes the files in another order (the first keeps the seed's)
    flips: tuple[str, int] | None = None  # (rule, push): the taste changes after that push, for that rule
    luck: int = 0
    closes: float = 0.0  # how often the reviewer closes a green PR it would merge, at random (a seeded draw)
    moved: Callable[[str], str] = lambda path: path  # where the seed's file lies in this reviewer's repository

    @property
    def chance(self) -> bool:
        """Whether only chance closes or reddens PRs (no taste, nothing the change breaks): memory must do no harm."""
        return bool(self.noise or self.closes) and self.merges(Review(frozenset({"F401"}), "x.py", 1)) \
            and not self.breaks(Review(frozenset({"F841"}), "x.py", 1))

    def takes(self, review: Review) -> bool:
        """Whether the reviewer merges a green PR: its taste, less its closes at random (the same luck both arms)."""
        luck = random.Random(f"close:{self.name}:{self.luck}:{review.push}:{review.path}:{sorted(review.codes)}")
        return self.merges(review) and luck.random() >= self.closes
    ci: str = "check"  # how the CI reports: a check run of GitHub Actions, or a commit "status" (Jenkins-like)

    def red(self, review: Review, run: int) -> bool:
        """Whether the CI's `run`-th run (from 0) of this PR's commit fails: the change broke it, or noise drawn from
        the PR, the run and the trial alone, so both arms get the same luck on the same PR."""
        luck = random.Random(f"{self.name}:{self.luck}:{review.push}:{review.path}:{sorted(review.codes)}:{run}")
        return self.breaks(review) or luck.random() < self.noise


def _at_root(path: str) -> str:
    """The upstream reader package vendored at the repository's root, one file a module (`reader_wordnet.py`)."""
    return "reader_" + path.rsplit("/", 1)[1] if path.startswith("nltk/corpus/reader/") else path


def _in_tests(review: Review) -> bool:
    return "/test/" in f"/{review.path}" or review.path.rsplit("/", 1)[-1].startswith("test_")


REVIEWERS = (
    Reviewer("default", "the CI fails F841 fixes; the reviewer closes F401 (imports are the package's API)",
             lambda r: not r.codes & CLOSES, breaks=lambda r: bool(r.codes & CI_FAILS)),
    Reviewer("place", "closes F401 fixes in tests (test imports are fixtures), merges them in library code",
             lambda r: not ("F401" in r.codes and _in_tests(r))),
    Reviewer("flaky-ci", "merges every green PR; the CI fails 20 % of runs at random and the maintainer re-runs a "
             "red check once", lambda r: True, noise=0.2, rerun=True, trials=5),
    Reviewer("flaky-quiet", "merges every green PR and closes every red one; the CI fails 20 % of runs at random and "
             "nobody re-runs it", lambda r: True, noise=0.2, trials=5, orders=True),
    Reviewer("upstream", "closes every PR in nltk/corpus/reader/ (synced from upstream), whatever the rule; merges "
             "the rest", lambda r: not r.path.startswith("nltk/corpus/reader/"), trials=5, orders=True),
    Reviewer("flip", "closes F401 fixes for 10 pushes, then (a new maintainer) merges them",
             lambda r: "F401" not in r.codes or r.push > 10, flips=("F401", 10)),
    Reviewer("turn", "merges every green PR for 10 pushes, then (a new maintainer) closes F401 fixes",
             lambda r: "F401" not in r.codes or r.push <= 10),
    Reviewer("random", "closes 15 % of PRs at random, whatever the rule or place, and merges the rest",
             lambda r: True, closes=0.15, trials=5, orders=True),
    Reviewer("pair", "closes every PR that removes an unused variable (F841), whatever else it fixes (F401 beside "
             "it included); merges the rest", lambda r: "F841" not in r.codes, trials=3, orders=True),
    Reviewer("root", "closes every PR in the upstream modules vendored at the repository's root, whatever the rule; "
             "merges the rest", lambda r: "/" not in r.path, moved=_at_root, trials=3, orders=True),
    Reviewer("words", "closes F401 fixes in tests and says why in the closing comment, then sends the decision memfix "
             "offers back; merges the rest", lambda r: not ("F401" in r.codes and _in_tests(r)),
             why=lambda r: f"No F401 removals in {r.path}: test imports are fixtures."
             if "F401" in r.codes and _in_tests(r) else None),
    Reviewer("status-ci", "merges every green PR and closes every red one; a commit-status CI (Jenkins-like) fails "
             "20 % of runs at random on the PR's commit, green on the base commit", lambda r: True, noise=0.2,
             trials=5, ci="status"),
    # chance alone again, with other luck (a reviewer's luck is drawn from its name), rates and file orders: no
    # policy change is tuned on one draw of noise
    Reviewer("status-30", "merges every green PR and closes every red one; a commit-status CI fails 30 % of runs at "
             "random", lambda r: True, noise=0.3, trials=5, orders=True, ci="status"),
    Reviewer("status-orders", "status-ci with other luck, in five file orders", lambda r: True, noise=0.2, trials=5,
             orders=True, ci="status"),
    Reviewer("quiet-luck", "flaky-quiet with other luck", lambda r: True, noise=0.2, trials=5, orders=True),
    Reviewer("random-25", "closes 25 % of PRs at random, whatever the rule or place, and merges the rest",
             lambda r: True, closes=0.25, trials=5, orders=True),
)
JENKINS = {"Jenkinsfile": "pipeline { agent any; stages { stage('test') { steps { sh 'python -m pytest' } } } }\n"}
STATUS = "ci/jenkins"  # the status context a status CI reports under


@dataclass
class Tally:
    opened: int = 0
    merged: int = 0
    closed: int = 0
    ci_failed: int = 0
    merged_rules: tuple[str, ...] = ()  # each merged PR's rules
    reruns: int = 0  # CI runs memfix triggered: the re-runs of a check it asked GitHub for

    @property
    def bad(self) -> int:
        return self.closed + self.ci_failed

    def __add__(self, other: Tally) -> Tally:
        return Tally(self.opened + other.opened, self.merged + other.merged, self.closed + other.closed,
                     self.ci_failed + other.ci_failed, self.merged_rules + other.merged_rules,
                     self.reruns + other.reruns)


@dataclass
class Arm:
    name: str
    repo: str
    remembers: bool
    per_push: list[Tally] = field(default_factory=list)
    seen: set[int] = field(default_factory=set)
    reruns: int = 0  # how many of memfix's re-runs of a check the CI has answered
    tenants: int = 0  # which reviewer's installations: each reviewer's runs start from nothing

    def tenant(self, push: int) -> int:
        return TENANT_ON + self.tenants if self.remembers else TENANT_OFF + 1000 * self.tenants + push

    def total(self, upto: int | None = None) -> Tally:
        return sum(self.per_push[:upto], Tally())


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
        self.services.policy.rng = random.Random(345)  # exploration's draws: the same run to run
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

    def push(self, arm: Arm, number: int, files: dict[str, str], reviewer: Reviewer) -> Tally:
        tenant, tally = arm.tenant(number), Tally()
        asked_before = len(self.gh.reruns(arm.repo))
        sha = self.gh.push(arm.repo, "main", files)
        if reviewer.ci == "status":  # CI on main: green
            self.gh.set_status(arm.repo, sha, STATUS, "success", description="all tests passed")
        else:
            self.gh.add_check_run(arm.repo, sha, "tests", conclusion="success")
        self.post("push", self.P.push(installation=tenant, repo=arm.repo, after=sha,
                                      commits=[{"added": sorted(files), "modified": [], "removed": []}]))
        self.drain()
        fresh = [p for p in self.gh.pulls(arm.repo) if p["head"]["ref"].startswith("memfix/")
                 and p["state"] == "open" and p["number"] not in arm.seen]
        reviews, red, runs = {}, {}, {}
        for pr in fresh:  # the repository's CI reports on each new PR's commit
            arm.seen.add(pr["number"])
            tally.opened += 1
            path = _PATH.search(pr["title"])
            review = Review(frozenset(_CODES.findall(pr["title"])), path.group(1) if path else "", number)
            reviews[pr["number"]], runs[pr["number"]] = review, 0
            red[pr["number"]] = reviewer.red(review, 0)
            self._ci(arm, tenant, pr, red[pr["number"]], reviewer.ci)
        self.drain()
        for _ in range(MAX_RERUN_ROUNDS):  # memfix ran a red check again itself: the CI answers, round by round
            asked = self.gh.reruns(arm.repo)[arm.reruns:]
            if not asked:
                break
            arm.reruns += len(asked)
            shas = {r["id"]: r["head_sha"] for r in self.gh.check_runs(arm.repo)}
            for pr in fresh:
                if pr["head"]["sha"] in {shas.get(rid) for rid in asked}:
                    runs[pr["number"]] += 1
                    red[pr["number"]] = reviewer.red(reviews[pr["number"]], runs[pr["number"]])
                    self._ci(arm, tenant, pr, red[pr["number"]], reviewer.ci)
            self.drain()
        for pr in fresh:  # a flaky CI's maintainer runs a red check again: it passes unless the change broke it
            if red[pr["number"]] and reviewer.rerun:
                runs[pr["number"]] += 1
                red[pr["number"]] = reviewer.red(reviews[pr["number"]], runs[pr["number"]])
                self._ci(arm, tenant, pr, red[pr["number"]], reviewer.ci)
        self.drain()
        for pr in fresh:  # the reviewer decides
            review = reviews[pr["number"]]
            merge = self._decide(arm, tenant, pr, review, red[pr["number"]], reviewer)
            tally.merged += merge
            tally.merged_rules += tuple(sorted(review.codes)) if merge else ()
            tally.ci_failed += red[pr["number"]]
            tally.closed += not merge and not red[pr["number"]]
        self.drain()
        tally.reruns = len(self.gh.reruns(arm.repo)) - asked_before
        self.day_passes(tenant)
        return tally

    def _decide(self, arm: Arm, tenant: int, pr: dict, review: Review, red: bool, reviewer: Reviewer) -> bool:
        """The reviewer merges a green PR it wants, else closes it (saying why, when it would); whether it merged."""
        merge = not red and reviewer.takes(review)
        current = self.gh.pull(arm.repo, pr["number"])
        if merge and current["draft"]:
            raise RuntimeError(f"PR #{pr['number']} is green but still a draft")
        self.gh.close_pull(arm.repo, pr["number"], merged=merge)
        why = reviewer.why(review) if not merge else None
        if why:
            self.gh.add_comment(arm.repo, pr["number"], why, user="alice")
        self.post("pull_request", self.P.pull_request_closed(
            installation=tenant, repo=arm.repo, number=pr["number"], branch=pr["head"]["ref"], merged=merge,
            sha=current["head"]["sha"], closer="maintainer"))
        if why:
            self._take_offered_decision(arm, tenant, pr)
        return merge

    def _take_offered_decision(self, arm: Arm, tenant: int, pr: dict) -> None:
        """memfix offers the decision back; the maintainer sends the command it names."""
        self.drain()
        offered = [c["body"] for c in self.gh.comments(arm.repo, pr["number"])
                   if c["user"]["login"].endswith("[bot]") and "Reply `/remember" in c["body"]]
        for command in re.findall(r"Reply `(/remember decision [^`]+)`", "\n".join(offered))[:1]:
            cid = self.gh.add_comment(arm.repo, pr["number"], command, user="alice")["id"]
            self.post("issue_comment", self.P.issue_comment(command, installation=tenant, repo=arm.repo,
                                                            number=pr["number"], comment_id=cid))

    def day_passes(self, tenant: int) -> None:
        """Pushes are a day apart: what memfix dates (its decisions, its PRs) moves a day into the past, so
        exploration's weekly budget works in the benchmark's minutes as it does in a team's weeks."""
        with self.services.db.tenant(tenant) as conn:
            conn.execute("UPDATE rule_decisions SET created_at = created_at - interval '1 day'")
            conn.execute("UPDATE proposals SET created_at = created_at - interval '1 day',"
                         " updated_at = updated_at - interval '1 day'")
            conn.execute("UPDATE ci_reruns SET asked_at = asked_at - interval '1 day'")  # the weekly cap's week

    def _ci(self, arm: Arm, tenant: int, pr: dict, red: bool, how: str = "check") -> None:
        if how == "status":  # a Jenkins-like CI: a commit status, then GitHub's `status` event
            self.gh.set_status(arm.repo, pr["head"]["sha"], STATUS, "failure" if red else "success",
                               description="1 test failed" if red else "all tests passed")
            self.post("status", self.P.status_event(installation=tenant, repo=arm.repo, sha=pr["head"]["sha"],
                                                    branches=[pr["head"]["ref"]], state="failure" if red else "success",
                                                    context=STATUS, status_id=next(self._suites)))
            return
        self.gh.add_check_run(arm.repo, pr["head"]["sha"], "tests", conclusion="failure" if red else "success",
                              title="1 test failed" if red else "all tests passed",
                              summary="test_side_effects: the removed assignment's call no longer runs" if red else "")
        self.post("check_suite", self.P.check_suite_completed(
            installation=tenant, repo=arm.repo, head_sha=pr["head"]["sha"], head_branch=pr["head"]["ref"],
            conclusion="failure" if red else "success", suite_id=next(self._suites)))


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
    parser.add_argument("--reviewer", action="append", choices=[r.name for r in REVIEWERS],
                        help="only these reviewers (default: all; the last line is always the default one's)")
    parser.add_argument("--pack", type=Path, metavar="FOLDER", help="rewrite the seed archive from FOLDER and stop")
    args = parser.parse_args()
    if args.pack:
        pack(args.pack)
        return
    seed = unpacked()
    files = seed_files(seed)
    batches = [files[i:i + args.per_push] for i in range(0, len(files), args.per_push)]
    batches = batches[:args.pushes] if args.pushes else batches
    reviewers = [r for r in REVIEWERS if not args.reviewer or r.name in args.reviewer or r.name == "default"]
    started = time.perf_counter()
    results: dict[str, tuple[Arm, Arm]] = {}
    with tempfile.TemporaryDirectory(prefix="memfix-learning-") as tmp:
        os.chmod(tmp, 0o755)  # the embedded server may run as another system user when we are root
        harness = Harness(tmp)
        try:
            for index, reviewer in enumerate(reviewers):
                results[reviewer.name] = run_reviewer(harness, seed, batches, reviewer, index, args.per_push)
        finally:
            harness.close()
    for reviewer in reviewers:
        on, off = (a.total() for a in results[reviewer.name])
        if reviewer.chance:  # nothing to learn: memory must do no harm
            target, met = "A ≤ B and C ≥ 98 % of D", on.bad <= off.bad and on.merged * 100 >= off.merged * 98
        else:
            target, met = "3·A ≤ B and C ≥ D", on.bad * 3 <= off.bad and on.merged >= off.merged
        rates = f"; bad per PR opened memory-on {_rate(on)}, memory-off {_rate(off)}" if reviewer.chance else ""
        print(f"learning[{reviewer.name}]: bad PRs memory-on {on.bad}, memory-off {off.bad}; merged memory-on "
              f"{on.merged}, memory-off {off.merged} (target {target}: {'met' if met else 'not met'}){rates}")
        print(f"learning[{reviewer.name}]: CI runs memfix triggered per memfix PR (re-runs asked ÷ PRs opened): "
              f"memory-on {_per(on)}, memory-off {_per(off)}")
        if reviewer.flips:
            rule, push = reviewer.flips
            after = [sum(p.merged_rules.count(rule) for p in a.per_push[push:]) for a in results[reviewer.name]]
            print(f"learning[{reviewer.name}]: {rule} fixes merged after push {push}, the flip: memory-on {after[0]}, "
                  f"memory-off {after[1]} (target: merged again: {'met' if after[0] else 'not met'})")
    arms = results["default"]
    on, off = (a.total() for a in arms)
    on10, off10 = (a.total(10) for a in arms)
    print(f"after 10 pushes: bad PRs memory-on {on10.bad}, memory-off {off10.bad} "
          f"(target ≤ 1/3: {'met' if on10.bad * 3 <= off10.bad else 'not met'}); "
          f"merged memory-on {on10.merged}, memory-off {off10.merged}")
    print(f"opened memory-on {on.opened}, memory-off {off.opened}; {time.perf_counter() - started:.0f} s")
    print(f"learning: bad PRs memory-on {on.bad}, memory-off {off.bad}; merged memory-on {on.merged}, "
          f"memory-off {off.merged}")


def _rate(tally: Tally) -> str:
    return f"{tally.bad / tally.opened:.2f}" if tally.opened else "-"


def _per(tally: Tally) -> str:
    return f"{tally.reruns}/{tally.opened} = {tally.reruns / tally.opened:.2f}" if tally.opened else f"{tally.reruns}/0"


def run_reviewer(harness: Harness, seed: Path, batches: list[list[str]], reviewer: Reviewer, index: int,
                 per_push: int) -> tuple[Arm, Arm]:
    """The reviewer's trials (one unless a CI's luck or the files' order decides), each arm's pushes summed over
    them."""
    played = [play(harness, seed, _ordered(batches, t) if reviewer.orders else batches, replace(reviewer, luck=t),
                   index + 100 * t, per_push) for t in range(reviewer.trials)]
    on, off = (Arm(arms[0].name, arms[0].repo, arms[0].remembers,
                   [sum(push, Tally()) for push in zip(*(a.per_push for a in arms), strict=True)])
               for arms in zip(*played, strict=True))
    return on, off


def _ordered(batches: list[list[str]], trial: int) -> list[list[str]]:
    """The same files in the trial's own order (the seed's for the first), two a push as before."""
    if not trial:
        return batches
    files = [path for batch in batches for path in batch]
    random.Random(f"order:{trial}").shuffle(files)
    size = len(batches[0]) if batches else 1
    return [files[i:i + size] for i in range(0, len(files), size)]


def play(harness: Harness, seed: Path, batches: list[list[str]], reviewer: Reviewer, tenants: int,
         per_push: int) -> tuple[Arm, Arm]:
    """The same pushes to two fresh repositories, memory on and off, reviewed by one maintainer; prints its table."""
    trial = f"-{reviewer.luck}" if reviewer.trials > 1 else ""
    arms = (Arm("memory-on", f"bench/{reviewer.name}{trial}-on", True, tenants=tenants),
            Arm("memory-off", f"bench/{reviewer.name}{trial}-off", False, tenants=tenants))
    for arm in arms:
        ci = JENKINS if reviewer.ci == "status" else CI_WORKFLOW
        harness.gh.add_repo(arm.repo, {**ci, **TEAM_LINT, "LICENSE.txt": (seed / "LICENSE.txt").read_text()})
    luck = f" (the CI's luck {reviewer.luck + 1} of {reviewer.trials})" if trial else ""
    print(f"[{reviewer.name}] {len(batches)} pushes of {per_push} NLTK 3.4.5 files; {reviewer.describe}{luck}")
    print(f"{'push':>4}  {'memory-on: opened merged closed ci-red accept':<46}"
          f"{'memory-off: opened merged closed ci-red accept'}")
    for number, batch in enumerate(batches, 1):
        contents = {reviewer.moved(path): (seed / path).read_text(encoding="utf-8") for path in batch}
        row = [f"{number:>4}"]
        for arm in arms:
            arm.per_push.append(harness.push(arm, number, contents, reviewer))
            p, t = arm.per_push[-1], arm.total()
            rate = f"{t.merged / t.opened:.2f}" if t.opened else "  - "
            row.append(f"{p.opened:>18} {p.merged:>6} {p.closed:>6} {p.ci_failed:>6} {rate:>6}    ")
        print("  ".join(row), flush=True)
    return arms


if __name__ == "__main__":
    from benchmarks import stoppable

    stoppable()
    main()
