"""Pipeline parts with the real ruff: detect, ruff's fixes and model edits, verify and its verdict, repo config."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest

from core.change import Finding, Patch, Verification
from core.languages.adapter import DetectError
from core.languages.python.language import Python
from core.languages.python.ruff import Ruff, python_files
from core.learning.record import PROMOTE_THRESHOLD
from core.pipelines.config import AUTOFIX_RULES, REFACTOR_RULES, RepoConfig, parse_config
from core.pipelines.propose import EditError, apply_edits, ruff_patch, ruff_patches
from core.pipelines.verify import confidence, status_for, verify, verify_many

SAMPLE = Path(__file__).resolve().parents[1] / "samples" / "shop"


@pytest.fixture(scope="module")
def ruff() -> Ruff:
    return Ruff()


@pytest.fixture
def shop(tmp_path) -> Path:
    return Path(shutil.copytree(SAMPLE, tmp_path / "shop"))


def write(root: Path, path: str, text: str) -> str:
    (root / path).parent.mkdir(parents=True, exist_ok=True)
    (root / path).write_text(text)
    return path


def finding(code: str, message: str, line: int = 1, path: str = "m.py") -> Finding:
    return Finding(path=path, line=line, column=1, code=code, message=message)


# ---- detect ----

def test_detect_finds_the_sample_shops_bugs(ruff, shop):
    autofix = ruff.check(shop, ["."], AUTOFIX_RULES)
    refactor = ruff.check(shop, ["."], REFACTOR_RULES)

    assert {f.code for f in autofix} >= {"F401", "F541", "E711", "E713", "E722", "B006", "S101", "S602", "S608"}
    assert {f.code for f in refactor} >= {"UP004", "UP015", "C408", "RET505", "SIM117"}
    unused = next(f for f in autofix if f.code == "F401" and f.path == "shop/orders.py")
    assert (unused.line, unused.column, unused.fixable) == (5, 22, True)
    assert "datetime" in unused.message
    assert not any(f.fixable for f in autofix if f.code in {"E722", "B006", "S602", "S608"})
    assert {f.path for f in autofix} >= {"shop/db.py", "shop/orders.py", "shop/prices.py", "tests/test_prices.py"}


def test_detect_checks_only_existing_python_files_inside_the_root(ruff, tmp_path):
    root = tmp_path / "repo"
    write(root, "a.py", "import os\n")
    write(root, "notes.txt", "import os\n")
    write(root, "pkg/b.py", "import sys\n")
    write(root, ".venv/lib/c.py", "import re\n")
    write(tmp_path, "outside.py", "import json\n")

    findings = ruff.check(root, ["a.py", "notes.txt", "missing.py", "../outside.py", "pkg"], ("F",))

    assert [(f.path, f.code) for f in findings] == [("a.py", "F401"), ("pkg/b.py", "F401")]
    assert python_files(root, [".", "a.py"]) == ["a.py", "pkg/b.py"]
    assert ruff.check(root, ["missing.py", "notes.txt"], ("F",)) == []


def test_detect_reports_a_syntax_error_as_a_finding(ruff, tmp_path):
    write(tmp_path, "broken.py", "def f(:\n    pass\n")

    assert {f.code for f in ruff.check(tmp_path, ["broken.py"], ("F",))} == {"invalid-syntax"}


def test_ruff_failing_is_a_detect_error_with_its_message(ruff, tmp_path):
    write(tmp_path, "a.py", "x = 1\n")

    with pytest.raises(DetectError, match="NOSUCHRULE"):
        ruff.check(tmp_path, ["a.py"], ("NOSUCHRULE",))


def test_unreadable_ruff_output_is_a_detect_error(tmp_path):
    fake = tmp_path / "fake-ruff"
    fake.write_text("#!/bin/sh\necho 'this is not json'\n")
    fake.chmod(0o755)
    write(tmp_path, "a.py", "x = 1\n")

    with pytest.raises(DetectError, match="could not be read"):
        Ruff(binary=str(fake)).check(tmp_path, ["a.py"], ("F",))


# ---- propose: ruff's fixes ----

BUGGY = """import os
import sys


def greet(names, name=None):
    if not name in names:
        print(f"unknown")
    if name == None:
        return sys.argv
    try:
        return names[name]
    except:
        return None
