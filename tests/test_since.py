"""`memfix autofix DIR --since REF`: what a push from REF would get, read from a git history of the test's own.

The changes and each file's text at REF, kind by kind (core/pipelines/since.py, brought.py `changed`), the refusals,
what git is never let do, the CLI's run on them, and the same commits pushed to the fake GitHub through a real
`memfix serve`: the same findings and patches.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from core.pipelines.brought import Change, Status
from core.pipelines.since import SinceRefused, since
from tests.fakes import payloads as P

RUFF = {"ruff.toml": "line-length = 88\n"}  # the team runs ruff: AutoFix proposes what it selects
FUNC = "\n\ndef greet(name):\n    return 'hello ' + name\n"


@pytest.fixture(autouse=True)
def _outside_memfix(tmp_path, monkeypatch):
    """The test's folders are inside memfix's own checkout: git looks for repositories no higher than tmp_path."""
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), "-c", "user.name=Dev", "-c", "user.email=dev@example.com",
                           "-c", "commit.gpgsign=false", *args], check=True, capture_output=True, text=True).stdout


def write(repo: Path, files: dict[str, str | None]) -> None:
    for path, text in files.items():
        target = repo / path
        if text is None:
            target.unlink()
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text)


def commit(repo: Path, files: dict[str, str | None], message: str = "change") -> str:
    write(repo, files)
    git(repo, "add", "--all")
    git(repo, "commit", "--quiet", "--no-verify", "--allow-empty", "-m", message)
    return git(repo, "rev-parse", "HEAD").strip()


def history(tmp_path: Path, files: dict[str, str]) -> tuple[Path, str]:
    """A repository on `main` whose first commit holds `files`: (its folder, that commit)."""
    repo = tmp_path / "checkout"
    repo.mkdir()
    git(repo, "init", "--quiet", "-b", "main")
    return repo, commit(repo, {**RUFF, **files}, "base")


def olds(repo: Path, ref: str) -> dict[str, str | None]:
    """Each changed source file's text at REF, by its path now."""
    brought = since(repo, ref).changed()
    return {path: brought.previous(path) for path in brought.paths}


# ---- the changes, kind by kind ----


def test_a_file_added_since_ref_has_nothing_older_committed_or_untracked_but_not_ignored(tmp_path):
    repo, base = history(tmp_path, {".gitignore": "build/\n"})
    commit(repo, {"app/new.py": "import os\n"})
    write(repo, {"app/draft.py": "import sys\n", "build/out.py": "x = 1\n"})
    assert olds(repo, base) == {"app/new.py": None, "app/draft.py": None}
    assert {c.new: c.status for c in since(repo, base).changes} == {"app/new.py": Status.ADDED,
                                                                    "app/draft.py": Status.ADDED}


def test_a_modified_file_is_read_at_ref_with_the_working_trees_edits_counted(tmp_path):
    repo, base = history(tmp_path, {"a.py": "A = 1\n", "b.py": "B = 1\n", "c.py": "C = 1\n"})
    commit(repo, {"a.py": "A = 2\n"})
    write(repo, {"b.py": "B = 2\n"})  # not committed
    git(repo, "add", "b.py")
    write(repo, {"c.py": "C = 2\n"})  # not even staged
    assert olds(repo, base) == {"a.py": "A = 1\n", "b.py": "B = 1\n", "c.py": "C = 1\n"}


def test_a_renamed_file_is_followed_to_its_old_name_committed_or_moved_in_the_working_tree(tmp_path):
    body = "import os\n" + FUNC * 3
    repo, base = history(tmp_path, {"old.py": body, "moved.py": body.replace("os", "sys")})
    git(repo, "mv", "old.py", "pkg_new.py")
    commit(repo, {"pkg_new.py": body + "X = 1\n"})
    (repo / "moved.py").rename(repo / "elsewhere.py")  # no `git mv`: untracked at the new name
    brought = since(repo, base)
    assert Change(Status.RENAMED, "old.py", "pkg_new.py") in brought.changes
    assert Change(Status.RENAMED, "moved.py", "elsewhere.py") in brought.changes
    assert olds(repo, base) == {"pkg_new.py": body, "elsewhere.py": body.replace("os", "sys")}


