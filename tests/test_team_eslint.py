"""The team's ESLint adapter, its pure parts: what the team's lint script lints, ESLint's JSON read as findings whose
edits come back to the same characters, and the checkout's context a configuration reads."""

from __future__ import annotations

import json

import pytest

from core.change import apply_finding_edits
from core.languages.javascript.eslint import SYNTAX, Script, _findings, configured, context, lint_script


@pytest.mark.parametrize(("scripts", "targets", "extensions"), [
    ({"lint": "eslint lib test"}, ("lib", "test"), ()),
    ({"lint": "eslint . --ext .js,.ts"}, (), (".js", ".ts")),
    ({"lint": "npx eslint --ext=ts,tsx ./src/"}, ("src",), (".ts", ".tsx")),
    ({"lint": "prettier --check . && eslint --max-warnings 0 -c .eslintrc.json 'src/**/*.js'"}, ("src/**/*.js",), ()),
    ({"test": "mocha", "lint:js": "node_modules/.bin/eslint --fix bin"}, ("bin",), ()),
    ({"test": "mocha"}, (), ()),
    ({"lint": "npm run eslint -- --max-warnings 0", "eslint": "eslint 'lib/**/*.js' bin"}, ("lib/**/*.js", "bin"), ()),
    ({"lint": "yarn lint:js && tsc", "lint:js": "eslint --ext .ts src"}, ("src",), (".ts",)),
    ({"check": "gts lint", "fix": "gts fix"}, ("**/*.ts", "**/*.js", "**/*.tsx", "**/*.jsx"), ()),  # its own globs
    ({"lint": "gts check src/index.ts"}, ("src/index.ts",), ()),
])
def test_the_lint_script_says_what_eslint_is_handed(scripts, targets, extensions):
    script = lint_script({"scripts": scripts})
    assert (script.targets, script.extensions) == (targets, extensions)


def test_a_script_reaches_the_folders_files_and_globs_it_names():
    script = Script(("lib", "src/**/*.js", "index.js"))
    assert [script.lints(p) for p in ("lib/a.js", "libs/a.js", "src/x/y.js", "src/y.ts", "index.js", "test/a.js")] \
        == [True, False, True, False, True, False]
    assert Script().lints("anything/at/all.js")
    assert Script(("**/*.js",)).lints("browser.js") and not Script(("**/*.js",)).lints("test/a.mjs")


def _utf16(text: str, index: int) -> int:
    """The offset ESLint (JavaScript) gives for the `index`th character."""
    return len(text[:index].encode("utf-16-le")) // 2


@pytest.mark.parametrize("text", [
    'const s = "a"\n',
    '// 😀 wide characters before the fix\nconst s = "é😀"; const t = "b"\n',
    '\ufeffconst s = "a"\r\nconst t = "b"\r\n',
])
def test_an_eslint_fix_comes_back_to_the_characters_it_names(text):
    """Each `"` string re-quoted as ESLint's `quotes` fix does, from offsets in UTF-16 after the byte order mark."""
    body = text.removeprefix("\ufeff")
    messages = []
    start = body.find('"')
    while start != -1:
        end = body.find('"', start + 1) + 1
        messages.append({"ruleId": "quotes", "line": 1, "column": 1, "message": "Strings must use singlequote.",
                         "fix": {"range": [_utf16(body, start), _utf16(body, end)],
                                 "text": "'" + body[start + 1:end - 1] + "'"}})
        start = body.find('"', end)
    found = _findings({"filePath": "/sandbox/work/a.js", "messages": messages}, {"a.js": text})
    assert [f.code for f in found] == ["eslint:quotes"] * len(messages) and all(f.fixable for f in found)
    updated, applied = apply_finding_edits(text, tuple(found))
    assert updated == text.replace('"', "'") and len(applied) == len(found)


