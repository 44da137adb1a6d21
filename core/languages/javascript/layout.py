"""The team's ESLint layout rules, carried to Biome's formatter where they map exactly, and only their part of its
output kept.

Biome formats a copy with the team's semicolons, quotes and trailing commas; memfix then compares the two texts token
by token and keeps, of what changed, only the semicolons, trailing commas and quotes the team's rules ask for, each put
into the original text where the formatter put it. Every other change the formatter would make (wrapping, spacing,
indentation, parentheses) is left out: ESLint's `indent` or `space-before-function-paren` are not Biome's formatting,
so they are not carried. Trailing spaces, runs of blank lines and the final newline are fixed line by line here.
What is kept must format to what the original formats to (`same_layout`): a fix that changes anything the formatter
sees is no layout fix, and the file's layout fixes are dropped.
"""

from __future__ import annotations

import json
import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any, NamedTuple

from core import deadline
from core.languages.javascript.checks import pieces
from core.languages.javascript.rules import ESLINT_LAYOUT

# ESLint's layout rules memfix carries, by their core names; `@stylistic/…` names the same rules.
LAYOUT_RULES = ("semi", "no-extra-semi", "quotes", "comma-dangle", "no-trailing-spaces", "eol-last",
                "no-multiple-empty-lines")
# ESLint's other layout rules: Biome's formatter has no exact counterpart, so they are not fixed (said).
UNCARRIED = ESLINT_LAYOUT - frozenset(LAYOUT_RULES)
LAYOUT = "format"  # the selector of every layout rule, as `lint` is of Biome's
PREFIX = LAYOUT + "/"  # a layout finding's code: `format/semi`
MESSAGES = {"semi": "Missing semicolon.", "semi-never": "Extra semicolon.", "no-extra-semi": "Unnecessary semicolon.",
            "quotes": "Strings must use the team's quotes.", "comma-dangle": "Trailing comma, as the team's "
            "comma-dangle asks.", "no-trailing-spaces": "Trailing spaces not allowed.",
            "eol-last": "Newline required at end of file.",
            "no-multiple-empty-lines": "More blank lines than the team allows."}
_JSX = (".jsx", ".tsx")  # ESLint's `quotes` leaves JSX attributes to `jsx-quotes`: quotes are not touched there
# ESLint's `semi` does not check a type's members, which the formatter ends with semicolons: not touched there
_TYPED = (".ts", ".tsx", ".mts", ".cts")
STYLISTIC = re.compile(r"^@stylistic/(?:js/)?")
_WORD = re.compile(r"[A-Za-z_$\d][\w$]*|\.\.\.|[=!]==|\*\*=?|<<=?|>>>?=?|[-+*/%&|^<>!=?]=|=>|&&=?|\|\|=?|\?\?=?|"
                   r"\?\.|\+\+|--|\S")
_CLOSERS = "]}"
_ESCAPED_QUOTE = re.compile(r"\\(['\"])")
_SPACE = re.compile(r"\s+")
_NEWLINE = re.compile("\n")
_CONTINUING = ("[", "(", "/", "+", "-", "`")  # a next line starting so continues the statement without a `;`
_SEMICOLON = ";"
_PUNCTUATION = (";", ",")  # a string `';'` keys as "\0;": no semicolon
_CHECK_EVERY = 4096  # steps of the walk between two looks at the deadlines in force
_WINDOW, _AGREE = 80, 4  # tokens looked ahead for where two texts agree again, and how many in a row agree


@dataclass(frozen=True)
class Layout:
    """The layout rules carried, with what each asks: `semi` "always" or "never"; `quotes` the quote character;
    `commas` "never", "only-multiline" or "always-multiline" (`always` adds none where Biome would not); blank lines
    as (max, maxEOF, maxBOF)."""

    semi: str | None = None
    extra_semi: bool = False
    quotes: str | None = None
    commas: str | None = None
    trailing_spaces: tuple[bool, bool] | None = None  # (skipBlankLines, ignoreComments)
    eol_last: bool = False
    blank: tuple[int, int, int] | None = None

    @property
    def rules(self) -> tuple[str, ...]:
        """The ESLint rules carried."""
        return tuple(rule for rule in LAYOUT_RULES if getattr(self, _FIELDS[rule]))

    def only(self, rules: Iterable[str]) -> Layout:
        """The same layout with only `rules` carried (the run's selection, less its held rules)."""
        keep = set(rules)
        return replace(self, **{_FIELDS[r]: getattr(_NOTHING, _FIELDS[r]) for r in LAYOUT_RULES if r not in keep})

    def formatter(self) -> str:
        """The biome.json a formatting run gets: the team's semicolons, quotes and commas; the widest lines Biome
        allows (what it would wrap is left out anyway)."""
        options = {"semicolons": "asNeeded" if self.semi == "never" else "always",
                   "quoteStyle": "single" if self.quotes == "'" else "double",
                   "trailingCommas": "all" if self.commas in ("always-multiline", "always") else "none"}
        if self.commas in ("always-multiline", "always"):  # every list on its lines: where the formatter ends one
            options["expand"] = "always"  # with a comma, the original may be multi-line (checked in `_inserted`)
        return json.dumps({"formatter": {"enabled": True, "indentStyle": "space", "lineWidth": 320},
                           "javascript": {"formatter": options}, "linter": {"enabled": False},
                           "assist": {"enabled": False}})


