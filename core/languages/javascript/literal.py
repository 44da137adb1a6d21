"""JavaScript's literals read as data, never run: what a configuration module exports when it is written as objects,
arrays, strings, numbers and names (an ESLint flat configuration mostly is). Anything else — a call's result, a
function, an expression — is `Unknown`, and its reader says what it could not know.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from core import deadline

MAX_DEPTH = 40  # nesting a literal may have
MAX_CHARS = 256 * 1024  # a configuration module longer than this is not read


@dataclass(frozen=True)
class Name:
    """A name or member chain (`js.configs.recommended`), unresolved."""

    path: str


@dataclass(frozen=True)
class Call:
    """A call of a name with its arguments (`defineConfig([...])`), which is never made."""

    name: str
    args: tuple[Any, ...]


@dataclass(frozen=True)
class Spread:
    of: Any


@dataclass(frozen=True)
class Unknown:
    """An expression that is not a literal."""

    text: str


class _Stop(Exception):
    """The text is not what a literal reader can follow."""


# A token that cannot close takes the rest of what it could span (a comment or a template the text, a string its
# line): scanning again from each later opening would make the tokenizer quadratic. A template with a substitution is
# one token, never a literal. Loops are possessive (`*+`): what they took is never given back, so the engine keeps no
# trail to step back along (on a megabyte, that trail alone made a linear scan several times slower per byte).
_TOKEN = re.compile(r"""
    (?P<space>\s++|//[^\n]*+|/\*.*?(?:\*/|\Z))
  | (?P<string>"[^"\\\n]*+(?:\\.[^"\\\n]*+)*+"|'[^'\\\n]*+(?:\\.[^'\\\n]*+)*+'
              |`[^`\\$]*+(?:(?:\\.|\$(?!\{))[^`\\$]*+)*+`)
  | (?P<template>`[^`\\]*+(?:\\.[^`\\]*+)*+`)
  | (?P<open>"[^"\\\n]*+(?:\\.[^"\\\n]*+)*+|'[^'\\\n]*+(?:\\.[^'\\\n]*+)*+|`[^`\\]*+(?:\\.[^`\\]*+)*+)
  | (?P<number>-?(?:0[xX][0-9a-fA-F]++|\d++(?:\.\d++)?+(?:[eE][-+]?\d++)?+))
  | (?P<name>[A-Za-z_$][\w$]*+(?:\s*+\??\.\s*+[A-Za-z_$][\w$]*+)*+)
  | (?P<spread>\.\.\.)
  | (?P<punct>[{}\[\](),:;=])
  | (?P<other>.)
""", re.VERBOSE | re.DOTALL)
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0"}


def tokens(text: str) -> list[tuple[str, str]]:
    """The text's tokens as (kind, text), comments and spaces left out."""
    return [(m.lastgroup or "other", m[0]) for m in _TOKEN.finditer(text) if m.lastgroup != "space"]


def exported(text: str) -> Any:
    """What the module exports by default (`export default …`, `module.exports = …`), a name it exports resolved to
    the literal it was declared with; Unknown where there is nothing a reader can follow, or where reading it takes
    longer than its share of the run's time."""
    if len(text) > MAX_CHARS:
        return Unknown("a configuration module over 256 KiB")
    with deadline.budget(deadline.SCAN_SECONDS, "reading a configuration module") as share:
        try:
            return _exported(tokens(text))
        except deadline.Overrun as exc:
            if not exc.of(share):
                raise  # the job's own time ran out
            return Unknown(f"a configuration module that took longer than {deadline.SCAN_SECONDS:g} s to read")


def _exported(found: list[tuple[str, str]]) -> Any:
    for i, (kind, word) in enumerate(found):
        if kind == "name" and _exports(word, found[i + 1][1] if i + 1 < len(found) else None):
            value = _value_at(found, i + 2)
            return declared(found, value.path) if isinstance(value, Name) else value
    return Unknown("no `export default` or `module.exports =`")


def _exports(word: str, following: str | None) -> bool:
    """A name that, with the token after it, starts what a module exports: `export default`, `module.exports =`."""
    if word == "export":
        return following == "default"
    return following == "=" and bool(re.fullmatch(r"module\s*\.\s*exports", word))


def declared(found: list[tuple[str, str]], name: str) -> Any:
    """The literal a top-level `const|let|var name = …` gives `name`, or Unknown."""
    for i in range(len(found) - 3):
        if found[i][1] in ("const", "let", "var") and found[i + 1][1] == name and found[i + 2][1] == "=":
            return _value_at(found, i + 3)
    return Unknown(f"`{name}`")


def imports(text: str) -> dict[str, str]:
    """Local name → the package it comes from (`import js from "@eslint/js"`, `const g = require("globals")`)."""
    found = {m[1]: m[2] for m in re.finditer(r"import\s+(?:\*\s+as\s+)?([\w$]+)\s+from\s+['\"]([^'\"]+)['\"]", text)}
    found |= {m[1]: m[2] for m in re.finditer(
        r"(?:const|let|var)\s+([\w$]+)\s*=\s*require\(\s*['\"]([^'\"]+)['\"]\s*\)", text)}
    return found


def _value_at(found: list[tuple[str, str]], i: int) -> Any:
    try:
        value, _ = _Reader(found).value(i, 0)
    except (_Stop, IndexError):
        return Unknown("an expression memfix does not read")
    return value


class _Reader:
    def __init__(self, found: list[tuple[str, str]]):
        self.found = found
        self.steps = 0  # values read: the deadlines in force are looked at every so many

    def value(self, i: int, depth: int) -> tuple[Any, int]:
        if depth > MAX_DEPTH:
            raise _Stop
        self.steps += 1
        if not self.steps % 1024:
            deadline.check()
        kind, word = self.found[i]
        if word == "{":
            return self._object(i + 1, depth)
        if word == "[":
            return self._array(i + 1, depth)
        if kind == "string":
            return _string(word), i + 1
        if kind == "number":
            return _number(word), i + 1
        if kind == "name":
            return self._name(i, depth)
        return self._unknown(i)

    def _name(self, i: int, depth: int) -> tuple[Any, int]:
        word = re.sub(r"\s+", "", self.found[i][1]).replace("?.", ".")
        literal = {"true": True, "false": False, "null": None, "undefined": None}
        if word in literal:
            return literal[word], i + 1
        if i + 1 < len(self.found) and self.found[i + 1][1] == "(":
            args, end = self._items(i + 2, ")", depth)
            return self._after(Call(word, tuple(args)), end)
        return self._after(Name(word), i + 1)

    def _after(self, value: Any, i: int) -> tuple[Any, int]:
        """A value followed by more of an expression (`a || b`, `x.y()`) is no literal."""
        if i < len(self.found) and self.found[i][1] not in (",", "}", "]", ")", ";"):
            return self._unknown(i)
        return value, i

    def _object(self, i: int, depth: int) -> tuple[Any, int]:
        members: dict[str, Any] = {}
        spreads: list[Any] = []
        while self.found[i][1] != "}":
            kind, word = self.found[i]
            if kind == "spread":
                value, i = self.value(i + 1, depth + 1)
                spreads.append(value)
            else:
                i = self._member(i, depth, members)
            i = self._past_comma(i, "}")
        if spreads:
            members["..."] = [Spread(s) for s in spreads]
        return members, i + 1

    def _member(self, i: int, depth: int, members: dict[str, Any]) -> int:
        """One `key: value` of an object (or a shorthand `{ globals }`) read into `members`; a computed key or a
        method is skipped. Where the member ends."""
        kind, word = self.found[i]
        if kind in ("name", "string", "number") and self.found[i + 1][1] == ":":
            key = _string(word) if kind == "string" else word
            members[key], i = self.value(i + 2, depth + 1)
        elif kind == "name" and self.found[i + 1][1] in (",", "}"):
            members[word], i = Name(word), i + 1
        else:
            _, i = self._unknown(i)
        return i

    def _past_comma(self, i: int, close: str) -> int:
        """Past the comma after an item, or at the closing bracket; _Stop for anything else."""
        if self.found[i][1] == ",":
            return i + 1
        if self.found[i][1] != close:
            raise _Stop
        return i

    def _array(self, i: int, depth: int) -> tuple[list[Any], int]:
        items, end = self._items(i, "]", depth)
        return items, end

    def _items(self, i: int, close: str, depth: int) -> tuple[list[Any], int]:
        items: list[Any] = []
        while self.found[i][1] != close:
            if self.found[i][0] == "spread":
                value, i = self.value(i + 1, depth + 1)
                items.append(Spread(value))
            else:
                value, i = self.value(i, depth + 1)
                items.append(value)
            i = self._past_comma(i, close)
        return items, i + 1

    def _unknown(self, i: int) -> tuple[Unknown, int]:
        """Skip to the end of this expression: the next `,` or closing bracket at its own depth."""
        start, level = i, 0
        while i < len(self.found):
            word = self.found[i][1]
            if word in "([{" and word:
                level += 1
            elif word in ")]}" and word:
                if level == 0:
                    break
                level -= 1
            elif word in (",", ";") and level == 0:
                break
            i += 1
        return Unknown(" ".join(w for _, w in self.found[start:i])[:80]), i


def _string(word: str) -> str:
    body = word[1:-1]
    return re.sub(r"\\(.)", lambda m: _ESCAPES.get(m[1], m[1]), body)


def _number(word: str) -> int | float:
    try:
        return int(word, 0) if re.fullmatch(r"-?(?:0[xX][0-9a-fA-F]+|\d+)", word) else float(word)
    except ValueError:
        return float("nan")
