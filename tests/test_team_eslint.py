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
])
def test_the_lint_script_says_what_eslint_is_handed(scripts, targets, extensions):
    script = lint_script({"scripts": scripts})
    assert (script.targets, script.extensions) == (targets, extensions)


def test_a_script_reaches_the_folders_files_and_globs_it_names():
    script = Script(("lib", "src/**/*.js", "index.js"))
    assert [script.lints(p) for p in ("lib/a.js", "libs/a.js", "src/x/y.js", "src/y.ts", "index.js", "test/a.js")] \
        == [True, False, True, False, True, False]
    assert Script().lints("anything/at/all.js")


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