def test_a_deleted_file_is_not_run_and_other_files_and_scopes_are_left_out(tmp_path):
    repo, base = history(tmp_path, {"gone.py": "G = 1\n", "pkg/a.py": "A = 1\n", "notes.txt": "n\n"})
    commit(repo, {"gone.py": None, "pkg/a.py": "A = 2\n", "notes.txt": "m\n", "pkg/b.py": "B = 1\n"})
    assert olds(repo, base) == {"pkg/a.py": "A = 1\n", "pkg/b.py": None}
    assert Change(Status.REMOVED, "gone.py", None) in since(repo, base).changes
    assert since(repo, base).changed("pkg/b.py").paths == ["pkg/b.py"]
    assert since(repo / "pkg", base).root == repo.resolve()  # a folder of the repository: its top is the checkout
    assert since(repo, "HEAD").changes == []  # nothing since the last commit


def test_what_is_not_a_repository_an_unknown_ref_or_one_head_did_not_grow_from_is_refused(tmp_path):
    plain = tmp_path / "plain"
    plain.mkdir()
    with pytest.raises(SinceRefused, match=f"--since compares with a commit of a git repository, and {plain} is not"):
        since(plain, "HEAD")
    repo, base = history(tmp_path, {"a.py": "A = 1\n"})
    for ref in ("no-such-branch", "HEAD~3", "--output=/tmp/x"):
        with pytest.raises(SinceRefused, match=f"git knows no commit {re.escape(repr(ref))} in "):
            since(repo, ref)
    git(repo, "checkout", "--quiet", "-b", "other")
    elsewhere = commit(repo, {"b.py": "B = 1\n"})
    git(repo, "checkout", "--quiet", "main")
    with pytest.raises(SinceRefused, match=rf"other \({elsewhere[:12]}\) is not an ancestor of HEAD"):
        since(repo, "other")


def test_git_runs_no_filter_of_the_repository_and_leaves_its_index_as_it_was(tmp_path):
    repo, base = history(tmp_path, {"a.py": "A = 1\n"})
    marker = tmp_path / "filter-ran"
    (repo / ".git" / "info" / "attributes").write_text("*.py filter=stamp\n")
    git(repo, "config", "filter.stamp.clean", f"touch {marker}; cat")
    git(repo, "config", "filter.stamp.required", "true")
    write(repo, {"a.py": "A = 2\n", "b.py": "B = 1\n"})
    index = (repo / ".git" / "index").read_bytes()
    assert olds(repo, base) == {"a.py": "A = 1\n", "b.py": None}
    assert not marker.exists() and (repo / ".git" / "index").read_bytes() == index
    assert "?? b.py" in git(repo, "status", "--short")  # still untracked


# ---- the CLI's run ----


MODIFIED_BASE = "import os\n" + FUNC + "\n\ndef use():\n    return 1\n"
MOVED_BASE = "import json\nimport re\n" + FUNC + "\n\ndef parse(text):\n    return re.sub('a', 'b', text)\n"


def kinds(tmp_path: Path) -> tuple[Path, str]:
    """Every kind at once: an added file with a finding, a modified one with an old finding and a new one, a renamed
    file with an old finding, a file whose old finding moved, and a deleted file; some committed, some not."""
    repo, base = history(tmp_path, {"app/modified.py": MODIFIED_BASE, "app/old_name.py": "import os\n" + FUNC,
                                    "app/moved.py": MOVED_BASE, "app/gone.py": "import os\n"})
    git(repo, "mv", "app/old_name.py", "app/new_name.py")
    commit(repo, {"app/added.py": "import os\n\n\ndef add(a, b):\n    return a + b\n", "app/gone.py": None,
                  "app/modified.py": "import sys\n" + MODIFIED_BASE})
    write(repo, {"app/moved.py": "import re\nimport json\n" + FUNC + "\n\ndef parse(text):\n    return re.sub('a', "
                                 "'b', text)\n"})  # the old finding on another line: moved, not brought
    return repo, base