"""


def test_ruff_patch_fixes_what_ruff_can_fix_safely_on_a_copy(ruff, tmp_path):
    path = write(tmp_path, "greet.py", BUGGY)
    findings = ruff.check(tmp_path, [path], AUTOFIX_RULES)

    patch = ruff_patch(ruff, tmp_path, path, findings, AUTOFIX_RULES)

    assert (tmp_path / path).read_text() == BUGGY  # the checkout is never written
    assert patch.origin == "ruff" and patch.confidence == 1.0 and patch.original == BUGGY
    assert {f.code for f in patch.findings} == {"F401", "F541", "E713"}
    assert all(f.fixable for f in patch.findings)
    assert "import os\n" not in patch.updated and "import sys\n" in patch.updated
    assert 'print("unknown")' in patch.updated and "if name not in names:" in patch.updated
    assert "except:" in patch.updated  # not ruff's to fix


def test_ruff_patch_is_none_without_safe_fixes(ruff, tmp_path):
    path = write(tmp_path, "risky.py",
                 "def f(items=[]):\n    try:\n        return items[0]\n    except:\n        pass\n")
    findings = ruff.check(tmp_path, [path], AUTOFIX_RULES)

    assert {f.code for f in findings} >= {"B006", "E722"}
    assert ruff_patch(ruff, tmp_path, path, findings, AUTOFIX_RULES) is None
    assert ruff_patch(ruff, tmp_path, "other.py", findings, AUTOFIX_RULES) is None


def test_ruff_patch_keeps_to_the_selected_rules(ruff, tmp_path):
    path = write(tmp_path, "m.py", "import os\n\n\nclass A(object):\n    pass\n")
    findings = ruff.check(tmp_path, [path], ("F", "UP"))

    patch = ruff_patch(ruff, tmp_path, path, findings, REFACTOR_RULES)

    assert [f.code for f in patch.findings] == ["UP004"]
    assert patch.updated == "import os\n\n\nclass A:\n    pass\n"


# ---- propose: model edits ----

SOURCE = "def total(prices):\n    result = 0   \n    for p in prices:\n        result += p\n    return result\n"


def test_apply_edits_in_order():
    edits = [{"search": "result = 0   \n", "replace": "result = sum(prices)\n"},
             {"search": "    for p in prices:\n        result += p\n", "replace": ""}]

    assert apply_edits(SOURCE, edits) == "def total(prices):\n    result = sum(prices)\n    return result\n"


def test_apply_edits_tolerates_trailing_whitespace_per_line():
    edits = [{"search": "    result = 0\n    for p in prices:", "replace": "    result = 0.0\n    for p in prices:"}]

    assert apply_edits(SOURCE, edits) == SOURCE.replace("result = 0   \n", "result = 0.0\n")


@pytest.mark.parametrize("edit, message", [
    ({"search": "result -= p", "replace": "x"}, "edit 1 of 1: the search text was not found"),
    ({"search": "result", "replace": "total"}, "occurs 3 times"),
    ({"search": "  \n", "replace": "x"}, "search text is empty"),
    ({"search": "result = 0"}, "needs a `search` and a `replace` string"),
])
def test_apply_edits_refuses_what_does_not_match_once(edit, message):
    with pytest.raises(EditError, match=message):
        apply_edits(SOURCE, [edit])


def test_apply_edits_refuses_ambiguity_after_whitespace_tolerance():
    text = "x = 1  \ny = 2\nx = 1\ny = 2\n"

    with pytest.raises(EditError, match="occurs 2 times"):
        apply_edits(text, [{"search": "x = 1\ny = 2 \n", "replace": "z = 3\n"}])


# ---- verify ----

def model_patch(original: str, updated: str, findings=(), path: str = "m.py", conf: float = 0.9) -> Patch:
    return Patch(path=path, original=original, updated=updated, findings=tuple(findings), origin="model",
                 confidence=conf)


def test_a_verified_ruff_patch_is_promoted(ruff, shop):
    findings = ruff.check(shop, ["shop/orders.py"], AUTOFIX_RULES)
    patch = ruff_patch(ruff, shop, "shop/orders.py", findings, AUTOFIX_RULES)

    result = verify(ruff, patch, AUTOFIX_RULES)
    score = confidence(result, patch.confidence)

    assert result.ok and result.error is None and result.changed_lines == len(patch.changed_lines())
    assert score >= 0.95
    assert status_for(result, score, attempt=1, max_attempts=3) == "PROMOTED"


def test_broken_syntax_scores_zero(ruff):
    target = finding("F821", "Undefined name `x`")
    result = verify(ruff, model_patch("print(x)\n", "print(x\n", [target]), AUTOFIX_RULES)

    assert not result.parses and not result.ok
    assert result.error.startswith("SyntaxError:") and re.search(r"\(line [12]\)", result.error)  # ruff: EOF, line 2
    assert confidence(result, 1.0) == 0.0
    assert status_for(result, 0.0, attempt=1, max_attempts=3) == "RETRY"
    assert status_for(result, 0.0, attempt=3, max_attempts=3) == "REJECTED"


def test_a_target_that_remains_is_named(ruff):
    target = finding("F821", "Undefined name `x`")
    result = verify(ruff, model_patch("print(x)\n", "print(x)  # fixed\n", [target]), AUTOFIX_RULES)

    assert result.parses and not result.targeted_gone
    assert result.error == "F821 still present: Undefined name `x`"
    assert status_for(result, confidence(result, 0.9), attempt=3, max_attempts=3) == "HUMAN_REVIEW"


def test_targets_count_as_a_multiset(ruff):
    original = "print(x)\nprint(x)\n"
    target = finding("F821", "Undefined name `x`")

    one_fixed = verify(ruff, model_patch(original, "x = 1\nprint(x)\nprint(x)\n", [target]), AUTOFIX_RULES)
    none_fixed = verify(ruff, model_patch(original, "print(x)\nprint(x)  # still\n", [target]), AUTOFIX_RULES)

    assert one_fixed.targeted_gone and one_fixed.ok
    assert not none_fixed.targeted_gone


def test_a_patch_that_adds_a_finding_is_caught(ruff):
    target = finding("F821", "Undefined name `items`", line=2)
    original = "def add(item):\n    items.append(item)\n    return items\n"
    updated = "def add(item, items=[]):\n    items.append(item)\n    return items\n"

    result = verify(ruff, model_patch(original, updated, [target]), AUTOFIX_RULES)

    assert result.targeted_gone and not result.ok
    assert [(f.code, f.line, f.path) for f in result.new_findings] == [("B006", 1, "m.py")]
    assert result.error.startswith("new finding B006 at line 1:")


def test_a_verdict_names_every_rule_it_blames_as_data_its_message_only_the_first(ruff):
    original = "def f(y):\n    print(x)\n    return y == None\n"
    updated = "def f(y, z=[]):\n    print(x)\n    return y == None\n"  # both targets left, B006 made
    targets = [finding("F821", "Undefined name `x`", line=2),
               finding("E711", "Comparison to `None` should be `cond is None`", line=3)]

    result = verify(ruff, model_patch(original, updated, targets), AUTOFIX_RULES)

    assert result.failed_codes == {"F821", "E711", "B006"}
    assert result.error == "F821 still present: Undefined name `x`"  # what a person reads is unchanged
    assert verify(ruff, model_patch("print(x)\n", "x = 1\nprint(x)\n", targets[:1]), AUTOFIX_RULES).failed_codes \
        == frozenset()


def test_an_oversized_change_is_not_proportionate(ruff):
    original = "".join(f"v{i} = {i}\n" for i in range(30)) + "print(y)\n"
    updated = "y = 0\n" + "".join(f"v{i} = {i + 1}\n" for i in range(30)) + "print(y)\n"
    target = finding("F821", "Undefined name `y`", line=31)

    result = verify(ruff, model_patch(original, updated, [target]), AUTOFIX_RULES)

    assert result.targeted_gone and not result.proportionate and not result.ok
    assert result.error == "change touches 61 lines for 1 finding (at most 12)"


def test_a_large_share_of_a_long_file_is_not_proportionate(ruff):
    original = "".join(f"v{i} = {i}\n" for i in range(100))
    updated = "".join(f"v{i} = {i + (i < 25)}\n" for i in range(100))
    targets = [finding("MODEL", f"value {i} is off by one", line=i + 1) for i in range(10)]

    result = verify(ruff, model_patch(original, updated, targets), AUTOFIX_RULES)

    assert not result.proportionate
    assert result.error == "change touches 50 of the file's 100 lines (over 40%)"


def test_a_change_to_two_files_is_not_single_file(ruff):
    target = finding("F401", "`os` imported but unused")
    result = verify(ruff, model_patch("import os\nx = 1\n", "x = 1\n", [target]), AUTOFIX_RULES, files_changed=2)

    assert result.targeted_gone and not result.single_file and not result.ok
    assert "spans 2 files" in result.error
    assert confidence(result, 1.0) < PROMOTE_THRESHOLD


def test_a_patch_that_changes_nothing_fails(ruff):
    result = verify(ruff, model_patch("x = 1\n", "x = 1\n"), AUTOFIX_RULES)

    assert not result.ok and result.error == "the patch changes nothing"


def test_text_files_only_need_to_stay_text(ruff):
    ok = verify(ruff, model_patch("# Title\n", "# Better title\n", path="docs/README.md"), AUTOFIX_RULES)
    binary = verify(ruff, model_patch("# Title\n", "# Ti\0tle\n", path="docs/README.md"), AUTOFIX_RULES)
    surrogate = verify(ruff, model_patch("# Title\n", "# Ti\udcfftle\n", path="notes.txt"), AUTOFIX_RULES)

    assert ok.ok
    assert not binary.parses and "NUL" in binary.error
    assert not surrogate.parses and "UTF-8" in surrogate.error


def test_confidence_blends_verification_and_proposer():
    passed = Verification(parses=True, targeted_gone=True)
    missed = Verification(parses=True, targeted_gone=False, error="F821 still present")

    assert confidence(passed, 1.0) == 1.0
    assert confidence(passed, 0.5) == pytest.approx(0.8)
    assert confidence(passed, 7.0) == 1.0 and confidence(passed, -1.0) == pytest.approx(0.6)
    assert confidence(missed, 1.0) == pytest.approx(0.7)
    everything_wrong = Verification(parses=True, targeted_gone=False, new_findings=(finding("B006", "x"),),
                                    single_file=False, proportionate=False)
    assert confidence(everything_wrong, 0.5) == pytest.approx(0.2)


@pytest.mark.parametrize("ok, score, attempt, expected", [
    (True, 0.85, 1, "PROMOTED"),
    (True, 0.85, 3, "PROMOTED"),
    (True, 0.7, 1, "RETRY"),  # passes but below promote: try for a better one
    (True, 0.3, 1, "REJECTED"),  # passes every check and still nobody believes in it
    (False, 0.3, 1, "RETRY"),  # a failed check is fed back to the next attempt
    (False, 0.7, 3, "HUMAN_REVIEW"),
    (True, 0.7, 3, "HUMAN_REVIEW"),
    (False, 0.3, 3, "REJECTED"),
])
def test_status_for(ok, score, attempt, expected):
    result = Verification(parses=True, targeted_gone=ok)

    assert status_for(result, score, attempt=attempt, max_attempts=3) == expected


# ---- batches: many files, few ruff runs, the same verdicts ----

class CountingRuff(Ruff):
    """The real ruff, remembering the arguments of every run."""

    def __init__(self):
        super().__init__()
        self.runs: list[list[str]] = []

    def _run(self, args: list[str], cwd: Path) -> str:
        self.runs.append([*self.project_args, *args])
        return super()._run(args, cwd)

    def with_args(self, project_args: list[str]) -> CountingRuff:
        derived = CountingRuff()
        derived.runs, derived.project_args = self.runs, tuple(project_args)  # one count for the run's ruff too
        return derived

    def count(self, flag: str) -> int:
        return sum(flag in args for args in self.runs)


def by_path(findings: list[Finding]) -> dict[str, list[Finding]]:
    grouped: dict[str, list[Finding]] = {}
    for f in findings:
        grouped.setdefault(f.path, []).append(f)
    return grouped


def test_fix_many_fixes_every_file_in_one_run_as_fix_does_each_alone(ruff, tmp_path):
    files = {"a.py": 'import os\nprint(f"hi")\n', "pkg/__init__.py": "import sys\n",
             "pkg/deep/b.py": "import json\nx = 1\n", "clean.py": "x = 1\n"}
    for path, text in files.items():
        write(tmp_path, path, text)
    counting, select = CountingRuff(), ("F401", "F541")

    fixed = counting.fix_many(tmp_path, list(files), select)

    assert counting.count("--fix") == 1
    assert fixed == {p: text for p in files if (text := ruff.fix(tmp_path, p, select)) is not None}
    assert set(fixed) == {"a.py", "pkg/deep/b.py"}  # F401 in an __init__.py has no safe fix, alone or not
    assert fixed["a.py"] == 'print("hi")\n'
    assert all((tmp_path / p).read_text() == text for p, text in files.items())  # the checkout is never written
    assert counting.fix_many(tmp_path, [], select) == {}
    with pytest.raises(DetectError, match="missing.py does not exist"):
        counting.fix_many(tmp_path, ["a.py", "missing.py"], select)


def test_ruff_patches_apply_ruff_s_own_edits_as_ruff_fix_would(ruff, tmp_path):
    write(tmp_path, "greet.py", BUGGY)  # F401, F541, E713
    write(tmp_path, "lib/one.py", "import os\nx = 1\n")  # F401
    write(tmp_path, "lib/two.py", "import re\nimport sys\nprint(sys.argv)\n")  # F401 as well: the same run
    write(tmp_path, "risky.py", "def f(items=[]):\n    return items\n")  # nothing safe to fix
    write(tmp_path, "model.py", "import os\n\n\nclass A(object):\n    pass\n")  # F401; UP004 under refactor
    (tmp_path / "latin.py").write_bytes(b'import os\nname = "\xe9"\n')  # not UTF-8: ruff cannot read it
    findings = by_path(ruff.check(tmp_path, ["."], AUTOFIX_RULES))
    findings["latin.py"] = [Finding("latin.py", 1, 8, "F401", "`os` imported but unused", fixable=True)]
    counting = CountingRuff()

    patches = ruff_patches(counting, tmp_path, findings, AUTOFIX_RULES)

    alone = {p: patch for p, items in findings.items() if p != "latin.py"
             if (patch := ruff_patch(ruff, tmp_path, p, items, AUTOFIX_RULES)) is not None}
    assert patches == alone and list(patches) == ["greet.py", "lib/one.py", "lib/two.py", "model.py"]
    for path, patch in patches.items():  # the scan's edits, applied here, give what `ruff check --fix` writes
        assert patch.updated == ruff.fix(tmp_path, path, tuple(sorted({f.code for f in patch.findings})))
    assert counting.count("--fix") == 2  # latin.py (its hand-made finding carries no edits), then the fixpoint
    refactor = ruff_patches(ruff, tmp_path, by_path(ruff.check(tmp_path, ["model.py"], ("F", "UP"))),
                            REFACTOR_RULES)
    assert [f.code for f in refactor["model.py"].findings] == ["UP004"]  # only the selected rules' fixes
    assert refactor["model.py"].updated == "import os\n\n\nclass A:\n    pass\n"
    assert ruff_patches(ruff, tmp_path, {}, AUTOFIX_RULES) == {}


def batch_of_patches(ruff: Ruff, root: Path) -> list[Patch]:
    """One patch of every kind verify tells apart, each to its own file."""
    path = write(root, "greet.py", BUGGY)
    fixed = ruff_patch(ruff, root, path, ruff.check(root, [path], AUTOFIX_RULES), AUTOFIX_RULES)
    undefined = finding("F821", "Undefined name `items`", line=2)
    return [
        fixed,  # verifies
        model_patch("print(x)\n", "print(x\n", [finding("F821", "Undefined name `x`")], path="broken.py"),
        model_patch("def add(item):\n    items.append(item)\n    return items\n",
                    "def add(item, items=[]):\n    items.append(item)\n    return items\n", [undefined],
                    path="pkg/add.py"),  # adds B006
        model_patch("print(x)\n", "print(x)  # fixed\n", [finding("F821", "Undefined name `x`")],
                    path="pkg/deep/remains.py"),  # the target remains
        model_patch("x = 1\n", 'x = "\udcff"\n', path="surrogate.py"),  # cannot even be written as UTF-8
        model_patch("x = 1\n", "x = 1\n", path="same.py"),  # changes nothing
        model_patch("# Title\n", "# Better title\n", path="docs/README.md"),  # text only needs to stay text
    ]


def test_verify_many_gives_each_patch_the_verdict_verify_gives_it_alone_from_one_ruff_run(ruff, tmp_path):
    patches = batch_of_patches(ruff, tmp_path)
    counting = CountingRuff()

    verdicts = verify_many(counting, patches, AUTOFIX_RULES)

    assert verdicts == {p.path: verify(ruff, p, AUTOFIX_RULES) for p in patches}
    assert counting.count("--output-format") == 2 and len(counting.runs) == 2  # one run a side, at real paths
    assert [v.ok for v in verdicts.values()] == [True, False, False, False, False, False, True]
    assert verdicts["pkg/add.py"].error.startswith("new finding B006 at line 1:")
    assert not verdicts["surrogate.py"].parses and verdicts["broken.py"].error.startswith("SyntaxError:")
    assert verify_many(counting, [], AUTOFIX_RULES) == {}


def test_verify_many_can_take_the_originals_findings_from_the_scan(ruff, tmp_path):
    patches = batch_of_patches(ruff, tmp_path)
    scanned = {"greet.py": ruff.check(tmp_path, ["greet.py"], AUTOFIX_RULES)}
    counting = CountingRuff()

    verdicts = verify_many(counting, patches, AUTOFIX_RULES, before=scanned)

    assert verdicts == {p.path: verify(ruff, p, AUTOFIX_RULES) for p in patches}
    # one run a side, each copy at the file's own path: greet.py's before is the scan's, so only its after is linted
    runs = counting.runs  # in the order the two sides' threads ran them: either may be first
    assert len(runs) == 2 and sum("greet.py" in r for r in runs) == 1
    assert all("pkg/add.py" in r for r in runs)


def test_verify_many_takes_one_patch_per_file(ruff):
    patch = model_patch("x = 1\n", "x = 2\n")

    with pytest.raises(ValueError, match="one patch per file"):
        verify_many(ruff, [patch, patch], AUTOFIX_RULES)


# ---- the runner: files ruff alone fixes are verified and recorded together ----

class ScriptedModel:
    """A model in-process: answers each prompt with the next scripted edit and keeps the prompts."""

    provider, model = "local", "scripted"

    def __init__(self, *answers: dict):
        self.answers, self.prompts = list(answers), []

    def complete(self, system: str, prompt: str, schema: dict, *, name: str, description: str):
        from core.llm.base import Completion

        self.prompts.append(prompt)
        return Completion(self.answers.pop(0), input_tokens=len(prompt) // 4, output_tokens=20,
                          provider=self.provider, model=self.model)


@pytest.fixture
def services(settings):
    from core.wiring import Services

    made = Services(settings)
    yield made
    made.db.close()


def runner_with(services, llm):
    services.__dict__["llm"] = llm  # before the runner is built from it
    runner = services.pipeline_runner
    runner.languages["python"] = Python(CountingRuff())
    return runner


def counted(runner) -> CountingRuff:
    """The counting ruff a runner of `runner_with` runs Python with."""
    return runner.languages["python"].ruff


def test_offline_run_fixes_and_verifies_ruff_only_files_in_batches(services, tenant_id, tmp_path):
    from core.llm import OfflineLLM
    from core.pipelines.values import RunRequest
    from core.pipelines.workspace import LocalWorkspace

    write(tmp_path, "a.py", "import os\nx = 1\n")  # F401: verifies
    write(tmp_path, "b/c.py", 'def f(x):\n    getattr(x, "attr")\n')  # B009's fix leaves a useless x.attr (B018)
    write(tmp_path, "d.py", "try:\n    x = 1\nexcept:\n    x = 2\n")  # E722: nothing safe to fix
    write(tmp_path, "e.py", 'import re\nimport sys\nprint(f"x")\n')  # F401 and F541
    runner, progress = runner_with(services, OfflineLLM()), []
    request = RunRequest(tenant_id, "acme/batch", "autofix", "local", rules=AUTOFIX_RULES)

    report = runner.run(request, LocalWorkspace(tmp_path), progress=lambda *a: progress.append(a))

    outcomes = {o.path: o for o in report.outcomes}
    assert list(outcomes) == ["a.py", "b/c.py", "d.py", "e.py"]
    assert {p: o.status for p, o in outcomes.items()} == {
        "a.py": "PROMOTED", "b/c.py": "HUMAN_REVIEW", "d.py": "UNFIXED", "e.py": "PROMOTED"}
    assert outcomes["d.py"].note == "no safe fix (offline: no model configured)"
    assert outcomes["a.py"].note == "linter only"
    assert "B018" in outcomes["b/c.py"].verification.error
    for o in (outcomes["a.py"], outcomes["b/c.py"], outcomes["e.py"]):  # as if each had been verified alone
        assert o.verification == verify(Ruff(), o.patch, AUTOFIX_RULES) and o.attempts == 1
        assert o.confidence == round(confidence(o.verification, 1.0) * 0.85, 4)  # F401 and B009: medium risk
    envelopes = runner.healing.all(tenant_id, "acme/batch")  # every attempt is an envelope
    assert sorted((e.patch_id, e.status, e.run_id) for e in envelopes) == sorted(
        (o.patch.fingerprint("autofix"), o.status, str(report.run_id)) for o in outcomes.values() if o.patch)
    assert counted(runner).count("--output-format") == 2  # the scan and ONE verification run
    assert counted(runner).count("--fix") == 1  # the scan's edits are applied in-process; one run: the fixpoint
    assert progress == [("scanned", 4, 4), *(("fixing", i, 4) for i in range(1, 5))]
    assert runner.runs.get(tenant_id, report.run_id).phase == "done"


def test_a_model_file_sees_the_attempts_on_files_before_it_and_none_after(services, tenant_id, tmp_path):
    from core.pipelines.values import RunRequest
    from core.pipelines.workspace import LocalWorkspace

    write(tmp_path, "a.py", "import os\nx = 1\n")  # ruff alone: before the model's file
    write(tmp_path, "m.py", "def charge(amount):\n    assert amount > 0\n    return amount * 100\n")  # S101
    write(tmp_path, "z.py", "import sys\nx = 1\n")  # ruff alone: after it
    model = ScriptedModel({"edits": [{"search": "    assert amount > 0\n",
                                      "replace": "    if amount <= 0:\n        raise ValueError(amount)\n"}],
                           "confidence": 0.9, "rationale": "assert disappears under -O"})
    runner = runner_with(services, model)

    request = RunRequest(tenant_id, "acme/mixed", "autofix", "local", rules=AUTOFIX_RULES)
    report = runner.run(request, LocalWorkspace(tmp_path))

    assert [(o.path, o.status, o.note) for o in report.outcomes] == [
        ("a.py", "PROMOTED", "linter only"), ("m.py", "PROMOTED", ""), ("z.py", "PROMOTED", "linter only")]
    [prompt] = model.prompts
    assert "success rate 100% (1/1 PROMOTED)" in prompt  # a.py's envelope, and not yet z.py's
    newest_first = [e.patch_id for e in runner.healing.all(tenant_id, "acme/mixed")]
    assert newest_first == [o.patch.fingerprint("autofix") for o in reversed(report.outcomes)]
    # the scan; a.py's verification; m.py's, both sides (a model's patch has no scan of its own); then z.py's
    assert counted(runner).count("--output-format") == 5


# ---- .github/memfix.yml ----

@pytest.mark.parametrize("text", [None, "", "   \n", "# nothing set yet\n"])
def test_no_config_means_the_defaults(text):
    config, problems = parse_config(text)

    assert (config, problems) == (RepoConfig(), [])
    assert config.enabled("autofix") and config.enabled("refactor") and config.max_prs == 3
    assert config.rules("autofix") == AUTOFIX_RULES and {"F", "B", "S", "PLE"} <= set(AUTOFIX_RULES)
    assert config.rules("refactor") == REFACTOR_RULES and {"UP", "SIM", "C4"} <= set(REFACTOR_RULES)
    assert not config.ignored("tests/test_a.py")


def test_a_full_valid_config():
    config, problems = parse_config("""
