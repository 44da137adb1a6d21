"""The public-surface and dynamic-use check on small crafted repositories: what no lint sees stays."""

from __future__ import annotations

import pytest

from core.change import Patch
from core.languages.python.surface import RepositoryView, surface_problem
from tests.fakes import payloads as P


def _problem(path: str, before: str, after: str, others: dict[str, str] | None = None, complete: bool = True):
    view = RepositoryView({path: before, **(others or {})}, complete=complete, reason="too big")
    problem = surface_problem(Patch(path, before, after, (), "ruff"), view)
    return problem.text if problem else None


PROBE = "try:\n    import readline\nexcept ImportError:\n    readline = None\n\nHAVE = True\n"


@pytest.mark.parametrize("path, before, after, others, expected", [
    ("pkg/shell.py", "try:\n    import readline  # noqa\nexcept ImportError:\n    pass\n", "pass\n", {},
     "an import inside try/except: "),
    ("pkg/compat.py", "from collections.abc import Sequence\n", "",
     {"pkg/other.py": "from pkg.compat import Sequence\n"}, "pkg/other.py still imports"),
    ("pkg/compat.py", "from collections.abc import Sequence\n", "",
     {"pkg/other.py": "from .compat import Sequence\n"}, "pkg/other.py"),
    ("pkg/compat.py", "from collections.abc import Sequence\n", "",
     {"pkg/use.py": "import pkg.compat as c\n\nprint(c.Sequence)\n"}, "pkg/use.py"),
    ("pkg/api.py", "import os\n__all__ = ['os']\n", "__all__ = ['os']\n", {}, "__all__"),
    ("pkg/__init__.py", "from pkg.core import run\n", "", {}, "re-exports"),
    ("pkg/dyn.py", "import json\nexec('print(json.dumps(1))')\n", "exec('print(json.dumps(1))')\n", {},
     "`exec` string"),
    ("pkg/fmt.py", "def f():\n    name = 'x'\n    return '{name}'.format(**locals())\n",
     "def f():\n    return '{name}'.format(**locals())\n", {}, "reads its own namespace"),
    ("pkg/app.py", "import pkg.hooks\n", "", {"pkg/hooks.py": "import sys\nsys.meta_path.append(object())\n"},
     "imported for what its top level does"),
    ("pkg/app.py", "import os\n", "", {"pkg/other.py": "import os\n"}, None),
    ("pkg/app.py", "import pkg.plain\n", "", {"pkg/plain.py": "def f():\n    return 1\n"}, None),
    ("pkg/app.py", "import os\nx = 1\n", "x = 1\n", {}, None),
])
def test_what_the_rest_of_the_repository_or_the_module_itself_uses_stays(path, before, after, others, expected):
    problem = _problem(path, before, after, others)
    assert (problem is None) if expected is None else (expected in problem), problem


def test_a_removal_the_missing_view_would_have_to_confirm_is_not_promoted():
    problem = _problem("pkg/compat.py", "from x import y\n", "", complete=False)
    assert "could not be checked (too big)" in problem
    assert _problem("pkg/ok.py", "x = 1\n", "x = 2\n", complete=False) is None  # nothing removed, nothing to ask


def test_the_cli_keeps_the_probe_and_the_reexport_and_fixes_the_rest(tmp_path, monkeypatch, pg_url, app_url,
                                                                      tenant_id, capsys):
    import json

    from core.settings import get_settings
    from handlers.cli import main

    files = {"pkg/__init__.py": "", "pkg/shell.py": PROBE, "pkg/compat.py": "from collections.abc import Sequence\n",
             "pkg/other.py": "from pkg.compat import Sequence\n\nprint(Sequence)\n",
             "pkg/_clean.py": "import os\nimport sys\n\nprint(sys.argv)\n",  # private: its imports are its own
             "ruff.toml": "line-length = 88\n"}  # the team runs ruff at its defaults
    for path, text in files.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text)
    monkeypatch.setenv("DATABASE_URL", pg_url)
    monkeypatch.setenv("DATABASE_APP_URL", app_url)
    monkeypatch.setenv("MEMFIX_LOCAL_INSTALLATION", str(tenant_id))
    get_settings.cache_clear()
    assert main(["autofix", str(tmp_path), "--json", "--apply"]) == 0
    report = json.loads(capsys.readouterr().out)
    status = {o["path"]: (o["status"], o["verification"]) for o in report["outcomes"]}
    assert status["pkg/_clean.py"][0] == "PROMOTED"
    assert status["pkg/compat.py"][0] != "PROMOTED" and "pkg/other.py" in status["pkg/compat.py"][1]
    assert (tmp_path / "pkg/shell.py").read_text() == PROBE
    assert (tmp_path / "pkg/compat.py").read_text() == files["pkg/compat.py"]
    get_settings.cache_clear()


