"""AutoFix budget: offline AutoFix on a real tree within 3× of ruff's own time on the same tree (whole processes).

Run: `python -m benchmarks.autofix`. Prints numbers; asserts nothing.

The tree is Django's source distribution (≈ 2,800 Python files), fetched from PyPI at benchmark time with
`pip download --no-deps --no-binary :all: django==5.1.*` (the latest Django sdist if that fails) into
`.memfix/bench/` and extracted there; both are reused when present. Measured:

(a) ruff alone: `ruff check --isolated --no-cache --target-version py311 --select <AutoFix rules>
    --output-format json --exit-zero .` in the tree (the flags memfix itself runs ruff with); with ruff's
    cache warm as well, for reference.
(b) memfix: `Services(settings, local=True).pipeline_runner.run(...)` on `LocalWorkspace(tree)`, offline (no
    model), on a fresh embedded PostgreSQL in a temporary directory (or DATABASE_URL: tenant 9200001 is deleted
    before and after); one database, so later runs also read what the first one learned. Nothing is wrapped: the
    run's ruff is the one it derives with the project's flags, as in production, and the breakdown is the run's
    own step times (scan: listing, the project and ruff's scan; fix and verify; publish and learn).
    (a) and (b) run 5 times each, interleaved, so that whatever else the machine does weighs on both alike; the
    ratio is the median of the per-pair ratios. CPU seconds (POSIX `getrusage`) are printed too: they vary
    less than wall time on a busy machine.
(d) whole processes, as a user runs them: `memfix autofix TREE --json` (the CLI in a subprocess, its embedded
    database in a data folder of its own, warmed by one run first) against `ruff check` with the rules and flags
    that run reports and the project's profile gives (`--isolated`, its target version, its ignores and
    per-file ignores, no cache), 5 pairs interleaved; the ratio is the median of the per-pair ratios.
(c) the prompt a model would receive for a file with findings, memory injected, after the runs stored
    their insights and envelopes (`build_prompt` with `PromptContext.sections`), against `prompt_token_budget`.
"""

from __future__ import annotations

import json
import os
import resource
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

REQUIREMENT = "django==5.1.*"
CACHE = Path(__file__).resolve().parents[1] / ".memfix" / "bench"
TENANT = 9_200_001
REPO = "bench/django"
ROOT = Path(__file__).resolve().parents[1]
RUNS = 5
# Whether the team's own tools run (Django's tox runs flake8): MEMFIX_TEAM_TOOLS=false measures memfix's ruff reading
TEAM_TOOLS = ("MEMFIX_TEAM_TOOLS", "MEMFIX_TOOL_CACHE", "MEMFIX_PYPI_INDEX")
BUDGET_RATIO = 3.0


# ---- the tree ----


def fetch_tree(cache: Path = CACHE) -> Path:
    """The extracted Django sdist under `cache`, downloading and extracting it when missing."""
    cache.mkdir(parents=True, exist_ok=True)
    archives = sorted(cache.glob("[Dd]jango-*.tar.gz"))
    if not archives:
        for requirement in (REQUIREMENT, "django"):
            proc = subprocess.run(
                [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--no-binary", ":all:",
                 requirement, "-d", str(cache)], capture_output=True, text=True)
            archives = sorted(cache.glob("[Dd]jango-*.tar.gz"))
            if proc.returncode == 0 and archives:
                break
        else:
            raise SystemExit(f"could not download a Django sdist: {proc.stderr.strip()[-600:]}")
    archive = archives[-1]
    tree = cache / archive.name.removesuffix(".tar.gz")
    if not (tree / "django").is_dir():
        with tarfile.open(archive) as tar:
            tar.extractall(cache, filter="data")
    return tree


# ---- (a) ruff alone ----


def ruff_command(select: tuple[str, ...], *extra: str) -> list[str]:
    from core.languages.python.ruff import TARGET_VERSION, Ruff

    return [Ruff().binary, "check", "--isolated", "--target-version", TARGET_VERSION, "--select", ",".join(select),
            "--output-format", "json", "--exit-zero", *extra, "."]


def ruff_alone(tree: Path, select: tuple[str, ...], *extra: str) -> tuple[float, float, int]:
    """One run of ruff on the tree: (wall seconds, CPU seconds, findings)."""
    cpu = _children_cpu()
    t = time.perf_counter()
    proc = subprocess.run(ruff_command(select, *extra), cwd=tree, capture_output=True, text=True, check=True)
    return time.perf_counter() - t, _children_cpu() - cpu, len(json.loads(proc.stdout))


def ruff_warm(tree: Path, select: tuple[str, ...]) -> float:
    """Median wall seconds of ruff with its cache warm (memfix runs it without: for reference only)."""
    with tempfile.TemporaryDirectory(prefix="memfix-ruff-cache-") as cache:
        ruff_alone(tree, select, "--cache-dir", cache)  # fill it
        return statistics.median(ruff_alone(tree, select, "--cache-dir", cache)[0] for _ in range(RUNS))


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime + _children_cpu()