autofix: true
refactor: no
autofix_rules: [F, e9, S6, PLE, F401]
refactor_rules: "UP, SIM"
ignore: [tests/**, "migrations/*.py"]
max_prs: 5
provider: Anthropic
model: claude-sonnet-4
memory: [12, 40, 12]
""")

    assert problems == []
    assert config == RepoConfig(autofix=True, refactor=False, autofix_rules=("F", "E9", "S6", "PLE", "F401"),
                                refactor_rules=("UP", "SIM"), ignore=("tests/**", "migrations/*.py"), max_prs=5,
                                provider="anthropic", model="claude-sonnet-4", memory=(12, 40),
                                chosen=("autofix", "refactor"))
    assert not config.enabled("refactor")
    assert config.rules("refactor") == ("UP", "SIM")
    assert config.named("refactor") == ("UP", "SIM")  # a person named them: they replace the tools' choice
    assert parse_config("max_prs: 2")[0].named("autofix") is None


def test_languages_and_biome_rules_in_the_repository_config():
    config, problems = parse_config("languages: [TypeScript, cobol]\nalways_propose: [f401, suspicious/noDoubleEquals, "
                                    "lint/style/useConst, lint/Style/x, eslint:indent, ruff:b008]\n")
    assert config.languages == ("javascript",) and config.always_propose == (
        "F401", "lint/suspicious/noDoubleEquals", "lint/style/useConst", "eslint:indent", "B008")
    assert problems[0] == "`languages`: 'cobol' is not a language memfix works on (python, javascript); ignored"
    assert problems[1].startswith("`always_propose`: `lint/Style/x` is not a rule; a rule is named as its tool names "
                                  "it: `F401`, `ruff:F401`") and problems[1].endswith("; ignored")
    assert "`eslint:indent`" in problems[1] and len(problems) == 2
    assert parse_config("")[0].languages == ("python", "javascript")


def test_every_problem_is_reported_and_ignored():
    config, problems = parse_config("""
autofix: "yes please"
refactor_rules: [UP, "S 6", "F-401", 7]
autofix_rules: ["not a rule", SIM]
ignore: 5
max_prs: 0
provider: gpt
model: ""
memory: [1, two]
colour: blue
""")

    assert config == RepoConfig(autofix_rules=("SIM",), chosen=("autofix",))
    expected = ["`autofix` must be true or false", "`refactor_rules` must be a list of strings",
                "`not a rule` is not a rule", "`ignore` must be a list of strings",
                "`max_prs` must be a whole number from 1 to 20", "`provider` must be one of offline, openai",
                "`model` must be a model name", "`memory` must be a list of insight ids",
                "unknown setting `colour` ignored"]
    assert len(problems) == len(expected)
    for problem, start in zip(problems, expected, strict=True):
        assert start in problem


def test_memfix_yml_names_rules_as_their_tools_do():
    config, problems = parse_config("autofix_rules: [ruff:f, flake8:E501, eslint:indent, biome:lint/suspicious]\n"
                                    "refactor_rules: 'up, lint/complexity, eslint:import'\n"
                                    "rules: {extend: [pylint:R1705, lint/style/useConst]}\n")
    assert problems == []
    assert config.named("autofix") == ("F", "E501", "eslint:indent", "lint/suspicious")
    assert config.named("refactor") == ("UP", "lint/complexity", "eslint:import")
    assert config.extend_rules == ("PLR1705", "lint/style/useConst")
    config, problems = parse_config("autofix_rules: [F, eslint, Eslint:indent, black:E501]\n")
    assert config.autofix_rules == ("F", "eslint")  # `eslint`: every ESLint rule, not a ruff prefix ESLINT
    assert [p.split(" is not")[0] for p in problems] == ["`autofix_rules`: `Eslint:indent`",
                                                         "`autofix_rules`: `black:E501`"]
    assert "memfix names no rules of `black`" in problems[1] and problems[1].endswith("; ignored")


def test_bad_rule_codes_are_dropped_one_by_one():
    config, problems = parse_config("refactor_rules: [UP, 'S 6', F-401]\nautofix_rules: [bad!]\n")

    assert config.refactor_rules == ("UP",) and config.autofix_rules == AUTOFIX_RULES
    assert [p.split(":")[1].split(" is")[0].strip() for p in problems[:2]] == ["`S 6`", "`F-401`"]
    assert "selects no rules" in problems[-1]


@pytest.mark.parametrize("text, problem", [
    ("autofix: [unclosed\n", "not valid YAML at line"),
    ("- autofix\n- refactor\n", "must be a mapping of settings, not list"),
    ("max_prs: true\n", "`max_prs` must be a whole number"),
])
def test_unusable_files_keep_the_defaults(text, problem):
    config, problems = parse_config(text)

    assert config == RepoConfig()
    assert len(problems) == 1 and problem in problems[0]


@pytest.mark.parametrize("pattern, path, ignored", [
    ("tests/**", "tests/test_a.py", True),
    ("tests/**", "tests/unit/deep/test_b.py", True),
    ("tests/**", "src/tests/test_c.py", False),
    ("migrations/*.py", "migrations/0001_init.py", True),
    ("migrations/*.py", "migrations/old/0001_init.py", False),
    ("**/conftest.py", "conftest.py", True),
    ("**/conftest.py", "a/b/conftest.py", True),
    ("conftest.py", "a/b/conftest.py", True),  # no slash: any depth
    ("*.pyi", "pkg/stubs/mod.pyi", True),
    ("docs/", "docs/conf.py", True),  # a directory covers what is under it
    ("vendor", "src/vendor/lib.py", True),
    ("src/*/generated_*.py", "src/api/generated_client.py", True),
    ("src/*/generated_*.py", "src/api/client.py", False),
    ("Tests/**", "tests/a.py", False),  # paths are case-sensitive, as on GitHub
])
def test_ignore_globs(pattern, path, ignored):
    assert RepoConfig(ignore=(pattern,)).ignored(path) is ignored