def test_on_github_the_repository_is_read_once_as_an_archive_and_a_used_reexport_is_not_proposed(
        serve, fake_github, tenant_id):
    from tests.test_pipelines import BUGGY, memfix_pulls, push

    fake_github.push("acme/api", "main", {"pkg/other.py": "from pkg.compat import Sequence\n\nprint(Sequence)\n"})
    push(serve, fake_github, tenant_id, {"pkg/compat.py": "from collections.abc import Sequence\n",
                                         "app/util.py": BUGGY})
    [pr] = memfix_pulls(fake_github)  # app/util.py only
    assert "app/util.py" in pr["title"] and "public surface and dynamic uses kept" in pr["body"]
    assert len([p for m, p, _ in fake_github.requests if "/tarball/" in p]) == 1


@pytest.mark.parametrize("answer", [b"<!DOCTYPE html><html><body>502 Bad Gateway</body></html>", b"",
                                    "truncated", b"\x1f\x8b\x08\x00garbage"])
def test_an_unreadable_archive_is_an_incomplete_view_and_the_run_goes_on(serve, fake_github, tenant_id, answer):
    import gzip
    import io
    import tarfile

    from tests.test_pipelines import BUGGY, memfix_pulls

    if answer == "truncated":  # a real tarball cut off half way
        buffer = io.BytesIO()
        with tarfile.open(fileobj=buffer, mode="w") as tar:
            data = ("x = 1\n" * 5000).encode()
            info = tarfile.TarInfo("acme-api-0000000/pkg/big.py")
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
        whole = gzip.compress(buffer.getvalue())
        answer = whole[: len(whole) // 2]
    fake_github.archives["acme/api"] = answer
    cid = fake_github.add_comment("acme/api", 1, "/autofix app/util.py", user="alice")["id"]
    fake_github.push("acme/api", "main", {"app/util.py": BUGGY})
    assert serve("issue_comment", P.issue_comment("/autofix app/util.py", installation=tenant_id, repo="acme/api",
                                                  comment_id=cid, pull_request=False)) == 202
    assert serve.drain()
    [reply] = [c["body"] for c in fake_github.comments("acme/api", 1) if f"command:acme/api:{cid}" in c["body"]]
    assert "could not be read" in reply and "were held back" in reply
    [pr] = memfix_pulls(fake_github)  # F541 fixed; the unused imports, which need the whole view, held back
    fixed = fake_github.file("acme/api", pr["head"]["ref"], "app/util.py")
    assert 'return "hello" + name' in fixed and "import os" in fixed
    with serve.services.db.tenant(tenant_id) as conn:
        [job] = conn.execute("SELECT status, attempts FROM jobs WHERE kind = 'command'").fetchall()
    assert job == {"status": "done", "attempts": 1}  # once: no retry, no dead letter


# ---- kinds seen breaking real projects: names read from text, imports that act, files that are data ----

@pytest.mark.parametrize("kind, path, before, after, others, expected", [
    ("doctest", "util.py", 'import math\n\n\ndef area(r):\n    """\n    >>> math.pi > 3\n    True\n    """\n'
     "    return r\n", '\n\ndef area(r):\n    """\n    >>> math.pi > 3\n    True\n    """\n    return r\n', {},
     "a doctest example"),
    ("string annotation", "typed.py", "from decimal import Decimal\n\n\ndef price() -> 'Decimal':\n    return 1\n",
     "\n\ndef price() -> 'Decimal':\n    return 1\n", {}, "a string annotation"),
    ("TypeAlias", "alias.py", "from typing import TypeAlias\nfrom pathlib import Path\n\nPathish: TypeAlias = "
     "'Path | str'\n", "from typing import TypeAlias\n\nPathish: TypeAlias = 'Path | str'\n", {},
     "a string annotation"),
    ("type comment", "old.py", "from typing import List\n\nx = []  # type: List[int]\n",
     "\nx = []  # type: List[int]\n", {}, "a type comment"),
    ("skipif string", "test_x.py", "import sys\nimport pytest\n\n\n@pytest.mark.skipif('sys.platform == \"win\"')\n"
     "def test_a():\n    pass\n", "import pytest\n\n\n@pytest.mark.skipif('sys.platform == \"win\"')\ndef test_a():"
     "\n    pass\n", {}, "a pytest `skipif` condition"),
    ("bare annotation", "mod.py", "import pkg\n\npkg: object\n", "\npkg: object\n", {}, "bare annotation"),
    ("locals() in a function", "dyn.py", "def f():\n    import json\n    return locals()\n",
     "def f():\n    return locals()\n", {}, "reads its own namespace"),
    ("getattr elsewhere", "pkg/compat.py", "from itertools import zip_longest\n", "",
     {"pkg/__init__.py": "", "pkg/use.py": "from pkg import compat\n\nf = getattr(compat, 'zip_longest')\n"},
     "pkg/use.py"),
    ("sibling helper of a script", "demos/plot.py", "import _path_setup\nprint('demo')\n", "print('demo')\n",
     {"demos/_path_setup.py": "import sys\nsys.path.insert(0, '..')\n"}, "imported for what its top level does"),
    ("an explaining comment above", "run.py", "# registers the codecs on import\nimport mycodecs\nprint(1)\n",
     "# registers the codecs on import\nprint(1)\n", {}, "the comment above it explains"),
    ("a test of the import", "tests/test_imports.py", "def test_import_yaml():\n    import yaml\n",
     "def test_import_yaml():\n    pass\n", {}, "a test whose point is that the import works"),
    ("a runner loading tests", "tests/__main__.py", "from . import test_api, test_cli\nimport unittest\n"
     "unittest.main()\n", "import unittest\nunittest.main()\n", {}, "of a test module"),
    ("a fixture that must hold bad code", "tests/fixtures/broken.py", "import os\nx = f'a'\n", "x = 'a'\n", {},
     "fixtures/test-data folder"),
    ("a module a generator copies", "gen/template.py", "import os\nimport inspect\n\nSRC = inspect.getsource("
     "inspect.getmodule(os))\n", "import inspect\n\nSRC = inspect.getsource(inspect.getmodule(os))\n", {},
     "its own text is read"),
    ("read by another file's getsource", "parser/runtime.py", "import os\nx = 1\n", "x = 1\n",
     {"parser/gen.py": "import inspect\nfrom parser import runtime\n\nTEXT = inspect.getsource(runtime)\n"},
     "reads as data (`inspect.getsource`"),
    ("a sibling module a generator slices by its markers", "codegen/runtime.py",
     "import json\n# BEGIN RUNTIME\ndef load(s):\n    return json.loads(s)\n# END RUNTIME\nimport os\n",
     "import json\n# BEGIN RUNTIME\ndef load(s):\n    return json.loads(s)\n# END RUNTIME\n",
     {"codegen/emit.py": "import os\n\nHERE = os.path.dirname(__file__)\n\n\ndef runtime():\n"
                         "    with open(os.path.join(HERE, 'runtime.py')) as f:\n        text = f.read()\n"
                         "    return text[text.index('# BEGIN'):text.index('# END')]\n"},
     "whose text codegen/emit.py reads as data"),
    ("a module that reads itself by name", "tools/stamp.py",
     "import os\nfrom pathlib import Path\n\nSELF = (Path(__file__).parent / 'stamp.py').read_text()\n",
     "from pathlib import Path\n\nSELF = (Path(__file__).parent / 'stamp.py').read_text()\n", {},
     "its own text is read"),
    ("a test that compares its own text", "tests/test_self.py",
     "import os\n\n\ndef test_self():\n    with open(__file__, mode='r') as f:\n"
     "        assert 'def test_self' in f.read()\n",
     "\n\ndef test_self():\n    with open(__file__, mode='r') as f:\n        assert 'def test_self' in f.read()\n", {},
     "its own text is read"),
    ("an import guarded by any handler", "pkg/fast.py",
     "try:\n    import ujson\nexcept RuntimeError:\n    ujson = None\n", "try:\n    pass\nexcept RuntimeError:\n"
     "    ujson = None\n", {}, "an import inside try/except: "),
    ("an explaining comment beside it", "run2.py", "import optional_dep  # ensures it exists\nprint(1)\n",
     "pass  # ensures it exists\nprint(1)\n", {}, "the comment beside it explains"),
    ("a binding another path still reads", "conv.py",
     "def parse(text, default=None):\n    try:\n        return int(text)\n    except TypeError as exc:\n"
     "        if default is None:\n            raise ValueError(text) from exc\n        exc = None\n"
     "        return default\n",
     "def parse(text, default=None):\n    try:\n        return int(text)\n    except TypeError:\n"
     "        if default is None:\n            raise ValueError(text) from exc\n        exc = None\n"
     "        return default\n", {}, "removes a binding of `exc` in `parse`, which still reads it"),
    ("a namespace read by the removed name as its key", "update.py",
     "import io\n\n\ndef opener():\n    return globals()['io']\n", "\n\ndef opener():\n    return globals()['io']\n",
     {}, "reads its namespace with `globals()`"),
    ("a binding a closure still reads", "mpd.py",
     "def parse(doc):\n    base = doc.base\n    if doc.fast:\n        base = None\n\n    def url():\n"
     "        return base\n    return url\n",
     "def parse(doc):\n    base = doc.base\n    if doc.fast:\n        pass\n\n    def url():\n"
     "        return base\n    return url\n", {}, "removes a binding of `base` in `parse`"),
    ("a public module's import (compat re-export)", "pkg/compatibility.py",
     "from collections.abc import Sequence\n\nX = 1\n", "\nX = 1\n", {"pkg/__init__.py": ""},
     "a public module of the package without `__all__`"),
])
def test_a_use_no_linter_sees_keeps_the_name(kind, path, before, after, others, expected):
    problem = _problem(path, before, after, others)
    assert problem is not None and expected in problem, (kind, problem)


@pytest.mark.parametrize("path, before, after, others", [
    ("pkg/_private.py", "import os\nX = 1\n", "X = 1\n", {"pkg/__init__.py": ""}),  # a private module's own
    ("scripts/tool.py", "import os\nprint(1)\n", "print(1)\n", {}),  # a script's, with nothing beside it
    ("calc.py", "def f():\n    x = 1\n    return 2\n", "def f():\n    return 2\n", {}),  # read nowhere: gone
    ("calc2.py", "def f():\n    try:\n        g()\n    except OSError as exc:\n        return 1\n",
     "def f():\n    try:\n        g()\n    except OSError:\n        return 1\n", {}),  # `exc` read nowhere
    ("tools/emit.py", "import os\nHERE = os.path.dirname(__file__)\nDATA = open(os.path.join(HERE, 'x.json'))\n"
     "import sys\n", "import os\nHERE = os.path.dirname(__file__)\nDATA = open(os.path.join(HERE, 'x.json'))\n",
     {}),  # it reads a data file beside it, not its own text
    ("tests/test_a.py", "import os\n\n\ndef test_a():\n    assert 1\n", "\n\ndef test_a():\n    assert 1\n", {}),
    ("pkg/api.py", "import os\n__all__ = ['X']\nX = 1\n", "__all__ = ['X']\nX = 1\n", {"pkg/__init__.py": ""}),
    ("tests/test_upload.py", "import os\n\n\ndef test_upload(post):\n    with open(__file__, 'rb') as f:\n"
     "        assert post(files={'f': f}).ok\n", "\n\ndef test_upload(post):\n    with open(__file__, 'rb') as f:\n"
     "        assert post(files={'f': f}).ok\n", {}),  # its own bytes as a payload: their content is nobody's test
    ("tests/test_files.py", "import os\n\n\ndef test_upload(post):\n    name = os.path.splitext(__file__)[0] + '.py'\n"
     "    with open(name, 'rb') as f:\n        assert post(files={'f': ('test_files.py', f)}).ok\n",
     "\n\ndef test_upload(post):\n    name = os.path.splitext(__file__)[0] + '.py'\n"
     "    with open(name, 'rb') as f:\n        assert post(files={'f': ('test_files.py', f)}).ok\n",
     {}),  # its own name as an upload's file name, not a path it reads
    ("mpd2.py", "def parse(doc):\n    def segments(info):\n        base_url = info.get('base_url')\n        return 1\n"
     "    for base_url in doc.urls:\n        print(base_url)\n",
     "def parse(doc):\n    def segments(info):\n        info.get('base_url')\n        return 1\n"
     "    for base_url in doc.urls:\n        print(base_url)\n", {}),  # the nested function's own local
    ("update.py", "import io\n\n\ndef frozen():\n    return globals().get('__loader__') or 'x' in vars()\n",
     "\n\ndef frozen():\n    return globals().get('__loader__') or 'x' in vars()\n", {}),  # reads those keys only
])
def test_an_import_nothing_uses_still_goes(path, before, after, others):
    from core.change import Patch

    view = RepositoryView({path: before, **others})
    assert surface_problem(Patch(path, before, after, (), "ruff"), view, imports_chosen=True) is None


def test_a_public_modules_unused_import_goes_where_the_teams_linter_reports_it_but_not_from_its_init():
    """The team's ruff or flake8 selects F401 and reports the import: a re-export the team meant would carry its
    `noqa` (and not be reported), so removing it is what the team's own tool asks. A package's `__init__.py` is its
    surface whatever the linter says."""
    from core.change import Patch

    before, after = "from django.utils import translation\n\nX = 1\n", "\nX = 1\n"
    view = RepositoryView({"pkg/commands/show.py": before, "pkg/commands/__init__.py": "", "pkg/__init__.py": ""})
    patch = Patch("pkg/commands/show.py", before, after, (), "ruff")
    assert surface_problem(patch, view, imports_chosen=True) is None
    assert "without `__all__`" in surface_problem(patch, view, imports_chosen=False).text
    init = Patch("pkg/commands/__init__.py", before, after, (), "ruff")
    view = RepositoryView({"pkg/commands/__init__.py": before, "pkg/__init__.py": ""})
    assert "re-exports" in surface_problem(init, view, imports_chosen=True).text


def test_a_public_modules_import_goes_only_where_the_team_chose_f401_and_all_leaves_it_out():
    from core.change import Patch

    before, after = "import os\n__all__ = ['X']\nX = 1\n", "__all__ = ['X']\nX = 1\n"
    view = RepositoryView({"pkg/api.py": before, "pkg/__init__.py": ""})
    patch = Patch("pkg/api.py", before, after, (), "ruff")
    problem = surface_problem(patch, view, imports_chosen=False)
    assert "does not select F401" in problem.text and problem.rules == {"F401"}  # the one rule it blames
    assert surface_problem(patch, view, imports_chosen=True) is None


@pytest.mark.parametrize("before, after, expected", [
    ("if x:\n    y()\nelse:  # pragma: no cover\n    pass  # pragma: no cover\n", "if x:\n    y()\n",
     "removes the comment `# pragma: no cover`"),
    ("def f():\n    '''doc'''\n    pass  # noqa: PIE790\n", "def f():\n    '''doc'''\n# noqa: PIE790\n",
     "on a line of its own"),
    ("import sys  # Ensures that sys exists\nx = 1\n", "x = 1\n", "removes the comment"),
])
def test_a_fix_that_changes_what_a_comment_means_is_not_made(before, after, expected):
    from core.languages.python.comments import comment_problem

    problem = comment_problem(Patch("a.py", before, after, (), "ruff"))
    assert problem is not None and expected in problem
    assert comment_problem(Patch("a.py", "x = f'a'  # greeting\n", "x = 'a'  # greeting\n", (), "ruff")) is None


UTIL = "from pkg.base import helper, other\n\n__all__ = ['X']\nX = other()\n"  # only a doctest could hold `helper`
UTIL_AFTER = UTIL.replace("helper, ", "")
USES_HELPER = "Usage\n=====\n\n    >>> from pkg.util import helper\n    >>> helper(\n    ...     1)\n    2\n"


@pytest.mark.parametrize("kind, texts, sources", [
    ("pytest's default doctest glob test*.txt", {"tests/test_usage.txt": USES_HELPER}, {}),
    ("--doctest-glob in pytest's configuration", {"docs/guide.rst": USES_HELPER,
                                                  "pytest.ini": "[pytest]\naddopts = --doctest-glob='*.rst'\n"}, {}),
    ("python -m doctest in a CI file", {"README.rst": USES_HELPER,
                                        "tox.ini": "[testenv]\ncommands = python -m doctest -v README.rst\n"}, {}),
    ("doctest.testfile in the project's code", {"tests/guide.txt": USES_HELPER},
     {"tests/test_docs.py": "import doctest\n\n\ndef test_guide():\n    doctest.testfile('guide.txt')\n"}),
    ("DocFileSuite in a unittest loader", {"docs/usage.md": USES_HELPER},
     {"tests/test_docs.py": "import doctest\n\n\ndef load_tests(l, t, i):\n"
                            "    return doctest.DocFileSuite('../docs/usage.md')\n"}),
    ("a Sphinx project with sphinx.ext.doctest", {"docs/usage.rst": USES_HELPER},
     {"docs/conf.py": "extensions = ['sphinx.ext.doctest']\n"}),
])
def test_a_name_the_doctest_runs_text_files_import_stays(kind, texts, sources):
    view = RepositoryView({"pkg/util.py": UTIL, "pkg/__init__.py": "", **sources}, texts=texts)
    problem = surface_problem(Patch("pkg/util.py", UTIL, UTIL_AFTER, (), "ruff"), view, imports_chosen=True)
    assert problem is not None and "`helper`" in problem.text and not problem.rules, (kind, problem)


def test_examples_no_doctest_run_names_do_not_hold_a_fix_back():
    view = RepositoryView({"pkg/util.py": UTIL, "pkg/__init__.py": "", "docs/conf.py": "extensions = []\n"},
                          texts={"README.md": USES_HELPER, "docs/usage.rst": USES_HELPER,
                                 "tox.ini": "[testenv]\ncommands = pytest\n"})
    assert surface_problem(Patch("pkg/util.py", UTIL, UTIL_AFTER, (), "ruff"), view, imports_chosen=True) is None


def test_a_conftest_that_fills_the_doctest_namespace_by_name_keeps_its_imports():
    before = ("import sys\n\nimport numpy\nimport pytest\n\nNAMES = ('numpy',)\n\n\n@pytest.fixture(autouse=True)\n"
              "def names(doctest_namespace):\n    doctest_namespace.update((n, sys.modules[n]) for n in NAMES)\n")
    after = before.replace("import numpy\n", "")
    problem = _problem("conftest.py", before, after)
    assert problem is not None and "`numpy`" in problem and "doctest namespace" in problem


def test_the_view_of_a_checkout_carries_its_text_files_beside_its_sources(tmp_path):
    from core.pipelines.workspace import LocalWorkspace

    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "util.py").write_text(UTIL)
    (tmp_path / "README.rst").write_text(USES_HELPER)
    (tmp_path / "tox.ini").write_text("[testenv]\ncommands = python -m doctest README.rst\n")
    (tmp_path / "logo.png").write_bytes(b"\x89PNG")
    view = LocalWorkspace(tmp_path).repository_view()
    assert set(view.sources) == {"pkg/util.py"} and set(view.texts) == {"README.rst", "tox.ini"}