def test_what_eslint_says_beyond_a_rules_finding_is_no_finding_but_a_parse_failure_is():
    result = {"filePath": "/sandbox/work/a.js", "messages": [
        {"ruleId": None, "severity": 1, "message": "File ignored because of a matching ignore pattern."},
        {"ruleId": None, "severity": 2, "fatal": True, "line": 3, "column": 4, "message": "Parsing error: Unexpected"},
        {"ruleId": "no-unused-vars", "severity": 2, "line": 1, "column": 7, "message": "'x' is never used."},
    ]}
    found = _findings(result, {"a.js": "const x = (\n"})
    assert [(f.code, f.line, f.fixable) for f in found] == [(SYNTAX, 3, False), ("eslint:no-unused-vars", 1, False)]
    assert _findings({"filePath": "/elsewhere/a.js", "messages": result["messages"]}, {"a.js": ""}) == []


def test_the_context_is_the_sources_and_every_configuration_their_folders_hold():
    files = {"package.json": "{}", ".eslintrc.json": "{}", "lib/.eslintrc.yml": "rules: {}", "lib/a.js": "x",
             "lib/deep/b.ts": "y", "tsconfig.json": "{}", "node_modules/x/index.js": "z", "docs/.eslintrc.json": "{}"}
    files |= {"tsconfig.json": '{"extends": "./config/tsconfig.base.json"}', "config/tsconfig.base.json": "{}",
              "lib/.eslintrc.yml": "parserOptions: {project: '../tsconfig.lint.json'}", "tsconfig.lint.json": "{}"}
    found = context(files.get, ["lib/a.js", "lib/deep/b.ts", "node_modules/x/index.js"])
    assert sorted(found.paths) == sorted(["package.json", "tsconfig.json", ".eslintrc.json", "lib/.eslintrc.yml",
                                          "config/tsconfig.base.json", "tsconfig.lint.json", "lib/a.js",
                                          "lib/deep/b.ts"])


def test_the_teams_eslint_configuration_is_found_flat_first_then_legacy_then_package_json():
    assert configured({"eslint.config.js": "", ".eslintrc.json": "{}"}.get) == "eslint.config.js"
    assert configured({".eslintrc.cjs": ""}.get) == ".eslintrc.cjs"
    assert configured({"package.json": json.dumps({"eslintConfig": {}})}.get) == "package.json"
    assert configured({"package.json": "{}"}.get) is None
    assert configured({"package.json": "{not json"}.get) is None


# ---- the team's real ESLint, installed from the fake npm registry (the npmhouse) and run in the sandbox ----

ESLINT8_DEPENDENCIES = {"eslint": "8.57.0", "eslint-config-standard": "17.1.0", "eslint-plugin-import": "2.29.1",
                        "eslint-plugin-n": "16.6.2", "eslint-plugin-promise": "6.1.1"}
ESLINT9_DEPENDENCIES = {"eslint": "9.17.0", "@eslint/js": "9.17.0", "globals": "15.14.0"}
UNSTANDARD = "var a = 1;\nfunction f(x){\n    return x+a\n}\nmodule.exports = f\n"
STANDARD = "const a = 1\nfunction f (x) {\n  return x + a\n}\nmodule.exports = f\n"  # what `eslint --fix` makes of it
FLAT = """const js = require('@eslint/js')
const globals = require('globals')
module.exports = [
  js.configs.recommended,
  { languageOptions: { sourceType: 'commonjs', globals: globals.node },
    rules: { semi: ['error', 'never'], quotes: ['error', 'single'] } },
  { ignores: ['dist/'] },
]
"""


@pytest.fixture
def team_tools(monkeypatch, npmhouse_registry, npm_tools):
    from core.tools import sandbox as sandboxes

    if sandboxes.find()[0] is None:
        pytest.skip(f"NO SANDBOX: {sandboxes.find()[1]} (.ci/run installs bubblewrap)")
    monkeypatch.setenv("MEMFIX_TEAM_TOOLS", "true")
    monkeypatch.setenv("MEMFIX_NPM_REGISTRY", npmhouse_registry.url)
    monkeypatch.setenv("MEMFIX_TOOL_CACHE", str(npm_tools.root))


def _write_tree(folder, files):
    for path, text in files.items():
        (folder / path).parent.mkdir(parents=True, exist_ok=True)
        (folder / path).write_text(text)
    return folder