def test_unknown_pipeline_is_a_programming_error():
    with pytest.raises(ValueError, match="unknown pipeline"):
        RepoConfig().rules("review")


def test_the_sample_config_is_valid():
    config, problems = parse_config((SAMPLE / ".github" / "memfix.yml").read_text())

    assert problems == [] and config.ignored("tests/test_prices.py") and not config.ignored("shop/db.py")


def test_overlapping_ruff_edits_apply_the_first_and_leave_the_other_targeted_by_nobody():
    from core.change import apply_finding_edits

    text = "import os, sys\nx = 1\n"
    drop_os = Finding("a.py", 1, 8, "F401", "`os` imported but unused", True, edits=((1, 1, 2, 1, "import sys\n"),))
    drop_sys = Finding("a.py", 1, 12, "F401", "`sys` imported but unused", True, edits=((1, 1, 2, 1, "import os\n"),))
    updated, applied = apply_finding_edits(text, (drop_sys, drop_os))
    assert updated == "import sys\nx = 1\n" and applied == (drop_os,)  # in source order; the overlap waits
    assert apply_finding_edits("é = 1\nprint(é )\n", (Finding("b.py", 2, 9, "E202", "ws", True,
                                                            edits=((2, 8, 2, 9, ""),)),))[0] == "é = 1\nprint(é)\n"