@dataclass(frozen=True)
class Edit:
    """One layout fix: replace original[start:end] with `text`; it fixes `rule` on `line` (1-based)."""

    start: int
    end: int
    text: str
    rule: str
    line: int

    @property
    def message(self) -> str:
        return MESSAGES["semi-never" if self.rule == "semi" and not self.text else self.rule]


Scope = tuple[list[str] | None, dict[str, object]]  # (the files an override covers, None for all; its rules as written)


def read_layout(scopes: list[Scope], where: str) -> tuple[Layout | None, list[str]]:
    """The layout rules a configuration's scopes set, in order (root first), carried where their options map exactly;
    a rule set otherwise in some folders, or with options Biome's formatter cannot follow, is not carried. Also says
    which of the team's layout rules are not fixed, and why."""
    settings, varies, others = _gathered(scopes)
    said = [_uncarried(where, others)] if others else []
    carried: dict[str, Any] = {}  # Layout's fields by name, each of its own type
    lost = []
    for rule, value in settings.items():
        if _severity(value) in (None, "off"):
            continue
        options = value[1:] if isinstance(value, list) else []
        found = _READERS[rule](options)
        if rule in varies:
            lost.append(f"`{rule}` (set otherwise for some files)")
        elif found is None:
            lost.append(f"`{rule}` {json.dumps(options)[:60]}")
        else:
            carried[_FIELDS[rule]] = found
    if lost:
        said.append(f"{where}: {', '.join(lost)}: Biome's formatter cannot follow these exactly, so memfix does not "
                    "fix them")
    return (replace(Layout(), **carried) if carried else None), said


def _uncarried(where: str, others: set[str]) -> str:
    listed = ", ".join(f"`{r}`" for r in sorted(others)[:8])
    more = " and more" if len(others) > 8 else ""
    return f"{where}: {listed}{more}: layout Biome's formatter cannot carry exactly, so memfix does not fix it"


def _gathered(scopes: list[Scope]) -> tuple[dict[str, object], set[str], set[str]]:
    """(each layout rule's setting where it applies to every file, the rules some folders set otherwise, the team's
    layout rules memfix cannot carry)."""
    settings: dict[str, object] = {}
    varies: set[str] = set()
    others: set[str] = set()
    for files, rules in scopes:
        everywhere, kinds = _reach(files)
        for name, value in rules.items():
            rule = STYLISTIC.sub("", str(name))
            if rule in UNCARRIED and _severity(value) not in (None, "off"):
                others.add(rule)
            elif rule not in LAYOUT_RULES:
                continue
            elif everywhere or kinds and settings.get(rule, value) == value:
                settings[rule] = value
            elif settings.get(rule) != value:
                varies.add(rule)
    return settings, varies, others


def _reach(files: list[str] | None) -> tuple[bool, bool]:
    """(a scope covers every file, it covers whole kinds of files such as `**/*.js`): the second is a flat
    configuration's usual element, the whole repository's unless it changes an earlier one."""
    everywhere = files is None or files == ["**/*"]
    kinds = not everywhere and all(f.startswith(("**/*.", "*.")) and "/" not in f[3:] for f in files or ["/"])
    return everywhere, kinds


def _severity(value: object) -> str | None:
    first = value[0] if isinstance(value, list) and value else value
    return {0: "off", 1: "warn", 2: "error", "off": "off", "warn": "warn", "error": "error"}.get(first) \
        if isinstance(first, int | str) else None


