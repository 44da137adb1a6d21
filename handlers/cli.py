"""`memfix` command line: thin wrappers over core services."""

from __future__ import annotations

import argparse
import gc
import json
import logging
import os
import re
import shlex
import sys
from dataclasses import asdict, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from core.errors import MemfixError
from core.languages.registry import NAMES, rule_problem, rule_selector
from core.memory.types import AttemptStatus, InsightError
from core.settings import SettingsError, get_settings

if TYPE_CHECKING:
    from collections.abc import Callable

    from core.change import Patch
    from core.pipelines.brought import Previous
    from core.pipelines.values import FileOutcome, RunReport
    from core.pipelines.workspace import LocalWorkspace
    from core.wiring import Services

    Command = Callable[[argparse.Namespace], int]  # a subcommand's function: its exit status

LOCAL_PERSON = "local"  # who decides from this machine (the local dashboard's person too)
_opened: list[Services] = []  # the Services this command started: closed on any exit, the embedded PostgreSQL with them


def _services() -> Services:
    from core.wiring import Services

    if not _opened:
        settings = get_settings()
        if settings.embedded_database:
            from core.db import mark_used

            mark_used(settings.data_dir)
        _opened.append(Services(settings, local=True))
    return _opened[0]


KEEPER_START_SECONDS = 60.0  # the keeper adopts a running server: far below it