def test_an_overlapping_edit_that_makes_the_same_change_is_fixed_by_it_and_a_larger_one_still_waits():
    from core.change import apply_finding_edits

    text = "def f():\n    x = 1\n    \n    return x\n"
    blank = Finding("a.py", 3, 1, "W293", "Blank line contains whitespace", True, edits=((3, 1, 3, 5, ""),))
    same = Finding("a.py", 3, 1, "black:format", "black would format this", True, edits=((3, 1, 4, 1, "\n"),))
    updated, applied = apply_finding_edits(text, (same, blank))
    assert updated == "def f():\n    x = 1\n\n    return x\n" and set(applied) == {blank, same}
    more = Finding("a.py", 2, 1, "black:format", "black would format this", True,
                   edits=((2, 1, 4, 1, "    x = 1\n\n\n"),))  # strips it and adds a line: not the same change
    updated, applied = apply_finding_edits(text, (more, blank))
    assert applied == (more,) and updated == "def f():\n    x = 1\n\n\n    return x\n"


CASCADE = ("def grade(x):\n    if x > 90:\n        return 'A'\n    elif x > 80:\n        return 'B'\n"
           "    elif x > 70:\n        return 'C'\n    else:\n        return 'D'\n")


def test_a_cascade_is_fixed_whole_and_a_second_run_changes_nothing(services, tenant_id, tmp_path):
    from core.llm import OfflineLLM
    from core.pipelines.values import RunRequest
    from core.pipelines.workspace import LocalWorkspace

    write(tmp_path, "grades.py", CASCADE)
    runner = runner_with(services, OfflineLLM())
    request = RunRequest(tenant_id, "acme/cascade", "refactor", "local", rules=REFACTOR_RULES)
    [outcome] = runner.run(request, LocalWorkspace(tmp_path)).outcomes
    assert outcome.status == "PROMOTED"  # fixed whole when the patch is made (propose.ruff_patches: to a fixpoint)
    assert "elif" not in outcome.patch.updated and "else" not in outcome.patch.updated
    (tmp_path / "grades.py").write_text(outcome.patch.updated)
    again = runner.run(request, LocalWorkspace(tmp_path))
    assert again.promoted == [] and not [f for f in again.findings if f.code.startswith("RET")]


