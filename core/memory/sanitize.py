"""Text from tools and people on its way into storage, prompts and replies: it stays data wherever it goes.

- `printable`: no NUL or control character reaches a table, a search or a log (PostgreSQL's text refuses NUL).
- `escape_braces`: it never expands a template such as `{{project.wisdom}}` in a prompt.
- `inert` and `code`: in a comment memfix posts, it mentions no one, links nowhere and shows no image.
"""

from __future__ import annotations

import re
from itertools import accumulate
from typing import NamedTuple

_OPEN = re.compile(r"\{(?=\{)")
_CLOSE = re.compile(r"\}(?=\})")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]|[\ud800-\udfff]")
_ZW = "\u200b"  # a zero-width space: GitHub then sees no mention, reference or autolink
# Outside a kept code span: marks GitHub would link (a mention or e-mail address, `#12`, `GH-12`, a URL's scheme,
# `www.`) get a zero-width space; characters that open a link, an image, HTML, a table cell, a code span, an entity
# (`&#64;` is an @) or math are escaped.
_ACTIVE = re.compile(r"(@(?=[^\s\u200b])|#(?=\w)|(?i:gh-)(?=\d)|(?i:https?|ftp)(?=://)|(?i:mailto|xmpp)(?=:)"
                     r"|(?i:www)(?=\.))|([\\`\[\]<>!|$]|&(?=[#0-9A-Za-z]))")
_TOKEN = re.compile(r"`+|\||\r\n?|\n")  # what a code span's extent depends on: backtick runs, cells, lines
_LINE_BREAK = re.compile(r"\r\n?|\n")  # CommonMark's line endings
# A line that may be blank, indented code, or start a block (heading, quote, list, fence, HTML, table row, break,
# footnote): a code span that reaches it may not be one.
_LOOSE = re.compile(r" {0,3}(?:\s|$|[#>=_*+\-|:<~\[$\d]|```)")


class _Run(NamedTuple):
    """A run of backticks: where it starts and ends, on which line, after how many `|` (table cells)."""
    start: int
    end: int
    line: int
    cell: int


def escape_braces(text: str) -> str:
    """Put a space between every pair of adjacent braces: `{{x}}` → `{ {x} }`, `{{{` → `{ { {`.

    The result holds no `{{` or `}}`, so a template engine sees no placeholder in it, and escaping
    it again changes nothing (idempotent). Single braces (code, JSON) are left alone.
    """
    return _CLOSE.sub("} ", _OPEN.sub("{ ", text))


def printable(text: str) -> str:
    """Control characters (NUL included) and lone surrogates as visible escapes (`\\x00`); tabs and newlines kept."""
    if text.isprintable():
        return text
    return _CONTROL.sub(lambda m: m[0].encode("unicode_escape", "backslashreplace").decode("ascii"), text)


def inert(text: str) -> str:
    """Text as a comment may show it: it mentions no one, links nowhere, shows no image and renders no HTML.

    A code span is kept as it is (GitHub renders nothing in it) only where CommonMark surely makes it one: an
    unescaped run of backticks closed by the next run of exactly its length, with no `|` between them (a table cell
    would split it), and, across lines, only through lines that go on a paragraph (none blank, indented, starting a
    block or in a table, and no table's delimiter row just after them). Everywhere else every backtick and backslash is
    escaped, so the result's code spans are exactly the kept ones, whatever the text around it; mentions, references
    and autolinks are broken by a zero-width space and link, image, HTML and table characters escaped. This holds for
    the text standing in a paragraph, a list item or a quote (not inside a heading or a table row), and for `inert`
    of its own result. One pass: linear in the text."""
    text = printable(text)
    out, start = [], 0
    for begin, end in _kept_spans(text):
        out += [_quiet(text[start:begin]), text[begin:end]]
        start = end
    out.append(_quiet(text[start:]))
    return "".join(out)


def code(text: str) -> str:
    """Text as one inline code span, whatever backticks or line breaks it holds."""
    flat = printable(" ".join(text.splitlines()))
    fence = "`" * (max((len(run) for run in re.findall(r"`+", flat)), default=0) + 1)
    pad = " " if flat.startswith("`") or flat.endswith("`") else ""
    return f"{fence}{pad}{flat}{pad}{fence}"


def _kept_spans(text: str) -> list[tuple[int, int]]:
    """Each code span `inert` keeps, as (start, end): an opener is matched to the next run of its length only."""
    runs = _runs(text)
    after = _next_of_equal_length(runs)
    loose, delimiter = _lines(text)
    loose_before = [0, *accumulate(loose)]  # how many loose lines precede each line

    def sure(opener: _Run, closer: _Run) -> bool:
        if closer.cell != opener.cell or _escaped(text, opener.start):
            return False
        below = closer.line + 1
        return closer.line == opener.line or (loose_before[below] == loose_before[opener.line]
                                              and not (below < len(delimiter) and delimiter[below]))

    spans, i = [], 0
    while i < len(runs):
        j = after[i]
        if j is not None and sure(runs[i], runs[j]):
            spans.append((runs[i].start, runs[j].end))
            i = j + 1
        else:
            i += 1  # the run is text; the next one may open a span
    return spans


def _runs(text: str) -> list[_Run]:
    runs, line, cell = [], 0, 0
    for token in _TOKEN.finditer(text):
        if token[0][0] == "`":
            runs.append(_Run(token.start(), token.end(), line, cell))
        elif token[0] == "|":
            cell += 1
        else:
            line += 1
    return runs


def _next_of_equal_length(runs: list[_Run]) -> list[int | None]:
    """For each run, the index of the next run of exactly its length (a code span's only possible closer)."""
    after: list[int | None] = [None] * len(runs)
    seen: dict[int, int] = {}
    for i in range(len(runs) - 1, -1, -1):
        length = runs[i].end - runs[i].start
        after[i] = seen.get(length)
        seen[length] = i
    return after


def _lines(text: str) -> tuple[list[bool], list[bool]]:
    """For each line: whether a code span may not run into it; whether it may be a table's delimiter row (`:-:` needs
    no `|`), which takes the line above it out of its paragraph as the table's header. After such a row each line up
    to a blank one may be a row of that table: loose too."""
    loose, delimiter, table = [], [], False
    for line in _LINE_BREAK.split(text):
        delimiter.append("-" in line and not line.strip(" \t|:-\\"))
        loose.append(table or bool(_LOOSE.match(line)))
        table = bool(line.strip(" \t")) and (table or delimiter[-1])
    return loose, delimiter


def _escaped(text: str, at: int) -> bool:
    """Whether an odd number of backslashes stands before `at`: then the first backtick there is an escaped one."""
    before = at
    while before and text[before - 1] == "\\":
        before -= 1
    return (at - before) % 2 == 1


def _quiet(text: str) -> str:
    return _ACTIVE.sub(lambda m: m[1] + _ZW if m[1] else "\\" + m[2], text)