def _only_defaults(options: list[object], defaults: Mapping[str, object]) -> bool:
    return all(isinstance(o, dict) and all(defaults.get(k, object()) == v for k, v in o.items()) for o in options)


def _semi(options: list[object]) -> str | None:
    how = options[0] if options and isinstance(options[0], str) else "always"
    rest = options[1:] if options and isinstance(options[0], str) else options
    defaults = {"omitLastInOneLineBlock": False, "omitLastInOneLineClassBody": False} if how == "always" else \
        {"beforeStatementContinuationChars": "any"}
    return how if how in ("always", "never") and _only_defaults(rest, defaults) else None


def _quotes(options: list[object]) -> str | None:
    """The quote character; escapes the formatter avoids with the other quote are left out (`edits`), and template
    literals are never touched, so `avoidEscape` and `allowTemplateLiterals` change nothing memfix does."""
    how = options[0] if options and isinstance(options[0], str) else "double"
    rest = options[1:]
    if how not in ("single", "double") or len(rest) > 1 or rest and rest != ["avoid-escape"] and not (
            isinstance(rest[0], dict) and set(rest[0]) <= {"avoidEscape", "allowTemplateLiterals"}):
        return None
    return "'" if how == "single" else '"'


def _commas(options: list[object]) -> str | None:
    value = options[0] if options else "never"
    if isinstance(value, dict):  # the same for every kind of list, or not carried
        kinds = set(value.values())
        value = kinds.pop() if len(kinds) == 1 and len(value) == 5 else None
    return value if value in ("never", "only-multiline", "always-multiline", "always") else None


def _trailing(options: list[object]) -> tuple[bool, bool] | None:
    given = options[0] if options and isinstance(options[0], dict) else {}
    if len(options) > 1 or set(given) - {"skipBlankLines", "ignoreComments"}:
        return None
    return bool(given.get("skipBlankLines")), bool(given.get("ignoreComments"))


def _eol(options: list[object]) -> bool | None:
    return True if not options or options[0] in ("always", "unix") else None


def _extra(options: list[object]) -> bool | None:
    return True if not options else None


def _blank(options: list[object]) -> tuple[int, int, int] | None:
    given = options[0] if options and isinstance(options[0], dict) else {}
    if len(options) > 1 or set(given) - {"max", "maxEOF", "maxBOF"} or \
            not all(isinstance(v, int) and v >= 0 for v in given.values()):
        return None
    most = int(given.get("max", 2))
    return most, int(given.get("maxEOF", most)), int(given.get("maxBOF", most))


_READERS = {"semi": _semi, "no-extra-semi": _extra, "quotes": _quotes, "comma-dangle": _commas,
            "no-trailing-spaces": _trailing, "eol-last": _eol, "no-multiple-empty-lines": _blank}
_NOTHING = Layout()
_FIELDS = {"semi": "semi", "no-extra-semi": "extra_semi", "quotes": "quotes", "comma-dangle": "commas",
           "no-trailing-spaces": "trailing_spaces", "eol-last": "eol_last", "no-multiple-empty-lines": "blank"}


# ---- the fixes ----

class Token(NamedTuple):
    kind: str  # "code", "comment" or "string" (template and regular expression literals too)
    text: str
    start: int
    end: int


def key(kind: str, text: str) -> str:
    """What the formatter keeps of a token, as one string: code as written; a string's value, a comment's words
    (marked apart, so no code reads like them)."""
    if kind == "code":
        return text
    if kind == "string" and text[:1] in "'\"":
        return "\0" + _ESCAPED_QUOTE.sub(r"\1", text[1:-1])
    return ("\1" + " ".join(text.split())) if kind == "comment" else "\2" + text


def keyed(text: str) -> tuple[list[str], list[str]]:
    """The formatter's text as (keys, texts) of its tokens: no places needed there, so none made."""
    keys, texts = [], []
    for kind, part in pieces(text):
        if kind == "code":
            words = _WORD.findall(part)
            keys += words
            texts += words
        else:
            keys.append(key(kind, part))
            texts.append(part)
    return keys, texts


def tokens(text: str) -> list[Token]:
    found, at = [], 0
    for kind, part in pieces(text):
        if kind == "code":
            found += [Token("code", m[0], at + m.start(), at + m.end()) for m in _WORD.finditer(part)]
        else:
            found.append(Token(kind, part, at, at + len(part)))
        at += len(part)
    return found