def test_a_failing_rule_is_dropped_and_the_files_other_fixes_kept(services, tenant_id, tmp_path):
    from core.llm import OfflineLLM
    from core.pipelines.values import RunRequest
    from core.pipelines.workspace import LocalWorkspace

    # B009's fix leaves a useless expression (B018): that rule goes, the unused import's fix stays.
    write(tmp_path, "mixed.py", 'import os\n\n\ndef f(x):\n    getattr(x, "attr")\n')
    runner = runner_with(services, OfflineLLM())
    request = RunRequest(tenant_id, "acme/mixed", "autofix", "local", rules=AUTOFIX_RULES)
    [outcome] = runner.run(request, LocalWorkspace(tmp_path)).outcomes
    assert outcome.status == "PROMOTED"
    assert outcome.note.startswith("without B009")
    assert "import os" not in outcome.patch.updated and 'getattr(x, "attr")' in outcome.patch.updated
    assert {f.code for f in outcome.patch.findings} == {"F401"}


def test_an_insight_title_keeps_the_rules_own_words_and_drops_the_codes_names(ruff):
    from core.learning.learning import finding_class

    def title(code: str, message: str) -> str:
        return finding_class(Finding(path="a.py", line=3, column=1, code=code, message=message), ruff.rule_words(code))

    assert title("S101", "Use of `assert` detected") == "S101: Use of `assert` detected"
    assert title("S602", "`subprocess` call with `shell=True` identified, security issue").startswith(
        "S602: `subprocess` call with `shell=True`")
    assert title("E711", "Comparison to `None` should be `cond is None`") == \
        "E711: Comparison to `None` should be `cond is None`"
    # what the code at hand fills in is stripped, so every run's F401 and F841 findings share one class
    assert title("F401", "`math` imported but unused") == title("F401", "`os.path` imported but unused") == \
        "F401: `…` imported but unused"
    assert title("F841", "Local variable `x2` is assigned to but never used") == \
        "F841: Local variable `…` is assigned to but never used"
    assert title("E501", "Line too long (130 > 88)") == "E501: Line too long (N > N)"


def test_ruff_fixes_go_to_a_fixpoint_so_a_second_run_changes_nothing(ruff, tmp_path):
    """`re.I | re.M` holds two FURB167 findings whose edits overlap: one pass of ruff's edits fixes half of them
    (the other waits, as in ruff's own first pass); the patch goes on until nothing selected changes."""
    from core.pipelines.propose import ruff_patches

    (tmp_path / "flags.py").write_text("import re\n\nWORD = re.compile('b', flags=re.I | re.M)\n")
    select = ("FURB",)
    findings = ruff.check(tmp_path, ["flags.py"], select)
    assert [f.code for f in findings] == ["FURB167", "FURB167"]
    [patch] = ruff_patches(ruff, tmp_path, {"flags.py": findings}, select).values()
    assert "re.IGNORECASE | re.MULTILINE" in patch.updated
    (tmp_path / "flags.py").write_text(patch.updated)
    assert ruff.check(tmp_path, ["flags.py"], select) == []  # the next run has nothing left to do


def test_a_patch_draws_every_diff_from_one_matching_exactly_as_difflib_writes_it():
    import difflib
    import random

    rng = random.Random(7)
    for _ in range(400):
        before = [rng.choice("abcde") for _ in range(rng.randint(0, 25))]
        after = list(before)
        for _ in range(rng.randint(0, 6)):
            roll = rng.random()
            if roll < 0.4 and after:
                del after[rng.randrange(len(after))]
            elif roll < 0.8:
                after.insert(rng.randint(0, len(after)), rng.choice("abxyz"))
            elif after:
                after[rng.randrange(len(after))] = "q"
        patch = Patch("m.py", "\n".join(before), "\n".join(after), (), "ruff")
        for context in (0, 3, 1, 0):  # the same patch asked again with other contexts
            assert patch.unified_diff(context) == list(difflib.unified_diff(
                before, after, "a/m.py", "b/m.py", lineterm="", n=context))
        assert patch.changed_lines() == [ln for ln in difflib.unified_diff(before, after, lineterm="", n=0)
                                         if ln[:1] in "+-" and not ln.startswith(("+++", "---"))]