def _hand_over(services: Services) -> None:
    """The embedded database this command started stays up for the next command: a keeper holds it until commands
    stop coming (MEMFIX_DB_IDLE_SECONDS), unless one already does or the setting is 0. A keeper that cannot start is
    said, and the database stops with the command as before."""
    import subprocess

    from core.db import keeper_alive

    settings = services.settings
    if not (services.local and settings.embedded_database and settings.db_idle_seconds > 0
            and "db" in services.__dict__) or keeper_alive(settings.data_dir):
        return
    try:
        keeper = subprocess.Popen([sys.executable, "-m", "handlers.dbkeeper", str(settings.data_dir),
                                   str(settings.db_idle_seconds)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                  stdin=subprocess.DEVNULL, start_new_session=True, text=True)
        ready = _first_line(keeper, KEEPER_START_SECONDS)
    except OSError as exc:
        ready, keeper = f"could not start ({exc})", None
    if ready != "ready":
        if keeper is not None:
            keeper.kill()
        print(f"memfix: the database could not be kept up for the next command: {ready or 'no answer'}",
              file=sys.stderr)


def _first_line(process: Any, seconds: float) -> str:
    """The process's first line of output, or "" when it says nothing within `seconds` (a thread reads it)."""
    import threading

    line: list[str] = []
    reader = threading.Thread(target=lambda: line.append(process.stdout.readline().strip()), daemon=True)
    reader.start()
    reader.join(seconds)
    return line[0] if line else ""


# Files a Python or JavaScript project keeps at its root: where a checkout without `.git` begins.
PROJECT_MARKERS = ("pyproject.toml", "setup.cfg", "setup.py", "ruff.toml", ".ruff.toml", "tox.ini", ".flake8",
                   "package.json", ".github")


class Terminated(BaseException):
    """SIGTERM (a timeout, a supervisor): unwound like Ctrl-C, so what the command started is stopped."""


def _terminate(signum: int, frame: object) -> None:
    _quiet_interrupted_queries()
    raise Terminated


def _interrupt(signum: int, frame: object) -> None:
    _quiet_interrupted_queries()
    raise KeyboardInterrupt


def _quiet_interrupted_queries() -> None:
    """A query cut short cannot be rolled back cleanly: psycopg's warning about it would read as a second problem
    (the command says it was interrupted; the run is marked failed)."""
    logging.getLogger("psycopg").setLevel(logging.ERROR)  # its pool and transaction loggers follow it


def _serve(args: argparse.Namespace) -> int:
    """The webhook, the dashboard and a worker on waitress (a production WSGI server), or with --worker a worker
    only: jobs live in PostgreSQL, so any number of these share one database. SIGTERM/SIGINT stop it cleanly."""
    import signal
    import threading

    settings = get_settings()
    services = _services()
    if not settings.github_webhook_secret and not args.worker:
        print("warning: GITHUB_WEBHOOK_SECRET is not set; every delivery will be refused (503).", file=sys.stderr)
    services.db.ready()  # the database started and migrated (or the reason it cannot be) before anything listens
    _ = services.queue  # and the worker started before any delivery
    stopping = threading.Event()

    def stop(signum: int, frame: object) -> None:
        print(f"memfix: {signal.Signals(signum).name}: stopping", file=sys.stderr, flush=True)
        stopping.set()
        if not args.worker:
            raise SystemExit  # waitress's loop catches it, finishes the requests in flight and returns

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    try:
        if args.worker:
            print(f"memfix worker on queue {settings.queue_name!r} (GitHub API: {settings.github_api_url})",
                  flush=True)
            stopping.wait()
        else:
            from waitress.server import create_server

            from handlers.dashboard import dashboard_link
            from handlers.devserver import create_app

            app = create_app(services)
            # Proxies' forwarding headers reach the application (waitress would drop them), so the local
            # dashboard can refuse what a proxy forwards; no body larger than a delivery is ever taken in.
            try:
                server = create_server(app, host=args.host, port=args.port, threads=args.threads, ident="memfix",
                                       clear_untrusted_proxy_headers=False,
                                       max_request_body_size=settings.max_body_bytes + 1)
            except OSError as exc:  # the port is taken, or the address is not this machine's
                print(f"memfix: cannot listen on {args.host}:{args.port}: {exc.strerror or exc}", file=sys.stderr)
                return 2
            app.config["MEMFIX_ADDRESS"] = _address(args.host, server.effective_port)
            # The one line that shows the local dashboard's token: its link is the way in, for whoever started it
            print(f"memfix listening on http://{args.host}:{server.effective_port}/webhook, dashboard at "
                  f"{dashboard_link(app)} (GitHub API: {settings.github_api_url})", flush=True)
            if settings.remote_setup and not settings.github_app_id:
                import secrets

                app.config["MEMFIX_SETUP_TOKEN"] = token = secrets.token_urlsafe(24)
                where = (settings.public_url or app.config["MEMFIX_ADDRESS"]).rstrip("/")
                print(f"Register the GitHub App from any machine, once: {where}/setup?token={token}", flush=True)
            try:
                server.run()
            finally:
                server.close()
    finally:
        services.close(args.grace)
        print("memfix stopped", file=sys.stderr, flush=True)
    return 0


def _health(args: argparse.Namespace) -> int:
    """A container's health: its worker reached the database lately (the heartbeat `memfix serve` keeps), the job
    queue answers as memfix's login, and with --url the web server answers. Exit 0 healthy, 1 not, saying why."""
    import time
    import urllib.request

    from core.queue import PgQueue
    from core.wiring import heartbeat_path

    settings = get_settings()
    problems = []
    beat = heartbeat_path(settings)
    age = time.time() - beat.stat().st_mtime if beat.exists() else None
    if age is None or age > args.max_age:
        problems.append(f"the worker has not reached the database for {age:.0f} s" if age is not None
                        else f"no worker heartbeat at {beat}")
    try:
        counts = PgQueue(_services().db, None, queue=settings.queue_name).counts()  # no worker: only a look
    except Exception as exc:  # noqa: BLE001 — any failure is the answer
        problems.append(f"the job queue does not answer ({exc.__class__.__name__})")
        counts = {}
    if args.url:
        try:
            with urllib.request.urlopen(args.url, timeout=5) as answer:  # noqa: S310 — the operator's own URL
                answer.read()
        except Exception as exc:  # noqa: BLE001
            problems.append(f"{args.url} does not answer ({exc})")
    print(json.dumps({"healthy": not problems, "problems": problems, "jobs": counts}))
    return 1 if problems else 0


def _address(host: str, port: int) -> str:
    """The URL this server is reached at on this machine: a wildcard bind is reached through localhost."""
    host = "localhost" if host in ("0.0.0.0", "::", "") else host
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def _migrate(args: argparse.Namespace) -> int:
    from core.db import owner_url, prepare

    settings = get_settings()
    if owner_url(settings) is None:
        print("memfix: migrations run as the database's owner: set DATABASE_URL", file=sys.stderr)
        return 2
    applied, _ = prepare(settings)  # and the application's login (DATABASE_APP_URL), made or given its password
    print(f"applied {len(applied)} migration(s): {', '.join(applied)}" if applied else "database is up to date")
    return 0


def _settings(args: argparse.Namespace) -> int:
    for name, value in get_settings().describe().items():
        print(f"{name} = {value}")
    return 0


def _remember(args: argparse.Namespace) -> int:
    """`/remember` from a shell: the comment command itself, so a decision holds or enables a rule here as there."""
    from core.wire import CommandJob

    if Path(args.repo).is_dir() and not args.repo.startswith("local/"):
        print(f"note: runs of the folder {args.repo} are filed under {_local_name(Path(args.repo))}: "
              f"--repo {_local_name(Path(args.repo))} is what they read", file=sys.stderr)
    job = CommandJob(tenant_id=args.installation, delivery_id="cli", repo=args.repo, command="remember",
                     args=args.text, author=LOCAL_PERSON)
    print(_services().commands.handle(job).markdown())
    return 0


def _recall(args: argparse.Namespace) -> int:
    from core.memory.review import recall

    services = _services()
    hits = recall(services.insights, services.entries, args.installation, args.query, repository=args.repo, k=args.k)
    if args.json:
        print(json.dumps([asdict(h) for h in hits], indent=2))
    elif not hits:
        print(f"nothing in memory matches {args.query!r}"
              + (f" in {args.repo}" if args.repo else "")
              + (f"; runs of the folder {args.repo} are filed under {_local_name(Path(args.repo))}: "
                 f"--repo {_local_name(Path(args.repo))}" if args.repo and Path(args.repo).is_dir() else ""))
    for h in [] if args.json else hits:
        print(f"{h.layer}:{h.id}\t{h.score:.3f}\t{h.text}" + (f"\t({h.repository})" if args.all else ""))
    return 0


def _forget(args: argparse.Namespace) -> int:
    from core.memory.review import parse_memory_id

    layer, ident = parse_memory_id(args.id)
    services = _services()
    store = services.entries if layer == "entry" else services.insights
    if not store.delete(args.installation, ident, repository=args.repo):
        where = "this installation" if args.all else args.repo
        print(f"memfix: there is no {layer} {ident} in {where}'s memory", file=sys.stderr)
        return 1
    print(f"forgot {layer}:{ident}")
    return 0


def _import_letters(args: argparse.Namespace) -> int:
    report = _services().letters.import_directory(args.installation, args.repo, Path(args.path))
    print(report.markdown())
    return 0


def _ring(args: argparse.Namespace) -> int:
    healing = _services().healing
    print(healing.llm_context(args.installation, args.repo, limit=args.limit))
    print()
    print(healing.pattern_insights(args.installation, args.repo))
    return 0


def _reembed(args: argparse.Namespace) -> int:
    services = _services()
    if not services.embedder.model:
        print("memfix: MEMFIX_EMBEDDINGS is 'none'; choose openai or local to embed insights", file=sys.stderr)
        return 2
    tenants = [args.installation]
    if args.all:
        from core.db import installations, owner_url

        owner = owner_url(get_settings())
        if owner is None:
            print("memfix: --all reads every installation as the database's owner: set DATABASE_URL", file=sys.stderr)
            return 2
        tenants = installations(owner)
    for tenant in tenants:
        print(f"installation {tenant}: {services.insights.reembed(tenant)} insight(s) embedded "
              f"with {services.embedder.model}")
    return 0


def _replay_dlq(args: argparse.Namespace) -> int:
    from core.dlq import replay

    if not args.queue_url:  # memfix serve: dead jobs wait in PostgreSQL
        from core.queue import PgQueue

        settings = get_settings()
        queue = PgQueue(_services().db, None, queue=settings.queue_name)
        print(f"requeued {queue.requeue(args.key)} dead job(s) of queue {settings.queue_name!r}; a running "
              "`memfix serve` takes them")
        return 0
    if not args.dlq_url:
        print("memfix: --dlq-url is needed with --queue-url", file=sys.stderr)
        return 2
    result = replay(args.dlq_url, args.queue_url, args.max)
    print(f"moved {result.moved} message(s) from the dead-letter queue to the job queue")
    if result.error:
        print(f"memfix: stopped early: {result.error}", file=sys.stderr)
        return 1
    return 0


def _pipeline(args: argparse.Namespace) -> int:
    from core.pipelines.present import dumps, dumps_all

    if not Path(args.path).exists():
        print(f"memfix: {args.path} does not exist", file=sys.stderr)
        return 2
    reports = pipeline_runs(args, _services())
    if args.json:  # one language: its run's object, as before; several: a list of them
        print(dumps(reports[0]) if len(reports) == 1 else dumps_all(reports))
    else:
        for report in reports:
            _print(report, args)
    for report in (r for r in reports if r.failed):
        print(f"memfix: the {report.language} run did not finish: {report.failed}", file=sys.stderr)
    return 1 if any(r.failed for r in reports) else 0


def pipeline_runs(args: argparse.Namespace, services: Services) -> list[RunReport]:
    """`memfix autofix|refactor PATH`'s runs, one per language, on `services`: the command's own, or a caller's that
    outlives one command (a replay of a project's pushes starts its database once). Nothing starts before a --since
    that cannot be is refused."""
    from core import deadline
    from core.languages.adapter import Language
    from core.languages.registry import language_of, languages_for, linter_of
    from core.pipelines.runner import each_language
    from core.pipelines.values import RunRequest

    gc.set_threshold(200_000, 30, 30)  # a run makes syntax trees by the hundred thousand nodes: collect less often
    workspace, previous = _workspace(Path(args.path), args.since)
    repo = args.repo or _local_name(workspace.root)
    runner = services.pipeline_runner
    chosen = [lang for lang in languages_for(workspace.files(), runner.languages.values())
              if args.language in ("all", lang.name)] or list(runner.languages.values())[:1]  # an empty run says so
    request = RunRequest(args.installation, repo, args.pipeline, "local", guidance=args.guidance,
                         rules=args.rules)

    def run(language: Language) -> RunReport:
        report = runner.run(replace(request, language=language.name), workspace,
                            progress=None if args.json else _progress, previous=previous)
        if args.apply:
            for outcome in report.promoted:
                if outcome.patch is not None:
                    workspace.write(outcome.path, outcome.patch.updated)
        return report
    with deadline.budget(services.settings.job_seconds, "the run"):
        reports = each_language(chosen, run, request, runner.llm)
    for name in sorted({n for p in workspace.files() if (n := language_of(p)) and n not in runner.languages}):
        reports[-1].notes.append(f"{name} files left alone: {linter_of(name)} is not installed")
    return reports


def _workspace(root: Path, ref: str | None) -> tuple[LocalWorkspace, Previous | None]:
    """The files a run works on and, with --since REF, each one's text at REF: what a push from REF would get."""
    from core.pipelines.since import since
    from core.pipelines.workspace import LocalWorkspace

    where = root.resolve() if root.is_dir() else root.parent.resolve() / root.name  # a link is named, not followed
    if ref:
        branch = since(where if root.is_dir() else where.parent, ref)
        brought = branch.changed(where.relative_to(branch.root).as_posix())
        workspace = LocalWorkspace(branch.root, brought.paths)
        workspace.notes.append(branch.said(brought))
        return workspace, brought.previous
    checkout = _checkout_of(root)
    scope = where.relative_to(checkout).as_posix()
    return LocalWorkspace(checkout, None if scope == "." else [scope]), None


def _named_rules(text: str) -> tuple[str, ...]:
    """`--rules` as their tools spell them (`up,eslint:indent` → UP, eslint:indent); a name that is no rule is
    refused with the forms rules take, before anything runs."""
    named = [r.strip() for r in text.split(",") if r.strip()]
    if bad := [r for r in named if rule_selector(r) is None]:
        raise argparse.ArgumentTypeError(rule_problem(bad))
    return tuple(dict.fromkeys(r for n in named if (r := rule_selector(n))))


def _checkout_of(path: Path) -> Path:
    """A folder is the checkout it names. A file belongs to the project around it, so its configuration is read as
    a push reads it: the nearest folder with `.git` or a project file, else the file's own folder."""
    if path.is_dir():
        return path.resolve()
    start = path.parent.resolve()
    return next((folder for folder in (start, *start.parents)
                 if any((folder / marker).exists() for marker in (".git", *PROJECT_MARKERS))), start)


def _print(report: RunReport, args: argparse.Namespace) -> None:
    """A run's report for a person: what it knew, what it found, what it fixed and what not, and what comes next."""
    if report.failed:
        return  # said once, on stderr, after the others
    _print_context(report, args)
    _print_findings(report, args.show)
    _print_verified(report, args.diff_lines)
    _print_not_fixed(report)
    _print_closing(report, args.apply)


def _print_context(report: RunReport, args: argparse.Namespace) -> None:
    """The run's provider and model, and what it knew going in: memory, the project, the learnings it loaded."""
    print(f"\rmemfix {args.pipeline} {args.path} — provider {report.provider}"
          + (f", model {report.model}" if report.model else " (deterministic fixes only)") + " " * 20)
    for line in report.remembered:
        print(line)
    for line in report.project:
        print(line)
    if report.injected:
        print(f"Loaded historical learnings from {len(report.learnings)} similar analyses into the model's prompts")
        for hit in report.learnings:
            print(f"  insight:{hit.insight.id} {hit.insight.label} {hit.insight.title} (score {hit.score:.2f})")
    for line in report.used:
        print(f"Learnings used: {_in_shell(line, report.repo)}")


def _print_findings(report: RunReport, show: int) -> None:
    """The first `show` findings, and how many more the JSON holds."""
    print(f"\nFindings: {len(report.findings)} in {report.files_scanned} scanned files")
    for f in report.findings[:show]:
        print(f"  {f.path}:{f.line}:{f.column} {f.code} {f.message}")
    if len(report.findings) > show:
        print(f"  … {len(report.findings) - show} more (--json for all)")


def _print_verified(report: RunReport, diff_lines: int) -> None:
    """Each verified patch: its confidence and why, what it left in the file, and its diff folded after `diff_lines`
    lines."""
    from core.pipelines.present import fixed_by

    print("\nVerified patches:" if report.promoted else "\nVerified patches: none")
    for o in report.promoted:
        if o.patch is None:
            continue
        codes = ", ".join(sorted({f.code for f in o.patch.findings}))
        print(f"  {o.path}  confidence {o.confidence:.2f}  ({fixed_by(o.patch, report.language)}; {codes})")
        if o.why:
            print(f"      confidence: {o.why}")
        _print_left(o, o.patch, report.provider == "offline")
        _print_diff(o.patch.unified_diff(), diff_lines)


def _print_left(o: FileOutcome, patch: Patch, offline: bool) -> None:
    """In a file partly fixed: what is left, and why."""
    from core.pipelines.present import why_left

    fixed = {f.key for f in patch.findings}
    for f in [f for f in o.findings if f.key not in fixed]:
        print(f"      left: line {f.line} {f.code} {f.message} ({why_left(o, f, offline)})")


def _print_diff(diff: list[str], diff_lines: int) -> None:
    """A patch's diff folded after `diff_lines` lines."""
    for line in diff[:diff_lines]:
        print(f"      {line}")
    if len(diff) > diff_lines:
        print(f"      … {len(diff) - diff_lines} more lines (--diff-lines N, or --json for all)")


def _print_not_fixed(report: RunReport) -> None:
    """Each file not fixed, with its codes and the reason (the verification's error, a note, or no proposal)."""
    others = [o for o in report.outcomes if o.status != AttemptStatus.PROMOTED]
    if others:
        print("\nNot fixed:")
        for o in others:
            status = "" if o.status == AttemptStatus.UNFIXED else f"{o.status}: "
            print(f"  {o.path}  [{', '.join(sorted({f.code for f in o.findings}))}]  {status}{_not_fixed_reason(o)}")


def _not_fixed_reason(o: FileOutcome) -> str:
    """Why a file was not fixed: the verification's error, a note, or no proposal."""
    return (o.verification.error if o.verification and o.verification.error else "") or o.note or "no fix proposed"


_COMMAND = re.compile(r"`/(forget|remember|autofix|refactor) ([^`]*)`")


def _in_shell(text: str, repo: str) -> str:
    """A hint written for a GitHub comment, as the command that does the same from this shell."""
    def shell(match: re.Match[str]) -> str:
        name, rest = match[1], match[2]
        if name == "forget":
            return f"`memfix forget {rest} --repo {repo}`"
        if name == "remember":
            return f"`memfix remember {shlex.quote(rest)} --repo {repo}`"
        return f"`memfix {name} DIR --rules {rest.replace(' ', ',')}`"
    return _COMMAND.sub(shell, text)


def _print_closing(report: RunReport, applied: bool) -> None:
    """The configuration's problems and the notes, what was learned, the time, where memory is, what to do next."""
    from core.pipelines.present import summary

    for problem in report.config_problems:
        print(f"config: {problem}")
    for note in report.notes:
        print(f"note: {_in_shell(note, report.repo)}")
    print(f"\nLearned: {report.learned} insight(s) saved or reinforced. Run {report.run_id}: {summary(report)}.")
    print(f"Took {sum(report.seconds.values()):.1f} s: "
          + ", ".join(f"{step} {seconds:.2f} s" for step, seconds in report.seconds.items()) + ".")
    print(f"Memory files this checkout under {report.repo}: `memfix recall QUERY --repo {report.repo}`, and the "
          "dashboard of `memfix serve` shows it; `memfix remember \"decision hold CODE [in PLACE]\" --repo "
          f"{report.repo}` holds a rule back here (`enable` proposes it again).")
    if report.promoted:
        verb = "Applied" if applied else "Re-run with --apply to write"
        print(f"{verb} {len(report.promoted)} verified patch(es).")


def _local_name(checkout: Path) -> str:
    """The one name a local checkout's memory is filed under, in the CLI, the README and the dashboard."""
    return f"local/{checkout.resolve().name}"


def _progress(what: str, done: int, total: int) -> None:
    if sys.stderr.isatty():
        print(f"\r[{what} {done}/{total}]", end="", file=sys.stderr, flush=True)
    elif done == total or done % 50 == 0:
        print(f"[{what} {done}/{total}]", file=sys.stderr)


def _scope(parser: argparse.ArgumentParser) -> None:
    """Memory stays in its repository: the whole installation is reached only when a person says `--all`."""
    scope = parser.add_mutually_exclusive_group(required=True)
    scope.add_argument("--repo", help="OWNER/NAME whose memory this is")
    scope.add_argument("--all", action="store_true", help="every repository of the installation (says where "
                       "each item came from)")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="memfix", description="memfix: fixes code and remembers.")
    parser.add_argument("-v", "--verbose", action="store_true", help="debug logging")
    sub = parser.add_subparsers(dest="command", required=True)

    def command(name: str, func: Command, help: str) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help)
        p.set_defaults(func=func)
        return p

    def memory(name: str, func: Command, help: str) -> argparse.ArgumentParser:
        p = command(name, func, help)
        p.add_argument("--installation", type=int, default=get_settings().local_installation,
                       help="tenant (GitHub installation id); default MEMFIX_LOCAL_INSTALLATION or 0")
        return p

    serve = command("serve", _serve, "run the webhook, the dashboard and a worker (self-hosting); without "
                    "DATABASE_URL or DATABASE_APP_URL, on an embedded PostgreSQL under MEMFIX_DATA_DIR (the user's "
                    "data folder)")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default %(default)s)")
    serve.add_argument("--port", type=int, default=8000, help="port to listen on (default %(default)s)")
    serve.add_argument("--threads", type=int, default=8,
                       help="request threads of the web server (default %(default)s)")
    serve.add_argument("--worker", action="store_true", help="a worker only (no web server): more of them, on this "
                                                            "machine or others, share the jobs in the database")
    serve.add_argument("--grace", type=float, default=30.0,
                       help="seconds a running job may finish on SIGTERM (default %(default)s)")
    command("migrate", _migrate, "apply database migrations and make the application's login, as the database's "
            "owner: DATABASE_URL, else the embedded PostgreSQL under MEMFIX_DATA_DIR (the user's data folder); not "
            "with only DATABASE_APP_URL")
    p = command("health", _health, "is this container's memfix alive: worker heartbeat, job queue, web server")
    p.add_argument("--url", help="also ask this URL (the web server's /healthz)")
    p.add_argument("--max-age", type=float, default=120.0,
                   help="seconds a heartbeat may be old (default %(default)s)")
    command("settings", _settings, "show the settings in force (secrets as set/unset)")
    p = memory("remember", _remember, "what /remember does on GitHub: save an insight ('[type category "
               "[severity]: ]title' then detail), or decide on a rule ('decision hold|enable CODES [in PLACE]')")
    p.add_argument("text")
    p.add_argument("--repo", required=True, help="OWNER/NAME")
    p = memory("recall", _recall, "search both memory layers (insights and entries) of one repository (--repo) "
               "or of every one (--all); prints the best 5 unless -k says")
    p.add_argument("query")
    _scope(p)
    p.add_argument("-k", type=int, default=5, help="how many matches to print (default %(default)s)")
    p.add_argument("--json", action="store_true")
    p = memory("forget", _forget, "delete an insight (42, insight:42) or entry (entry:7) of one repository (--repo) "
               "or of any in the installation (--all)")
    p.add_argument("id")
    _scope(p)
    p = memory("import-letters", _import_letters, "import .memory/letter_*.md from a checkout")
    p.add_argument("path")
    p.add_argument("--repo", required=True, help="OWNER/NAME")
    p = memory("ring", _ring, "show the healing context and pattern analysis of a repository")
    p.add_argument("repo", help="OWNER/NAME")
    p.add_argument("--limit", type=int, default=10, help="attempts to show (default %(default)s)")
    for name, text in (("autofix", "fix what the team's own linters select, style included, in a local checkout "
                                   "(with --since, what a push would get)"),
                       ("refactor", "propose the refactorings the team's linters select (or --rules names) for a "
                                    "local checkout")):
        p = memory(name, _pipeline, text)
        p.set_defaults(pipeline=name)
        p.add_argument("path", help="a checkout, a folder in it, or one file")
        p.add_argument("--since", metavar="REF", help="what a push from REF (a commit HEAD grew from) would get: "
                       "the files changed since REF, working tree included, and only what they brought")
        p.add_argument("--apply", action="store_true", help="write the verified patches")
        p.add_argument("--json", action="store_true")
        p.add_argument("--repo", help="the name memory files it under (default local/<folder>)")
        p.add_argument("--guidance", help="extra guidance for the model (data, not instructions)")
        p.add_argument("--rules", type=_named_rules, default="",
                       help="the rules to propose, comma-separated, as their tools name them (UP,SIM or "
                       "eslint:indent,lint/style/useConst), instead of what the repository's linters select")
        p.add_argument("--show", type=int, default=30, help="findings to list (default %(default)s)")
        p.add_argument("--diff-lines", type=int, default=40,
                       help="diff lines shown per patch before folding (default %(default)s)")
        p.add_argument("--language", choices=("all", *NAMES), default="all",
                       help="which files to work on (javascript covers TypeScript; default: every language found)")
    p = memory("reembed", _reembed, "embed insights stored without a vector or with another model's")
    p.add_argument("--all", action="store_true", help="every installation")
    p = command("replay-dlq", _replay_dlq, "dead-lettered jobs back to the job queue (SQS, or memfix serve's)")
    p.add_argument("--queue-url", help="on AWS: the job queue (stack output JobQueueUrl); omitted: memfix serve's")
    p.add_argument("--dlq-url", help="on AWS: the dead-letter queue (stack output DeadLetterQueueUrl)")
    p.add_argument("--key", help="memfix serve: only the job with this claim key (installation:job key)")
    p.add_argument("--max", type=int, default=None, help="move at most N messages (default: all)")
    return parser