def test_text_files_have_their_own_budget_and_prose_without_examples_is_not_kept(tmp_path, monkeypatch):
    from core.pipelines import workspace
    from core.pipelines.workspace import LocalWorkspace

    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "util.py").write_text(UTIL)
    (tmp_path / "CHANGES.txt").write_text("a long changelog\n" * 1000)  # prose: read, not kept, not counted
    (tmp_path / "guide.rst").write_text(USES_HELPER)
    monkeypatch.setattr(workspace, "MAX_TEXT_BYTES", 10_000)
    view = LocalWorkspace(tmp_path).repository_view()
    assert view.complete and set(view.texts) == {"guide.rst"}
    (tmp_path / "more.rst").write_text(USES_HELPER * 200)  # examples past the text budget: said, not guessed at
    view = LocalWorkspace(tmp_path).repository_view()
    assert not view.complete and "text files with doctest examples are over" in view.reason


def test_a_module_named_by_a_reader_in_another_folder_is_not_its_data():
    """A test that opens files beside its own `__file__` and names `__init__.py` reads its own folder's, not every
    package's: only a sibling it names is data."""
    others = {"tests/test_layout.py": "import os\nHERE = os.path.dirname(__file__)\n"
                                      "print(open(os.path.join(HERE, '__init__.py')).read())\n",
              "src/pkg/helper.py": "X = 1\n"}
    problem = _problem("src/pkg/__init__.py", "import os\nfrom pkg.helper import X\n", "from pkg.helper import X\n",
                       others)
    assert "reads as data" not in (problem or "")  # (another check may still keep it: not this one)