def test_a_held_rule_is_scanned_for_nothing_and_fixed_nowhere(services, tenant_id, tmp_path):
    """The scan starts before the learned policy is read: what it finds of a held rule is dropped, and the run's
    own ruff ignores the rule while it fixes and verifies."""
    from core.llm import OfflineLLM
    from core.pipelines.values import RunRequest
    from core.pipelines.workspace import LocalWorkspace

    write(tmp_path, "a.py", "import os\nx = 1\n")  # F401 only
    write(tmp_path, "ruff.toml", "line-length = 88\n")  # the team runs ruff at its defaults
    write(tmp_path, "e.py", 'import re\nprint(f"x")\n')  # F401 and F541
    services.policy.hold(tenant_id, "acme/held", ["F401"], "bob", None)
    runner = runner_with(services, OfflineLLM())

    report = runner.run(RunRequest(tenant_id, "acme/held", "autofix", "local"), LocalWorkspace(tmp_path))

    assert report.held == ("F401",)
    assert [f.code for f in report.findings] == ["F541"]
    assert [o.path for o in report.outcomes] == ["e.py"]
    assert report.outcomes[0].status == "PROMOTED" and "import re" in report.outcomes[0].patch.updated
    def ignored(args: list[str]) -> str:
        return next((a.removeprefix("--ignore=") for a in args if a.startswith("--ignore=")), "")

    scan, *after = counted(runner).runs
    assert "F401" not in ignored(scan)  # the scan ran before the policy was read
    assert after and all("F401" in ignored(args).split(",") for args in after)  # fixing and verifying ignore it


def test_a_rule_held_in_some_files_is_fixed_in_the_others_and_their_other_rules_are_fixed_too(services, tenant_id,
                                                                                              tmp_path):
    """F401 held in `tests/**` (a glob) and F541 in generated files (a kind, read from the file's name): each stays
    in the files it is held in, the other rules' fixes there are kept, and other files get both fixed."""
    from core.llm import OfflineLLM
    from core.pipelines.values import RunRequest
    from core.pipelines.workspace import LocalWorkspace

    write(tmp_path, "tests/test_a.py", 'import os\nprint(f"x")\n')  # F401 held here, F541 not
    write(tmp_path, "ruff.toml", "line-length = 88\n")  # the team runs ruff at its defaults
    write(tmp_path, "app/mod.py", 'import os\nprint(f"x")\n')  # both fixed
    write(tmp_path, "app/schema_pb2.py", 'import re\nprint(f"y")\n')
    services.policy.hold(tenant_id, "acme/scoped", ["F401"], "bob", None, "tests/**")
    services.policy.hold(tenant_id, "acme/scoped", ["F541"], "bob", None, "kind:generated")
    runner = runner_with(services, OfflineLLM())

    report = runner.run(RunRequest(tenant_id, "acme/scoped", "autofix", "local"), LocalWorkspace(tmp_path))

    assert report.held == ("F401 in `tests/**`", "F541 in generated or vendored files")
    assert sorted((f.path, f.code) for f in report.findings) == [
        ("app/mod.py", "F401"), ("app/mod.py", "F541"), ("app/schema_pb2.py", "F401"), ("tests/test_a.py", "F541")]
    fixed = {o.path: o for o in report.outcomes}
    assert {path: o.status for path, o in fixed.items()} == dict.fromkeys(fixed, "PROMOTED")
    assert fixed["tests/test_a.py"].patch.updated == 'import os\nprint("x")\n'  # to its fixpoint, without F401
    assert fixed["app/schema_pb2.py"].patch.updated == 'print(f"y")\n'
    assert fixed["app/mod.py"].patch.updated == 'print("x")\n'
    assert any("F401 held back in `tests/**` (asked by @bob)" in line for line in report.used)


def test_offline_a_file_with_no_safe_fix_is_not_read(services, tenant_id, tmp_path):
    from core.llm import OfflineLLM
    from core.pipelines.values import RunRequest
    from core.pipelines.workspace import LocalWorkspace

    class Reads(LocalWorkspace):
        def __init__(self, root: Path):
            super().__init__(root)
            self.asked: list[str] = []

        def read(self, path: str) -> str | None:
            self.asked.append(path)
            return super().read(path)

    write(tmp_path, "ruff.toml", "line-length = 88\n")  # the team runs ruff at its defaults
    write(tmp_path, "a.py", "import os\nx = 1\n")  # F401: a safe fix
    write(tmp_path, "d.py", "try:\n    x = 1\nexcept:\n    x = 2\n")  # E722: none
    workspace = Reads(tmp_path)

    report = runner_with(services, OfflineLLM()).run(RunRequest(tenant_id, "acme/reads", "autofix", "local"),
                                                     workspace)

    assert {o.path: o.note for o in report.outcomes} == {"a.py": "linter only",
                                                         "d.py": "no safe fix (offline: no model configured)"}
    assert "a.py" in workspace.asked and "d.py" not in workspace.asked


def test_a_read_never_leaves_the_checkout_through_a_folder(tmp_path):
    from core.pipelines.workspace import LocalWorkspace

    root, outside = tmp_path / "repo", tmp_path / "elsewhere"
    write(root, "pkg/mod.py", "x = 1\n")
    write(outside, "secret.py", "TOKEN = 'x'\n")
    (root / "out").symlink_to(outside, target_is_directory=True)  # a folder leading out
    (root / "alias").symlink_to(root / "pkg", target_is_directory=True)  # a folder leading back in
    (root / "pkg" / "back").symlink_to(outside, target_is_directory=True)  # out again, below a folder already seen
    workspace = LocalWorkspace(root)

    assert workspace.read("pkg/mod.py") == "x = 1\n"
    assert workspace.read("alias/mod.py") == "x = 1\n"
    assert workspace.read("out/secret.py") is None
    assert workspace.read("pkg/back/secret.py") is None
    assert workspace.read("alias/back/secret.py") is None
    assert workspace.read("../elsewhere/secret.py") is None
    assert workspace.read("pkg/../../elsewhere/secret.py") is None


def test_verify_checked_gives_the_verdicts_of_checking_after_the_linter_while_the_checks_run_on_workers(
        ruff, tmp_path, monkeypatch):
    """The project checks run before the linter's verdict is known, on forked workers; the verdicts are the same
    as checking each linter verdict in turn: the linter's error is said first, an unparsable file is not checked."""
    from core.languages.adapter import failed
    from core.pipelines.verify import verify_checked

    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    patches = batch_of_patches(ruff, tmp_path)
    pids = []

    def checks(verification, patch):
        pids.append(os.getpid())
        if not verification.parses:
            return verification
        verification = failed(verification, "surface", "removes a name the repository reads" if "pkg/" in patch.path
                              else None)
        return failed(verification, "comments", "drops a comment" if patch.path.endswith(".py") else None)

    verdicts = verify_checked(ruff, patches, AUTOFIX_RULES, checks)

    assert verdicts == {p.path: checks(verify(ruff, p, AUTOFIX_RULES), p) for p in patches}
    assert verdicts["pkg/add.py"].error.startswith("new finding B006") and not verdicts["pkg/add.py"].surface
    assert verdicts["broken.py"].comments and not verdicts["broken.py"].parses
    assert pids.count(os.getpid()) == len(patches)  # only the comparison's own calls ran here


