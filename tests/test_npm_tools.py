"""Real npm tools, installed by memfix's tool cache from a fake npm registry serving the npmhouse (real ESLint 8 with
the standard config and its plugins, real ESLint 9 with what a flat configuration loads: tests/npm_sets.py), and run
in the sandbox on a tiny project. The registry serves what npm installed as npm's registry would have served it, so
npm resolves the pins to the very same tree; ESLint finds its configuration, shared config and plugins, and answers
in its JSON."""

from __future__ import annotations

import io
import json
import tarfile
import urllib.request
from pathlib import Path

import pytest

from core.tools import sandbox as sandboxes
from tests.fakes.registry import installed_packages
from tests.npm_sets import NpmTool, tree

STANDARD_SHOP = """import { exists } from 'fs'
var unused = 1
import path from 'path'

export function load (name) {
  if (name == 'x') return new Promise(function (ok) { ok() })
  return exists(path.join('.', name), () => {})
}
"""
FLAT_SHOP = "const unused = 1\nif (process.argv.length == 2) {}\n"
FLAT_CONFIG = """const js = require('@eslint/js')
const globals = require('globals')

module.exports = [js.configs.recommended, { languageOptions: { globals: globals.node }, rules: { eqeqeq: 'error' } }]
"""


def _versions(node_modules: Path) -> set[tuple[str, str]]:
    """Where each package of a tree lies (relative to it) and its version: the tree's shape."""
    return {(str(folder.relative_to(node_modules)), json.loads((folder / "package.json").read_text())["version"])
            for folder in installed_packages(node_modules)}


def _get(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=10) as response:
        return response.read()


def _lint(tool: NpmTool, files: dict[str, str], *command: str) -> tuple[int, list[dict]]:
    """`eslint --format json …` inside the sandbox on a scratch project of `files`: its exit code and its report."""
    box, why = sandboxes.find()
    if box is None:
        pytest.skip(f"NO SANDBOX: {why} (.ci/run installs bubblewrap)")
    with box.scratch() as work:
        for name, text in files.items():
            (work / name).write_text(text)
        done = box.run(["eslint", "--format", "json", *command], work=work, tools=tool.mounts, env=tool.env,
                       what="eslint", cap=120)
    assert done.returncode in (0, 1), done.stderr  # 2: ESLint could not run (a configuration or plugin not found)
    return done.returncode, json.loads(done.stdout)


def _version_in_sandbox(tool: NpmTool) -> str:
    box, why = sandboxes.find()
    if box is None:
        pytest.skip(f"NO SANDBOX: {why} (.ci/run installs bubblewrap)")
    with box.scratch() as work:
        done = box.run(["eslint", "--version"], work=work, tools=tool.mounts, what="eslint", cap=60)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_the_registry_serves_every_installed_version_with_its_manifest_and_files(npmhouse_registry):
    eslintrc = {json.loads((folder / "package.json").read_text())["version"]
                for name in ("eslint8", "eslint9") for folder in installed_packages(tree(name))
                if folder.name == "eslintrc" and folder.parent.name == "@eslint"}
    assert len(eslintrc) == 2  # ESLint 8's and ESLint 9's, both served on one packument
    packument = json.loads(_get(f"{npmhouse_registry.url}/@eslint%2feslintrc"))
    assert set(packument["versions"]) == eslintrc
    installed = tree("eslint8") / "eslint"
    manifest = json.loads((installed / "package.json").read_text())
    served = json.loads(_get(f"{npmhouse_registry.url}/eslint"))["versions"]["8.57.0"]
    assert (served["bin"], served["dependencies"]) == (manifest["bin"], manifest["dependencies"])
    with tarfile.open(fileobj=io.BytesIO(_get(served["dist"]["tarball"]))) as packed:
        members = {member.name: member for member in packed.getmembers() if member.isfile()}
    files = {f"package/{path.relative_to(installed)}" for path in installed.rglob("*") if path.is_file()}
    assert set(members) == files  # its files, none of another package's
    assert members["package/bin/eslint.js"].mode & 0o111  # a program stays one


def test_eslint_8_with_the_standard_config_installs_as_the_npmhouse_has_it(eslint8):
    done = eslint8.installed
    assert done.folder.name.startswith("eslint-8.57.0-") and (done.folder / "bin" / "eslint").exists()
    assert _versions(done.folder / "node_modules") == _versions(tree("eslint8"))  # npm resolved the very same tree


def test_eslint_8_lints_in_the_sandbox_with_the_standard_config_and_its_plugins(eslint8):
    assert _version_in_sandbox(eslint8) == "v8.57.0"
    code, report = _lint(eslint8, {"shop.js": STANDARD_SHOP, ".eslintrc.json": '{"root": true, "extends": "standard"}'},
                         "shop.js")
    assert code == 1 and [entry["filePath"] for entry in report] == [f"{sandboxes.WORK}/shop.js"]
    assert {message["ruleId"] for message in report[0]["messages"]} == {
        "no-var", "no-unused-vars", "import/first", "eqeqeq", "promise/param-names", "n/no-deprecated-api"}


def test_eslint_9_lints_in_the_sandbox_with_a_flat_configuration(eslint9):
    assert _version_in_sandbox(eslint9) == "v9.17.0"
    assert _versions(eslint9.installed.folder / "node_modules") == _versions(tree("eslint9"))
    code, report = _lint(eslint9, {"shop.js": FLAT_SHOP, "eslint.config.js": FLAT_CONFIG}, "shop.js")
    assert code == 1
    # no `no-undef` for `process`: the configuration loaded `globals` from the tool's tree
    assert [m["ruleId"] for m in report[0]["messages"]] == ["no-unused-vars", "eqeqeq", "no-empty"]