# ---- (b) memfix ----


@contextmanager
def services():
    """(offline services, seconds to start the database) on DATABASE_URL or a fresh embedded server in a
    temporary directory."""
    from core.settings import Settings
    from core.wiring import Services

    with tempfile.TemporaryDirectory(prefix="memfix-bench-") as tmp:
        os.chmod(tmp, 0o755)  # the embedded server may run as another system user when we are root
        env = {"MEMFIX_DATA_DIR": tmp}  # nothing else from the environment: offline, no embeddings
        for name in ("DATABASE_URL", "DATABASE_APP_URL", *TEAM_TOOLS):  # the owner migrates, the login runs
            if os.environ.get(name):
                env[name] = os.environ[name]
        s = Services(Settings.from_env(env), local=True)
        t = time.perf_counter()
        with s.db.system():  # the database started and migrated outside the timings (it opens in a thread)
            pass
        started = time.perf_counter() - t
        _drop_tenant(s)
        try:
            yield s, started
        finally:
            _drop_tenant(s)
            if "db" in s.__dict__:
                s.db.close()
            from core import db as core_db

            for server in list(core_db._embedded.values()):
                server.cleanup()
            core_db._embedded.clear()


def _drop_tenant(s) -> None:
    import psycopg

    from core.db import resolve_url

    with psycopg.connect(resolve_url(s.settings), autocommit=True) as conn:
        conn.execute("DELETE FROM installations WHERE tenant_id = %s", (TENANT,))


def run_memfix(s, tree: Path):
    """One offline AutoFix run through the real code path, nothing wrapped: (report, wall seconds, CPU seconds).
    The report's own step times (`RunReport.seconds`) give the breakdown.

    CPU seconds are this process's and its ruff subprocesses' (the database server's are not counted)."""
    from core.pipelines.values import RunRequest
    from core.pipelines.workspace import LocalWorkspace

    cpu = _own_cpu()
    t = time.perf_counter()
    report = s.pipeline_runner.run(RunRequest(TENANT, REPO, "autofix", "local"), LocalWorkspace(tree))
    return report, time.perf_counter() - t, _own_cpu() - cpu


# ---- (c) the prompt ----


def prompt_sizes(s, report, tree: Path) -> dict:
    """The prompt for the median-sized file with findings, memory injected; how many such files fit."""
    from core.memory.context import estimate_tokens
    from core.pipelines.prompt import build_prompt
    from core.pipelines.values import RunRequest
    from core.pipelines.workspace import LocalWorkspace

    runner, workspace = s.pipeline_runner, LocalWorkspace(tree)
    request = RunRequest(TENANT, REPO, "autofix", "local")
    query = "\n".join(sorted({f"{f.code} {f.message}" for f in report.findings}))[:2000]  # as the runner asks
    sections = s.prompt_context.sections(TENANT, REPO, "autofix", query, [])
    by_file: dict[str, list] = {}
    for f in report.findings:
        by_file.setdefault(f.path, []).append(f)
    sizes = []
    for path, findings in by_file.items():
        text = workspace.read(path)
        if text is not None:
            prompt = build_prompt(request, path, text, findings, sections, None, 10**9)
            sizes.append((estimate_tokens(prompt), path, len(findings)))
    sizes.sort()
    tokens, path, n = sizes[len(sizes) // 2]
    budget = runner.limits.prompt_token_budget
    return {"path": path, "findings": n, "tokens": tokens, "memory_tokens": estimate_tokens(sections.text()),
            "learnings": len(sections.learnings), "budget": budget,
            "fit": sum(t <= budget for t, _, _ in sizes), "files": len(sizes)}


# ---- report ----


def whole_processes(tree: Path) -> tuple[float, float, float, list[str]]:
    """(d): (memfix median s, ruff median s, median ratio, ruff's command) as two processes a user starts."""
    from core.languages.python.project import read_profile
    from core.languages.python.ruff import Ruff

    with tempfile.TemporaryDirectory(prefix="memfix-bench-cli-") as data:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("MEMFIX_", "DATABASE_"))}
        env.pop("PYTHONDONTWRITEBYTECODE", None)  # compiled once, as an installed package is (pip compiles it)
        env.update(MEMFIX_DATA_DIR=data, PYTHONPATH=str(ROOT), PYTHONPYCACHEPREFIX=str(CACHE / "pycache"),
                   **{name: os.environ[name] for name in TEAM_TOOLS if name in os.environ})
        command = [sys.executable, "-m", "handlers.cli", "autofix", str(tree), "--json"]

        def memfix() -> tuple[float, dict]:
            t = time.perf_counter()
            proc = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, check=True)
            return time.perf_counter() - t, json.loads(proc.stdout)

        _, first = memfix()  # the embedded database made, migrated and warm
        runs = first if isinstance(first, list) else [first]  # a run per language the tree has
        rules = tuple(r for r in next(r for r in runs if r["language"] == "python")["rules"]["selected"]
                      if Ruff().knows(r))  # ruff's rules: a team formatter's layout (black:format) is no selector
        profile = read_profile(lambda p: (tree / p).read_text() if (tree / p).is_file() else None)
        profile = profile.known_to(Ruff().knows)  # as memfix's run reads it: codes this ruff lacks left out
        ruff = [Ruff().binary, "check", "--isolated", "--no-cache", "--exit-zero", "--output-format", "json",
                "--select", ",".join(rules), *profile.ruff_args(rules), "."]

        def ruff_check() -> float:
            t = time.perf_counter()
            subprocess.run(ruff, cwd=tree, capture_output=True, check=True)
            return time.perf_counter() - t

        pairs = [(ruff_check(), memfix()[0]) for _ in range(RUNS)]
    return (statistics.median(m for _, m in pairs), statistics.median(r for r, _ in pairs),
            statistics.median(m / r for r, m in pairs), ruff)


