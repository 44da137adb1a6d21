"""The team's ESLint configuration as ESLint reads it, never by running it: the legacy configuration files that are
data (the root's, and every folder's own below it), `env` and `globals`, `overrides`, rule options, the shareable
configurations memfix knows, and the comments that turn rules off in the code. It becomes one legacy configuration
for `biome migrate eslint`, with whatever cannot be carried exactly left out and said.

- A folder's own `.eslintrc*` applies to that folder as ESLint cascades it: an override on `folder/**` (its own
  `overrides` beneath it); a folder's `root: true` turns the parents' rules off there.
- `env` becomes the globals the environment declares, which `biome migrate` does not carry; `globals` set to
  `false` are read-only in legacy ESLint, not absent.
- A rule with options other than ESLint's defaults is not selected (Biome's rule has not those options, or
  `biome migrate` drops them): `yoda` with `exceptRange` is no "never yoda".
- `extends: eslint:recommended` adds ESLint 8's recommended rules; another shareable configuration or plugin is a
  package memfix neither installs nor runs: its rules are not selected, and the reply says so.
- `eslint-disable`, `eslint-disable-line`, `eslint-disable-next-line` and `eslint-enable` comments are the team's
  suppressions: Biome's findings there are not memfix's to fix (checks.py `disabled`, with `biome_names` here).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass

from core.bounded import ConfigFormat, ConfigRefused, Table, array, read_config, table
from core.languages.javascript.layout import LAYOUT_RULES, UNCARRIED, Layout, Scope, read_layout
from core.languages.javascript.literal import Call, Name, Spread, Unknown, exported, imports

Read = Callable[[str], str | None]
Migrate = Callable[[dict[str, str]], tuple[str | None, str]]

ESLINT_DATA = (".eslintrc.json", ".eslintrc", ".eslintrc.yml", ".eslintrc.yaml")
ESLINT_FLAT = ("eslint.config.js", "eslint.config.mjs", "eslint.config.cjs", "eslint.config.ts", "eslint.config.mts")
ESLINT_LEGACY_CODE = (".eslintrc.js", ".eslintrc.cjs")
ESLINT_CODE = (*ESLINT_FLAT, *ESLINT_LEGACY_CODE)  # modules: read from their literals, never run
MAX_FOLDERS = 200  # folders looked in for a configuration of their own
MAX_RULES = 2000  # rules a configuration may set that memfix reads

# `eslint:recommended` as ESLint 8 (the last with legacy configuration files by default) defines it.
RECOMMENDED = (
    "constructor-super", "for-direction", "getter-return", "no-async-promise-executor", "no-case-declarations",
    "no-class-assign", "no-compare-neg-zero", "no-cond-assign", "no-const-assign", "no-constant-condition",
    "no-control-regex", "no-debugger", "no-delete-var", "no-dupe-args", "no-dupe-class-members", "no-dupe-else-if",
    "no-dupe-keys", "no-duplicate-case", "no-empty", "no-empty-character-class", "no-empty-pattern", "no-ex-assign",
    "no-extra-boolean-cast", "no-extra-semi", "no-fallthrough", "no-func-assign", "no-global-assign",
    "no-import-assign", "no-inner-declarations", "no-invalid-regexp", "no-irregular-whitespace",
    "no-loss-of-precision", "no-misleading-character-class", "no-mixed-spaces-and-tabs", "no-new-symbol",
    "no-nonoctal-decimal-escape", "no-obj-calls", "no-octal", "no-prototype-builtins", "no-redeclare",
    "no-regex-spaces", "no-self-assign", "no-setter-return", "no-shadow-restricted-names", "no-sparse-arrays",
    "no-this-before-super", "no-undef", "no-unexpected-multiline", "no-unreachable", "no-unsafe-finally",
    "no-unsafe-negation", "no-unsafe-optional-chaining", "no-unused-labels", "no-unused-vars",
    "no-useless-backreference", "no-useless-catch", "no-useless-escape", "no-with", "require-yield", "use-isnan",
    "valid-typeof",
)

# ESLint's own rules (versions 5 to 10), by name: which of them `biome migrate` carries to one Biome rule together.
ESLINT_CORE_RULES = (
    "accessor-pairs", "array-bracket-newline", "array-bracket-spacing", "array-callback-return",
    "array-element-newline", "arrow-body-style", "arrow-parens", "arrow-spacing", "block-scoped-var",
    "block-spacing", "brace-style", "callback-return", "camelcase", "capitalized-comments", "class-methods-use-this",
    "comma-dangle", "comma-spacing", "comma-style", "complexity", "computed-property-spacing", "consistent-return",
    "consistent-this", "constructor-super", "curly", "default-case", "default-case-last", "default-param-last",
    "dot-location", "dot-notation", "eol-last", "eqeqeq", "for-direction", "func-call-spacing", "func-name-matching",
    "func-names", "func-style", "function-call-argument-newline", "function-paren-newline", "generator-star-spacing",
    "getter-return", "global-require", "grouped-accessor-pairs", "guard-for-in", "handle-callback-err",
    "id-blacklist", "id-denylist", "id-length", "id-match", "implicit-arrow-linebreak", "indent", "indent-legacy",
    "init-declarations", "jsx-quotes", "key-spacing", "keyword-spacing", "line-comment-position", "linebreak-style",
    "lines-around-comment", "lines-around-directive", "lines-between-class-members", "logical-assignment-operators",
    "max-classes-per-file", "max-depth", "max-len", "max-lines", "max-lines-per-function", "max-nested-callbacks",
    "max-params", "max-statements", "max-statements-per-line", "multiline-comment-style", "multiline-ternary",
    "new-cap", "new-parens", "newline-after-var", "newline-before-return", "newline-per-chained-call", "no-alert",
    "no-array-constructor", "no-async-promise-executor", "no-await-in-loop", "no-bitwise", "no-buffer-constructor",
    "no-caller", "no-case-declarations", "no-catch-shadow", "no-class-assign", "no-compare-neg-zero",
    "no-cond-assign", "no-confusing-arrow", "no-console", "no-const-assign", "no-constant-binary-expression",
    "no-constant-condition", "no-constructor-return", "no-continue", "no-control-regex", "no-debugger",
    "no-delete-var", "no-div-regex", "no-dupe-args", "no-dupe-class-members", "no-dupe-else-if", "no-dupe-keys",
    "no-duplicate-case", "no-duplicate-imports", "no-else-return", "no-empty", "no-empty-character-class",
    "no-empty-function", "no-empty-pattern", "no-empty-static-block", "no-eq-null", "no-eval", "no-ex-assign",
    "no-extend-native", "no-extra-bind", "no-extra-boolean-cast", "no-extra-label", "no-extra-parens",
    "no-extra-semi", "no-fallthrough", "no-floating-decimal", "no-func-assign", "no-global-assign",
    "no-implicit-coercion", "no-implicit-globals", "no-implied-eval", "no-import-assign", "no-inline-comments",
    "no-inner-declarations", "no-invalid-regexp", "no-invalid-this", "no-irregular-whitespace", "no-iterator",
    "no-label-var", "no-labels", "no-lone-blocks", "no-lonely-if", "no-loop-func", "no-loss-of-precision",
    "no-magic-numbers", "no-misleading-character-class", "no-mixed-operators", "no-mixed-requires",
    "no-mixed-spaces-and-tabs", "no-multi-assign", "no-multi-spaces", "no-multi-str", "no-multiple-empty-lines",
    "no-native-reassign", "no-negated-condition", "no-negated-in-lhs", "no-nested-ternary", "no-new", "no-new-func",
    "no-new-native-nonconstructor", "no-new-object", "no-new-require", "no-new-symbol", "no-new-wrappers",
    "no-nonoctal-decimal-escape", "no-obj-calls", "no-object-constructor", "no-octal", "no-octal-escape",
    "no-param-reassign", "no-path-concat", "no-plusplus", "no-process-env", "no-process-exit",
    "no-promise-executor-return", "no-proto", "no-prototype-builtins", "no-redeclare", "no-regex-spaces",
    "no-restricted-exports", "no-restricted-globals", "no-restricted-imports", "no-restricted-modules",
    "no-restricted-properties", "no-restricted-syntax", "no-return-assign", "no-return-await", "no-script-url",
    "no-self-assign", "no-self-compare", "no-sequences", "no-setter-return", "no-shadow",
    "no-shadow-restricted-names", "no-spaced-func", "no-sparse-arrays", "no-sync", "no-tabs",
    "no-template-curly-in-string", "no-ternary", "no-this-before-super", "no-throw-literal", "no-trailing-spaces",
    "no-unassigned-vars", "no-undef", "no-undef-init", "no-undefined", "no-underscore-dangle",
    "no-unexpected-multiline", "no-unmodified-loop-condition", "no-unneeded-ternary", "no-unreachable",
    "no-unreachable-loop", "no-unsafe-finally", "no-unsafe-negation", "no-unsafe-optional-chaining",
    "no-unused-expressions", "no-unused-labels", "no-unused-private-class-members", "no-unused-vars",
    "no-use-before-define", "no-useless-assignment", "no-useless-backreference", "no-useless-call",
    "no-useless-catch", "no-useless-computed-key", "no-useless-concat", "no-useless-constructor",
    "no-useless-escape", "no-useless-rename", "no-useless-return", "no-var", "no-void", "no-warning-comments",
    "no-whitespace-before-property", "no-with", "nonblock-statement-body-position", "object-curly-newline",
    "object-curly-spacing", "object-property-newline", "object-shorthand", "one-var", "one-var-declaration-per-line",
    "operator-assignment", "operator-linebreak", "padded-blocks", "padding-line-between-statements",
    "prefer-arrow-callback", "prefer-const", "prefer-destructuring", "prefer-exponentiation-operator",
    "prefer-named-capture-group", "prefer-numeric-literals", "prefer-object-has-own", "prefer-object-spread",
    "prefer-promise-reject-errors", "prefer-reflect", "prefer-regex-literals", "prefer-rest-params", "prefer-spread",
    "prefer-template", "preserve-caught-error", "quote-props", "quotes", "radix", "require-atomic-updates",
    "require-await", "require-jsdoc", "require-unicode-regexp", "require-yield", "rest-spread-spacing", "semi",
    "semi-spacing", "semi-style", "sort-imports", "sort-keys", "sort-vars", "space-before-blocks",
    "space-before-function-paren", "space-in-parens", "space-infix-ops", "space-unary-ops", "spaced-comment",
    "strict", "switch-colon-spacing", "symbol-description", "template-curly-spacing", "template-tag-spacing",
    "unicode-bom", "use-isnan", "valid-jsdoc", "valid-typeof", "vars-on-top", "wrap-iife", "wrap-regex",
    "yield-star-spacing", "yoda",
)

# The globals an ESLint environment declares, which `biome migrate` does not carry over: without them Biome's
# noUndeclaredVariables reports `require` in every CommonJS file, `describe` in every mocha test.
ENVIRONMENTS = {
    "node": ("require", "module", "exports", "__dirname", "__filename", "process", "Buffer", "global",
             "setImmediate", "clearImmediate"),
    "commonjs": ("require", "module", "exports"),
    "shared-node-browser": ("console", "setTimeout", "clearTimeout", "setInterval", "clearInterval"),
    "browser": ("window", "document", "navigator", "location", "localStorage", "sessionStorage", "fetch",
                "XMLHttpRequest", "HTMLElement", "Event", "CustomEvent", "self", "alert"),
    "mocha": ("describe", "it", "before", "after", "beforeEach", "afterEach", "context", "specify", "xit",
              "xdescribe", "xcontext", "xspecify", "suite", "test", "setup", "teardown", "suiteSetup",
              "suiteTeardown", "run", "mocha"),
    "jest": ("describe", "it", "test", "expect", "jest", "beforeAll", "afterAll", "beforeEach", "afterEach", "fit",
             "xit", "fdescribe", "xdescribe", "xtest", "pit", "require"),
    "jasmine": ("describe", "it", "expect", "jasmine", "spyOn", "beforeEach", "afterEach", "beforeAll", "afterAll",
                "fail", "fdescribe", "fit", "pending", "xdescribe", "xit"),
    "qunit": ("QUnit", "module", "test", "asyncTest", "expect", "ok", "equal", "deepEqual", "strictEqual",
              "notEqual", "throws", "start", "stop"),
    "jquery": ("$", "jQuery"),
    "amd": ("define", "require"),
    "worker": ("self", "postMessage", "importScripts", "onmessage"),
    "serviceworker": ("self", "clients", "caches", "registration", "skipWaiting"),
    "webextensions": ("browser", "chrome"),
    "protractor": ("browser", "element", "by", "$", "$$", "protractor"),
}

# Rule options that equal ESLint's defaults: a rule set with these is the rule Biome has. Any other options are
# a rule Biome does not have, so it is not selected.
DEFAULT_OPTIONS: dict[str, list[object]] = {
    "eqeqeq": ["always", {"null": "always"}],
    "curly": ["all"],
    "yoda": ["never", {"exceptRange": False, "onlyEquality": False}],
    "no-unused-vars": [{"vars": "all", "args": "after-used", "ignoreRestSiblings": False, "caughtErrors": "none"}],
    "no-empty": [{"allowEmptyCatch": False}],
    "no-constant-condition": [{"checkLoops": True}],
    "no-inner-declarations": ["functions"],
    "no-cond-assign": ["except-parens"],
    "no-use-before-define": [{"functions": True, "classes": True, "variables": True}],
    "prefer-const": [{"destructuring": "any", "ignoreReadBeforeAssign": False}],
    "no-fallthrough": [{}],
    "no-self-assign": [{"props": True}],
    "no-unused-labels": [],
    "no-prototype-builtins": [],
}
_SEVERITY = {0: "off", 1: "warn", 2: "error", "off": "off", "warn": "warn", "error": "error"}


@dataclass(frozen=True)
class Eslint:
    """The team's ESLint configuration read as data: one legacy configuration for `biome migrate`, the rules it
    sets, and where it came from."""

    config: Table
    rules: frozenset[str]  # every ESLint rule the configuration names, on or off
    where: str  # the files read, in words
    layout: Layout | None = None  # its layout rules Biome's formatter carries

    @property
    def on(self) -> frozenset[str]:
        """The ESLint rules the configuration turns on somewhere (its root or an override)."""
        scopes = [self.config, *(o for o in array(self.config.get("overrides")) if isinstance(o, dict))]
        return frozenset(rule for scope in scopes for rule, level in (scope.get("rules") or {}).items()
                         if level != "off")


def read_eslint(read: Read, package: Table, sources: tuple[str, ...], problems: list[str]) -> Eslint | None:
    """The team's configuration: a flat one (`eslint.config.*`, ESLint 9's) read from its literals, else the root's
    legacy one (or package.json's `eslintConfig`) with every folder's own beneath it; None where the repository has
    none memfix can read as data (and `problems` says why where it has one)."""
    if (flat := next(((name, text) for name in ESLINT_FLAT if (text := read(name)) is not None), None)) is not None:
        return _flat_eslint(*flat, problems)
    return _legacy_eslint(read, package, sources, problems)


def _flat_eslint(name: str, text: str, problems: list[str]) -> Eslint | None:
    """A flat configuration (`eslint.config.*`) read from its literals."""
    said: list[str] = []
    data = _flat(name, text, said)
    problems += said
    if data is None:
        return None
    merged = _carried(data, "", said := [], name, anywhere=False)
    layout, told = read_layout([(_listed(o.get("files")), table(o.get("rules")))
                                for o in map(table, array(data["overrides"]))], name)
    problems += said + told
    return Eslint(merged, frozenset(_rule_names(data)), name, layout)


def _legacy_eslint(read: Read, package: Table, sources: tuple[str, ...],
                   problems: list[str]) -> Eslint | None:
    """The root's legacy configuration with the configuration of each of the sources' folders beneath it, each
    an override of its folder."""
    said: list[str] = []
    root = _legacy_root(read, package, problems)
    if root is None:
        return None
    name, base = root
    merged = _carried(base, "", said, name)
    names = set(_rule_names(base))
    where = [name]
    scopes: list[Scope] = [(None, _layout_rules(base)), *_override_scopes(base, "")]
    overrides = array(merged.setdefault("overrides", []))
    for folder in _folders(sources):
        if (found := _folder_configuration(read, folder, problems)) is None:
            continue
        path, data = found
        nested = _carried(data, folder, said, path)
        names |= set(_rule_names(data))
        scopes += [([f"{folder}/**"], _layout_rules(data)), *_override_scopes(data, folder)]
        overrides += _folder_overrides(nested, merged, folder, stops=data.get("root") is True)
        where.append(path)
    layout, told = read_layout(scopes, " and ".join(where))
    problems += said + told
    return Eslint(merged, frozenset(names), " and ".join(where), layout)


def _folder_configuration(read: Read, folder: str, problems: list[str]) -> tuple[str, Table] | None:
    """A folder's own legacy configuration file and its data, where it has one memfix reads."""
    found = next(((f"{folder}/{name}", text) for name in ESLINT_DATA
                  if (text := read(f"{folder}/{name}")) is not None), None)
    if found is None or (data := _data(*found, problems)) is None:
        return None
    return found[0], data


def _folder_overrides(nested: Table, merged: Table, folder: str, stops: bool) -> list[object]:
    """A folder's carried configuration as overrides of the root's: itself for the folder's files, then its own
    overrides."""
    if stops:  # `root: true`: ESLint stops at this folder, so the parents' rules are off here
        nested["rules"] = {**{r: "off" for r in table(merged.get("rules"))}, **table(nested.get("rules"))}
    own = {key: value for key, value in nested.items() if key != "overrides"} | {"files": [f"{folder}/**"]}
    return [own, *array(nested.get("overrides"))]


def _override_scopes(data: Table, folder: str) -> list[Scope]:
    """A legacy configuration's overrides as (files, rules as written), globs relative to the root."""
    return [([_glob(folder, f) for f in _listed(o.get("files"))], _layout_rules(o))
            for o in array(data.get("overrides")) if isinstance(o, dict)]


def _layout_rules(data: Table) -> Table:
    """A legacy configuration's rules as written, beneath them the layout rules of ESLint 8's recommended set
    (`no-extra-semi`) where it extends `eslint:recommended`."""
    extended = dict.fromkeys((r for r in RECOMMENDED if _layout(r)), "error") \
        if "eslint:recommended" in _listed(data.get("extends")) else {}
    return extended | table(data.get("rules"))


def _legacy_root(read: Read, package: Table, problems: list[str]) -> tuple[str, Table] | None:
    """The root's legacy configuration: a data file, package.json's `eslintConfig`, or an `.eslintrc.js` whose
    export is a literal."""
    if (found := next(((name, text) for name in ESLINT_DATA if (text := read(name)) is not None), None)) is not None:
        data = _data(*found, problems)
        return (found[0], data) if data is not None else None
    if isinstance(config := package.get("eslintConfig"), dict):
        return "package.json eslintConfig", config
    for name in ESLINT_LEGACY_CODE:
        if (text := read(name)) is not None:
            value = exported(text)
            if isinstance(value, dict):
                return name, value
            problems.append(f"{name} exports {_what(value)}, which memfix cannot read without running it: its rules "
                            "are not known")
            return None
    return None


def _flat(name: str, text: str, said: list[str]) -> Table | None:
    """A flat configuration's list read from its literals, as the legacy configuration that selects the same: each
    element an override in order (flat elements merge in order, as overrides do), `@eslint/js`'s recommended as
    `eslint:recommended`, the `globals` package's sets as environments; anything else said and left out."""
    value, packages = exported(text), imports(text)
    elements = _elements(value)
    if elements is None:
        said.append(f"{name} exports {_what(value)}, which memfix cannot read without running it: its rules are not "
                    "known")
        return None
    overrides: list[Table] = []
    for element in elements:
        element = element.of if isinstance(element, Spread) else element
        if isinstance(element, Name) and packages.get(element.path.split(".")[0]) == "@eslint/js" \
                and element.path.endswith(".configs.recommended"):
            overrides.append({"files": ["**/*"], "extends": "eslint:recommended"})
        elif isinstance(element, dict) and (override := _flat_element(element, packages, name, said)) is not None:
            overrides.append(override)
        elif not isinstance(element, dict):
            said.append(f"{name}: {_what(element)} is a shared configuration memfix neither installs nor runs: its "
                        "rules are not selected")
    return {"overrides": overrides}


def _flat_element(element: Table, packages: dict[str, str], name: str,
                  said: list[str]) -> Table | None:
    """One flat element as a legacy override; None for one that only ignores files."""
    if not set(element) - {"ignores", "name"}:
        return None
    files = _strings(element, "files", ["**/*"])
    rules = table(element.get("rules"))
    unread = sorted(str(rule) for rule, setting in rules.items() if not _literal(setting))
    if unread:
        said.append(f"{name}: {', '.join(f'`{r}`' for r in unread[:10])} set by expressions memfix does not run: "
                    "not selected")
    env, own = _flat_globals(table(element.get("languageOptions")).get("globals"), packages)
    ignores = _strings(element, "ignores", [])
    extends = _flat_extends(element.get("extends"), packages, name, said)
    return {"files": files, **({"excludedFiles": ignores} if ignores else {}), "env": env, "globals": own,
            "extends": extends, "rules": {rule: setting for rule, setting in rules.items() if _literal(setting)}}


def _strings(element: Table, key: str, default: list[str]) -> list[str]:
    """An element's list of strings (`files`, `ignores`): its strings, `default` where it is empty or missing, []
    where it is not a list."""
    value = element.get(key, [])
    if not isinstance(value, list):
        return []
    return [f for f in value or default if isinstance(f, str)]


def _flat_globals(listed: object, packages: dict[str, str]) -> tuple[dict[str, bool], Table]:
    """`languageOptions.globals` as legacy `env` (the `globals` package's sets spread into it) and literal
    `globals`."""
    if not isinstance(listed, dict):
        return _environments([listed], packages), {}
    env = _environments([s.of for s in listed.get("...", [])], packages)
    return env, {k: v for k, v in listed.items() if k != "..." and _literal(v)}


def _environments(sets: list[object], packages: dict[str, str]) -> dict[str, bool]:
    """The `globals` package's sets (`globals.browser`) as legacy environments."""
    return {n.path.split(".", 1)[1]: True for n in sets if isinstance(n, Name) and "." in n.path
            and packages.get(n.path.split(".")[0]) == "globals"}


def _flat_extends(bases: object, packages: dict[str, str], name: str, said: list[str]) -> list[str]:
    """An element's `extends` as legacy ones: `@eslint/js`'s recommended is `eslint:recommended`; any other shared
    configuration is said and left out."""
    extends = []
    for base in bases if isinstance(bases, list) else []:
        if isinstance(base, Name) and packages.get(base.path.split(".")[0]) == "@eslint/js" \
                and base.path.endswith(".configs.recommended") or base == "js/recommended":
            extends.append("eslint:recommended")
        else:
            said.append(f"{name}: an element extends {_what(base)}, a shared configuration memfix neither installs "
                        "nor runs: its rules are not selected")
    return extends


def _elements(value: object) -> list[object] | None:
    """A flat configuration's elements: its list, or the arguments of the helpers that only wrap it
    (`defineConfig([...])`, `tseslint.config(a, b)`), flattened; None for anything else."""
    if isinstance(value, list):
        return value
    if isinstance(value, Call) and re.fullmatch(r"(?:\w+\.)?(?:defineConfig|config)", value.name):
        found: list[object] = []
        for arg in value.args:
            found += arg if isinstance(arg, list) else [arg]
        return found
    return None


def _literal(value: object) -> bool:
    if isinstance(value, list):
        return all(_literal(v) for v in value)
    if isinstance(value, dict):
        return all(_literal(v) for v in value.values())
    return isinstance(value, str | int | float | bool) or value is None


def _what(value: object) -> str:
    if isinstance(value, Name | Call):
        return f"`{value.path if isinstance(value, Name) else value.name + '(…)'}`"
    return "an expression" if isinstance(value, Unknown) else "a value"


def _carried(data: Table, folder: str, said: list[str], name: str, anywhere: bool = True) -> Table:
    """One configuration file as `biome migrate` should see it: `extends` resolved where memfix knows the
    configuration, `env` as globals, rules whose options Biome cannot carry turned off, override globs relative to
    the repository root (and to any depth where ESLint matches a bare name anywhere)."""
    kept: Table = {"rules": _rules(data, said, name), "globals": _globals(data)}
    overrides = []
    for i, override in enumerate(array(data.get("overrides"))):
        if not isinstance(override, dict):
            continue
        files = [_glob(folder, f, anywhere) for f in _listed(override.get("files"))]
        excluded = [_glob(folder, f, anywhere) for f in _listed(override.get("excludedFiles"))]
        if files:
            overrides.append({"files": files, **({"excludedFiles": excluded} if excluded else {}),
                              "rules": _rules(override, said, f"{name} overrides[{i}]"),
                              "globals": _globals(override)})
    if overrides:
        kept["overrides"] = overrides
    return kept


def _rules(data: Table, said: list[str], name: str) -> dict[str, str]:
    """The rules a configuration (or override) sets, `extends: eslint:recommended` beneath them, as severities:
    a rule whose options differ from ESLint's defaults is off (and said)."""
    rules: dict[str, str] = {}
    for extended in _listed(data.get("extends")):
        if extended == "eslint:recommended":
            rules |= dict.fromkeys(RECOMMENDED, "error")
        else:
            said.append(f"{name} extends `{extended[:80]}`, a package memfix neither installs nor runs: its rules are "
                        "not selected")
    set_here = table(data.get("rules"))
    lost = []
    for rule, value in list(set_here.items())[:MAX_RULES]:
        severity, options = _split(value)
        if severity is None:
            continue
        if severity != "off" and options and not _defaults(rule, options) and not _layout(str(rule)):
            lost.append(f"`{rule}` {json.dumps(options)[:60]}")
            severity = "off"
        rules[str(rule)] = severity
    if lost:
        said.append(f"{name}: {', '.join(lost)}: Biome's rules cannot carry these options, so these rules are not "
                    "selected")
    return rules


def _layout(rule: str) -> bool:
    """A layout rule: Biome's formatter (layout.py), not its rules, is where it goes, and layout.py says what of it
    is carried."""
    name = re.sub(r"^@stylistic/(?:js/)?", "", rule)
    return name in LAYOUT_RULES or name in UNCARRIED


def _split(value: object) -> tuple[str | None, list[object]]:
    """(severity, options) of a rule's setting: `2`, `"warn"`, `["error", "never", {...}]`."""
    if isinstance(value, list):
        return (_SEVERITY.get(value[0]) if value and isinstance(value[0], int | str) else None), value[1:]
    return (_SEVERITY.get(value) if isinstance(value, int | str) else None), []


def _defaults(rule: str, options: list[object]) -> bool:
    """The options are ESLint's defaults for the rule (each given value equal to the default's)."""
    defaults = DEFAULT_OPTIONS.get(rule)
    if defaults is None or len(options) > len(defaults):
        return False
    for given, default in zip(options, defaults, strict=False):
        if isinstance(given, dict) and isinstance(default, dict):
            if any(key not in default or default[key] != value for key, value in given.items()):
                return False
        elif given != default:
            return False
    return True


def _globals(data: Table) -> dict[str, str]:
    """`globals` and every `env` the configuration turns on, as read-only globals (`false` is read-only in legacy
    ESLint; `"off"` is no global)."""
    env = table(data.get("env"))
    found = {name: "readonly" for key, on in env.items() if on for name in ENVIRONMENTS.get(str(key), ())}
    listed = table(data.get("globals"))
    for name, value in listed.items():
        if value != "off":
            found[str(name)] = "readonly"
        else:
            found.pop(str(name), None)
    return found


def _glob(folder: str, pattern: str, anywhere: bool = True) -> str:
    """An override's pattern from the repository root: a legacy configuration matches a pattern with no `/` at any
    depth (a flat one, from its own folder)."""
    negated = pattern.startswith("!")
    pattern = pattern.removeprefix("!").removeprefix("./")
    if anywhere and "/" not in pattern:
        pattern = f"**/{pattern}"
    return ("!" if negated else "") + (f"{folder}/{pattern}" if folder else pattern)


def _folders(sources: tuple[str, ...]) -> list[str]:
    """The folders of the run's sources and their parents below the root, nearest the root first."""
    folders: set[str] = set()
    for path in sources:
        parts = path.split("/")[:-1]
        folders |= {"/".join(parts[:i]) for i in range(1, len(parts) + 1)}
    return sorted(f for f in folders if "node_modules" not in f.split("/"))[:MAX_FOLDERS]


def _rule_names(data: Table) -> list[str]:
    names = _named_here(data)
    for override in array(data.get("overrides")):
        if isinstance(override, dict):
            names += _named_here(override)
    return names


def _named_here(data: Table) -> list[str]:
    """The rules one configuration or override names: its own, and the recommended ones where it extends them."""
    names = [str(r) for r in table(data.get("rules"))]
    return [*names, *RECOMMENDED] if "eslint:recommended" in _listed(data.get("extends")) else names


def _listed(value: object) -> list[str]:
    items = [value] if isinstance(value, str) else value if isinstance(value, list) else []
    return [item for item in items if isinstance(item, str)]


def _data(name: str, text: str, problems: list[str]) -> Table | None:
    """A configuration file's object: JSON with comments and trailing commas where it starts with `{`, else YAML;
    an object that is not JSON (`{rules: {semi: 'error'}}`) is YAML's flow style, as ESLint reads `.eslintrc`."""
    formats: tuple[ConfigFormat, ...] = ("jsonc", "yaml") if text.lstrip().startswith("{") else ("yaml",)
    refused = None
    for fmt in formats:
        try:
            data = read_config(text, fmt, name)
        except ConfigRefused as exc:
            refused = refused or exc
            continue
        if not isinstance(data, dict):
            problems.append(f"{name} is not an ESLint configuration memfix can read (a JSON or YAML object)")
            return None
        return data
    problems.append(f"{refused}; not read")
    return None


def narrowed(biome: Table, on: frozenset[str], migrate: Migrate, said: list[str]) -> Table:
    """The translated configuration without the Biome rules that check more than the team's ESLint rules do: a Biome
    rule `biome migrate` carries several of ESLint's rules to (`no-empty`, `no-empty-function` → one) is selected only
    where the team turns all of them on."""
    together = {rule: names for rule, names in biome_names(migrate, set(ESLINT_CORE_RULES)).items() if len(names) > 1}
    for rule, names in sorted(together.items()):
        if not names & on or names <= on:
            continue
        group, name = rule.split("/")[1:]
        _turn_off(biome, group, name)
        said.append(f"{', '.join(f'`{n}`' for n in sorted(names & on))} is carried to Biome's `{name}`, which also "
                    f"checks what {', '.join(f'`{n}`' for n in sorted(names - on))} check, which the team leaves off: "
                    "not selected")
    return biome


def _turn_off(biome: Table, group: str, name: str) -> None:
    """A Biome rule off at the top of its configuration and in every override that sets it."""
    for scope in [biome, *(o for o in array(biome.get("overrides")) if isinstance(o, dict))]:
        rules = scope.setdefault("linter", {}).setdefault("rules", {})
        if scope is biome or name in (rules.get(group) or {}):
            rules.setdefault(group, {})[name] = "off"


def biome_names(migrate: Migrate, eslint_rules: set[str]) -> dict[str, frozenset[str]]:
    """For each Biome rule (`lint/suspicious/noBitwiseOperators`), the ESLint rules `biome migrate` carries to it,
    asked in one run: each ESLint rule in an override of its own."""
    ordered = sorted(eslint_rules)[:MAX_RULES]
    if not ordered:
        return {}
    config = {"rules": {}, "overrides": [{"files": [f"memfix-rule-{i}"], "rules": {rule: "error"}}
                                         for i, rule in enumerate(ordered)]}
    text, _ = migrate({".eslintrc.json": json.dumps(config)})
    try:
        migrated = read_config(text or "{}", "jsonc", "biome.json")
    except ConfigRefused:
        return {}
    found: dict[str, set[str]] = {}
    for override in migrated.get("overrides") or [] if isinstance(migrated, dict) else []:
        index, carried = _carried_to(override)
        for rule in carried:
            found.setdefault(rule, set()).add(ordered[index])
    return {rule: frozenset(names) for rule, names in found.items()}


def _carried_to(override: object) -> tuple[int, list[str]]:
    """Which of memfix's one-rule overrides a translated one is (its `memfix-rule-N` index), and the Biome rules
    `biome migrate` carried its ESLint rule to."""
    includes = override.get("includes") if isinstance(override, dict) else None
    index = re.fullmatch(r"memfix-rule-(\d+)", includes[0]) if isinstance(includes, list) and includes else None
    if index is None or not isinstance(override, dict):
        return 0, []
    return int(index[1]), _biome_rules((override.get("linter") or {}).get("rules") or {})


def _biome_rules(groups: object) -> list[str]:
    """A Biome `linter.rules` table's rules by their full names (`lint/suspicious/noDebugger`)."""
    return [f"lint/{group}/{rule}" for group, rules in (groups.items() if isinstance(groups, dict) else ())
            for rule in (rules if isinstance(rules, dict) else ())]
