"""The JavaScript and TypeScript checks a patch passes besides Biome's re-check, read from its text (never run):
the module's exports are the same, and the comments that steer tools (`eslint-disable`, `biome-ignore`,
`@ts-expect-error`, coverage pragmas) are all still there.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator

from core.change import Patch
from core.linediff import opcodes

DIRECTIVES = re.compile(r"eslint-disable|eslint-enable|biome-ignore|@ts-(?:ignore|expect-error|nocheck|check)"
                        r"|prettier-ignore|istanbul\s+ignore|c8\s+ignore|v8\s+ignore|@jsx|@license|@preserve")
_NAME = r"[A-Za-z_$][\w$]*"
_DECLARED = re.compile(rf"export\s+(?:declare\s+)?(?:default\s+)?(?:async\s+)?(?:function\*?|class|const|let|var|"
                       rf"type|interface|enum|namespace|module|abstract\s+class)\s+({_NAME})")
_DEFAULT = re.compile(r"export\s+default\b")
# no brace inside: a list left open is read up to the next brace, not from each `export {` to the end of the text
_LIST = re.compile(r"export\s+(?:type\s+)?\{([^{}]*)\}")
_STAR = re.compile(r"export\s+\*\s*(?:as\s+(" + _NAME + r")\s*)?from")
# a line's own indent: `^\s*` ran on over the blank lines below from each of their starts
_MODULE = re.compile(r"(?m)^[^\S\n]*(?:import\s*[\w{*'\"]|export\s)")
_COMMONJS = re.compile(rf"\b(?:module\.)?exports\.({_NAME})\s*=[^=]|\bmodule\.exports\s*=[^=]")


def export_problem(patch: Patch) -> str | None:
    """Why the patch changes what the module exports (ES exports and CommonJS assignments), or None."""
    before, after = exports(patch.original), exports(patch.updated)
    if before == after:
        return None
    lost, gained = sorted(before - after), sorted(after - before)
    parts = ([f"no longer exports {', '.join(lost)}"] if lost else []) + \
        ([f"now exports {', '.join(gained)}"] if gained else [])
    return f"changes the module's exports: {'; '.join(parts)}"


def directive_problem(patch: Patch) -> str | None:
    """Why the patch drops a comment that steers a tool (a linter's disable, a type checker's expectation, a
    coverage pragma), or None."""
    lost = directives(patch.original) - directives(patch.updated)
    if not lost:
        return None
    return "removes the comment" + ("s" if sum(lost.values()) > 1 else "") + " " + \
        ", ".join(f"`{text[:60]}`" for text in sorted(lost))


def suppressed_change(patch: Patch, carried: Callable[[frozenset[str]], frozenset[str]]) -> str | None:
    """Why the patch changes a line where the team's ESLint comment turns off a rule it fixes (Biome fixes a whole
    file; the team's `eslint-disable` says that line is as they want it), or None. `carried` gives the Biome rules
    ESLint rules are carried to."""
    off = disabled(patch.original)
    if not off:
        return None
    fixed = {f.code for f in patch.findings}
    for tag, i1, i2, _, _ in opcodes(patch.original.splitlines(), patch.updated.splitlines()):
        for line in range(i1 + 1, max(i2, i1 + 1) + 1) if tag != "equal" else ():
            names = off.get(line, frozenset())
            if names and (ALL in names or fixed & carried(names)):
                said = "every rule" if ALL in names else ", ".join(sorted(names))
                return f"changes line {line}, where the team's `eslint-disable` comment turns off {said}"
    return None


# What follows the keyword is taken whole and stripped after: a lazy `(.*?)\s*$` tries the rest of a run of spaces
# from each of its places (quadratic in the run).
_DIRECTIVE = re.compile(r"^\s*eslint-(disable-next-line|disable-line|disable|enable)(?:\s+(.*))?$", re.DOTALL)
ALL = "*"
MAX_REGION_RULES = 64  # rules `eslint-disable` regions turn off on one line, named apart; past that, every rule


def disabled(text: str) -> dict[int, frozenset[str]]:
    """The lines (1-based) where the file's ESLint comments turn rules off, with the rules (`*`: every rule)."""
    lines: dict[int, set[str]] = {}  # next-line and same-line directives
    regions: list[tuple[int, int, str]] = []  # (first line, last line, rule) of each `eslint-disable` region
    began: dict[str, int] = {}  # rule (or *) → the line its `eslint-disable` began on
    last = 1
    for how, names, line, ends in _directives(text):
        if how == "disable-next-line":
            lines.setdefault(ends + 1, set()).update(names)
        elif how == "disable-line":
            lines.setdefault(line, set()).update(names)
        elif how == "disable":
            for name in names:
                began.setdefault(name, line)
        else:
            regions += _enabled(began, names, ends)
        last = ends
    end = max(last, text.count("\n") + 1)  # a region never enabled again runs to the end of the file
    regions += [(start, end, name) for name, start in began.items()]
    off = _swept(regions)
    for n, names in lines.items():
        off[n] = off.get(n, frozenset()) | names
    return off


def _enabled(began: dict[str, int], names: set[str], line: int) -> list[tuple[int, int, str]]:
    """The regions an `eslint-enable` on `line` ends: the named rules', or every region (each taken out of
    `began`)."""
    return [(began.pop(name), line, name) for name in (list(began) if ALL in names else names) if name in began]


