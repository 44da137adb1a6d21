"""`memfix` command line: thin wrappers over core services."""

from __future__ import annotations

import argparse
import logging
import sys

from core.settings import SettingsError, get_settings


def _serve(args: argparse.Namespace) -> int:
    from core.wiring import Services
    from handlers.devserver import create_app

    settings = get_settings()
    services = Services(settings, local=True)
    if not settings.github_webhook_secret:
        print("warning: GITHUB_WEBHOOK_SECRET is not set; every delivery will be refused (503).", file=sys.stderr)
    _ = services.db, services.queue  # start the database, migrate and start the worker before any delivery
    print(f"memfix listening on http://{args.host}:{args.port}/webhook (GitHub API: {settings.github_api_url})")
    create_app(services).run(host=args.host, port=args.port, threaded=True)
    return 0


def _migrate(args: argparse.Namespace) -> int:
    from core.db import migrate, resolve_url

    applied = migrate(resolve_url(get_settings()))
    print(f"applied {len(applied)} migration(s): {', '.join(applied)}" if applied else "database is up to date")
    return 0


def _settings(args: argparse.Namespace) -> int:
    for name, value in get_settings().describe().items():
        print(f"{name} = {value}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="memfix", description="memfix: fixes code and remembers.")
    parser.add_argument("-v", "--verbose", action="store_true", help="debug logging")
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="run the webhook and worker in one local process")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.set_defaults(func=_serve)
    sub.add_parser("migrate", help="apply database migrations").set_defaults(func=_migrate)
    sub.add_parser("settings", help="show the settings in force (secrets as set/unset)").set_defaults(func=_settings)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    level = logging.DEBUG if args.verbose else logging.INFO
    logging.basicConfig(level=level, format="%(levelname)s %(name)s: %(message)s")
    try:
        return args.func(args)
    except SettingsError as exc:
        print(f"memfix: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
