"""docs/users/cli.md from memfix's own argument parser: each command, its one-line help and its arguments, as
`memfix COMMAND --help` says them. tests/test_docs.py holds the page to it;
`.venv/bin/python -m tests.cli_reference > docs/users/cli.md` writes it again after a change to handlers/cli.py."""

from __future__ import annotations

import argparse

HEAD = """# Command line: `memfix`

Every command of `memfix` with its one-line help and its arguments, as `memfix --help` and `memfix COMMAND --help`
print them. This page is made from the parser in `handlers/cli.py` (`python -m tests.cli_reference`), and a test
fails when the two differ.
"""


def _name(action: argparse.Action) -> str:
    if not action.option_strings:
        return str(action.metavar or action.dest)
    if action.nargs == 0:
        return ", ".join(action.option_strings)
    metavar = action.metavar or ("{" + ",".join(map(str, action.choices)) + "}" if action.choices
                                 else action.dest.upper())
    return ", ".join(f"{option} {metavar}" for option in action.option_strings)


def _help(action: argparse.Action, prog: str) -> str:
    """argparse's own expansion of `%(default)s` and kin."""
    if not action.help:
        return ""
    params = {k: v for k, v in {**vars(action), "prog": prog}.items() if v is not argparse.SUPPRESS}
    if params.get("choices") is not None:
        params["choices"] = ", ".join(map(str, params["choices"]))
    return _cell(action.help % params)


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def _arguments(parser: argparse.ArgumentParser) -> list[str]:
    rows = [f"| `{_name(a)}` | {_help(a, parser.prog)} |" for a in parser._actions
            if not isinstance(a, argparse._HelpAction | argparse._SubParsersAction)]
    return ["| argument | meaning |", "|---|---|", *rows] if rows else []


def render(parser: argparse.ArgumentParser) -> str:
    [commands] = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    helps = {choice.dest: choice.help or "" for choice in commands._choices_actions}
    out = [HEAD, f"`memfix` — {parser.description}", "", *_arguments(parser), ""]
    out += ["| command | what it does |", "|---|---|"]
    out += [f"| [`{name}`](#memfix-{name}) | {_cell(helps[name])} |" for name in commands.choices]
    for name, sub in commands.choices.items():
        out += ["", f"## memfix {name}", "", " ".join(helps[name].split()), ""]
        out += _arguments(sub)
    return "\n".join(out).rstrip() + "\n"


if __name__ == "__main__":
    from handlers.cli import build_parser

    print(render(build_parser()), end="")
