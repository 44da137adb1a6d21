"""The house's arrows point one way: languages and memory below learning, learning below the run machinery, the
run machinery below the composition root and the entry points. pyproject's import-linter contracts say so and
`make test` runs `lint-imports`; these tests show the contracts catch each kind of back-arrow, on a copy of the tree
with the arrow written in."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def copy_of_the_tree(into: Path) -> Path:
    for package in ("core", "handlers"):
        shutil.copytree(ROOT / package, into / package, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    shutil.copy(ROOT / "pyproject.toml", into / "pyproject.toml")
    return into


def lint_imports(tree: Path) -> subprocess.CompletedProcess[str]:
    # lint-imports puts its working directory first on sys.path: the copy is what it reads, not this checkout.
    env = {**os.environ, "PYTHONPATH": str(tree)}
    return subprocess.run([str(LINT_IMPORTS), "--no-cache", "--no-logo"], cwd=tree, env=env, capture_output=True,
                          text=True, timeout=120)


def test_the_tree_keeps_its_contracts(tmp_path):
    result = lint_imports(copy_of_the_tree(tmp_path))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


# Each kind of back-arrow the hand-written check used to pass, written into a module of the copy.
BACK_ARROWS = {
    "a relative import": ("core/memory/letters.py", "from ..pipelines import runner\n",
                          "core.memory.letters -> core.pipelines.runner"),
    "from core/github": ("core/github/client.py", "from core.memory.insights import Insights\n",
                         "core.github.client -> core.memory.insights"),
    "from core/llm": ("core/llm/base.py", "import core.learning.policy\n", "core.llm.base -> core.learning.policy"),
    "a top-level module importing the runner, type-only": (
        "core/events.py", "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                          "    from core.pipelines.runner import PipelineRunner\n",
        "core.events -> core.pipelines.runner"),
    "a language adapter reaching memory through a plumbing module": (
        "core/languages/registry.py", "from core import queue\n", "core.languages.registry -> core.queue"),
    "the domain importing an entry point": ("core/wiring.py", "import handlers.cli\n", "core.wiring -> handlers.cli"),
    "a shared text helper importing the database": ("core/memory/sanitize.py", "import core.db\n",
                                                    "core.memory.sanitize -> core.db"),
}


@pytest.mark.parametrize("kind", BACK_ARROWS)
def test_a_back_arrow_breaks_a_contract(tmp_path, kind):
    module, line, arrow = BACK_ARROWS[kind]
    tree = copy_of_the_tree(tmp_path)
    with (tree / module).open("a") as source:
        source.write("\n" + line)
    result = lint_imports(tree)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "BROKEN" in result.stdout
    assert arrow in result.stdout


def test_a_module_in_no_layer_breaks_a_contract(tmp_path):
    """No holes: a new top-level module must be given its layer before it can import anything."""
    tree = copy_of_the_tree(tmp_path)
    (tree / "core" / "shortcut.py").write_text("from core.pipelines import runner\n")
    result = lint_imports(tree)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "core.shortcut" in result.stdout