def main() -> None:
    from core.pipelines.config import AUTOFIX_RULES
    from core.pipelines.workspace import LocalWorkspace

    t = time.perf_counter()
    tree = fetch_tree()
    fetched = time.perf_counter() - t
    files = len(LocalWorkspace(tree).files())

    processes = whole_processes(tree)
    with services() as (s, start):
        # Interleaved, ruff then memfix, so that whatever else the machine is doing weighs on both alike.
        pairs = [(ruff_alone(tree, AUTOFIX_RULES, "--no-cache"), run_memfix(s, tree)) for _ in range(RUNS)]
        warm = ruff_warm(tree, AUTOFIX_RULES)
        runs = [m for _, m in pairs]
        report, wall, cpu = sorted(runs, key=lambda r: r[1])[len(runs) // 2]
        prompt = prompt_sizes(s, report, tree)
        db = "DATABASE_URL" if s.settings.database_url else "embedded, temporary"

    ruff_wall = statistics.median(r[0] for r, _ in pairs)
    ruff_cpu = statistics.median(r[1] for r, _ in pairs)
    ruff_findings = pairs[-1][0][2]
    ratio = statistics.median(m[1] / r[0] for r, m in pairs)
    scan_ratio = statistics.median(m[0].seconds.get("scan", 0.0) / r[0] for r, m in pairs)
    statuses: dict[str, int] = {}
    for o in report.outcomes:
        statuses[o.status] = statuses.get(o.status, 0) + 1
    envelopes = sum(o.attempts for o in report.outcomes)

    print("autofix benchmark (offline: ruff only, no model)")
    print(f"  tree: {tree.name} from PyPI ({REQUIREMENT}), {files} Python files in scope"
          f" (ready in {fetched:.1f} s); {os.cpu_count()} CPUs; database {db} (started in {start:.1f} s);"
          f" {RUNS} runs of each, interleaved")
    print(f"  (a) ruff alone, AutoFix rules, no cache: {ruff_wall:.2f} s median"
          f" ({', '.join(f'{r[0]:.2f}' for r, _ in pairs)}), CPU {ruff_cpu:.2f} s; {ruff_findings} findings"
          f" (with its cache warm: {warm:.2f} s, for reference)")
    print(f"  (b) memfix autofix: {wall:.2f} s median ({', '.join(f'{m[1]:.2f}' for m in runs)}),"
          f" CPU {statistics.median(m[2] for m in runs):.2f} s (database server not counted);"
          f" {report.files_scanned} files, {len(report.findings)} findings in"
          f" {len({f.path for f in report.findings})} files, {len(report.promoted)} fixes verified (PROMOTED);"
          f" outcomes {', '.join(f'{k} {v}' for k, v in sorted(statuses.items()))}")
    print(f"      ratio to ruff alone (median over the runs): {ratio:.2f}× whole run, {scan_ratio:.2f}× the scan"
          f" (budget ≤ {BUDGET_RATIO:g}×)")
    print("      steps of the median run (its report's own times): "
          + " | ".join(f"{step} {seconds:.2f} s" for step, seconds in report.seconds.items())
          + f"; {envelopes} envelopes; {report.learned} insights saved or reinforced")
    print(f"  (c) prompt with memory injected, median-sized file with findings ({prompt['path']},"
          f" {prompt['findings']} findings): ≈ {prompt['tokens']} tokens, of which memory ≈ {prompt['memory_tokens']}"
          f" ({prompt['learnings']} learnings) (budget prompt_token_budget = {prompt['budget']});"
          f" {prompt['fit']}/{prompt['files']} files with findings fit the budget")
    memfix_s, ruff_s, process_ratio, ruff = processes
    print(f"  (d) whole processes: `memfix autofix {tree.name} --json` {memfix_s:.2f} s median against"
          f" `ruff check` with the same rules and flags {ruff_s:.2f} s: {process_ratio:.2f}× (budget ≤"
          f" {BUDGET_RATIO:g}×); ruff ran as: {' '.join(ruff[1:8])} … ({len(ruff)} arguments)")


if __name__ == "__main__":
    from benchmarks import stoppable

    stoppable()
    main()