def test_autofix_since_finds_and_fixes_only_what_the_branch_brought(cli, tmp_path, db, tenant_id):
    repo, base = kinds(tmp_path)
    code, out, err = cli("autofix", str(repo), "--since", base, "--json")
    assert code == 0, err
    report = json.loads(out)
    assert sorted((f["path"], f["code"], f["message"]) for f in report["findings"]) == [
        ("app/added.py", "F401", "`os` imported but unused"),
        ("app/modified.py", "F401", "`sys` imported but unused")]
    assert report["files_scanned"] == 4  # added, modified, renamed, moved; the deleted one is not run
    fixed = {o["path"]: o["unified_diff"] for o in report["outcomes"] if o["status"] == "PROMOTED"}
    assert set(fixed) == {"app/added.py", "app/modified.py"}
    assert "-import sys" in fixed["app/modified.py"] and "-import os" not in fixed["app/modified.py"]
    assert any("older than this push" in n for n in report["notes"])
    assert any(n.startswith(f"since {base} ({base[:12]}): 4 changed file(s)") for n in report["notes"])

    code, out, _ = cli("refactor", str(repo / "app" / "added.py"), "--since", base, "--json")
    assert code == 0 and json.loads(out)["files_scanned"] == 1  # a file of the repository: that file alone
    code, out, _ = cli("autofix", str(repo), "--since", "HEAD", "--json")
    assert code == 0 and json.loads(out)["files_scanned"] == 1 and json.loads(out)["findings"] == []  # moved only
    commit(repo, {})
    code, out, _ = cli("autofix", str(repo), "--since", "HEAD", "--json")
    assert code == 0 and json.loads(out)["files_scanned"] == 0  # nothing changed: no file is run, not every file


@pytest.mark.parametrize("where, ref, said", [
    ("plain", "HEAD", "is not in one"),
    ("checkout", "no-such-branch", "git knows no commit 'no-such-branch'"),
    ("checkout", "other", "is not an ancestor of HEAD"),
])
def test_a_since_that_cannot_be_is_one_sentence_exit_2_and_nothing_else(cli, tmp_path, db, tenant_id, where, ref,
                                                                        said):
    repo, _ = history(tmp_path, {"app.py": "import os\n"})
    git(repo, "checkout", "--quiet", "-b", "other")
    commit(repo, {"b.py": "import os\n"})
    git(repo, "checkout", "--quiet", "main")
    (tmp_path / "plain").mkdir()
    code, out, err = cli("autofix", str(tmp_path / where), "--since", ref, "--json")
    assert (code, out) == (2, "") and said in err
    assert err.startswith("memfix: ") and err.count("\n") == 1
    with db.tenant(tenant_id) as conn:
        assert conn.execute("SELECT count(*) AS n FROM runs").fetchone()["n"] == 0  # no run was even started


# ---- the same commits pushed: the push path opens what the CLI shows ----


def test_since_shows_the_findings_and_patches_a_push_of_the_same_commits_opens_as_prs(served, cli, tmp_path,
                                                                                     tenant_id):
    repo, base = kinds(tmp_path)
    local = {p: (repo / p).read_text() for p in git(repo, "ls-files", "--cached", "--others", "--exclude-standard")
             .split() if (repo / p).is_file()}
    at_base = {p: git(repo, "show", f"{base}:{p}") for p in git(repo, "ls-tree", "-r", "--name-only", base).split()}
    code, out, err = cli("autofix", str(repo), "--since", base, "--json", "--apply")
    assert code == 0, err
    report = json.loads(out)

    gh = served.github
    before = gh.add_repo("acme/api", at_base)
    after = gh.push("acme/api", "main", {**local, **{p: None for p in at_base if p not in local}})
    payload = P.push(installation=tenant_id, repo="acme/api", before=before, after=after, commits=[{
        "added": ["app/added.py", "app/new_name.py"], "removed": ["app/gone.py", "app/old_name.py"],
        "modified": ["app/modified.py", "app/moved.py"]}])  # as GitHub lists a rename: removed, then added
    assert served.post("push", payload) == 202
    served.wait_idle()

    prs = {re.search(r"in (\S+)$", pr["title"])[1]: pr for pr in gh.pulls("acme/api")}
    promoted = {o["path"]: o for o in report["outcomes"] if o["status"] == "PROMOTED"}
    assert set(prs) == set(promoted) == {"app/added.py", "app/modified.py"}
    for path, pr in prs.items():
        assert gh.file("acme/api", pr["head"]["ref"], path) == (repo / path).read_text()  # the same patch
        shown = re.findall(r"^- line (\d+): `(\S+)`", pr["body"], re.MULTILINE)
        assert shown == [(str(f["line"]), f["code"]) for f in report["findings"] if f["path"] == path]
    [check] = [c for c in gh.check_runs("acme/api") if c["head_sha"] == after]
    assert f"{len(report['findings'])} findings in {report['files_scanned']} files" in check["output"]["summary"]