def main(argv: list[str] | None = None) -> int:
    import signal
    import threading

    main_thread = threading.current_thread() is threading.main_thread()
    args = None
    previous = signal.signal(signal.SIGTERM, _terminate) if main_thread else None
    previous_interrupt = signal.signal(signal.SIGINT, _interrupt) if main_thread else None
    try:
        args = build_parser().parse_args(argv)
        logging.basicConfig(level=logging.DEBUG if args.verbose else logging.WARNING,
                            format="%(levelname)s %(name)s: %(message)s")
        run: Command = args.func
        return run(args)
    except (SettingsError, InsightError, MemfixError) as exc:
        print(f"memfix: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\nmemfix: interrupted", file=sys.stderr)
        return 130
    except Terminated:
        print("memfix: stopped (SIGTERM)", file=sys.stderr)
        return 143
    finally:
        _close_opened(args)
        if main_thread:
            signal.signal(signal.SIGTERM, previous)
            signal.signal(signal.SIGINT, previous_interrupt)


def _close_opened(args: argparse.Namespace | None) -> None:
    """The pool's connections, and the embedded PostgreSQL this command started: handed over to the next command,
    unless a stopped server stops what it started."""
    while _opened:
        services = _opened.pop()
        if args is not None and args.func is not _serve:
            _hand_over(services)
        services.close(grace_seconds=5)


def entry() -> None:
    """The `memfix` command: `main`, then out without tearing the interpreter's heap down object by object (a run's
    trees make that a third of a second); what the command started is already stopped, its output flushed here."""
    code = main()
    logging.shutdown()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except OSError:  # a reader that went away (`| head`) takes nothing more
            code = code or 1
    os._exit(code)


if __name__ == "__main__":
    entry()