def _swept(regions: list[tuple[int, int, str]]) -> dict[int, frozenset[str]]:
    """Each line's rules off by the regions, swept once in line order: the lines between two region boundaries share
    one set (a set built per line and region is quadratic in a file of many regions)."""
    changes: defaultdict[int, list[tuple[str, int]]] = defaultdict(list)
    for first, final, name in regions:
        changes[first].append((name, 1))
        changes[final + 1].append((name, -1))
    at = sorted(changes)
    active: Counter[str] = Counter()
    off: dict[int, frozenset[str]] = {}
    for line, following in zip(at, at[1:], strict=False):
        for name, step in changes[line]:
            active[name] += step
            if not active[name]:
                del active[name]
        now = frozenset({ALL}) if len(active) > MAX_REGION_RULES else frozenset(active)
        off.update(dict.fromkeys(range(line, following), now) if now else {})
    return off


def _directives(text: str) -> Iterator[tuple[str, set[str], int, int]]:
    """Each ESLint comment: (what it does, the rules it names, its first line, its last line)."""
    line = 1
    for kind, part in pieces(text):
        if kind == "comment" and (match := _DIRECTIVE.match(part[2:-2] if part.startswith("/*") else part[2:])):
            yield match[1], _names(match[2]), line, line + part.count("\n")
        line += part.count("\n")


def _names(text: str | None) -> set[str]:
    """The rules a directive names (`a, b -- why`), or every rule."""
    listed = (text or "").split("--", 1)[0]
    names = {n.strip() for n in listed.split(",") if n.strip()}
    return names or {ALL}


def strict_problem(patch: Patch) -> str | None:
    """Why the patch changes how the file runs by dropping `"use strict"`: redundant only in an ES module, which a
    file with no `import` or `export` is not (Node runs it as CommonJS, a browser as a script)."""
    def strict(text: str) -> int:
        return sum(kind == "string" and part[1:-1] == "use strict" for kind, part in pieces(text))
    if strict(patch.updated) >= strict(patch.original) or _MODULE.search(_code(patch.original)):
        return None
    return "removes `\"use strict\"` from a file that is not an ES module, where it decides how the code runs"


def exports(text: str) -> set[str]:
    code = _code(text)
    names = set(_DECLARED.findall(code)) | {"*" + (m or "") for m in _STAR.findall(code)}
    if _DEFAULT.search(code):
        names.add("default")
    for listed in _LIST.findall(code):
        names |= _exported_as(listed)
    for match in _COMMONJS.finditer(code):
        names.add(f"exports.{match.group(1)}" if match.group(1) else "module.exports")
    return names


def _exported_as(listed: str) -> set[str]:
    """The names an `export { a, b as c }` list exports (`a`, `c`)."""
    names = set()
    for item in listed.split(","):
        words = item.split()
        if words:
            names.add(words[-1] if len(words) >= 3 and words[-2] == "as" else words[0])
    return names


def _code(text: str) -> str:
    return "".join(part for kind, part in pieces(text) if kind == "code")


def directives(text: str) -> Counter[str]:
    return Counter(" ".join(part.strip("/* \n\t").split()) for kind, part in pieces(text)
                   if kind == "comment" and DIRECTIVES.search(part))


def pieces(text: str) -> Iterator[tuple[str, str]]:
    """The text as ("code" | "comment" | "string", text) pieces: strings, template literals and regular expression
    literals are told apart from code so that nothing inside them counts as an export or a directive. Code between
    them is skipped over by a search, not read character by character."""
    i, n, start, last = 0, len(text), 0, ""
    while (found := _OPENING.search(text, i)) is not None:
        j = found.start()
        between = text[i:j].rstrip()
        last = between[-1] if between else last
        c, nxt = text[j], text[j + 1:j + 2]
        if c == "/" and nxt in ("/", "*"):
            if start < j:
                yield "code", text[start:j]
            end = _comment_end(text, j, nxt == "/")
            yield "comment", text[j:end]
            i = start = end
        elif c != "/" or _regex_may_start(last):
            if start < j:
                yield "code", text[start:j]
            end = _closing(text, j)
            yield "string", text[j:end]
            i = start = end
            last = "x"
        else:  # a division
            last, i = c, j + 1
    if start < n:
        yield "code", text[start:]


def _comment_end(text: str, at: int, line_comment: bool) -> int:
    """Where the comment that starts at `at` ends: its line's end (`//`), past its `*/`, or the text's end."""
    end = text.find("\n", at) if line_comment else text.find("*/", at + 2)
    if end < 0:
        return len(text)
    return end if line_comment else end + 2


_OPENING = re.compile(r"[/'\"`]")


def _regex_may_start(last: str) -> bool:
    """A `/` after an operator or an opening bracket begins a regular expression; after a value it divides."""
    return last == "" or last in "(,=:[!&|?{};+-*%<>~^"


def _closing(text: str, i: int) -> int:
    """The index after the string, template or regular expression literal that starts at `i`."""
    return _regex_end(text, i) if text[i] == "/" else _quoted_end(text, i)


def _quoted_end(text: str, i: int) -> int:
    """The index after a string or template literal: past its closing quote, or at the end of the line where a
    string (not a template, which spans lines) is left open."""
    quote, j, n = text[i], i + 1, len(text)
    while j < n:
        c = text[j]
        if c == "\\":
            j += 2
            continue
        if c == quote:
            return j + 1
        if c == "\n" and quote != "`":
            return j
        j += 1
    return n


def _regex_end(text: str, i: int) -> int:
    """The index after a regular expression literal and its flags (a `/` inside a character class does not end
    it)."""
    j, n = i + 1, len(text)
    in_class = False
    while j < n:
        c = text[j]
        if c == "\\":
            j += 2
            continue
        if c == "[":
            in_class = True
        elif c == "]":
            in_class = False
        elif c == "/" and not in_class:
            j += 1
            while j < n and text[j].isalpha():  # flags
                j += 1
            return j
        elif c == "\n":
            return j  # not a regular expression after all: a division on this line
        j += 1
    return n