class _Original:
    """The original text with what its fixes look up, found once: where its lines start, its template literals and
    comments, and which tokens are code (looking each up from the start of the text, or of the token list, for every
    fix made a file of many fixes quadratic)."""

    def __init__(self, text: str, found: list[Token]):
        self.text, self.tokens = text, found
        self.starts = [0, *(m.end() for m in _NEWLINE.finditer(text))]
        self.code = [n for n, t in enumerate(found) if t.kind != "comment"]  # indexes of the tokens that are code
        self.templates = _Spans([t for t in found if t.kind == "string" and t.text.startswith("`")])
        self.comments = _Spans([t for t in found if t.kind == "comment"])

    def line(self, at: int) -> int:
        """The 1-based line of an offset."""
        return bisect_right(self.starts, at)

    def broken(self, start: int, end: int) -> bool:
        """Whether a line break lies in text[start:end]."""
        return self.line(end) > self.line(start)

    def code_before(self, i: int) -> Token | None:
        """The last token before the i-th that is no comment."""
        k = bisect_left(self.code, i)
        return self.tokens[self.code[k - 1]] if k else None

    def code_from(self, i: int) -> Token | None:
        """The first token from the i-th on that is no comment."""
        k = bisect_left(self.code, i)
        return self.tokens[self.code[k]] if k < len(self.code) else None


class _Spans:
    """Tokens' places, sorted and apart, for asking which one holds an offset by bisection."""

    def __init__(self, found: list[Token]):
        self.starts, self.ends = [t.start for t in found], [t.end for t in found]

    def within(self, at: int) -> bool:
        k = bisect_right(self.starts, at) - 1
        return k >= 0 and at < self.ends[k]


def edits(original: str, formatted: str, layout: Layout, path: str = "") -> list[Edit]:
    """The layout fixes of `original`: the formatter's semicolons, commas and quotes that the team's rules ask for,
    and the trailing spaces, blank lines and final newline they forbid or want. Sorted by place, never overlapping."""
    if original == formatted and min(layout.blank or (1,)) >= 1:
        return []  # formatted as the team's options say already (a `max: 0` of blank lines is not the formatter's)
    before = tokens(original)
    text = _Original(original, before)
    found: list[Edit] = [*_dangling(text, layout), *_lines(text, layout)]
    if _SPACE.sub("", original) == _SPACE.sub("", formatted):
        return _apart(found)  # the formatter changed only spaces: no semicolon, comma or quote to take from it
    return _apart(found + _taken_from_formatter(text, formatted, layout, path))


def _taken_from_formatter(text: _Original, formatted: str, layout: Layout, path: str) -> list[Edit]:
    """The formatter's semicolons, commas and quotes the team's rules ask for (JSX keeps its quotes, TypeScript its
    semicolons)."""
    keys, texts = keyed(formatted)
    quotes, layout = _for_file(layout, path)
    before = text.tokens
    found: list[Edit] = []
    for n, (tag, i1, i2, j1, j2) in enumerate(_aligned([key(t.kind, t.text) for t in before], keys)):
        if not n % _CHECK_EVERY:
            deadline.check()  # a file's layout has a share of the run's time (Biome._layout_edits)
        if tag == "equal" and quotes:
            found += _requoted(text, before[i1:i2], texts[j1:j2], quotes)
        elif tag == "insert" and i1 > 0:
            found += _inserted(text, i1, texts[j1:j2], layout)
        elif tag == "delete":
            found += _deleted(text, i1, i2, layout)
    return found


def _for_file(layout: Layout, path: str) -> tuple[str | None, Layout]:
    """The quote memfix fixes in this file (none in JSX), and the layout without semicolons in TypeScript."""
    quotes = None if path.endswith(_JSX) else layout.quotes
    return quotes, replace(layout, semi=None, extra_semi=False) if path.endswith(_TYPED) else layout


def _requoted(text: _Original, before: list[Token], after: list[str], quotes: str) -> list[Edit]:
    """The strings the formatter writes with the team's quote where the original used the other."""
    return [Edit(b.start, b.end, a, "quotes", text.line(b.start)) for b, a in zip(before, after, strict=True)
            if b.text != a and b.kind == "string" and a[:1] == quotes != b.text[:1]]


