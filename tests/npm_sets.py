"""Real npm packages for the tests, with no network at test time: the trees `make setup` installs into .venv/npmhouse
(from the package.json and lockfile of each set under tests/npmhouse/), published whole on a fake npm registry
(tests/fakes/registry.py) and installed from it by memfix's own tool cache, as from the npm registry. The session
fixtures in conftest.py (`npm_tools`, `eslint8`, `eslint9`) install each tool once per test process."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from core.tools.install import Installed, ToolCache
from core.tools.pins import Pin

ROOT = Path(__file__).resolve().parents[1]
NPMHOUSE = ROOT / ".venv" / "npmhouse"  # the Makefile's npmhouse step installs it
SETS = ("eslint8", "eslint9", "prettier3", "biome2")
ESLINT8 = Pin("eslint", "npm", "eslint", "8.57.0", ("eslint-config-standard@17.1.0", "eslint-plugin-import@2.29.1",
                                                    "eslint-plugin-n@16.6.2", "eslint-plugin-promise@6.1.1"),
              "the tests' npmhouse")
ESLINT9 = Pin("eslint", "npm", "eslint", "9.17.0", ("@eslint/js@9.17.0", "globals@15.14.0"), "the tests' npmhouse")


def tree(name: str) -> Path:
    """The node_modules of one set of the npmhouse; the test is skipped, loudly, when `make setup` has not made it."""
    if not (NPMHOUSE / ".complete").is_file():
        pytest.skip(f"NO NPMHOUSE: {NPMHOUSE} is missing; `make setup` installs it (the tests never touch the network)")
    return NPMHOUSE / name / "node_modules"


@dataclass(frozen=True)
class NpmTool:
    """An npm tool the tool cache installed: what the sandbox mounts for it, and the environment it runs with."""

    cache: ToolCache
    pin: Pin
    installed: Installed

    @property
    def mounts(self) -> list[Path]:
        return [self.installed.folder, *self.cache.runtime_folders(self.pin)]

    @property
    def env(self) -> dict[str, str]:
        # a configuration in the scratch copy names its shared configs and plugins: Node finds them in the tool's tree
        return {"NODE_PATH": str(self.installed.folder / "node_modules")}
