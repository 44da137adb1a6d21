"""What a team's CI runs, read from its GitHub Actions workflows (never run): each step's `run:` script with the
folder it runs in (and the ruff and flake8 actions' inputs as commands), a script's commands as the shell splits them,
and the tool a command runs behind its launchers (`python -m flake8`, `poetry run ruff`, tox's `- flake8`).
"""

from __future__ import annotations

import shlex
from collections.abc import Iterable
from dataclasses import dataclass

from core.bounded import ConfigRefused, read_config
from core.paths import WORKFLOW_FILES

# Every workflow read for what the CI lints: the shared names, and those teams give their style checks (httpie's
# `code-style.yml`).
LINT_WORKFLOWS = tuple(dict.fromkeys((*WORKFLOW_FILES, *(f".github/workflows/{name}.{ext}" for name in (
    "code-style", "codestyle", "code_style", "style-check", "lint-python", "python-lint", "flake8", "ruff", "pylint",
    "format", "formatting", "qa", "static", "tox") for ext in ("yml", "yaml")))))

# Words a tool is run through: the tool comes after them.
LAUNCHERS = {"-m", "run", "exec", "poetry", "uvx", "pipx", "pdm", "hatch", "uv", "pipenv", "env", "time", "-", "!"}
_SEPARATORS = {"&&", "||", ";", "|", "&", ";;"}


@dataclass(frozen=True)
class Step:
    """A `run:` script of a workflow and the folder it runs in ('' for the checkout's root)."""

    script: str
    cwd: str = ""


def steps(text: str | None, name: str = "workflow") -> list[Step]:
    """A workflow's `run:` scripts with the folder each runs in, and the ruff and flake8 actions' inputs as
    commands; none where the workflow is absent or refused by the bounded reader."""
    try:
        data = read_config(text, "yaml", name) if text else {}
    except ConfigRefused:
        return []
    data = data if isinstance(data, dict) else {}
    jobs = data.get("jobs")
    top = _working_directory(data.get("defaults"))
    return [s for job in (jobs.values() if isinstance(jobs, dict) else ()) for s in _job_steps(job, top)]


def _job_steps(job: object, top: str) -> list[Step]:
    if not isinstance(job, dict) or not isinstance(job.get("steps"), list):
        return []
    in_job = _working_directory(job.get("defaults")) or top
    return [s for step in job["steps"] if isinstance(step, dict) and (s := _step(step, in_job))]


def _step(step: dict[object, object], in_job: str) -> Step | None:
    given = step.get("with")
    inputs: dict[object, object] = given if isinstance(given, dict) else {}
    if isinstance(step.get("run"), str):
        cwd = step.get("working-directory")
        return Step(str(step["run"]), cwd if isinstance(cwd, str) else in_job)
    if "ruff-action" in str(step.get("uses", "")):
        return Step(f"ruff {inputs.get('args', 'check')} {inputs.get('src', '.')}")
    if "actions/flake8" in str(step.get("uses", "")):
        return Step(f"flake8 {inputs.get('path', '.')}")
    return None


def _working_directory(defaults: object) -> str:
    run = defaults.get("run") if isinstance(defaults, dict) else None
    folder = run.get("working-directory") if isinstance(run, dict) else None
    return folder if isinstance(folder, str) else ""


def commands(script: str) -> Iterable[list[str]]:
    """A script's commands as words (shlex: a quoted argument stays whole), split at `&&`, `||`, `;`, `|`, lines."""
    for line in script.replace("\\\n", " ").splitlines():
        lexer = shlex.shlex(line, posix=True, punctuation_chars=";&|")
        lexer.whitespace_split = True
        try:
            tokens = list(lexer)
        except ValueError:  # an unclosed quote: the words as written
            tokens = line.split()
        words: list[str] = []
        for token in tokens:
            if token in _SEPARATORS:
                if words:
                    yield words
                words = []
            else:
                words.append(token)
        if words:
            yield words


def run_tool(words: list[str], tools: Iterable[str]) -> tuple[str, list[str]] | None:
    """The tool of `tools` a command runs and the words after it (`python -m flake8 src` → flake8, [src]); only
    launchers, variables and interpreters may come before it."""
    known = set(tools)
    for i, word in enumerate(words):
        name = word.rsplit("/", 1)[-1]
        if name in known:
            return name, words[i + 1:]
        if not (word in LAUNCHERS or "=" in word or name.startswith("python") or word.startswith(("{", "$"))):
            return None  # another command (`pip install flake8`, `echo flake8`)
    return None