def _aligned(before: list[str], after: list[str]) -> Iterator[tuple[str, int, int, int, int]]:
    """The two token lists walked side by side, as difflib's opcodes: a semicolon or comma one side has and the
    other not is an insertion or a deletion; anything else that differs (the formatter's parentheses) is skipped
    to where the lists agree again, found in a window ahead. Linear (difflib's matcher on a whole file's tokens is
    quadratic in its repeated tokens)."""
    runs_before, runs_after = _punctuation(before), _punctuation(after)
    i = j = 0
    while i < len(before) and j < len(after):
        if before[i] == after[j]:
            opcode = ("delete", i, i + 1, j, j) if _more_semicolons(before, i, after, j) else \
                ("equal", i, i + 1, j, j + 1)
        elif (run := runs_after[j]) and after[j + run:j + run + 1] == before[i:i + 1]:
            opcode = ("insert", i, i, j, j + run)
        elif (run := runs_before[i]) and before[i + run:i + run + 1] == after[j:j + 1]:
            opcode = ("delete", i, i + run, j, j)
        elif (agree := _agreeing(before, i, after, j)) is not None:
            i, j = i + agree[0], j + agree[1]
            continue
        else:
            return  # the texts part ways: no layout fix past this point
        yield opcode
        i, j = opcode[2], opcode[4]
    yield from _at_the_end(before, i, after, j, runs_after)


def _at_the_end(before: list[str], i: int, after: list[str], j: int,
                runs_after: list[int]) -> Iterator[tuple[str, int, int, int, int]]:
    """Where one list has ended: the formatter's semicolons after the last statement, or the original's extra ones."""
    if i == len(before) and runs_after[j] == len(after) - j:  # the last statement's semicolon
        yield from (("insert", i, i, k, k + 1) for k in range(j, len(after)))
    if j == len(after) and all(key == _SEMICOLON for key in before[i:]):
        yield from (("delete", k, k + 1, j, j) for k in range(i, len(before)))


def _agreeing(before: list[str], i: int, after: list[str], j: int) -> tuple[int, int] | None:
    """How far ahead, in a window, both lists agree again for _AGREE tokens in a row: the first such run of `before`,
    at its first place in `after`. Each run of the window is looked up once (difflib's matcher on the windows took
    their square on repeated tokens, at every difference: minutes on a file whose every line the formatter changed)."""
    runs: dict[tuple[str, ...], int] = {}
    for b in range(min(_WINDOW, len(after) - j) - _AGREE + 1):
        runs.setdefault(tuple(after[j + b:j + b + _AGREE]), b)
    for a in range(min(_WINDOW, len(before) - i) - _AGREE + 1):
        if (found := runs.get(tuple(before[i + a:i + a + _AGREE]))) is not None:
            return a, found
    return None


def _punctuation(keys: list[str]) -> list[int]:
    """How many semicolons or commas in a row start at each place (0 at the end): counted once, not at every step
    (a long run met again and again would be counted again and again)."""
    runs = [0] * (len(keys) + 1)
    for at in range(len(keys) - 1, -1, -1):
        runs[at] = runs[at + 1] + 1 if keys[at] in _PUNCTUATION else 0
    return runs


def _more_semicolons(before: list[str], i: int, after: list[str], j: int) -> bool:
    """Two semicolons where the formatter keeps one: the first goes (`a;` then `;[b]` keeps the one ASI needs)."""
    return before[i] == _SEMICOLON and before[i + 1:i + 2] == [before[i]] and after[j + 1:j + 2] != [after[j]]


def _inserted(original: _Original, i: int, added: list[str], layout: Layout) -> list[Edit]:
    prior = original.code_before(i)  # before a comment that follows
    if prior is None:
        return []
    at, line = prior.end, original.line(prior.end)
    if added == [";"] and layout.semi == "always":
        return [Edit(at, at, ";", "semi", line)]
    if added == [","] and layout.commas in ("always-multiline", "always") and _closes_a_broken_list(original, i, prior):
        return [Edit(at, at, ",", "comma-dangle", line)]
    return []


def _closes_a_broken_list(original: _Original, i: int, prior: Token) -> bool:
    """The i-th token closes a list on a later line than its last item (`prior`), where a trailing comma goes."""
    following = original.tokens[i] if i < len(original.tokens) else None
    return following is not None and following.text in _CLOSERS and original.broken(prior.end, following.start) \
        and prior.text not in ",[{"


def _deleted(original: _Original, i1: int, i2: int, layout: Layout) -> list[Edit]:
    gone = original.tokens[i1:i2]
    if not all(t.text == ";" for t in gone) or not (layout.semi == "never" or layout.extra_semi):
        return []
    if layout.semi == "never" and not _ends_statement(original, gone[-1], i2):
        # `a; b` on one line, or `a;` then `(b)`: that semicolon stays
        return []
    rule = "semi" if layout.semi == "never" else "no-extra-semi"
    return [Edit(t.start, t.end, "", rule, original.line(t.start)) for t in gone]