def _standard_tree(folder):
    return _write_tree(folder, {
        "package.json": json.dumps({"name": "shop", "engines": {"node": ">=14"}, "scripts": {"lint": "eslint lib"},
                                    "devDependencies": ESLINT8_DEPENDENCIES}),
        ".eslintrc.json": json.dumps({"extends": "standard", "ignorePatterns": ["lib/vendor/"]}),
        "lib/a.js": UNSTANDARD, "lib/vendor/b.js": UNSTANDARD, "test/c.js": UNSTANDARD})


def test_memfix_reports_and_fixes_what_the_teams_eslint_does_with_its_preset_ignores_and_lint_script(
        cli, team_tools, eslint8, tmp_path):
    tree = _standard_tree(tmp_path / "repo")
    code, out, err = cli("autofix", str(tree), "--json", "--apply")
    assert code == 0, err
    report = json.loads(out)
    found = sorted({(f["path"], f["code"]) for f in report["findings"]})
    assert found == [("lib/a.js", f"eslint:{rule}") for rule in (
        "indent", "no-var", "semi", "space-before-blocks", "space-before-function-paren", "space-infix-ops")]
    assert any("finds, fixes and judges: the team's ESLint 8.57.0" in line for line in report["project"])
    [outcome] = report["outcomes"]
    assert outcome["status"] == "PROMOTED", outcome
    assert (tree / "lib/a.js").read_text() == STANDARD  # eslint --fix's own result, judged by it
    assert (tree / "lib/vendor/b.js").read_text() == (tree / "test/c.js").read_text() == UNSTANDARD


def test_without_the_teams_tools_memfix_reads_a_translation_that_cannot_carry_the_preset(cli, monkeypatch, tmp_path):
    """What the team's ESLint replaces: the translation to Biome carries no shareable preset, so the same tree gets
    none of the findings the team's ESLint reports (and says why)."""
    monkeypatch.setenv("MEMFIX_TEAM_TOOLS", "false")
    tree = _standard_tree(tmp_path / "repo")
    code, out, err = cli("autofix", str(tree), "--json")
    assert code == 0, err
    report = json.loads(out)
    assert not any(f["code"].startswith("eslint:") for f in report["findings"])
    assert any("extends `standard`, a package memfix neither installs nor runs" in n for n in report["notes"])


def test_a_flat_configuration_of_eslint_9_finds_fixes_and_ignores_as_the_team_configured(cli, team_tools, eslint9,
                                                                                          tmp_path):
    tree = _write_tree(tmp_path / "repo", {
        "package.json": json.dumps({"name": "api", "devDependencies": ESLINT9_DEPENDENCIES}),
        "eslint.config.js": FLAT, "src/a.js": 'const x = "a";\nmodule.exports = x\n',
        "dist/b.js": 'const y = "b";\n'})
    code, out, err = cli("autofix", str(tree), "--json")
    assert code == 0, err
    report = json.loads(out)
    assert sorted((f["path"], f["code"]) for f in report["findings"]) == [("src/a.js", "eslint:quotes"),
                                                                          ("src/a.js", "eslint:semi")]
    [outcome] = report["outcomes"]
    assert outcome["status"] == "PROMOTED" and "+const x = 'a'" in outcome["diff"], outcome


def test_a_configuration_that_does_not_run_here_is_said_and_memfixs_reading_stands_in(cli, team_tools, eslint8,
                                                                                     tmp_path):
    tree = _write_tree(tmp_path / "repo", {
        "package.json": json.dumps({"name": "web", "devDependencies": ESLINT8_DEPENDENCIES}),
        ".eslintrc.js": "module.exports = require('./rules-of-our-own')\n",  # a file the checkout does not hold
        "lib/a.js": UNSTANDARD})
    code, out, err = cli("autofix", str(tree), "--json")
    assert code == 0, err
    report = json.loads(out)
    said = " ".join(report["notes"])
    assert "the team's ESLint 8.57.0" in said and "does not run with its configuration here" in said
    assert "stands in for it" in said
    assert not any(f["code"].startswith("eslint:") for f in report["findings"])