@pytest.mark.parametrize("before, after, expected", [
    # the test exercises the package's own `Shape`: flattening its nested call is what the test is about
    ("from shapes import Shape\n\n\ndef test_nesting():\n    assert Shape(Shape(1, 2), 3) == Shape(1, 2, 3)\n",
     "from shapes import Shape\n\n\ndef test_nesting():\n    assert Shape(1, 2, 3) == Shape(1, 2, 3)\n",
     "rewrites code using `Shape` in a test, which imports it from this repository"),
    # an unused binding or import around the package's names is no rewrite of them
    ("from shapes import Shape, unused\n\n\ndef test_it():\n    try:\n        Shape(1)\n    except ValueError as e:\n"
     "        pass\n",
     "from shapes import Shape\n\n\ndef test_it():\n    try:\n        Shape(1)\n    except ValueError:\n        pass\n",
     None),
    # the same rewrite of a name from elsewhere (the standard library) is the linter's to judge
    ("from typing import Literal\n\n\ndef test_x():\n    assert Literal[Literal[1], 2]\n",
     "from typing import Literal\n\n\ndef test_x():\n    assert Literal[1, 2]\n", None),
])
def test_a_test_keeps_the_code_it_exercises_from_the_repository(before, after, expected):
    problem = _problem("tests/test_shapes.py", before, after, {"shapes/__init__.py": "class Shape:\n    pass\n"})
    assert (problem is None) if expected is None else (expected in problem)


def test_many_doctest_pages_globs_and_sphinx_folders_are_read_without_trying_each_against_each():
    from core.languages.python.hidden import MAX_DOCTEST_GLOBS, doctest_code

    pages = {f"docs/d{n}/p.txt": ">>> import os\n" for n in range(300)} | {"notes/n.md": ">>> import sys\n",
                                                                         "guide/g.rst": ">>> import re\n"}
    sphinx = {f"docs/d{n}/conf.py": "extensions = ['sphinx.ext.doctest']\n" for n in range(0, 300, 2)}
    globs = " ".join(f"--doctest-glob=*.x{n}" for n in range(MAX_DOCTEST_GLOBS * 10))
    pytest_ini = f"[pytest]\naddopts = --doctest-glob=*.md {globs} --doctest-glob=*.rst\n"
    found = doctest_code(sphinx, {**pages, "pytest.ini": pytest_ini})
    assert set(found) == {f"docs/d{n}/p.txt" for n in range(0, 300, 2)} | {"notes/n.md"}  # past the globs read: not
    assert found["notes/n.md"] == "import sys"