def _ends_statement(original: _Original, semicolon: Token, i: int) -> bool:
    """Whether the code from the i-th token on starts a new statement without the semicolon before it: nothing
    follows, a block closes, or a new line begins that does not continue the expression."""
    following = original.code_from(i)
    return following is None or following.text == "}" or original.broken(semicolon.end, following.start) \
        and not following.text.startswith(_CONTINUING)


def _dangling(original: _Original, layout: Layout) -> Iterator[Edit]:
    """The trailing commas the team's `comma-dangle` forbids: every one (`never`), or those whose list ends on their
    line. A comma before a closing bracket is one (a hole `[a,,]` is left alone: its last comma counts one)."""
    if layout.commas not in ("never", "only-multiline", "always-multiline"):
        return
    code = [original.tokens[n] for n in original.code]
    for prior, comma, closer in zip(code, code[1:], code[2:], strict=False):
        if comma.text == "," and closer.text in "]})" and prior.text not in ",[({" and \
                (layout.commas == "never" or not original.broken(comma.end, closer.start)):
            yield Edit(comma.start, comma.end, "", "comma-dangle", original.line(comma.start))


def _lines(original: _Original, layout: Layout) -> list[Edit]:
    """Trailing spaces, runs of blank lines and the final newline, outside template literals (their lines are the
    string's own)."""
    found: list[Edit] = []
    text = original.text
    lines = text.split("\n")
    starts = original.starts
    if layout.trailing_spaces:
        found += _trailing_spaces(original, lines, *layout.trailing_spaces)
    if layout.blank:
        found += _blank_runs(lines, starts, original.templates, layout.blank)
    if layout.eol_last and text and not text.endswith("\n"):
        found.append(Edit(len(text), len(text), "\n", "eol-last", len(lines)))
    return found


def _trailing_spaces(original: _Original, lines: list[str], skip_blank: bool, skip_comments: bool) -> Iterator[Edit]:
    """The spaces and tabs that end a line, where the team's `no-trailing-spaces` forbids them."""
    for n, line in enumerate(lines):
        body = line.removesuffix("\r")
        begin, end = original.starts[n] + len(body.rstrip(" \t")), original.starts[n] + len(body)
        if begin < end and not (skip_blank and not body.strip()) and not original.templates.within(begin) \
                and not (skip_comments and original.comments.within(begin)):
            yield Edit(begin, end, "", "no-trailing-spaces", n + 1)


def _blank_runs(lines: list[str], starts: list[int], inside: _Spans, most: tuple[int, int, int]) -> Iterator[Edit]:
    """The blank lines past the team's maximum in each run: in the middle, at the end and at the start. A run at the
    end of a text with no final newline keeps its last line (the cut stops at a line's start)."""
    count = len(lines) - 1 if lines[-1] == "" else len(lines)  # the text after the last newline is no line
    n = 0
    while n < count:
        if lines[n].strip() or inside.within(starts[n]):
            n += 1
            continue
        first = n
        while n < count and not lines[n].strip():
            n += 1
        limit = most[2] if first == 0 else most[1] if n == count else most[0]
        stop = min(n, len(lines) - 1)
        if stop - first > limit:
            cut = first + limit
            yield Edit(starts[cut], starts[stop], "", "no-multiple-empty-lines", cut + 1)


def _apart(found: list[Edit]) -> list[Edit]:
    """Sorted by place; an edit overlapping an earlier one is left out."""
    kept: list[Edit] = []
    for edit in sorted(found, key=lambda e: (e.start, e.end)):
        if kept and edit.start < kept[-1].end:
            continue
        kept.append(edit)
    return kept


def applied(original: str, chosen: list[Edit]) -> str:
    out, at = [], 0
    for edit in sorted(chosen, key=lambda e: (e.start, e.end)):
        out += [original[at:edit.start], edit.text]
        at = edit.end
    return "".join(out) + original[at:]


def same_layout(formatted_before: str, formatted_after: str) -> bool:
    """Whether two texts format alike, blank lines aside (a team's `max: 0` keeps fewer than the formatter's one)."""
    def shape(text: str) -> list[str]:
        return [line for line in text.splitlines() if line.strip()]
    return shape(formatted_before) == shape(formatted_after)
