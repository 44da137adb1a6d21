"""The public-surface and dynamic-use check on small crafted repositories: what no lint sees stays."""

from __future__ import annotations

import pytest

from core.models import Patch
from core.pipelines.surface import RepositoryView, surface_problem
from tests.fakes import payloads as P


def _problem(path: str, before: str, after: str, others: dict[str, str] | None = None, complete: bool = True):
    view = RepositoryView({path: before, **(others or {})}, complete=complete, reason="too big")
    return surface_problem(Patch(path, before, after, (), "ruff"), view)


PROBE = "try:\n    import readline\nexcept ImportError:\n    readline = None\n\nHAVE = True\n"


@pytest.mark.parametrize("path, before, after, others, expected", [
    ("pkg/shell.py", "try:\n    import readline  # noqa\nexcept ImportError:\n    pass\n", "pass\n", {},
     "try/except ImportError"),
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
             "pkg/clean.py": "import os\nimport sys\n\nprint(sys.argv)\n"}
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
    assert status["pkg/clean.py"][0] == "PROMOTED"
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