def test_what_a_push_brought_is_each_kind_of_finding_as_many_times_as_it_grew(ruff, tmp_path):
    from core.pipelines.brought import brought

    before = {"a.py": "x == None\nx == None\n", "b.py": "import os\n"}
    write(tmp_path, "a.py", "x == None\nx == None\ny = 1\nx == None\n")  # E711 three times, twice before
    write(tmp_path, "b.py", "import os\n")  # unchanged
    write(tmp_path, "c.py", "import sys\n")  # added by the push
    findings = ruff.check(tmp_path, ["a.py", "b.py", "c.py"], ("E711", "F401"))
    new, older = brought(ruff, findings, before.get, ("E711", "F401"))
    assert [(f.path, f.code) for f in new] == [("a.py", "E711"), ("c.py", "F401")] and older == 3
    assert new[0].line == 4  # the later one of its kind


def test_a_vetoed_fix_leaves_the_files_other_fixes_to_go_ahead(services, tenant_id, tmp_path):
    """One unused import another module imports from here is kept; the file's two other unused imports go."""
    from core.llm import OfflineLLM
    from core.pipelines.values import RunRequest
    from core.pipelines.workspace import LocalWorkspace

    write(tmp_path, "pyproject.toml", '[tool.ruff.lint]\nselect = ["F"]\n')  # the team looks for unused imports
    write(tmp_path, "pkg/__init__.py", "")
    write(tmp_path, "pkg/util.py", "import os\nimport sys\nfrom json import loads\n\n__all__ = ['f']\n\n\n"
                                   "def f():\n    return 1\n")
    write(tmp_path, "pkg/api.py", "from pkg.util import loads\n\nprint(loads('1'))\n")
    runner = runner_with(services, OfflineLLM())
    request = RunRequest(tenant_id, "acme/veto", "autofix", "local")
    outcome = next(o for o in runner.run(request, LocalWorkspace(tmp_path)).outcomes if o.path == "pkg/util.py")
    assert outcome.status == "PROMOTED", (outcome.note, outcome.verification)
    assert "from json import loads" in outcome.patch.updated
    assert "import os" not in outcome.patch.updated and "import sys" not in outcome.patch.updated
    assert outcome.note == "without the F401 fix at line 3: a check vetoed it; the file's other fixes kept"
    assert [f.line for f in outcome.patch.findings] == [1, 2]


def test_verification_sees_the_checkouts_layout_as_the_scan_did(ruff, tmp_path):
    """Rules that read the layout (a file outside any package: INP001; first-party imports sorted apart: I001)
    judge a copy as they judged the file: the copies stand beside the checkout's package skeleton."""
    from core.pipelines.propose import ruff_patches

    write(tmp_path, "pyproject.toml", "[project]\nname = 'pkg'\n")
    write(tmp_path, "pkg/__init__.py", "")
    write(tmp_path, "pkg/other.py", "X = 1\n")
    write(tmp_path, "pkg/mod.py", "import pkg.other\nimport os\nimport requests\n\nprint(os, requests, pkg.other)\n")
    rules = ("I001", "INP001")
    found = ruff.check(tmp_path, ["pkg/mod.py"], rules)
    assert [f.code for f in found] == ["I001"]  # in a package: no INP001
    [patch] = ruff_patches(ruff, tmp_path, {"pkg/mod.py": found}, rules).values()
    assert verify(ruff, patch, rules, checkout=tmp_path).ok
    without = verify(ruff, patch, rules)  # a copy with nothing around it: another package, another layout
    assert not without.ok  # its own package imports read as third-party, its folder as no package


def test_a_fix_is_kept_only_in_the_hunks_at_the_lines_asked():
    from core.pipelines.propose import hunks_at

    original = "let a = 1;\nlet b = 2;\nfoo();\n\nbar();\n"
    updated = "const a = 1;\nconst b = 2;\nfoo();\nbar();\n"
    assert hunks_at(original, updated, {2}) == "let a = 1;\nconst b = 2;\nfoo();\n\nbar();\n"
    assert hunks_at(original, updated, {4}) == "let a = 1;\nlet b = 2;\nfoo();\nbar();\n"  # a deletion at line 4
    assert hunks_at(original, updated, set()) == original
    # of two identical lines the diff picks which went; the fix asked for the second: it goes all the same
    assert hunks_at("a\n\n\nb\n", "a\n\nb\n", {3}) == "a\n\nb\n"
    assert hunks_at("a\n\n\nb\n\n\nc\n", "a\n\nb\n\nc\n", {3}) == "a\n\nb\n\n\nc\n"  # not the other run
    assert hunks_at(original, updated, {1, 2, 4}) == updated


@pytest.mark.parametrize(("header", "generated"), [
    ("# file generated by setuptools_scm\n# don't change, don't track in version control\n", True),
    ("// Code generated by protoc-gen-go. DO NOT EDIT.\n", True),
    ("/* @generated */\n", True),
    ("# This module generates reports.\n", False),
    ("\n" * 6 + "# generated by hand, long ago\n", False),  # past the header: the file's own words
])
def test_a_file_whose_first_lines_say_a_tool_wrote_it_is_generated(header, generated):
    from core.learning.places import says_generated

    assert says_generated(header + "import os\n") is generated


def test_a_generated_file_is_left_as_it_is(cli, tmp_path):
    import json

    (tmp_path / "_version.py").write_text("# file generated by setuptools_scm\nimport os\nversion = '1.0'\n")
    (tmp_path / "ruff.toml").write_text("line-length = 88\n")  # the team runs ruff at its defaults
    (tmp_path / "app.py").write_text("import os\n")
    code, out, _ = cli("autofix", str(tmp_path), "--json")
    notes = {o["path"]: (o["status"], o.get("note")) for o in json.loads(out)["outcomes"]}
    assert notes["_version.py"] == ("UNFIXED", "generated (its first lines say a tool wrote it): left as it is")
    assert notes["app.py"][0] == "PROMOTED"


def test_a_rule_in_doubt_gets_one_pr_a_run_in_autofix_only_where_a_file_that_waits_is_remembered():
    from types import SimpleNamespace

    from core.pipelines.runner import _Trial

    def trial(pipeline):
        ctx = SimpleNamespace(places=SimpleNamespace(of=lambda path: "library"),
                              plan=SimpleNamespace(doubted=frozenset({"F841"})),
                              request=SimpleNamespace(pipeline=pipeline))
        return _Trial(ctx)

    def outcome(path, *codes):
        return SimpleNamespace(path=path, codes=codes, note="")

    autofix, first, second, other = trial("autofix"), outcome("a.py", "F841"), outcome("b.py", "F841", "F401"), \
        outcome("c.py", "F401")
    assert not autofix.waits(first)
    autofix.opened(first)
    assert autofix.waits(second) and "F841" in second.note and not autofix.waits(other)
    assert [(h.rule, h.path) for h in autofix.later] == [("F841", "b.py")]
    refactor = trial("refactor")  # it remembers no file it leaves: a file that waited would be lost
    refactor.opened(first)
    assert not refactor.waits(outcome("b.py", "F841")) and refactor.later == []
