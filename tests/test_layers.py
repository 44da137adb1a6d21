"""The house's arrows point one way: languages and memory below learning, learning below the run machinery, the
run machinery below the composition root and the entry points. An import against them (a type-only one too) is
a back-arrow."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# Each package, and what it must never import (pure helpers the whole house shares sit outside these packages).
ABOVE = {
    "core.tools": ("core.languages", "core.memory", "core.learning", "core.pipelines", "core.flows", "core.wiring",
                   "handlers"),
    "core.languages": ("core.memory", "core.learning", "core.pipelines", "core.flows", "core.wiring", "handlers"),
    "core.memory": ("core.learning", "core.pipelines", "core.flows", "core.wiring", "handlers"),
    "core.learning": ("core.pipelines", "core.flows", "core.wiring", "handlers"),
    "core.pipelines": ("core.flows", "core.wiring", "handlers"),
    "core": ("handlers",),
}
ALLOWED = {"core.memory.sanitize"}  # pure text helpers every layer escapes data with


def imports(path: Path) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.append((node.lineno, node.module))
        elif isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
    return found


def back_arrows(path: Path) -> list[str]:
    module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
    package = next(p for p in ABOVE if module == p or module.startswith(p + "."))
    return [f"{path.relative_to(ROOT)}:{line} imports {name}" for line, name in imports(path)
            if name not in ALLOWED and any(name == above or name.startswith(above + ".") for above in ABOVE[package])]


def test_no_module_imports_a_layer_above_its_own():
    problems = [arrow for path in sorted((ROOT / "core").rglob("*.py")) for arrow in back_arrows(path)]
    assert problems == []


def test_a_back_arrow_is_seen(tmp_path, monkeypatch):
    """The check itself: a memory module that imports the runner is reported, a type-only import included."""
    fake = ROOT / "core" / "memory" / "_layers_probe.py"
    monkeypatch.setattr(Path, "read_text", lambda self, *a, **k: (
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from core.pipelines.runner import Runner\n"
        if self == fake else Path.read_bytes(self).decode()))
    assert back_arrows(fake) == ["core/memory/_layers_probe.py:3 imports core.pipelines.runner"]


@pytest.mark.parametrize("module", ["core.memory.sanitize"])
def test_shared_helpers_import_nothing_above_them(module):
    path = ROOT / Path(*module.split(".")).with_suffix(".py")
    assert [name for _, name in imports(path) if name.startswith("core.") and name != "core.errors"] == []
